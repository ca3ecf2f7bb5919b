"""The trade study: every candidate (platform x fabric technology x oversubscription) the request
allows, each weighed by building its whole design with the engine that builds the answer. A row is
a projection of that design (GPUs, whole-design IT power, switches, racks, the objective), so the
chosen row and the answer are one design, never two sizings of it.

The objective follows the request (`objective.objective_for`). The ranking, stated in the study:
eligible rows first (within the cap, a non-blocking fabric for training, a platform whose RA pattern
serves the workload, power and throughput known, the workload met); then rows that follow their
platform's reference architecture, when within the margin of the best score; then the score; then
fewer switches. A row whose power is incomplete is never ranked as if it were cheaper: it is not
eligible, and says which term is unknown.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from clustergen.catalog.architectures import Architecture, RaPattern
from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import System
from clustergen.engine.assemble import Sized, finish_design, size_design
from clustergen.engine.cache import cached
from clustergen.engine.cost import budget_verdict, capital_of
from clustergen.engine.model.common import Technology
from clustergen.engine.model.design import (
    Alternative,
    Design,
    DesignChoices,
    DroppedCandidate,
    TradeStudy,
)
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.search.objective import RA_MARGIN, Objective, objective_for, with_prices
from clustergen.engine.search.published import RowKey, past_published, row_key
from clustergen.engine.sizing.inputs import RequestInputs, resolve_request_inputs
from clustergen.engine.sizing.platform import gpu_system, node_power
from clustergen.engine.sizing.workload import dense_field, peak_flops, workload_gpus
from clustergen.errors import ClustergenError, RequestError
from clustergen.units import dollars, power_words, watts

TRAINING = frozenset({"training", "fine-tuning"})
#: workloads whose fabric is non-blocking unless the request says otherwise: a mixed cluster
#: shares its GPUs with training, and an inference-grade fabric cannot train
NON_BLOCKING = TRAINING | {"mixed"}
#: objectives whose answer is the size itself (the most under a cap): rows of different sizes
#: are weighed by it, so a published size is no ground to rank a smaller one first
FILLS_CAP = frozenset({"most-gpus", "most-tokens", "compute"})


def ranking_text() -> str:
    """The ranking rule, stated once in every study."""
    return (
        "eligible rows first; rows whose power is known before rows whose power is a lower "
        "bound; then rows on their platform's reference-architecture design when "
        f"within {RA_MARGIN:.0%} of the best score, a platform's rows at a size their RA "
        "publishes before its rows past it (unless the study fills a cap); "
        "then the objective; then fewer switches. "
        "Every row is the whole design the engine builds for it. Blocking fabrics are weighed "
        "for training only when asked for"
    )


class Candidate(NamedTuple):
    """One way to build the request: a platform, a compute-fabric technology and a ratio."""

    system: System
    technology: Technology | None
    oversubscription: float


class Weighed(NamedTuple):
    """A candidate's row and the sized design it projects (finished only if it is chosen)."""

    row: Alternative
    sized: Sized


#: lifecycles a request must name a system or GPU to weigh (catalog `lifecycle`, sourced)
PAST_SALE = frozenset({"superseded", "end-of-sale"})


def current_only(narrowed: str = "") -> str:
    """The default-candidate rule as the "why" line states it, with what else narrowed the
    systems weighed ("with liquid cooling, as asked")."""
    return f"among current systems{narrowed} (a superseded one is weighed only when named)"


#: the rule when nothing else narrowed the systems
CURRENT_ONLY = current_only()


def candidate_platforms(catalog: Catalog, request: DesignRequest) -> list[System]:
    """Platforms the request allows: the one it names, systems with its GPU, or every current
    platform (not superseded or end-of-sale) with a published reference architecture that fits
    the cooling asked for (air: no liquid-only system; liquid: no air-only one) and rack limits;
    of those, the ones whose compute ports run at the link speed asked for, and not avoided
    while any other is left."""
    systems = _at_link_speed(catalog, request, _platforms(catalog, request))
    if request.gpus_weighed:
        systems = [s for s in systems if s.gpu in request.gpus_weighed]
        if not systems:
            raise RequestError(
                f"no current system with {' or '.join(request.gpus_weighed)} fits the request",
                hint="name one of them, or drop a constraint",
            )
    avoided = set(request.platforms_avoided or ())
    # a preference, not a rule: it yields when nothing else is left
    return [s for s in systems if not avoided & {s.id, s.gpu}] or systems


def _at_link_speed(catalog: Catalog, request: DesignRequest, systems: list[System]) -> list[System]:
    """The systems whose compute ports run at the speed the request names ("400G RoCE"); none
    is a request error naming the speeds there are, never a design at another speed."""
    asked = request.compute_link_gbps
    if asked is None:
        return systems
    kept = [s for s in systems if asked in (_port_gbps(s), _lane_gbps(catalog, s))]
    if kept:
        return kept
    anywhere = _platforms(catalog, request.model_copy(update={"platform": None, "gpu": None}))
    at_asked = [s.id for s in anywhere if _port_gbps(s) == asked]
    speeds = sorted({g for g in map(_port_gbps, systems) if g is not None})
    hint = f"ask for {' or '.join(f'{g}G' for g in speeds)}" if speeds else "drop the speed"
    if at_asked:
        hint += f", or name a platform with {asked}G compute ports ({', '.join(at_asked)})"
    raise RequestError(
        f"no platform weighed ({', '.join(s.id for s in systems)}) has {asked} Gb/s compute ports",
        hint=hint,
        field="compute_link_gbps",
        value=asked,
    )


def _lane_gbps(catalog: Catalog, system: System) -> int | None:
    """A port's lane speed where the system's RA splits each port over planes (HGX B300's 800G
    port as 2 x 400G): one plane runs one link a port at it."""
    arch = catalog.architecture_for(system.id)
    spec = arch.compute_fabric if arch else None
    port = _port_gbps(system)
    if spec is None or not spec.plane_split or not spec.planes or port is None:
        return None
    return round(port / spec.planes)


def single_plane_asked(catalog: Catalog, request: DesignRequest, system: System) -> int | None:
    """The planes the request asks of the system: as stated, or one when the link speed asked
    for is a lane of a port its RA splits ('400G' on an HGX B300); None follows the RA."""
    if request.compute_planes is not None:
        return request.compute_planes
    asked = request.compute_link_gbps
    if asked is not None and asked != _port_gbps(system) and asked == _lane_gbps(catalog, system):
        return 1
    return None


def _port_gbps(system: System) -> int | None:
    return None if system.compute is None else round(system.compute.port_speed_gbps)


def _platforms(catalog: Catalog, request: DesignRequest) -> list[System]:
    if request.platform:
        return [gpu_system(catalog, request.platform)]
    if request.gpu:
        systems = [s for s in catalog.all(System) if s.gpu == request.gpu and s.gpus_per_node]
        if not systems:
            return [gpu_system(catalog, request.gpu)]
        kept = [s for s in systems if not ruled_out(catalog, request, s)]
        if not kept:
            raise RequestError(
                f"every system with {request.gpu} is ruled out by the request",
                hint="drop an exclusion or name another GPU",
            )
        return kept
    out = []
    for s in catalog.all(System):
        if not s.gpus_per_node or catalog.architecture_for(s.id) is None:
            continue
        if s.lifecycle in PAST_SALE or ruled_out(catalog, request, s):
            continue
        if request.cooling == "air" and s.cooling == "liquid":
            continue
        # asked for liquid, a customer wants a platform built for it, not air-cooled servers in
        # a liquid-cooled room: only systems that can take liquid are weighed
        if request.cooling == "liquid" and s.cooling == "air":
            continue
        if request.rack_power_kw and s.max_power_w and s.max_power_w / 1e3 > request.rack_power_kw:
            continue
        # "4 nodes", "one server": a count of servers, which a rack-scale system (a node is a
        # whole NVL72 rack of 72 GPUs) is not; it is weighed when named or counted in racks
        if request.nodes and not request.gpus_weighed and s.kind == "nvl-rack":
            continue
        out.append(s)
    if not out and (request.platforms_excluded or request.gpu_architecture):
        raise RequestError(
            "no current system with a published reference architecture is left once the "
            "request's exclusions and GPU architecture are applied",
            hint="drop an exclusion, or name the system to use",
        )
    return out


def ruled_out(catalog: Catalog, request: DesignRequest, system: System) -> bool:
    """A system the request rules out by its id or its GPU's ('not interested in GB200'), or
    whose GPU is not of the architecture asked for ('Blackwell GPUs')."""
    out = request.platforms_excluded or ()
    if system.id in out or (system.gpu is not None and system.gpu in out):
        return True
    arch = request.gpu_architecture
    if arch is None:
        return False
    gpu = catalog.gpu(system.gpu) if system.gpu else None
    # a family holds its later variants: "Blackwell GPUs" weighs Blackwell Ultra's too
    own = (gpu.architecture or "").casefold() if gpu else ""
    return gpu is None or not (own == arch.casefold() or own.startswith(arch.casefold() + " "))


def candidates(catalog: Catalog, request: DesignRequest, workload: str) -> list[Candidate]:
    """Every platform x technology x ratio the request allows, in a stable order."""
    techs: list[Technology | None] = (
        [request.fabric] if request.fabric else ["infiniband", "ethernet"]
    )
    # Training all-reduce needs a non-blocking fabric (every SuperPOD and ERA training fabric is
    # one), so a blocking fabric is weighed only when asked for or for other workloads.
    default_ratios = [1.0] if workload in NON_BLOCKING else [1.0, 2.0]
    ratios = [request.oversubscription] if request.oversubscription else default_ratios
    return [
        Candidate(system, tech, r)
        for system in candidate_platforms(catalog, request)
        for tech in techs
        for r in ratios
    ]


def choices_for(catalog: Catalog, request: DesignRequest, c: Candidate) -> DesignChoices:
    """The design choices a candidate is built from. The fabric is left to the platform's RA when
    the candidate's technology is the one the RA builds (so the design follows it)."""
    ra_techs = ra_technologies(catalog, c.system.id)
    follow_ra = not request.fabric and len(ra_techs) == 1 and c.technology in ra_techs
    return DesignChoices(
        platform=c.system.id,
        fabric=None if follow_ra else c.technology,
        oversubscription=c.oversubscription,
        planes=single_plane_asked(catalog, request, c.system),
        storage_tier=request.storage_tier,
        rack_power_kw=request.rack_power_kw,
        cooling=request.cooling,
    )


def ra_technologies(catalog: Catalog, system_id: str) -> frozenset[Technology]:
    """The compute-fabric technologies of the reference architectures that build the system,
    once per catalog (every candidate of a platform asks)."""

    def find() -> frozenset[Technology]:
        return frozenset(
            a.compute_fabric.technology for a in catalog.all(Architecture) if system_id in a.systems
        )

    return cached(catalog, ("ra_technologies", system_id), find)


def pattern_misfit(catalog: Catalog, system: System, workload: str) -> str | None:
    """Why the platform's Enterprise RA pattern does not serve the workload, if it does not."""
    for p in catalog.all(RaPattern):
        if system.id in p.systems and workload not in p.workloads:
            return (
                f"its Enterprise RA pattern {p.id} serves {', '.join(p.workloads)}, not {workload}"
            )
    return None


def _needed_gpus(d: Sized) -> int | None:
    """GPUs the request or its workload needs on the design's platform."""
    request, estimate = d.inputs.request, d.inputs.estimate
    per_node = d.inputs.system.gpus_per_node
    if request.gpus:
        need = request.gpus
    elif request.nodes:
        need = request.nodes * per_node
    elif estimate is not None and estimate.gpus_required is not None:
        need = estimate.gpus_required
    else:
        return None
    return need + (request.spare_nodes or 0) * per_node  # the spares are asked for too


def _why_not(catalog: Catalog, d: Sized, c: Candidate, workload: str) -> tuple[str | None, bool]:
    """Why the design does not meet the request, if it does not, and whether that makes it
    infeasible (over the cap, the workload not met) rather than a poorer fit."""
    p, request = d.power, d.inputs.request
    unmet = workload_gpus(catalog, request, c.system)[1]
    if unmet:
        return unmet, True
    cap = None if p.cap_w is None else p.cap_w if p.cap_basis == "it" else p.cap_w / p.pue
    # a lower bound over the cap is over it too: unknown terms only add to it
    if cap is not None and p.it_total_w > cap * (1 + 1e-9):
        bound = "" if p.complete else "at least "
        return (
            f"needs {bound}{power_words(p.it_total_w)} IT, over the {power_words(cap)} IT cap",
            True,
        )
    room = request.max_racks
    if room is not None and d.racks.total_racks > room:
        return f"needs {d.racks.total_racks} racks, over the {room} the site has", True
    over_budget, unknown_capital = _capital_why_not(d, c)
    if over_budget:
        return over_budget, True
    # the storage system the request names is sized by the same targets for every row, so its
    # unknown array power cannot rank one row above another: the rows are weighed on what is
    # known, and the design's cap check still says it cannot tell
    shared = p.storage_w is None and len(p.unknown) == 1 and request.storage_system is not None
    if p.cap_w is not None and not p.complete and not shared:
        return (
            f"IT power incomplete ({', '.join(p.unknown)}): at least {watts(p.it_total_w)}, so "
            "whether it fits under the cap is unknown"
        ), False
    if workload in NON_BLOCKING and c.oversubscription > 1 and request.oversubscription is None:
        return "training needs a non-blocking fabric", False
    misfit = pattern_misfit(catalog, c.system, workload)
    # A platform the request names is built even for a workload its RA does not list (with the
    # reason); one the planner would pick on its own is not.
    if misfit is not None:
        return misfit, not (request.platform or request.gpu)
    return unknown_capital, False


def _capital_why_not(d: Sized, c: Candidate) -> tuple[str | None, str | None]:
    """(why the design is ruled out by the capital budget, why its fit is unknown): a system
    with no price cannot be held to a budget; priced lines over it rule it out; unpriced lines
    beside priced ones that fit leave it unknown (not a pass)."""
    request = d.inputs.request
    budget = request.capital_budget_usd
    if budget is None:
        return None, None
    if c.system.price_usd is None:
        why = (
            f"{c.system.id} has no price in the catalog, so its capital against the "
            f"{dollars(budget)} capital budget is unknown"
        )
        # with no price anywhere, a budget beside a count or a workload that sizes the design
        # is a constraint it cannot be held to: unknown, never a pass. A budget that caps the
        # size (alone or with a power cap) cannot size an unpriced platform, and beside priced
        # ones an unpriced platform is no answer to a budget
        sized = request.gpus or request.nodes or d.inputs.sized_gpus
        priced = any(s.price_usd is not None for s in d.inputs.catalog.all("systems", System))
        return (None, why) if sized and not priced else (why, None)
    within, why = budget_verdict(capital_of(d.bom), budget)
    if within is False:
        return why, None
    return None, why if within is None else None


def project(catalog: Catalog, d: Sized, c: Candidate, workload: str) -> Alternative:
    """The trade-study row of a whole design (as sized: no row reads what finishing adds)."""
    gpu, system = d.inputs.platform.gpu, d.inputs.system
    flops: float | None = getattr(gpu, dense_field(study_precision(d.inputs.request, workload)))
    cf = d.fabrics.compute
    p = d.power
    why_not, infeasible = _why_not(catalog, d, c, workload)
    capital_usd, capital_complete = d.capital()
    switches = sum(
        f.total_switches for f in (cf, d.fabrics.storage, d.fabrics.inband, d.fabrics.oob) if f
    )
    return Alternative(
        platform=system.id,
        # a single node has no scale-out fabric; its row keeps the candidate's technology, the
        # choice a proposal is rebuilt from
        fabric=cf.technology if cf else (c.technology or "infiniband"),
        switch=cf.leaf_switch if cf else "none",
        oversubscription=cf.oversubscription if cf else 1.0,
        nodes=d.compute.nodes,
        gpus=d.compute.gpus,
        rack_scale=system.kind == "nvl-rack",
        needed_gpus=_needed_gpus(d),
        it_power_w=p.it_total_w,
        facility_power_w=p.facility_total_w,
        fabric_power_w=p.compute_fabric_switches_w + p.compute_fabric_optics_w,
        switches=switches,
        racks=d.racks.total_racks,
        output_tokens_per_s=_served(d),
        dense_pflops=None if flops is None else round(d.compute.gpus * flops / 1e3, 1),
        capital_usd=capital_usd,
        capital_complete=capital_complete,
        objective=None,
        eligible=why_not is None,
        infeasible=infeasible,
        why_not=why_not,
        chosen=False,
        follows_ra=d.follows_ra,
        power_complete=p.complete,
        power_estimated=bool(p.estimated),
    )


def _served(d: Sized) -> float | None:
    """Output tokens/s the design serves: its serving estimate's rate per GPU over its GPUs."""
    est = d.inputs.estimate
    if est is None or est.kind != "inference" or not est.tokens_per_s_per_gpu:
        return None
    return round(est.tokens_per_s_per_gpu * d.compute.gpus, 1)


def weigh(catalog: Catalog, request: DesignRequest, common: RequestInputs, c: Candidate) -> Weighed:
    """Size the candidate's whole design and project its row. A design whose size the request
    fixes is built even over the cap, so the row can say by how much."""
    request = with_compute_gpus(catalog, request, c.system)
    d = size_design(
        catalog,
        request,
        choices_for(catalog, request, c),
        request_inputs=common,
        over_cap="build",
    )
    return Weighed(project(catalog, d, c, common.workload), d)


def study_precision(request: DesignRequest, workload: str) -> str:
    """The precision rows' dense compute is stated at: the request's own ("1 exaflop of FP8",
    "what's the total FP4 compute?"), else FP8 for serving and BF16 for the rest."""
    if request.precision:
        return request.precision
    return "fp8" if workload == "inference" else "bf16"


def with_compute_gpus(catalog: Catalog, request: DesignRequest, system: System) -> DesignRequest:
    """A compute target ("1 exaflop of FP8") as the GPUs the platform needs to deliver it at its
    dense peak; a request that counts GPUs or nodes keeps its count. A GPU whose peak at the
    precision is unknown raises the catalog gap (its row is dropped, saying which figure)."""
    if request.compute_pflops is None or request.gpus or request.nodes:
        return request
    per_gpu_pflops = peak_flops(catalog.gpu(str(system.gpu)), request.precision or "bf16") / 1e15
    gpus = math.ceil(request.compute_pflops / per_gpu_pflops - 1e-9)
    return request.model_copy(update={"gpus": gpus})


def _architecture(d: Sized) -> str | None:
    """The id of the reference architecture the design is built on, if any."""
    return d.inputs.architecture.id if d.inputs.architecture else None


def _dropped(c: Candidate, exc: ClustergenError, whole: bool = False) -> DroppedCandidate:
    return DroppedCandidate(
        platform=c.system.id,
        fabric=None if whole else c.technology,
        oversubscription=None if whole else c.oversubscription,
        why_not=exc.one_line(),
        kind=exc.code,
    )


def _same(a: Alternative, b: Alternative) -> bool:
    """Two rows that are one design: the same platform, switch, ratio, size and power. A single
    node needs no compute fabric, so the technology a candidate named changes nothing there."""
    keys = ("platform", "switch", "oversubscription", "nodes", "gpus", "it_power_w", "switches")
    same_fabric = a.fabric == b.fabric or a.switch == b.switch == "none"
    return same_fabric and all(getattr(a, k) == getattr(b, k) for k in keys)


def _keep_one(weighed: list[Weighed], w: Weighed) -> None:
    """Add a weighed candidate unless its design is already a row; of two such rows the one on
    its platform's reference architecture is kept, so the merge never loses the RA label."""
    for i, o in enumerate(weighed):
        if _same(w.row, o.row):
            if w.row.follows_ra and not o.row.follows_ra:
                weighed[i] = w
            return
    weighed.append(w)


class Study(NamedTuple):
    """The study and the chosen row's design (None when no candidate could be built)."""

    study: TradeStudy
    chosen: Design | None
    request_error: RequestError | None = None  # when every candidate failed on the request


def run_study(
    catalog: Catalog, request: DesignRequest, common: RequestInputs | None = None
) -> Study:
    """Weigh every candidate, rank by the request's objective, keep the chosen row's design."""
    common = common or resolve_request_inputs(catalog, request)
    objective = objective_for(request, study_precision(request, common.workload).upper())
    weighed: list[Weighed] = []
    dropped: list[DroppedCandidate] = []
    request_errors: list[RequestError] = []
    no_power: set[str] = set()
    for c in candidates(catalog, request, common.workload):
        if c.system.id in no_power:
            continue
        try:
            node_power(c.system)
        except ClustergenError as exc:  # a platform-wide gap: every fabric of it is dropped once
            no_power.add(c.system.id)
            dropped.append(_dropped(Candidate(c.system, None, c.oversubscription), exc, whole=True))
            continue
        try:
            w = weigh(catalog, request, common, c)
        except ClustergenError as exc:
            if any(d.platform == c.system.id and d.why_not == exc.one_line() for d in dropped):
                continue  # the same refusal on another fabric of the platform: said once
            dropped.append(_dropped(c, exc))
            if isinstance(exc, RequestError):
                request_errors.append(exc)
            continue
        _keep_one(weighed, w)
    objective = with_prices(objective, [w.row for w in weighed])
    past = (
        frozenset()
        if objective.kind in FILLS_CAP
        else past_published(catalog, [(w.row, _architecture(w.sized)) for w in weighed])
    )
    rows = _rank([w.row for w in weighed], objective, past, more_memory_first(catalog))
    # the chosen row's design is the answer: finished (checked, its provenance stated) alone
    chosen = next((finish_design(w.sized) for w in weighed if rows and _same(w.row, rows[0])), None)
    study = TradeStudy(
        objective=objective.text,
        better=objective.better,
        objective_unit=objective.unit,
        rows=rows,
        dropped=dropped,
        ranking=ranking_text(),
        dense_precision=study_precision(request, common.workload),
    )
    own_fault = request_errors[0] if dropped and len(request_errors) == len(dropped) else None
    return Study(study, chosen, own_fault if not weighed else None)


def trade_study(
    catalog: Catalog, request: DesignRequest, common: RequestInputs | None = None
) -> TradeStudy:
    """Every platform x fabric x oversubscription the request allows, each a whole design,
    ranked by the request's objective. A candidate that cannot be built at all (a fact missing
    from the catalog, no switch for its ports) is kept in `dropped` with the reason."""
    return run_study(catalog, request, common).study


def more_memory_first(catalog: Catalog) -> dict[str, float]:
    """A tie on the objective goes to the platform whose GPU has more memory (the newer part of
    one family: H200 over H100, B300 over B200): platform id -> minus its GPU's memory."""
    out: dict[str, float] = {}
    for s in catalog.all("systems", System):
        if s.gpu and s.gpus_per_node:
            out[s.id] = -(catalog.gpu(s.gpu).memory_gb or 0.0)
    return out


def _rank(
    rows: list[Alternative],
    objective: Objective,
    past: frozenset[RowKey] = frozenset(),
    tie: dict[str, float] | None = None,
) -> list[Alternative]:
    """Rows in the study's stated order, the first marked chosen and every other told why.
    `past`: RA rows past their RA's published size whose platform has a row at a size its RA
    publishes (`search.published`); they rank after the other RA rows within the margin.
    `tie`: how a tie on the objective is broken, by platform (lower first)."""
    tie = tie or {}
    scored = [r.model_copy(update={"objective": objective.score(r)}) for r in rows]
    known = sorted((r for r in scored if r.eligible and r.power_complete), key=objective.key)
    # where no row's power is known, the RA margin is weighed on the lower bounds: a row must
    # not pass its platform's RA design by the terms it leaves unknown (the DGX A100 on an
    # SN5600 whose node modules no catalog part fits, against its HDR RA fabric)
    bounds = sorted((r for r in scored if not r.infeasible), key=objective.key)
    best = known[0] if known else (bounds[0] if bounds else None)

    def key(a: Alternative) -> tuple[object, ...]:
        preferred = best is not None and a.follows_ra and objective.within_margin(a, best)
        ra_rank = (1 if row_key(a) in past else 0) if preferred else 2
        # A row whose power is a lower bound is never ranked as if it were cheaper; a row that
        # cannot be built as asked (over a cap, unpriced under a capital budget) comes after
        # one that can.
        return (
            not a.eligible,
            a.infeasible,
            not a.power_complete,
            ra_rank,
            objective.key(a),
            tie.get(a.platform, 0.0),
            a.switches,
        )

    ordered = sorted(scored, key=key)
    if not ordered:
        return ordered
    top = ordered[0]
    out = [top.model_copy(update={"chosen": True})]
    for a in ordered[1:]:
        if a.why_not is None:
            beyond = row_key(a) in past and row_key(top) not in past and a.platform == top.platform
            a = a.model_copy(update={"why_not": passed_over(a, top, objective, beyond)})
        out.append(a)
    return out


def passed_over(
    a: Alternative, best: Alternative, objective: Objective, past_published: bool = False
) -> str:
    """Why an eligible row was not the one chosen (`past_published`: the chosen row is at a
    size its RA publishes and this one is not)."""
    if not best.eligible:
        return "no row met every constraint; the first was taken as the closest"
    if not a.power_complete and best.power_complete:
        return (
            f"IT power incomplete: at least {watts(a.it_power_w)}, so it ranks after the rows "
            "whose power is known"
        )
    ahead = objective.key(a) < objective.key(best)
    if ahead and best.follows_ra and not a.follows_ra:
        return (
            f"scores {objective.figure(a)} against {objective.figure(best)}, but off its "
            f"platform's reference architecture; RA designs within {RA_MARGIN:.0%} rank first"
        )
    if ahead and past_published and a.follows_ra:
        return (
            f"scores {objective.figure(a)} against {objective.figure(best)}, but past the size "
            f"its reference architecture publishes; a design at a published size within "
            f"{RA_MARGIN:.0%} ranks first"
        )
    overshoot = ""
    # a design filled to its cap delivers past the need as asked: no overshoot to say
    if (
        objective.kind not in FILLS_CAP
        and a.needed_gpus
        and a.gpus > a.needed_gpus * (1 + RA_MARGIN)
    ):
        overshoot = f"; delivers {a.gpus:,} GPUs for the {a.needed_gpus:,} needed"
    if objective.key(a) == objective.key(best):
        # the tie-break said as it fell: more switches, or only the order (it said "more
        # switches or comes later" beside two rows of equal switches)
        if a.switches > best.switches:
            return (
                f"ties the chosen row on the objective; it has more switches ({a.switches:,} "
                f"against {best.switches:,})"
            )
        return (
            "ties the chosen row on the objective and its switches; the tie goes to the GPU "
            "with more memory, then to the row listed first"
        )
    return f"{objective.figure(a)} against {objective.figure(best)}{overshoot}"


def top_rows(study: TradeStudy, limit: int) -> TradeStudy:
    """The study with its first `limit` rows (the chosen one first), saying how many were left
    off: what a model needs to weigh the choice, in a context it can read."""
    if len(study.rows) <= limit:
        return study
    return study.model_copy(
        update={"rows": study.rows[:limit], "rows_left_off": len(study.rows) - limit}
    )
