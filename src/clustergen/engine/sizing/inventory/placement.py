"""Where every device stands: the racks the design counts, each with its devices at their U
positions and its power.

Rules:
- compute racks hold the nodes from U2 up, one free U between nodes, the in-rack management
  switches at the top; a rack-scale system's trays fill its rack in the order NVIDIA's rack
  pictures show (power shelves at the top and bottom, compute trays around the NVLink switch
  trays), positions indicative;
- switches go to network racks, management servers and fabric managers to management racks,
  storage appliances to storage racks, each filled from U3 up to 36 usable U, in the inventory's
  order, a device group whole in the first of the racks counted with room for it, split only
  where none has; with the RA's SU layout the leaves (and the management networks' switches)
  split evenly over the SU racks;
- a design with no network rack (they fit a compute rack) has them above the last rack's nodes;
- an in-row CDU takes a rack position in its row (a cabinet of the compute racks' height);
- PDUs are vertical (no U): each compute rack its share, each other rack the rest in turn;
- a device of unknown height holds an estimate (a switch 1U, a server 2U, a node the rack's
  height shared over its nodes) and is flagged; a rack's power is the sum of its devices' (the
  compute rack's is the design's), "at least" when a device's power is unknown.
"""

from __future__ import annotations

from clustergen.engine.model.design import RacksSection
from clustergen.engine.model.inventory import (
    NODE,
    PARTS,
    DeviceGroup,
    PlacedRack,
    PlacedRun,
    Role,
)

#: usable rack units in a network, management or storage rack (racks.py's estimate)
USABLE_U = 36
#: height of a network, management or storage rack (the RAs' 48U minimum)
RACK_U = 48
#: the lowest U a network rack's devices take (U1-U2 left for cable management)
FIRST_U = 3

PLACEMENT_BASIS = (
    "nodes from U2 up with a free U between them, in-rack switches at the top; a rack-scale "
    "system's trays in NVIDIA's rack front view; switches, servers and storage from U3 up to 36 "
    "usable U, a device group whole in the first rack with room for it, the leaves over the SU "
    "racks where the RA lays them out; positions indicative"
)


class _Item:
    """One device on its way into a rack."""

    __slots__ = ("group", "height", "index", "position")

    def __init__(self, group: DeviceGroup, index: int) -> None:
        self.group = group
        self.index = index
        self.height = group.rack_units
        self.position = 0


class _Rack:
    __slots__ = ("complete", "height", "items", "name", "power_w", "role")

    def __init__(self, role: Role, height: int) -> None:
        self.name = ""
        self.role: Role = role
        self.height = height
        self.items: list[_Item] = []
        self.power_w: float | None = None
        self.complete = True

    def used(self) -> int:
        return sum(x.height for x in self.items)


def place(
    groups: list[DeviceGroup], racks: RacksSection, compute_rack_pdus: int, network_rack_pdus: int
) -> list[PlacedRack]:
    """Every rack of the design: compute racks, the rows' in-row CDU positions, then the
    network, management and storage racks. `*_rack_pdus`: the PDUs each rack of a kind holds."""
    by_id = {g.id: g for g in groups}
    compute = _compute_racks(by_id, racks)
    support = [_Item(g, i + 1) for g in groups if _supported(g) for i in range(_outside(g))]
    cdus = _cdu_positions(_standing(groups, "row"))
    if racks.network_racks == 0 and compute:
        _into_last(compute[-1], support)
        out = compute + cdus
    else:
        out = compute + cdus + _support_racks(support, racks)
    _pdus(out, _standing(groups, "vertical"), len(compute), (compute_rack_pdus, network_rack_pdus))
    return _folded([_placed(r) for r in out])


def _folded(racks: list[PlacedRack]) -> list[PlacedRack]:
    """Alike racks in a row as one with its `repeat`, so a design of thousands of racks stays a
    small section (`unfolded` gives them back one by one)."""
    out: list[PlacedRack] = []
    repeats: list[int] = []  # each folded rack's repeat, set once its run is counted
    for rack in racks:
        if out and _next_of(out[-1], rack, repeats[-1]):
            repeats[-1] += 1
        else:
            out.append(rack)
            repeats.append(rack.repeat)
    return [
        r if n == r.repeat else r.model_copy(update={"repeat": n})
        for r, n in zip(out, repeats, strict=True)
    ]


def _next_of(first: PlacedRack, rack: PlacedRack, repeat: int) -> bool:
    """Whether `rack` is the next rack of the `repeat` alike racks `first` stands for."""
    if (first.role, first.height_u, first.power_w, first.power_complete, len(first.runs)) != (
        rack.role,
        rack.height_u,
        rack.power_w,
        rack.power_complete,
        len(rack.runs),
    ):
        return False
    prefix, _, number = first.name.rpartition("-")
    if not number.isdigit() or rack.name != f"{prefix}-{int(number) + repeat:0{len(number)}d}":
        return False
    per: dict[str, int] = {}
    for run in first.runs:
        per[run.group] = per.get(run.group, 0) + run.count
    return all(
        (a.group, a.count, a.position, a.pitch, a.height)
        == (b.group, b.count, b.position, b.pitch, b.height)
        and b.first == a.first + repeat * per[a.group]
        for a, b in zip(first.runs, rack.runs, strict=True)
    )


def _standing(groups: list[DeviceGroup], stands: str) -> DeviceGroup | None:
    """The group whose kind stands so (one a design: the PDUs, the in-row CDUs)."""
    return next((g for g in groups if PARTS[g.kind].stands == stands), None)


def _supported(g: DeviceGroup) -> bool:
    return PARTS[g.kind].stands == "support" and g.tier != "rack" and g.supply != "storage vendor"


def _on_top(g: DeviceGroup) -> bool:
    """A device each compute rack holds its share of at its top: an in-rack switch, or a kind
    that stands there."""
    return g.tier == "rack" or PARTS[g.kind].stands == "compute-top"


def _outside(g: DeviceGroup) -> int:
    return g.count


def _compute_racks(by_id: dict[str, DeviceGroup], racks: RacksSection) -> list[_Rack]:
    plan = racks.compute
    nodes = by_id[NODE]
    trays = [g for g in by_id.values() if g.tray is not None]
    in_rack = [g for g in by_id.values() if _on_top(g)]
    out, left, n = [], nodes.count, 0
    per_rack = {g.id: g.count // max(1, plan.compute_racks) for g in in_rack}
    for i in range(plan.compute_racks):
        rack = _Rack("compute", plan.rack_units)
        rack.name = f"compute-{i + 1:03d}"
        here = min(plan.nodes_per_rack, left)
        left -= here
        if trays and plan.nodes_per_rack == 1:
            rack.items += _rack_scale(trays, i, nodes.count)
        else:
            height = plan.node_rack_units or max(1, (plan.rack_units - 4) // max(1, here) - 1)
            u = 2
            for _ in range(here):
                n += 1
                item = _Item(nodes, n)
                item.height, item.position = height, u
                rack.items.append(item)
                u += height + 1
        top = plan.rack_units
        for g in in_rack:
            k = per_rack[g.id]
            for j in range(k):
                item = _Item(g, i * k + j + 1)
                item.position = top - k + 1 + j
                rack.items.append(item)
            top -= k
        rack.power_w = plan.rack_power_kw * 1e3 * (here / max(1, plan.nodes_per_rack))
        out.append(rack)
    return out


def _rack_scale(trays: list[DeviceGroup], system: int, systems: int) -> list[_Item]:
    """One system's trays: half the power shelves at the bottom, then the compute trays split
    around the switch trays, then the other power shelves (NVIDIA's rack front view)."""
    kinds = {t: [g for g in trays if g.tray == t] for t in ("power", "compute", "switch")}
    order: list[tuple[DeviceGroup, int, int]] = []  # group, first offset, count
    for t in ("power", "compute"):
        for g in kinds[t]:
            per = g.count // max(1, systems)
            order.append((g, 0, per // 2))
    for g in kinds["switch"]:
        order.append((g, 0, g.count // max(1, systems)))
    for t in ("compute", "power"):
        for g in kinds[t]:
            per = g.count // max(1, systems)
            order.append((g, per // 2, per - per // 2))
    out, u = [], 3
    for g, offset, count in order:
        per = g.count // max(1, systems)
        for k in range(count):
            item = _Item(g, system * per + offset + k + 1)
            item.position = u
            u += item.height
            out.append(item)
    return out


def _into_last(rack: _Rack, support: list[_Item]) -> None:
    """A design with no network rack: its switches, servers and storage above the last compute
    rack's nodes (they fit its free space and power headroom, sizing/racks.py)."""
    u = 1 + max((x.position + x.height for x in rack.items if x.group.tier != "rack"), default=2)
    for item in support:
        item.position = u
        u += item.height
        rack.items.append(item)
        if rack.power_w is not None and item.group.unit_power_w is not None:
            rack.power_w += item.group.unit_power_w
        elif item.group.unit_power_w is None:
            rack.complete = False


def _leaf(g: DeviceGroup) -> bool:
    """A device the RA's SU racks hold: a fabric's leaf, or a management network's switch."""
    return PARTS[g.kind].role == "network" and (
        g.tier == "leaf" or g.network not in ("compute", "storage")
    )


def _support_racks(items: list[_Item], racks: RacksSection) -> list[_Rack]:
    """Network, management and storage racks as the design counts them: with the RA's SU layout
    the leaves split evenly over the SU racks and the rest into the central racks; otherwise
    everything into the racks counted, each group kept in one rack where one has room for it.
    A rack is named by what fills most of it."""
    su = racks.su_network_racks
    out: list[_Rack] = []
    rest = items
    if su:
        leaves = [x for x in items if _leaf(x.group)]
        rest = [x for x in items if not _leaf(x.group)]
        per = -(-len(leaves) // su)
        for i in range(su):
            out += _pack(leaves[i * per : (i + 1) * per])
    out += _pack_groups(rest, max(0, racks.network_racks - su))
    counters: dict[str, int] = {}
    for rack in out:
        units: dict[Role, int] = {}
        for x in rack.items:
            units[x.group.role] = units.get(x.group.role, 0) + x.height
        rack.role = max(units, key=lambda r: (units[r], r)) if units else "network"
        counters[rack.role] = counters.get(rack.role, 0) + 1
        rack.name = f"{rack.role}-{counters[rack.role]:02d}"
        known = [x.group.unit_power_w for x in rack.items if x.group.unit_power_w is not None]
        rack.power_w = sum(known)
        rack.complete = len(known) == len(rack.items)
    return out


def _pack_groups(items: list[_Item], count: int) -> list[_Rack]:
    """Devices into `count` racks of 36 usable U, each group whole in the first rack with room
    for all of it, so a team finds the storage appliances or the spines together; a group no
    rack has room for fills the free space in order, and a rack is added only where the racks
    counted cannot hold it all."""
    racks = [_Rack("network", RACK_U) for _ in range(count)]
    families: dict[str, list[_Item]] = {}
    for x in items:
        families.setdefault(x.group.id, []).append(x)
    # racks counted beyond what the devices' height needs (an RA's published management racks):
    # each family goes to the emptiest rack with room, so every counted rack holds some
    spread = sum(x.height for x in items) <= (count - 1) * USABLE_U
    for family in families.values():
        need = sum(x.height for x in family)
        room = [r for r in racks if r.used() + need <= USABLE_U]
        home = min(room, key=_Rack.used, default=None) if spread else next(iter(room), None)
        for x in family:
            rack = home or next((r for r in racks if r.used() + x.height <= USABLE_U), None)
            if rack is None:
                rack = _Rack("network", RACK_U)
                racks.append(rack)
            x.position = FIRST_U + rack.used()
            rack.items.append(x)
    return [r for r in racks if r.items]


def _pack(items: list[_Item]) -> list[_Rack]:
    """Devices in order into racks of 36 usable U, from U3 up."""
    racks: list[_Rack] = []
    for x in items:
        if not racks or racks[-1].used() + x.height > USABLE_U:
            racks.append(_Rack("network", RACK_U))
        x.position = FIRST_U + racks[-1].used()
        racks[-1].items.append(x)
    return racks


def _cdu_positions(cdu: DeviceGroup | None) -> list[_Rack]:
    """The rack positions in-row CDUs take in the rows: a cabinet each."""
    if cdu is None:
        return []
    out = []
    for i in range(cdu.count):
        rack = _Rack(cdu.role, cdu.rack_units)
        rack.name = f"cdu-{i + 1:02d}"
        item = _Item(cdu, i + 1)
        item.position = 1
        rack.items.append(item)
        rack.power_w = cdu.unit_power_w
        rack.complete = cdu.unit_power_w is not None
        out.append(rack)
    return out


def _pdus(racks: list[_Rack], pdu: DeviceGroup | None, compute: int, each: tuple[int, int]) -> None:
    """The PDUs, vertical: each compute rack its share (none in a rack-scale system's, whose
    power shelves feed it), then each other rack its share, in turn, until the group's count is
    placed."""
    if pdu is None:
        return
    left, index = pdu.count, 0
    for i, rack in enumerate(racks):
        if any(PARTS[x.group.kind].stands == "row" for x in rack.items):
            continue  # a cabinet in the row (an in-row CDU) is no rack to feed
        n = min(left, each[0] if i < compute else each[1])
        for _ in range(n):
            index += 1
            item = _Item(pdu, index)
            rack.items.append(item)
        left -= n


def _placed(rack: _Rack) -> PlacedRack:
    """A rack's devices as runs: consecutive devices of a group, of one height, evenly spaced."""
    runs: list[list[int]] = []  # group index in `ids`, first, count, position, pitch, height
    ids: list[str] = []
    for x in rack.items:
        key = x.group.id
        if runs:
            g, first, count, position, pitch, height = runs[-1]
            step = x.position - position if count == 1 else pitch
            if (
                ids[g] == key
                and first + count == x.index
                and height == x.height
                and x.position == position + count * step
                and (step > 0 or height == 0)
            ):
                runs[-1][2], runs[-1][4] = count + 1, step
                continue
        if key not in ids:
            ids.append(key)
        runs.append([ids.index(key), x.index, 1, x.position, x.height, x.height])
    placed = [
        PlacedRun(group=ids[g], first=f, count=c, position=p, pitch=s, height=h)
        for g, f, c, p, s, h in runs
    ]
    return PlacedRack(
        name=rack.name,
        role=rack.role,
        height_u=rack.height,
        runs=placed,
        power_w=rack.power_w,
        power_complete=rack.complete,
    )
