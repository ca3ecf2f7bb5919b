"""One serving replica (a model copy on TP x PP GPUs) as a prefill/decode time model.

With continuous batching a replica runs steps; each step advances B sequences by one output token
and, to keep B sequences in flight, also reads B x ISL/OSL prompt tokens (chunked prefill):

    step(B) = weights read / bandwidth + B x (decode FLOPs / compute + KV read / bandwidth)
              + B x prefill(ISL) / OSL
    output tokens/s = B / step(B);  TPOT = step(B);  TTFT = prefill(ISL) / (1 - prefill share)

where the prefill share is the part of each step spent on prompts (a prompt waits for the others
ahead of it, as in a queue at that load). B is capped by the KV cache the memory left after the
weights holds, and by the TTFT and TPOT limits: so long prompts, which make prefill dominate, cut
the batch and the throughput far more than short ones (a flat derate misses that).

Compute is the dense peak at the precision, bandwidth the HBM's, each with an efficiency fitted to
TensorRT-LLM's published max-throughput tables (assumptions.yaml `inference-*`); per-GPU efficiency
falls with tensor parallelism as TP^-exponent (all-reduces per layer). A MoE step reads the shared
weights and only the experts its tokens route to: E x (1 - (1 - k/E)^tokens) of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Gpu
from clustergen.engine.cache import cached
from clustergen.engine.sizing.workload.inputs import constant
from clustergen.engine.sizing.workload.llm import BYTES_PER_PARAM, Arch

_BISECT_STEPS = 60


@dataclass(frozen=True)
class Efficiency:
    """The inference model's fitted constants (assumptions.yaml)."""

    prefill: float
    decode: float
    memory: float
    fp4: float
    tp_exponent: float
    kv_fraction: float
    moe: float

    @classmethod
    def of(cls, catalog: Catalog) -> Efficiency:
        """The constants from the catalog."""
        return cached(
            catalog,
            ("inference-efficiency",),
            lambda: cls(
                prefill=constant(catalog, "inference-prefill-efficiency"),
                decode=constant(catalog, "inference-decode-efficiency"),
                memory=constant(catalog, "inference-memory-efficiency"),
                fp4=constant(catalog, "inference-fp4-efficiency"),
                tp_exponent=constant(catalog, "inference-tp-exponent"),
                kv_fraction=constant(catalog, "kv-cache-memory-fraction"),
                moe=constant(catalog, "inference-moe-efficiency"),
            ),
        )


@dataclass(frozen=True)
class Replica:
    """Time constants of one replica for one request shape (seconds)."""

    tp: int
    pp: int
    isl: int
    osl: int
    prefill_s: float  # one prompt, all the replica's GPUs
    shared_s: float  # weights every step reads
    routed_s: float  # all routed experts, if every one were read
    route_share: float  # k / E
    per_seq_s: float  # one sequence's decode compute and KV read per step
    max_batch: float  # sequences the KV cache holds

    @property
    def gpus(self) -> int:
        """GPUs in the replica."""
        return self.tp * self.pp

    def scaled(self, factor: float) -> Replica:
        """The same replica made `factor` times faster (anchored to a published row)."""
        return Replica(
            tp=self.tp,
            pp=self.pp,
            isl=self.isl,
            osl=self.osl,
            prefill_s=self.prefill_s / factor,
            shared_s=self.shared_s / factor,
            routed_s=self.routed_s / factor,
            route_share=self.route_share,
            per_seq_s=self.per_seq_s / factor,
            max_batch=self.max_batch,
        )

    def step_s(self, batch: float) -> float:
        """Seconds per step with `batch` sequences in flight."""
        routed = 0.0
        if self.routed_s:
            tokens = batch * (1 + self.isl / self.osl)
            routed = self.routed_s * (1 - (1 - self.route_share) ** tokens)
        prefill = batch * self.prefill_s / self.osl
        return self.shared_s + routed + batch * self.per_seq_s + prefill

    def tokens_per_s(self, batch: float) -> float:
        """Output tokens/s of the replica."""
        return batch / self.step_s(batch)

    def ttft_s(self, batch: float) -> float:
        """Time to first token: the prompt's prefill, slowed by the share of time other prompts
        take (pipeline stages add up: latency does not shrink with PP)."""
        share = batch * self.prefill_s / self.osl / self.step_s(batch)
        return self.prefill_s * self.pp / max(1e-9, 1 - share)

    def best_batch(self, ttft_s: float | None, tpot_s: float | None) -> float:
        """The largest batch within memory and both limits; 0 when not even one sequence fits."""
        if self.max_batch < 1:
            return 0.0

        def ok(b: float) -> bool:
            if tpot_s is not None and self.step_s(b) > tpot_s:
                return False
            return ttft_s is None or self.ttft_s(b) <= ttft_s

        if ok(self.max_batch):
            return self.max_batch
        if not ok(1.0):
            return 0.0
        return _bisect(ok, 1.0, self.max_batch)

    def batch_for(self, tokens_per_s: float) -> float:
        """The batch at which the replica delivers `tokens_per_s` (at most its memory's)."""
        if self.tokens_per_s(self.max_batch) <= tokens_per_s:
            return self.max_batch
        return _bisect(lambda b: self.tokens_per_s(b) <= tokens_per_s, 1e-6, self.max_batch)


def _bisect(ok: object, lo: float, hi: float) -> float:
    """Largest x in [lo, hi] with ok(x), for ok true at lo and false at hi, monotone between."""
    assert callable(ok)
    for _ in range(_BISECT_STEPS):
        mid = (lo + hi) / 2
        if ok(mid):
            lo = mid
        else:
            hi = mid
    return lo


def kv_bytes(precision: str) -> float:
    """KV-cache bytes per value: FP8 alongside FP8 and FP4 weights, else 16-bit."""
    return 1.0 if precision in ("fp8", "fp4") else 2.0


def build_replica(
    arch: Arch, gpu: Gpu, precision: str, tp: int, pp: int, isl: int, osl: int, eff: Efficiency
) -> Replica | None:
    """The replica's time constants; None when the architecture or a GPU figure is unknown."""
    peak = {
        "bf16": gpu.bf16_dense_tflops,
        "fp16": gpu.bf16_dense_tflops,
        "fp8": gpu.fp8_dense_tflops,
        "fp4": gpu.fp4_dense_tflops,
    }[precision]
    kv_full = arch.kv_bytes_per_token(isl + osl, kv_bytes(precision))
    if not (peak and gpu.memory_bandwidth_gb_per_s and gpu.memory_gb) or kv_full is None:
        return None
    n = tp * pp
    per_gpu = tp ** (-eff.tp_exponent)
    compute = n * peak * 1e12 * per_gpu * (eff.fp4 if precision == "fp4" else 1.0)
    compute *= eff.moe if arch.moe else 1.0
    bandwidth = n * gpu.memory_bandwidth_gb_per_s * 1e9 * per_gpu * eff.memory
    context = isl + osl / 2
    kv_mid = arch.kv_bytes_per_token(context, kv_bytes(precision)) or kv_full
    shared, routed = arch.expert_split()
    bpp = BYTES_PER_PARAM[precision]
    m = arch.model
    share = m.experts_per_token / m.experts if m and m.experts and m.experts_per_token else 1.0
    free = eff.kv_fraction * (n * gpu.memory_gb * 1e9 - arch.weight_bytes(precision))
    return Replica(
        tp=tp,
        pp=pp,
        isl=isl,
        osl=osl,
        prefill_s=arch.prefill_flops(isl) / (compute * eff.prefill),
        shared_s=(shared - arch.embedding_params()) * bpp / bandwidth,  # a look-up reads rows
        routed_s=routed * bpp / bandwidth,
        route_share=share,
        per_seq_s=arch.decode_flops_per_token(context) / (compute * eff.decode)
        + kv_mid * context / bandwidth,
        max_batch=max(0.0, free / (kv_full * (isl + osl))),
    )
