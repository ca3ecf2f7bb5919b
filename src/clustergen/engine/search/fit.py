"""When a request does not fit: what would, and the request that builds the largest that does.

A request whose GPUs or workload need more than its cap is not a dead end: the refusal names the
most GPUs each platform fits under the cap and the cap the request needs, and `fit_request` turns
the request into "the most GPUs under this cap" so the caller can build that instead.
"""

from __future__ import annotations

from clustergen.catalog.loader import Catalog
from clustergen.engine.model.design import TradeStudy
from clustergen.engine.model.request import WORKLOAD_TARGETS, DesignRequest
from clustergen.engine.sizing.inputs import resolve_request_inputs
from clustergen.errors import ClustergenError, InfeasibleDesignError

#: how many platforms the refusal names
SHOWN = 3


def fit_request(request: DesignRequest) -> DesignRequest:
    """The request with its size left to the cap: no GPU or node count, no workload target, the
    most GPUs under the cap. The model and workload kind stay, for the trade study's filters."""
    cleared = dict.fromkeys(("gpus", "nodes", *WORKLOAD_TARGETS))
    return request.model_copy(update={**cleared, "objective": "most-gpus", "fit": None})


def most_under_cap_by_platform(catalog: Catalog, request: DesignRequest) -> list[tuple[str, int]]:
    """(platform, GPUs) of the largest whole design under the request's cap, best first."""
    from clustergen.engine.search.trade_study import run_study  # the study builds on this module

    try:
        found = run_study(catalog, fit_request(request)).study
    except ClustergenError:
        return []
    best: dict[str, int] = {}
    for r in found.rows:
        if r.eligible:
            best[r.platform] = max(best.get(r.platform, 0), r.gpus)
    return sorted(best.items(), key=lambda kv: (-kv[1], kv[0]))


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
        if r.infeasible
        and r.power_complete
        and "cap" in (r.why_not or "")
        and (named or pattern_misfit(catalog, catalog.system(r.platform), workload) is None)
    ]
    if request.power_cap_w is None or not over:
        return InfeasibleDesignError(message, hint="relax a constraint, or name a platform")
    least = min(over, key=lambda r: r.it_power_w)
    needed_mw = least.it_power_w / 1e6
    cap = (least.why_not or "").rpartition("over the ")[2]
    asked = f"{least.needed_gpus:,} GPUs" if least.needed_gpus else "the workload"
    message = (
        f"no design fits under the cap: {asked} need at least {needed_mw:.2f} MW IT "
        f"(on {least.platform}), over the {cap}"
    )
    fits = most_under_cap_by_platform(catalog, request)
    if fits:
        top = fits[0][1]
        on = ", ".join(p for p, g in fits if g == top)
        others = [f"{g:,} on {p}" for p, g in fits if g != top][: SHOWN - 1]
        hint = f"at most {top:,} GPUs fit under it (on {on}"
        hint += f"; {', '.join(others)})" if others else ")"
        hint += f"; or raise the cap to {needed_mw:.2f} MW IT; or build the largest that fits"
    else:
        hint = f"nothing fits under the cap; raise it to {needed_mw:.2f} MW IT"
    return InfeasibleDesignError(
        message,
        hint=hint,
        fits_gpus=fits[0][1] if fits else 0,
        fits_by_platform=dict(fits),
        needs_it_w=least.it_power_w,
        field="fit",
    )
