"""Training methods: what full training, continued pre-training, LoRA and QLoRA cost per token
in FLOPs and per parameter in memory.

- Full training and continued pre-training: 6 FLOPs per parameter per token (forward 2, backward
  4: gradients of the activations and of the weights); mixed-precision Adam holds 16 bytes per
  parameter, 12 of them optimizer state the distributed optimizer shards over data parallelism.
- LoRA (Hu et al., arXiv 2106.09685, 2021, section 4.1): the base weights are frozen, so the
  backward pass computes activation gradients (2 FLOPs per parameter) but no weight gradients:
  4 FLOPs per parameter per token; memory is the frozen BF16 weights (2 bytes) plus the low-rank
  adapters, which alone carry gradients and Adam state (16 bytes per adapter parameter).
- QLoRA (Dettmers et al., arXiv 2305.14314, 2023, section 3): the frozen weights are stored in
  4-bit NormalFloat with double-quantised block scales (about 0.127 bits per parameter of
  constants), so 0.516 bytes each; they are dequantised to BF16 for each multiply, so the FLOPs
  are LoRA's.
Adapters are rank `LORA_RANK` on every linear projection of every layer (QLoRA section 4 finds
adapters on all layers are needed to match full fine-tuning).

Attention is counted for every model: from the catalog shape when known, else (a dense model known
only by its size) from the shape a dense transformer of that size typically has, so a bare "20B at
2,048 tokens" is not credited with attention for free. A dense layer holds about 12 h^2 matrix
parameters (attention 4 h^2, a 4h-wide or 8/3 h SwiGLU FFN 8 h^2) and its width runs about
`TYPICAL_ASPECT` times its depth, so h = (aspect x N / 12)^(1/3) and L = h / aspect; causal
attention costs 6 h L s per trained token, a share s / (12 h) of the 6 N of the multiplies.
"""

from __future__ import annotations

from typing import Literal

from clustergen.engine.sizing.workload.llm import Arch
from clustergen.errors import RequestError

Method = Literal["full", "continued-pretraining", "lora", "qlora"]
METHODS: tuple[str, ...] = ("full", "continued-pretraining", "lora", "qlora")

#: hidden width per layer of depth of a typical dense transformer: GPT-3 (Brown et al., arXiv
#: 2005.14165, Table 2.1) 6.7B 4,096 / 32, 13B 5,140 / 40 and 175B 12,288 / 96 are all 128;
#: LLaMA 7B 4,096 / 32 = 128 (arXiv 2302.13971, Table 2)
TYPICAL_ASPECT = 128

#: adapter rank: QLoRA's experiments (arXiv 2305.14314, section 4: r = 64) ; PEFT's default is 8
LORA_RANK = 64

#: bytes per frozen base parameter: BF16 (LoRA) and NF4 + double-quantised scales (QLoRA)
_FROZEN_BYTES = {"lora": 2.0, "qlora": 0.5 + 0.127 / 8}
#: matmul FLOPs per parameter per token: weight gradients only when the weights train
_MATMUL_FLOPS = {"full": 6.0, "continued-pretraining": 6.0, "lora": 4.0, "qlora": 4.0}


def check_method(method: str) -> str:
    """The method, or a one-line refusal naming the ones known."""
    if method not in METHODS:
        raise RequestError(
            f"unknown training method {method!r}", hint="use one of " + ", ".join(METHODS)
        )
    return method


def training_flops_per_token(arch: Arch, sequence: int, method: str = "full") -> float:
    """Model FLOPs to train on one token at `sequence` by `method` (attention's backward is
    activation gradients only, so 3 x its forward under every method)."""
    per_param = _MATMUL_FLOPS[check_method(method)]
    return per_param * arch.matmul_params() + 3 * attention_forward_flops(arch, sequence)


def typical_width(params: float) -> float:
    """Hidden width of a dense transformer of `params` at the typical aspect ratio."""
    return float((TYPICAL_ASPECT * params / 12) ** (1 / 3))


def attention_forward_flops(arch: Arch, sequence: int) -> float:
    """Forward causal-attention FLOPs per token at `sequence`: the catalog shape's, else a typical
    dense shape's for its size (2 h L s: QK^T and AV over s / 2 positions on average); 0 for a
    mixture of experts of unknown shape (its width does not follow from its size)."""
    if arch.known_shape:
        return arch.attention_flops_per_token(sequence, causal=True)
    if arch.active < 0.9 * arch.params:
        return 0.0
    width = typical_width(arch.params)
    return 2 * width * (width / TYPICAL_ASPECT) * sequence


def adapter_params(arch: Arch) -> float:
    """LoRA adapter parameters: rank x (inputs + outputs) of every projection of every layer;
    1 % of the model when its shape is unknown."""
    m = arch.model
    if m is None or not (m.layers and m.hidden_size and m.attention_heads):
        return 0.01 * arch.params
    head = m.head_dim or m.hidden_size // m.attention_heads
    q = m.attention_heads * head
    kv = (m.kv_heads or m.attention_heads) * head
    ffn = m.intermediate_size or m.moe_intermediate_size or 4 * m.hidden_size
    h = m.hidden_size
    per_layer = (h + q) + 2 * (h + kv) + (q + h) + 2 * (h + ffn) + (ffn + h)
    return float(m.layers * LORA_RANK * per_layer)


def state_bytes(arch: Arch, method: str) -> tuple[float, float]:
    """(bytes every model-parallel rank keeps per model parameter, bytes per model parameter the
    distributed optimizer can shard over data parallelism) for `method`."""
    if check_method(method) in ("full", "continued-pretraining"):
        return 4.0, 12.0
    adapters = adapter_params(arch) / arch.params
    return _FROZEN_BYTES[method] + 4.0 * adapters, 12.0 * adapters
