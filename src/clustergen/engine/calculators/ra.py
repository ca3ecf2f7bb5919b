"""Enterprise RA pattern recommendation (the seed prototype's `ra recommend` contract)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from clustergen.catalog.architectures import RaPattern
from clustergen.catalog.loader import Catalog
from clustergen.engine.model.bounds import MAX_GPUS, check_number
from clustergen.errors import InfeasibleDesignError, RequestError
from clustergen.units import ceil_div

WORKLOADS = ("training", "fine-tuning", "inference", "mixed")


class RaRecommendation(BaseModel):
    """The chosen pattern and the node count it needs."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pattern_id: str
    nodes: int = Field(ge=1)
    gpus_per_node: int
    b_gbps_per_gpu: int
    fabric: str
    platform: str
    su_nodes: int
    scalable_units: int
    systems: list[str]
    source: str


class RaResult(BaseModel):
    """`ra recommend` output: input echoed, recommendation, and why."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    input: dict[str, int | str]
    recommendation: RaRecommendation
    alternatives: list[str]
    notes: list[str]


def min_bandwidth_gbps_per_gpu(catalog: Catalog, workload: str) -> float:
    """East-west bandwidth a workload needs per GPU, from the catalog's named assumptions."""
    return float(catalog.assumption(f"min-bandwidth-gbps-per-gpu-{workload}").value)


def recommend(catalog: Catalog, gpus: int, workload: str) -> RaResult:
    """Pick the pattern whose node range holds the GPU count, that fits the workload, and whose
    per-GPU bandwidth is the lowest that meets the workload's need (more costs, not helps)."""
    if gpus < 1:
        raise RequestError(
            f"gpus must be a positive count, got {gpus}", field="gpus", value=gpus, limit=1
        )
    check_number("gpus", gpus, ge=1, le=MAX_GPUS)
    if workload not in WORKLOADS:
        raise RequestError(
            f"unknown workload {workload!r}", hint=f"use one of {', '.join(WORKLOADS)}"
        )
    need = min_bandwidth_gbps_per_gpu(catalog, workload)
    fitting: list[tuple[RaPattern, int]] = []
    for p in catalog.all(RaPattern):
        nodes = ceil_div(gpus, p.gpus_per_node)
        if workload in p.workloads and p.node_count_min <= nodes <= p.node_count_max:
            fitting.append((p, nodes))
    if not fitting:
        spans = ", ".join(
            f"{p.id}: {p.node_count_min * p.gpus_per_node}-{p.node_count_max * p.gpus_per_node} GPUs"
            for p in catalog.all(RaPattern)
            if workload in p.workloads
        )
        raise InfeasibleDesignError(
            f"no Enterprise RA pattern covers {gpus} GPUs for {workload}",
            hint=f"patterns for {workload}: {spans}" if spans else "no pattern lists this workload",
        )
    meets = [(p, n) for p, n in fitting if p.bandwidth_gbps_per_gpu >= need]
    pool = meets or fitting
    pattern, nodes = min(pool, key=lambda pn: (pn[0].bandwidth_gbps_per_gpu, -pn[0].gpus_per_node))
    notes = ["Selected pattern supports computed node count within its declared node range."]
    if not meets:
        notes.append(
            f"no pattern in range meets {need:g} Gb/s per GPU for {workload}; chose the fastest available"
        )
    else:
        notes.append(
            f"lowest per-GPU bandwidth that meets {need:g} Gb/s for {workload} "
            f"(assumption min-bandwidth-gbps-per-gpu-{workload})"
        )
    if gpus % pattern.gpus_per_node:
        notes.append(
            f"{gpus:,} GPUs round up to {nodes:,} node{'s' if nodes != 1 else ''} of {pattern.gpus_per_node}"
        )
    return RaResult(
        input={"gpus": gpus, "workload": workload},
        recommendation=RaRecommendation(
            pattern_id=pattern.id,
            nodes=nodes,
            gpus_per_node=pattern.gpus_per_node,
            b_gbps_per_gpu=pattern.bandwidth_gbps_per_gpu,
            fabric=pattern.networking.fabric,
            platform=pattern.networking.platform,
            su_nodes=pattern.su_nodes,
            scalable_units=ceil_div(nodes, pattern.su_nodes),
            systems=pattern.systems,
            source=pattern.source,
        ),
        alternatives=[p.id for p, _ in fitting if p.id != pattern.id],
        notes=notes,
    )
