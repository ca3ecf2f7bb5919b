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

Each term is a catalog assumption with its source; the regime table of scripts/workload_calibration.py
prints the error this leaves on each regime, and the band an estimate states follows it.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from clustergen.catalog.loader import Catalog
from clustergen.engine.sizing.workload.inputs import WorkloadInputs, constant
from clustergen.engine.sizing.workload.llm import Arch

#: an NVLink domain this large keeps expert parallelism's all-to-all on NVLink (NVL72-class)
NVL_DOMAIN = 32

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
