"""The capital of a design: the BOM's priced orderable lines, and the lines without a price.

A line with no price is unknown, never zero: the sum of the priced lines is then a lower bound
("at least"), and a capital budget checked against it can fail (the priced lines alone exceed
it) but never pass.
"""

from __future__ import annotations

from collections.abc import Sequence

from clustergen.catalog.loader import Catalog
from clustergen.engine.cache import cached
from clustergen.engine.model.bom import PricedLine
from clustergen.engine.model.common import Check
from clustergen.engine.model.inventory import PartKind
from clustergen.engine.model.tco import Capital
from clustergen.units import dollars as usd

#: how to supply prices when a design lacks them (the README's price-layer command)
HOW_TO_PRICE = (
    "layer your prices over the catalog: a directory whose systems.yaml (and switches.yaml, "
    "optics.yaml, racks.yaml, ...) entries give a BOM line's catalog id (its part column) with "
    "price_usd and price_source, layered with the catalog option of the command line or the "
    "MCP server (examples/prices/hardware shows the form)"
)

#: how many unpriced parts a capital lists by name
SHOWN = 8


def capital_of(bom: Sequence[PricedLine]) -> Capital:
    """The capital of the BOM's orderable lines: priced sum, and the parts with no price."""
    ordered = [ln for ln in bom if ln.status == "order"]
    priced = [ln for ln in ordered if ln.total_price_usd is not None]
    unpriced: list[str] = []
    for ln in ordered:
        if ln.total_price_usd is None:
            name = ln.part or ln.description
            if name not in unpriced:
                unpriced.append(name)
    return Capital(
        priced_usd=sum(ln.total_price_usd or 0.0 for ln in priced) if priced else None,
        complete=bool(ordered) and len(priced) == len(ordered),
        orderable_lines=len(ordered),
        priced_lines=len(priced),
        unpriced=unpriced,
    )


def prices_anything(catalog: Catalog) -> bool:
    """Whether any catalog entry (a layered price included) has a price: where none has, no BOM
    line has one, so a design's capital is unpriced whatever its parts (once per catalog)."""

    def find() -> bool:
        return any(
            e.price_usd is not None for rows in catalog.entries.values() for e in rows.values()
        )

    return cached(catalog, "prices_anything", find)


def unpriceable(bom: Sequence[PricedLine]) -> list[str]:
    """The orderable lines no price layer can price: they name no catalog part (a part still to
    choose, or one the catalog lacks), and a layer prices a line by its part's catalog id."""
    out: list[str] = []
    for ln in bom:
        if ln.status == "order" and ln.part is None and ln.description not in out:
            out.append(ln.description)
    return out


def node_capital_usd(bom: Sequence[PricedLine], system_id: str) -> float:
    """The priced capital of the compute nodes themselves (the system lines), 0 when unpriced:
    what the capital solve scales by node count; the rest of the BOM is set aside."""
    return sum(
        ln.total_price_usd or 0.0
        for ln in bom
        if ln.status == "order" and ln.part == system_id and ln.category is PartKind.COMPUTE
    )


def unpriced_text(capital: Capital) -> str:
    """The unpriced parts in a phrase: '12 of 40 lines unpriced (qm9700, ...)'."""
    names = ", ".join(capital.unpriced[:SHOWN])
    more = len(capital.unpriced) - SHOWN
    tail = f", and {more} more" if more > 0 else ""
    unpriced = capital.orderable_lines - capital.priced_lines
    return f"{unpriced} of {capital.orderable_lines} orderable lines unpriced ({names}{tail})"


def over_budget(capital: Capital, budget_usd: float) -> bool:
    """Whether the priced lines alone exceed the budget (unpriced lines only add to it)."""
    return (capital.priced_usd or 0.0) > budget_usd * (1 + 1e-9)


def budget_verdict(capital: Capital, budget_usd: float) -> tuple[bool | None, str]:
    """(within the budget: True / False / None when unknown, the reason in words)."""
    priced = capital.priced_usd or 0.0
    if over_budget(capital, budget_usd):
        bound = "" if capital.complete else "at least "
        return False, (f"capital {bound}{usd(priced)}, over the {usd(budget_usd)} capital budget")
    if not capital.complete:
        have = f"at least {usd(priced)}" if capital.priced_usd else "unknown"
        unpriced = capital.orderable_lines - capital.priced_lines
        return None, (
            f"capital {have} ({unpriced} of {capital.orderable_lines} orderable lines "
            f"unpriced), so whether it fits the {usd(budget_usd)} capital budget is unknown"
        )
    return True, f"capital {usd(priced)} within the {usd(budget_usd)} capital budget"


def capital_check(capital: Capital, budget_usd: float) -> Check:
    """The design's check against the request's capital budget (unknown when lines are
    unpriced and the priced ones fit)."""
    within, why = budget_verdict(capital, budget_usd)
    figure = usd(capital.priced_usd) if capital.priced_usd else "unpriced"
    if not capital.complete and capital.priced_usd:
        figure = "at least " + figure
    return Check(
        name="capital within the capital budget",
        passed=within is True,
        unknown=within is None,
        figure=f"{figure} / {usd(budget_usd)}",
        detail=why + ("" if within is not None else f"; to know it, {HOW_TO_PRICE}"),
    )
