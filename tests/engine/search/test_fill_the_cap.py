"""'The most we can serve within 2 MW': a serving workload asked to fill its cap is sized by
the cap (the workload a floor), and the first lines say so rather than call it an overshoot."""

from __future__ import annotations

from clustergen.catalog import load_catalog
from clustergen.engine.request import parse_request
from clustergen.engine.search.planner import plan_design

CAT = load_catalog()


def test_a_serving_workload_asked_to_fill_its_cap_is_sized_by_the_cap() -> None:
    request = parse_request(
        CAT, "serve Llama 3.1 70B to 200 users within 2 MW, as many GPUs as will fit"
    )
    d = plan_design(CAT, request)
    chosen = d.alternatives.rows[0] if d.alternatives else None
    assert chosen is not None
    assert chosen.needed_gpus is not None
    assert d.compute.gpus > chosen.needed_gpus * 10
    assert d.power.it_total_w <= 2e6
    assert "the cap sizes it, as asked" in (d.notice or "")
    assert "delivers" not in (d.notice or "")


def test_without_the_ask_the_workload_sizes_it() -> None:
    d = plan_design(CAT, parse_request(CAT, "serve Llama 3.1 70B to 200 users within 2 MW"))
    assert d.compute.gpus <= 64


def test_the_systems_left_weighed_are_of_the_cooling_asked_for() -> None:
    text = "train a 70B model on 15T tokens within 90 days, nothing older than Blackwell, no liquid cooling"
    d = plan_design(CAT, parse_request(CAT, text))
    assert "only " in d.platform.reason
    assert "gb200-nvl72" not in d.platform.reason
