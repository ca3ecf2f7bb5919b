"""The dispatcher: which requests get an estimate, which are refused before any design."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.catalog.models import System
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.request.resolve import resolve_fields
from clustergen.engine.sizing.workload.estimate import (
    check_workload,
    estimate_request,
    estimate_workload,
    workload_gpus,
)
from clustergen.errors import NotFoundError, RequestError

CAT = load_catalog()


def test_no_model_means_no_estimate() -> None:
    assert estimate_workload(CAT, DesignRequest(gpus=512)) is None
    with pytest.raises(RequestError, match="nothing to estimate"):
        estimate_request(CAT, DesignRequest(gpus=512))


def test_a_latency_no_gpu_can_meet_is_refused_with_the_fastest_figure() -> None:
    req = DesignRequest(model="llama-3.1-405b", ttft_ms=1, isl_tokens=20000, osl_tokens=2000)
    with pytest.raises(RequestError, match="below what any GPU"):
        check_workload(CAT, req)


def test_a_limit_some_gpu_meets_is_not_refused() -> None:
    check_workload(CAT, DesignRequest(model="llama-3.1-405b", ttft_ms=2000, isl_tokens=20000))


def test_each_platform_needs_its_own_gpu_count() -> None:
    req = DesignRequest(model="llama-3.1-70b", training_tokens_t=15, training_days=60)
    h100, _ = workload_gpus(CAT, req, CAT.system("dgx-h100"))
    b200, _ = workload_gpus(CAT, req, CAT.system("dgx-b200"))
    assert h100
    assert b200
    assert b200 < h100 / 2


def test_a_gpu_count_in_the_request_sizes_the_design_not_the_workload() -> None:
    req = DesignRequest(gpus=2048, gpu="a100-80gb", model_params_b=65, training_tokens_t=1.4)
    gpus, why = workload_gpus(CAT, req, CAT.system("dgx-a100"))
    assert (gpus, why) == (None, None)


def test_an_unknown_model_names_the_closest() -> None:
    with pytest.raises(NotFoundError) as err:
        resolve_fields(CAT, {"model": "llama 9 900b", "training_tokens_t": 1})
    assert err.value.matches


def test_every_gpu_platform_can_be_estimated_for() -> None:
    req = DesignRequest(model="llama-3.1-8b", output_tokens_per_s=1000)
    for system in CAT.all("systems", System):
        if system.gpus_per_node and system.gpu:
            gpu = CAT.gpu(system.gpu)
            if gpu.fp8_dense_tflops or gpu.bf16_dense_tflops:
                found = estimate_workload(CAT, req, system)
                assert found is not None
                assert found[0].gpu == gpu.id
