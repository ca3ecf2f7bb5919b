"""When a request does not fit: what would, and the request that builds the largest that does.

A request whose GPUs or workload need more than its cap is not a dead end: the refusal names the
most GPUs each platform fits under the cap and the cap the request needs, and `fit_request` turns
the request into "the most GPUs under this cap" so the caller can build that instead.
"""

from __future__ import annotations

from clustergen.catalog.loader import Catalog
from clustergen.engine.cost import HOW_TO_PRICE
from clustergen.engine.model.design import Alternative, TradeStudy
from clustergen.engine.model.request import WORKLOAD_TARGETS, DesignRequest
from clustergen.engine.sizing.inputs import resolve_request_inputs
from clustergen.errors import ClustergenError, InfeasibleDesignError
from clustergen.units import dollars, power_words

#: how many platforms the refusal names
SHOWN = 3


def fit_request(request: DesignRequest) -> DesignRequest:
    """The request with its size left to the cap: no GPU or node count, no workload target, the
    most GPUs under the cap (a replacement: the most dense compute). The model and workload kind
    stay, for the trade study's filters."""
    cleared = dict.fromkeys(("gpus", "nodes", *WORKLOAD_TARGETS))
    # a fleet's successor is weighed by its compute, not its GPU count: fewer, faster GPUs in
    # the same envelope are the better replacement
    objective = None if request.replaced_platform else "most-gpus"
    return request.model_copy(update={**cleared, "objective": objective, "fit": None})


def most_under_cap_by_platform(catalog: Catalog, request: DesignRequest) -> list[tuple[str, int]]:
    """(platform, GPUs) of the largest whole design under the request's cap, the one building
    it would choose first (an off-RA design a few GPUs larger ranks after an RA one, as in the
    trade study, so the figure a refusal offers is the design `fit` builds), then by GPUs."""
    from clustergen.engine.search.trade_study import run_study  # the study builds on this module

    try:
        found = run_study(catalog, fit_request(request)).study
    except ClustergenError:
        return []
    chosen = found.rows[0] if found.rows and found.rows[0].eligible else None
    best: dict[str, int] = {chosen.platform: chosen.gpus} if chosen else {}
    for r in found.rows:
        # under a capital budget, a row whose priced lines fit (others unpriced) is the best
        # that can be said: it is named, its capital check says it is a lower bound
        priced_fit = request.capital_budget_usd and not r.infeasible and r.capital_usd
        admitted = r.eligible or (priced_fit and r.power_complete)
        if admitted and (chosen is None or r.platform != chosen.platform):
            best[r.platform] = max(best.get(r.platform, 0), r.gpus)
    first = [(chosen.platform, chosen.gpus)] if chosen else []
    rest = sorted(
        ((p, g) for p, g in best.items() if not first or p != first[0][0]),
        key=lambda kv: (-kv[1], kv[0]),
    )
    return first + rest


def infeasible(
    catalog: Catalog, request: DesignRequest, study: TradeStudy
) -> InfeasibleDesignError:
    """The refusal of a request no candidate meets. Over a cap: what the request needs at least,
    the most GPUs each platform fits under the cap, and that the largest can be built instead."""
    from clustergen.engine.search.trade_study import pattern_misfit  # the study builds on this

    closest = study.rows[0]
    message = f"no candidate meets the request; closest, {closest.platform}: {closest.why_not}"
    workload = resolve_request_inputs(catalog, request).workload
    named = bool(request.platform or request.gpu)
    over = [
        r
        for r in study.rows
        # a lower bound over the cap is over it too (an unknown term only adds to it)
        if r.infeasible
        and "IT cap" in (r.why_not or "")
        and (named or pattern_misfit(catalog, catalog.system(r.platform), workload) is None)
    ]
    # a candidate the power cap admits but the budget rules out (over it, or unpriced): the
    # budget is what binds, and its refusal says how to price or what the budget buys
    by_budget = [r for r in study.rows if "capital budget" in (r.why_not or "") and r not in over]
    if request.capital_budget_usd is not None and (by_budget or not over):
        return over_budget_error(catalog, request, study, message)
    by_racks = [r for r in study.rows if r.infeasible and "racks, over the" in (r.why_not or "")]
    if request.max_racks is not None and by_racks and not over:
        return over_racks_error(catalog, request, by_racks)
    if request.power_cap_w is None or not over:
        return InfeasibleDesignError(message, hint="relax a constraint, or name a platform")
    least = min(over, key=lambda r: r.it_power_w)
    needed = power_words(least.it_power_w)
    cap = (least.why_not or "").rpartition("over the ")[2]
    asked = f"{least.needed_gpus:,} GPUs" if least.needed_gpus else "the workload"
    message = (
        f"no design fits under the cap: {asked} need at least {needed} IT "
        f"(on {least.platform}), over the {cap}"
    )
    fits = most_under_cap_by_platform(catalog, request)
    if fits:
        hint = f"{_what_fits(fits, 'under it')}; or raise the cap to {needed} IT; "
        hint += "or build the largest that fits"
    else:
        hint = f"nothing fits under the cap; raise it to {needed} IT"
    return InfeasibleDesignError(
        message,
        hint=hint,
        fits_gpus=fits[0][1] if fits else 0,
        fits_by_platform=dict(fits),
        needs_it_w=least.it_power_w,
        field="fit",
    )


def over_racks_error(
    catalog: Catalog, request: DesignRequest, over: list[Alternative]
) -> InfeasibleDesignError:
    """The refusal of a request no candidate builds in the site's rack positions: the fewest
    racks it needs, and the most GPUs each platform fits in the positions."""
    room = request.max_racks or 0
    least = min(over, key=lambda r: (r.racks, r.it_power_w))
    asked = f"{least.needed_gpus:,} GPUs" if least.needed_gpus else "the workload"
    fits = most_under_cap_by_platform(catalog, request)
    first = f"{_what_fits(fits, f'in {room} racks')}; or " if fits else ""
    return InfeasibleDesignError(
        f"no design fits in the site's {room} racks: {asked} need at least {least.racks} "
        f"(on {least.platform})",
        hint=f"{first}allow {least.racks} racks, or a higher rack power limit"
        + ("; or build the largest that fits" if fits else ""),
        fits_gpus=fits[0][1] if fits else 0,
        fits_by_platform=dict(fits),
        field="fit",
    )


def _what_fits(fits: list[tuple[str, int]], under: str) -> str:
    """'at most 360 GPUs fit under it (on dgx-h100, hgx-h100; 256 on hgx-b200)': the GPUs of
    the design building the largest would choose, the platforms that reach it, then the next
    few platforms with theirs (one off its reference architecture may hold a few more)."""
    top = fits[0][1]
    on = ", ".join(p for p, g in fits if g == top)
    # a platform with more than the chosen design holds them only off its reference architecture
    others = [
        f"{g:,} on {p}{' off its reference architecture' if g > top else ''}"
        for p, g in fits
        if g != top
    ][: SHOWN - 1]
    most = "at most " if all(g <= top for _, g in fits) else ""
    tail = f"; {', '.join(others)}" if others else ""
    return f"{most}{top:,} GPUs fit {under} (on {on}{tail})"


def over_budget_error(
    catalog: Catalog, request: DesignRequest, study: TradeStudy, message: str
) -> InfeasibleDesignError:
    """The refusal of a request no candidate meets under its capital budget: the least capital
    the request needs (priced lines), the most GPUs the budget buys per platform, or, when no
    candidate has a price, how to give one."""
    budget = request.capital_budget_usd or 0.0
    over = [r for r in study.rows if r.infeasible and r.capital_usd and r.capital_usd > budget]
    if not over:
        if all(r.capital_usd is None for r in study.rows):
            return InfeasibleDesignError(
                f"no candidate platform has a price, so none can be held to the "
                f"{dollars(budget)} capital budget",
                hint=HOW_TO_PRICE,
                field="capital_budget_usd",
            )
        return InfeasibleDesignError(message, hint="relax a constraint, or name a platform")
    least = min(over, key=lambda r: r.capital_usd or 0.0)
    asked = f"{least.needed_gpus:,} GPUs" if least.needed_gpus else "the workload"
    bound = "" if least.capital_complete else "at least "
    message = (
        f"no design fits the {dollars(budget)} capital budget: {asked} cost {bound}"
        f"{dollars(least.capital_usd or 0.0)} (on {least.platform})"
    )
    fits = most_under_cap_by_platform(catalog, request)
    raise_to = f"raise the capital budget to {dollars(least.capital_usd or 0.0)}"
    if fits:
        hint = f"{_what_fits(fits, 'the budget')}; or {raise_to}; or build the largest that fits"
    else:
        hint = f"nothing fits the budget; {raise_to}"
    return InfeasibleDesignError(
        message,
        hint=hint,
        fits_gpus=fits[0][1] if fits else 0,
        fits_by_platform=dict(fits),
        needs_usd=least.capital_usd,
        field="fit",
    )
