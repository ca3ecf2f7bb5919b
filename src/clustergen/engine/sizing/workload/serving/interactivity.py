"""Serving at a stated interactivity: the throughput-vs-interactivity table and, when a plan is
NOT MET, the GPUs and replica layouts that do meet it.

The table is what NVIDIA's NIM and TensorRT-LLM performance pages and AIConfigurator's Pareto
frontier show: output tokens/s per GPU (what a GPU earns) against output tokens/s per user (1 /
TPOT, what a user feels), one column per GPU type. Each cell is the serving model's best replica
under that TPOT and the request's TTFT limit, at the request's prompt and output lengths.
"""

from __future__ import annotations

import math

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Gpu, System
from clustergen.engine.model.workload import InteractivityPoint
from clustergen.engine.sizing.workload.inputs import WorkloadInputs
from clustergen.engine.sizing.workload.serving.estimate import choose_replica
from clustergen.units import plural

#: output tokens/s per user the table is read at: from batch-like (5) to faster than anyone reads
USER_RATES = (5.0, 10.0, 20.0, 30.0, 50.0, 75.0, 100.0, 150.0, 200.0)


def serving_gpus(catalog: Catalog) -> list[Gpu]:
    """GPUs some catalog system carries (a replica needs a node to live in)."""
    return [g for g in catalog.all("gpus", Gpu) if domain(catalog, g) > 0]


def domain(catalog: Catalog, gpu: Gpu) -> int:
    """GPUs one NVLink domain of the largest system built on `gpu` joins (0 if none)."""
    sizes = [s.gpus_per_node for s in catalog.all("systems", System) if s.gpu == gpu.id]
    return max(sizes, default=0)


def precision_on(gpu: Gpu, precision: str) -> str:
    """The request's format where the GPU has it, else the next coarser one it has."""
    order = ("fp4", "fp8", "bf16")
    start = order.index(precision) if precision in order else 2
    for p in order[start:]:
        if getattr(gpu, f"{p}_dense_tflops", None):
            return p
    return "bf16"


def on_gpu(catalog: Catalog, w: WorkloadInputs, gpu: Gpu) -> WorkloadInputs:
    """The same workload on another GPU type (its best NVLink domain, the nearest precision)."""
    if gpu.id == w.gpu.id:
        return w
    return w._replace(
        gpu=gpu,
        system=None,
        precision=precision_on(gpu, w.precision),
        nvlink_gpus=domain(catalog, gpu),
    )


def interactivity_table(
    catalog: Catalog, w: WorkloadInputs, gpus: list[Gpu] | None = None
) -> list[InteractivityPoint]:
    """Output tokens/s per GPU at each tokens/s per user of `USER_RATES`, on the estimate's GPU
    and on `gpus` (default every serving GPU in the catalog)."""
    columns = [w.gpu, *[g for g in (gpus or serving_gpus(catalog)) if g.id != w.gpu.id]]
    out: list[InteractivityPoint] = []
    for gpu in columns:
        base = on_gpu(catalog, w, gpu)
        column: list[InteractivityPoint] = []
        # tightest first: a replica that serves each user faster serves the looser rates too,
        # so no looser rate shows less per GPU than a tighter one (the chooser may prefer a
        # smaller replica near the best at a looser rate)
        best: tuple[float, int, float] | None = None
        for rate in sorted(USER_RATES, reverse=True):
            trial = base._replace(tpot_s=1 / rate)
            choice, _ = choose_replica(catalog, trial)
            if choice is None:
                column.append(_point(trial, rate, None, None, None))
                continue
            rep = choice.replica
            here = (rep.per_gpu(choice.batch), rep.gpus, rep.ttft_s(choice.batch) * 1e3)
            if best is None or here[0] >= best[0]:
                best = here
            column.append(_point(trial, rate, *best))
        out += reversed(column)
    return out


def _point(
    w: WorkloadInputs,
    rate: float,
    per_gpu: float | None,
    gpus: int | None,
    ttft_ms: float | None,
) -> InteractivityPoint:
    return InteractivityPoint(
        gpu=w.gpu.id,
        precision=w.precision,
        tokens_per_s_per_user=rate,
        tpot_ms=round(1e3 / rate, 2),
        tokens_per_s_per_gpu=None if per_gpu is None else round(per_gpu, 1),
        gpus_per_replica=gpus,
        ttft_ms=None if ttft_ms is None else round(ttft_ms, 1),
    )


def meets_on(catalog: Catalog, w: WorkloadInputs, gpus: list[Gpu] | None = None) -> list[str]:
    """The GPU types (other than the estimate's) whose best replica meets the request's TTFT and
    TPOT limits, each with its layout and, for a rate target, the GPUs it needs; fewest GPUs
    first."""
    found: list[tuple[float, str]] = []
    for gpu in gpus or serving_gpus(catalog):
        if gpu.id == w.gpu.id:
            continue
        trial = on_gpu(catalog, w, gpu)
        choice, _ = choose_replica(catalog, trial)
        if choice is None:
            continue
        rep = choice.replica
        per_replica = rep.tokens_per_s(choice.batch)
        text = f"{gpu.id} ({trial.precision.upper()}, {rep.shape}"
        need = float(rep.gpus)
        if w.target_tokens_per_s:
            replicas = max(1, math.ceil(w.target_tokens_per_s / per_replica))
            prefill = math.ceil(replicas * rep.prefill_gpus(choice.batch) - 1e-9)
            need = replicas * rep.gpus + prefill
            text += f", {plural(replicas, 'replica')}"
            text += f" + {prefill:,} prefill GPUs" if prefill else ""
            text += f" = {need:,.0f} GPUs"
        text += f", TPOT {rep.tpot_s(choice.batch) * 1e3:,.1f} ms)"
        found.append((need, text))
    return [t for _, t in sorted(found)]
