"""The rack plan: every rack with its devices at their positions and the rack's power, as the
data-centre team imports it (`rack_plan.csv`, NetBox device-import columns) and as pictures (one
elevation per rack type in `racks.png`), and the design's cables one by one
(`netbox_cables.csv`); the link groups' schedule is `cable_schedule.py`'s.

All of it is a projection of the design's inventory (`Design.inventory`): the device groups
sizing counted and the racks placement filled (engine/sizing/placement.py holds the rules).
"""

from __future__ import annotations

import csv
import io
from typing import NamedTuple

from clustergen.engine.model.design import Design
from clustergen.engine.model.fabric import FabricDesign
from clustergen.engine.model.inventory import DeviceGroup, Role, device_name, unfolded
from clustergen.engine.model.links import LinkGroup
from clustergen.engine.report.files.device_types import (
    PLACEHOLDER_MAKER,
    device_types_yaml,
    interface,
    manufacturer,
    model,
)
from clustergen.engine.report.plain_text import cell_text

#: usable rack units in a network, management or storage rack (placement's rule)
USABLE_U = 36
#: a server of unknown height: the estimate the placement holds for it
SERVER_RACK_UNITS = 2


class Device(NamedTuple):
    """One device at its place."""

    name: str
    kind: str  # what it is (model name)
    position: int  # lowest U it occupies (1-based; 0: a vertical PDU, no U)
    height: int
    power_w: float | None
    height_known: bool = True
    role: Role | None = None  # what it is to the racks (the inventory's role table)
    maker: str = PLACEHOLDER_MAKER  # the NetBox manufacturer (device_types.manufacturer)
    vendor: str | None = None  # the catalog's vendor, where `maker` cannot name one maker
    group: str = ""  # the inventory's device group


class Rack(NamedTuple):
    """One rack and what it holds."""

    name: str
    role: Role  # compute, network, management, storage, cooling
    height_u: int
    devices: list[Device]
    power_w: float | None = None
    power_complete: bool = True


def rack_plan(d: Design) -> list[Rack]:
    """Every rack of the design, compute racks first, then the rows' in-row CDU positions and the
    network, management and storage racks, as the inventory places them."""
    if d.inventory is None:
        return []
    groups = {g.id: g for g in d.inventory.groups}
    out = []
    for placed in unfolded(d.inventory.racks):
        devices: list[Device] = []
        for run in placed.runs:
            g = groups[run.group]
            made, kind = manufacturer(g), model(g)
            for k in range(run.count):
                devices.append(
                    Device(
                        device_name(g.id, run.first + k),
                        kind,
                        run.position + k * run.pitch,
                        run.height,
                        g.unit_power_w,
                        g.rack_units_known,
                        role=g.role,
                        maker=made,
                        vendor=g.vendor,
                        group=g.id,
                    )
                )
        out.append(
            Rack(
                placed.name,
                placed.role,
                placed.height_u,
                devices,
                placed.power_w,
                placed.power_complete,
            )
        )
    return out


def rack_plan_csv(d: Design) -> str:
    """The rack plan as NetBox device-import CSV (name, role, manufacturer, device_type, site,
    rack, position, face, status, description with height and power)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(
        [
            "name",
            "role",
            "manufacturer",
            "device_type",
            "site",
            "rack",
            "position",
            "face",
            "status",
            "description",
        ]
    )
    group_of = device_groups_by_name(d)
    cabled = cabled_ports(d)
    for rack in rack_plan(d):
        for x in rack.devices:
            # the device type names its ports as the cables use them (device_types.model)
            kind = model(group_of[x.name], cabled.get(x.group, 0))
            power = "power unknown" if x.power_w is None else f"{x.power_w:,.0f} W"
            # a maker to choose says from what: the catalog's class of makers, or none named
            open_maker = (
                f"; manufacturer to choose ({x.vendor or 'no catalog part'})"
                if x.maker == PLACEHOLDER_MAKER
                else ""
            )
            height = f"{x.height}U" + ("" if x.height_known else " (height unknown, estimate)")
            w.writerow(
                [
                    cell_text(x.name),
                    cell_text(x.role),  # a server packed into a network rack is still management
                    cell_text(x.maker),
                    cell_text(kind),
                    "site",
                    cell_text(rack.name),
                    x.position or "",  # a vertical PDU takes no U and no face
                    "front" if x.height else "",
                    "planned",
                    cell_text(f"{height}; {power}{open_maker}; rack power {_rack_kw(rack)}"),
                ]
            )
    return buf.getvalue()


def _rack_kw(rack: Rack) -> str:
    if rack.power_w is None:
        return "unknown"
    return ("" if rack.power_complete else "at least ") + f"{rack.power_w / 1e3:,.1f} kW"


# ---------------------------------------------------------------- NetBox cables


def device_groups_by_name(d: Design) -> dict[str, DeviceGroup]:
    """Each rack-plan device's group, by the device's name, and each standing device's (an
    increment's links may end on one)."""
    groups = {g.id: g for g in d.inventory.groups} if d.inventory else {}
    out = {name: groups[gid] for gid, names in standing_names(d).items() for name in names}
    out.update({x.name: groups[x.group] for r in rack_plan(d) for x in r.devices})
    return out


def standing_names(d: Design) -> dict[str, list[str]]:
    """The devices of each group that already stand (an increment's), by name: not in the rack
    plan, but a new device's link may end on one."""
    groups = d.inventory.groups if d.inventory else []
    return {
        g.id: [device_name(g.id, i) for i in range(1, g.standing + 1)] for g in groups if g.standing
    }


def cabled_ports(d: Design) -> dict[str, int]:
    """The most interfaces a device of each placed group cables (0: none), the most over the
    groups of one part, so a part is one device type."""
    group_of = device_groups_by_name(d)
    out = {g.id: 0 for g in group_of.values()}
    for _, cables in design_cables(d):
        for a, n_a, b, n_b in cables:
            for name, n in ((a, n_a), (b, n_b)):
                gid = group_of[name].id
                out[gid] = max(out[gid], n)
    most: dict[str, int] = {}
    for group in group_of.values():
        if group.part:
            most[group.part] = max(most.get(group.part, 0), out[group.id])
    return {h.id: most[h.part] if h.part else out[h.id] for h in group_of.values()}


def device_types_yaml_of(d: Design) -> str:
    """`netbox_device_types.yaml`: the device types the bundle ships."""
    return device_types_yaml(d.inventory.groups if d.inventory else [], cabled_ports(d))


def names_by_group(racks: list[Rack]) -> dict[str, list[str]]:
    """The rack plan's device names of each device group, in order."""
    out: dict[str, list[str]] = {}
    for rack in racks:
        for x in rack.devices:
            out.setdefault(x.group, []).append(x.name)
    for names in out.values():
        names.sort()
    return out


def end_names(
    g: LinkGroup,
    side: str,
    names: dict[str, list[str]],
    standing: dict[str, list[str]] | None = None,
) -> list[str]:
    """The rack plan's devices at one end of a link group, in group order; where its groups
    have none there, the devices of them that already stand (an increment's link to them)."""
    end = g.a if side == "a" else g.b
    placed = [n for group in end.groups for n in names.get(group, [])]
    return placed or [n for group in end.groups for n in (standing or {}).get(group, [])]


def ranges(names: list[str]) -> list[str]:
    """Names as runs of one family with consecutive numbers ("compute-leaf-001 ..
    compute-leaf-032"), in order; a lone name as is. A run never spans a gap, so it names only
    the devices found."""
    out: list[list[str]] = []

    def follows(prev: str, name: str) -> bool:
        (fa, _, na), (fb, _, nb) = prev.rpartition("-"), name.rpartition("-")
        return fa == fb and na.isdigit() and nb.isdigit() and int(nb) == int(na) + 1

    for name in names:
        if out and follows(out[-1][-1], name):
            out[-1].append(name)
        else:
            out.append([name])
    return [run[0] if len(run) == 1 else f"{run[0]} .. {run[-1]}" for run in out]


def cable_type(g: LinkGroup) -> str:
    """The NetBox cable type of a link group's media."""
    media = g.media.lower()
    if "rj45" in media:
        return "cat6"
    if "dac" in media or "copper" in media:
        return "dac-passive"
    if "aoc" in media:
        return "aoc"
    if "single" in media:
        return "smf-os2"
    if "optical" in media or "multimode" in media:
        return "mmf-om4"
    return ""


#: the link groups whose ports the fabric's layout names
_LAID = {("compute", "node-leaf"), ("compute", "leaf-spine")}


class _Ports:
    """The next free interface of each device (p1, p2, ...), so no port is used twice; a
    standing device's past the interfaces it already cables (`DeviceGroup.standing_ports`)."""

    def __init__(self, used: dict[str, int] | None = None) -> None:
        self.base: dict[str, int] = dict(used or {})
        self.used: dict[str, int] = dict(self.base)

    def take(self, device: str, port: int | None = None) -> int:
        n = port + self.base.get(device, 0) if port is not None else self.used.get(device, 0) + 1
        self.used[device] = max(self.used.get(device, 0), n)
        return n


def netbox_cables_csv(d: Design) -> str:
    """Every link of the design, one by one, in NetBox cable-import columns: both ends' devices
    as the rack plan names them and an interface on each (p1, p2, ... in the order links take
    them, each used once). The compute fabric is cabled as the RA lays it out (rail-optimized:
    port r of every node in an SU to a leaf of that SU's rail r; leaf uplinks spread evenly over
    the spines); every other group spreads its links evenly over the devices at each end, in
    order."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(
        [
            "side_a_device",
            "side_a_type",
            "side_a_name",
            "side_b_device",
            "side_b_type",
            "side_b_name",
            "type",
            "status",
            "label",
        ]
    )
    iface = "dcim.interface"
    rows = 0
    # a design's thousands of cables name the same few hundred devices and interfaces: each
    # text is made safe once for this file (a memo that lives only while the file is written)
    safe: dict[str, object] = {}

    def cell(text: str) -> object:
        if text not in safe:
            safe[text] = cell_text(text)
        return safe[text]

    group_of = device_groups_by_name(d)
    cabled = cabled_ports(d)
    for g, cables in design_cables(d):
        for a, n_a, b, n_b in cables:
            rows += 1
            ga, gb = group_of[a], group_of[b]
            a_port = interface(ga, n_a, cabled.get(ga.id, 0))
            b_port = interface(gb, n_b, cabled.get(gb.id, 0))
            w.writerow(
                [cell(v) for v in (a, iface, a_port, b, iface, b_port, cable_type(g), "planned")]
                + [f"C{rows:05d}"]
            )
    return buf.getvalue()


def design_cables(d: Design) -> list[tuple[LinkGroup, list[tuple[str, int, str, int]]]]:
    """Every link group with its links one by one: (device, interface, device, interface), the
    devices as the rack plan names them, each interface used once."""
    names, standing = names_by_group(rack_plan(d)), standing_names(d)
    groups = {g.id: g for g in d.inventory.groups} if d.inventory else {}
    ports = _Ports(
        {n: groups[gid].standing_ports or 0 for gid, each in standing.items() for n in each}
    )
    # the compute fabric's laid-out links first: they name their ports, the rest take the next
    laid = sorted(d.links, key=lambda g: (g.fabric, g.segment) not in _LAID)
    return [(g, _cables(d, g, names, standing, ports)) for g in laid]


def _cables(
    d: Design,
    g: LinkGroup,
    names: dict[str, list[str]],
    standing: dict[str, list[str]],
    ports: _Ports,
) -> list[tuple[str, int, str, int]]:
    a, b = end_names(g, "a", names, standing), end_names(g, "b", names, standing)
    if not a or not b or not g.links:
        return []
    if g.fabric == "compute":
        laid = _compute_cables(d, g, a, b, ports)
        if laid:
            return laid
    out = []
    if g.a.groups == g.b.groups:  # a pair's own links: device 2k to device 2k + 1
        for i in range(g.links):
            x, y = a[(2 * i) % len(a)], a[(2 * i + 1) % len(a)]
            out.append((x, ports.take(x), y, ports.take(y)))
        return out
    spread = _spread(len(a), len(b), g.links)
    if spread:
        return [(a[x], ports.take(a[x]), b[y], ports.take(b[y])) for x, y in spread]
    for i in range(g.links):
        x = a[i * len(a) // g.links]
        y = b[i * len(b) // g.links]
        out.append((x, ports.take(x), y, ports.take(y)))
    return out


def _spread(a: int, b: int, links: int) -> list[tuple[int, int]]:
    """(a index, b index) for links where every a-end device has the same number of them, each
    to a different b device: a host dual-homed to a redundant pair reaches both switches of its
    pair (hosts spread evenly over the pairs), a leaf's uplinks reach every spine alike. None
    where the counts do not lay out so (the caller then spreads the links in order)."""
    each, rest = divmod(links, a)  # the caller has devices at both ends
    if rest or each < 2:
        return []
    if b % each == 0:  # groups of `each` switches, a host on one group, one link to each
        groups = b // each
        return [(h, (h * groups // a) * each + j) for h in range(a) for j in range(each)]
    if each % b == 0:  # more links than switches: round robin over them all
        return [(h, j % b) for h in range(a) for j in range(each)]
    return []


def _compute_cables(
    d: Design, g: LinkGroup, a: list[str], b: list[str], ports: _Ports
) -> list[tuple[str, int, str, int]]:
    """The compute fabric's node-leaf links rail by rail and its leaf-spine links spread evenly,
    where the fabric's figures lay out so; none otherwise."""
    f = d.fabrics.compute
    if f is None:
        return []
    if g.segment == "node-leaf" and len(b) == f.leaf_switches and g.links == f.node_links:
        per_host = g.links // len(a)
        # a rack-scale system's hosts are its compute trays: an SU holds its systems' trays
        su_hosts = (f.su_nodes or 0) * (len(a) // max(1, d.compute.nodes))
        return [
            (a[n], ports.take(a[n], p + 1), b[leaf], ports.take(b[leaf], port))
            for n, p, leaf, port in _node_ports(f, len(a), per_host, su_hosts)
        ]
    if g.segment == "leaf-spine" and len(a) == f.leaf_switches and len(b) == f.spine_switches:
        return [
            (
                a[leaf],
                ports.take(a[leaf], f.leaf_downlinks + up + 1),
                b[spine],
                ports.take(b[spine], port),
            )
            for leaf, up, spine, port in _uplinks(f)
        ]
    return []


def _node_ports(
    f: FabricDesign, hosts: int, per_host: int, su_hosts: int
) -> list[tuple[int, int, int, int]]:
    """(host, host port, leaf index, leaf port) for every host link, or none where the fabric's
    figures do not lay out evenly. On a rail-optimized fabric port p of a host is on rail p (of
    the rails and planes the fabric records, else one rail an SU leaf); a rail of several leaves
    (the GB200 SuperPOD's leaf per rack on each of its 4 rails) fills them in turn, so each host
    reaches one leaf per rail."""
    out = []
    leaves = (f.leaves_per_su or 0) * f.planes  # an SU's leaves, every plane's
    groups = (f.rails or 0) * f.planes  # rails, each plane's its own
    if not groups or leaves % groups:
        groups = leaves  # one rail a leaf (or several rails on each of fewer leaves)
    rail_leaves = leaves // groups if groups else 0
    per_rail = -(-per_host // max(1, groups))  # a host's ports on one rail
    for n in range(hosts):
        for p in range(per_host):
            if f.rail_optimized and su_hosts and rail_leaves:
                su, i = divmod(n, su_hosts)
                rail, k = p % groups, p // groups
                j, port0 = divmod(i * per_rail + k, max(1, f.leaf_downlinks))
                if j >= rail_leaves:
                    return []
                leaf = su * leaves + rail * rail_leaves + j
            else:
                leaf, port0 = divmod(n * per_host + p, max(1, f.leaf_downlinks))
            port = port0 + 1
            if leaf >= f.leaf_switches or port > f.leaf_downlinks:
                return []
            out.append((n, p, leaf, port))
    return out


def _uplinks(f: FabricDesign) -> list[tuple[int, int, int, int]]:
    """(leaf, uplink, spine, spine port): each plane's leaves spread evenly over its spines, or
    over their group's where a leaf reaches fewer than all (`links_per_leaf_spine_pair` links to
    each of leaf_uplinks / that spines: the GB200 SuperPOD's spine-leaf groups, a rail's 8
    leaves under its 6 spines), groups in order."""
    per_plane_leaves = f.leaf_switches // f.planes
    per_plane_spines = f.spine_switches // f.planes
    up = f.leaf_spine_links // max(1, f.leaf_switches)
    pair = f.links_per_leaf_spine_pair or 0
    reach = up // pair if pair and up % pair == 0 else per_plane_spines  # spines a leaf reaches
    if not reach or per_plane_spines % reach or up % reach:
        return []
    groups = per_plane_spines // reach
    if per_plane_leaves % groups:
        return []
    group_leaves = per_plane_leaves // groups
    each = up // reach
    out = []
    for leaf in range(f.leaf_switches):
        plane, j = divmod(leaf, per_plane_leaves)
        group, j = divmod(j, group_leaves)
        first = plane * per_plane_spines + group * reach
        for u in range(up):
            out.append((leaf, u, first + u % reach, j * each + u // reach + 1))
    return out
