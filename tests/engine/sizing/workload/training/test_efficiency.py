"""The data-parallel term of the training efficiency: each GPU's share of the critical batch
against the time its gradient sync takes."""

from __future__ import annotations

from typing import Any

from clustergen.catalog import load_catalog
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.sizing.workload.inputs import WorkloadInputs, resolve_workload
from clustergen.engine.sizing.workload.training.efficiency import (
    critical_batch_tokens,
    data_parallel_factor,
    fabric_gbps_per_gpu,
)
from clustergen.engine.sizing.workload.training.estimate import data_parallel, training_rate
from clustergen.engine.sizing.workload.training.method import training_flops_per_token

CAT = load_catalog()


def _inputs(**fields: Any) -> WorkloadInputs:
    request = DesignRequest(gpu="h100-sxm", precision="bf16", workload="training", **fields)
    return resolve_workload(CAT, request)


def test_the_critical_batch_follows_deepseek_llm_s_law() -> None:
    """arXiv 2401.02954: their 7B on 2T tokens (C = 6 x 7e9 x 2e12) trained at 9.4M tokens."""
    batch = critical_batch_tokens(6 * 7e9 * 2e12)
    assert 8.5e6 < batch < 10e6


def test_the_fabric_rate_per_gpu_is_the_systems_compute_ports_over_its_gpus() -> None:
    assert fabric_gbps_per_gpu(CAT, _inputs(model="Llama 3.1 8B")) == 400


def test_exposure_falls_as_tokens_per_gpu_grow() -> None:
    """A small model at a short sequence on thousands of GPUs syncs longer than it computes;
    on fewer GPUs each computes more of the batch and the sync hides."""
    w = _inputs(model="Llama 3.1 8B", training_tokens_t=0.05, sequence_tokens=2048)
    flops = training_flops_per_token(w.arch, w.sequence)
    rate = 0.4 * 989e12
    factors = [data_parallel_factor(CAT, w, gpus, 1, flops, rate) for gpus in (64, 512, 8192)]
    kept = [f.factor if f else 1.0 for f in factors]
    assert kept[0] >= kept[1] >= kept[2]
    assert kept[2] < 0.9
    per_gpu = [f.tokens_per_gpu for f in factors if f]
    assert per_gpu == sorted(per_gpu, reverse=True)


def test_a_large_model_split_over_many_gpus_is_unchanged() -> None:
    """Llama 3.1 405B on 16,384 H100: each GPU holds a sliver of the model, its sync hides."""
    w = _inputs(model="Llama 3.1 405B", training_tokens_t=15, gpus=16384)
    dp = data_parallel(CAT, w, training_rate(CAT, w), 16384)
    assert dp is not None
    assert dp.factor == 1.0
    assert dp.sync_s < dp.compute_s


def test_adapters_sync_no_full_gradient() -> None:
    w = _inputs(model="Llama 3.1 8B", training_tokens_t=0.05, sequence_tokens=2048)
    flops = training_flops_per_token(w.arch, w.sequence)
    lora = w._replace(method="lora")
    assert data_parallel_factor(CAT, lora, 8192, 1, flops, 0.4 * 989e12) is None
