"""What a designed cluster costs: its capital (the BOM's priced lines) and its total cost of
ownership over a term (capital, energy at the facility's power, support as a share of capital).
Prices are the user's; an unknown term is never counted as zero."""

from typing import NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from clustergen.engine.model.common import Assumed
from clustergen.factories import empty_list


class Capital(NamedTuple):
    """The capital of a design's BOM: what its priced orderable lines sum to, and which lines
    have no price (then the sum is a lower bound, never a total). An engine record: the Design
    carries its figures in `CostOfOwnership`."""

    priced_usd: float | None  # sum of the priced orderable lines, USD; None when none is priced
    complete: bool  # every orderable line is priced: priced_usd is the total
    orderable_lines: int  # BOM lines a buyer orders
    priced_lines: int
    unpriced: list[str]  # the orderable parts without a price (unknown)

    @property
    def total_usd(self) -> float | None:
        """The capital when every line is priced, else None (unknown)."""
        return self.priced_usd if self.complete else None


class CostOfOwnership(BaseModel):
    """What the designed cluster costs to own for `term_years`, term by term, with what is
    missing; `total_usd` only when every term is known."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    term_years: float = Field(gt=0, description="the term the costs run over, years")
    capital_usd: float | None = Field(description="BOM total; None unless every line is priced")
    capital_priced_usd: float | None = Field(
        description="sum of the priced BOM lines (a lower bound when some are unpriced)"
    )
    capital_note: str
    unpriced: list[str] = Field(
        default_factory=empty_list, description="orderable BOM parts without a price (unknown)"
    )
    unpriceable: list[str] = Field(
        default_factory=empty_list,
        description="orderable BOM lines no price layer can price: they name no catalog part "
        "(a part still to choose, or one the catalog lacks), and a layer prices by catalog id",
    )
    capital_budget_usd: float | None = Field(
        default=None, description="the request's capital budget, USD"
    )
    within_capital_budget: bool | None = Field(
        default=None,
        description="whether the capital fits the budget; None when no budget or when unpriced "
        "lines leave it unknown",
    )
    facility_kw: float = Field(description="facility power at full load, kW")
    power_complete: bool = Field(description="whether every power term is known")
    load_share: float = Field(gt=0, le=1, description="average share of full power drawn")
    usd_per_kwh: float | None
    energy_usd: float | None = Field(description="facility kW x load x hours x $/kWh")
    support_share_per_year: float | None = Field(description="support and maintenance, of capital")
    support_usd: float | None
    total_usd: float | None = Field(description="capital + energy + support, if all known")
    known_usd: float = Field(description="the known terms summed (a lower bound if incomplete)")
    missing: list[str] = Field(description="what to supply for a complete total")
    assumed: list[Assumed] = Field(
        default_factory=empty_list, description="the term, load and prices the request did not give"
    )
    how_to_price: str | None = Field(
        default=None, description="how to supply the prices that are missing"
    )
    method: str
