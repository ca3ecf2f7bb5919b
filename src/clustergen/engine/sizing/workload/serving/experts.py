"""How a replica lays a model over its GPUs, and what that costs beyond the matrix multiplies:
tensor parallelism (TP: every layer split over the GPUs) or, for a mixture-of-experts model,
expert parallelism with attention data parallelism (DEP, as TensorRT-LLM's DeepSeek-R1 and Qwen3
tables run it: each GPU holds the attention and shared weights whole and serves its own
sequences; the routed experts are spread over the GPUs, and each MoE layer sends every token to
the GPUs of its k experts and back: an all-to-all dispatch and combine), or expert parallelism
with tensor-parallel attention (TEP: attention and the shared weights split as TP, every routed
expert whole on one GPU; TensorRT-LLM's "attention TP, MoE EP", which NVIDIA's disaggregated
DeepSeek-R1 recipes run at few users per decode instance: InferenceX nvidia-master.yaml,
recipes ctx1_gen5_tep8_batch32_mtp3 on B200 and ctx1_gen4_tep8_batch8_mtp3 on GB200).

What the layout decides:
- weights per GPU: TP and TEP split everything; DEP keeps the shared weights whole on every GPU;
- KV cache: TP splits it by KV head, so heads fewer than the TP degree are copied, and an MLA
  latent has no heads: every TP rank holds and reads every sequence's latent; DEP keeps each
  sequence's cache on its own GPU, never copied;
- communication: TP's all-reduces are in the fitted TP^-exponent (TEP's too: after the
  attention's all-reduce every rank holds every token, runs its own experts on them and the
  outputs are summed as TP's are; but a whole expert's weights stream at the full bandwidth, as
  under DEP, not split into TP slices); DEP's all-to-all moves
  k x hidden bytes per token per MoE layer each way (dispatch in FP8 with FP8 or FP4 weights,
  combine in BF16, as DeepEP does), over NVLink inside the domain at half its both-ways figure
  and, once the replica spans NVLink domains, every copy over the scale-out NIC: decode's
  low-latency kernels are pure RDMA (DeepEP's README, commit 0297fc8, measures 726-740 GB/s
  logical on B200 EP8 NVLink, of 900 one way, and 39-53 GB/s logical for the low-latency
  kernels at EP16-256 on 50 GB/s CX7 ports); and every MoE layer's dispatch and combine pay a
  latency floor no batch amortises (TensorRT-LLM tech blog 18: ~50 us at one token per rank on
  NVL72, growing with the EP width; beyond the NVLink domain about twice that, the part of
  DeepEP's pure-RDMA latencies its bytes at the port rate leave unexplained), which bounds how
  many users a wide-EP replica serves at a few ms per token;
- prefill: under DEP one GPU reads a prompt, so one prompt's service is N times the replica's
  share, with N prompts served at once.
"""

from __future__ import annotations

from typing import NamedTuple

from clustergen.catalog.models import Gpu
from clustergen.engine.sizing.workload.llm import Arch

#: bytes per value of the dispatch (FP8 with FP8/FP4 weights, else BF16) and of the combine
_COMBINE_BYTES = 2.0


class Layout(NamedTuple):
    """How a replica's N GPUs share the model: "tp", "dep" (attention DP + expert parallel) or
    "tep" (attention TP + expert parallel)."""

    kind: str
    gpus: int

    @property
    def dep(self) -> bool:
        """Attention data parallelism with expert parallelism."""
        return self.kind == "dep"

    @property
    def experts_whole(self) -> bool:
        """Each routed expert whole on one GPU (DEP, TEP): its reads are not TP slices."""
        return self.kind in ("dep", "tep")


def kv_copies(arch: Arch, layout: Layout) -> int:
    """How many GPUs of the replica hold each KV-cache byte: 1 under DEP; under TP, TP / KV heads
    when the heads are fewer than the GPUs, and every rank for an MLA latent (it has no heads)."""
    m = arch.model
    if layout.dep or m is None or layout.gpus <= 1:
        return 1
    if m.kv_lora_rank:
        return layout.gpus
    heads = m.kv_heads or m.attention_heads or layout.gpus
    return max(1, layout.gpus // heads)


def weights_per_gpu(arch: Arch, layout: Layout, bytes_per_param: float) -> float:
    """Bytes of weights each GPU holds."""
    if not layout.dep:
        return arch.params * bytes_per_param / layout.gpus
    shared, routed = arch.expert_split()
    return (shared + routed / layout.gpus) * bytes_per_param


def all_to_all_bytes_per_token(arch: Arch, precision: str) -> float:
    """Bytes one token sends out and gets back over all MoE layers (dispatch + combine)."""
    m = arch.model
    if not (arch.moe and m and m.experts_per_token and m.hidden_size and m.layers):
        return 0.0
    dispatch = 1.0 if precision in ("fp8", "fp4") else 2.0
    moe_layers = m.layers - (m.dense_layers or 0)
    return moe_layers * m.experts_per_token * m.hidden_size * (dispatch + _COMBINE_BYTES)


def all_to_all_latency_s(
    arch: Arch,
    layout: Layout,
    per_layer_s: float,
    per_rank_s: float = 0.0,
    domain: int | None = None,
    per_layer_rdma_s: float | None = None,
) -> float:
    """Seconds of every step spent in the all-to-alls' fixed latency: a dispatch and a combine
    per MoE layer under DEP, `per_layer_s` plus `per_rank_s` for each rank of the EP group (the
    launch and the flag barriers every rank writes to every other, which no batch amortises);
    `per_layer_rdma_s` in place of `per_layer_s` once the group spans NVLink domains of
    `domain` GPUs (decode's low-latency kernels are then pure RDMA); 0 for TP and TEP, whose
    all-reduces are in the fitted per-layer step cost."""
    m = arch.model
    if not (layout.dep and layout.gpus > 1 and arch.moe and m and m.layers):
        return 0.0
    fixed = per_layer_s
    if domain is not None and per_layer_rdma_s is not None and layout.gpus > domain:
        fixed = per_layer_rdma_s
    return (m.layers - (m.dense_layers or 0)) * (fixed + per_rank_s * layout.gpus)


def all_to_all_s_per_token(
    arch: Arch, precision: str, layout: Layout, gpu: Gpu, domain: int, scale_out_gb_per_s: float
) -> float | None:
    """Seconds of all-to-all one token costs the replica (its GPU's links, shared by the GPUs'
    tokens in parallel: divided by N); 0 for TP; None when the GPU's NVLink bandwidth is unknown
    (never taken as free)."""
    if not layout.dep or layout.gpus <= 1:
        return 0.0
    if not gpu.nvlink_gb_per_s:
        return None
    n = layout.gpus
    per_token = all_to_all_bytes_per_token(arch, precision)
    inside = min(n, max(domain, 1))
    if n > inside:
        # beyond the NVLink domain decode runs DeepEP's low-latency kernels, pure RDMA: every
        # copy to another rank, its own node's too, crosses the NIC (README: EP32 dispatch and
        # combine at 48 and 53 GB/s logical, every top-k copy counted, on 50 GB/s CX7 ports)
        return per_token * (n - 1) / n / (scale_out_gb_per_s * 1e9) / n
    # NVLink figures are both directions together; a token's bytes go out one way
    nvlink = gpu.nvlink_gb_per_s / 2 * 1e9
    return per_token * (inside - 1) / n / nvlink / n
