"""Training time, GPUs and GPU-hours: the published row, the prior, scale-out, goodput, solving."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.sizing.workload.inputs import resolve_workload
from clustergen.engine.sizing.workload.training.estimate import (
    BAND_SMALL_PCT,
    days_for,
    estimate_training,
    goodput,
    gpus_for,
    training_rate,
)

CAT = load_catalog()


def _w(**fields: object):  # type: ignore[no-untyped-def]
    return resolve_workload(CAT, DesignRequest.model_validate(fields))


def test_llama_65b_on_2048_a100_takes_about_21_days() -> None:
    """LLaMA (arXiv 2302.13971) section 2.4: 380 tokens/s/GPU on 2,048 A100 80GB, 1.4T tokens
    in about 21 days. The prior (no A100 row) must land within its stated band."""
    est, _ = estimate_training(
        CAT, _w(model_params_b=65, training_tokens_t=1.4, gpus=2048, gpu="A100")
    )
    assert est.model == "llama-65b"
    assert est.days is not None
    assert abs(est.days / 21 - 1) <= est.band_pct / 100


def test_a_published_row_is_used_for_its_network_gpu_and_precision() -> None:
    """Llama 3.3 70B is Llama 3 70B's network: the newest H100 FP8 row (26.02) sets its MFU."""
    w = _w(model="llama-3.3-70b", gpu="h100", precision="fp8", training_tokens_t=1, gpus=64)
    rate = training_rate(CAT, w)
    assert rate.ref_gpus == 64
    assert "26.02" in rate.basis
    est, _ = estimate_training(CAT, w)
    assert est.tokens_per_s_per_gpu == pytest.approx(1621, rel=0.01)


def test_goodput_is_llama3s_at_16k_gpus_and_near_one_for_small_jobs() -> None:
    """L3P section 3.3.4: more than 90 % effective training time on 16,384 GPUs."""
    assert goodput(CAT, 16384) == pytest.approx(0.90, abs=0.001)
    assert goodput(CAT, 64) > 0.999


def test_gpus_for_days_is_the_inverse_of_days_for_gpus() -> None:
    w = _w(model="llama-3.1-70b", training_tokens_t=15, training_days=60)
    rate = training_rate(CAT, w)
    gpus = gpus_for(CAT, w, rate, 15e12, 60, 8)
    assert gpus is not None
    assert gpus % 8 == 0
    assert days_for(CAT, w, rate, 15e12, gpus) <= 60 < days_for(CAT, w, rate, 15e12, gpus - 8)


def test_an_impossible_duration_is_not_met() -> None:
    est, unmet = estimate_training(
        CAT, _w(model="llama-3.1-405b", training_tokens_t=15, training_days=0.01)
    )
    assert not est.feasible
    assert unmet


def test_a_model_too_big_for_the_gpus_is_not_met() -> None:
    est, unmet = estimate_training(CAT, _w(model="llama-3.1-405b", training_tokens_t=1, gpus=8))
    assert not est.feasible
    assert "does not fit" in unmet[0]


def test_small_models_carry_the_caveat() -> None:
    est, _ = estimate_training(CAT, _w(model="llama-3.1-8b", training_tokens_t=15, gpus=1024))
    assert est.band_pct == BAND_SMALL_PCT
    assert "small model" in est.method


def test_a_budget_buys_gpu_hours_at_its_price() -> None:
    est, _ = estimate_training(
        CAT,
        _w(model_params_b=8, workload="fine-tuning", budget_usd=2e6, price_per_gpu_hour=2.5),
    )
    assert est.kind == "fine-tuning"
    assert est.price_per_gpu_hour == 2.5
    assert est.gpu_hours is not None
    assert est.gpu_hours <= 800_000
    assert est.gpu_hours > 800_000 * 0.999
    assert est.cost_usd is not None
    assert est.cost_usd <= 2e6
    assert "assumed duration (days) 30" in est.method


def test_over_budget_is_not_met() -> None:
    est, unmet = estimate_training(
        CAT,
        _w(
            model="llama-3.1-405b",
            training_tokens_t=15,
            gpus=16384,
            budget_usd=1e6,
            price_per_gpu_hour=2,
        ),
    )
    assert not est.feasible
    assert "budget" in unmet[0]


def test_a_long_deadline_still_gets_the_gpus_that_hold_the_model() -> None:
    """A year for 100B tokens of an 8B model would need one GPU by time alone, but full training
    state (weights, gradients, Adam moments) does not fit one 80 GB GPU: the plan takes the
    fewest GPUs that hold it, and meets the deadline sooner."""
    est, unmet = estimate_training(
        CAT,
        _w(model="llama-3.1-8b", training_tokens_t=0.1, training_days=400, gpu="h100-sxm"),
    )
    assert unmet == []
    assert est.feasible
    assert est.gpus_required is not None
    assert 1 < est.gpus_required <= 8
    assert est.days is not None
    assert est.days < 400


def test_a_precision_not_given_shows_both_bf16_and_fp8() -> None:
    """Issue 36: a precision not stated is an assumption, and the run at the other of BF16 and
    FP8 is shown beside it."""
    w = resolve_workload(
        CAT,
        DesignRequest(model="llama-3-70b", gpu="h100-sxm", training_tokens_t=15, training_days=60),
    )
    est, _ = estimate_training(CAT, w)
    assert est.precision == "bf16"  # Llama 3 pre-trained in BF16 (its catalog entry)
    assert "precision not given: at BF16 (assumed)" in est.method
    assert "; at FP8 " in est.method
    assert [f.precision for f in est.by_precision] == ["bf16", "fp8"]
    stated = resolve_workload(
        CAT,
        DesignRequest(
            model="llama-3-70b",
            gpu="h100-sxm",
            training_tokens_t=15,
            training_days=60,
            precision="fp8",
        ),
    )
    assert "precision not given" not in estimate_training(CAT, stated)[0].method
