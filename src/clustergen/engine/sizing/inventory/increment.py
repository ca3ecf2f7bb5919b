"""An increment's devices, racks and links: the grown installation's, keeping what is new.

The installation as it stands and as it will stand are each built whole; a device is new when it
is past its group's standing count (the new nodes are node-0065.. on 64 standing, the added
leaves number on from the standing leaves), except a device that comes with its rack (a PDU),
which stands in the racks that are new (by name), in order, as many as the grown installation
has more. A reused kind (fabric managers, management servers, storage) adds no device. A group
keeps its standing count (`DeviceGroup.standing`) and the interfaces a standing device of it
already cables (`standing_ports`, an even spread's most), so a new device's link to a standing
one names it on a port past those; the standing devices are neither placed nor ordered again.

A link group is the grown installation's less the standing one's links of the same ends, port
and cable (the BOM's cables and transceivers are that difference too); a group with no new
device at either end is a re-cabling of what stands, not quoted, and said so in the inventory's basis."""

from collections.abc import Iterable
from typing import NamedTuple

from clustergen.engine.model.inventory import (
    PARTS,
    DeviceGroup,
    Inventory,
    PartKind,
    PlacedRack,
    PlacedRun,
    unfolded,
)
from clustergen.engine.model.links import LinkGroup
from clustergen.engine.sizing.inventory.placement import FIRST_U, RACK_U, USABLE_U
from clustergen.units import plural

#: what the increment's inventory basis adds to the placement's
INCREMENT_BASIS = (
    "the grown installation's devices past the standing installation's count of each group "
    "(numbered on from it; a PDU with a rack that is new), in the racks they stand "
    "in; the standing devices are not placed again"
)


class Increment(NamedTuple):
    """The new devices with their racks, and the links that reach them."""

    inventory: Inventory
    links: list[LinkGroup]


def increment_of(
    standing: Inventory,
    grown: Inventory,
    standing_links: list[LinkGroup],
    grown_links: list[LinkGroup],
    reused: Iterable[PartKind],
    network_rack_pdus: int = 0,
) -> Increment:
    """The grown installation's devices, racks and links less the standing one's."""
    had = {g.id: g.count for g in standing.groups}
    kept = frozenset(reused)
    used = _ports_used(had, standing_links)
    groups = [
        g.model_copy(
            update={
                "count": 0 if g.kind in kept else max(0, g.count - had.get(g.id, 0)),
                "standing": had.get(g.id, 0),
                "standing_ports": used.get(g.id, 0),
            }
        )
        for g in grown.groups
    ]
    racks = _new_racks(standing, grown, groups, network_rack_pdus)
    placed: dict[str, int] = {}
    for rack in racks:
        for run in rack.runs:
            placed[run.group] = placed.get(run.group, 0) + run.count
    # a device that comes with its rack is as many as the new racks hold (at most the growth)
    groups = [
        g.model_copy(update={"count": placed.get(g.id, 0)}) if _with_rack(g) else g for g in groups
    ]
    new = {g.id for g in groups if g.count}
    links, recabled = _new_links(standing_links, grown_links, new)
    basis = f"{grown.basis}; {INCREMENT_BASIS}"
    if recabled:
        basis += (
            f"; {plural(recabled, 'link')} between standing devices change with the growth "
            "(re-cabled, not new): not quoted"
        )
    return Increment(Inventory(groups=groups, racks=racks, basis=basis), links)


def _ports_used(had: dict[str, int], links: list[LinkGroup]) -> dict[str, int]:
    """The interfaces a standing device of each group cables at most: each link group's links
    spread evenly over the devices at each end (a pair's own links take two ends on one side)."""
    out: dict[str, int] = {}
    for g in links:
        for end in (g.a, g.b) if g.a.groups != g.b.groups else (g.a,):
            devices = sum(had.get(gid, 0) for gid in end.groups)
            ends = g.links * (2 if g.a.groups == g.b.groups else 1)
            each = -(-ends // devices) if devices else 0
            for gid in set(end.groups):
                out[gid] = out.get(gid, 0) + each
    return out


def _with_rack(g: DeviceGroup) -> bool:
    return PARTS[g.kind].stands == "vertical"


def _new_racks(
    standing: Inventory, grown: Inventory, groups: list[DeviceGroup], network_rack_pdus: int
) -> list[PlacedRack]:
    """The grown racks that hold a new device, each with its new devices only."""
    stood = {r.name for r in unfolded(standing.racks)}
    by_id = {g.id: g for g in groups}
    numbered = {g.id: g.standing or 0 for g in groups}
    out = []
    for rack in unfolded(grown.racks):
        runs: list[PlacedRun] = []
        whole = rack.name not in stood  # a new rack holding no standing device
        for run in rack.runs:
            g = by_id[run.group]
            if _with_rack(g):
                # the new racks' in order, as many as the grown installation has more
                take = min(run.count, g.count + (g.standing or 0) - numbered[g.id])
                if rack.name in stood or take <= 0:
                    continue
                runs.append(run.model_copy(update={"first": numbered[g.id] + 1, "count": take}))
                numbered[g.id] += take
                continue
            skip = max(0, (g.standing or 0) - run.first + 1)
            whole = whole and skip == 0 and bool(g.count)
            if g.count and skip < run.count:
                runs.append(
                    run.model_copy(
                        update={
                            "first": run.first + skip,
                            "count": run.count - skip,
                            "position": run.position + skip * run.pitch,
                        }
                    )
                )
        if any(not _with_rack(by_id[r.group]) for r in runs) or (runs and rack.name not in stood):
            kept = rack.model_copy(update={"runs": runs})
            # a wholly new rack draws what the grown layout gives it (a rack-scale system's
            # power is the rack's, not its trays'); one holding standing gear, its new devices'
            out.append(kept if whole or rack.name in stood else _powered(kept, runs, by_id))
    return _restacked(out, stood, by_id, network_rack_pdus)


#: the racks of switches, servers and storage (not the compute racks, nor a row's CDU cabinets)
SUPPORT = ("network", "management", "storage")


def _restacked(
    racks: list[PlacedRack], stood: set[str], by_id: dict[str, DeviceGroup], pdus_each: int
) -> list[PlacedRack]:
    """The new switches, servers and storage in the new network racks only: the grown layout
    packs every rack afresh, so a standing rack's room is not known and none is assumed; each
    new rack's devices stack from U3 up, the standing racks' new devices after them where there
    is room, in further racks where there is none; each new rack with its PDUs."""
    # a new compute rack's power is set where it was found new (`_new_racks`)
    keep = [r for r in racks if r.role not in SUPPORT]
    homes = [r for r in racks if r.role in SUPPORT and r.name not in stood]
    moved = [
        run
        for r in racks
        if r.role in SUPPORT and r.name in stood
        for run in r.runs
        if not _with_rack(by_id[run.group])
    ]
    stacks: list[list[PlacedRun]] = [[] for _ in homes]
    for rack, stack in zip(homes, stacks, strict=True):
        for run in rack.runs:
            if not _with_rack(by_id[run.group]):
                _stack(stacks, run, stack)
    for run in moved:
        _stack(stacks, run, None)
    pdu = next((g for g in by_id.values() if _with_rack(g)), None)
    numbered = max(
        (r.first + r.count - 1 for r in _runs(keep, pdu)),
        default=(pdu.standing or 0) if pdu else 0,
    )
    names = _further_names(racks, stood, len(stacks) - len(homes))
    out = []
    for i, stack in enumerate(stacks):
        if not stack:
            continue
        if pdu is not None and pdus_each:
            # every new network rack its PDUs, numbered on from the compute racks'
            stack.append(
                PlacedRun(
                    group=pdu.id, first=numbered + 1, count=pdus_each, position=0, pitch=0, height=0
                )
            )
            numbered += pdus_each
        rack = (
            homes[i]
            if i < len(homes)
            else PlacedRack(
                name=names[i - len(homes)],
                role="network",
                height_u=RACK_U,
                runs=[],
                power_w=None,
                power_complete=True,
            )
        )
        out.append(_powered(rack, stack, by_id))
    return keep + out


def _runs(racks: list[PlacedRack], g: DeviceGroup | None) -> list[PlacedRun]:
    return [run for r in racks for run in r.runs if g is not None and run.group == g.id]


def _stack(stacks: list[list[PlacedRun]], run: PlacedRun, home: list[PlacedRun] | None) -> None:
    """A run onto `home`, or whole onto the first stack with room for it, else over the stacks'
    free space in order, a further stack where none is left."""

    def used(stack: list[PlacedRun]) -> int:
        return sum(r.count * r.height for r in stack)

    if home is None:
        home = next((st for st in stacks if used(st) + run.count * run.height <= USABLE_U), None)
    left, first = run.count, run.first
    while left:
        room = [
            st
            for st in ([home] if home is not None else []) + stacks
            if used(st) + run.height <= USABLE_U
        ]
        stack = room[0] if room else None
        if stack is None:
            stack = []
            stacks.append(stack)
        n = (
            left
            if stack is home
            else min(left, max(1, (USABLE_U - used(stack)) // max(1, run.height)))
        )
        stack.append(
            run.model_copy(
                update={
                    "first": first,
                    "count": n,
                    "position": FIRST_U + used(stack),
                    "pitch": run.height,
                }
            )
        )
        left, first = left - n, first + n


def _further_names(racks: list[PlacedRack], stood: set[str], n: int) -> list[str]:
    """Names for `n` network racks past every rack named so far."""
    taken = {r.name for r in racks} | stood
    out: list[str] = []
    k = 0
    while len(out) < n:
        k += 1
        name = f"network-{k:02d}"
        if name not in taken:
            out.append(name)
    return out


def _powered(rack: PlacedRack, runs: list[PlacedRun], by_id: dict[str, DeviceGroup]) -> PlacedRack:
    """A rack with these runs, its power theirs (a PDU's none)."""
    devices = [r for r in runs if not _with_rack(by_id[r.group])]
    known = [by_id[r.group].unit_power_w for r in devices]
    return rack.model_copy(
        update={
            "runs": runs,
            "power_w": sum(
                w * r.count for w, r in zip(known, devices, strict=True) if w is not None
            ),
            "power_complete": all(w is not None for w in known),
        }
    )


def _key(g: LinkGroup) -> tuple[object, ...]:
    return (g.fabric, g.segment, tuple(g.a.groups), tuple(g.b.groups), g.a.port, g.b.port, g.cable)


def _new_links(
    standing: list[LinkGroup], grown: list[LinkGroup], new: set[str]
) -> tuple[list[LinkGroup], int]:
    """Each grown link group less the standing group of the same ends, port and cable; the
    links between standing devices only are counted apart (re-cabled, not new)."""
    left: dict[tuple[object, ...], list[LinkGroup]] = {}
    for g in standing:
        left.setdefault(_key(g), []).append(g)
    out, recabled = [], 0
    for g in grown:
        was = left.get(_key(g), [])
        s = was.pop(0) if was else None
        links = g.links - (s.links if s else 0)
        if links <= 0:
            continue
        if not new & {*g.a.groups, *g.b.groups}:
            recabled += links
            continue
        out.append(_less(g, s, links))
    return out, recabled


def _less(g: LinkGroup, s: LinkGroup | None, links: int) -> LinkGroup:
    if s is None:
        return g
    replaced = g.replaced_switch_transceivers
    return g.model_copy(
        update={
            "links": links,
            "a": g.a.model_copy(
                update={"transceivers": max(0, g.a.transceivers - s.a.transceivers)}
            ),
            "b": g.b.model_copy(
                update={"transceivers": max(0, g.b.transceivers - s.b.transceivers)}
            ),
            # the group's active cables' power, as the transceivers', is the grown less the standing
            "cable_power_w": None
            if g.cable_power_w is None
            else max(0.0, g.cable_power_w - (s.cable_power_w or 0.0)),
            "replaced_switch_transceivers": None
            if replaced is None
            else max(0, replaced - (s.replaced_switch_transceivers or 0)),
        }
    )
