"""The rack plan: every rack with its devices at their positions and the rack's power, as the
data-centre team imports it (`rack_plan.csv`, NetBox device-import columns) and as pictures (one
elevation per rack type in `racks.png`), and the compute fabric's cables one by one
(`netbox_cables.csv`); the link groups' schedule is `cable_schedule.py`'s.

Rules:
- compute racks hold the nodes from U2 up, one free U between nodes, the in-rack management
  switches at the top; a rack-scale system's trays fill its rack in the order NVIDIA's rack
  pictures show (power shelves at the top and bottom, compute trays around the NVLink switch
  trays), positions indicative;
- switches go to network racks, management servers and fabric managers to management racks,
  storage appliances to storage racks, each filled from U3 up to 36 usable U, in BOM order, a
  device family (one BOM line's devices) whole in the first of the racks counted with room for
  it, split only where none has;
  a design with no network rack (they fit a compute rack) has them above the last rack's nodes;
- an in-row CDU takes a rack position in its row (a cabinet of the compute racks' height, its
  height and power not in the catalog, so flagged);
- a device of unknown height holds an estimate (a switch 1U, a server the racks section's 2U) and
  is flagged; a rack's power is the sum of its devices'
  (the compute rack's is the design's), marked "at least" when a device's power is unknown.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from clustergen.engine.model.bom import BomLine
from clustergen.engine.model.design import Design
from clustergen.engine.model.fabric import FabricDesign
from clustergen.engine.report.safe_text import cell_text

#: usable rack units in a network, management or storage rack (racks.py's estimate)
USABLE_U = 36
#: a server of unknown height: the racks section's stated estimate (sizing/racks.py, which the
#: report layer may not import), so the plan fills the racks the design counted
SERVER_RACK_UNITS = 2
#: height of a network, management or storage rack (the RAs' 48U minimum)
RACK_U = 48
#: the manufacturer of a device whose maker the catalog leaves open (a generic line, an OEM class)
TO_CHOOSE = "to choose"
_ROLE_OF = {
    "switch": "network",
    "management-server": "management",
    "fabric-manager": "management",
    "storage": "storage",
}


@dataclass
class Device:
    """One device at its place."""

    name: str
    kind: str  # what it is (model name)
    position: int  # lowest U it occupies (1-based)
    height: int
    power_w: float | None
    height_known: bool = True
    role: str = ""  # network, management or storage outside the compute racks ("": the rack's)
    maker: str = TO_CHOOSE  # the manufacturer a device import names (see `maker`)
    vendor: str | None = None  # the catalog's vendor, where `maker` cannot name one maker
    line: str = ""  # the BOM line it comes from (its tier and fabric), where not a node's


@dataclass
class Rack:
    """One rack and what it holds."""

    name: str
    role: str  # compute, network, management, storage
    height_u: int
    devices: list[Device] = field(default_factory=list)
    power_w: float | None = None
    power_complete: bool = True


def maker(line: BomLine | None) -> str:
    """The manufacturer a device row names: the catalog entry's vendor where it is one maker;
    "to choose" where the BOM line is to choose, names no catalog part, or its vendor is a class
    of makers (an OEM, a generic unit), as the BOM leaves it for the buyer to settle."""
    vendor = line.vendor if line is not None else None
    if line is None or line.status == TO_CHOOSE or not vendor:
        return TO_CHOOSE
    if vendor.lower() == "generic" or "OEM" in vendor.split() or "(OEM)" in vendor:
        return TO_CHOOSE
    return vendor


def _line_of(d: Design, part: str | None, category: str | None = None) -> BomLine | None:
    """The first BOM line of a catalog part (or, with no part, of a category)."""
    return next(
        (
            ln
            for ln in d.bom
            if (part is not None and ln.part == part)
            or (part is None and category is not None and ln.category == category)
        ),
        None,
    )


def _compute_racks(d: Design) -> list[Rack]:
    plan, sysname = d.racks.compute, d.platform.name
    node_line = _line_of(d, d.platform.system)
    node_maker, node_vendor = maker(node_line), node_line.vendor if node_line else None
    oob_maker = maker(_line_of(d, d.fabrics.oob.switch)) if d.fabrics.oob else TO_CHOOSE
    oob = d.fabrics.oob
    in_rack = (oob.in_rack_switches // max(1, plan.compute_racks)) if oob else 0
    included = [ln for ln in d.bom if ln.category == "included" and ln.unit_rack_units]
    racks, left, n = [], d.compute.nodes, 0
    for i in range(plan.compute_racks):
        rack = Rack(f"compute-{i + 1:03d}", "compute", plan.rack_units)
        here = min(plan.nodes_per_rack, left)
        left -= here
        if included and plan.nodes_per_rack == 1:
            rack.devices += _rack_scale(included, d.compute.nodes, rack.name, node_maker)
        else:
            u = 2
            height = plan.node_rack_units or max(1, (plan.rack_units - 4) // max(1, here) - 1)
            for _ in range(here):
                n += 1
                rack.devices.append(
                    Device(
                        f"node-{n:04d}",
                        sysname,
                        u,
                        height,
                        d.compute.node_power.node_w,
                        plan.node_rack_units is not None,
                        maker=node_maker,
                        vendor=node_vendor,
                    )
                )
                u += height + 1
        for k in range(in_rack):
            rack.devices.append(
                Device(
                    f"{rack.name}-oob-{k + 1}",
                    (oob.switch if oob else "").upper(),
                    plan.rack_units - k,
                    1,
                    None,
                    role="network",  # a switch, though the compute rack holds it
                    maker=oob_maker,
                    line="out-of-band management switch in the compute rack",
                )
            )
        rack.power_w = plan.rack_power_kw * 1e3 * (here / max(1, plan.nodes_per_rack))
        racks.append(rack)
    return racks


def _rack_scale(
    included: list[BomLine], systems: int, rack: str, system_maker: str
) -> list[Device]:
    """A rack-scale system's trays: half the power shelves at the bottom, then the compute trays
    split around the switch trays, then the other power shelves (NVIDIA's rack front view). A
    tray is the system's maker's where its line names no catalog part of its own."""
    per = {ln.description.split(" (")[0]: (ln.quantity // max(1, systems), ln) for ln in included}
    shelves = [k for k in per if "power shelf" in k]
    trays = [k for k in per if "compute tray" in k]
    switches = [k for k in per if "switch tray" in k]
    order: list[tuple[str, int]] = []
    for k in shelves:
        order.append((k, per[k][0] // 2))
    for k in trays:
        order.append((k, per[k][0] // 2))
    for k in switches:
        order.append((k, per[k][0]))
    for k in trays:
        order.append((k, per[k][0] - per[k][0] // 2))
    for k in shelves:
        order.append((k, per[k][0] - per[k][0] // 2))
    out, u, seen = [], 3, dict.fromkeys(per, 0)
    for kind, count in order:
        h = per[kind][1].unit_rack_units or 1
        for _ in range(count):
            seen[kind] += 1
            ln = per[kind][1]
            made = maker(ln) if ln.vendor else system_maker
            out.append(Device(f"{rack}-{_slug(kind)}-{seen[kind]}", kind, u, h, None, maker=made))
            u += h
    return out


def _slug(text: str) -> str:
    head = text.split(",")[0].split(" (")[0].lower()
    return "".join(c if c.isalnum() else "-" for c in head).strip("-")


def _support_devices(d: Design) -> list[tuple[Device, str, bool]]:
    """Every switch, server and appliance outside the compute racks, in BOM order, with its role
    (network, management, storage) and whether it is a leaf (the RA's SU racks hold those)."""
    oob = d.fabrics.oob
    out: list[tuple[Device, str, bool]] = []
    counters: dict[str, int] = {}
    for ln in d.bom:
        role = _ROLE_OF.get(ln.category)
        if role is None or ln.status != "order":
            continue
        count = ln.quantity
        if ln.category == "switch" and oob and oob.name in ln.description:
            # the ones outside the compute racks, whether or not the line buys the in-rack ones
            count = oob.total_switches - oob.in_rack_switches
        leaf = ln.category == "switch" and (
            ln.description.endswith(" leaf") or "management" in ln.description
        )
        # a server of unknown height holds the racks section's 2U estimate, a switch 1U
        height = ln.unit_rack_units or (1 if ln.category == "switch" else SERVER_RACK_UNITS)
        key = ln.part or _slug(ln.description)
        kind = (
            (ln.part or "").upper()
            if ln.category == "switch"
            else ln.description.split(",")[0].split(" (")[0]
        )
        for _ in range(max(0, count)):
            counters[key] = counters.get(key, 0) + 1
            device = Device(
                f"{key}-{counters[key]:03d}",
                kind,
                0,
                height,
                ln.unit_power_w,
                ln.unit_rack_units is not None,
                maker=maker(ln),
                vendor=ln.vendor,
                line=ln.description,
            )
            device.role = role
            out.append((device, role, leaf))
    return out


def _support_racks(d: Design) -> list[Rack]:
    """Network, management and storage racks as the design counts them: with the RA's SU layout
    the leaves split evenly over the SU racks and the rest into the central racks; otherwise
    everything into the racks counted, over 36 usable U, each device family kept in one rack
    where one has room for it. A rack is named by what fills most of it."""
    devices = _support_devices(d)
    su = d.racks.su_network_racks
    racks: list[Rack] = []
    rest = devices
    if su:
        leaves = [x for x in devices if x[2]]
        rest = [x for x in devices if not x[2]]
        per = -(-len(leaves) // su)
        for i in range(su):
            racks += _pack([x[0] for x in leaves[i * per : (i + 1) * per]])
    # the central racks the design counts (never fewer than the devices need)
    central = max(0, d.racks.network_racks - su)
    racks += _pack_families([x[0] for x in rest], central)
    roles = {id(x[0]): x[1] for x in devices}
    counters: dict[str, int] = {}
    for rack in racks:
        units: dict[str, int] = {}
        for x in rack.devices:
            units[roles[id(x)]] = units.get(roles[id(x)], 0) + x.height
        rack.role = max(units, key=lambda r: (units[r], r)) if units else "network"
        counters[rack.role] = counters.get(rack.role, 0) + 1
        rack.name = f"{rack.role}-{counters[rack.role]:02d}"
        known = [x.power_w for x in rack.devices if x.power_w is not None]
        rack.power_w = sum(known)
        rack.power_complete = len(known) == len(rack.devices)
    return racks


def _family(device: Device) -> str:
    """The BOM line a device comes from: its name less the counter."""
    return device.name.rsplit("-", 1)[0]


def _pack_families(devices: list[Device], count: int) -> list[Rack]:
    """Devices into `count` racks of 36 usable U, each family (the devices of one BOM line, in
    BOM order) whole in the first rack with room for all of it, so a team finds the storage
    appliances or the spines together; a family no rack has room for fills the free space in
    order, and a rack is added only where the racks counted cannot hold it all."""
    racks = [Rack("", "network", RACK_U) for _ in range(count)]
    families: dict[str, list[Device]] = {}
    for x in devices:
        families.setdefault(_family(x), []).append(x)
    for family in families.values():
        need = sum(x.height for x in family)
        home = next((r for r in racks if _used(r) + need <= USABLE_U), None)
        for x in family:
            rack = home or next((r for r in racks if _used(r) + x.height <= USABLE_U), None)
            if rack is None:
                rack = Rack("", "network", RACK_U)
                racks.append(rack)
            x.position = 3 + _used(rack)
            rack.devices.append(x)
    return [r for r in racks if r.devices]


def _pack(devices: list[Device]) -> list[Rack]:
    """Devices in order into racks of 36 usable U, from U3 up."""
    racks: list[Rack] = []
    for x in devices:
        if not racks or _used(racks[-1]) + x.height > USABLE_U:
            racks.append(Rack("", "network", RACK_U))
        x.position = 3 + _used(racks[-1])
        racks[-1].devices.append(x)
    return racks


def _used(rack: Rack) -> int:
    return sum(x.height for x in rack.devices)


def _into_compute_rack(d: Design, racks: list[Rack]) -> list[Rack]:
    """A design with no network rack (its switches, servers and storage fit a compute rack's
    free space and power headroom, sizing/racks.py): they go in the last compute rack, above
    its nodes."""
    rack = racks[-1]
    u = 1 + max((x.position + x.height for x in rack.devices if "oob" not in x.name), default=2)
    for device, _role, _leaf in _support_devices(d):
        device.position = u
        u += device.height
        rack.devices.append(device)
        if rack.power_w is not None and device.power_w is not None:
            rack.power_w += device.power_w
        elif device.power_w is None:
            rack.power_complete = False
    return racks


def _cdu_positions(d: Design) -> list[Rack]:
    """The rack positions in-row CDUs take in the rows: a cabinet each, its height and power not
    in the catalog (an estimate: the full rack height, drawn hatched)."""
    c = d.racks.cooling
    if c is None or not c.row_positions:
        return []
    height = d.racks.compute.rack_units
    return [
        Rack(
            f"cdu-{i + 1:02d}",
            "cooling",
            height,
            [
                Device(
                    f"cdu-{i + 1:02d}",
                    c.cdu_name,
                    1,
                    height,
                    c.cdu_power_w,
                    False,
                    maker=maker(_line_of(d, c.cdu)),
                )
            ],
            c.cdu_power_w,
        )
        for i in range(c.row_positions)
    ]


def rack_plan(d: Design) -> list[Rack]:
    """Every rack of the design, compute racks first, then the rows' in-row CDU positions."""
    compute = _compute_racks(d)
    if d.racks.network_racks == 0 and compute:
        return _into_compute_rack(d, compute) + _cdu_positions(d)
    return compute + _cdu_positions(d) + _support_racks(d)


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
    for rack in rack_plan(d):
        for x in rack.devices:
            power = "power unknown" if x.power_w is None else f"{x.power_w:,.0f} W"
            # a maker to choose says from what: the catalog's class of makers, or none named
            open_maker = (
                f"; manufacturer to choose ({x.vendor or 'no catalog part'})"
                if x.maker == TO_CHOOSE
                else ""
            )
            height = f"{x.height}U" + ("" if x.height_known else " (height unknown, estimate)")
            w.writerow(
                [
                    cell_text(x.name),
                    x.role or rack.role,  # a server packed into a network rack is still management
                    cell_text(x.maker),
                    cell_text(x.kind),
                    "site",
                    rack.name,
                    x.position,
                    "front",
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


def _switch_names(d: Design) -> dict[int, list[str]]:
    """BOM line index -> the names its switches get in the rack plan (part-001, ... counted per
    part over the BOM, as `_place` names them)."""
    oob = d.fabrics.oob
    counters: dict[str, int] = {}
    out: dict[int, list[str]] = {}
    for i, ln in enumerate(d.bom):
        if _ROLE_OF.get(ln.category) is None or ln.status != "order":
            continue
        count = ln.quantity
        if ln.category == "switch" and oob and oob.name in ln.description:
            # the ones outside the compute racks, whether or not the line buys the in-rack ones
            count = oob.total_switches - oob.in_rack_switches
        key = ln.part or _slug(ln.description)
        names = []
        for _ in range(max(0, count)):
            counters[key] = counters.get(key, 0) + 1
            names.append(f"{key}-{counters[key]:03d}")
        out[i] = names
    return out


def _tier_names(d: Design, suffix: str) -> list[str]:
    names = _switch_names(d)
    i = next(
        (
            i
            for i, ln in enumerate(d.bom)
            if ln.category == "switch" and ln.description.endswith(suffix)
        ),
        None,
    )
    return names.get(i, []) if i is not None else []


def _cable_type(d: Design, segment: str) -> str:
    g = next((g for g in d.links if g.fabric == "compute" and g.segment == segment), None)
    if g is None or g.cable is None:
        return ""
    kind = next((ln for ln in d.bom if ln.part == g.cable), None)
    desc = kind.description.lower() if kind else ""
    if "fiber" in desc:
        return "smf-os2" if "single" in g.media or "single-mode" in desc else "mmf-om4"
    return "aoc" if "active optical" in desc else ("dac-passive" if "copper" in desc else "")


def netbox_cables_csv(d: Design) -> str:
    """The compute fabric's cables one by one, in NetBox cable-import columns: node port to
    leaf port (rail-optimized: port r of every node in an SU to that SU's leaf r) and leaf uplink
    to spine (uplinks spread evenly, in order). Device names are the rack plan's; interface names
    (p1, p2, ...) are to map onto the device types' own. Rack-scale systems' node links and third
    tiers are left to `cable_schedule.csv`."""
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
    f = d.fabrics.compute
    if f is None:
        return buf.getvalue()
    leaves, spines = _tier_names(d, " leaf"), _tier_names(d, " spine")
    iface = "dcim.interface"
    rows = 0
    named_nodes = d.racks.compute.node_rack_units is not None or d.racks.compute.nodes_per_rack > 1
    per_node = f.node_links // max(1, d.compute.nodes)
    kind = _cable_type(d, "node-leaf")
    if named_nodes and len(leaves) == f.leaf_switches:
        for n, p, leaf, port in _node_ports(f, d.compute.nodes, per_node):
            rows += 1
            w.writerow(
                [
                    f"node-{n + 1:04d}",
                    iface,
                    f"p{p + 1}",
                    leaves[leaf],
                    iface,
                    f"p{port}",
                    kind,
                    "planned",
                    f"C{rows:05d}",
                ]
            )
    if f.tiers == 2 and len(spines) == f.spine_switches and len(leaves) == f.leaf_switches:
        kind = _cable_type(d, "leaf-spine")
        for leaf, up, spine, port in _uplinks(f):
            rows += 1
            w.writerow(
                [
                    leaves[leaf],
                    iface,
                    f"p{f.leaf_downlinks + up + 1}",
                    spines[spine],
                    iface,
                    f"p{port}",
                    kind,
                    "planned",
                    f"C{rows:05d}",
                ]
            )
    return buf.getvalue()


def _node_ports(f: FabricDesign, nodes: int, per_node: int) -> list[tuple[int, int, int, int]]:
    """(node, node port, leaf index, leaf port) for every node link, or none where the fabric's
    figures do not lay out evenly."""
    out = []
    rails = (f.leaves_per_su or 0) * f.planes
    for n in range(nodes):
        for p in range(per_node):
            if f.rail_optimized and f.su_nodes and rails:
                su, i = divmod(n, f.su_nodes)
                leaf = su * rails + p % rails
                port = i * -(-per_node // rails) + p // rails + 1
            else:
                leaf, port0 = divmod(n * per_node + p, max(1, f.leaf_downlinks))
                port = port0 + 1
            if leaf >= f.leaf_switches or port > f.leaf_downlinks:
                return []
            out.append((n, p, leaf, port))
    return out


def _uplinks(f: FabricDesign) -> list[tuple[int, int, int, int]]:
    """(leaf, uplink, spine, spine port): each plane's leaves spread evenly over its spines."""
    per_plane_leaves = f.leaf_switches // f.planes
    per_plane_spines = f.spine_switches // f.planes
    up = f.leaf_spine_links // max(1, f.leaf_switches)
    if per_plane_spines == 0 or up % per_plane_spines:
        return []
    each = up // per_plane_spines
    out = []
    for leaf in range(f.leaf_switches):
        plane, j = divmod(leaf, per_plane_leaves)
        for u in range(up):
            spine = plane * per_plane_spines + u % per_plane_spines
            out.append((leaf, u, spine, j * each + u // per_plane_spines + 1))
    return out
