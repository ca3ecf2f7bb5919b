"""One serving replica (a model copy on TP x PP GPUs) as a prefill/decode time model.

With continuous batching a replica runs steps; each step advances B sequences by one output token
and, to keep B sequences in flight, also reads B x ISL/OSL prompt tokens (chunked prefill):

    step(B) = weights read / bandwidth + B x (decode FLOPs / compute + KV read / bandwidth)
              + B x prefill(ISL) / OSL
    output tokens/s = B / step(B);  TPOT = step(B);  TTFT = prefill(ISL) / (1 - prefill share)

and every step also pays a fixed cost per layer (kernel launches, the tensor-parallel all-reduces,
sampling) that no batch amortises, which is what one user's TPOT is made of on a small model.

Time to first token is a queue at the target load: prompts arrive at random (Poisson, as MLPerf's
server scenario sends them) to a prefill that is busy a share rho of the time (the prefill share
of each step). One prompt's service is its prefill plus the decode steps its chunks ride with
(chunked prefill: a prompt is cut into chunks of at most `chunk_tokens`, each sharing a step with
the decode batch); the mean wait ahead of it is Kingman's heavy-traffic approximation for
Poisson arrivals and variable service (`_VARIABILITY`), rho S / (1 - rho). A percentile is read
from the M/D/1 waiting-time tail: prompts of the stated length are the same work each, so the
queue is Poisson arrivals to a deterministic server, whose wait exceeds t with probability
about rho e^(-theta t), theta solving lambda (e^(theta S) - 1) = theta (Cramer-Lundberg; the
exponential service's tail, theta = (1 - rho) / S, put MLPerf's p99 TTFT at twice the measured
one); never more than the prefills of the other sequences in flight (a finite population).

B is capped by the KV cache the memory left after the weights holds, and by the TTFT and TPOT
limits at the percentile asked: so long prompts, which make prefill dominate, cut the batch and
the throughput far more than short ones (a flat derate misses that).

Compute is the dense peak at the precision, bandwidth the HBM's, each with an efficiency fitted to
TensorRT-LLM's published max-throughput tables (assumptions.yaml `inference-*`); an FP4 model
runs only its FP4 GEMMs (a dense model's linear layers, a MoE's routed experts) at the FP4 peak,
attention's math over the context and the rest at the FP8 one; per-GPU efficiency
falls with tensor parallelism as TP^-exponent (all-reduces per layer). A MoE step reads the shared
weights and only the experts its tokens route to: E x (1 - (1 - k/E)^tokens) of them.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import NamedTuple

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Gpu
from clustergen.engine.cache import cached
from clustergen.engine.sizing.workload.inputs import constant, dense_field
from clustergen.engine.sizing.workload.llm import BYTES_PER_PARAM, Arch
from clustergen.engine.sizing.workload.serving.experts import (
    Layout,
    all_to_all_latency_s,
    all_to_all_s_per_token,
    kv_copies,
    weights_per_gpu,
)

_BISECT_STEPS = 60

#: Kingman's (c_a^2 + c_s^2) / 2: Poisson arrivals (c_a = 1) and prompt services as variable as
#: exponential ones (c_s = 1: chunks share steps with a decode batch that changes), which puts
#: NIM's measured TTFT at 25 and 50 users within 5 %; constant services (c_s = 0, a factor 0.5)
#: fell 26-28 % short
_VARIABILITY = 1.0


class Efficiency(NamedTuple):
    """The inference model's fitted constants (assumptions.yaml)."""

    prefill: float
    decode: float
    memory: float
    fp4: float
    tp_exponent: float
    kv_fraction: float
    moe: float
    step_overhead_s_per_layer: float = 0.0
    chunk_tokens: int = 8192
    scale_out_gb_per_s: float = 50.0
    moe_size_exponent: float = 0.0
    moe_step_overhead_s_per_layer: float = 0.0
    expert_read: float = 1.0
    a2a_latency_s_per_layer: float = 0.0
    a2a_latency_s_per_rank: float = 0.0
    a2a_latency_s_per_layer_rdma: float = 0.0

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
                step_overhead_s_per_layer=constant(catalog, "inference-step-overhead-us-per-layer")
                / 1e6,
                chunk_tokens=int(constant(catalog, "inference-prefill-chunk-tokens")),
                scale_out_gb_per_s=constant(catalog, "inference-scale-out-gb-per-s-per-gpu"),
                moe_size_exponent=constant(catalog, "inference-moe-expert-size-exponent"),
                moe_step_overhead_s_per_layer=constant(
                    catalog, "inference-moe-step-overhead-us-per-layer"
                )
                / 1e6,
                expert_read=constant(catalog, "inference-expert-read-efficiency"),
                a2a_latency_s_per_layer=constant(catalog, "inference-ep-all-to-all-latency-us")
                / 1e6,
                a2a_latency_s_per_rank=constant(
                    catalog, "inference-ep-all-to-all-latency-us-per-rank"
                )
                / 1e6,
                a2a_latency_s_per_layer_rdma=constant(
                    catalog, "inference-ep-all-to-all-latency-us-rdma"
                )
                / 1e6,
            ),
        )


class Replica(NamedTuple):
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
    overhead_s: float = 0.0  # fixed cost of every step (launches, all-reduces, sampling)
    chunks: int = 1  # steps one prompt's prefill is cut into (chunked prefill)
    prefill_ranks: int = 1  # prompts prefilled at once, each on its own GPUs (DEP: one per GPU)
    # "tp"; "dep": attention data parallel with expert parallelism; "tep": attention tensor
    # parallel with expert parallelism
    layout: str = "tp"
    percentile: float | None = None  # the TTFT the limits and figures mean: None for the mean
    # speculative decoding: tokens each sequence computes per step (the one it emits plus the
    # drafts it verifies) and tokens it emits per step on average (1 + accepted drafts)
    verify: float = 1.0
    accepted: float = 1.0
    # disaggregated prefill/decode: the decode pool runs no prompts; a prefill pool of the
    # same GPUs reads them at `prefill_load` of its time (its queue is the TTFT's)
    disaggregated: bool = False
    prefill_load: float = 1.0
    # the part of `per_seq_s` that reads the sequence's KV cache: once per step however many
    # tokens the step verifies (the drafted tokens attend to the same cache in one kernel)
    kv_seq_s: float = 0.0
    # tokens' worth of distinct routed experts one sequence's step touches: 1, or with drafts
    # 1 + drafts x (1 - the share of a drafted token's experts its sequence already chose)
    routed_tokens: float = 1.0

    @property
    def gpus(self) -> int:
        """GPUs in the replica."""
        return self.tp * self.pp

    @property
    def shape(self) -> str:
        """'TP8', 'TP8 x PP2', 'DEP8' (attention data parallel, experts spread) or 'TEP8'
        (attention tensor parallel, experts spread)."""
        head = f"{self.layout.upper()}{self.tp}"
        return head + (f" x PP{self.pp}" if self.pp > 1 else "")

    def scaled(self, factor: float) -> Replica:
        """The same replica made `factor` times faster in every term (a slower or faster
        serving stack)."""
        return self._replace(
            prefill_s=self.prefill_s / factor,
            shared_s=self.shared_s / factor,
            routed_s=self.routed_s / factor,
            per_seq_s=self.per_seq_s / factor,
            overhead_s=self.overhead_s / factor,
            kv_seq_s=self.kv_seq_s / factor,
        )

    def anchored(self, factor: float) -> Replica:
        """The replica with its per-sequence terms (prompt and decode math, KV reads) `factor`
        times faster; the floor every step pays whatever the batch (weights read, fixed cost) is
        kept as modelled, so a table measured at full batch does not speed up one user's TPOT
        (`batch_factor` gives the factor that meets a published max throughput)."""
        return self._replace(
            prefill_s=self.prefill_s / factor,
            per_seq_s=self.per_seq_s / factor,
            kv_seq_s=self.kv_seq_s / factor,
        )

    def speculating(
        self,
        drafts: int,
        acceptance: float,
        draft_cost: float,
        deeper: float | None = None,
        reuse: float = 0.0,
    ) -> Replica:
        """The replica with speculative decoding: each step verifies `drafts` drafted tokens
        per sequence, the first accepted with probability `acceptance`, each later one with
        probability `deeper` (default the same) while the ones before it were, so it emits
        1 + a + a r + a r^2 + ... tokens; the verified tokens cost the sequence's decode math
        each, the drafting `draft_cost` of it per draft; its KV cache is read once a step (the
        verify pass attends all its tokens to the cache in one kernel, as MLA's generation
        kernel does for MTP: TensorRT-LLM tech blog 2); a drafted token routes a share `reuse`
        of its experts to ones the tokens of its sequence before it chose, so the step's distinct
        experts grow by 1 - `reuse` of a token's per draft (consecutive tokens of one request
        keep to the same hot experts)."""
        emitted = speculative_tokens(drafts, acceptance, deeper)
        computed = (1 + drafts) * (1 + draft_cost)
        # the draft layers run one after another, each paying one layer's fixed cost per step
        return self._replace(
            per_seq_s=(self.per_seq_s - self.kv_seq_s) * computed + self.kv_seq_s,
            overhead_s=self.overhead_s * (1 + drafts * draft_cost),
            verify=computed,
            accepted=emitted,
            routed_tokens=1 + drafts * (1 - reuse),
        )

    def disaggregate(self, prefill_load: float) -> Replica:
        """The replica as a decode pool, its prompts read by a prefill pool busy `prefill_load`
        of the time."""
        return self._replace(disaggregated=True, prefill_load=prefill_load)

    def prefill_gpus(self, batch: float) -> float:
        """GPUs of the prefill pool that keep this decode replica fed at `batch` (0 when
        aggregated): prompts/s x one prompt's GPU-seconds / the pool's load."""
        if not self.disaggregated:
            return 0.0
        prompts = self.tokens_per_s(batch) / self.osl
        return prompts * self.prefill_s * self.gpus / self.prefill_load

    def per_gpu(self, batch: float) -> float:
        """Output tokens/s per GPU, the prefill pool's GPUs counted."""
        return self.tokens_per_s(batch) / (self.gpus + self.prefill_gpus(batch))

    def tpot_s(self, batch: float) -> float:
        """Time per output token one user sees: a step, over the tokens it emits; at the
        replica's percentile, the steps of a request that more prompts than the mean rode
        along with. While a request decodes, as many prompts arrive as there are sequences in
        flight (Little's law), a Poisson count whose p-th percentile is about
        batch + z_p sqrt(batch): the prompt share of its steps is that much above the mean
        (MLPerf's p99 / mean TPOT: 1.30, 1.21 and 1.02 measured, 1.25, 1.22, 1.03 modelled)."""
        step = self.step_s(batch)
        if self.percentile is not None and not self.disaggregated:
            prompts = step - self.decode_s(batch)
            z = NormalDist().inv_cdf(self.percentile)
            step += prompts * z / math.sqrt(max(batch, 1.0))
        return step / self.accepted

    def floor_s(self, batch: float) -> float:
        """Seconds of a step that do not grow with the batch's own work: weights read (the
        experts `batch` touches) and the fixed cost."""
        return self.decode_s(batch) - batch * self.per_seq_s

    def batch_factor(self, tokens_per_s: float) -> float:
        """The `anchored` factor that makes the replica deliver `tokens_per_s` at its memory's
        batch; at most 4 x the factor that scales every term (a published figure beyond the
        modelled floor would otherwise ask for unbounded speed)."""
        b = self.max_batch
        work = b * (self.per_seq_s + self.prefill_s / self.osl)
        whole = tokens_per_s / self.tokens_per_s(b)
        room = b / tokens_per_s - self.floor_s(b)
        if room <= 0:
            return 4 * whole
        return min(work / room, 4 * whole)

    def at_percentile(self, percentile: float | None) -> Replica:
        """The same replica with its TTFT read at `percentile` (0-1; None for the mean)."""
        return self._replace(percentile=percentile)

    def decode_s(self, batch: float) -> float:
        """Seconds of a step that are not prompt work: weights, the batch's decode, overhead."""
        routed = 0.0
        if self.routed_s:
            prompts = 0.0 if self.disaggregated else self.accepted * self.isl / self.osl
            tokens = batch * (self.routed_tokens + prompts)
            routed = self.routed_s * (1 - (1 - self.route_share) ** tokens)
        # a pipeline keeps PP micro-batches in flight, each reading every stage's weights: PP
        # adds GPUs and throughput but does not shorten one token's trip through the layers
        return self.pp * (self.overhead_s + self.shared_s + routed) + batch * self.per_seq_s

    def step_s(self, batch: float) -> float:
        """Seconds per step with `batch` sequences in flight (the mean TPOT without drafts):
        aggregated, each step also reads the prompts that keep `batch` in flight."""
        if self.disaggregated:
            return self.decode_s(batch)
        return self.decode_s(batch) + batch * self.accepted * self.prefill_s / self.osl

    def tokens_per_s(self, batch: float) -> float:
        """Output tokens/s of the replica."""
        return batch * self.accepted / self.step_s(batch)

    def prefill_share(self, batch: float) -> float:
        """Share of the replica's time spent on prompts: the prefill queue's utilisation (the
        prefill pool's load when disaggregated)."""
        if self.disaggregated:
            return self.prefill_load
        return batch * self.accepted * self.prefill_s / self.osl / self.step_s(batch)

    def ttft_s(self, batch: float) -> float:
        """Time to first token at `batch` in flight: one prompt's service (its prefill, the
        decode steps its chunks share, each pipeline stage in turn) plus the queue ahead of it,
        mean or at the replica's percentile."""
        rho = min(self.prefill_share(batch), 1 - 1e-9)
        # one prompt is read by its own GPUs (a DEP rank: one GPU) while the others read theirs:
        # its service is `prefill_ranks` times the replica's share, the queue sees them all
        own = self.pp * self.prefill_s * self.prefill_ranks
        # disaggregated, a prompt is read whole on the prefill pool, then joins a decode step
        steps = 1 if self.disaggregated else self.chunks
        service = own + steps * self.decode_s(batch)
        # the queue's server is the replica's prompt work: one prompt's worth at a time
        work = service - own + self.pp * self.prefill_s
        if self.percentile is None:
            wait = _VARIABILITY * rho * work / (1 - rho)
        else:
            wait = md1_wait(rho, work, self.percentile)
        # a finite population: no more prompts can be ahead than the other sequences in flight
        return service + min(wait, max(0.0, batch - 1) * self.pp * self.prefill_s)

    def best_batch(self, ttft_s: float | None, tpot_s: float | None) -> float:
        """The largest batch within memory and both limits; 0 when not even one sequence fits."""
        if self.max_batch < 1:
            return 0.0

        def ok(b: float) -> bool:
            if tpot_s is not None and self.tpot_s(b) > tpot_s:
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


def speculative_tokens(drafts: int, acceptance: float, deeper: float | None = None) -> float:
    """Tokens one sequence emits per step with `drafts` drafted tokens: 1, plus the first draft
    at `acceptance`, plus each later one at `deeper` (default `acceptance`) given the ones
    before it were accepted."""
    later = acceptance if deeper is None else deeper
    return 1.0 + sum(acceptance * later ** (i - 1) for i in range(1, drafts + 1))


def md1_wait(rho: float, service_s: float, percentile: float) -> float:
    """The `percentile` (0-1) of the wait in an M/D/1 queue busy `rho` of the time with services
    of `service_s`: P(wait > t) ~ rho e^(-theta t), where x = theta x service solves
    rho (e^x - 1) = x (zero while rho is under 1 - percentile: most prompts find it idle)."""
    tail = 1 - percentile
    if rho <= tail or service_s <= 0:
        return 0.0
    rho = min(rho, 1 - 1e-9)
    # rho (e^x - 1) - x is negative just above 0 and positive from hi on
    lo, hi = 0.0, 2 * math.log(1 / rho) + 2
    for _ in range(_BISECT_STEPS):
        mid = (lo + hi) / 2
        if rho * math.expm1(mid) < mid:
            lo = mid
        else:
            hi = mid
    x = (lo + hi) / 2
    return service_s / x * math.log(rho / tail)


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


#: the expert matrix size (hidden x expert FFN width) the MoE efficiency is quoted at
MOE_REFERENCE_EXPERT = 1e7


def moe_efficiency(arch: Arch, eff: Efficiency) -> float:
    """Share of the dense compute efficiency a MoE model's routed experts reach: `eff.moe` for an expert
    of hidden x FFN width `MOE_REFERENCE_EXPERT`, growing as that size to `eff.moe_size_exponent`
    (a bigger expert is a bigger, faster grouped matrix multiply), never above the dense one;
    1 for a dense model."""
    m = arch.model
    if not arch.moe:
        return 1.0
    if not (m and m.hidden_size and m.moe_intermediate_size):
        return eff.moe
    size = m.hidden_size * m.moe_intermediate_size / MOE_REFERENCE_EXPERT
    grown: float = eff.moe * math.pow(size, eff.moe_size_exponent)
    return min(1.0, grown)


def moe_overhead_s(arch: Arch, eff: Efficiency) -> float:
    """Fixed seconds every step pays over the layers: `step_overhead_s_per_layer` per dense layer
    and `moe_step_overhead_s_per_layer` per MoE layer (router, dispatch and combine latency,
    grouped-GEMM launches, which no batch amortises)."""
    m = arch.model
    if not (m and m.layers):
        return 0.0
    if not arch.moe:
        return eff.step_overhead_s_per_layer * m.layers
    moe_layers = m.layers - (m.dense_layers or 0)
    dense = m.layers - moe_layers
    return (
        eff.step_overhead_s_per_layer * dense
        + max(eff.step_overhead_s_per_layer, eff.moe_step_overhead_s_per_layer) * moe_layers
    )


def _fp8_compute(gpu: Gpu, gpus: int, per_gpu: float) -> float | None:
    """FLOP/s of `gpus` GPUs at the FP8 dense peak (None when unknown)."""
    peak = gpu.fp8_dense_tflops
    return gpus * peak * 1e12 * per_gpu if peak else None


def kv_bytes(precision: str) -> float:
    """KV-cache bytes per value: FP8 alongside FP8 and FP4 weights, else 16-bit."""
    return 1.0 if precision in ("fp8", "fp4") else 2.0


def build_replica(
    arch: Arch,
    gpu: Gpu,
    precision: str,
    tp: int,
    pp: int,
    isl: int,
    osl: int,
    eff: Efficiency,
    layout: str = "tp",
    domain: int | None = None,
) -> Replica | None:
    """The replica's time constants; None when the architecture or a GPU figure is unknown, or a
    DEP layout's all-to-all cannot be costed. `tp` is the GPUs per stage (TP or DEP degree),
    `domain` the GPUs one NVLink domain joins (default: the stage)."""
    peak: float | None = getattr(gpu, dense_field(precision))
    kv_full = arch.kv_bytes_per_token(isl + osl, kv_bytes(precision))
    if not (peak and gpu.memory_bandwidth_gb_per_s and gpu.memory_gb) or kv_full is None:
        return None
    lay = Layout(layout, tp)
    a2a = all_to_all_s_per_token(arch, precision, lay, gpu, domain or tp, eff.scale_out_gb_per_s)
    if a2a is None:
        return None
    n = tp * pp
    # TP's all-reduces are in the fitted exponent; DEP's attention needs none (its all-to-all
    # is costed on its own)
    per_gpu = 1.0 if lay.dep else tp ** (-eff.tp_exponent)
    compute = n * peak * 1e12 * per_gpu * (eff.fp4 if precision == "fp4" else 1.0)
    # the routed experts' small grouped GEMMs run at the MoE efficiency; attention and the
    # shared weights are ordinary matrix multiplies at the dense one
    slow = 1 / moe_efficiency(arch, eff) - 1
    bandwidth = n * gpu.memory_bandwidth_gb_per_s * 1e9 * per_gpu * eff.memory
    # a whole expert per GPU (DEP, TEP) streams at the full bandwidth; TP slices every expert
    # and pays its all-reduces on those reads too
    expert_bandwidth = bandwidth / per_gpu if lay.experts_whole else bandwidth
    context = isl + osl / 2
    kv_mid = arch.kv_bytes_per_token(context, kv_bytes(precision)) or kv_full
    copies = kv_copies(arch, lay)
    kv_read = copies * kv_mid * context / bandwidth
    shared, routed = arch.expert_split()
    bpp = BYTES_PER_PARAM[precision]
    # FP4 checkpoints quantize only the routed experts: attention and the shared/dense weights
    # stay FP8 (nvidia/DeepSeek-R1-FP4; its v2 card: "additionally quantizes the wo module in
    # attention layers")
    shared_bpp = BYTES_PER_PARAM["fp8"] if precision == "fp4" and arch.moe else bpp
    m = arch.model
    share = m.experts_per_token / m.experts if m and m.experts and m.experts_per_token else 1.0
    # FLOPs of one token's routed experts, on top of its whole forward at the dense efficiency
    expert_extra = 2 * routed * share * slow if arch.moe else 0.0
    # an FP4 checkpoint runs only some GEMMs at the FP4 peak (`fast`, FLOPs per token), the
    # rest of the forward at the FP8 one. MoE: only the routed experts are FP4 (the checkpoint
    # above; TensorRT-LLM tech blog 3, "Precision strategy": "FP8 KV cache and FP8
    # attention"). Dense: "only the weights and activations of the linear operators within
    # transformers blocks are quantized" (nvidia/Llama-3.1-405B-Instruct-FP4 model card, read
    # 2026-11-29), so attention's math over the context (QK^T, PV: arch's attention FLOPs) runs
    # on the FP8 KV cache (`kv_bytes`) in TensorRT-LLM's FP8 attention kernels, as above
    routed_flops = 2 * routed * share if arch.moe else 0.0
    fast = routed_flops if arch.moe else 2 * arch.matmul_params()
    rest = (_fp8_compute(gpu, n, per_gpu) if precision == "fp4" else None) or compute
    # a stage of `tp` GPUs: TP or PP splits the weights once over all the replica's GPUs
    held = (shared * shared_bpp + routed * bpp) if arch.moe else arch.weight_bytes(precision)
    if lay.dep:
        held = weights_per_gpu(arch, lay, bpp) * tp + shared * (shared_bpp - bpp) * tp
    free = eff.kv_fraction * (n * gpu.memory_gb * 1e9 - held)
    # under DEP every GPU reads the shared weights whole each step
    shared_read = (shared - arch.embedding_params()) * shared_bpp * (tp if lay.dep else 1)
    return Replica(
        tp=tp,
        pp=pp,
        isl=isl,
        osl=osl,
        prefill_s=(arch.prefill_flops(isl) - isl * fast) / (rest * eff.prefill)
        + isl * (fast + expert_extra) / (compute * eff.prefill)
        + isl * a2a,
        shared_s=shared_read / bandwidth,  # a look-up reads rows
        # a step streams each touched expert's matrices through a grouped GEMM of a few rows:
        # short reads that reach `expert_read` of the bandwidth the dense weights do
        routed_s=routed * bpp / (expert_bandwidth * eff.expert_read),
        route_share=share,
        per_seq_s=(arch.decode_flops_per_token(context) - fast) / (rest * eff.decode)
        + (fast + expert_extra) / (compute * eff.decode)
        + kv_read
        + a2a,
        max_batch=max(0.0, free / (copies * kv_full * (isl + osl))),
        overhead_s=moe_overhead_s(arch, eff)
        + all_to_all_latency_s(
            arch,
            lay,
            eff.a2a_latency_s_per_layer,
            eff.a2a_latency_s_per_rank,
            domain or tp,
            eff.a2a_latency_s_per_layer_rdma or None,
        ),
        chunks=max(1, math.ceil(isl / eff.chunk_tokens)),
        prefill_ranks=tp if lay.dep else 1,
        layout=layout,
        kv_seq_s=kv_read,
    )
