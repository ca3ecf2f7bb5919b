"""Total cost of ownership of a designed cluster: capital from the BOM where the user's catalog
layer prices it, energy at the design's facility power x $/kWh over the term (at an average load
share), and support as a yearly share of capital. Nothing here is a built-in price: an energy
price or support rate not given (in the request or the price layer's assumptions) leaves its term
unknown, and the total then says so. The term and the load share have stated defaults."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Assumption
from clustergen.engine.cost.capital import (
    HOW_TO_PRICE,
    budget_verdict,
    capital_of,
    unpriceable,
    unpriced_text,
)
from clustergen.engine.model.common import Assumed
from clustergen.engine.model.tco import CostOfOwnership
from clustergen.errors import RequestError

if TYPE_CHECKING:  # annotations only: `power` and `fabric` import the cost face, not the design
    from clustergen.engine.model.bom import PricedLine
    from clustergen.engine.model.design import PowerSection
    from clustergen.engine.model.request import DesignRequest

HOURS_PER_YEAR = 8766.0  # 365.25 days

#: price-layer assumptions (none built in): a user's catalog layer may give them
ENERGY_PRICE = "energy-usd-per-kwh"
SUPPORT_RATE = "support-share-per-year"
#: built-in defaults, each with its source in catalog/assumptions.yaml
TERM = "tco-term-years"
LOAD = "tco-load-share"


class Terms(NamedTuple):
    """What a cost of ownership is reckoned over, each value from the request, the caller or the
    catalog (its `assumed` says which were defaults)."""

    years: float
    load_share: float
    usd_per_kwh: float | None
    support_share_per_year: float | None
    assumed: Sequence[Assumed] = ()


def _layer_value(catalog: Catalog, name: str) -> Assumption | None:
    entry = catalog.entries.get("assumptions", {}).get(name)
    return entry if isinstance(entry, Assumption) else None


def _default(catalog: Catalog, name: str, fld: str, why: str) -> tuple[float, Assumed]:
    a = catalog.assumption(name)
    value = float(a.value)  # catalog/ranges.py holds it numeric
    return value, Assumed(field=fld, value=f"{value:g}", reason=why, source=a.source)


def terms_for(
    catalog: Catalog,
    request: DesignRequest,
    *,
    support_share_per_year: float | None = None,
    load_share: float | None = None,
) -> Terms:
    """The cost terms of a request: its term and energy price, else the price layer's and the
    catalog's defaults (stated); a support rate from the caller or the price layer."""
    assumed: list[Assumed] = []
    years = request.tco_years
    if years is None:
        years, note = _default(catalog, TERM, "tco_years", "the request gives no cost term")
        assumed.append(note)
    if load_share is None:
        load_share, note = _default(catalog, LOAD, "tco_load_share", "average power drawn")
        assumed.append(note)
    usd_per_kwh = request.usd_per_kwh
    if usd_per_kwh is None and (energy := _layer_value(catalog, ENERGY_PRICE)) is not None:
        usd_per_kwh = float(energy.value)
        assumed.append(
            Assumed(
                field="usd_per_kwh",
                value=f"{usd_per_kwh:g}",
                reason="energy price from the catalog layer",
                source=energy.source,
            )
        )
    if support_share_per_year is None and (rate := _layer_value(catalog, SUPPORT_RATE)):
        support_share_per_year = float(rate.value)
        assumed.append(
            Assumed(
                field="support_share_per_year",
                value=f"{support_share_per_year:g}",
                reason="support and maintenance rate from the catalog layer",
                source=rate.source,
            )
        )
    return Terms(years, load_share, usd_per_kwh, support_share_per_year, assumed)


def cost_of_ownership(
    bom: Sequence[PricedLine],
    power: PowerSection,
    terms: Terms,
    capital_budget_usd: float | None = None,
) -> CostOfOwnership:
    """The design's cost over the term, each part known or said to be missing."""
    years, load_share = terms.years, terms.load_share
    if years <= 0 or not 0 < load_share <= 1:
        raise RequestError(
            f"a cost of ownership needs a term > 0 years and a load share in (0, 1]; got "
            f"{years:g} years, load {load_share:g}",
            hint="e.g. a term of 5 years at a load share of 0.8",
        )
    capital = capital_of(bom)
    missing: list[str] = []
    if not capital.complete:
        unpriced = capital.orderable_lines - capital.priced_lines
        missing.append(f"prices for {unpriced} of {capital.orderable_lines} orderable BOM lines")
    facility_kw = power.facility_total_w / 1e3
    energy = None
    if terms.usd_per_kwh is None:
        missing.append("an energy price ($/kWh)")
    else:
        energy = facility_kw * load_share * HOURS_PER_YEAR * years * terms.usd_per_kwh
    if not power.complete:
        missing.append("power of " + ", ".join(power.unknown))
    support = None
    share = terms.support_share_per_year
    if share is None:
        missing.append("a support rate (share of capital per year, from the price layer)")
    elif capital.priced_usd is not None:
        # support on the priced lines: a lower bound when capital is, said by `missing`
        support = capital.priced_usd * share * years
    known = sum(v for v in (capital.priced_usd, energy, support) if v is not None)
    within = None
    if capital_budget_usd is not None:
        within = budget_verdict(capital, capital_budget_usd)[0]
    return CostOfOwnership(
        term_years=years,
        capital_usd=capital.total_usd,
        capital_priced_usd=capital.priced_usd,
        capital_note=(
            f"every one of {capital.orderable_lines} orderable lines priced"
            if capital.complete
            else unpriced_text(capital)
        ),
        unpriced=capital.unpriced,
        unpriceable=unpriceable(bom),
        capital_budget_usd=capital_budget_usd,
        within_capital_budget=within,
        facility_kw=round(facility_kw, 1),
        power_complete=power.complete,
        load_share=load_share,
        usd_per_kwh=terms.usd_per_kwh,
        energy_usd=None if energy is None else round(energy, 2),
        support_share_per_year=share,
        support_usd=None if support is None else round(support, 2),
        total_usd=None if missing else round(known, 2),
        known_usd=round(known, 2),
        missing=missing,
        assumed=list(terms.assumed),
        how_to_price=None if capital.complete else HOW_TO_PRICE,
        method=(
            f"capital = the BOM's priced orderable lines ({capital.priced_lines} of "
            f"{capital.orderable_lines}); energy = {facility_kw:,.0f} kW facility power x "
            f"{load_share:g} load x {HOURS_PER_YEAR:g} h x {years:g} years x $/kWh; support = "
            "capital x yearly share x years"
        ),
    )
