"""Prices come from the request or a catalog layer, never from a silent default."""

from __future__ import annotations

from pathlib import Path

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.sizing.workload.budget import cost_usd, hours_bought, price_for
from clustergen.engine.sizing.workload.estimate import check_workload, estimate_workload
from clustergen.errors import RequestError

EXAMPLES = Path(__file__).resolve().parents[4] / "examples" / "prices"


def test_the_built_in_catalog_has_no_price() -> None:
    cat = load_catalog()
    assert price_for(cat, DesignRequest(), cat.gpu("h100"), None) is None


def test_a_request_price_wins_and_a_node_price_divides_by_its_gpus() -> None:
    cat = load_catalog()
    h100, node = cat.gpu("h100"), cat.system("dgx-h100")
    p = price_for(cat, DesignRequest(price_per_gpu_hour=2.5), h100, node)
    assert p is not None
    assert p.usd_per_gpu_hour == 2.5
    p = price_for(cat, DesignRequest(price_per_node_hour=40), h100, node)
    assert p is not None
    assert p.usd_per_gpu_hour == 5.0


def test_the_example_layer_prices_by_system_then_gpu() -> None:
    """examples/prices: AWS capacity blocks, $39.33 per p5 node-hour, $4.92 per H100 GPU-hour."""
    cat = load_catalog(EXAMPLES)
    h100 = cat.gpu("h100")
    node = price_for(cat, DesignRequest(), h100, cat.system("hgx-h100"))
    gpu = price_for(cat, DesignRequest(), h100, cat.system("dgx-h100"))
    assert node is not None
    assert node.usd_per_gpu_hour == pytest.approx(39.33 / 8)
    assert gpu is not None
    assert gpu.usd_per_gpu_hour == 4.92
    assert "EXAMPLE" in gpu.source


def test_cost_and_hours() -> None:
    cat = load_catalog()
    p = price_for(cat, DesignRequest(price_per_gpu_hour=2.5), cat.gpu("h100"), None)
    assert p is not None
    assert hours_bought(2e6, p) == 800_000
    assert cost_usd(1000, p) == 2500
    assert cost_usd(None, p) is None


def test_a_budget_with_no_price_is_refused_in_one_line() -> None:
    cat = load_catalog()
    req = DesignRequest(model_params_b=8, budget_usd=2e6, workload="fine-tuning")
    with pytest.raises(RequestError, match="needs a price"):
        check_workload(cat, req)
    with pytest.raises(RequestError, match="needs a price"):
        estimate_workload(cat, req)
