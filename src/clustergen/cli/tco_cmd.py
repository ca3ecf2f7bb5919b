"""`clustergen tco`: the total cost of ownership of the designed cluster over a term, from the
prices in your catalog layer (BOM), an energy price and a support rate you give."""

from __future__ import annotations

from typing import Annotated

import typer

from clustergen.cli.options import CatalogOpt, JsonOpt
from clustergen.cli.output import print_json, say
from clustergen.errors import RequestError


def _money(usd: float | None) -> str:
    return "unknown" if usd is None else f"${usd:,.0f}"


def tco(
    text: Annotated[str | None, typer.Argument(help='The request, e.g. "512 GPUs, 5 MW".')] = None,
    years: Annotated[
        float | None,
        typer.Option("--years", min=0.1, max=30, help="Term, years (default: the catalog's)."),
    ] = None,
    usd_per_kwh: Annotated[
        float | None, typer.Option("--usd-per-kwh", min=0, max=10, help="Energy price, USD/kWh.")
    ] = None,
    support_pct: Annotated[
        float | None,
        typer.Option(
            "--support-pct-per-year", min=0, max=100, help="Support, % of capital per year."
        ),
    ] = None,
    load_share: Annotated[
        float | None,
        typer.Option(
            "--load-share", min=0.01, max=1, help="Average share of full power (default: 1)."
        ),
    ] = None,
    platform: Annotated[str | None, typer.Option("--platform", help="System id.")] = None,
    catalog: CatalogOpt = None,
    json: JsonOpt = False,
) -> None:
    """Cost of owning the designed cluster: capital (BOM prices from your catalog layer), energy
    (facility power x $/kWh) and support over a term. No price is built in: a term whose price is
    not given stays unknown and the total says so."""
    from clustergen.catalog import load_catalog
    from clustergen.cli.design_cmd import load_request
    from clustergen.engine.cost import cost_of_ownership, terms_for
    from clustergen.engine.search.planner import plan_design

    if text is None:
        raise RequestError('give a request, e.g. clustergen tco "512 GPUs, 5 MW" --years 5')
    cat = load_catalog(catalog)
    given = {"platform": platform, "tco_years": years, "usd_per_kwh": usd_per_kwh}
    req = load_request(cat, text, None, given)
    design = plan_design(cat, req)
    terms = terms_for(
        cat,
        design.request,
        support_share_per_year=None if support_pct is None else support_pct / 100,
        load_share=load_share,
    )
    cost = cost_of_ownership(design.bom, design.power, terms, design.request.capital_budget_usd)
    years = cost.term_years
    load_share = cost.load_share
    if json:
        print_json(cost)
        return
    say(f"cost of ownership over {years:g} years of {design.platform.name}:")
    say(f"  capital  {_money(cost.capital_usd)} ({cost.capital_note})")
    say(f"  energy   {_money(cost.energy_usd)} ({cost.facility_kw:,.0f} kW x {load_share:g} load)")
    say(f"  support  {_money(cost.support_usd)}")
    total = (
        _money(cost.total_usd)
        if cost.total_usd is not None
        else (f"at least {_money(cost.known_usd)} (missing: {'; '.join(cost.missing)})")
    )
    say(f"  total    {total}")


def register(app: typer.Typer) -> None:
    """Add `tco` to the root app."""
    app.command("tco")(tco)
