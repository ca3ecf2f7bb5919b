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
"""

from __future__ import annotations

from typing import Literal

from clustergen.engine.sizing.workload.llm import Arch
from clustergen.errors import RequestError

Method = Literal["full", "continued-pretraining", "lora", "qlora"]
METHODS: tuple[str, ...] = ("full", "continued-pretraining", "lora", "qlora")

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
    return per_param * arch.matmul_params() + 3 * arch.attention_flops_per_token(
        sequence, causal=True
    )


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
