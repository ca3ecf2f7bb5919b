"""The first lines answer the question a request asks of a design: what running it costs when
its energy is priced (the figures from the design's own cost section)."""

from clustergen.catalog import load_catalog
from clustergen.engine.request import parse_request
from clustergen.engine.search.planner import plan_design
from clustergen.units import dollars

CAT = load_catalog()


def test_a_priced_energy_question_is_answered_first_with_the_terms_still_unknown() -> None:
    d = plan_design(
        CAT, parse_request(CAT, "What would 128 GB300s cost to run for a year at $0.08/kWh?")
    )
    c = d.cost
    assert c is not None
    assert c.energy_usd is not None
    assert d.notice is not None
    assert f"running it for 1 year costs {dollars(c.energy_usd)} in energy" in d.notice
    assert "an upper bound" in d.notice  # every part at its rated maximum
    assert c.total_usd is None
    assert "capital and support unknown" in d.notice


def test_no_energy_price_no_running_cost_line() -> None:
    d = plan_design(CAT, parse_request(CAT, "128 GB300 for training"))
    assert "in energy" not in (d.notice or "")
