"""Training memory: the smallest parallel layout whose model states and activations fit a GPU.

Model states: mixed-precision Adam holds 16 bytes per parameter (BF16 weights and gradients, FP32
master weights and two moments; LoRA and QLoRA keep frozen weights and train small adapters,
`method`); tensor (TP) and pipeline (PP) parallelism split all of them, the
distributed optimizer shards the 12 optimizer bytes over data-parallel ranks, and fully sharded
data parallelism (FSDP) shards all 16. A MoE model's routed experts are further split over expert-
parallel ranks (up to the expert count). Activations with selective recomputation and sequence
parallelism: 34 bytes per token per hidden unit per layer, divided by TP and by context
parallelism (CP); a 1F1B pipeline's first stage keeps a whole model's layers in flight, so PP does
not divide them (Korthikanti et al., "Reducing Activation Recomputation in Large Transformer
Models", arXiv 2205.05198, 2022, section 4 and Table 2).
"""

from __future__ import annotations

from typing import NamedTuple

from clustergen.engine.sizing.workload.llm import Arch
from clustergen.engine.sizing.workload.training.method import state_bytes

_POWERS = (1, 2, 4, 8, 16, 32, 64, 128)


class Layout(NamedTuple):
    """A parallel layout and the memory one GPU holds under it."""

    tp: int
    pp: int
    cp: int
    dp: int
    fsdp: bool
    memory_gb: float

    @property
    def model_parallel(self) -> int:
        """GPUs one copy of the model spans (a multiple of it makes whole data-parallel ranks)."""
        return self.tp * self.pp * self.cp

    def describe(self, hbm_gb: float) -> str:
        """'TP4 x PP8 x CP1, DP64 (distributed optimizer): 68 of 80 GB per GPU'."""
        sharding = "FSDP" if self.fsdp else "distributed optimizer"
        return (
            f"TP{self.tp} x PP{self.pp} x CP{self.cp}, DP{self.dp} ({sharding}): "
            f"{self.memory_gb:,.0f} of {hbm_gb:g} GB per GPU"
        )


def _memory_gb(
    arch: Arch, sequence: int, tp: int, pp: int, cp: int, dp: int, fsdp: bool, method: str = "full"
) -> float:
    shared, routed = arch.expert_split()
    experts = arch.model.experts if arch.model and arch.model.experts else 1
    ep = max(1, min(experts, dp))
    params_per_gpu = shared / (tp * pp) + routed / (tp * pp * ep)
    kept, sharded = state_bytes(arch, method)
    if fsdp:
        states = (kept + sharded) * params_per_gpu / dp
    else:
        states = kept * params_per_gpu + sharded * params_per_gpu / dp
    m = arch.model
    activations = 0.0
    if m is not None and m.hidden_size and m.layers:
        activations = 34.0 * sequence * m.hidden_size * m.layers / (tp * cp)
    return (states + activations) / 1e9


def smallest_layout(
    arch: Arch,
    sequence: int,
    gpus: int,
    hbm_gb: float,
    usable: float,
    nvlink_gpus: int,
    method: str = "full",
) -> Layout | None:
    """The layout with the fewest GPUs per model copy that fits `usable` x HBM, on at most
    `gpus` GPUs; tensor parallelism stays inside one NVLink domain (at most 8, where it scales).
    None when nothing fits."""
    layers = arch.model.layers if arch.model and arch.model.layers else 1
    best: Layout | None = None
    for tp in (t for t in _POWERS if t <= min(8, nvlink_gpus)):
        for pp in (p for p in _POWERS if p <= layers):
            for cp in (c for c in _POWERS if c == 1 or sequence // c >= 4096):
                size = tp * pp * cp
                if size > gpus or (best is not None and size > best.model_parallel):
                    continue
                dp = gpus // size
                for fsdp in (False, True):
                    mem = _memory_gb(arch, sequence, tp, pp, cp, dp, fsdp, method)
                    if mem <= usable * hbm_gb:
                        cand = Layout(tp=tp, pp=pp, cp=cp, dp=dp, fsdp=fsdp, memory_gb=mem)
                        if best is None or _better(cand, best):
                            best = cand
                        break
    return best


def _better(a: Layout, b: Layout) -> bool:
    """Fewer GPUs per copy; then no FSDP; then more TP (NVLink is the fastest link), less CP."""
    return (a.model_parallel, a.fsdp, -a.tp, a.cp) < (b.model_parallel, b.fsdp, -b.tp, b.cp)
