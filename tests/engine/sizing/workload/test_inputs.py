"""A workload request's silences resolved once: here, the number format it is trained in."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.sizing.workload.inputs import resolve_workload, unmodelled_warnings
from clustergen.errors import RequestError

CAT = load_catalog()


def _training(model: str, gpu: str, **extra: object) -> DesignRequest:
    return DesignRequest(model=model, gpu=gpu, training_tokens_t=1, gpus=1024, **extra)


def test_a_model_trained_in_fp8_is_estimated_in_fp8_with_its_source() -> None:
    w = resolve_workload(CAT, _training("deepseek-v3", "h100-sxm"))
    assert w.precision == "fp8"
    note = next(a for a in w.assumed if a.field == "precision")
    assert "pre-trained in FP8" in note.reason
    assert "2412.19437" in (note.source or "")


def test_the_request_s_precision_outranks_the_model_s() -> None:
    w = resolve_workload(CAT, _training("deepseek-v3", "h100-sxm", precision="bf16"))
    assert w.precision == "bf16"


def test_a_gpu_without_the_model_s_format_falls_back_to_the_default() -> None:
    w = resolve_workload(CAT, _training("deepseek-v3", "a100-80gb"))  # A100: no FP8
    assert w.precision == "bf16"


def test_a_model_with_no_published_format_takes_the_planning_default() -> None:
    w = resolve_workload(CAT, _training("qwen3-32b", "h100-sxm"))
    assert w.precision == CAT.assumption("training-precision").value == "fp8"  # Hopper: FP8
    assert resolve_workload(CAT, _training("qwen3-32b", "a100-80gb")).precision == "bf16"


def test_fine_tuning_and_serving_keep_their_own_defaults() -> None:
    tune = DesignRequest(model="deepseek-v3", gpu="h100-sxm", workload="fine-tuning", gpus=64)
    assert resolve_workload(CAT, tune).precision == "bf16"


def test_the_reading_fields_reach_the_estimator_inputs() -> None:
    w = resolve_workload(
        CAT,
        DesignRequest(
            model="llama-3.1-70b",
            output_tokens_per_s=1000,
            latency_percentile=99,
            interactive=True,
            training_method=None,
        ),
    )
    assert w.percentile == 0.99  # p99, as the estimator reads it (0-1)
    t = resolve_workload(CAT, _training("llama-3.1-8b", "h100-sxm", training_method="lora"))
    assert t.method == "lora"


def test_a_bare_moe_size_is_estimated_on_its_active_parameters() -> None:
    w = resolve_workload(
        CAT, DesignRequest(model_params_b=671, active_params_b=37, training_tokens_t=1, gpus=64)
    )
    assert (w.arch.params, w.arch.active) == (671e9, 37e9)
    assert "37B active" in w.label


def test_an_active_size_the_named_model_lacks_is_refused() -> None:
    with pytest.raises(RequestError, match="has 37B active"):
        resolve_workload(CAT, _training("deepseek-v3", "h100-sxm", active_params_b=70))


def test_what_does_not_apply_to_the_workload_is_a_warning() -> None:
    # methods and percentiles are modelled by the estimator: no warning
    lora = DesignRequest(model="llama-3.1-8b", training_tokens_t=1, training_method="lora")
    assert unmodelled_warnings(lora, "fine-tuning") == []
    serve = DesignRequest(
        model="llama-3.1-70b",
        output_tokens_per_s=1000,
        latency_percentile=99,
        sequence_tokens=4096,
        training_method="lora",
    )
    said = " ".join(unmodelled_warnings(serve, "inference"))
    assert "p99" not in said
    assert "training figure" in said
    assert "does not apply to serving" in said
    assert unmodelled_warnings(DesignRequest(model="llama-3.1-8b"), "training") == []


# serving regimes (issue 36)
def _serving(**extra: object) -> DesignRequest:
    return DesignRequest(model="llama-3.1-405b", gpu="h100-sxm", isl_tokens=1000, **extra)


def test_offline_serving_has_no_per_user_rate() -> None:
    w = resolve_workload(CAT, _serving(interactive=False))
    assert w.tpot_s is None
    assert not w.tpot_assumed
    assert not any(a.field == "tpot_ms" for a in w.assumed)


def test_an_open_ended_request_takes_the_default_rate_as_an_assumption() -> None:
    w = resolve_workload(CAT, _serving())
    assert w.tpot_assumed
    assert w.tpot_s == pytest.approx(float(CAT.assumption("tpot-ms").value) / 1e3)
    assert any(a.field == "tpot_ms" for a in w.assumed)


def test_a_looser_stated_limit_replaces_the_default() -> None:
    w = resolve_workload(CAT, _serving(tpot_ms=200))
    assert (w.tpot_s, w.tpot_assumed) == (pytest.approx(0.2), False)
    w = resolve_workload(CAT, _serving(tpot_ms=200, interactive=False))
    assert w.tpot_s == pytest.approx(0.2)  # a stated limit holds even offline


def test_a_deadline_keeps_the_default_reserve_and_says_so() -> None:
    from clustergen.catalog import load_catalog as _load
    from clustergen.engine.model.request import DesignRequest
    from clustergen.engine.sizing.workload.inputs import schedule_reserve

    cat = _load()
    req = DesignRequest(model="llama-3.1-70b", training_tokens_t=15, training_days=200)
    days, note = schedule_reserve(cat, req)
    share = float(cat.assumption("schedule-reserve").value)
    assert days == pytest.approx(200 * share)
    assert note is not None
    assert "default reserve" in note.reason
    named = req.model_copy(update={"schedule_reserve_days": 14.0})
    assert schedule_reserve(cat, named)[0] == 14.0
    assert schedule_reserve(cat, req.model_copy(update={"training_tokens_t": None}))[0] == 0.0
