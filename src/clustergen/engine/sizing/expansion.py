"""An increment on an existing installation: what the grown fabric adds to the one that stands,
whether the standing spine (core) tier has room for it, and the parts and power that are new.

The rule is the architect's: the installation as it stands and as it will stand are each built
as their reference architecture builds them; the increment is the difference, less what it
reuses (fabric managers, management servers, storage), which is never quoted again. Its
inventory and links are the grown installation's new devices, in the racks they stand in, and
the links that reach them (sizing/inventory/increment.py), so the rack plan, the cables and the
NetBox files agree with the BOM."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import System
from clustergen.engine.model.bom import BomLine
from clustergen.engine.model.common import Assumed, Check
from clustergen.engine.model.compute import RackLoad
from clustergen.engine.model.design import (
    Design,
    DesignChoices,
    ExpansionSection,
    PowerSection,
    RacksSection,
    ServersSection,
    TradeStudy,
)
from clustergen.engine.model.fabric import FabricDesign
from clustergen.engine.model.inventory import Inventory, PartKind, PlacedRack, unfolded
from clustergen.engine.model.links import LinkGroup, record
from clustergen.engine.model.request import DesignRequest, Fabric
from clustergen.engine.sizing.bom import as_bom_lines, build_bom, totals
from clustergen.engine.sizing.checks import check, margin_check
from clustergen.engine.sizing.inventory import SUPPORT, USABLE_U, increment_of
from clustergen.engine.sizing.platform import existing_nodes, it_cap_w, system_of
from clustergen.errors import InfeasibleDesignError
from clustergen.units import plural, watts

#: builds one whole design from a request and choices (the assembly, passed down to this layer)
Build = Callable[[DesignRequest, DesignChoices], Design]

#: BOM categories the increment reuses from the installation: never quoted again
REUSED = frozenset({PartKind.FABRIC_MANAGER, PartKind.MANAGEMENT_SERVER, PartKind.STORAGE})
#: BOM categories that come with each node: the increment's own nodes, as designed
PER_NODE = frozenset({PartKind.COMPUTE, PartKind.GPU, PartKind.INCLUDED, PartKind.NIC})


class Room(NamedTuple):
    """What the increment does to the standing compute fabric."""

    fits: bool
    tiers: int
    #: nodes the standing tiers hold at most (its switches' radix at the RA's split)
    max_nodes: int
    leaves: int
    spines: int
    cores: int
    #: ports of the standing spine (core) tier the increment's uplinks take
    spine_ports_used: int
    #: free ports of the standing spine (core) tier: stated, or as the RA builds it
    spine_ports_free: int
    why: str
    #: where spines are added to a 2-tier fabric: the standing leaves' uplinks the grown
    #: fabric's even spread moves onto the added spines (re-cabled), the new leaves' uplinks
    #: that land on the standing spines, all the new leaves' uplinks, and the links a
    #: leaf-spine pair carries standing and grown
    moved: int = 0
    onto_standing: int = 0
    new_uplinks: int = 0
    pair_links: tuple[int, int] = (0, 0)


def _uplink_links(f: FabricDesign) -> int:
    return f.leaf_spine_links + f.spine_core_links


def fabric_room(
    standing: FabricDesign, grown: FabricDesign, stated_free_ports: int | None = None
) -> Room:
    """Whether the grown fabric is the standing one with leaves (and spines) added: the same
    tier count, within the standing tiers' host ports, and within the spine ports free."""
    per_node = max(1, standing.node_links // max(1, standing.nodes * standing.planes))
    max_nodes = (standing.max_host_ports_at_tiers - standing.fabric_manager_links) // per_node
    built = standing.spine_switches * (standing.spine_radix or 0) + standing.core_switches * (
        standing.core_radix or 0
    )
    free = (
        stated_free_ports
        if stated_free_ports is not None
        else max(0, built - _uplink_links(standing) - standing.spine_core_links)
    )
    used = max(0, _uplink_links(grown) - _uplink_links(standing))
    spines = max(0, grown.spine_switches - standing.spine_switches)
    cores = max(0, grown.core_switches - standing.core_switches)
    spread = _respread(standing, grown) if spines and grown.tiers == standing.tiers == 2 else None
    if spread is not None:
        used = max(0, spread.onto_standing - spread.moved)  # beyond the ports the moves free
    fits, why = True, ""
    if grown.tiers > standing.tiers:
        fits = False
        why = f"needs a {'core' if standing.tiers >= 2 else 'spine'} tier or a new pod"
    elif grown.port_speed_gbps != standing.port_speed_gbps:
        # the reference design at the grown size is another one (DGX BasePOD past 8 nodes runs
        # NDR200 on the same pair): every standing node is re-cabled, nothing is only added
        fits = False
        why = (
            f"is built at {grown.port_speed_gbps:g}G links, not the standing "
            f"{standing.port_speed_gbps:g}G: every existing node would be re-cabled"
        )
    elif grown.nodes > max_nodes:
        fits = False
        why = "needs more switch ports than its tiers have"
    elif (
        stated_free_ports is not None
        and (spines + cores == 0 or spread)
        and used > stated_free_ports
    ):
        fits = False
        why = f"needs {used:,} spine ports, {stated_free_ports:,} free"
    return Room(
        fits=fits,
        tiers=standing.tiers,
        max_nodes=max_nodes,
        leaves=max(0, grown.leaf_switches - standing.leaf_switches),
        spines=spines,
        cores=cores,
        spine_ports_used=used,
        spine_ports_free=free,
        why=why,
        **(spread._asdict() if spread else {}),
    )


class _Spread(NamedTuple):
    moved: int
    onto_standing: int
    new_uplinks: int
    pair_links: tuple[int, int]


def _respread(standing: FabricDesign, grown: FabricDesign) -> _Spread | None:
    """How a 2-tier fabric grown by spines lays its uplinks: every leaf spreads its uplinks
    evenly over the grown spine tier (`links_per_leaf_spine_pair` falls), so each standing
    leaf-spine pair keeps the grown pair's links and the rest move to the added spines; the new
    leaves take the standing spines' grown load less what the standing leaves keep there, the
    rest of their uplinks on the added spines. None where a pair's links are not given."""
    s_pair, g_pair = standing.links_per_leaf_spine_pair, grown.links_per_leaf_spine_pair
    if not s_pair or not g_pair or not grown.spine_switches:
        return None
    kept = standing.leaf_spine_links * min(g_pair, s_pair) // s_pair
    # the spines carry the grown fabric's links evenly: the standing ones their share
    on_standing = standing.spine_switches * grown.leaf_spine_links // grown.spine_switches
    return _Spread(
        moved=standing.leaf_spine_links - kept,
        onto_standing=max(0, on_standing - kept),
        new_uplinks=max(0, grown.leaf_spine_links - standing.leaf_spine_links),
        pair_links=(s_pair, g_pair),
    )


def _scaled(line: BomLine, quantity: int) -> BomLine:
    """A BOM line at another quantity, its totals with it (unknown stays unknown)."""
    unit_w, unit_usd = line.unit_power_w, line.unit_price_usd
    return line.model_copy(
        update={
            "quantity": quantity,
            "total_power_w": None if unit_w is None else unit_w * quantity,
            "total_price_usd": None if unit_usd is None else unit_usd * quantity,
            "order_quantity": None if line.order_quantity is None else quantity,
        }
    )


def _key(line: BomLine) -> tuple[str, str | None, str]:
    return (str(line.category), line.part, line.name)


def _exact(line: BomLine) -> tuple[str, str | None, str, str]:
    return (*_key(line), line.description)


#: BOM categories the increment projects from its own links and racks (their counts)
LINKED = frozenset(
    {PartKind.TRANSCEIVER, PartKind.CABLE, PartKind.RACK, PartKind.PDU, PartKind.POWER_SHELF}
)


def bom_increment(
    increment: list[BomLine],
    standing: list[BomLine],
    grown: list[BomLine],
    linked: list[BomLine] | None = None,
) -> list[BomLine]:
    """The new parts only: the increment's own nodes (as designed); its transceivers and cables
    from its own links (`linked`: the grown installation's BOM rebuilt over the increment's
    links, whose other lines are the grown ones, in order); of everything else the grown
    installation's lines less the standing one's; what is reused is left out."""
    # a line is matched to the standing one of the same description first, then to what is
    # left of the same part (a description that names a count differs between the two)
    skip = PER_NODE | REUSED | (LINKED if linked is not None else frozenset())
    exact: dict[tuple[str, str | None, str, str], int] = {}
    for line in standing:
        if line.category not in skip:
            exact[_exact(line)] = exact.get(_exact(line), 0) + line.quantity
    grown_lines = [ln for ln in grown if ln.category not in skip]
    more = {}
    for i, line in enumerate(grown_lines):
        took = min(line.quantity, exact.get(_exact(line), 0))
        exact[_exact(line)] = exact.get(_exact(line), 0) - took
        more[i] = line.quantity - took
    pool: dict[tuple[str, str | None, str], int] = {}
    for key, left in exact.items():
        pool[key[:3]] = pool.get(key[:3], 0) + left
    added: list[BomLine | None] = []
    for i, line in enumerate(grown_lines):
        took = min(more[i], pool.get(_key(line), 0))
        pool[_key(line)] = pool.get(_key(line), 0) - took
        added.append(_scaled(line, more[i] - took) if more[i] - took > 0 else None)
    lines = [ln for ln in increment if ln.category in PER_NODE]
    if linked is None:
        return lines + [ln for ln in added if ln is not None]
    # the rebuilt BOM's other lines are the grown ones in order: each takes its difference
    others = iter(added)
    for ln in linked:
        if ln.category in LINKED:
            lines.append(ln)
        elif ln.category not in PER_NODE | REUSED and (kept := next(others)) is not None:
            lines.append(kept)
    return lines


def added_power_w(standing: float | None, grown: float | None) -> float:
    """A power term the increment adds: the grown installation's less the standing one's (an
    unknown term adds nothing known; the caller marks the sum incomplete)."""
    return max(0.0, (grown or 0.0) - (standing or 0.0))


def _choices(d: Design, system: System, tech: Fabric) -> DesignChoices:
    """The increment's choices for the installation's own platform on the shared fabric."""
    same = system.id == d.choices.platform
    return d.choices.model_copy(
        update={
            "platform": system.id,
            "fabric": tech,
            "planes": d.choices.planes if same else None,
            "cooling": d.choices.cooling if same else None,
            "rack_power_kw": d.choices.rack_power_kw if same else None,
        }
    )


def expand_design(catalog: Catalog, request: DesignRequest, d: Design, build: Build) -> Design:
    """The increment `d` restated on the existing installation: the leaves and spines the grown
    fabric adds to the standing one (each built by `build` as its RA builds it), the parts that
    are new, the power of both where the installation's draw is known. Raises
    InfeasibleDesignError in one line when the standing fabric has no room, or the increment's
    link speed differs from the installation's."""
    new = catalog.system(d.platform.system)
    old = system_of(catalog, request.existing_platform or new.id, new.id)
    cf = d.fabrics.compute
    built = cf.technology if cf else None
    tech: Fabric = request.existing_fabric or ("ethernet" if built == "ethernet" else "infiniband")
    if old.id != new.id and _link_gbps(old) != _link_gbps(new):
        raise InfeasibleDesignError(
            f"{new.id} ({_link_gbps(new):g}G) cannot join the existing {old.id} fabric "
            f"({_link_gbps(old):g}G): mixing generations in one fabric needs the same link "
            "speed; build the increment as its own pod, or add more of the existing platform"
        )
    nodes = existing_nodes(catalog, request, old)
    if nodes is None:
        note = Assumed(
            field="existing_gpus",
            value="unknown",
            reason="the existing installation's size was not stated: whether its spine "
            "has room for the increment cannot be checked",
        )
        return _expanded(catalog, request, d, None, None, None, old, None, [note])
    choices = _choices(d, old, tech)
    standing = build(_standing_request(request, old.id, nodes, tech), choices)
    grown_nodes = nodes + math.ceil(d.compute.nodes * _ports(new) / _ports(old))
    grown = build(_standing_request(request, old.id, grown_nodes, tech), choices)
    sf, gf = standing.fabrics.compute, grown.fabrics.compute
    room = fabric_room(sf, gf, request.existing_spine_free_ports) if sf and gf else None
    if room is not None and not room.fits:
        raise InfeasibleDesignError(_no_room(standing, room, d, old, nodes))
    return _expanded(catalog, request, d, standing, grown, room, old, nodes, [])


def _link_gbps(system: System) -> float | None:
    return None if system.compute is None else system.compute.port_speed_gbps


def _standing_request(
    request: DesignRequest, system: str, nodes: int, tech: Fabric
) -> DesignRequest:
    return DesignRequest(
        platform=system,
        nodes=nodes,
        fabric=tech,
        oversubscription=request.oversubscription,
        workload=request.workload,
        storage_tier=request.storage_tier,
    )


def _ports(system: System) -> int:
    return max(1, system.compute.ports if system.compute else 1)


def _sus_words(d: Design, nodes: int) -> str:
    su = d.compute.su_nodes
    if su:
        return f"{plural(nodes, 'node')} ({math.ceil(nodes / su)} SU of {su})"
    return plural(nodes, "node")


def _no_room(standing: Design, room: Room, increment: Design, old: System, nodes: int) -> str:
    inc = increment.compute
    su = standing.compute.su_nodes
    # whole SUs said as SUs; 4 racks of an 8-rack SU are 4 nodes, not "1 SU"
    added = f"{inc.nodes // su} SU" if su and inc.nodes % su == 0 else plural(inc.nodes, "node")
    grown = nodes + inc.nodes
    if grown <= room.max_nodes and room.why.startswith("needs a"):
        # the ports would hold it; the reference architecture builds the grown size in another
        # tier (GB200 NVL72 past one SU): "tops out at 16" beside a refused 12 read as a fault
        limit = (
            f"is its reference architecture's {room.tiers}-tier layout, which builds "
            f"{plural(grown, 'node')} in more tiers"
        )
    else:
        limit = f"tops out at {_sus_words(standing, room.max_nodes)}"
    return (
        f"the existing {room.tiers}-tier {old.id} fabric of {_sus_words(standing, nodes)} "
        f"{limit}; adding {added} ({inc.gpus:,} GPUs) {room.why}; ask for the "
        f"{grown:,} nodes as a new design, or for the increment alone as its own pod"
    )


def _expanded(
    catalog: Catalog,
    request: DesignRequest,
    d: Design,
    standing: Design | None,
    grown: Design | None,
    room: Room | None,
    old: System,
    nodes: int | None,
    notes: list[Assumed],
) -> Design:
    """The increment's design with its fabric, servers, BOM, power and checks restated as an
    increment on the standing installation."""
    updates: dict[str, object] = {"request": request}
    reused = "fabric managers (UFM), management servers, storage and the management core"
    if standing is not None and grown is not None:
        devices = _devices(catalog, d, standing, grown)
        links, racks = devices.get("links"), devices.get("racks", d.racks)
        linked = None
        if isinstance(links, list) and isinstance(racks, RacksSection):
            linked = _linked(catalog, grown, links, racks)
        bom = bom_increment(d.bom, standing.bom, grown.bom, linked)
        updates["bom"], updates["bom_totals"] = bom, totals(bom)
        updates["power"] = power = _power(d, standing, grown)
        updates["servers"] = _servers(d, reused)
        cf = d.fabrics.compute
        sf, gf = standing.fabrics.compute, grown.fabrics.compute
        if cf is not None and room is not None and sf is not None and gf is not None:
            cf = cf.model_copy(
                update={
                    # the standing fabric's tiers, and the links the grown one adds between them
                    "tiers": room.tiers,
                    "leaf_spine_links": max(0, gf.leaf_spine_links - sf.leaf_spine_links),
                    "spine_core_links": max(0, gf.spine_core_links - sf.spine_core_links),
                    "leaf_switches": room.leaves,
                    "spine_switches": room.spines,
                    "core_switches": room.cores,
                    "total_switches": room.leaves + room.spines + room.cores,
                    "notes": [
                        *(
                            n
                            for n in cf.notes
                            if not cf.fabric_manager_links or n not in d.warnings
                        ),
                        _fabric_words(room),
                    ],
                }
            )
            updates["fabrics"] = d.fabrics.model_copy(
                update={"compute": cf, "storage": _grown_by(d.fabrics.storage, standing, grown)}
            )
        updates.update(devices)
        names = {ln.name for ln in bom}
        # a labelled estimate is the increment's where its part is on the increment's BOM
        estimated = [e for e in power.estimated if any(e.startswith(f"{n}: ") for n in names)]
        updates["power"] = power.model_copy(update={"estimated": estimated})
        # the fabric managers are the installation's: no node slot is left for one
        updates["warnings"] = [w for w in d.warnings if not (cf and w in cf.notes)]
        if d.alternatives is not None:
            updates["alternatives"] = _study(d.alternatives, d, d.model_copy(update=updates))
    restated = updates.get("power", d.power)
    it_w = restated.it_total_w if isinstance(restated, PowerSection) else d.power.it_total_w
    # the cap and its margin are the increment's with what stands, never the whole design's
    checks = [c for c in d.checks if not c.name.startswith(("power under cap", _MARGIN))]
    checks.insert(0, _room_check(room))
    existing = _existing_load(request, standing, old, nodes)
    if request.power_cap_w:
        cap = it_cap_w(request.power_cap_w, d.power.cap_basis or "it", d.power.pue)
        checks.insert(1, _cap_check(request, it_w, cap, existing))
        if (margin := _margin_check(request, it_w, cap, existing)) is not None:
            checks.insert(2, margin)
    updates["checks"] = checks
    updates["notice"] = _notice(request, d, old, nodes, room, reused)
    had = nodes * old.gpus_per_node if nodes else None
    sf = standing.fabrics.compute if standing is not None else None
    updates["expansion"] = ExpansionSection(
        existing_platform=old.id,
        existing_nodes=nodes,
        existing_gpus=had,
        total_gpus=None if had is None else had + d.compute.gpus,
        standing_leaf_switches=sf.leaf_switches if sf else None,
        standing_spine_switches=sf.spine_switches if sf else None,
        standing_core_switches=sf.core_switches if sf else None,
        existing_it_w=existing.watts if existing else None,
        existing_it_estimated=existing is not None and request.existing_power_w is None,
    )
    updates["assumptions"] = [*notes, *d.assumptions]
    return d.model_copy(update=updates)


def _servers(d: Design, reused: str) -> ServersSection:
    """No server is new: the installation's fabric managers and management servers serve it."""
    was = f"reused from the existing installation: {reused}"
    s = d.servers
    return s.model_copy(
        update={
            "fabric_managers": 0,
            "management_servers": 0,
            "basis": was,
            # the rules count the increment's own servers: none is new
            "fabric_manager_rule": None if s.fabric_manager_rule is None else f"none new ({was})",
            "management_rule": None if s.management_rule is None else f"none new ({was})",
            "fabric_manager_pair_cables": 0,
        }
    )


def _study(study: TradeStudy, d: Design, inc: Design) -> TradeStudy:
    """The chosen row is this design: its power (and a score that was its IT power), switches
    and racks are the increment's, as restated, and so is the figure the other rows are weighed
    against (they are the candidates as designs of their own)."""
    was, power = d.power, inc.power
    old, new = f"against {watts(was.it_total_w)} IT", f"against {watts(power.it_total_w)} IT"
    fabrics = inc.fabrics
    switches = sum(
        f.total_switches
        for f in (fabrics.compute, fabrics.storage, fabrics.inband, fabrics.oob)
        if f
    )
    rows = []
    for r in study.rows:
        update: dict[str, object] = {}
        if r.chosen:
            update = {
                "it_power_w": power.it_total_w,
                "facility_power_w": power.facility_total_w,
                "fabric_power_w": power.compute_fabric_switches_w + power.compute_fabric_optics_w,
                "switches": switches,
                "racks": inc.racks.total_racks,
            }
            if r.objective == was.it_total_w:
                update["objective"] = power.it_total_w
        elif r.why_not and old in r.why_not:
            update = {"why_not": r.why_not.replace(old, new)}
        rows.append(r.model_copy(update=update) if update else r)
    return study.model_copy(update={"rows": rows})


def _grown_by(f: FabricDesign | None, standing: Design, grown: Design) -> FabricDesign | None:
    """A fabric of the increment's own (the storage fabric) restated as what the grown
    installation's adds to the standing one's: its new switches, as the BOM orders them."""
    s, g = standing.fabrics.storage, grown.fabrics.storage
    if f is None or s is None or g is None:
        return f
    leaves = max(0, g.leaf_switches - s.leaf_switches)
    spines = max(0, g.spine_switches - s.spine_switches)
    cores = max(0, g.core_switches - s.core_switches)
    added = f"{_leaves(leaves)} and {plural(spines, 'spine')} added to the standing fabric's"
    return f.model_copy(
        update={
            "leaf_switches": leaves,
            "spine_switches": spines,
            "core_switches": cores,
            "total_switches": leaves + spines + cores,
            "notes": [
                *f.notes,
                f"{added} {_leaves(s.leaf_switches)}, {plural(s.spine_switches, 'spine')}",
            ],
        }
    )


def _linked(
    catalog: Catalog, grown: Design, links: list[LinkGroup], racks: RacksSection
) -> list[BomLine]:
    """The grown installation's BOM rebuilt over the increment's links and racks: its
    transceiver, cable, rack and PDU lines are the increment's own (each describes the
    increment's counts)."""
    return as_bom_lines(
        build_bom(
            catalog,
            catalog.system(grown.platform.system),
            grown.compute,
            grown.fabrics,
            grown.servers,
            racks,
            grown.storage,
            [record(g) for g in links],
        )
    )


def _devices(catalog: Catalog, d: Design, standing: Design, grown: Design) -> dict[str, object]:
    """The increment's inventory, links and racks: the grown installation's new devices, in the
    racks they stand in, and the links that reach them (sizing/inventory/increment.py); the nodes
    are the increment's own platform's where it is not the installation's; the racks section
    counts the network racks the placement fills."""
    if standing.inventory is None or grown.inventory is None or d.inventory is None:
        return {}
    net_pdus = int(float(catalog.assumption("network-rack-pdus").value))
    inc = increment_of(
        standing.inventory, grown.inventory, standing.links, grown.links, REUSED, net_pdus
    )
    own = {g.id: g for g in d.inventory.groups if g.kind in PER_NODE}
    fields = ("name", "part", "vendor", "unit_power_w", "rack_units", "rack_units_known")
    groups = [
        g.model_copy(update={f: getattr(own[g.id], f) for f in fields})
        if g.id in own and own[g.id].part != g.part
        else g
        for g in inc.inventory.groups
    ]
    inventory = inc.inventory.model_copy(update={"groups": groups})
    return {
        "inventory": inventory,
        "links": inc.links,
        "racks": _racks(d, standing.inventory, inventory),
    }


def _racks(d: Design, standing: Inventory, inventory: Inventory) -> RacksSection:
    """The increment's racks section as its placement fills them: the new compute racks (a
    standing rack's free slots that take new nodes are said, not counted), the network racks its
    new switches, servers and storage fill (none of the standing racks' room assumed), and the
    PDUs the new racks hold."""
    r = d.racks
    racks = unfolded(inventory.racks)
    support = sum(1 for rack in racks if rack.role in SUPPORT)
    pdus = sum(
        run.count
        for rack in racks
        for run in rack.runs
        if (g := inventory.group(run.group)) is not None and g.kind == PartKind.PDU
    )
    stood = {rack.name for rack in unfolded(standing.racks)}
    fed = [rack for rack in racks if rack.role == "compute" and rack.name not in stood]
    loads = _loads(fed, inventory, d.compute.node_power.node_w)
    plan = r.compute.model_copy(
        update={"compute_racks": sum(ld.racks for ld in loads), "rack_loads": loads}
    )
    shared = [rack.name for rack in racks if rack.role == "compute" and rack.name in stood]
    basis = (
        f"{plural(support, 'new network rack')} for the increment's switches, each filled from "
        f"U3 up to {USABLE_U} usable U (the standing racks' free room is not known, so none is "
        "assumed)"
    )
    if shared:
        basis += f"; new nodes also take the free slots of standing rack {', '.join(shared)}"
    return r.model_copy(
        update={
            "compute": plan,
            "network_racks": support,
            "su_network_racks": min(r.su_network_racks, support),
            "total_racks": plan.compute_racks + support,
            "pdus": pdus,
            "basis": basis,
        }
    )


def _loads(racks: list[PlacedRack], inventory: Inventory, node_w: float) -> list[RackLoad]:
    """New compute racks grouped by the nodes they hold and the power each draws, in order."""
    out: list[RackLoad] = []
    for rack in racks:
        nodes = sum(
            run.count
            for run in rack.runs
            if (g := inventory.group(run.group)) is not None and g.kind == PartKind.COMPUTE
        )
        kw = (rack.power_w or 0.0) / 1e3
        load = RackLoad(
            racks=1,
            nodes=nodes,
            power_kw=kw,
            support_kw=round(max(0.0, kw - nodes * node_w / 1e3), 3),
        )
        last = out[-1] if out else None
        if last is not None and (last.nodes, last.power_kw, last.support_kw) == (
            load.nodes,
            load.power_kw,
            load.support_kw,
        ):
            out[-1] = last.model_copy(update={"racks": last.racks + 1})
        else:
            out.append(load)
    return out


def _leaves(n: int) -> str:
    return f"{n:,} lea{'f' if n == 1 else 'ves'}"


def _fabric_words(room: Room) -> str:
    """What the increment does on the standing fabric, in words."""
    added = f"{_leaves(room.leaves)} and {plural(room.spines, 'spine')} added"
    if room.cores:
        added += f", {plural(room.cores, 'core switch')}"
    if room.tiers == 1 and not room.leaves:
        # no tier above the leaves: the standing switches take the new links on their free ports
        return "no switch added; the new nodes' links land on the standing switches' free ports"
    if room.spines and room.new_uplinks:
        return f"{added}; {_respread_words(room)}"
    if room.spine_ports_used <= room.spine_ports_free:
        return (
            f"{added}; their uplinks take {room.spine_ports_used:,} of the standing spine "
            f"tier's {room.spine_ports_free:,} free ports"
        )
    return (
        f"{added}; the standing spines have {room.spine_ports_free:,} free ports, so every "
        f"leaf's uplinks are re-spread over the grown spine tier ({room.spine_ports_used:,} "
        "uplinks added)"
    )


def _respread_words(room: Room) -> str:
    """Where the uplinks go when spines are added: the grown spread's re-cabling of the standing
    leaves and the new leaves' split between standing and added spines."""
    before, after = room.pair_links
    was = "as the standing fabric" if before == after else f"the standing fabric's {before}"
    moved = (
        f"{room.moved:,} of the standing leaves' uplinks are re-cabled to the new spines"
        if room.moved
        else "the standing leaves' uplinks stay where they are"
    )
    taken = room.spine_ports_used
    free = f"{taken:,} of their {room.spine_ports_free:,} free ports"
    if not room.moved:
        where = free
    elif taken:
        where = f"the {room.moved:,} ports those moves free and {free}"
    else:
        where = f"of the {room.moved:,} ports those moves free"
    standing = (
        f"{room.onto_standing:,} on the standing spines ({where})" if room.onto_standing else ""
    )
    added = room.new_uplinks - room.onto_standing
    split = " and ".join(
        x for x in (standing, f"{added:,} on the new spines" if added else "") if x
    )
    return (
        f"every leaf's uplinks are spread evenly over the grown spine tier ({after} links a "
        f"leaf-spine pair, {was}): {moved}, and the new leaves' "
        f"{room.new_uplinks:,} uplinks land {split}"
    )


def _power(d: Design, standing: Design, grown: Design) -> PowerSection:
    """The increment's IT power: its own nodes, and the fabric and management power the grown
    installation adds; reused servers and storage add nothing."""
    s, g, p = standing.power, grown.power, d.power
    terms = {
        "compute_w": p.compute_w,
        "compute_fabric_switches_w": added_power_w(
            s.compute_fabric_switches_w, g.compute_fabric_switches_w
        ),
        "compute_fabric_optics_w": added_power_w(
            s.compute_fabric_optics_w, g.compute_fabric_optics_w
        ),
        "storage_fabric_w": added_power_w(s.storage_fabric_w, g.storage_fabric_w),
        "management_network_w": added_power_w(s.management_network_w, g.management_network_w),
        "management_servers_w": 0.0,
        "storage_w": 0.0,
    }
    it = sum(v for v in terms.values() if v is not None)
    return p.model_copy(
        update={
            **terms,
            "it_total_w": it,
            "facility_total_w": it * p.pue,
            # the IT cap less the increment: the whole design's headroom gives the IT cap back
            # (a facility cap's IT share, not the stated figure)
            "headroom_w": None if p.headroom_w is None else p.headroom_w + p.it_total_w - it,
        }
    )


def _room_check(room: Room | None) -> Check:
    if room is None:
        return check(
            "existing fabric has room",
            False,
            "unknown: the existing installation's size was not stated",
            "the spine (core) tier's free ports depend on it",
            unknown=True,
        )
    return check(
        "existing fabric has room",
        room.fits,
        f"{_leaves(room.leaves)}, {plural(room.spines, 'spine')} added on the standing "
        f"{room.tiers}-tier fabric",
        f"the standing {room.tiers}-tier fabric holds up to {plural(room.max_nodes, 'node')}; "
        + _fabric_words(room),
    )


_MARGIN = "power margin under cap"


class Load(NamedTuple):
    """The standing installation's IT draw the cap check adds the increment to, and its words:
    stated, or estimated from the standing installation as its RA builds it."""

    watts: float
    words: str


def _existing_load(
    request: DesignRequest, standing: Design | None, old: System, nodes: int | None
) -> Load | None:
    """The existing load: the request's figure, else the standing installation's design power
    (its nodes and networks at their published maxima, as the increment's own is counted) when
    every term of it is known; None when neither is."""
    if request.existing_power_w is not None:
        w = request.existing_power_w
        return Load(w, f"existing {w / 1e6:.3f} MW")
    if standing is None or not nodes or not standing.power.complete:
        return None
    w = standing.power.it_total_w
    return Load(
        w,
        f"existing {w / 1e6:.3f} MW (an estimate: its {plural(nodes, old.id + ' node')} and "
        "networks as its reference architecture builds them, at published maximum power; "
        "state its measured draw to check against it)",
    )


def _margin_check(
    request: DesignRequest, increment_w: float, cap: float, existing: Load | None
) -> Check | None:
    """The margin under the cap of what the cap check weighs (the increment alone, or with
    the existing load); none while the existing load is unknown or the cap is exceeded."""
    if request.power_cap_scope == "increment":
        used = increment_w
    elif existing is not None:
        used = existing.watts + increment_w
    else:
        return None
    return margin_check(_MARGIN, used, cap, "IT power") if used <= cap else None


def _cap_check(
    request: DesignRequest, increment_w: float, cap: float, existing: Load | None
) -> Check:
    """The IT cap `cap` over the increment alone when the request gives it that way ("1.5 MW
    left for the new pods"), else over what stands plus the increment."""
    if request.power_cap_scope == "increment":
        return check(
            "power under cap",
            increment_w <= cap,
            f"increment {increment_w / 1e6:.3f} MW IT of the {cap / 1e6:.3f} MW left for it",
            "the cap is the increment's own, as the request states it",
        )
    if existing is None:
        return check(
            "power under cap",
            False,
            f"increment {increment_w / 1e6:.3f} MW IT + the existing load (unknown) of "
            f"{cap / 1e6:.3f} MW",
            "depends on the existing installation's draw, not stated",
            unknown=True,
        )
    total = existing.watts + increment_w
    return check(
        "power under cap",
        total <= cap,
        f"{total / 1e6:.3f} MW IT of {cap / 1e6:.3f} MW",
        f"{existing.words} + increment {increment_w / 1e6:.3f} MW",
    )


def _notice(
    request: DesignRequest,
    d: Design,
    old: System,
    nodes: int | None,
    room: Room | None,
    reused: str,
) -> str:
    have = (
        f"{nodes * old.gpus_per_node:,}-GPU {old.id} installation ({plural(nodes, 'node')})"
        if nodes
        else f"{old.id} installation (size not stated)"
    )
    fabric = f"; on its {room.tiers}-tier fabric: {_fabric_words(room)}" if room else ""
    return (
        f"an expansion of the existing {have}: adds {d.compute.gpus:,} GPUs on "
        f"{plural(d.compute.nodes, d.platform.system + ' node')}{fabric}; reuses its {reused} "
        "(not quoted again)"
    )
