"""A workload's cost at a GPU-hour price: GPU-hours x price for a run; for serving, dollars per
million output tokens at the sized load, with the basis in words."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.request import merge_request
from clustergen.engine.sizing.workload import estimate_request
from clustergen.engine.sizing.workload.token_cost import run_cost, serving_cost


def test_input_and_output_prices_split_the_bill_by_the_prompts_gpu_time() -> None:
    # $8 an hour, 5,000 output and 10,000 input tokens/s, prompts 25 % of the GPU time
    c = serving_cost(
        4,
        2.0,
        full_load_tokens_per_s=5000.0,
        target_tokens_per_s=None,
        input_per_output=2.0,
        prompt_share=0.25,
    )
    assert c is not None
    assert c.usd_per_million_input_tokens == pytest.approx(2 / 36, abs=1e-4)
    assert c.usd_per_million_output_tokens == pytest.approx(6 / 18, abs=1e-4)
    assert c.usd_per_million_total_tokens == pytest.approx(8 / 54, abs=1e-4)
    assert "prompts take 25% of the GPU time" in c.basis


def test_serving_cost_is_the_hourly_price_over_the_tokens_delivered_at_the_target() -> None:
    # 4 GPUs at $2 an hour = $8 an hour; 5,000 tokens/s = 18M tokens an hour
    c = serving_cost(4, 2.0, full_load_tokens_per_s=8000.0, target_tokens_per_s=5000.0)
    assert c is not None
    assert c.usd_per_million_output_tokens == pytest.approx(8 / 18, abs=1e-4)
    assert "the target load" in c.basis
    assert "$0.278 per million output tokens at the replicas' full 8,000 tokens/s" in c.basis


def test_serving_cost_without_a_target_is_at_full_load_and_never_below_it() -> None:
    full = serving_cost(8, 3.0, full_load_tokens_per_s=10000.0, target_tokens_per_s=None)
    over = serving_cost(8, 3.0, full_load_tokens_per_s=10000.0, target_tokens_per_s=20000.0)
    assert full is not None
    assert over is not None
    assert full.usd_per_million_output_tokens == over.usd_per_million_output_tokens
    assert "full load" in full.basis
    assert serving_cost(0, 3.0, full_load_tokens_per_s=1.0, target_tokens_per_s=None) is None


def test_run_cost_states_its_product() -> None:
    assert run_cost(None, 2.0) is None
    assert run_cost(1000.0, 2.5) == "1,000 GPU-hours x $2.50 per GPU-hour = $2,500"


def test_an_estimate_with_a_price_carries_its_cost_and_basis() -> None:
    cat = load_catalog()
    ask = "serve llama 3.1 70b at 5000 tokens per second at $2 per GPU-hour"
    est, _ = estimate_request(cat, merge_request(cat, ask, {}))
    assert est.gpus_required
    assert est.usd_per_million_output_tokens is not None
    assert est.usd_per_million_input_tokens is not None
    assert est.usd_per_million_total_tokens is not None
    assert est.prompt_gpu_share is not None
    assert 0 < est.prompt_gpu_share < 1
    hourly = est.gpus_required * 2.0
    # 5,000 output tokens/s = 18M an hour, and ISL / OSL input tokens for each: the input and
    # output prices together are the whole bill, the total price its average over both
    million_out = 18.0
    ratio = hourly / (est.usd_per_million_total_tokens * million_out) - 1
    assert ratio > 0
    billed = (
        est.usd_per_million_input_tokens * million_out * ratio
        + est.usd_per_million_output_tokens * million_out
    )
    assert billed == pytest.approx(hourly, rel=2e-3)
    assert est.output_tokens_per_s_per_mw
    assert est.output_tokens_per_s_per_mw_at_load
    assert est.cost_basis is not None
    assert "price per GPU-hour given in the request" in est.cost_basis


def test_an_estimate_without_a_price_has_no_cost() -> None:
    cat = load_catalog()
    est, _ = estimate_request(cat, merge_request(cat, "serve llama 3.1 70b at 5000 tokens/s", {}))
    assert est.usd_per_million_output_tokens is None
    assert est.cost_basis is None
