"""The topology as a picture: one layout (boxes and labelled edges, in a fixed order) drawn by
matplotlib to `topology.svg` and `topology.png`, and written as draw.io XML (`topology.drawio`)
a partner can restyle. No browser and no system binary: matplotlib is a dependency.

Top to bottom: core, spines (a box per plane where the fabric has several), then each scalable unit in order (its rail leaves, one box per plane
with the rails numbered, over its nodes); the storage fabric and the storage system to the right,
joined to the nodes by their storage links; the management networks and servers below the nodes,
joined to the nodes they manage. Counts and part names are on the boxes and edges.
"""

from __future__ import annotations

import io
from typing import Any, NamedTuple

from clustergen.engine.model.design import Design, ManagementNetwork
from clustergen.engine.model.fabric import FabricDesign
from clustergen.engine.model.inventory import FABRIC_MANAGER, MANAGEMENT_SERVER
from clustergen.engine.report.pictures.topology import (
    model_name,
    rail_words,
    tech_name,
    tier_switch,
)
from clustergen.engine.report.plain_text import plot_text, xml_text
from clustergen.engine.report.scale_words import gpus_text, systems_text
from clustergen.engine.report.su_counts import SuCounts, merged, su_counts
from clustergen.engine.report.words import (
    network_switches,
    storage_owner,
    su_offset,
    switch_count,
)
from clustergen.units import bandwidth, plural, ratio

#: scalable units drawn one by one; the rest are one box
SHOWN_SUS = 4
_PLANE_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")
_FILL = {
    "switch": "#dae8fc",
    "node": "#d5e8d4",
    "storage": "#fff2cc",
    "mgmt": "#f5f5f5",
    "more": "#ffffff",
    "bus": "#777777",
}


class Box(NamedTuple):
    """A box of the diagram, in layout units (x to the right, y downwards)."""

    id: str
    x: float
    y: float
    w: float
    h: float
    label: str
    kind: str
    rails: int = 0  # rail leaves drawn as numbered cells inside the box
    stroke: str = "#333333"


class Edge(NamedTuple):
    """A labelled line between two boxes."""

    src: str
    dst: str
    label: str
    color: str = "#333333"


class Layout:
    """Boxes and edges in drawing order (filled in as the layout is built)."""

    __slots__ = ("boxes", "edges", "height", "title", "width")

    def __init__(self, title: str = "") -> None:
        self.boxes: list[Box] = []
        self.edges: list[Edge] = []
        self.width = 0.0
        self.height = 0.0
        self.title = title

    def box(self, box_id: str) -> Box:
        return next(b for b in self.boxes if b.id == box_id)


def layout(d: Design, shown_sus: int = SHOWN_SUS) -> Layout:
    """The diagram's layout for a design (deterministic: the same design, the same layout), the
    first `shown_sus` scalable units drawn one by one and the rest as one box."""
    out = Layout()
    f, p = d.fabrics.compute, d.platform
    col_w, gap = 4.2, 0.6
    if f is None:
        out.boxes.append(
            Box(
                "su1_nodes",
                0,
                4,
                col_w,
                1.4,
                f"{d.compute.nodes:,} x {p.name}\n"
                f"{d.compute.gpus:,} GPUs on {d.platform.gpu_link}, no scale-out fabric",
                "node",
            )
        )
        sizes: list[int] = [d.compute.nodes]
        shown = 1
    else:
        counts = su_counts(d, f)
        sizes = [c.nodes for c in counts]
        shown = min(len(sizes), max(1, shown_sus))
        _compute(out, d, f, counts, shown, col_w, gap)
    right = (shown + (1 if len(sizes) > shown else 0)) * (col_w + gap)
    _storage(out, d, right, col_w)
    _management(out, d, shown, col_w, gap)
    out.width = max(b.x + b.w for b in out.boxes) + 0.5
    out.height = max(b.y + b.h for b in out.boxes) + 0.5
    planes = f" x {f.planes} planes" if f and f.planes > 1 else ""
    if f and f.plane_split:  # each plane's edges carry every node port's lane, not a share
        planes += (
            f" (each {f.port_speed_gbps:g} Gb/s node port split "
            f"{f.planes} x {f.plane_port_speed_gbps:g} Gb/s)"
        )
    out.title = f"{gpus_text(d)} on {systems_text(d)}" + (
        f": {tech_name(f)} {f.tiers}-tier, {ratio(f.oversubscription)}{planes}" if f else ""
    )
    return out


def _plane_color(f: FabricDesign, k: int) -> str:
    return _PLANE_COLORS[k % len(_PLANE_COLORS)] if f.planes > 1 else "#333333"


def tier_id(f: FabricDesign, tier: str, k: int) -> str:
    """The box of plane `k`'s (0-based) switches of an upper tier: one box a tier on one plane,
    one box a plane on several (each plane is a fabric of its own, spines and core apart)."""
    return tier if f.planes == 1 else f"{tier}_p{k + 1}"


def _per_plane(count: int, f: FabricDesign) -> int:
    return count // f.planes if f.planes > 1 else count


def _upper_tiers(out: Layout, d: Design, f: FabricDesign, total_w: float) -> None:
    pgap = 0.2
    w = (total_w - pgap * (f.planes - 1)) / f.planes
    for k in range(f.planes):
        x = k * (w + pgap)
        plane = f"plane {k + 1}: " if f.planes > 1 else ""
        color = _plane_color(f, k)
        if f.tiers == 3:
            out.boxes.append(
                Box(
                    tier_id(f, "core", k),
                    x,
                    0,
                    w,
                    0.9,
                    plane
                    + switch_count(
                        d,
                        _per_plane(f.core_switches, f),
                        "core",
                        f"{tier_switch(d, 'core')} core switches",
                        f.planes,
                    ),
                    "switch",
                    stroke=color,
                )
            )
        if f.tiers < 2:
            continue
        groups = _per_plane(f.pods or 0, f)
        out.boxes.append(
            Box(
                tier_id(f, "spine", k),
                x,
                1.5,
                w,
                0.9,
                plane
                + switch_count(
                    d,
                    _per_plane(f.spine_switches, f),
                    "spine",
                    f"{tier_switch(d, 'spine')} spine switches",
                    f.planes,
                )
                # a 3-tier fabric's spines are groups (pods), each under the core
                + (
                    f" in {groups:,} groups of {f.spines_per_pod}"
                    if groups and f.spines_per_pod
                    else ""
                ),
                "switch",
                stroke=color,
            )
        )
        if f.tiers == 3:
            out.edges.append(
                Edge(
                    tier_id(f, "core", k),
                    tier_id(f, "spine", k),
                    f"{_per_plane(f.spine_core_links, f):,} links",
                    color,
                )
            )


def _node_edge_label(f: FabricDesign, c: SuCounts) -> str:
    """The links of one plane into one SU's leaves: the nodes', and the fabric managers' where
    they land there."""
    label = f"{c.node_links:,} x {f.plane_port_speed_gbps:g} Gb/s"
    if c.fabric_manager_links:
        label += f"\n+ {plural(c.fabric_manager_links, 'fabric-manager link')}"
    return label


def _pair_links(f: FabricDesign) -> str:
    """A switch pair with no spine: the links joining the two, per plane."""
    if not f.inter_switch_links:
        return ""
    return f"\njoined by {plural(f.inter_switch_links // max(1, f.planes), 'inter-switch link')}"


def _su_column(
    out: Layout, d: Design, f: FabricDesign, i: int, c: SuCounts, x: float, col_w: float
) -> None:
    """One scalable unit: a leaf box per plane (rails numbered) over its nodes."""
    kind = "rail leaves" if f.rail_optimized else "leaves"
    # a plane's box is narrow: its label wraps to a line more, which the rail cells must clear
    plane_h, pgap = (1.1 if f.planes == 1 else 1.4), 0.2
    plane_w = (col_w - pgap * (f.planes - 1)) / f.planes
    for k in range(f.planes):
        label = f"SU {i + su_offset(d)}" if f.su_nodes else "Leaves"
        label += f"\nplane {k + 1}" if f.planes > 1 else ""
        out.boxes.append(
            Box(
                f"su{i}_p{k + 1}",
                x + k * (plane_w + pgap),
                3.0,
                plane_w,
                plane_h,
                f"{label}: "
                + (
                    switch_count(
                        d, c.leaves, "leaf", f"{model_name(f.leaf_switch)} {kind}", f.planes
                    )
                    if not f.su_nodes
                    else f"{c.leaves:,} x {model_name(f.leaf_switch)} {kind}"
                )
                + rail_words(f, c.leaves)
                + _pair_links(f),
                "switch",
                (f.rails or c.leaves) if f.rail_optimized else 0,
                stroke=_plane_color(f, k),
            )
        )
    out.boxes.append(
        Box(
            f"su{i}_nodes",
            x,
            3.0 + plane_h + 0.8,
            col_w,
            1.3,
            f"{'Scalable unit ' + str(i + su_offset(d)) if f.su_nodes else 'Nodes'}\n"
            f"{c.nodes:,} x {d.platform.name}\n{c.nodes * d.platform.gpus_per_node:,} GPUs",
            "node",
        )
    )
    for k in range(f.planes):
        color = _plane_color(f, k)
        out.edges.append(Edge(f"su{i}_p{k + 1}", f"su{i}_nodes", _node_edge_label(f, c), color))
        if f.tiers >= 2:
            out.edges.append(
                Edge(tier_id(f, "spine", k), f"su{i}_p{k + 1}", f"{c.uplinks:,} links", color)
            )


def _more_box(
    out: Layout,
    d: Design,
    f: FabricDesign,
    first: int,
    rest: list[SuCounts],
    x: float,
    col_w: float,
) -> None:
    """The SUs past the ones drawn, as one box with what they hold together."""
    c = merged(rest)
    first += su_offset(d)
    span = f"SU {first}" if len(rest) == 1 else f"SUs {first}-{first + len(rest) - 1}"
    planes = " per plane" if f.planes > 1 else ""
    kind = "rail leaves" if f.rail_optimized else "leaves"
    fm = (
        f", {plural(c.fabric_manager_links, 'fabric-manager link')}"
        if c.fabric_manager_links
        else ""
    )
    out.boxes.append(
        Box(
            "su_more",
            x,
            3.0,
            col_w,
            1.6,
            f"... {plural(len(rest), 'more scalable unit')} ({span})\n"
            f"{plural(c.nodes, 'node')}, {c.nodes * d.platform.gpus_per_node:,} GPUs\n"
            f"{c.leaves:,} x {model_name(f.leaf_switch)} {kind}{planes}\n"
            f"{c.node_links:,} x {f.plane_port_speed_gbps:g} Gb/s node links{planes}{fm}",
            "more",
        )
    )
    if f.tiers >= 2:
        for k in range(f.planes):
            out.edges.append(
                Edge(tier_id(f, "spine", k), "su_more", f"{c.uplinks:,} links", _plane_color(f, k))
            )


def _compute(
    out: Layout,
    d: Design,
    f: FabricDesign,
    counts: list[SuCounts],
    shown: int,
    col_w: float,
    gap: float,
) -> None:
    total_w = (shown + (1 if len(counts) > shown else 0)) * (col_w + gap) - gap
    _upper_tiers(out, d, f, total_w)
    for i, c in enumerate(counts[:shown], start=1):
        _su_column(out, d, f, i, c, (i - 1) * (col_w + gap), col_w)
    if len(counts) > shown:
        _more_box(out, d, f, shown + 1, counts[shown:], shown * (col_w + gap), col_w)


def _nodes_ids(out: Layout) -> list[str]:
    return [b.id for b in out.boxes if b.id.endswith("_nodes") or b.id == "su_more"]


def _bus(out: Layout, bus_id: str, y: float, right: float, color: str) -> None:
    """A line under every SU's nodes that a shared network hangs from (one drop per SU)."""
    out.boxes.append(Box(bus_id, 0, y, right, 0.04, "", "bus", stroke=color))
    for nid in _nodes_ids(out):
        out.edges.append(Edge(nid, bus_id, "", color))


#: the gap between boxes joined sideways, room for an edge label
_LABEL_GAP = 1.2


def _storage_fabric_name(d: Design) -> str:
    """'Storage and in-band fabric' where the storage fabric carries in-band management too
    (the converged north-south fabric of the Enterprise RAs), else 'Storage fabric'."""
    carried = {n.network for n in d.fabrics.networks if n.carried_by == "storage"}
    return "Storage and in-band fabric" if "in-band management" in carried else "Storage fabric"


def _storage(out: Layout, d: Design, right: float, col_w: float) -> None:
    s, st = d.fabrics.storage, d.storage
    # the appliance's product name (not its catalog id)
    system = st.appliances.name if st.appliances else str(st.file_system.system)
    owner = storage_owner(d)
    if owner:  # the customer's or the installation's storage: none of it quoted
        system = owner
    count = f"{st.appliances.count} x " if st.appliances and not owner else ""
    sys_label = (
        f"Storage: {count}{system}\nread {bandwidth(st.targets.read_gb_per_s)}, "
        f"write {bandwidth(st.targets.write_gb_per_s)}"
    )
    nodes_bottom = max(b.y + b.h for b in out.boxes)
    leaf_y = min((b.y for b in out.boxes if b.id.startswith("su")), default=3.0)
    gold = "#b8860b"
    if s is None:
        carrier = next((r.carried_by for r in d.fabrics.networks if r.network == "storage"), "")
        via = "over the compute fabric"
        if carrier == "node":  # a single-node footprint: the site's storage, not one of ours
            sys_label = (
                "Site storage (not in this design)\nneeds read "
                f"{bandwidth(st.targets.read_gb_per_s)}, write {bandwidth(st.targets.write_gb_per_s)}"
            )
            via = "the node's north-south ports"
        _bus(out, "sbus", nodes_bottom + 0.4, right + col_w / 2, gold)
        out.boxes.append(Box("ssys", right, leaf_y, col_w, 1.3, sys_label, "storage"))
        out.edges.append(Edge("ssys", "sbus", via, gold))
        return
    node_links = sum(
        g.links for g in d.links if g.fabric == "storage" and g.a.device == d.platform.name
    )
    out.boxes.append(
        Box(
            "sfabric",
            right,
            leaf_y,
            col_w,
            1.1,
            f"{_storage_fabric_name(d)} ({tech_name(s)}): "
            f"{s.leaf_switches} x {model_name(s.leaf_switch)} leaves"
            + (f", {plural(s.spine_switches, 'spine')}" if s.spine_switches else ""),
            "storage",
        )
    )
    _bus(out, "sbus", nodes_bottom + 0.4, right + col_w, gold)
    out.edges.append(Edge("sfabric", "sbus", f"{node_links:,} node links", gold))
    # a gap wide enough for the edge's label ("1,024 ports") between the two boxes
    out.boxes.append(
        Box("ssys", right + col_w + _LABEL_GAP, leaf_y, col_w, 1.1, sys_label, "storage")
    )
    out.edges.append(Edge("sfabric", "ssys", f"{st.storage_ports:,} ports", gold))


def _host_speed(d: Design, net: ManagementNetwork) -> float:
    """The rate a network's hosts link at (the DGX B200's 200G in-band ports, not the SN5600's
    800G port speed)."""
    return next((g.speed_gbps for g in d.links if g.fabric == net.name), net.port_speed_gbps)


def _tray_ports(d: Design) -> int:
    """The management ports of a rack-scale system's trays (compute trays, NVLink switch trays,
    power shelves: one each), which its in-rack out-of-band switches take."""
    groups = d.inventory.groups if d.inventory is not None else []
    return sum(g.count for g in groups if g.tray is not None)


def _host_ports_text(d: Design, net: ManagementNetwork) -> str:
    """A management network's host ports: where it has in-rack switches, their ports (the
    trays') with the access switches' own, so the box counts every port the switches take."""
    speed = f"{_host_speed(d, net):g} Gb/s"
    trays = _tray_ports(d) if net.in_rack_switches else 0
    if not trays:
        return f"{net.host_ports:,} host ports at {speed}"
    return (
        f"{net.host_ports + trays:,} host ports at {speed}: {trays:,} trays' on the in-rack\n"
        f"switches, {net.host_ports:,} on the access switches"
    )


def _fabric_manager_ends(d: Design) -> str:
    """Where the fabric managers' compute links land: the last SU's leaves (its free node slot)."""
    f = d.fabrics.compute
    if f is None or not f.fabric_manager_links:
        return ""
    sus = f.scalable_units if f.su_nodes else 0
    where = f"SU {sus}'s leaves" if sus else "the compute leaves"
    return f"\n({plural(f.fabric_manager_links, 'link')} to {where})"


def _management(out: Layout, d: Design, shown: int, col_w: float, gap: float) -> None:
    nets = [(k, n) for k, n in (("inband", d.fabrics.inband), ("oob", d.fabrics.oob)) if n]
    bus_y = max(b.y + b.h for b in out.boxes if b.kind != "storage") + 0.4
    y = bus_y + 0.8
    x = 0.0
    if nets:
        span = max(b.x + b.w for b in out.boxes if b.id in _nodes_ids(out))
        _bus(out, "mbus", bus_y, max(span, len(nets) * (col_w + gap)), "#777777")
    for key, net in nets:
        out.boxes.append(
            Box(
                key,
                x,
                y,
                col_w,
                1.4 if net.in_rack_switches else 1.1,
                f"{net.name.capitalize()}: {network_switches(d, net, model_name(net.switch))}\n"
                # the BOM orders only the ones outside the racks: say how the total splits
                + (
                    f"({net.in_rack_switches:,} in the compute racks)\n"
                    if net.in_rack_switches
                    else ""
                )
                + _host_ports_text(d, net),
                "mgmt",
            )
        )
        out.edges.append(Edge(key, "mbus", "", "#777777"))
        x += col_w + gap
    srv = d.servers
    parts = []
    if srv.management_servers:
        parts.append(plural(srv.management_servers, "management server"))
    if srv.fabric_managers:
        parts.append(plural(srv.fabric_managers, "fabric manager") + _fabric_manager_ends(d))
    if not parts:
        return
    storage = next((b for b in out.boxes if b.id == "sfabric"), None)
    if storage is not None:  # beside the storage fabric its north-south ports land on
        x, y = storage.x + storage.w + _LABEL_GAP, storage.y + storage.h + 0.8
    out.boxes.append(Box("servers", x, y, col_w, 1.1, "\n".join(parts), "mgmt"))
    # the servers' own links: those whose host end is the servers' device groups
    servers = {MANAGEMENT_SERVER, FABRIC_MANAGER}
    ports = sum(
        g.links for g in d.links if g.fabric == "storage" and servers.intersection(g.a.groups)
    )
    if storage is not None:
        out.edges.append(Edge("servers", "sfabric", f"{ports:,} links" if ports else "", "#777777"))
    elif nets:
        out.edges.append(Edge("servers", nets[0][0], "", "#777777"))


# ---------------------------------------------------------------- drawing


def _centre(b: Box) -> tuple[float, float]:
    return b.x + b.w / 2, b.y + b.h / 2


def _ends(a: Box, b: Box) -> tuple[tuple[float, float], tuple[float, float]]:
    """Where an edge meets its boxes: top and bottom when one box is above the other and they
    overlap sideways, else the facing sides."""
    if a.x < b.x + b.w and b.x < a.x + a.w:
        lo = max(a.x, b.x)
        hi = min(a.x + a.w, b.x + b.w)
        x = (lo + hi) / 2
        if a.y < b.y:
            return (x, a.y + a.h), (x, b.y)
        return (x, a.y), (x, b.y + b.h)
    if a.y + a.h < b.y or b.y + b.h < a.y:
        # one box wholly above the other, apart sideways (a plane's spines over another SU's
        # leaves): from the upper box's bottom, where it comes nearest, to the lower's top
        upper, lower = (a, b) if a.y < b.y else (b, a)
        x = min(max(lower.x + lower.w / 2, upper.x + 0.1), upper.x + upper.w - 0.1)
        ends = (x, upper.y + upper.h), (lower.x + lower.w / 2, lower.y)
        return ends if upper is a else (ends[1], ends[0])
    (_, ya), (_, yb) = _centre(a), _centre(b)
    if a.x < b.x:
        return (a.x + a.w, ya), (b.x, yb)
    return (a.x, ya), (b.x + b.w, yb)


def rail_cells(leaves: int, room: int = 16) -> list[str]:
    """The numbered cells a leaf box shows, one per rail (the leaf count where the fabric records
    no rails): all of them where they fit, else the first ones, an ellipsis and the last, so the
    last number is the rail count."""
    if leaves <= room:
        return [str(r + 1) for r in range(leaves)]
    return [str(r + 1) for r in range(room - 2)] + ["...", str(leaves)]


def _draw_rails(ax: Any, b: Box) -> None:
    from matplotlib.patches import Rectangle

    # about four cells of 6-point numbers per unit of box width
    cells = rail_cells(b.rails, max(4, min(16, int(b.w * 4))))
    cw = (b.w - 0.2) / len(cells)
    for r, text in enumerate(cells):
        if text != "...":
            ax.add_patch(
                Rectangle(
                    (b.x + 0.1 + r * cw, b.y + b.h * 0.62),
                    cw * 0.9,
                    b.h * 0.28,
                    fc="white",
                    ec="#555555",
                    lw=0.5,
                    zorder=3,
                )
            )
        ax.text(
            b.x + 0.1 + r * cw + cw * 0.45,
            b.y + b.h * 0.76,
            text,
            fontsize=6,
            ha="center",
            va="center",
            zorder=4,
        )


def figure(lay: Layout, chars_per_unit: int = 14) -> Any:
    """The layout as a matplotlib figure (y grows downwards, as in the layout); a box's label
    wraps at `chars_per_unit` characters of 8-point text per unit of box width."""
    from matplotlib.patches import FancyBboxPatch

    from clustergen.engine.report.pictures.charts import subplots

    top = min(b.y for b in lay.boxes) - 0.4
    scale = 1.05
    fig, ax = subplots(figsize=(max(8.0, lay.width * scale), max(4.0, (lay.height - top) * scale)))
    for e in lay.edges:
        a, b = lay.box(e.src), lay.box(e.dst)
        (x1, y1), (x2, y2) = _ends(a, b)
        ax.plot([x1, x2], [y1, y2], color=e.color, lw=1.2, zorder=1)
        if e.label:
            # a slanted line's label sits near its lower end, where no other line meets it
            # (slanted lines converge on the box above)
            t = 0.5 if x1 == x2 or y1 == y2 else (0.75 if y2 > y1 else 0.25)
            ax.text(
                x1 + (x2 - x1) * t,
                y1 + (y2 - y1) * t,
                plot_text(e.label),
                fontsize=7,
                ha="center",
                va="center",
                color=e.color,
                bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none"},
                zorder=3,
            )
    for b in lay.boxes:
        if b.kind == "bus":
            ax.plot([b.x, b.x + b.w], [b.y, b.y], color=b.stroke, lw=2.5, zorder=1)
            continue
        ax.add_patch(
            FancyBboxPatch(
                (b.x, b.y),
                b.w,
                b.h,
                boxstyle="round,pad=0.02",
                fc=_FILL[b.kind],
                ec=b.stroke,
                lw=1.5 if b.stroke != "#333333" else 1,
                zorder=2,
            )
        )
        text_y = b.y + (b.h * 0.38 if b.rails else b.h / 2)
        ax.text(
            b.x + b.w / 2,
            text_y,
            plot_text(b.label, max(16, int(b.w * chars_per_unit))),
            ha="center",
            va="center",
            fontsize=8,
            zorder=4,
        )
        if b.rails:
            _draw_rails(ax, b)
    ax.set_xlim(-0.3, lay.width)
    ax.set_ylim(lay.height, top)
    ax.axis("off")
    ax.set_title(plot_text(lay.title), fontsize=11)
    return fig


def topology_png(d: Design) -> bytes:
    """The topology picture as PNG bytes."""
    from clustergen.engine.report.pictures.charts import png

    return png(figure(layout(d)))


def topology_svg(d: Design) -> bytes:
    """The topology picture as SVG (no date or random ids in the file: same design, same bytes)."""
    return _svg(figure(layout(d)))


def topology_svg_png(d: Design) -> tuple[bytes, bytes]:
    """The topology picture as SVG and as PNG, from one figure (laid out and built once)."""
    from clustergen.engine.report.pictures.charts import png

    fig = figure(layout(d))
    return _svg(fig), png(fig)


def _svg(fig: Any) -> bytes:
    import matplotlib

    buf = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": "clustergen", "svg.fonttype": "none"}):
        fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    return buf.getvalue()


def drawio_xml(d: Design) -> str:
    """The topology as a draw.io (diagrams.net) file: the same boxes and edges, editable."""
    lay = layout(d)
    px = 60.0
    cells = ['<mxCell id="0"/>', '<mxCell id="1" parent="0"/>']
    for b in lay.boxes:
        style = f"rounded=1;whiteSpace=wrap;html=0;fillColor={_FILL[b.kind]};strokeColor={b.stroke};fontSize=11;"
        cells.append(
            f'<mxCell id="{b.id}" value="{xml_text(b.label)}" style="{style}" vertex="1" parent="1">'
            f'<mxGeometry x="{b.x * px:.0f}" y="{b.y * px:.0f}" width="{b.w * px:.0f}" '
            f'height="{b.h * px:.0f}" as="geometry"/></mxCell>'
        )
    for i, e in enumerate(lay.edges):
        style = f"endArrow=none;html=0;strokeColor={e.color};fontSize=9;"
        cells.append(
            f'<mxCell id="e{i}" value="{xml_text(e.label)}" style="{style}" edge="1" parent="1" '
            f'source="{e.src}" target="{e.dst}"><mxGeometry relative="1" as="geometry"/></mxCell>'
        )
    body = "".join(cells)
    return (
        '<mxfile host="clustergen">'
        f'<diagram id="topology" name="{xml_text(lay.title)}">'
        f'<mxGraphModel dx="0" dy="0" grid="1" gridSize="10" page="0"><root>{body}</root>'
        "</mxGraphModel></diagram></mxfile>\n"
    )
