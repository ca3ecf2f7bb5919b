"""The memo's cooling lines for liquid-cooled racks: the CDUs that move their heat to facility
water, the heat the liquid loops carry, and what is not published (the air-side share, pump
power), in a customer's words."""

from __future__ import annotations

from clustergen.engine.model.cooling import LiquidCooling
from clustergen.engine.model.design import Design
from clustergen.units import plural, watts


def _units(c: LiquidCooling) -> str:
    """How many CDUs, and how they are spread."""
    if c.cdus is None:
        return (
            f"at least {plural(c.cdus_at_least, 'CDU')} ({c.cdu_name}: its capacity is not in "
            "the catalog, so the count is unknown)"
        )
    spread = (
        f"{c.cdus_per_loop} + {c.spares_per_loop} spare per row of up to "
        f"{plural(c.racks_per_loop, 'rack')}"
        if c.form == "in-row"
        else "one in each rack"
    )
    return f"{plural(c.cdus, 'CDU')} ({c.cdu_name}, or equal): {spread}"


def _rule(c: LiquidCooling) -> str:
    """The rule in a sentence, as an estimate."""
    cap = f"{c.cdu_capacity_kw:,.0f} kW" if c.cdu_capacity_kw else "capacity (unknown)"
    share = (
        "its liquid share of the rack power"
        if c.liquid_heat_fraction is not None
        else "the whole rack power, the liquid share not being published"
    )
    if c.form == "in-row":
        return (
            f"a row's CDUs are its heat ({share}) over the CDU's {cap}, rounded up, plus "
            f"{plural(c.spares_per_loop, 'spare')} (the RA's Tier 3 concurrent maintainability); "
            "a row is an SU where the design has SUs (the RA lays one SU per row)"
        )
    return f"a rack's CDUs are its heat ({share}) over the CDU's {cap}, rounded up"


def cooling_summary(d: Design) -> str | None:
    """The cooling in a short line for a summary table (the terminal); None for air."""
    c = d.racks.cooling
    if c is None:
        return None
    heat = ("at most " if c.liquid_heat_bound else "") + watts(c.liquid_heat_kw * 1e3)
    return f"{_units(c)}; {heat} to liquid (an estimate: no NVIDIA CDU count)"


def cooling_line(d: Design) -> str | None:
    """The configuration's cooling line; None for air-cooled racks."""
    c = d.racks.cooling
    if c is None:
        return None
    heat = ("at most " if c.liquid_heat_bound else "") + watts(c.liquid_heat_kw * 1e3)
    where = (
        f"; they stand in the rows ({plural(c.row_positions, 'rack position')})"
        if c.row_positions
        else ""
    )
    return (
        f"- Cooling: {_units(c)}, for {heat} to the liquid loops of "
        f"{plural(c.racks, 'compute rack')}{where}. An estimate, NVIDIA publishes no CDU count "
        f"for this platform: {_rule(c)}."
    )


def heat_lines(d: Design) -> list[str]:
    """Under the power table: where the liquid-cooled racks' heat goes, and what the totals hold
    of the CDUs."""
    c = d.racks.cooling
    if c is None:
        return []
    if c.air_heat_kw is not None:
        air = f"{watts(c.air_heat_kw * 1e3)} of their heat goes to room air"
    else:
        air = (
            "the share of their heat that goes to room air is not published (their loops are "
            "taken to carry it all): size the room's air cooling with the vendor"
        )
    pumps = (
        f"CDU pumps draw {watts(c.cdu_power_w)}, facility overhead within the PUE"
        if c.cdu_power_w is not None
        else "CDU pump power is not published; it is facility overhead, within the PUE"
    )
    return [
        f"\nCooling: the liquid loops carry {watts(c.liquid_heat_kw * 1e3)}"
        + (" at most" if c.liquid_heat_bound else "")
        + f"; {air}. {pumps}."
    ]
