"""The offline planner: a deterministic baseline that turns a request into a design by running a
trade study (platform x fabric technology x oversubscription, each a whole design) and taking the
chosen row's design as the answer, not a rebuild of it."""

from __future__ import annotations

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import System
from clustergen.engine.model.common import Assumed
from clustergen.engine.model.design import Alternative, Design, TradeStudy
from clustergen.engine.model.request import FILLING, WORKLOAD_TARGETS, DesignRequest, extends
from clustergen.engine.request.rules.counts import su_rule
from clustergen.engine.search.fit import fit_request, infeasible
from clustergen.engine.search.installed import plan_expansion, plan_replacement
from clustergen.engine.search.objective import DELIVERED, RA_MARGIN, bound_words, traded
from clustergen.engine.search.pools import plan_pools, pooled
from clustergen.engine.search.trade_study import current_only, run_study
from clustergen.engine.sizing.inputs import resolve_request_inputs
from clustergen.engine.sizing.platform import layout_nodes
from clustergen.engine.sizing.workload import not_met_elsewhere
from clustergen.errors import InfeasibleDesignError
from clustergen.units import dollars, duration, per_kwh


def plan_design(catalog: Catalog, request: DesignRequest) -> Design:
    """The offline planner: trade study, choose, validate. Raises InfeasibleDesignError when no
    candidate meets the request, saying what would (and that `fit` builds it). A request that
    extends an installation or replaces a fleet is planned on its terms (`search.installed`); a
    mixed request that says what serves as two pools (`search/pools.py`)."""
    if extends(request):
        return plan_expansion(catalog, request, _plan)
    if request.replaced_platform:
        return plan_replacement(catalog, request, _plan)
    if pooled(request):
        return plan_pools(catalog, request, plan_design)
    return _plan(catalog, request)


def _plan(catalog: Catalog, request: DesignRequest) -> Design:
    common = resolve_request_inputs(catalog, request)
    found = run_study(catalog, request, common)
    study = found.study
    if found.chosen is None or not study.rows:
        if found.request_error is not None:  # the request's own mistake, the same on every platform
            raise found.request_error
        if study.dropped:
            first = study.dropped[0]
            elsewhere = not_met_elsewhere(catalog, request)
            raise InfeasibleDesignError(
                f"no candidate platform could be sized ({len(study.dropped)} dropped); "
                f"{first.platform}: {first.why_not}",
                hint="meets it instead: " + "; ".join(elsewhere) if elsewhere else None,
            )
        raise InfeasibleDesignError(
            "no platform in the catalog meets the request's constraints",
            hint="relax cooling or rack limits, or name a platform",
        )
    best = study.rows[0]
    if best.infeasible:
        refusal = infeasible(catalog, request, study)
        if not (request.fit and refusal.details.get("fits_gpus")):
            raise refusal
        return _fitted(catalog, request, refusal.one_line())
    return _answer(catalog, request, found.chosen, study, best)


def _fitted(catalog: Catalog, request: DesignRequest, why: str) -> Design:
    """The largest design under the cap, for a request that asked to fit when it does not."""
    d = _plan(catalog, fit_request(request))
    asked = (
        f"{request.gpus:,} GPUs"
        if request.gpus
        else f"{request.nodes:,} nodes"
        if request.nodes
        else "the workload's GPUs"
    )
    if request.replaced_gpus and request.gpus == request.replaced_gpus:
        # a fleet's successor counted one for one: the count is the fleet's, not one asked for
        asked = f"{request.gpus:,} GPUs, one for one with the fleet replaced,"
        line = (
            f"built to fit: {asked} do not fit {bound_words(request)}, so this is the largest "
            f"design that does ({d.compute.gpus:,} GPUs)"
        )
    else:
        line = (
            f"built to fit: {asked} asked for do not fit {bound_words(request)}, so this is the "
            f"largest design that does ({d.compute.gpus:,} GPUs)"
        )
    note = Assumed(field="fit", value=str(d.compute.gpus), reason=why)
    return d.model_copy(update={"notice": line, "assumptions": [note, *d.assumptions]})


def _avoided(avoided: list[str] | None, chosen: str, catalog: Catalog) -> str:
    """What the request would rather not have, and whether it could be kept out."""
    if not avoided:
        return ""
    system = catalog.system(chosen)
    if avoided_ := {chosen, system.gpu or ""} & set(avoided):
        return f"{', '.join(sorted(avoided_))} though avoided where possible (nothing else fits)"
    return f"none of {', '.join(avoided)} (avoided where possible)"


def _reason(catalog: Catalog, request: DesignRequest, study: TradeStudy, best: Alternative) -> str:
    """Why the chosen row: the objective, the RA it follows; or, when no row met every
    constraint, that it is the closest and why it falls short."""
    if not best.eligible:
        return f"no alternative met every constraint; closest: {best.why_not}"
    reason = f"{study.objective}"
    if study.objective.endswith(DELIVERED):
        trade = traded(study.rows, best, _precision(request, study))
        reason += f" ({trade})" if trade else ""
    # what narrowed the platforms weighed; a named platform is one system, already checked
    asked = (
        []
        if request.platform
        else [
            f"{request.compute_link_gbps}G compute ports" if request.compute_link_gbps else "",
            "" if request.gpu or not request.cooling else f"{request.cooling} cooling",
            f"{request.gpu_architecture} GPUs" if request.gpu_architecture else "",
            f"{' or '.join(request.gpus_weighed)} GPUs" if request.gpus_weighed else "",
            _excluded(catalog, request.platforms_excluded, request.cooling),
            _avoided(request.platforms_avoided, best.platform, catalog),
        ]
    )
    filters = " and ".join(a for a in asked if a)
    if request.platform or request.gpu:
        reason = "named in the request; " + reason
        if filters:
            reason += f" among its systems with {filters}, as asked"
    else:
        with_ = f" with {filters}, as asked" if filters else ""
        reason += f" {current_only(with_)}"
    # an increment follows the installation it joins: the architecture of the grown size
    joined = layout_nodes(catalog, request, catalog.system(best.platform)) or 0
    arch = catalog.architecture_for(
        best.platform, best.fabric, best.nodes + joined, request.compute_link_gbps
    )
    if best.follows_ra and arch is not None:
        reason += f"; follows {arch.name}"
        if not arch.covers(best.nodes + joined):
            span = (
                f"{arch.min_nodes}-{arch.max_nodes}" if arch.max_nodes else f">= {arch.min_nodes}"
            )
            why = (
                f", for the {request.compute_link_gbps:g} Gb/s ports asked"
                if request.compute_link_gbps
                else ""
            )
            reason += f" outside its range of {span} nodes{why}"
        if request.su_architecture == arch.id:
            reason += "; " + su_rule(catalog, best.platform, arch, best.nodes)
    return reason


def _excluded(catalog: Catalog, excluded: list[str] | None, cooling: str | None) -> str:
    """What ruling platforms out left: the ones ruled out, or, when fewer are left (an RA
    named), the ones left (of the cooling asked for, which filters them too)."""
    if not excluded:
        return ""
    kept = [
        s.id
        for s in catalog.all("systems", System)
        if s.gpus_per_node
        and s.id not in excluded
        and s.gpu not in excluded
        and (cooling is None or s.cooling in (cooling, "air-or-liquid"))
    ]
    if len(excluded) > 4 and 0 < len(kept) < len(excluded):
        return f"only {', '.join(kept)} weighed"
    return f"none of {', '.join(excluded)}"


def _precision(request: DesignRequest, study: TradeStudy) -> str:
    """The precision the study's dense compute is stated at, as its objective names it."""
    for p in ("FP4", "FP8", "FP16", "BF16"):
        if f" {p} " in f" {study.objective} ":
            return p
    return (request.precision or "bf16").upper()


def overshoot_line(best: Alternative, platforms: int) -> str | None:
    """The first-lines statement of GPUs built beyond the need, past the margin or by more than
    a rounding to whole nodes."""
    need = best.needed_gpus
    if not need or best.gpus <= need:
        return None
    extra = best.gpus - need
    per_node = best.gpus // best.nodes if best.nodes else best.gpus
    if extra < per_node and best.gpus <= need * (1 + RA_MARGIN):
        return None  # a rounding to whole nodes, within the margin: the compute warning says it
    why = "; it still needs the least IT power of the platforms weighed" if platforms > 1 else ""
    return (
        f"delivers {best.gpus:,} GPUs for the {need:,} needed ({extra / need:.0%} more): "
        f"{best.platform} is built in whole {per_node}-GPU nodes{why}"
    )


def filled_line(best: Alternative, request: DesignRequest | None = None) -> str | None:
    """The first-lines statement of a design filled to its cap as asked ("the most we can
    serve"), beside what its workload alone needs (when the request states a load or a run)."""
    need = best.needed_gpus
    if not need or best.gpus <= need:
        return None
    # what the filled design serves: the workload estimate below sizes one load's replicas
    served = (
        f", serving {best.output_tokens_per_s:,.0f} output tokens/s at the estimate's rate per GPU"
        if best.output_tokens_per_s
        else ""
    )
    if request is not None and not any(getattr(request, f) for f in WORKLOAD_TARGETS):
        # no load or run stated: the one replica an unstated load needs is no need to compare
        return f"the cap sizes it, as asked: {best.gpus:,} GPUs, the most that fit{served}"
    return (
        f"the cap sizes it, as asked (the most GPUs that fit): {best.gpus:,} GPUs where the "
        f"workload alone needs {need:,}{served}"
    )


def capacity_line(catalog: Catalog, d: Design) -> str | None:
    """What the GPUs serve, said first when no load was stated ("how many users can 8 H200
    handle at 30 tokens/s each?", "Llama 3.1 405B on 16 B200"): the serving estimate's output
    tokens/s and, for a model served to people, the streams at each one's speed."""
    w, r = d.workload, d.request
    if w is None or w.kind != "inference" or r.output_tokens_per_s:
        return None
    if not w.tokens_per_s_per_gpu or not w.gpus_required:
        return None
    total = w.tokens_per_s_per_gpu * w.gpus_required
    model = catalog.model(w.model).name if w.model else f"a {w.model_params_b:g}B model"
    # an estimate on fewer GPUs than whole nodes built is said of the GPUs asked for
    which = "GPUs asked" if w.gpus_required < d.compute.gpus else "GPUs"
    line = (
        f"the {w.gpus_required:,} {which} serve about {total:,.0f} output tokens/s of {model} "
        f"({w.tokens_per_s_per_gpu:,.0f} per GPU; estimate, +/-{w.band_pct:g}%)"
    )
    osl = r.osl_tokens or next(
        (float(a.value) for a in d.assumptions if a.field == "osl-tokens"), None
    )
    if osl:
        line += f", {total / osl:,.3g} requests/s of {osl:,.0f} output tokens"
        line += "" if r.osl_tokens else " (assumed)"
    speed = w.tokens_per_s_per_user
    if r.interactive is False or not speed:
        return line
    limit = next((a for a in d.assumptions if a.field == "tpot_ms"), None)
    held = (
        f" (no speed per user stated: TPOT held to <= {limit.value} ms; state one to change it)"
        if limit
        else ""
    )
    return f"{line}: about {total / speed:,.0f} users at once at {speed:,.3g} tokens/s each{held}"


def running_cost_line(d: Design) -> str | None:
    """What running the design costs, said first when the request prices its energy ("what
    would 128 GB300s cost to run for a year at $0.08/kWh?"): the term's energy at the facility's
    draw, and what of the rest is not yet known."""
    c, r = d.cost, d.request
    if c is None or r.usd_per_kwh is None or c.energy_usd is None:
        return None
    term = f"{c.term_years:g} year" + ("" if c.term_years == 1 else "s")
    basis = (
        "every part at its rated maximum: an upper bound"
        if c.load_share >= 1
        else f"at {c.load_share:.0%} of full power"
    )
    line = (
        f"running it for {term} costs {dollars(c.energy_usd)} in energy "
        f"({c.facility_kw:,.0f} kW facility at {per_kwh(c.usd_per_kwh or 0)}, {basis})"
    )
    if c.total_usd is not None:
        return f"{line}; {dollars(c.total_usd)} in all with capital and support"
    return f"{line}; capital and support unknown ({'; '.join(c.missing)})"


def duration_line(d: Design) -> str | None:
    """How long a run on GPUs given takes, said first when no time was stated ("how long would
    it take to train a 70B model on 10T tokens with 1,024 H100s?"): the estimate's days, and the
    other number format's when the request did not say which."""
    w, r = d.workload, d.request
    if w is None or w.kind == "inference" or r.training_days or not w.days or not w.gpus_required:
        return None
    hours = w.gpu_hours or w.days * 24 * w.gpus_required
    line = (
        f"the run takes about {duration(w.days)} on the {w.gpus_required:,} GPUs "
        f"({hours:,.0f} GPU-hours at {w.precision.upper()}; estimate, +/-{w.band_pct:g}%)"
    )
    other = next((p for p in w.by_precision if not p.assumed and p.days), None)
    if other is not None and other.days:
        line += f"; {duration(other.days)} at {other.precision.upper()}"
    return line


def racks_bind_line(request: DesignRequest, d: Design) -> str | None:
    """The first-lines statement that the site's rack positions, not its power, bound a design
    filled to fit, with the rack limit that made them bind (stated, or assumed)."""
    cap, racks = request.power_cap_w, request.max_racks
    if not cap or not racks or d.racks.total_racks < racks:
        return None
    it = d.power.it_total_w
    if it is None or it >= 0.9 * cap:
        return None
    limit = next((a for a in d.assumptions if a.field == "rack_power_kw"), None)
    per_rack = (
        f"at the assumed {limit.value} kW a rack ({limit.reason})"
        if limit
        else f"at the stated {request.rack_power_kw:g} kW a rack"
    )
    return (
        f"the site's {racks} racks bind, not the cap: {per_rack}, "
        f"{(cap - it) / 1e3:,.0f} kW of the {cap / 1e3:,.0f} kW cap is unused (state the racks' "
        "power, e.g. '50 kW per rack', to use more of it)"
    )


def _compute_sized(request: DesignRequest, best: Alternative) -> Assumed:
    """How a compute target became the design's GPUs, and the dense compute they deliver."""
    precision = (request.precision or "bf16").upper()
    delivered = "unknown" if best.dense_pflops is None else f"{best.dense_pflops:,.1f}"
    return Assumed(
        field="gpus",
        value=f"{best.needed_gpus:,}",
        reason=(
            f"{request.compute_pflops:,g} dense {precision} PFLOPS at each {best.platform} GPU's "
            f"dense peak needs {best.needed_gpus:,} GPUs; the design's {best.gpus:,} deliver "
            f"{delivered} dense {precision} PFLOPS (peak, not sustained: a workload's MFU "
            "is lower)"
        ),
    )


def _answer(
    catalog: Catalog, request: DesignRequest, d: Design, study: TradeStudy, best: Alternative
) -> Design:
    """The chosen row's design, with the study it won, why, and the platform as an assumption."""
    reason = _reason(catalog, request, study, best)
    assumed = list(d.assumptions)
    if not (request.platform or request.gpu):
        at = sum(1 for a in assumed if a.field == "workload")
        assumed.insert(at, Assumed(field="platform", value=best.platform, reason=reason))
    if request.compute_pflops and not (request.gpus or request.nodes):
        assumed.append(_compute_sized(request, best))
        # the GPUs were the platform's reading of the target, not asked for: the design echoes
        # the request as written, so rebuilding it weighs every platform again
        d = d.model_copy(update={"request": request})
    notices = [
        capital_unknown_line(d),
        filled_line(best, request) if request.objective in FILLING else None,
        racks_bind_line(request, d) if request.objective in FILLING else None,
        None
        if request.objective in FILLING
        else overshoot_line(best, len({r.platform for r in study.rows})),
        None if request.objective in FILLING else capacity_line(catalog, d),
        None if request.objective in FILLING else duration_line(d),
        running_cost_line(d),
    ]
    return d.model_copy(
        update={
            "alternatives": study,
            "assumptions": assumed,
            "platform": d.platform.model_copy(update={"reason": reason}),
            "notice": "; ".join(n for n in notices if n) or None,
        }
    )


def capital_unknown_line(d: Design) -> str | None:
    """A capital budget the design cannot be held to, said first: with lines unpriced, the GPUs
    are what the priced lines alone allow, an upper bound and never a maximum."""
    budget = d.request.capital_budget_usd
    check = next((c for c in d.checks if c.name == "capital within the capital budget"), None)
    if budget is None or check is None or not check.unknown:
        return None
    t = d.bom_totals
    orderable = sum(1 for ln in d.bom if ln.status == "order")
    unpriced = f"{orderable - t.priced_lines} of {orderable} orderable lines unpriced"
    r = d.request
    if r.gpus or r.nodes or d.workload is not None:
        # the count or workload sized it: the budget is only checked, and cannot be
        return (
            f"cannot tell whether it fits the {dollars(budget)} capital budget: {unpriced}; "
            "price them to check it"
        )
    return (
        f"cannot tell whether it fits the {dollars(budget)} capital budget: {unpriced}, so "
        f"{d.compute.gpus:,} GPUs is what the priced lines alone allow (an upper bound, not "
        "the most the budget buys); price the rest to size it"
    )
