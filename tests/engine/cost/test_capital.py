"""Capital from BOM lines: unpriced lines are unknown, never zero; a budget check can fail on the
priced lines alone but passes only when every line is priced."""

from __future__ import annotations

from pathlib import Path

from clustergen.catalog import load_catalog
from clustergen.engine.cost import capital_check, capital_of, prices_anything
from clustergen.engine.model.bom import BomLine


def _line(part: str, price: float | None, status: str = "order") -> BomLine:
    return BomLine(
        category="switch",
        part=part,
        opn=None,
        description=part,
        quantity=2,
        unit_power_w=None,
        total_power_w=None,
        unit_price_usd=None if price is None else price / 2,
        total_price_usd=price,
        price_source=None if price is None else "test",
        source="test",
        status=status,
    )


def test_every_orderable_line_priced_is_a_total_and_a_pass() -> None:
    bom = [_line("a", 100.0), _line("b", 50.0), _line("gpu", None, status="included")]
    capital = capital_of(bom)
    assert capital.complete
    assert capital.total_usd == 150.0
    check = capital_check(capital, 200.0)
    assert check.passed
    assert not check.unknown
    assert not capital_check(capital, 149.0).passed


def test_an_unpriced_line_makes_the_capital_a_lower_bound_and_the_check_unknown() -> None:
    capital = capital_of([_line("a", 100.0), _line("b", None)])
    assert not capital.complete
    assert capital.total_usd is None
    assert capital.priced_usd == 100.0
    assert capital.unpriced == ["b"]
    within = capital_check(capital, 1_000.0)
    assert within.unknown
    assert not within.passed
    assert "examples/prices/hardware" in within.detail
    over = capital_check(capital, 50.0)  # the priced lines alone exceed it: a fail, not unknown
    assert not over.passed
    assert not over.unknown


def test_no_line_priced_has_no_capital() -> None:
    capital = capital_of([_line("a", None)])
    assert capital.priced_usd is None
    assert capital_check(capital, 10.0).unknown


def test_a_catalog_prices_something_only_with_a_price_layer() -> None:
    """Rows read no BOM where nothing is priced (`Sized.capital`): the built-in catalog prices
    nothing, the example price layer prices its systems."""
    assert not prices_anything(load_catalog())
    layer = Path(__file__).parents[3] / "examples" / "prices" / "hardware"
    assert prices_anything(load_catalog(layer))
