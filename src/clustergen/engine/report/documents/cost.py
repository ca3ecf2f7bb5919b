"""The design's cost in words: one line for the executive summary, the terminal and a model's
tool result, and the memo's cost section. An unknown term is said to be unknown, and a total
with one is "at least"."""

from __future__ import annotations

from clustergen.engine.model.design import Design
from clustergen.engine.model.tco import CostOfOwnership
from clustergen.engine.report.words import field_words
from clustergen.units import dollars, per_kwh, plural

#: how many unpriced parts the memo names
SHOWN = 12


def _money(usd: float | None) -> str:
    return "unknown" if usd is None else dollars(usd)


def capital_words(c: CostOfOwnership) -> str:
    """Capital in a phrase: '$48.2M', 'at least $49.9M (30 of 31 orderable lines unpriced)'."""
    if c.capital_usd is not None:
        return dollars(c.capital_usd)
    if c.capital_priced_usd is None:
        return "unknown (no BOM line priced)"
    return f"at least {dollars(c.capital_priced_usd)} ({c.capital_note.split(' (')[0]})"


def _total(c: CostOfOwnership) -> str:
    """The whole term's cost, a lower bound when a term is unknown, unknown when none is known."""
    if c.total_usd is not None:
        return dollars(c.total_usd)
    return f"at least {dollars(c.known_usd)}" if c.known_usd else "unknown"


def _total_basis(c: CostOfOwnership) -> str:
    if c.total_usd is not None:
        return "every term known"
    if c.known_usd:
        return "a lower bound: terms above are unknown, not zero"
    return "no term is known yet"


def cost_line(c: CostOfOwnership) -> str:
    """The cost in one line: capital, then the cost of ownership over the term."""
    total = _total(c)
    energy = (
        f"energy {dollars(c.energy_usd)} at {per_kwh(c.usd_per_kwh)}"
        if c.energy_usd is not None and c.usd_per_kwh is not None
        else "energy unknown: no $/kWh"
    )
    budget = ""
    if c.capital_budget_usd is not None:
        verdict = {True: "within", False: "over", None: "unknown against"}[c.within_capital_budget]
        budget = f" ({verdict} the {dollars(c.capital_budget_usd)} capital budget)"
    return (
        f"capital {capital_words(c)}{budget}; {c.term_years:g}-year cost of ownership {total} "
        f"({energy})"
    )


def cost_section(d: Design) -> list[str]:
    """The memo's cost section: each term with its basis, what is missing, how to price it."""
    c = d.cost
    if c is None:
        return []
    support = (
        f"{dollars(c.support_usd)} ({c.support_share_per_year:.1%} of capital a year)"
        if c.support_usd is not None and c.support_share_per_year is not None
        else "unknown (no support rate in the price layer)"
    )
    energy_basis = (
        f"{c.facility_kw:,.0f} kW facility x load share {c.load_share:g} x {c.term_years:g} years"
    )
    out = [
        f"\n### Cost of ownership over {c.term_years:g} years\n",
        "| term | cost | basis |",
        "|---|---|---|",
        f"| capital | {capital_words(c)} | the BOM's priced orderable lines |",
        f"| energy | {_money(c.energy_usd)} | {energy_basis}"
        + (
            f" at {per_kwh(c.usd_per_kwh)} |" if c.usd_per_kwh is not None else ", no $/kWh given |"
        ),
        f"| support | {support} | share of capital a year, from the price layer |",
        f"| **total** | **{_total(c)}** | {_total_basis(c)} |",
    ]
    if c.capital_budget_usd is not None:
        verdict = {True: "within", False: "over", None: "not known to be within"}[
            c.within_capital_budget
        ]
        out.append(f"\nCapital is {verdict} the {dollars(c.capital_budget_usd)} capital budget.")
    if c.missing:
        out.append("\nMissing for a complete total: " + "; ".join(c.missing) + ".")
    # the lines with no catalog part are listed on their own below
    by_id = [u for u in c.unpriced if u not in c.unpriceable]
    if by_id:
        more = len(by_id) - SHOWN
        names = ", ".join(f"`{u}`" for u in by_id[:SHOWN])
        out.append(
            f"Unpriced parts (by catalog id): {names}{f', and {more} more' if more > 0 else ''}."
        )
    if c.how_to_price:
        out.append(f"To price them, {c.how_to_price}.")
    if c.unpriceable:
        out.append(
            f"\nNo price layer can price {plural(len(c.unpriceable), 'orderable line')}, so the "
            "capital is never complete (at best a lower bound): a layer prices a line by its catalog id, and these name "
            "no catalog part (a part still to choose, or one the catalog has no entry for, such as "
            "a PDU named on its rack). Price them outside clustergen until the catalog has a "
            "part for them:\n"
        )
        out += [f"- {u}" for u in c.unpriceable]
    if c.assumed:
        # a paragraph between: two lists apart only by a blank line run together in Markdown
        out += ["", "The cost figures assume:", ""]
    for a in c.assumed:
        out.append(f"- Assumed {field_words(a.field)} {a.value}: {a.reason}.")
    return out
