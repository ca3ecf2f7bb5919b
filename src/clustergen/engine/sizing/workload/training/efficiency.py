"""Training efficiency (MFU) as a trend over what moves it, anchored on published runs.

    MFU = prior(precision) x size(active parameters) x MoE(expert size, NVLink domain)

- prior: the dense MFU at the precision (assumptions.yaml `mfu-dense-*`, the middle of the
  published Megatron runs and rows); the attention FLOPs of the sequence are counted in the
  FLOPs per token (`method.training_flops_per_token`; a dense model known only by its size at a
  typical shape for that size), so a longer sequence costs what its attention costs, not a lower
  MFU.
- size: Megatron-LM's weak scaling (41 % MFU at 2B to 48 % at 462B on H100) as a relative slope
  per tenfold of active parameters, about the size the prior is the middle of.
- MoE: the share of the dense MFU a mixture of experts keeps grows with the size of one
  expert's matrix multiply (hidden x expert FFN width): small experts leave the GPU's tensor
  cores short of work and their all-to-all dominates (Qwen3 30B-A3B keeps 0.16 of the dense
  MFU, DeepSeek-V3 0.43-0.51, Llama 4's 8,192-wide experts about 0.4); a saturating curve
  `max x size / (size + half)` is fitted to the Megatron-Bridge MoE rows and the published MoE
  runs (tests/engine/sizing/workload/training/published_runs.yaml). In an NVLink domain of 32
  GPUs or more the all-to-all stays on NVLink and keeps more (`mfu-moe-nvl-gain`). A MoE of
  unknown shape (a bare "236B, 21B active") takes the median factor (`mfu-moe-factor`).

Data parallelism (`data_parallel_factor`, applied per run because it depends on the GPU count):
a run's global batch is bounded by the critical batch size (DeepSeek LLM's fitted law, below), so
the more GPUs share it the fewer tokens each computes per step, while each data-parallel rank
still synchronises its whole gradient every step (BF16, 2 bytes per parameter it holds, ring all-
reduce 2(n-1)/n over the compute fabric's per-GPU bandwidth). Small models trained on many GPUs
(one model copy per GPU, a few thousand tokens each per step) expose that traffic; large models
split over tensor and pipeline ranks hold few parameters per GPU and hide it.

Each term is a catalog assumption with its source; the regime table of scripts/workload_calibration.py
prints the error this leaves on each regime, and the band an estimate states follows it.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import System
from clustergen.engine.sizing.workload.inputs import WorkloadInputs, constant
from clustergen.engine.sizing.workload.llm import Arch

#: an NVLink domain this large keeps expert parallelism's all-to-all on NVLink (NVL72-class)
NVL_DOMAIN = 32

#: DeepSeek-AI, "DeepSeek LLM: Scaling Open-Source Language Models with Longtermism", arXiv
#: 2401.02954 (2024-01), section 3.1, equation 1: the near-optimal batch size in tokens
#: B_opt = 0.292 x C^0.3271 for a compute budget C in FLOPs (fitted on runs of 1e17-3e20 FLOPs;
#: it gives 9.2M tokens for their 7B on 2T tokens, which trained at 9.4M)
BATCH_COEFFICIENT, BATCH_EXPONENT = 0.292, 0.3271

#: methods whose every weight takes a gradient (LoRA and QLoRA synchronise small adapters only)
_FULL_GRADIENT = ("full", "continued-pretraining")

#: the size term is held within these (no published run lies outside them)
_SIZE_RANGE = (0.85, 1.12)


class Mfu(NamedTuple):
    """The MFU the trend gives and the terms it multiplied, each said with its assumption."""

    mfu: float
    terms: list[str]
    sources: list[str]


def is_moe(arch: Arch) -> bool:
    """A mixture of experts: a catalog MoE, or a bare size with fewer active parameters."""
    return arch.moe or arch.active < 0.9 * arch.params


def expert_matmul_m(arch: Arch) -> float | None:
    """One expert's matrix size, hidden x expert FFN width, in millions; None when unknown."""
    m = arch.model
    if m is None or not arch.moe or not m.hidden_size:
        return None
    width = m.moe_intermediate_size or m.intermediate_size
    return m.hidden_size * width / 1e6 if width else None


def size_factor(catalog: Catalog, active: float) -> float:
    """Relative MFU at `active` parameters against the size the dense prior is the middle of."""
    slope = constant(catalog, "mfu-size-slope")
    ref = constant(catalog, "mfu-size-reference-b") * 1e9
    low, high = _SIZE_RANGE
    return min(high, max(low, 1 + slope * math.log10(max(active, 1e8) / ref)))


def moe_factor(
    catalog: Catalog, arch: Arch, nvlink_gpus: int, *, top: float | None = None
) -> tuple[float, str, list[str]]:
    """The share of the dense MFU a MoE keeps, how it was reached and its sources."""
    size = expert_matmul_m(arch)
    if size is None:
        a = catalog.assumption("mfu-moe-factor")
        factor, why, sources = float(a.value), f"mfu-moe-factor {a.value} (shape unknown)", [a]
    else:
        peak = catalog.assumption("mfu-moe-max")
        half = catalog.assumption("mfu-moe-half-size-m")
        best = top if top is not None else float(peak.value)
        factor = best * size / (size + float(half.value))
        why = (
            f"MoE {factor:.2f} ({size:.3g}M-element experts: {best:g} x size / (size + "
            f"{half.value}M))"
        )
        sources = [peak, half]
    if nvlink_gpus >= NVL_DOMAIN:
        gain = catalog.assumption("mfu-moe-nvl-gain")
        factor *= float(gain.value)
        why += f" x {gain.value} (all-to-all inside a {nvlink_gpus}-GPU NVLink domain)"
        sources.append(gain)
    return factor, why, [f"{a.id}: {a.source}" for a in sources]


def trend_mfu(catalog: Catalog, w: WorkloadInputs) -> Mfu:
    """The MFU of the trend for the request's model, precision and GPU."""
    name = f"mfu-dense-{'bf16' if w.precision == 'fp16' else w.precision}"
    prior = catalog.assumption(name)
    mfu = float(prior.value)
    terms = [f"prior {name} {prior.value}"]
    sources = [f"{name}: {prior.source}"]
    size = size_factor(catalog, w.arch.active)
    if abs(size - 1) >= 0.005:
        mfu *= size
        terms.append(
            f"x {size:.3f} for {w.arch.active / 1e9:.3g}B active (Megatron-LM weak scaling)"
        )
        sources.append(f"mfu-size-slope: {catalog.assumption('mfu-size-slope').source}")
    if is_moe(w.arch):
        factor, why, more = moe_factor(catalog, w.arch, w.nvlink_gpus)
        mfu *= factor
        terms.append(f"x {why}, on active parameters")
        sources += more
    return Mfu(mfu, terms, sources)


def critical_batch_tokens(flops: float) -> float:
    """The near-optimal global batch, tokens, for a run of `flops` FLOPs (DeepSeek LLM's law)."""
    return BATCH_COEFFICIENT * float(max(flops, 1.0) ** BATCH_EXPONENT)


def fabric_gbps_per_gpu(catalog: Catalog, w: WorkloadInputs) -> float | None:
    """The compute fabric's bandwidth per GPU, Gb/s: the system's compute ports over its GPUs;
    without a system, the fastest catalog system built on the GPU; None when none says."""
    systems = [w.system] if w.system is not None else catalog.all("systems", System)
    rates = [
        s.compute.ports * s.compute.port_speed_gbps / s.gpus_per_node
        for s in systems
        if s.gpu == w.gpu.id and s.compute is not None and s.gpus_per_node
    ]
    return max(rates, default=None)


class DataParallel(NamedTuple):
    """The share of step time left for compute once data-parallel gradient sync is counted."""

    factor: float
    tokens_per_gpu: float
    compute_s: float
    sync_s: float
    fabric_gbps: float


def data_parallel_factor(
    catalog: Catalog,
    w: WorkloadInputs,
    gpus: int,
    model_parallel: int,
    flops_per_token: float,
    flops_per_s: float,
) -> DataParallel | None:
    """The efficiency kept by `gpus` GPUs in copies of `model_parallel` sharing the critical
    batch: per step each GPU computes its tokens at `flops_per_s` (peak x MFU) in `compute_s` and syncs its gradient in
    `sync_s`; `dp-hidden-exposure` of the sync that compute could hide still costs time, and
    the sync beyond the compute costs `dp-exposed-cost` times itself. None when the term does
    not apply (adapters only, one data-parallel rank, no fabric figure, no run length)."""
    dp = gpus // max(1, model_parallel)
    gbps = fabric_gbps_per_gpu(catalog, w)
    if w.method not in _FULL_GRADIENT or dp < 2 or not gbps or not w.tokens:
        return None
    batch = max(critical_batch_tokens(w.tokens * flops_per_token), dp * w.sequence)
    tokens_per_gpu = batch / gpus
    compute_s = tokens_per_gpu * flops_per_token / flops_per_s
    held = _gradient_params(w.arch, dp) / model_parallel
    sync_s = 2.0 * held * 2 * (dp - 1) / dp / (gbps * 1e9 / 8)
    hidden = constant(catalog, "dp-hidden-exposure")
    beyond = constant(catalog, "dp-exposed-cost")
    exposed = hidden * min(sync_s, compute_s) + beyond * max(0.0, sync_s - compute_s)
    return DataParallel(compute_s / (compute_s + exposed), tokens_per_gpu, compute_s, sync_s, gbps)


def _gradient_params(arch: Arch, dp: int) -> float:
    """Parameters whose gradient one model copy synchronises: a MoE's routed experts are split
    over expert-parallel ranks (up to the expert count); of unknown split, its active ones."""
    shared, routed = arch.expert_split()
    if routed:
        experts = arch.model.experts if arch.model and arch.model.experts else 1
        return shared + routed / max(1, min(experts, dp))
    return arch.active if is_moe(arch) else arch.params
