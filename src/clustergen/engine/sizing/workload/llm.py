"""What a language model costs per token: FLOPs, bytes of weights and bytes of KV cache.

Arithmetic from the architecture alone (no hardware): the estimators in `training/` and
`serving/` divide these by what a GPU delivers. A model known only by its parameter count is
`Arch` with no layers: the attention terms are then unknown and left out, and the callers say so.

FLOPs follow NVIDIA's "model FLOPs" (Megatron's count, which its published model TFLOP/s use):
6 FLOPs per parameter per trained token for the matrix multiplies, less the input embedding (a
look-up, not a multiply), plus causal attention over the sequence. The per-token count this gives
reproduces Megatron-Bridge's model TFLOP/s / tokens/s for Llama 3 8B and 70B at 8,192 to 0.1 %.
"""

from __future__ import annotations

from typing import NamedTuple

from clustergen.catalog.workload_models import LanguageModel

#: bytes per parameter of each number format; NVFP4 is 4 bits plus one FP8 scale per 16 values
#: (NVIDIA, "Introducing NVFP4", 2025-06), so 0.5 + 1/16
BYTES_PER_PARAM = {"bf16": 2.0, "fp16": 2.0, "fp8": 1.0, "fp4": 0.5625}


class Arch(NamedTuple):
    """The figures of a model the estimators use: parameters, and when known, the shape."""

    params: float  # total parameters
    active: float  # parameters used per token
    model: LanguageModel | None = None

    @property
    def known_shape(self) -> bool:
        """Whether layers, heads and widths are known (attention and KV cache computable)."""
        m = self.model
        return m is not None and bool(m.layers and m.hidden_size and m.attention_heads)

    @property
    def moe(self) -> bool:
        """A mixture-of-experts model."""
        return self.model is not None and self.model.architecture == "moe"

    def embedding_params(self) -> float:
        """Input-embedding parameters: counted in the model's size but never multiplied."""
        m = self.model
        if m is None or not (m.vocab_size and m.hidden_size) or m.tied_embeddings:
            return 0.0
        return float(m.vocab_size * m.hidden_size)

    def _attention_layers(self) -> tuple[int, int]:
        """(full-attention layers, sliding-window layers)."""
        m = self.model
        assert m is not None
        assert m.layers
        full = m.full_attention_layers if m.full_attention_layers is not None else m.layers
        sliding = m.layers - full if m.sliding_window else 0
        return full, sliding

    def _qk_v_width(self, absorbed: bool = False) -> float:
        """Query heads x (query-key width + value width): what one token's attention costs per
        position it attends to, in multiply-adds per layer. `absorbed`: MLA as decode runs it,
        the up-projections folded into the query and output so every head attends over the
        cached latent itself (keys kv_lora_rank + rotary wide, values kv_lora_rank wide), which
        reads only the latent but multiplies over the wider vectors (DeepSeek-V2 paper, 2.1.2)."""
        m = self.model
        assert m is not None
        assert m.attention_heads
        if m.kv_lora_rank and absorbed:
            latent = m.kv_lora_rank + (m.qk_rope_head_dim or 0)
            return float(m.attention_heads * (latent + m.kv_lora_rank))
        if m.kv_lora_rank:  # MLA: queries and keys carry a no-position and a rotary part
            qk = (m.qk_nope_head_dim or 0) + (m.qk_rope_head_dim or 0)
            return float(m.attention_heads * (qk + (m.v_head_dim or 0)))
        head = m.head_dim or (m.hidden_size or 0) // m.attention_heads
        return float(m.attention_heads * 2 * head)

    def attention_flops_per_token(self, context: float, causal: bool) -> float:
        """Forward attention FLOPs of one token attending over `context` positions (the average
        over a causal sequence of that length when `causal`); 0 when the shape is unknown."""
        if not self.known_shape:
            return 0.0
        m = self.model
        assert m is not None
        full, sliding = self._attention_layers()
        reach = context / 2 if causal else context
        window = min(reach, float(m.sliding_window or 0))
        # a generated token (not causal: it sees the whole context) attends as decode runs it
        width = self._qk_v_width(absorbed=not causal)
        return 2 * width * (full * reach + sliding * window)

    def matmul_params(self) -> float:
        """Active parameters that are multiplied per token."""
        return self.active - self.embedding_params()

    def training_flops_per_token(self, sequence: int) -> float:
        """Model FLOPs to train on one token at `sequence` (forward + backward = 3 x forward)."""
        return 6 * self.matmul_params() + 3 * self.attention_flops_per_token(sequence, causal=True)

    def prefill_flops(self, tokens: int) -> float:
        """Forward FLOPs to read a prompt of `tokens` (causal attention over it)."""
        return tokens * (
            2 * self.matmul_params() + self.attention_flops_per_token(tokens, causal=True)
        )

    def decode_flops_per_token(self, context: float) -> float:
        """Forward FLOPs of one generated token attending over `context` positions."""
        return 2 * self.matmul_params() + self.attention_flops_per_token(context, causal=False)

    def weight_bytes(self, precision: str) -> float:
        """Bytes of all the weights at `precision`."""
        return self.params * BYTES_PER_PARAM[precision]

    def kv_bytes_per_token(self, context: float, kv_bytes: float) -> float | None:
        """KV-cache bytes one token holds, averaged over a sequence of `context` tokens (sliding-
        window layers keep at most their window); None when the shape is unknown."""
        if not self.known_shape:
            return None
        m = self.model
        assert m is not None
        assert m.layers
        if m.kv_lora_rank:  # MLA caches one latent vector and the rotary key per layer
            return m.layers * (m.kv_lora_rank + (m.qk_rope_head_dim or 0)) * kv_bytes
        full, sliding = self._attention_layers()
        head = m.head_dim or (m.hidden_size or 0) // (m.attention_heads or 1)
        per_layer = 2 * (m.kv_heads or m.attention_heads or 0) * head * kv_bytes
        kept = full + sliding * min(1.0, (m.sliding_window or 0) / max(context, 1.0))
        return per_layer * kept

    def expert_split(self) -> tuple[float, float]:
        """(always-used parameters, routed-expert parameters) of a MoE model: with k of E experts
        routed per token, active = shared + routed x k/E and total = shared + routed."""
        m = self.model
        if not (self.moe and m and m.experts and m.experts_per_token):
            return self.params, 0.0
        share = m.experts_per_token / m.experts
        routed = (self.params - self.active) / (1 - share)
        return self.params - routed, routed


def arch_of(model: LanguageModel | None, params_b: float | None) -> Arch | None:
    """The model's figures: from its catalog entry, else from a bare parameter count (dense)."""
    if model is not None:
        return Arch(params=model.params_b * 1e9, active=model.active_params_b * 1e9, model=model)
    if params_b:
        return Arch(params=params_b * 1e9, active=params_b * 1e9)
    return None
