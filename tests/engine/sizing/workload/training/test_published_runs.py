"""The training estimate against published pre-training runs (published_runs.yaml): GPU-hours for
the run's tokens, each held to the band the estimate states, and the regimes' bands to the error
measured on them."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import yaml

from clustergen.catalog import load_catalog
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.sizing.workload import estimate_request
from clustergen.engine.sizing.workload.training.estimate import (
    BAND_DENSE_PCT,
    BAND_MOE_PCT,
    SMALL_MODEL_PARAMS,
)
from clustergen.evals.calibration import FigureError, run_errors, training_errors

CAT = load_catalog()
RUNS = yaml.safe_load((Path(__file__).parent / "published_runs.yaml").read_text())
ERRORS = run_errors(CAT, RUNS)


def _large(r: FigureError) -> bool:
    return r.active_params_b * 1e9 >= SMALL_MODEL_PARAMS


def _rms(errors: list[float]) -> float:
    return math.sqrt(sum(e * e for e in errors) / len(errors))


def test_every_run_has_a_source_and_a_figure() -> None:
    assert len(RUNS) >= 15
    for r in RUNS:
        assert r["source"], r["id"]
        assert r["gpu_hours"] > 0, r["id"]
        assert r["tokens_t"] > 0, r["id"]


def test_each_regime_holds_most_of_its_cases_within_the_band_it_states() -> None:
    """Dense models of 15B or more and MoE models: the published runs together with the
    Megatron-Bridge rows of the regime, at least 85 % within the regime's band."""
    rows = training_errors(CAT)
    dense = [r.error for r in [*ERRORS, *rows] if _large(r) and not r.moe]
    moe = [r.error for r in [*ERRORS, *rows] if r.moe and _large(r)]
    for errors, band in ((dense, BAND_DENSE_PCT), (moe, BAND_MOE_PCT)):
        assert sum(abs(e) * 100 <= band for e in errors) / len(errors) >= 0.85, errors


def test_each_regime_band_covers_its_measured_rms() -> None:
    dense = [r.error for r in ERRORS if _large(r) and not r.moe]
    moe = [r.error for r in ERRORS if r.moe]
    assert _rms(dense) <= BAND_DENSE_PCT / 100
    assert _rms(moe) <= BAND_MOE_PCT / 100


@pytest.mark.parametrize("run", ["llama-4-maverick-h100", "llama-4-scout-h100"])
def test_moe_pretraining_by_name_is_near_its_model_card(run: str) -> None:
    """Issue 36: Llama 4 by name came out 2x over its model card's GPU-hours (sized in BF16 at a
    flat MoE factor); FP8 (how it trained) and the expert-size curve bring it within 25 %."""
    error = next(r for r in ERRORS if r.label == run).error
    assert abs(error) <= 0.25


def test_mixture_of_experts_with_small_experts_trains_less_efficiently() -> None:
    """The MoE term follows expert size: Qwen3 30B-A3B's small experts keep less of the dense
    MFU than Llama 4 Maverick's large ones, on the same GPU and precision."""

    def mfu(model: str) -> float:
        request = DesignRequest(
            model=model, gpu="h100-sxm", gpus=256, precision="fp8", training_tokens_t=1,
            workload="training",
        )  # fmt: skip
        return estimate_request(CAT, request)[0].mfu or 0.0

    assert mfu("qwen3-30b-a3b") < 0.6 * mfu("llama-4-maverick")


def _request(gpu: str, precision: str | None = None) -> DesignRequest:
    return DesignRequest(
        model_params_b=70, gpu=gpu, precision=precision, training_tokens_t=15, training_days=60,
        workload="training",
    )  # fmt: skip


def test_a_precision_not_stated_is_fp8_on_hopper_and_both_figures_are_shown() -> None:
    estimate, _ = estimate_request(CAT, _request("h100-sxm"))
    assert estimate.precision == "fp8"
    figures = {f.precision: f for f in estimate.by_precision}
    assert set(figures) == {"bf16", "fp8"}
    assert figures["fp8"].assumed
    assert not figures["bf16"].assumed
    assert figures["fp8"].gpus == estimate.gpus_required
    # BF16 runs at half the tensor-core rate: more GPUs for the same days
    assert figures["bf16"].gpus is not None
    assert figures["bf16"].gpus > estimate.gpus_required
    assert "at BF16" in estimate.method
    assert "at FP8 (assumed)" in estimate.method


def test_a_gpu_without_fp8_trains_in_bf16_with_one_figure() -> None:
    estimate, _ = estimate_request(CAT, _request("a100-80gb"))
    assert estimate.precision == "bf16"
    assert estimate.by_precision == []


def test_a_stated_precision_shows_only_its_own_figures() -> None:
    estimate, _ = estimate_request(CAT, _request("h100-sxm", "bf16"))
    assert estimate.precision == "bf16"
    assert estimate.by_precision == []


def test_a_named_model_takes_the_precision_its_authors_trained_in() -> None:
    request = DesignRequest(
        model="llama-3.1-405b", gpu="h100-sxm", gpus=16384, training_tokens_t=15.6,
        workload="training",
    )  # fmt: skip
    estimate, _ = estimate_request(CAT, request)
    assert estimate.precision == "bf16"
    assert [f.precision for f in estimate.by_precision] == ["bf16", "fp8"]


HELD_OUT = yaml.safe_load((Path(__file__).parent / "held_out_runs.yaml").read_text())


def test_the_trend_carries_to_large_dense_steps_it_was_not_fitted_to() -> None:
    """held_out_runs.yaml (in no fit): the measured steps of dense runs of 15B or more (an MFU or
    a throughput the authors measured: Llama 3 405B at 8k and 16k GPUs and 131k tokens,
    Nemotron-4 340B and 15B, OPT-175B, Megatron-LM's 1T, MT-NLG 530B, MPT 30B and 70B on H100),
    at least 85 % within the dense band, each sourced. Whole runs (GPUs x days, or GPU-hours a
    model card states) are reported beside them in the README's regime table, not held to the
    band: the H100 ones of 70B and under took 1.3-2.6x the estimate, Llama 3.2's pruned and
    distilled 1B and 3B aside (scripts/workload_calibration.py)."""
    assert all(r["source"] for r in HELD_OUT)
    stepped = [r for r in HELD_OUT if r.get("step_time_only")]
    errors = [r.error for r in run_errors(CAT, stepped) if _large(r) and not r.moe]
    assert len(errors) >= 10
    assert sum(abs(e) * 100 <= BAND_DENSE_PCT for e in errors) / len(errors) >= 0.85, errors


def test_the_step_time_carries_to_h100_benchmarks_of_small_models() -> None:
    """LLM Foundry's measured H100 throughput of MPT 1B-70B (held out): the step-time model
    alone within 10 % on each; what small-model whole runs add is not in the step."""
    bench = [r for r in HELD_OUT if r["id"].endswith("-h100-bench")]
    errors = [r.error for r in run_errors(CAT, bench)]
    assert len(errors) == 6
    assert all(abs(e) <= 0.10 for e in errors), errors
