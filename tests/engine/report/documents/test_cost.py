"""The design's cost in words: the executive summary's line, the memo's cost section and the
agent's summary say each term, and "at least" where a term is unknown."""

from __future__ import annotations

from pathlib import Path

from clustergen.catalog import load_catalog
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.report.documents.cost import cost_line
from clustergen.engine.report.documents.memo import render_memo
from clustergen.engine.report.documents.summary import summarize
from clustergen.engine.search.planner import plan_design

PRICED = load_catalog(Path(__file__).parents[4] / "examples" / "prices" / "hardware")
REQUEST = DesignRequest(
    gpus=64,
    platform="dgx-h100",
    workload="training",
    usd_per_kwh=0.08,
    tco_years=3.0,
    capital_budget_usd=5e6,
)


def test_the_memo_states_the_cost_in_its_summary_and_its_own_section() -> None:
    d = plan_design(PRICED, REQUEST)
    memo = render_memo(d)
    summary = memo.split("## 1.")[0]
    assert "**Cost:** capital at least $1.6M" in summary
    assert "3-year cost of ownership at least" in summary
    assert "### Cost of ownership over 3 years" in memo
    section = memo.split("### Cost of ownership")[1].split("## 5.")[0]
    assert "at $0.08/kWh" in section
    assert "not known to be within the $5.0M capital budget" in section
    assert "examples/prices/hardware" in section  # how to price what is missing


def test_the_agent_summary_carries_the_cost() -> None:
    d = plan_design(PRICED, REQUEST)
    s = summarize(d)
    assert d.cost is not None
    assert s.cost == cost_line(d.cost)
    assert s.capital_usd == d.cost.capital_priced_usd
    assert not s.capital_complete
    assert s.tco_usd is None  # unpriced lines: no total, never a total with zeros


def test_an_unpriced_design_has_an_unknown_total_in_words() -> None:
    """No term known: the total is 'unknown', not 'at least $0'; an assumed default is named
    in words ('cost-of-ownership term (years)'), never as the field 'tco years'."""
    d = plan_design(load_catalog(), DesignRequest(gpus=64, platform="dgx-h100"))
    section = render_memo(d).split("### Cost of ownership")[1].split("## 5.")[0]
    assert "| **total** | **unknown** |" in section
    assert "at least $0" not in section
    assert "tco" not in section.lower()
