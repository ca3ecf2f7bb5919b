"""A workload request's silences resolved once: here, the number format it is trained in."""

from __future__ import annotations

from clustergen.catalog import load_catalog
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.sizing.workload.inputs import resolve_workload

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
    w = resolve_workload(CAT, _training("llama-3.1-70b", "h100-sxm"))
    assert w.precision == CAT.assumption("training-precision").value


def test_fine_tuning_and_serving_keep_their_own_defaults() -> None:
    tune = DesignRequest(model="deepseek-v3", gpu="h100-sxm", workload="fine-tuning", gpus=64)
    assert resolve_workload(CAT, tune).precision == "bf16"
