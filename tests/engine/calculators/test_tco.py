"""Total cost of ownership of a designed cluster: each term from the user's prices, nothing
unknown counted as zero."""

from __future__ import annotations

from pathlib import Path

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.calculators.tco import HOURS_PER_YEAR, cost_of_ownership
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.search.planner import plan_design
from clustergen.errors import RequestError

PRICED = load_catalog(Path(__file__).parents[3] / "examples" / "prices" / "hardware")
REQUEST = DesignRequest(gpus=64, platform="dgx-h100", workload="training")


def test_energy_is_facility_power_times_load_hours_and_price() -> None:
    design = plan_design(PRICED, REQUEST)
    cost = cost_of_ownership(
        design, 5, usd_per_kwh=0.1, support_share_per_year=0.08, load_share=0.8
    )
    kw = design.power.facility_total_w / 1e3
    assert cost.energy_usd == pytest.approx(kw * 0.8 * HOURS_PER_YEAR * 5 * 0.1, rel=1e-6)
    assert cost.known_usd >= (cost.energy_usd or 0)


def test_unpriced_lines_leave_the_total_unknown_and_say_what_is_missing() -> None:
    """The example layer prices the DGX only: capital is a lower bound, never a total."""
    design = plan_design(PRICED, REQUEST)
    cost = cost_of_ownership(design, 5, usd_per_kwh=0.1, support_share_per_year=0.08)
    assert design.bom_totals.priced_lines < design.bom_totals.lines
    assert cost.capital_usd is None
    assert cost.total_usd is None
    assert cost.support_usd is None
    assert any("BOM lines" in m for m in cost.missing)
    assert cost.capital_priced_usd
    assert cost.known_usd == pytest.approx((cost.capital_priced_usd or 0) + (cost.energy_usd or 0))


def test_no_prices_given_means_nothing_is_priced_by_default() -> None:
    cost = cost_of_ownership(plan_design(load_catalog(), REQUEST), 3)
    assert cost.energy_usd is None
    assert cost.known_usd == 0
    assert len(cost.missing) >= 3


def test_a_fully_priced_bom_gives_a_total_with_support() -> None:
    design = plan_design(PRICED, REQUEST)
    lines = [ln.model_copy(update={"total_price_usd": 1000.0}) for ln in design.bom]
    totals = design.bom_totals.model_copy(
        update={"priced_lines": len(lines), "total_price_usd": 1000.0 * len(lines)}
    )
    priced = design.model_copy(update={"bom": lines, "bom_totals": totals})
    cost = cost_of_ownership(priced, 4, usd_per_kwh=0.1, support_share_per_year=0.1)
    if priced.power.complete:
        assert cost.total_usd == pytest.approx(
            1000.0 * len(lines) * (1 + 0.1 * 4) + (cost.energy_usd or 0), rel=1e-6
        )
    assert cost.support_usd == pytest.approx(1000.0 * len(lines) * 0.4)


def test_a_bad_term_is_refused() -> None:
    with pytest.raises(RequestError, match="term"):
        cost_of_ownership(plan_design(PRICED, REQUEST), 0)
