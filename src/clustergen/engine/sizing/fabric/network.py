"""Clos (fat-tree) fabric sizing by rules, not port division.

The rules, each from the fat-tree literature or NVIDIA's DGX SuperPOD reference architectures:
- A leaf splits its ports into downlinks d and uplinks u with d <= r * u for oversubscription r.
- Every leaf's uplinks spread evenly over the spines it reaches, so a 2-tier spine count S must
  divide u; S is the smallest such divisor whose ports hold all uplinks. With S <= u, a 2-tier
  fabric of radix-k switches serves at most k^2/2 hosts when non-blocking.
- Past that, a 3-tier fabric: pods of leaves and spines (spines split half down, half up), and core
  groups (spine i of every pod reaches core group i), each core group sized by the same divisor rule.
- Rail-optimized scalable units (SUs): each GPU rail of an SU gets its own leaf or leaves; a partly
  filled SU still gets its full set of leaves and uplinks (NVIDIA's rule).
- Planes are identical independent fabrics; a node's ports split evenly over them.
- A fabric manager (UFM) takes a free node slot of a partly filled SU, as the SuperPOD RA does.
- Never a single spine: a 2-tier fabric has at least two.
- Redundant fabrics (DGX BasePOD, the Enterprise RAs) come in switch pairs: while every host port
  fits one pair (per plane) the fabric is that pair, joined by inter-switch links that carry half
  the host links (non-blocking) or, for dual-homed Ethernet hosts, its peer links; past it, an
  even count of leaves per plane under at least two spines.
- Spine-leaf groups (DGX SuperPOD GB200): per SU and rail, one leaf per node under spines that
  keep half their ports for the core; core group i joins spine i of every group. Part of one SU
  is sized to its ports: one leaf per rail and no spine while a rail fits one leaf (the RA's own
  guidance, a full SU's leaves for growth, is stated in the fabric's notes).
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from clustergen.catalog.models import Optic, Switch
from clustergen.engine.model.fabric import (
    CableLine,
    Cabling,
    FabricDesign,
    FabricPlan,
    FabricPower,
    TransceiverLine,
)
from clustergen.engine.sizing.fabric.clos import (
    Leaves,
    Upper,
    flat_leaves,
    group_leaves,
    group_upper,
    host_capacity,
    pair_leaves,
    pair_upper,
    radix_of,
    rail_leaves,
    single_tier_capacity,
    upper_tiers,
)
from clustergen.errors import InfeasibleDesignError, RequestError
from clustergen.units import ceil_div, plural, ratio


def known_power_w(fabric: FabricDesign) -> tuple[float, float]:
    """(switches, transceivers) watts of the parts whose power the catalog has."""
    optics = sum(t.power_w for t in fabric.transceivers if t.power_w is not None)
    return fabric.power.known_w - optics, optics


def _optic_power(
    optic: Optic | None, count: int, optical: bool
) -> tuple[float | None, float | None]:
    if optic is None:
        return (None, None) if optical else (0.0, 0.0)
    if optic.power_w is None:
        return None, None
    return optic.power_w, optic.power_w * count


def _sum(values: list[float | None]) -> float | None:
    if any(v is None for v in values):
        return None
    return float(sum(v for v in values if v is not None))


class _Planes:
    """How a node's fabric ports meet the planes."""

    __slots__ = ("count", "per_cable", "ports", "speed_gbps", "split")

    def __init__(
        self, *, count: int, split: bool, ports: int, speed_gbps: float, per_cable: int
    ) -> None:
        self.count = count
        self.split = split
        self.ports = ports  # a node's ports in one plane
        self.speed_gbps = speed_gbps  # a port's speed within one plane
        # Links of all planes in physical cables: a split cable carries a lane group of each plane.
        self.per_cable = per_cable


def _planes(plan: FabricPlan) -> _Planes:
    p = plan.planes
    if plan.plane_split and p > 1:
        # Twin-planar: each node port feeds every plane at a fraction of its speed, and the
        # switches run broken out at that speed, so a plane's radix (and its 2-tier reach, k^2/2)
        # is that of the lane speed.
        return _Planes(
            count=p,
            split=True,
            ports=plan.ports_per_node,
            speed_gbps=plan.port_speed_gbps / p,
            per_cable=p,
        )
    if plan.ports_per_node % p:
        raise RequestError(
            f"{plan.ports_per_node} node ports do not split evenly over {p} planes",
            hint="use a plane count that divides the ports per node",
        )
    return _Planes(
        count=p,
        split=False,
        ports=plan.ports_per_node // p,
        speed_gbps=plan.port_speed_gbps,
        per_cable=1,
    )


def _leaves(plan: FabricPlan, per_plane: int, radix: int, thin: bool = False) -> Leaves:
    fm = plan.fabric_manager_links
    if plan.spine_leaf_groups and plan.su_nodes is not None:
        return group_leaves(plan, per_plane, radix)
    below_su = plan.su_nodes is None or (plan.pair_below_su and plan.nodes < plan.su_nodes)
    if plan.redundant and below_su:
        pair = pair_leaves(plan, per_plane, radix, fm)
        if pair is not None:
            return pair
        if plan.su_nodes is None:
            return flat_leaves(plan, per_plane, radix, fm, thin)
    if plan.su_nodes is not None:
        return rail_leaves(plan, per_plane, radix, fm, thin)
    return flat_leaves(plan, per_plane, radix, fm, thin)


def _upper(plan: FabricPlan, leaves: Leaves, spine_radix: int, core_radix: int) -> Upper:
    if leaves.isl:
        return pair_upper()
    if plan.spine_leaf_groups and plan.su_nodes is not None:
        if not leaves.up:  # one leaf per rail holds the cluster: no tier above it
            return pair_upper()
        return group_upper(leaves, plan.su_nodes, spine_radix, core_radix)
    return upper_tiers(leaves, spine_radix, core_radix, leaves.per_su, plan.spines or 2)


class _Links(NamedTuple):
    """Cables per segment over all planes."""

    node: int
    fabric_manager: int
    leaf_spine: int
    spine_core: int
    inter_switch: int
    shared: int

    @property
    def host(self) -> int:
        return self.node + self.fabric_manager


def _links(plan: FabricPlan, planes: _Planes, leaves: Leaves, upper: Upper) -> _Links:
    p, per_cable = planes.count, planes.per_cable
    return _Links(
        node=plan.nodes * plan.ports_per_node,
        fabric_manager=leaves.fm_attached * p // per_cable,
        leaf_spine=upper.leaf_spine_links * p // per_cable,
        spine_core=upper.spine_core_links * p // per_cable,
        inter_switch=leaves.isl * p,  # switch to switch: never split across planes
        shared=plan.shared_hosts if leaves.isl else 0,
    )


def _bisection_gbps(plan: FabricPlan, planes: _Planes, leaves: Leaves, upper: Upper) -> float:
    used_hosts = plan.nodes * planes.ports + leaves.fm_attached
    if upper.tiers == 1 and leaves.isl:
        # A pair: the halves meet over the inter-switch links.
        bisection = min(used_hosts / 2, leaves.isl) * planes.speed_gbps
    elif upper.tiers == 1:
        bisection = used_hosts * planes.speed_gbps / 2
    else:
        links = min(used_hosts, upper.leaf_spine_links, upper.spine_capacity_links)
        bisection = links * planes.speed_gbps / 2
    return bisection * planes.count


class _Tiers(NamedTuple):
    """The switch model of each tier, and how many of it the fabric has over all planes."""

    leaf: Switch
    spine: Switch
    core: Switch
    leaves: int
    spines: int
    cores: int

    @property
    def switches(self) -> int:
        return self.leaves + self.spines + self.cores


def _switch_transceivers(
    tiers: _Tiers, leaves: Leaves, upper: Upper, planes: _Planes, cabling: Cabling
) -> tuple[int, int, int, int]:
    """Leaf, spine (leaf-facing), spine (core-facing) and core transceivers: per switch,
    ceil(ports its links use / ports per cage)."""
    p, speed = planes.count, planes.speed_gbps
    optical = cabling.optical
    leaf_ppc = tiers.leaf.ports_per_cage_at(speed) if cabling.switch_optic or optical else 1
    spine_ppc = tiers.spine.ports_per_cage_at(speed) if cabling.switch_optic or optical else 1
    leaf_xcvr = sum(ceil_div(h + leaves.up, leaf_ppc) * n for h, n in leaves.loads.items()) * p
    if upper.tiers == 1:
        return leaf_xcvr, 0, 0, 0
    up_per_spine = upper.spine_core_links // upper.spines
    # per spine, from the leaf links it takes (a partly built pod's spines take fewer)
    loads = upper.spine_down_loads or {upper.spine_ports_used - up_per_spine: upper.spines}
    spine_xcvr = sum(ceil_div(h, spine_ppc) * n for h, n in loads.items()) * p
    if upper.tiers == 2:
        return leaf_xcvr, spine_xcvr, 0, 0
    core_ppc = tiers.core.ports_per_cage_at(speed) if cabling.core_optic or optical else 1
    spine_up = upper.spines * ceil_div(up_per_spine, core_ppc) * p
    core_xcvr = upper.cores * ceil_div(upper.core_ports_used, core_ppc) * p
    return leaf_xcvr, spine_xcvr, spine_up, core_xcvr


Location = Literal["node", "fabric-manager", "leaf", "spine", "core"]


class _Line:
    """A `TransceiverLine` before it is written out: every layout of a blocking ladder counts its
    transceivers, and only the cheapest layout's lines become the design's (validated) lines."""

    __slots__ = ("count", "location", "optic", "power_w", "unit_power_w")

    def __init__(
        self,
        location: Location,
        optic: str | None,
        count: int,
        unit_power_w: float | None,
        power_w: float | None,
    ) -> None:
        self.location = location
        self.optic = optic
        self.count = count
        self.unit_power_w = unit_power_w
        self.power_w = power_w

    def written(self) -> TransceiverLine:
        return TransceiverLine(
            location=self.location,
            optic=self.optic,
            count=self.count,
            unit_power_w=self.unit_power_w,
            power_w=self.power_w,
        )


class _Power(NamedTuple):
    """A `FabricPower` before it is written out (as `_Line`)."""

    switches_w: float | None
    optics_w: float | None
    total_w: float | None
    known_w: float
    switch_power_basis: Literal["typical", "max"]


class FabricWatts(NamedTuple):
    """A fabric's power as a sweep re-weighs it: the known switch and transceiver watts, and
    whether either sum leaves a part out (its catalog power unknown)."""

    switches_w: float
    optics_w: float
    switches_unknown: bool
    optics_unknown: bool


def _transceivers(
    cabling: Cabling, node: int, fabric_manager: int, switches: tuple[int, int, int, int]
) -> list[_Line]:
    """One line per place that has transceivers; on optical links a missing part is still
    counted, with its power unknown. A spine's core-facing modules are the core links' optic
    (single-mode where the core runs it), on a second spine line when it differs."""
    leaf, spine, spine_up, core = switches
    core_optic = cabling.core_optic or cabling.switch_optic
    same = (core_optic.id if core_optic else None) == (
        cabling.switch_optic.id if cabling.switch_optic else None
    )
    places: list[tuple[Location, Optic | None, int]] = [
        ("node", cabling.node_optic, node),
        ("fabric-manager", cabling.fabric_manager_optic, fabric_manager),
        ("leaf", cabling.switch_optic, leaf),
    ]
    if same:
        places.append(("spine", cabling.switch_optic, spine + spine_up))
    else:
        places += [("spine", cabling.switch_optic, spine), ("spine", core_optic, spine_up)]
    places.append(("core", core_optic, core))
    lines: list[_Line] = []
    for location, optic, count in places:
        if count == 0 or (optic is None and not cabling.optical):
            continue
        unit, total = _optic_power(optic, count, cabling.optical)
        lines.append(_Line(location, optic.id if optic else None, count, unit, total))
    return lines


def _cables(plan: FabricPlan, planes: _Planes, links: _Links, cabling: Cabling) -> list[CableLine]:
    media = "optical" if cabling.switch_optic or cabling.optical else "passive copper (DAC)"
    if planes.split:
        media += f", split {planes.count} x {planes.speed_gbps:g}G across the planes"
    speed = plan.port_speed_gbps
    cables = [CableLine(segment="node-leaf", media=media, speed_gbps=speed, count=links.node)]
    if links.shared:
        cables.append(
            CableLine(
                segment="shared-leaf",
                media="north-south (node adapters, storage, management servers)",
                speed_gbps=speed,
                count=links.shared,
            )
        )
    if links.inter_switch:
        cables.append(
            CableLine(
                segment="inter-switch",
                media="passive copper (DAC)",
                speed_gbps=planes.speed_gbps,
                count=links.inter_switch,
            )
        )
    if links.fabric_manager:
        cables.append(
            CableLine(
                segment="fabric-manager-leaf",
                media=media,
                speed_gbps=speed,
                count=links.fabric_manager,
            )
        )
    if links.leaf_spine:
        cables.append(
            CableLine(segment="leaf-spine", media=media, speed_gbps=speed, count=links.leaf_spine)
        )
    if links.spine_core:
        # single-mode only where the core's part is (the core takes the switch side's own part,
        # multimode or an active cable, where the catalog has no single-mode one)
        single = cabling.core_optic is not None and cabling.core_optic.media == "singlemode"
        core_media = "optical, single-mode" if single else media
        cables.append(
            CableLine(
                segment="spine-core", media=core_media, speed_gbps=speed, count=links.spine_core
            )
        )
    return cables


def switch_power_w(sw: Switch, basis: Literal["typical", "max"] = "typical") -> float | None:
    """A switch's power on the basis asked for; a switch with no typical figure is budgeted at its
    published maximum (an upper bound), so a known maximum never leaves the sum unknown."""
    if basis == "typical":
        return sw.typical_power_w if sw.typical_power_w is not None else sw.max_power_w
    return sw.max_power_w


def _power(tiers: _Tiers, lines: list[_Line], basis: Literal["typical", "max"]) -> _Power:
    def sw_power(sw: Switch) -> float | None:
        return switch_power_w(sw, basis)

    switch_terms: list[float | None] = [
        None if sw_power(tiers.leaf) is None else tiers.leaves * (sw_power(tiers.leaf) or 0.0)
    ]
    for sw, n in ((tiers.spine, tiers.spines), (tiers.core, tiers.cores)):
        if n:
            switch_terms.append(None if sw_power(sw) is None else n * (sw_power(sw) or 0.0))
    switches_w = _sum(switch_terms)
    optics_w = _sum([line.power_w for line in lines])
    return _Power(
        switches_w=switches_w,
        optics_w=optics_w,
        total_w=None if switches_w is None or optics_w is None else switches_w + optics_w,
        known_w=sum(t for t in switch_terms if t is not None)
        + sum(line.power_w for line in lines if line.power_w is not None),
        switch_power_basis=basis,
    )


def _leaf_notes(plan: FabricPlan, leaves: Leaves) -> list[str]:
    notes: list[str] = []
    if plan.fabric_manager_links and not leaves.fm_attached:
        notes.append(
            f"fabric manager not attached to the compute leaves: every node slot of the "
            f"{plural(leaves.sus, 'SU')} {'is' if leaves.sus == 1 else 'are'} taken; the SuperPOD RA gives the UFM one node slot, so "
            f"{plan.nodes - 1} nodes would leave room for it"
        )
    if plan.su_nodes is not None and leaves.per_su and leaves.count > leaves.per_su:
        last = leaves.count - (leaves.sus - 1) * leaves.per_su
        # spine-leaf groups give a part-built SU a leaf per node and rail, not the full set
        partly = (
            "a partly filled SU still gets its full set of leaves"
            if last >= leaves.per_su
            else f"the part-built last SU has the {last} leaves its nodes need"
        )
        notes.append(
            f"rail-optimized: {leaves.per_su} leaves per SU of {plan.su_nodes} nodes per plane; "
            + partly
        )
    if plan.spine_leaf_groups and plan.su_nodes is not None and plan.nodes < plan.su_nodes:
        built = (
            "one leaf per rail holds every node's ports of it, so no spine"
            if not leaves.up
            else "a leaf per node and rail under its rail group's spines"
        )
        notes.append(
            f"part of one SU ({plan.nodes} of {plan.su_nodes} nodes): sized to its ports, "
            f"{built}; the DGX SuperPOD GB200 RA (Network Fabrics) instead builds a full SU's "
            "leaf switches and leaf-spine cables for another node count, leaving the rest "
            "unused, so the fabric grows to a whole SU without recabling"
        )
    return notes


def _optic_notes(lines: list[_Line]) -> list[str]:
    return [
        f"{line.location} transceivers: none in the catalog fits; {line.count} counted, their "
        "power unknown"
        for line in lines
        if line.optic is None
    ]


def _plane_notes(plan: FabricPlan, planes: _Planes, leaf_radix: int) -> list[str]:
    if not planes.split:
        return []
    p, speed = planes.count, planes.speed_gbps
    return [
        f"{p} planes, each {plan.port_speed_gbps:g} Gb/s node port split {p} x {speed:g} Gb/s "
        f"(one per plane): each plane is {planes.ports} x {speed:g} Gb/s per node on "
        f"radix-{leaf_radix} switches; links are counted by the {plan.port_speed_gbps:g} Gb/s "
        "cable"
    ]


def _pair_notes(plan: FabricPlan, leaves: Leaves, upper: Upper) -> list[str]:
    if not leaves.isl:
        return []
    kind = (
        f"{leaves.isl} peer links"
        if plan.peer_links
        else f"{leaves.isl} inter-switch links (half the host links: non-blocking between the two)"
    )
    return [
        f"a redundant switch pair (per plane) with no spine: every host port on one of the two, {kind}"
    ]


def _power_notes(power: _Power, tiers: _Tiers) -> list[str]:
    notes: list[str] = []
    if power.switch_power_basis == "typical":
        for sw in {tiers.leaf.id: tiers.leaf, tiers.spine.id: tiers.spine}.values():
            if sw.typical_power_w is None and sw.max_power_w is not None:
                notes.append(
                    f"{sw.id} has no published typical power: budgeted at its "
                    f"{sw.max_power_w:,.0f} W maximum (an upper bound)"
                )
    if power.switches_w is None:
        notes.append(
            f"switch {power.switch_power_basis} power unknown in the catalog; fabric power is "
            "partial"
        )
    if power.optics_w is None:
        notes.append("a transceiver's power is unknown in the catalog; optics power is partial")
    return notes


#: leaf downlink:uplink ratios a blocking fabric may be built at: a ratio asked for is met by the
#: cheapest build at any of these up to it (a leaf split whose uplink count has no convenient
#: divisor can need more spines than a less blocking one)
RATIO_LADDER = (1.0, 4 / 3, 3 / 2, 5 / 3, 2.0, 5 / 2, 3.0, 4.0, 6.0, 8.0)


def size_clos(
    plan: FabricPlan,
    leaf: Switch,
    spine: Switch | None = None,
    core: Switch | None = None,
    cabling: Cabling | None = None,
    switch_power_basis: Literal["typical", "max"] = "typical",
) -> FabricDesign:
    """Size a leaf/spine(/core) fat tree for `plan` from Clos rules. A blocking plan (N:1) is
    built at the cheapest ratio up to N, so it never costs more switches than a less blocking
    one: fewer uplinks and spines, or fewer leaves, never more. The ladder's layouts are weighed
    by their counts; only the cheapest is written out as a design."""
    asked = plan.oversubscription
    best = _cheapest(plan, leaf, spine, core, cabling, switch_power_basis)
    design = _design(best)
    if asked > 1.0 and abs(best.oversubscription - asked) > 0.01 * asked:
        note = (
            f"{ratio(asked)} asked; built at {ratio(best.oversubscription)}, which needs fewer "
            f"switches and transceivers than the {ratio(asked)} leaf split"
        )
        design = design.model_copy(update={"notes": [*design.notes, note]})
    return design


def clos_watts(
    plan: FabricPlan,
    leaf: Switch,
    spine: Switch | None = None,
    core: Switch | None = None,
    cabling: Cabling | None = None,
) -> FabricWatts:
    """The power of the fabric `size_clos` builds for the same arguments, `known_power_w` of its
    design, without writing the design out: what a sweep re-weighs at every node count."""
    best = _cheapest(plan, leaf, spine, core, cabling, "typical")
    optics = sum(line.power_w for line in best.lines if line.power_w is not None)
    return FabricWatts(
        switches_w=float(best.power.known_w) - optics,
        optics_w=float(optics),
        switches_unknown=best.power.switches_w is None,
        optics_unknown=best.power.optics_w is None,
    )


def _cheapest(
    plan: FabricPlan,
    leaf: Switch,
    spine: Switch | None,
    core: Switch | None,
    cabling: Cabling | None,
    switch_power_basis: Literal["typical", "max"],
) -> _Layout:
    """The layout `size_clos` writes out: the plan's own, or a blocking ladder's cheapest. A
    layout's cost starts with its switch count, so only the ladder's layouts with the fewest
    switches have their transceivers and power counted: no other can be the cheapest."""
    asked = plan.oversubscription
    if asked <= 1.0:
        return _lay_out(plan, leaf, spine, core, cabling, switch_power_basis)
    ratios = sorted({r for r in RATIO_LADDER if r < asked - 1e-9} | {asked})
    counted: list[_Counted] = []
    for r in ratios:
        at = plan._replace(oversubscription=r)
        for thin in (False, True) if r > 1.0 else (False,):
            try:
                counted.append(_count(at, leaf, spine, core, cabling, thin))
            except (InfeasibleDesignError, RequestError):
                if r == asked and not thin and not counted:
                    raise
    if not counted:  # pragma: no cover - the asked ratio's own build raised above
        raise InfeasibleDesignError(f"no fat tree of these switches builds {ratio(asked)}")
    fewest = min(c.tiers.switches for c in counted)
    built = [_finish(c, switch_power_basis) for c in counted if c.tiers.switches == fewest]
    return min(built, key=lambda b: b.cost(asked))


class _Layout(NamedTuple):
    """One fat tree at one leaf split, counted but not yet written out as a `FabricDesign`."""

    plan: FabricPlan
    cabling: Cabling
    planes: _Planes
    tiers: _Tiers
    radix: tuple[int, int, int]  # leaf, spine, core
    leaves: Leaves
    upper: Upper
    links: _Links
    lines: list[_Line]
    power: _Power

    @property
    def oversubscription(self) -> float:
        leaves = self.leaves
        return round(leaves.down / leaves.up if leaves.up else 1.0, 4)

    def cost(self, asked: float) -> tuple[float, float, float, float]:
        """What the build costs, first to last: switches, transceivers, power; then how far its
        ratio is from the one asked (at equal cost, the ratio asked)."""
        tiers = self.tiers
        optics = sum(t.count for t in self.lines)
        switches = tiers.switches
        return (switches, optics, self.power.known_w, abs(self.oversubscription - asked))


class _Counted(NamedTuple):
    """A fat tree's switch counts at one leaf split: the part of a layout that can rule it
    out (a ladder's layout with more switches than another is never the cheapest)."""

    plan: FabricPlan
    cabling: Cabling
    planes: _Planes
    tiers: _Tiers
    radix: tuple[int, int, int]  # leaf, spine, core
    leaves: Leaves
    upper: Upper


def _count(
    plan: FabricPlan,
    leaf: Switch,
    spine: Switch | None,
    core: Switch | None,
    cabling: Cabling | None,
    thin: bool = False,
) -> _Counted:
    """The switches of one fat tree at the plan's ratio: the widest leaf split, or (`thin`) the
    non-blocking downlinks with fewer uplinks."""
    spine = spine or leaf
    core = core or spine
    planes = _planes(plan)
    p, speed = planes.count, planes.speed_gbps
    leaf_radix = radix_of(leaf, speed, "leaf")
    spine_radix = radix_of(spine, speed, "spine")
    core_radix = radix_of(core, speed, "core")
    leaves = _leaves(plan, planes.ports, leaf_radix, thin)
    upper = _upper(plan, leaves, spine_radix, core_radix)
    tiers = _Tiers(
        leaf=leaf,
        spine=spine,
        core=core,
        leaves=leaves.count * p,
        spines=upper.spines * p,
        cores=upper.cores * p,
    )
    return _Counted(
        plan=plan,
        cabling=cabling or Cabling(),
        planes=planes,
        tiers=tiers,
        radix=(leaf_radix, spine_radix, core_radix),
        leaves=leaves,
        upper=upper,
    )


def _finish(c: _Counted, switch_power_basis: Literal["typical", "max"]) -> _Layout:
    """A counted fat tree with its links, transceivers and power."""
    plan, planes, leaves, upper = c.plan, c.planes, c.leaves, c.upper
    links = _links(plan, planes, leaves, upper)
    node_xcvr = plan.nodes * ceil_div(plan.ports_per_node, plan.node_ports_per_cage)
    switch_xcvr = _switch_transceivers(c.tiers, leaves, upper, planes, c.cabling)
    lines = _transceivers(c.cabling, node_xcvr, links.fabric_manager, switch_xcvr)
    return _Layout(
        plan=plan,
        cabling=c.cabling,
        planes=planes,
        tiers=c.tiers,
        radix=c.radix,
        leaves=leaves,
        upper=upper,
        links=links,
        lines=lines,
        power=_power(c.tiers, lines, switch_power_basis),
    )


def _lay_out(
    plan: FabricPlan,
    leaf: Switch,
    spine: Switch | None,
    core: Switch | None,
    cabling: Cabling | None,
    switch_power_basis: Literal["typical", "max"],
    thin: bool = False,
) -> _Layout:
    """One fat tree at the plan's ratio, counted and finished (`_count`'s `thin`)."""
    return _finish(_count(plan, leaf, spine, core, cabling, thin), switch_power_basis)


def _design(b: _Layout) -> FabricDesign:
    """The fabric design of a layout: its counts, cables, bisection and notes."""
    plan, planes, leaves, upper, links = b.plan, b.planes, b.leaves, b.upper, b.links
    leaf_radix, spine_radix, core_radix = b.radix
    p = planes.count
    return FabricDesign(
        technology=b.tiers.leaf.technology,
        tiers=upper.tiers,
        planes=p,
        plane_split=planes.split,
        plane_port_speed_gbps=planes.speed_gbps,
        rail_optimized=plan.su_nodes is not None,
        rails=(plan.rails or planes.ports) if plan.su_nodes is not None else None,
        su_nodes=plan.su_nodes,
        scalable_units=leaves.sus,
        nodes=plan.nodes,
        port_speed_gbps=plan.port_speed_gbps,
        leaf_switch=b.tiers.leaf.id,
        spine_switch=b.tiers.spine.id if upper.tiers >= 2 else None,
        core_switch=b.tiers.core.id if upper.tiers == 3 else None,
        leaf_radix=leaf_radix,
        spine_radix=spine_radix if upper.tiers >= 2 else None,
        core_radix=core_radix if upper.tiers == 3 else None,
        leaf_switches=b.tiers.leaves,
        spine_switches=b.tiers.spines,
        core_switches=b.tiers.cores,
        total_switches=b.tiers.leaves + b.tiers.spines + b.tiers.cores,
        leaves_per_su=leaves.per_su,
        leaf_downlinks=leaves.down,
        leaf_uplinks=leaves.up,
        links_per_leaf_spine_pair=upper.pair_links,
        pods=upper.pods,
        spines_per_pod=upper.spines_per_pod,
        core_groups=upper.core_groups,
        node_links=links.node,
        fabric_manager_links=links.fabric_manager,
        host_links=links.host,
        inter_switch_links=links.inter_switch,
        leaf_spine_links=links.leaf_spine,
        spine_core_links=links.spine_core,
        total_links=links.host + links.inter_switch + links.leaf_spine + links.spine_core,
        oversubscription=b.oversubscription,
        host_port_capacity=leaves.count * leaves.down * p // planes.per_cable,
        max_host_ports_at_tiers=(
            single_tier_capacity(leaves, leaf_radix, plan.peer_links)
            if upper.tiers == 1
            else host_capacity(upper.tiers, leaves.down, spine_radix, core_radix)
        ),
        bisection_bandwidth_gbps=_bisection_gbps(plan, planes, leaves, upper),
        max_ports_used={
            "leaf": max(leaves.loads) + leaves.up + leaves.isl,
            "spine": upper.spine_ports_used,
            "core": upper.core_ports_used,
        },
        transceivers=[line.written() for line in b.lines],
        cables=_cables(plan, planes, links, b.cabling),
        power=FabricPower(**b.power._asdict()),
        notes=[
            *_leaf_notes(plan, leaves),
            *_optic_notes(b.lines),
            *_plane_notes(plan, planes, leaf_radix),
            *_pair_notes(plan, leaves, upper),
            *_power_notes(b.power, b.tiers),
        ],
    )
