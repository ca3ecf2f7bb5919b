"""Per-token FLOPs, weights and KV cache from a model's architecture."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.sizing.workload.llm import Arch, arch_of

CAT = load_catalog()


def _arch(model: str) -> Arch:
    arch = arch_of(CAT.model(model), None)
    assert arch is not None
    return arch


@pytest.mark.parametrize(
    ("model", "tflops", "tokens_per_s"),
    [("llama-3-8b", 744, 14451), ("llama-3-70b", 719, 1602), ("llama-3.1-405b", 737, 292)],
)
def test_training_flops_are_nvidias_model_flops(
    model: str, tflops: float, tokens_per_s: float
) -> None:
    """Megatron-Bridge 25.11, DGX-H100 rows: model TFLOP/s / tokens/s = model FLOPs per token at
    sequence 8,192 (6 per matmul parameter, input embedding left out, causal attention in)."""
    per_token = tflops * 1e12 / tokens_per_s
    assert _arch(model).training_flops_per_token(8192) == pytest.approx(per_token, rel=0.04)


@pytest.mark.parametrize(
    ("model", "kib"), [("llama-3-8b", 128), ("llama-3-70b", 320), ("llama-3.1-405b", 504)]
)
def test_kv_cache_per_token_at_bf16(model: str, kib: int) -> None:
    """The Llama 3 Herd of Models, Table 3 (8 KV heads of 128): 2 x layers x 8 x 128 x 2 bytes."""
    assert _arch(model).kv_bytes_per_token(8192, 2.0) == kib * 1024


def test_mla_caches_one_latent_per_layer() -> None:
    """DeepSeek-V3: 61 layers x (512 latent + 64 rotary) values per token."""
    assert _arch("deepseek-v3").kv_bytes_per_token(4096, 1.0) == 61 * (512 + 64)


def test_sliding_window_layers_keep_only_their_window() -> None:
    gemma = _arch("gemma-3-27b")
    short, long = gemma.kv_bytes_per_token(1024, 2.0), gemma.kv_bytes_per_token(131072, 2.0)
    assert short is not None
    assert long is not None
    assert long < short / 4  # 52 of 62 layers stop at 1,024 tokens


def test_moe_splits_shared_and_routed_parameters() -> None:
    arch = _arch("deepseek-v3")
    shared, routed = arch.expert_split()
    m = CAT.model("deepseek-v3")
    assert shared + routed == pytest.approx(arch.params)
    assert shared + routed * 8 / 256 == pytest.approx(arch.active)
    assert m.active_params_b < m.params_b


def test_a_bare_size_has_no_shape_so_no_attention_or_kv() -> None:
    arch = arch_of(None, 65)
    assert arch is not None
    assert not arch.known_shape
    assert arch.training_flops_per_token(2048) == 6 * 65e9
    assert arch.kv_bytes_per_token(2048, 2.0) is None


def test_weights_by_precision() -> None:
    arch = _arch("llama-3.1-405b")
    assert arch.weight_bytes("fp8") == pytest.approx(405.85e9)
    assert arch.weight_bytes("bf16") == 2 * arch.weight_bytes("fp8")
    assert arch.weight_bytes("fp4") < 0.6 * arch.weight_bytes("fp8")
