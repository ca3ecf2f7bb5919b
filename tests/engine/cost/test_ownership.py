"""Total cost of ownership of a designed cluster: each term from the user's prices, nothing
unknown counted as zero; the term and load share defaults stated."""

from __future__ import annotations

from pathlib import Path

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.cost import HOURS_PER_YEAR, Terms, cost_of_ownership, terms_for
from clustergen.engine.model.design import Design
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.search.planner import plan_design
from clustergen.errors import RequestError

PRICED = load_catalog(Path(__file__).parents[3] / "examples" / "prices" / "hardware")
REQUEST = DesignRequest(gpus=64, platform="dgx-h100", workload="training")


def _cost(design: Design, years: float, **kw: float | None) -> object:
    terms = Terms(
        years=years,
        load_share=kw.get("load_share") or 1.0,
        usd_per_kwh=kw.get("usd_per_kwh"),
        support_share_per_year=kw.get("support"),
    )
    return cost_of_ownership(design.bom, design.power, terms)


def test_energy_is_facility_power_times_load_hours_and_price() -> None:
    design = plan_design(PRICED, REQUEST)
    cost = cost_of_ownership(design.bom, design.power, Terms(5, 0.8, 0.1, 0.08))
    kw = design.power.facility_total_w / 1e3
    assert cost.energy_usd == pytest.approx(kw * 0.8 * HOURS_PER_YEAR * 5 * 0.1, rel=1e-6)
    assert cost.known_usd >= (cost.energy_usd or 0)


def test_unpriced_lines_leave_the_total_unknown_and_say_what_is_missing() -> None:
    """The example layer prices the DGX only: capital is a lower bound, never a total."""
    design = plan_design(PRICED, REQUEST)
    cost = cost_of_ownership(design.bom, design.power, Terms(5, 1.0, 0.1, 0.08))
    assert design.bom_totals.priced_lines < design.bom_totals.lines
    assert cost.capital_usd is None
    assert cost.total_usd is None
    assert any("BOM lines" in m for m in cost.missing)
    assert "sn5610" in cost.unpriced or "qm9700" in cost.unpriced
    assert cost.how_to_price
    assert "examples/prices/hardware" in cost.how_to_price
    assert cost.capital_priced_usd == pytest.approx(64 / 8 * 199_000)
    # support on the priced lines is counted (a lower bound, as the total says)
    assert cost.support_usd == pytest.approx(cost.capital_priced_usd * 0.08 * 5)
    assert cost.known_usd == pytest.approx(
        cost.capital_priced_usd + (cost.energy_usd or 0) + cost.support_usd
    )


def test_no_prices_given_means_nothing_is_priced_by_default() -> None:
    design = plan_design(load_catalog(), REQUEST)
    cost = cost_of_ownership(design.bom, design.power, Terms(3, 1.0, None, None))
    assert cost.energy_usd is None
    assert cost.known_usd == 0
    assert len(cost.missing) >= 3


def test_a_fully_priced_bom_gives_a_total_with_support() -> None:
    design = plan_design(PRICED, REQUEST)
    lines = [ln.model_copy(update={"total_price_usd": 1000.0}) for ln in design.bom]
    ordered = sum(ln.status == "order" for ln in lines)
    cost = cost_of_ownership(lines, design.power, Terms(4, 1.0, 0.1, 0.1))
    assert cost.capital_usd == pytest.approx(1000.0 * ordered)
    assert cost.support_usd == pytest.approx(1000.0 * ordered * 0.4)
    if design.power.complete:
        assert cost.total_usd == pytest.approx(
            1000.0 * ordered * (1 + 0.1 * 4) + (cost.energy_usd or 0), rel=1e-6
        )


def test_a_bad_term_is_refused() -> None:
    design = plan_design(PRICED, REQUEST)
    with pytest.raises(RequestError, match="term"):
        cost_of_ownership(design.bom, design.power, Terms(0, 1.0, None, None))


def test_the_term_and_load_default_from_the_catalog_and_say_so() -> None:
    terms = terms_for(load_catalog(), REQUEST)
    assert terms.years == 5
    assert terms.load_share == 1.0
    assert {a.field for a in terms.assumed} == {"tco_years", "tco_load_share"}
    assert all(a.source for a in terms.assumed)
    given = terms_for(load_catalog(), REQUEST.model_copy(update={"tco_years": 3.0}))
    assert given.years == 3
    assert "tco_years" not in {a.field for a in given.assumed}


def test_every_design_carries_its_cost_with_the_request_energy_price() -> None:
    req = REQUEST.model_copy(update={"usd_per_kwh": 0.08, "tco_years": 3.0})
    design = plan_design(PRICED, req)
    assert design.cost is not None
    assert design.cost.term_years == 3
    kw = design.power.facility_total_w / 1e3
    assert design.cost.energy_usd == pytest.approx(kw * HOURS_PER_YEAR * 3 * 0.08, rel=1e-6)


def test_a_price_layer_gives_the_energy_price_and_support_rate(tmp_path: Path) -> None:
    (tmp_path / "assumptions.yaml").write_text(
        "- id: energy-usd-per-kwh\n  name: energy price\n  value: 0.07\n  unit: USD/kWh\n"
        "  source: test quote\n  as_of: 2026-01\n"
        "- id: support-share-per-year\n  name: support\n  value: 0.1\n  unit: fraction\n"
        "  source: test quote\n  as_of: 2026-01\n",
        encoding="utf-8",
    )
    layered = load_catalog(tmp_path)
    terms = terms_for(layered, REQUEST)
    assert terms.usd_per_kwh == 0.07
    assert terms.support_share_per_year == 0.1
    # the request's own price wins over the layer's
    own = terms_for(layered, REQUEST.model_copy(update={"usd_per_kwh": 0.12}))
    assert own.usd_per_kwh == 0.12
