"""`racks.png`: one front elevation per rack type (compute, network, storage, management), the
first rack of each kind with its devices at their positions, its power and how many racks are
like it."""

from __future__ import annotations

import textwrap
from typing import Any

from clustergen.engine.model.design import Design
from clustergen.engine.model.inventory import PARTS, ROLES
from clustergen.engine.report.files.rackplan import SERVER_RACK_UNITS, Rack, rack_plan
from clustergen.engine.report.pictures.charts import png, subplots
from clustergen.engine.report.plain_text import plot_text
from clustergen.units import plural

#: the rack types that get a panel, in the panels' order (the role table's)
_ORDER = tuple(r for _, r in sorted((s.panel, r) for r, s in ROLES.items() if s.panel is not None))


#: characters of a device label that fit the rack's width at its font size
_LINE = 38


def device_label(position: int, kind: str, height_u: int) -> str:
    """A device's label: 'U<position> <name>' on one line where it fits the rack's width, else
    wrapped over the lines the device's height holds (an in-row CDU's full name), else cut."""
    import textwrap

    text = f"U{position} {kind}"
    if len(text) <= _LINE:
        return text
    lines = textwrap.wrap(text, _LINE - 4)
    if len(lines) <= max(1, height_u - 1):
        return "\n".join(lines)
    return text[: _LINE - 3] + "..."


def panel_title(kind: str, rack: Rack, alike: int, cooling: str) -> str:
    """A panel's title: the rack type and the rack drawn for it, what else it holds, its height,
    cooling and power (as `rack_plan.csv` gives it), and how many racks are like it."""
    power = (
        "power unknown"
        if rack.power_w is None
        else (("at least " if not rack.power_complete else "") + f"{rack.power_w / 1e3:,.1f} kW")
    )
    spec = ROLES[rack.role]
    cool = f", {spec.cooling}" if spec.cooling else f", {cooling}-cooled"
    # management packed into a network rack: say so, or the count line ("5 network racks in
    # all") reads as a count of management racks; what the rack is named for is then said
    # once ('in network rack network-05', not again 'also holds network')
    held = sorted({x.role for x in rack.devices if x.height and x.role} - {kind, rack.role})
    also = f"\nalso holds {', '.join(held)}" if held else ""
    where = f"rack {rack.name}" if kind == rack.role else f"in {rack.role} rack {rack.name}"
    return (
        f"{kind}: {where}{also}\n{rack.height_u}U{cool}, {power}\n"
        f"{plural(alike, spec.rack_noun)} in all"
    )


def _panel(ax: Any, kind: str, rack: Rack, alike: int, cooling: str) -> None:
    from matplotlib.patches import Rectangle

    ax.add_patch(Rectangle((0, 0.5), 3.0, rack.height_u, fill=False, lw=2))
    for x in rack.devices:
        if not x.height:
            continue  # a vertical PDU: beside the rack's units, not in them
        ax.add_patch(
            Rectangle(
                (0.1, x.position - 0.5),
                2.8,
                x.height,
                fc=ROLES[x.role or rack.role].colour if x.height_known else "white",
                ec="black",
                lw=0.5,
                hatch=None if x.height_known else "//",
            )
        )
        # a 1U label in the rack unit's height, legible at the PNG's 110 dpi
        size = 6.5 if x.height >= 2 else 5.5
        ax.text(
            1.5,
            x.position - 0.5 + x.height / 2,
            plot_text(device_label(x.position, x.kind, x.height)),
            ha="center",
            va="center",
            fontsize=size,
            clip_on=True,
            # a label on a hatched (height unknown) box sits on white, not across the hatching
            bbox=None if x.height_known else {"fc": "white", "ec": "none", "pad": 0.6},
        )
    ax.set_title(plot_text(panel_title(kind, rack, alike, cooling)), fontsize=8)
    ax.set_xlim(-0.2, 3.2)
    ax.set_ylim(0, rack.height_u + 1.5)
    ax.set_xticks([])
    ax.tick_params(axis="y", labelsize=6)


def _units_of(rack: Rack, kind: str) -> int:
    return sum(x.height for x in rack.devices if x.role == kind)


def picked_racks(racks: list[Rack]) -> list[tuple[str, Rack]]:
    """Per rack type, the first rack of that type; a type no rack is named for (management
    servers packed in with switches) gets the rack holding most of its devices, unless that
    rack is drawn already (its title then says it holds them too)."""
    own = {k: r for k in _ORDER for r in racks[::-1] if r.role == k}  # the first of each
    out = dict(own)
    for kind in _ORDER:
        holding = [r for r in racks if _units_of(r, kind) and all(r is not x for x in out.values())]
        if kind not in out and holding:
            out[kind] = max(holding, key=lambda r: _units_of(r, kind))
    return [(k, out[k]) for k in _ORDER if k in out]


def _row_cabinets(racks: list[Rack]) -> int:
    """Cabinets standing in the row (an in-row CDU): each takes a rack position, not a rack."""
    rows = {spec.role for spec in PARTS.values() if spec.stands == "row"}
    return sum(1 for r in racks if r.role in rows)


def racks_in_all(racks: list[Rack]) -> str:
    """Racks, and apart from them the rack positions in-row CDUs take."""
    cdus = _row_cabinets(racks)
    text = plural(len(racks) - cdus, "rack")
    return text + (f" and {plural(cdus, 'CDU position')}" if cdus else "")


def elevations_title(racks: list[Rack], picked: list[tuple[str, Rack]], standing: int = 0) -> str:
    """The picture's title: the racks in all, and the hatching's key when a drawn device is
    hatched (the key stood over drawings with no hatching). `standing`: of the racks drawn,
    an increment's standing ones whose free slots take new devices (not racks it adds)."""
    drawn = [x for _, r in picked for x in r.devices if x.height]
    key = (
        f"; hatched: height unknown, an estimate held (switch 1U, server {SERVER_RACK_UNITS}U)"
        if any(not x.height_known for x in drawn)
        else ""
    )
    if standing:
        added = plural(len(racks) - standing, "new rack")
        noun = "standing rack's" if standing == 1 else "standing racks'"
        where = f"{standing} {noun} free slots"
        return f"Rack elevations (front): {added} in all, and new devices in {where}{key}"
    return f"Rack elevations (front): {racks_in_all(racks)} in all{key}"


def rack_elevations(d: Design) -> bytes:
    """One elevation per rack type, as PNG bytes; hatched: a device whose height is unknown."""
    racks = rack_plan(d)
    picked = picked_racks(racks)
    width_in = 3.0 * max(1, len(picked)) + 1
    fig, axes = subplots(1, max(1, len(picked)), figsize=(width_in, 8), constrained_layout=True)
    axes = list(axes) if len(picked) > 1 else [axes]
    for ax, (kind, rack) in zip(axes, picked, strict=False):
        alike = sum(1 for r in racks if r.role == rack.role)
        _panel(ax, kind, rack, alike, d.racks.compute.cooling)
    axes[0].set_ylabel("rack units")
    # an increment's rack plan also draws the standing racks whose free slots take new nodes,
    # which its racks section does not count as racks it adds
    own = len(racks) - _row_cabinets(racks)
    standing = max(0, own - d.racks.total_racks) if d.expansion is not None else 0
    title = plot_text(elevations_title(racks, picked, standing))
    # a narrow figure (two rack types) clipped the title at both edges: wrapped to its width
    # (about 11 characters an inch at 10 pt)
    fig.suptitle(textwrap.fill(title, width=int(width_in * 11)), fontsize=10)
    return png(fig)
