"""Training methods: FLOPs and memory of full training, LoRA and QLoRA; short jobs in hours;
the per-model training sequence."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.sizing.workload.inputs import resolve_workload
from clustergen.engine.sizing.workload.llm import arch_of
from clustergen.engine.sizing.workload.training.estimate import estimate_training
from clustergen.engine.sizing.workload.training.method import (
    adapter_params,
    state_bytes,
    training_flops_per_token,
    typical_width,
)
from clustergen.errors import RequestError
from clustergen.units import duration

CAT = load_catalog()


def _arch(model: str):  # type: ignore[no-untyped-def]
    arch = arch_of(CAT.model(model), None)
    assert arch is not None
    return arch


def test_lora_skips_the_weight_gradients() -> None:
    """Frozen weights: forward 2 + activation gradients 2 FLOPs per parameter, not 6."""
    arch = _arch("llama-3.1-70b")
    full = training_flops_per_token(arch, 8192, "full")
    assert full == pytest.approx(arch.training_flops_per_token(8192))
    lora = training_flops_per_token(arch, 8192, "lora")
    attention = 3 * arch.attention_flops_per_token(8192, causal=True)
    assert lora - attention == pytest.approx((full - attention) * 4 / 6)
    assert training_flops_per_token(arch, 8192, "qlora") == lora
    assert training_flops_per_token(arch, 8192, "continued-pretraining") == full


def test_a_dense_model_known_only_by_size_pays_for_attention_at_a_typical_shape() -> None:
    """A bare size gets the attention of a typical dense shape: near a catalog model of that
    size, and a growing share with the sequence (s / 12h of the multiplies)."""
    known = _arch("llama-2-70b")
    bare = arch_of(None, known.params / 1e9)
    assert bare is not None
    assert not bare.known_shape
    assert 7000 < typical_width(70e9) < 9500  # Llama 2 70B is 8,192 wide
    for sequence in (2048, 8192):
        attention = training_flops_per_token(bare, sequence) - 6 * bare.matmul_params()
        catalog = training_flops_per_token(known, sequence) - 6 * known.matmul_params()
        assert attention == pytest.approx(catalog, rel=0.3)
    short = training_flops_per_token(bare, 2048) / (6 * bare.params) - 1
    long = training_flops_per_token(bare, 8192) / (6 * bare.params) - 1
    assert long == pytest.approx(4 * short)
    assert 0.005 < short < 0.05
    moe = arch_of(None, 236)._replace(active=21e9)  # type: ignore[union-attr]
    assert training_flops_per_token(moe, 4096) == 6 * moe.matmul_params()


def test_adapters_are_a_small_share_and_qlora_stores_four_bit_weights() -> None:
    arch = _arch("llama-3.1-70b")
    assert 0.001 < adapter_params(arch) / arch.params < 0.03
    assert sum(state_bytes(arch, "full")) == 16
    lora, qlora = sum(state_bytes(arch, "lora")), sum(state_bytes(arch, "qlora"))
    assert 2 < lora < 3
    assert 0.5 < qlora < 1.5
    with pytest.raises(RequestError, match="unknown training method"):
        state_bytes(arch, "dpo")


def test_a_lora_run_is_faster_and_fits_where_full_training_needs_more() -> None:
    w = resolve_workload(
        CAT,
        DesignRequest(model="llama-3.1-70b", gpu="h100", gpus=8, training_tokens_t=0.001,
                      sequence_tokens=4096, workload="fine-tuning"),
    )  # fmt: skip
    full, _ = estimate_training(CAT, w)
    lora, _ = estimate_training(CAT, w, "lora")
    qlora, _ = estimate_training(CAT, w, "qlora")
    assert full.training_method == "full"
    assert lora.training_method == "lora"
    assert (lora.tokens_per_s_per_gpu or 0) == pytest.approx(
        (full.tokens_per_s_per_gpu or 0) * 1.5, rel=0.1
    )
    assert (lora.hours or 0) < (full.hours or 0)
    assert "LoRA" in lora.method
    assert qlora.feasible


def test_a_short_job_reads_in_hours_and_minutes() -> None:
    """No 0.01-day steps: a 1B-token job on 64 H100 takes about half an hour."""
    w = resolve_workload(
        CAT,
        DesignRequest(model="llama-3.1-8b", gpu="h100", gpus=64, training_tokens_t=0.001,
                      workload="training"),
    )  # fmt: skip
    est, _ = estimate_training(CAT, w)
    assert est.hours is not None
    assert est.days is not None
    assert 0.1 < est.hours < 2
    assert est.hours == pytest.approx(est.days * 24, abs=0.01)
    assert duration(est.days).endswith("min")
    assert duration(0.5) == "12 h 00 min"
    assert duration(3) == "3.0 days"


def test_deepseek_v3_trains_at_its_published_sequence() -> None:
    """DeepSeek-V3 technical report section 4.2: 4K sequences during pre-training."""
    w = resolve_workload(
        CAT, DesignRequest(model="deepseek-v3", gpu="h100", gpus=2048, training_tokens_t=14.8)
    )
    assert w.sequence == 4096
    assert any(a.field == "sequence-tokens" and "pre-trained" in a.reason for a in w.assumed)


def test_a_small_model_estimate_warns_with_the_range_real_runs_took() -> None:
    w = resolve_workload(
        CAT,
        DesignRequest(model="llama-3.1-8b", gpu="h100", gpus=4096, training_tokens_t=15),
    )
    est, _ = estimate_training(CAT, w)
    assert est.gpu_hours
    assert any("1.5-3.2x" in text for text in est.warnings)
    big = resolve_workload(
        CAT, DesignRequest(model="llama-3.1-70b", gpu="h100", gpus=4096, training_tokens_t=15)
    )
    assert estimate_training(CAT, big)[0].warnings == []


def test_gpus_and_days_without_tokens_say_the_tokens_they_train() -> None:
    w = resolve_workload(
        CAT,
        DesignRequest(model="llama-3.1-405b", gpu="b200", gpus=512, training_days=30,
                      workload="training"),
    )  # fmt: skip
    est, _ = estimate_training(CAT, w)
    tps, good = est.tokens_per_s_per_gpu or 0, est.goodput or 0
    expected = 512 * 30 * 86400 * tps * good
    assert tps > 0
    assert f"train about {expected / 1e9:.3g}B tokens" in est.method
