"""The trade study: every platform x fabric technology x oversubscription the request allows, each
sized, ranked by a stated objective, the first eligible row chosen, and every other row told why
it was not.

The objective: the most GPUs when the request asks for them ("max GPUs under 0.5 MW"), else dense
BF16 (FP8 for inference) PFLOPS per MW of IT power. The ranking, stated in the study: eligible
rows first (within the cap, a non-blocking fabric for training, a platform whose RA pattern serves
the workload, power and throughput known), then rows on their platform's reference-architecture
fabric (unless the request names a fabric), then rows that do not overshoot the GPUs asked for,
then the objective, then fewer switches. A row whose power is incomplete is never ranked as if
it were cheaper: it is not eligible, and says which term is unknown.
"""

from __future__ import annotations

from dataclasses import dataclass

from clustergen.catalog.architectures import RaPattern
from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import System
from clustergen.engine.cache import cached, own
from clustergen.engine.model.common import Technology
from clustergen.engine.model.compute import FabricChoices, NodePower
from clustergen.engine.model.design import Alternative, DroppedCandidate, TradeStudy
from clustergen.engine.model.fabric import FabricDesign
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.sizing.fabric import resolve_fabric, size_setup
from clustergen.engine.sizing.inputs import RequestInputs, resolve_request_inputs
from clustergen.engine.sizing.platform import estimate_of, gpu_system, node_power
from clustergen.engine.sizing.workload import workload_gpus
from clustergen.engine.solve.power_first import most_under_cap
from clustergen.errors import ClustergenError, InfeasibleDesignError
from clustergen.units import ceil_div

RANKING = (
    "eligible rows first, then rows on their platform's reference-architecture fabric (unless "
    "the request names a fabric), then rows within 5% of the GPUs asked for, then the objective "
    "(higher first), then fewer switches; the first row is chosen. Blocking (2:1) fabrics are "
    "weighed for training only when asked for"
)


def candidate_platforms(catalog: Catalog, request: DesignRequest) -> list[System]:
    """Platforms the request allows: the one it names, systems with its GPU, or every platform
    with a published reference architecture that fits the cooling and rack limits."""
    if request.platform:
        return [gpu_system(catalog, request.platform)]
    if request.gpu:
        systems = [
            s for s in catalog.all("systems", System) if s.gpu == request.gpu and s.gpus_per_node
        ]
        if not systems:
            return [gpu_system(catalog, request.gpu)]
        return systems
    out = []
    for s in catalog.all("systems", System):
        if not s.gpus_per_node or catalog.architecture_for(s.id) is None:
            continue
        if request.cooling == "air" and s.cooling == "liquid":
            continue
        if request.rack_power_kw and s.max_power_w and s.max_power_w / 1e3 > request.rack_power_kw:
            continue
        out.append(s)
    return out


def _pattern_misfit(catalog: Catalog, system: System, workload: str) -> str | None:
    """Why the platform's Enterprise RA pattern does not serve the workload, if it does not."""
    for p in catalog.all("ra_patterns", RaPattern):
        if system.id in p.systems and workload not in p.workloads:
            return (
                f"its Enterprise RA pattern {p.id} serves {', '.join(p.workloads)}, not {workload}"
            )
    return None


@dataclass(frozen=True)
class _Fabric:
    """What a candidate's compute fabric adds to the row: its power and its switches."""

    fabric_w: float
    complete: bool
    missing: str | None
    technology: str
    switch: str
    switches: int
    follows_ra: bool
    estimated: bool


@dataclass(frozen=True)
class _Sized:
    nodes: int
    it_w: float
    fabric: _Fabric
    unmet: str | None = None  # the workload this platform cannot meet, and why


def _estimated(catalog: Catalog, system: System, f: FabricDesign, single: bool) -> bool:
    """Whether the row's power rests on a labelled estimate: the node's, or (with a fabric) a
    switch's or a transceiver's."""
    if estimate_of(system, "max_power_w"):
        return True
    if single:
        return False
    for sid in {s for s in (f.leaf_switch, f.spine_switch, f.core_switch) if s}:
        sw = catalog.switch(sid)
        if estimate_of(sw, "typical_power_w" if sw.typical_power_w is not None else "max_power_w"):
            return True
    return any(t.optic and estimate_of(catalog.optic(t.optic), "power_w") for t in f.transceivers)


def _fabric(
    catalog: Catalog, system: System, nodes: int, technology: Technology | None, oversub: float
) -> _Fabric:
    """The candidate's compute fabric, sized once per catalog: the same platform, node count and
    fabric come back in every design of that size (a sweep, an MCP session, the evals)."""

    def size() -> _Fabric:
        setup = resolve_fabric(
            catalog, system, nodes, technology=technology, oversubscription=oversub
        )
        f = size_setup(catalog, setup)
        single = nodes == 1 and not f.fabric_manager_links  # one node: NVLink, no scale-out
        missing = None
        if not single and f.power.total_w is None:
            missing = "switch" if f.power.switches_w is None else "transceiver"
        return _Fabric(
            fabric_w=0.0 if single else f.power.known_w,
            complete=missing is None,
            missing=missing,
            technology=f.technology,
            switch="none" if single else f.leaf_switch,
            switches=0 if single else f.total_switches,
            follows_ra=setup.architecture is not None,
            estimated=_estimated(catalog, system, f, single),
        )

    if not own(catalog, "systems", system):  # a caller's own variant
        return size()
    return cached(catalog, ("trade_study_fabric", system.id, nodes, technology, oversub), size)


def _size(
    catalog: Catalog,
    common: RequestInputs,
    system: System,
    npow: NodePower,
    technology: Technology | None,
    oversub: float,
) -> _Sized:
    request, it_cap = common.request, common.it_cap_w
    needed, unmet = workload_gpus(catalog, request, system)  # each platform sized for itself
    if request.gpus or request.nodes or needed:
        nodes = request.nodes or ceil_div(request.gpus or needed or 1, system.gpus_per_node)
    elif it_cap is None:
        # no count, no cap and no GPUs the workload can use here: nothing sizes this platform
        # (an unknown cap is never read as a cap of zero)
        raise InfeasibleDesignError(
            unmet or f"nothing sizes {system.id}: no count, cap or workload"
        )
    else:
        choices = FabricChoices(technology=technology, oversubscription=oversub)
        nodes = most_under_cap(catalog, system.id, it_cap, choices=choices).nodes
    f = _fabric(catalog, system, nodes, technology, oversub)
    return _Sized(nodes=nodes, it_w=nodes * npow.node_w + f.fabric_w, fabric=f, unmet=unmet)


def _row(
    catalog: Catalog,
    common: RequestInputs,
    system: System,
    npow: NodePower,
    technology: Technology | None,
    oversub: float,
) -> Alternative:
    """One candidate sized: nodes, compute and compute-fabric power, the objective, and why it is
    not eligible (over the cap, a blocking fabric for training, a workload its RA pattern does not
    serve, power or throughput unknown)."""
    workload, it_cap = common.workload, common.it_cap_w
    gpu = catalog.gpu(system.gpu or "")
    flops = gpu.fp8_dense_tflops if workload == "inference" else gpu.bf16_dense_tflops
    s = _size(catalog, common, system, npow, technology, oversub)
    f = s.fabric
    gpus = s.nodes * system.gpus_per_node
    objective = None if flops is None else round((gpus * flops / 1e3) / (s.it_w / 1e6), 2)
    why_not = None
    if s.unmet:
        why_not = s.unmet
    elif not f.complete:
        why_not = (
            f"IT power incomplete ({f.missing} power of {f.switch} not in the catalog): at least "
            f"{s.it_w / 1e6:.2f} MW, so it is not ranked against rows whose power is known"
        )
    elif it_cap and s.it_w > it_cap:
        why_not = f"needs {s.it_w / 1e6:.2f} MW IT, over the cap"
    elif workload in {"training", "fine-tuning"} and oversub > 1:
        why_not = "training needs a non-blocking fabric"
    elif objective is None:
        why_not = "throughput unknown in the catalog"
    else:
        why_not = _pattern_misfit(catalog, system, workload)
    return Alternative(
        platform=system.id,
        fabric=f.technology,
        switch=f.switch,
        oversubscription=oversub,
        nodes=s.nodes,
        gpus=gpus,
        it_power_w=s.it_w,
        fabric_power_w=f.fabric_w,
        switches=f.switches,
        objective=objective,
        eligible=why_not is None,
        why_not=why_not,
        chosen=False,
        follows_ra=f.follows_ra,
        power_complete=f.complete,
        power_estimated=f.estimated,
    )


def _dropped(
    system: System, tech: Technology | None, ratio: float | None, exc: ClustergenError
) -> DroppedCandidate:
    return DroppedCandidate(
        platform=system.id,
        fabric=tech,
        oversubscription=ratio,
        why_not=exc.one_line(),
        kind=exc.code,
    )


def _score(a: Alternative, most_gpus: bool) -> tuple[float, float]:
    """What the objective ranks by: (GPUs, PFLOPS/MW) for most GPUs, else (PFLOPS/MW, 0)."""
    per_mw = a.objective or 0.0
    return (float(a.gpus), per_mw) if most_gpus else (per_mw, 0.0)


def _rank(rows: list[Alternative], request: DesignRequest) -> list[Alternative]:
    """Rows in the study's stated order, the first marked chosen and every other told why."""
    most = request.objective == "most-gpus"
    ra_first = request.fabric is None

    def overshoots(a: Alternative) -> bool:
        # Whole NVL72 racks can overshoot a GPU count badly; GPUs nobody asked for are not wanted.
        return request.gpus is not None and a.gpus > request.gpus * 1.05

    def key(a: Alternative) -> tuple[object, ...]:
        score = _score(a, most)
        return (
            not a.eligible,
            ra_first and not a.follows_ra,
            overshoots(a),
            -score[0],
            -score[1],
            a.switches,
        )

    ordered = sorted(rows, key=key)
    if not ordered:
        return ordered
    best = ordered[0]
    out = [best.model_copy(update={"chosen": True})]
    for a in ordered[1:]:
        if a.why_not is None:
            a = a.model_copy(
                update={"why_not": _passed_over(a, best, most, ra_first, overshoots(a))}
            )
        out.append(a)
    return out


def _passed_over(
    a: Alternative, best: Alternative, most: bool, ra_first: bool, overshoots: bool
) -> str:
    """Why an eligible row was not the one chosen."""
    if not best.eligible:
        return "no row met every constraint; the first was taken as the closest"
    if ra_first and best.follows_ra and not a.follows_ra:
        return (
            f"off its platform's reference-architecture fabric ({a.switch}); RA designs rank first"
        )
    if overshoots:
        return f"{a.gpus} GPUs overshoot the GPUs asked for"
    if most and a.gpus != best.gpus:
        return f"fewer GPUs ({a.gpus} against {best.gpus})"
    if a.objective is not None and best.objective is not None and a.objective < best.objective:
        return f"lower objective ({a.objective:,.1f} against {best.objective:,.1f})"
    return "ties the chosen row on the objective; it has more switches or comes later"


def trade_study(
    catalog: Catalog, request: DesignRequest, common: RequestInputs | None = None
) -> TradeStudy:
    """Every platform x fabric x oversubscription the request allows, ranked by the objective.
    A candidate that cannot be sized at all (a fact missing from the catalog, no switch for its
    ports) is kept in `dropped` with the reason."""
    common = common or resolve_request_inputs(catalog, request)
    flops = "FP8" if common.workload == "inference" else "BF16"
    per_mw = f"dense {flops} PFLOPS per MW of IT power (compute + compute fabric)"
    objective = f"most GPUs, then {per_mw}" if request.objective == "most-gpus" else per_mw
    techs: list[Technology | None] = (
        [request.fabric] if request.fabric else ["infiniband", "ethernet"]
    )
    # Training all-reduce needs a non-blocking fabric (every SuperPOD and ERA training fabric is
    # one), so a blocking fabric is weighed only when asked for or for other workloads.
    training = common.workload in {"training", "fine-tuning"}
    default_ratios = [1.0] if training else [1.0, 2.0]
    ratios = [request.oversubscription] if request.oversubscription else default_ratios
    rows: list[Alternative] = []
    dropped: list[DroppedCandidate] = []
    for system in candidate_platforms(catalog, request):
        try:
            npow = node_power(system)
        except ClustergenError as exc:  # a platform-wide gap: every fabric of it is dropped
            dropped.append(_dropped(system, None, None, exc))
            continue
        for tech in techs:
            for r in ratios:
                try:
                    rows.append(_row(catalog, common, system, npow, tech, r))
                except ClustergenError as exc:
                    dropped.append(_dropped(system, tech, r, exc))
    return TradeStudy(
        objective=objective, rows=_rank(rows, request), dropped=dropped, ranking=RANKING
    )


def top_rows(study: TradeStudy, limit: int) -> TradeStudy:
    """The study with its first `limit` rows (the chosen one first), saying how many were left
    off: what a model needs to weigh the choice, in a context it can read."""
    if len(study.rows) <= limit:
        return study
    return study.model_copy(
        update={"rows": study.rows[:limit], "rows_left_off": len(study.rows) - limit}
    )
