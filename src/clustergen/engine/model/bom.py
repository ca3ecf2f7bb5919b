"""Bill-of-materials lines and totals."""

from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field

from clustergen.engine.model.inventory import PartKind


class BomLine(BaseModel):
    """One BOM line."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    category: PartKind
    name: str = Field(
        default="",
        description="what the item is: the catalog entry's name, or the generic item's",
    )
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
    status: str = Field(
        default="order",
        description=(
            "'order', or why the line is listed but not bought: 'included in <system>, do not "
            "order', 'supplied by the storage vendor'"
        ),
    )
    unit_rack_units: int | None = Field(
        default=None, description="height of one unit in rack units, where the catalog has it"
    )
    order_quantity: int | None = Field(
        default=None, ge=0, description="what a buyer orders; None for a part not bought"
    )
    vendor: str | None = Field(
        default=None,
        description="the catalog entry's vendor: a maker (NVIDIA, DDN), or a class of makers "
        "to choose from (an OEM); None for a generic item",
    )


class BomTotals(BaseModel):
    """Totals over the BOM; prices only where every priced line is known."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    lines: int
    priced_lines: int
    total_price_usd: float | None
    price_note: str


class PricedLine(Protocol):
    """What the capital, the totals and the cost of ownership read of a BOM line: a `BomLine`, or
    the plain record sizing builds before the design's lines become `BomLine`s."""

    @property
    def category(self) -> PartKind: ...
    @property
    def part(self) -> str | None: ...
    @property
    def description(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def total_price_usd(self) -> float | None: ...
