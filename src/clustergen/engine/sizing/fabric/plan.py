"""A platform's compute fabric: the reference architecture it follows, the switches and optics it
gets by default (every default named), and the fabric sized for a node count."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from clustergen.catalog.architectures import Architecture, FabricSpec
from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Optic, Switch, System
from clustergen.engine.cache import cached, own
from clustergen.engine.model.bounds import MAX_NODES, check_number
from clustergen.engine.model.common import Assumed, Technology
from clustergen.engine.model.compute import FabricChoices, PlatformFabric
from clustergen.engine.model.fabric import Cabling, FabricDesign, FabricPlan, FabricSetup
from clustergen.engine.sizing.fabric.cable_ends import host_cable_end, switch_cable_end
from clustergen.engine.sizing.fabric.host_optics import accepted_forms, host_optic, transceivers
from clustergen.engine.sizing.fabric.network import FabricWatts, clos_watts, size_clos
from clustergen.engine.sizing.inputs import Inputs, Notes
from clustergen.engine.sizing.platform import gpu_system
from clustergen.errors import CatalogGapError, RequestError
from clustergen.units import ratio

T = TypeVar("T")


def compute_ports(system: System) -> tuple[int, float, int]:
    """(ports per node, port speed Gb/s, ports per cage) of the system's compute fabric."""
    if system.compute is None or system.compute.ports == 0:
        raise CatalogGapError(
            f"system {system.id} has no compute-fabric ports in the catalog",
            entry=system.id,
            field="compute",
            hint="add its compute ports in a layered catalog, or pick another system",
        )
    c = system.compute
    return c.ports, c.port_speed_gbps, c.ports_per_cage


def default_switch(catalog: Catalog, technology: Technology, speed_gbps: float) -> Switch:
    """The leaf-capable switch of a technology with the most ports at the speed (fewest switches)."""
    candidates = [
        s
        for s in catalog.all(Switch)
        if s.technology == technology
        and ("leaf" in s.roles or not s.roles)
        and s.radix_at(speed_gbps) is not None
    ]
    if not candidates:
        raise RequestError(
            f"no {technology} switch in the catalog runs {speed_gbps:g} Gb/s ports",
            hint="name one with `switch`, or add one to a layered catalog",
        )
    return max(candidates, key=lambda s: (s.radix_at(speed_gbps) or 0, -(s.typical_power_w or 0)))


def find_optic(
    catalog: Catalog,
    *,
    total_gbps: float,
    ports: int,
    media: tuple[str, ...] = ("multimode", "singlemode"),
    technology: str | None = None,
) -> Optic | None:
    """A transceiver of the given bandwidth and port split, in the first of `media` the catalog
    has one in (NVIDIA publishes no multimode XDR parts, so single-mode follows multimode)."""

    def first() -> Optic | None:
        for m in media:
            for optic in transceivers(catalog, "total_gbps", "media"):
                if optic.total_gbps != total_gbps:
                    continue
                if optic.ports != ports or optic.media != m:
                    continue
                if technology and optic.technologies and technology not in optic.technologies:
                    continue
                return optic
        return None

    return cached(catalog, ("find_optic", total_gbps, ports, media, technology), first)


def choose_cabling(
    catalog: Catalog, system: System, leaf: Switch, speed_gbps: float, lanes_per_port: int = 1
) -> Cabling:
    """Optical links as the SuperPOD RAs build them: multimode to the spines (single-mode where
    no multimode part exists), single-mode to the core.

    The switch side uses transceivers sized to the switch cage; the node side to its own cage,
    which carries `lanes_per_port` ports of `speed_gbps` when its port is split across planes."""

    def make() -> Cabling:
        return _cabling(catalog, system, leaf, speed_gbps, lanes_per_port)

    if not (own(catalog, "systems", system) and own(catalog, "switches", leaf)):
        # a caller's own variant of a part: nothing to share
        return make()
    return cached(catalog, ("choose_cabling", system.id, leaf.id, speed_gbps, lanes_per_port), make)


def _cabling(
    catalog: Catalog, system: System, leaf: Switch, speed_gbps: float, lanes_per_port: int
) -> Cabling:
    _, native, native_ppc = compute_ports(system)
    node_ppc = native_ppc * lanes_per_port
    cage = leaf.cage_gbps or speed_gbps
    switch_ppc = leaf.ports_per_cage_at(speed_gbps)
    tech = leaf.technology

    def optic(total_gbps: float, ports: int) -> Optic | None:
        return find_optic(catalog, total_gbps=total_gbps, ports=ports, technology=tech)

    # Ports run slower than their cage (BasePOD NDR200: NDR ports at 200G): the cage's own
    # module, the split done in the fibre or splitter cable. A cage of 200 Gb/s or less takes an
    # active optical cable as the RAs cable such ports (`switch_cable_end`). A switch whose cage
    # rate the catalog does not know gets no module picked for a guessed cage: its ends are
    # unknown.
    switch_optic = core_optic = None
    if leaf.cage_gbps is not None:
        switch_optic = (
            switch_cable_end(catalog, leaf, speed_gbps)
            or optic(cage, switch_ppc)
            or cage_optic(catalog, cage, tech)
        )
        core_optic = find_optic(
            catalog, total_gbps=cage, ports=switch_ppc, media=("singlemode",), technology=tech
        )
    cage_form = system.compute.cage_form if system.compute else None
    accepts = accepted_forms(catalog, system.compute)

    def node(total_gbps: float, ports: int) -> Optic | None:
        # the switch side's active cable is the node's end too where it fits the node's cage
        end = host_cable_end(
            switch_optic, total_gbps=total_gbps, ports=ports, cage_form=cage_form, accepts=accepts
        )
        return end or host_optic(
            catalog, total_gbps=total_gbps, ports=ports, cage_form=cage_form, technology=tech
        )

    node_optic = node(speed_gbps * node_ppc, node_ppc)
    if node_optic is None and lanes_per_port == 1 and speed_gbps < native:
        node_optic = node(native * native_ppc, native_ppc)
    return Cabling(
        node_optic=node_optic,
        switch_optic=switch_optic,
        core_optic=core_optic or switch_optic,
        fabric_manager_optic=_fabric_manager_optic(catalog, switch_optic, speed_gbps, tech),
        optical=True,
    )


def _fabric_manager_optic(
    catalog: Catalog, switch_optic: Optic | None, speed_gbps: float, tech: str
) -> Optic | None:
    """The fabric manager's end of its link: the switch side's active cable where it fits the
    manager's cage, else a module of the link's rate for that cage."""
    cage = _fabric_manager_cage(catalog)
    return host_cable_end(switch_optic, total_gbps=speed_gbps, ports=1, cage_form=cage) or (
        host_optic(catalog, total_gbps=speed_gbps, ports=1, cage_form=cage, technology=tech)
    )


def _fabric_manager_cage(catalog: Catalog) -> str | None:
    """The fabric-facing cage of the catalog's fabric managers where they share one (the UFM
    appliance's ConnectX-7 is OSFP: H100 RA Table 8 takes 980-9I51S-00NS00 on the UFM side)."""
    forms = {
        s.compute.cage_form
        for s in catalog.all(System)
        if s.kind == "fabric-manager" and s.compute is not None
    }
    return forms.pop() if len(forms) == 1 else None


def resolve_fabric(
    catalog: Catalog,
    system: System,
    nodes: int,
    *,
    switch: str | None = None,
    technology: Technology | None = None,
    su_nodes: int | None = None,
    rail_optimized: bool | None = None,
    oversubscription: float | None = None,
    planes: int | None = None,
    port_speed_gbps: float | None = None,
    fabric_manager: bool = True,
) -> FabricSetup:
    """Fill every compute-fabric choice the caller left open from the system's reference
    architecture (or the Enterprise RA defaults) and say which were assumed.

    Resolved once per catalog, system, architecture and choices: only the plan's node count
    differs between node counts (a sweep asks at every count, a trade study at every design),
    except where the scalable unit is one rail leaf's downlinks capped at the nodes (no
    architecture and no SU given), which is resolved per node count."""
    arch: Architecture | None = catalog.architecture_for(
        system.id,
        technology or (catalog.switch(switch).technology if switch else None),
        nodes,
        port_speed_gbps,
    )
    choices = (
        switch,
        technology,
        su_nodes,
        rail_optimized,
        oversubscription,
        planes,
        port_speed_gbps,
        fabric_manager,
    )

    def resolve() -> FabricSetup:
        return _resolve_fabric(catalog, system, nodes, arch, *choices)

    if not own(catalog, "systems", system):
        return resolve()
    per_count = nodes if arch is None and su_nodes is None else None
    key = ("resolve_fabric", system.id, arch.id if arch else None, choices, per_count)
    setup = cached(catalog, key, resolve)
    if setup.plan.nodes == nodes:
        return setup
    return setup._replace(plan=setup.plan._replace(nodes=nodes))


def _resolve_fabric(
    catalog: Catalog,
    system: System,
    nodes: int,
    arch: Architecture | None,
    switch: str | None,
    technology: Technology | None,
    su_nodes: int | None,
    rail_optimized: bool | None,
    oversubscription: float | None,
    planes: int | None,
    port_speed_gbps: float | None,
    fabric_manager: bool,
) -> FabricSetup:
    """`resolve_fabric` on the architecture found for the system and node count."""
    assumed: list[Assumed] = []
    ports, speed, node_ppc = compute_ports(system)
    spec = arch.compute_fabric if arch else None
    native_speed = speed
    ports, speed = _node_ports(system, arch, planes, (ports, speed), port_speed_gbps, assumed)
    leaf = _leaf_switch(catalog, arch, switch, technology, speed, assumed)
    # The RA's layout holds only on the RA's own switch.
    ra = arch if arch is not None and spec is not None and spec.switch == leaf.id else None
    ra_speed = bool(ra and port_speed_gbps is None and ra.compute_fabric.port_speed_gbps)
    if ra is not None and ra_speed and ra.compute_fabric.port_speed_gbps:
        # The RA runs the node ports slower (BasePOD NDR200: eight ports at 200G each).
        speed = ra.compute_fabric.port_speed_gbps
        assumed.append(
            Assumed(
                field="port_speed_gbps",
                value=f"{speed:g}",
                reason=f"{ra.name}: node ports at {speed:g} Gb/s",
                source=ra.source,
            )
        )
    if rail_optimized is None:
        rail_optimized = ra.compute_fabric.rail_optimized if ra else system.gpus_per_node >= 4
    full_su: int | None = None
    if rail_optimized:
        su_nodes, full_su = _scalable_unit(arch, leaf, speed, nodes, su_nodes, assumed)
    else:
        su_nodes = None
    if oversubscription is None:
        oversubscription = ra.compute_fabric.oversubscription if ra else 1.0
        assumed.append(
            Assumed(
                field="oversubscription",
                value=f"{ratio(oversubscription)}",
                reason="non-blocking fat tree (the SuperPOD and Enterprise RA compute fabrics are)",
            )
        )
    planes = _planes(ra, planes, speed, assumed)
    split = bool(
        ra
        and ra.compute_fabric.plane_split
        and planes == (ra.compute_fabric.planes or 1)
        and speed
        == native_speed  # ports already broken out to a slower port_speed_gbps are not split again
    )
    layout = ra.compute_fabric if ra else None
    plan = FabricPlan(
        nodes=nodes,
        ports_per_node=ports,
        port_speed_gbps=speed,
        su_nodes=su_nodes,
        oversubscription=oversubscription,
        planes=planes,
        plane_split=split,
        fabric_manager_links=ra.fabric_manager_links if (ra and fabric_manager) else 0,
        node_ports_per_cage=node_ppc if speed == native_speed or ra_speed else 1,
        rails=layout.rails if layout and rail_optimized else None,
        redundant=bool(layout and layout.redundant),
        pair_below_su=bool(layout and layout.pair_below_su),
        spine_leaf_groups=bool(layout and layout.spine_leaf_groups and rail_optimized),
    )
    cabling = choose_cabling(
        catalog,
        system,
        leaf,
        speed / planes if split else speed,
        lanes_per_port=planes if split else 1,
    )
    return FabricSetup(
        plan=plan,
        leaf=leaf,
        spine=leaf,
        core=leaf,
        cabling=cabling,
        architecture=ra.id if ra else None,
        full_su_nodes=full_su,
        assumed=tuple(assumed),
    )


def _node_ports(
    system: System,
    arch: Architecture | None,
    planes: int | None,
    native: tuple[int, float],
    port_speed_gbps: float | None,
    assumed: list[Assumed],
) -> tuple[int, float]:
    """The node's compute ports and their speed: its own, broken out to a slower speed asked
    for, or, on fewer planes than its RA splits each port over, one link a port at the lane
    speed (the RA's single-plane option), each port still one link rather than one per lane."""
    ports, speed = native
    lane = _single_plane_lane(arch.compute_fabric if arch else None, planes, speed, port_speed_gbps)
    if lane is not None:
        assumed.append(
            Assumed(
                field="port_speed_gbps",
                value=f"{lane:g}",
                reason=f"single plane: each {speed:g} Gb/s node port runs one "
                f"{lane:g} Gb/s link, as one plane of the RA's split port",
                source=arch.source if arch else None,
            )
        )
        return ports, lane
    if port_speed_gbps is not None and port_speed_gbps != speed:
        return _broken_out(system, ports, speed, port_speed_gbps)
    return ports, speed


def _single_plane_lane(
    spec: FabricSpec | None, planes: int | None, speed: float, wanted: float | None
) -> float | None:
    """The lane speed a node port runs at when asked for fewer planes than the RA splits it over
    (ERA-00011-001's single-plane HGX B300: one 400G link per GPU from its 800G port, on half the
    leaves and no spine at 16 nodes), unless another speed was asked for; else None."""
    if spec is None or not spec.plane_split or not spec.planes or planes is None:
        return None
    lane = speed / spec.planes
    if planes >= spec.planes or wanted not in (None, lane):
        return None
    return lane


def _broken_out(system: System, ports: int, speed: float, wanted: float) -> tuple[int, float]:
    """Node ports broken out to a slower speed (the request's `port_speed_gbps`)."""
    if wanted > speed:
        raise RequestError(
            f"{system.id} compute ports run at {speed:g} Gb/s; {wanted:g} Gb/s is faster",
            hint=f"use `port_speed_gbps` {speed:g} or lower",
            field="port_speed_gbps",
            value=wanted,
            limit=speed,
        )
    return int(ports * (speed // wanted)), wanted


def _leaf_switch(
    catalog: Catalog,
    arch: Architecture | None,
    switch: str | None,
    technology: Technology | None,
    speed: float,
    assumed: list[Assumed],
) -> Switch:
    """The named switch; else the RA's, unless another technology was asked for; else the
    Enterprise RA default (Spectrum-X Ethernet)."""
    spec = arch.compute_fabric if arch else None
    if switch is not None:
        leaf = catalog.switch(switch)
    elif technology is not None and (spec is None or spec.technology != technology):
        leaf = default_switch(catalog, technology, speed)
        reason = f"largest-radix {technology} switch at {speed:g} Gb/s in the catalog"
        assumed.append(Assumed(field="switch", value=leaf.id, reason=reason, source=leaf.source))
    elif spec is not None and arch is not None:
        leaf = catalog.switch(spec.switch)
        reason = f"{arch.name} compute fabric"
        assumed.append(Assumed(field="switch", value=leaf.id, reason=reason, source=arch.source))
    else:
        leaf = default_switch(catalog, "ethernet", speed)
        reason = "NVIDIA Enterprise RA default: Spectrum-X Ethernet"
        assumed.append(Assumed(field="switch", value=leaf.id, reason=reason, source=leaf.source))
    if technology is not None and leaf.technology != technology:
        raise RequestError(
            f"switch {leaf.id} is {leaf.technology}, not {technology}",
            field="switch",
            value=leaf.id,
            limit=technology,
        )
    return leaf


def _scalable_unit(
    arch: Architecture | None,
    leaf: Switch,
    speed: float,
    nodes: int,
    su_nodes: int | None,
    assumed: list[Assumed],
) -> tuple[int, int]:
    """(SU of this cluster, whole SU) of a rail-optimized fabric: the one given, the RA's, or
    one rail leaf's downlinks (an SU fills each rail leaf)."""
    if su_nodes is not None:
        return su_nodes, su_nodes
    if arch is not None:
        assumed.append(
            Assumed(
                field="su_nodes",
                value=str(arch.su_nodes),
                reason=f"{arch.name} scalable unit",
                source=arch.source,
            )
        )
        return arch.su_nodes, arch.su_nodes
    full = _default_su(leaf, speed)
    su = min(nodes, full)
    assumed.append(
        Assumed(
            field="su_nodes",
            value=str(su),
            reason="one rail leaf's downlinks: an SU fills each rail leaf",
        )
    )
    return su, full


def _planes(
    ra: Architecture | None, planes: int | None, speed: float, assumed: list[Assumed]
) -> int:
    """The planes given, else the RA's (on its own switch), else one."""
    spec = ra.compute_fabric if ra else None
    if planes is None and ra is not None and spec is not None and spec.planes:
        planes = spec.planes
        split = f": each {speed:g} Gb/s node port split {planes} ways, one per plane"
        assumed.append(
            Assumed(
                field="planes",
                value=str(planes),
                reason=f"{ra.name} compute fabric" + (split if spec.plane_split else ""),
                source=ra.source,
            )
        )
    return planes or 1


def _default_su(leaf: Switch, speed: float) -> int:
    # Each node puts one port on each rail leaf, so an SU is as many nodes as a non-blocking
    # leaf has downlinks, whatever the node's port count.
    radix = leaf.radix_at(speed) or leaf.ports
    return max(1, radix // 2)


def size_setup(catalog: Catalog, setup: FabricSetup) -> FabricDesign:
    """The fabric a setup describes, sized once per catalog: the trade study, the power-first
    search and the design ask for the same fabric (DGX H100 and H200 share one), so a fabric
    already sized is taken as it is."""

    def size() -> FabricDesign:
        return size_clos(setup.plan, setup.leaf, setup.spine, setup.core, setup.cabling)

    return _once(catalog, setup, "size_setup", size)


def setup_watts(catalog: Catalog, setup: FabricSetup) -> FabricWatts:
    """The power of the fabric `size_setup` sizes for the setup (its `known_power_w`), counted
    without writing the design out, once per catalog: a sweep re-weighs it at every node count
    and reads nothing else of it."""

    def count() -> FabricWatts:
        return clos_watts(setup.plan, setup.leaf, setup.spine, setup.core, setup.cabling)

    return _once(catalog, setup, "setup_watts", count)


def _once(catalog: Catalog, setup: FabricSetup, kind: str, compute: Callable[[], T]) -> T:
    """`compute()` once per catalog and setup, unless the setup holds a caller's own variant of
    a part (sized afresh)."""
    parts = [setup.leaf, setup.spine, setup.core]
    c = setup.cabling
    optics = [c.node_optic, c.switch_optic, c.core_optic, c.fabric_manager_optic]
    if not (own(catalog, "switches", *parts) and own(catalog, "optics", *optics)):
        return compute()
    key = (
        kind,
        setup.plan,
        *(sw.id for sw in parts),
        *(o.id if o else None for o in optics),
        c.optical,
    )
    return cached(catalog, key, compute)


def cage_optic(catalog: Catalog, total_gbps: float, technology: str | None) -> Optic | None:
    """The transceiver a cage of `total_gbps` takes whatever its port split (a split to slower
    ports is done in the fibre or splitter cable), multimode first."""

    def first() -> Optic | None:
        for m in ("multimode", "singlemode"):
            for optic in transceivers(catalog, "total_gbps", "media"):
                if optic.total_gbps != total_gbps:
                    continue
                if optic.media != m:
                    continue
                if technology and optic.technologies and technology not in optic.technologies:
                    continue
                return optic
        return None

    return cached(catalog, ("cage_optic", total_gbps, technology), first)


def choose_cabling_for(catalog: Catalog, sw: Switch, speed: float) -> Cabling:
    """Cabling for a storage or converged fabric: the switch-side end of each link, sized to the
    cage. Cages of 200 Gb/s and below take active optical cables (counted per end), faster ones a
    transceiver of the cage's rate (its port split done in the fibre). Node-side ends draw from
    the node's own power budget."""
    if sw.cage_gbps is None:
        # a module picked for a guessed cage may not fit it: the switch ends stay unknown
        return Cabling(switch_optic=None, core_optic=None, optical=True)
    cage = sw.cage_gbps
    ppc = sw.ports_per_cage_at(speed)
    tech = sw.technology
    optic = switch_cable_end(catalog, sw, speed)
    optic = optic or find_optic(catalog, total_gbps=cage, ports=ppc, technology=tech)
    optic = optic or cage_optic(catalog, cage, tech)
    manager = _fabric_manager_optic(catalog, optic, speed, tech)
    return Cabling(switch_optic=optic, core_optic=optic, fabric_manager_optic=manager)


def platform_setup(
    catalog: Catalog, system: System, nodes: int, choices: FabricChoices
) -> FabricSetup:
    return resolve_fabric(
        catalog,
        system,
        nodes,
        switch=choices.switch,
        technology=choices.technology,
        su_nodes=choices.su_nodes,
        rail_optimized=choices.rail_optimized,
        oversubscription=choices.oversubscription,
        planes=choices.planes,
        port_speed_gbps=choices.port_speed_gbps,
        fabric_manager=choices.fabric_manager,
    )


def platform_fabric(
    catalog: Catalog, platform: str, nodes: int, choices: FabricChoices | None = None
) -> PlatformFabric:
    """Size the compute fabric of `nodes` nodes of a platform."""
    if nodes < 1:
        raise RequestError(
            f"nodes must be at least 1, got {nodes}", field="nodes", value=nodes, limit=1
        )
    check_number("nodes", nodes, ge=1, le=MAX_NODES)
    system = gpu_system(catalog, platform)
    setup = platform_setup(catalog, system, nodes, choices or FabricChoices())
    fabric = size_setup(catalog, setup)
    return PlatformFabric(
        platform=system.id,
        gpus_per_node=system.gpus_per_node,
        gpus=nodes * system.gpus_per_node,
        architecture=setup.architecture,
        assumed=list(setup.assumed),
        fabric=fabric,
    )


def compute_fabric(
    inputs: Inputs, nodes: int, notes: Notes, sized: tuple[FabricSetup, FabricDesign] | None = None
) -> tuple[FabricSetup, FabricDesign]:
    """The design's compute fabric for `nodes` nodes, following the choices; `sized` is a fabric
    the cap solve already built for this node count, taken as it is rather than sized again."""
    choices = inputs.choices
    if sized is None or sized[0].plan.nodes != nodes:
        # a port speed asked for at the node's own rate holds it ("16 DGX H100 at NDR400": not
        # the NDR200 split an RA runs at that size); a lane of a split port is the planes' choice
        asked = inputs.request.compute_link_gbps
        native = inputs.system.compute.port_speed_gbps if inputs.system.compute else None
        setup = resolve_fabric(
            inputs.catalog,
            inputs.system,
            nodes,
            technology=choices.fabric,
            oversubscription=choices.oversubscription,
            planes=choices.planes,
            port_speed_gbps=asked if asked is not None and asked == native else None,
        )
        sized = setup, size_setup(inputs.catalog, setup)
    # The choices always carry the oversubscription, so its default is not an assumption here.
    notes.assumed += [a for a in sized[0].assumed if a.field != "oversubscription"]
    return sized
