"""Total cost of ownership of a designed cluster over a term: capital from the BOM's prices,
energy at the facility's power, support as a yearly share of capital. Prices are the user's;
an unknown term is never counted as zero."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


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
    method: str
