"""Total cost of ownership of a designed cluster: capital from the BOM where the user's catalog
layer prices it, energy at the design's facility power x $/kWh over the term (at an average load
share), and support as a yearly share of capital. Nothing here is a built-in price: an energy
price or support rate not given leaves its term unknown, and the total then says so."""

from __future__ import annotations

from clustergen.engine.model.design import Design
from clustergen.engine.model.tco import CostOfOwnership
from clustergen.errors import RequestError

HOURS_PER_YEAR = 8766.0  # 365.25 days


def cost_of_ownership(
    design: Design,
    years: float,
    usd_per_kwh: float | None = None,
    support_share_per_year: float | None = None,
    load_share: float = 1.0,
) -> CostOfOwnership:
    """The design's cost over `years`, each term known or said to be missing."""
    if years <= 0 or not 0 < load_share <= 1:
        raise RequestError(
            f"a cost of ownership needs a term > 0 years and a load share in (0, 1]; got "
            f"{years:g} years, load {load_share:g}",
            hint="e.g. a term of 5 years at a load share of 0.8",
        )
    totals = design.bom_totals
    missing: list[str] = []
    complete_bom = totals.total_price_usd is not None and totals.priced_lines == totals.lines
    capital = totals.total_price_usd if complete_bom else None
    if capital is None:
        missing.append(
            f"prices for {totals.lines - totals.priced_lines} of {totals.lines} BOM lines"
        )
    facility_kw = design.power.facility_total_w / 1e3
    energy = None
    if usd_per_kwh is None:
        missing.append("an energy price ($/kWh)")
    else:
        energy = facility_kw * load_share * HOURS_PER_YEAR * years * usd_per_kwh
    if not design.power.complete:
        missing.append("power of " + ", ".join(design.power.unknown))
    support = None
    if support_share_per_year is None:
        missing.append("a support rate (share of capital per year)")
    elif capital is not None:
        support = capital * support_share_per_year * years
    priced = capital if capital is not None else totals.total_price_usd
    known = sum(v for v in (priced, energy, support) if v is not None)
    total = known if not missing else None
    return CostOfOwnership(
        term_years=years,
        capital_usd=capital,
        capital_priced_usd=totals.total_price_usd,
        capital_note=totals.price_note,
        facility_kw=round(facility_kw, 1),
        power_complete=design.power.complete,
        load_share=load_share,
        usd_per_kwh=usd_per_kwh,
        energy_usd=None if energy is None else round(energy, 2),
        support_share_per_year=support_share_per_year,
        support_usd=None if support is None else round(support, 2),
        total_usd=None if total is None else round(total, 2),
        known_usd=round(known, 2),
        missing=missing,
        method=(
            f"capital = the BOM's priced lines ({totals.priced_lines} of {totals.lines}); energy ="
            f" {facility_kw:,.0f} kW facility power x {load_share:g} load x {HOURS_PER_YEAR:g} h"
            f" x {years:g} years x $/kWh; support = capital x yearly share x years"
        ),
    )
