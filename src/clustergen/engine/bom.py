"""Bill of materials: one line per part, with quantity, power and source. Prices only where the
catalog (or a user's layered catalog) has them."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from clustergen.catalog.models import Entry


class BomLine(BaseModel):
    """One BOM line."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    category: str
    part: str | None = Field(description="catalog id, or None for a generic item")
    opn: str | None
    description: str
    quantity: int = Field(ge=0)
    unit_power_w: float | None
    total_power_w: float | None
    unit_price_usd: float | None
    total_price_usd: float | None
    price_source: str | None
    source: str
    placeholder: bool = False


def line(
    category: str,
    quantity: int,
    description: str,
    entry: Entry | None = None,
    unit_power_w: float | None = None,
    source: str | None = None,
) -> BomLine:
    """A BOM line for a catalog entry (or a generic item when entry is None)."""
    price = entry.price_usd if entry else None
    return BomLine(
        category=category,
        part=entry.id if entry else None,
        opn=entry.opn if entry else None,
        description=description,
        quantity=quantity,
        unit_power_w=unit_power_w,
        total_power_w=None if unit_power_w is None else unit_power_w * quantity,
        unit_price_usd=price,
        total_price_usd=None if price is None else price * quantity,
        price_source=entry.price_source if entry else None,
        source=source or (entry.source if entry else "clustergen engine"),
        placeholder=bool(entry and entry.placeholder),
    )


class BomTotals(BaseModel):
    """Totals over the BOM; prices only where every priced line is known."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    lines: int
    priced_lines: int
    total_price_usd: float | None
    price_note: str


def totals(lines: list[BomLine]) -> BomTotals:
    """Sum what can be summed; say what is missing."""
    priced = [ln for ln in lines if ln.total_price_usd is not None]
    total = sum(ln.total_price_usd or 0.0 for ln in priced) if priced else None
    note = (
        "no prices in the catalog; add price_usd with price_source in a layered catalog"
        if not priced
        else f"prices from the catalog on {len(priced)} of {len(lines)} lines; the rest unpriced"
    )
    return BomTotals(
        lines=len(lines), priced_lines=len(priced), total_price_usd=total, price_note=note
    )
