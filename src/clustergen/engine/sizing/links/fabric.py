"""The compute and storage fabrics' link groups: each segment's host and switch ends, the
transceivers the fabric counted at each tier shared over them, and the cable (the rules are the
package's)."""

from __future__ import annotations

from typing import NamedTuple

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Optic, PortGroup, System
from clustergen.engine.cache import Same, cached, own
from clustergen.engine.model.design import (
    ServersSection,
    StorageSection,
)
from clustergen.engine.model.fabric import CableLine, FabricDesign
from clustergen.engine.model.inventory import (
    FABRIC_MANAGER,
    MANAGEMENT_SERVER,
    STORAGE,
    switch_group,
)
from clustergen.engine.model.links import End, Link, Supply
from clustergen.engine.sizing.fabric import (
    VENDOR_MEDIA,
    accepted_forms,
    fits_cage,
    host_optic,
    optics_of_kind,
    same_family,
    splitter_cable,
)
from clustergen.engine.sizing.inventory import node_group
from clustergen.units import ceil_div

#: segment -> (host or lower tier, upper tier)
_TIERS = {
    "node-leaf": ("node", "leaf"),
    "fabric-manager-leaf": ("fabric-manager", "leaf"),
    "storage-leaf": ("storage", "leaf"),
    "shared-leaf": ("shared", "leaf"),
    "inter-switch": ("leaf", "leaf"),
    "leaf-spine": ("leaf", "spine"),
    "spine-core": ("spine", "core"),
}


class Hosts(NamedTuple):
    """Who sits on the north-south fabric's host ports, by count."""

    nodes: int
    node_ports: int  # per node
    storage_ports: int  # all appliances
    server_ports: int  # management servers (their storage or in-band ports)


class _Host(NamedTuple):
    device: str
    port: str
    links: int
    optic: Optic | None
    ports_per_cage: int
    supply: Supply
    fixed: int | None = None  # transceivers at this end as the fabric counted them
    unit_power_w: float | None = None  # as the fabric counts it (None: the host's budget)
    speed_gbps: float | None = None  # the link's rate where the host's port is slower
    cage_form: str | None = None  # the host port's cage, where the catalog gives it
    cage_accepts: tuple[str, ...] = ()  # forms that cage also takes (cages.yaml)
    groups: tuple[str, ...] = ()  # the inventory's device groups at this end


def is_copper(media: str) -> bool:
    """Whether a segment's media is a copper cable (no transceivers)."""
    return "copper" in media


def fabric_links(
    catalog: Catalog,
    system: System,
    name: str,
    f: FabricDesign,
    servers: ServersSection,
    storage: StorageSection,
    hosts: Hosts,
    *,
    splitters_only: bool = False,
) -> list[Link]:
    """The fabric's link groups, segment by segment and host by host. `splitters_only`: only
    the groups on a splitter cable, what the design's power reads of them (`power_section`).
    Once per catalog for the fabric design and what its hosts are (a fabric the engine keeps is
    the same object for every design built on it); a caller's own system is linked afresh."""

    def build() -> list[Link]:
        return _fabric_links(catalog, system, name, f, servers, storage, hosts, splitters_only)

    if not own(catalog, "systems", system):
        return build()
    appliances = storage.appliances
    key = (
        "fabric_links",
        name,
        Same(f),
        system.id,
        servers.fabric_manager,
        servers.management_server,
        appliances.appliance if appliances else None,
        storage.port_speed_gbps,
        hosts,
        splitters_only,
    )
    return list(cached(catalog, key, build))


def _fabric_links(
    catalog: Catalog,
    system: System,
    name: str,
    f: FabricDesign,
    servers: ServersSection,
    storage: StorageSection,
    hosts: Hosts,
    splitters_only: bool,
) -> list[Link]:
    shares = _switch_shares(catalog, f)
    out = []
    for c in f.cables:
        lower, upper = _TIERS[c.segment]
        upper_end = _switch_end(upper, c, shares)
        upper_end = upper_end._replace(
            device=_tier_switch(f, upper), groups=[switch_group(name, upper)]
        )
        if lower in ("leaf", "spine"):
            parts = [_switch_host(catalog, f, lower, c, shares, switch_group(name, lower))]
        else:
            parts = _hosts(catalog, system, name, f, c, servers, storage, hosts)
        split = _by_need(
            upper_end.transceivers, [h.links for h in parts], _ports(catalog, f, upper)
        )
        for h, b_count in zip(parts, split, strict=True):
            if splitters_only and not _takes_no_module(c, h):
                continue
            g = _group(catalog, name, f, c, h, upper_end, b_count)
            if not splitters_only or g.replaced_switch_transceivers is not None:
                out.append(g)
    return out


def _takes_no_module(c: CableLine, h: _Host) -> bool:
    """Whether an ordered host end on an optical link has no module the catalog fits: the one
    end a splitter cable may join (`_splitter`)."""
    return h.supply == "order" and h.optic is None and not is_copper(c.media)


def _group(
    catalog: Catalog,
    name: str,
    f: FabricDesign,
    c: CableLine,
    h: _Host,
    upper_end: End,
    b_count: int,
) -> Link:
    """One link group; on an active cable the switch end's modules are the cable's ends, and so
    are a splitter cable's where the host's cage takes no module (`_splitter`)."""
    cable, cable_supply = _cable(catalog, f, c, h)
    splitter = _splitter(catalog, f, c, h, cable)
    if splitter is not None:
        cable = splitter
    active = cable is not None and cable.kind in ("aoc", "acc")
    bare = active or splitter is not None  # no transceiver at either end
    b = upper_end._replace(transceivers=b_count)
    b, cable_power, replaced = _bare_switch_end(catalog, b, h, cable, splitter)
    if h.supply == "storage vendor":
        b, cable_power = _vendor_switch_end(catalog, b)
    if active and cable is not None:
        cable_power = _with_lower_ends(cable_power, h, cable)
    return Link(
        fabric=name,
        segment=c.segment,
        links=h.links,
        speed_gbps=h.speed_gbps or c.speed_gbps,
        media=_media(c, h, splitter),
        cable=cable.id if cable else None,
        links_per_cable=cable.ports if cable and cable_supply == "order" else 1,
        cable_supply=cable_supply,
        cable_power_w=cable_power,
        replaced_switch_transceivers=replaced,
        length_class="in-rack" if c.segment == "inter-switch" else "row",
        a=End(
            device=h.device,
            port=h.port,
            transceiver=None if bare or h.optic is None else h.optic.id,
            transceivers=0 if bare else _host_count(h, c),
            ports_per_transceiver=h.ports_per_cage,
            unit_power_w=h.unit_power_w,
            supply=h.supply,
            groups=list(h.groups),
        ),
        b=b,
    )


def _bare_switch_end(
    catalog: Catalog, b: End, h: _Host, cable: Optic | None, splitter: Optic | None
) -> tuple[End, float | None, int | None]:
    """(switch end, cable power, switch modules replaced) of a link group: an active cable's
    switch ends are the tier's counted modules (their power moves with the cable); a splitter's
    stand in for modules the fabric counted, which the design takes back out (at the end's
    unit power, kept), its own power being per end as an AOC's (one switch end a cable)."""
    if splitter is not None:
        cables = ceil_div(h.links, splitter.ports)
        power = None if splitter.power_w is None else splitter.power_w * cables
        bare = b._replace(transceiver=None, transceivers=0)
        return bare, power, b.transceivers
    if cable is not None and cable.kind in ("aoc", "acc"):
        power = None if b.unit_power_w is None else b.unit_power_w * b.transceivers
        return b._replace(transceiver=None, transceivers=0), power, None
    if cable is None and h.supply == "order" and _is_active(catalog, b.transceiver):
        # the switch tier's active cable fits no host cage here: its switch end is no module
        # either, so both ends and the cable stay to choose (power unknown, never zero)
        return b._replace(transceiver=None, unit_power_w=None), None, None
    return b, None, None


def _vendor_switch_end(catalog: Catalog, b: End) -> tuple[End, float | None]:
    """(switch end, cable power) of a storage appliance's links: the cable and its ends are the
    storage vendor's (H100 RA Table 8, note 2: the storage cables depend on the storage
    chosen), so nothing at the switch end is ordered. Where the fabric counts the switch's end
    as an active cable's, that end is the vendor's cable and its power moves with the cable
    (as an ordered AOC's does); a module the fabric counts stays at the end, the vendor's to
    supply, its power the fabric's. Either way the BOM carries the watts the design counts."""
    if not b.transceivers:
        return b, None
    if _is_active(catalog, b.transceiver):
        power = None if b.unit_power_w is None else b.unit_power_w * b.transceivers
        return b._replace(transceiver=None, transceivers=0), power
    return b._replace(supply="storage vendor"), None


def _with_lower_ends(power: float | None, h: _Host, cable: Optic) -> float | None:
    """An active cable's power with its lower ends where the fabric counted them as the cable's
    own (a compute node's end, a leaf's end of a leaf-spine link: the fabric's `node` and tier
    lines), so the cable carries every end's power the fabric counts; unknown stays unknown."""
    if not h.fixed or h.optic is None or h.optic.id != cable.id:
        return power  # the host's own budget (a north-south end), or no end counted
    if power is None or h.unit_power_w is None:
        return None
    return power + h.unit_power_w * h.fixed


def _splitter(
    catalog: Catalog, f: FabricDesign, c: CableLine, h: _Host, cable: Optic | None
) -> Optic | None:
    """A splitter cable for an ordered host end whose cage takes no module the catalog has (the
    link would otherwise be a module to choose on fiber, or no cable at all): one whose split
    ends fit the host's cage at the link's rate and whose head fits the switch tier's cage
    family (`splitter_cable`); None where the host has a module or no such cable fits."""
    if not _takes_no_module(c, h):
        return None
    if cable is not None and cable.kind != "fiber":
        return None  # the switch tier's own active cable already joins the host
    upper = _TIERS[c.segment][1]
    sw_id = {"leaf": f.leaf_switch, "spine": f.spine_switch, "core": f.core_switch}.get(upper)
    if sw_id is None or upper not in ("leaf", "spine", "core"):
        return None
    return splitter_cable(
        catalog,
        rate_gbps=h.speed_gbps or c.speed_gbps,
        host_cage=h.cage_form,
        host_accepts=h.cage_accepts,
        switch_cage=catalog.switch(sw_id).cage_form,
        technology=f.technology,
        row_length=c.segment != "inter-switch",
    )


def _media(c: CableLine, h: _Host, splitter: Optic | None) -> str:
    if splitter is not None and splitter.kind == "dac":
        return "copper (splitter)"
    # the management servers on the storage-leaf segment are ordered, not the storage
    # vendor's: their links are optical, whatever the appliances' cables turn out to be
    return "optical" if c.media == VENDOR_MEDIA and h.supply == "order" else c.media


def _is_active(catalog: Catalog, part: str | None) -> bool:
    return part is not None and catalog.optic(part).kind in ("aoc", "acc")


def _host_count(h: _Host, c: CableLine) -> int:
    if h.fixed is not None:
        return h.fixed
    if is_copper(c.media) or (h.optic is not None and h.optic.kind != "transceiver"):
        return 0
    return ceil_div(h.links, h.ports_per_cage)


def _split(total: int, weights: list[int]) -> list[int]:
    """`total` shared in proportion to `weights`, the last taking what rounding leaves."""
    out, given, whole = [], 0, max(1, sum(weights))
    for i, w in enumerate(weights):
        share = total - given if i == len(weights) - 1 else total * w // whole
        out.append(share)
        given += share
    return out


def _optical_ports(f: FabricDesign) -> dict[str, list[tuple[str, int]]]:
    """Per switch tier, the optical segments landing on it and their ports there."""
    ports: dict[str, list[tuple[str, int]]] = {}
    for c in f.cables:
        if is_copper(c.media):
            continue
        for end in _TIERS[c.segment]:
            if end in ("leaf", "spine", "core"):
                ports.setdefault(end, []).append((c.segment, c.count))
    return ports


class _Share:
    """A switch tier's transceivers on one segment (a class, not a tuple: `count` is a field)."""

    __slots__ = ("count", "optic", "unit_power_w")

    def __init__(self, count: int, optic: str | None, unit_power_w: float | None) -> None:
        self.count = count
        self.optic = optic
        self.unit_power_w = unit_power_w


def _switch_shares(catalog: Catalog, f: FabricDesign) -> dict[tuple[str, str], _Share]:
    """(tier, segment) -> transceivers. A tier with one line per segment (a spine's leaf-facing
    and core-facing modules) maps them in order; otherwise each segment takes the modules its
    own links need at the tier's ports per cage, and what the fabric counts beyond that (a
    module half used on a switch with an odd port count) goes to the segment with the most
    links, so the sum is the fabric's own count. A fabric that counts fewer than the links need
    shares what it counts in proportion (the widened link tests find any such fabric)."""
    shares: dict[tuple[str, str], _Share] = {}
    for tier, segs in _optical_ports(f).items():
        lines = [t for t in f.transceivers if t.location == tier]
        if not lines:
            continue
        if len(lines) == len(segs) > 1:
            for (seg, _), t in zip(segs, lines, strict=True):
                shares[(tier, seg)] = _Share(t.count, t.optic, t.unit_power_w)
            continue
        total = sum(t.count for t in lines)
        counts = _by_need(total, [n for _, n in segs], _ports(catalog, f, tier))
        for (seg, _), n in zip(segs, counts, strict=True):
            shares[(tier, seg)] = _Share(n, lines[0].optic, lines[0].unit_power_w)
    return shares


def _by_need(total: int, links: list[int], ports: tuple[int, int]) -> list[int]:
    """`total` modules of a switch tier over groups of links: each group the modules its own
    links need (`ports`: switch ports a module serves, ports a link takes), what the fabric
    counts beyond that (a module half used on a switch with an odd port count) to the group
    with the most links, so the sum is the fabric's own count. A fabric that counts fewer than
    the links need is shared in proportion (the link tests find any such fabric)."""
    per_module, per_link = ports
    needs = [ceil_div(n * per_link, per_module) for n in links]
    if total < sum(needs) or not needs:
        return _split(total, needs)
    widest = max(range(len(links)), key=lambda i: links[i])
    needs[widest] += total - sum(needs)
    return needs


def _ports(catalog: Catalog, f: FabricDesign, tier: str) -> tuple[int, int]:
    """(switch ports one module serves, switch ports one link takes) at a tier: a twin-port
    module serves two ports at the plane's rate; a node port split across planes lands on one
    port of each plane's switch."""
    sw = {"leaf": f.leaf_switch, "spine": f.spine_switch, "core": f.core_switch}.get(tier)
    ppc = catalog.switch(sw).ports_per_cage_at(f.plane_port_speed_gbps) if sw else 1
    return ppc, f.planes if f.plane_split else 1


def _located(f: FabricDesign, location: str) -> int:
    """Transceivers the fabric counts at one location (0 where it counts none)."""
    return sum(t.count for t in f.transceivers if t.location == location)


def _tier_optic(catalog: Catalog, f: FabricDesign, tier: str) -> Optic | None:
    oid = next((t.optic for t in f.transceivers if t.location == tier), None)
    return catalog.optic(oid) if oid else None


def _tier_power(f: FabricDesign, tier: str) -> float | None:
    return next((t.unit_power_w for t in f.transceivers if t.location == tier), None)


def _tier_switch(f: FabricDesign, tier: str) -> str:
    sw = {"leaf": f.leaf_switch, "spine": f.spine_switch, "core": f.core_switch}[tier]
    return f"{(sw or '?').upper()} {tier}"


def _switch_end(tier: str, c: CableLine, shares: dict[tuple[str, str], _Share]) -> End:
    share = None if is_copper(c.media) else shares.get((tier, c.segment))
    return End(
        device=f"{tier}",
        port=f"switch port, {c.speed_gbps:g} Gb/s",
        transceiver=share.optic if share else None,
        transceivers=share.count if share else 0,
        unit_power_w=share.unit_power_w if share else None,
    )


def _switch_host(
    catalog: Catalog,
    f: FabricDesign,
    tier: str,
    c: CableLine,
    shares: dict[tuple[str, str], _Share],
    group: str,
) -> _Host:
    """The lower switch tier of a switch-to-switch segment, as a host end."""
    end = _switch_end(tier, c, shares)
    optic = catalog.optic(end.transceiver) if end.transceiver else None
    return _Host(
        _tier_switch(f, tier),
        end.port,
        c.count,
        optic,
        optic.ports if optic else 1,
        "order",
        end.transceivers,
        end.unit_power_w,
        groups=(group,),
    )


def _port_name(catalog: Catalog, group: PortGroup | None, fallback: str) -> str:
    if group is None:
        return fallback
    nic = catalog.nic(group.nic).name if group.nic else fallback
    # a cage the catalog does not give is said, as it leaves the port's module unsettled
    return f"{nic} ({group.cage_form or 'cage not in the catalog'})"


def _hosts(
    catalog: Catalog,
    system: System,
    name: str,
    f: FabricDesign,
    c: CableLine,
    servers: ServersSection,
    storage: StorageSection,
    hosts: Hosts,
) -> list[_Host]:
    """The host ends of a host segment, split by kind of host."""
    if c.segment == "fabric-manager-leaf":
        fm = catalog.system(servers.fabric_manager) if servers.fabric_manager else None
        optic = _tier_optic(catalog, f, "fabric-manager")
        device = fm.name if fm else "fabric manager"
        port = _port_name(catalog, fm.compute if fm else None, "fabric-manager port")
        fixed = _located(f, "fabric-manager")
        unit = _tier_power(f, "fabric-manager")
        # the manager's own port rate (the UFM's NDR200: H100 RA Table 8), never faster than
        # the switch port
        rate = link_rate(c.speed_gbps, fm.compute if fm else None)
        return [
            _Host(
                device,
                port,
                c.count,
                optic,
                1,
                "order",
                fixed,
                unit,
                speed_gbps=rate,
                groups=(FABRIC_MANAGER,),
            )
        ]
    if name == "compute" and c.segment == "node-leaf":
        optic = _tier_optic(catalog, f, "node")
        # ports one node module serves: the node's cage's (a twin-port module on a single 800G
        # port serves one), as the fabric counts the nodes' modules
        ppc = system.compute.ports_per_cage if system.compute else (optic.ports if optic else 1)
        port = _port_name(catalog, system.compute, "compute port")
        fixed, unit = _located(f, "node"), _tier_power(f, "node")
        return [
            _Host(
                system.name,
                port,
                c.count,
                optic,
                ppc,
                "order",
                fixed,
                unit,
                groups=(node_group(system),),
            )
        ]
    return _north_south(catalog, system, f, c, servers, storage, hosts)


def _ordered(
    catalog: Catalog,
    c: CableLine,
    tech: str,
    device: str,
    group: PortGroup | None,
    port: str,
    links: int,
    host: str,
) -> _Host:
    """A host the buyer orders (a node or a management server) on its north-south port group:
    the link at the slower end's rate, the module its cage takes at that rate."""
    ppc = group.ports_per_cage if group else 1
    rate = link_rate(c.speed_gbps, group)
    cage = group.cage_form if group else None
    return _Host(
        device,
        port,
        links,
        _optic(catalog, c, rate * ppc, ppc, cage, tech),
        ppc,
        "order",
        speed_gbps=rate,
        cage_form=cage,
        cage_accepts=accepted_forms(catalog, group),
        groups=(host,),
    )


def _north_south(
    catalog: Catalog,
    system: System,
    f: FabricDesign,
    c: CableLine,
    servers: ServersSection,
    storage: StorageSection,
    hosts: Hosts,
) -> list[_Host]:
    """North-south host ports: the nodes' adapters, the storage appliances, the management
    servers, in the order the fabric counts them (nodes on node leaves, the rest after)."""
    node_links = hosts.nodes * hosts.node_ports
    if c.segment == "node-leaf" and c.count == node_links:
        counts = {"node": node_links, "storage": 0, "server": 0}
    elif c.segment == "storage-leaf":
        counts = {"node": 0, "storage": hosts.storage_ports, "server": hosts.server_ports}
    else:
        counts = {"node": node_links, "storage": hosts.storage_ports, "server": hosts.server_ports}
    rest = c.count - sum(counts.values())
    counts["server"] += rest  # any host port the split does not name is a server's
    tech = f.technology
    out = []
    if counts["node"]:
        port = _port_name(catalog, system.storage, "north-south port")
        out.append(
            _ordered(
                catalog,
                c,
                tech,
                system.name,
                system.storage,
                port,
                counts["node"],
                node_group(system),
            )
        )
    if counts["storage"]:
        device = (
            catalog.system(storage.appliances.appliance).name
            if storage.appliances
            else "storage system"
        )
        # the appliance's link runs at the slower of its port and the switch's
        rate = min(c.speed_gbps, storage.port_speed_gbps or c.speed_gbps)
        out.append(
            _Host(
                device,
                "storage port",
                counts["storage"],
                None,
                1,
                "storage vendor",
                speed_gbps=rate,
                groups=(STORAGE,),
            )
        )
    if counts["server"] > 0:
        srv = catalog.system(servers.management_server) if servers.management_server else None
        # the server's north-south card sets the module; an unknown cage gets none
        sg = srv.storage if srv else None
        device = srv.name if srv else "management server"
        # a server the catalog gives no north-south card says so, not a bare "server port"; one
        # without its ports says the link's rate is the switch port's, its own being unknown
        fallback = "server port (card not in the catalog)" if srv else "server port"
        if srv is not None and sg is None:
            fallback = "server port (its rate unknown: taken as the switch port's)"
        port = _port_name(catalog, sg, fallback)
        out.append(
            _ordered(catalog, c, tech, device, sg, port, counts["server"], MANAGEMENT_SERVER)
        )
    return out


def link_rate(switch_port_gbps: float, host: PortGroup | None) -> float:
    """A link runs at its slower end's rate: a 200 GbE BlueField-3 port on a 400 Gb/s switch
    port carries 200 Gb/s, whatever the switch port could."""
    if host is None or not host.port_speed_gbps:
        return switch_port_gbps
    return min(switch_port_gbps, host.port_speed_gbps)


def _optic(
    catalog: Catalog, c: CableLine, total: float, ports: int, cage: str | None, tech: str
) -> Optic | None:
    if is_copper(c.media):
        return None
    return host_optic(catalog, total_gbps=total, ports=ports, cage_form=cage, technology=tech)


def _cable(
    catalog: Catalog, f: FabricDesign, c: CableLine, h: _Host
) -> tuple[Optic | None, Supply]:
    """The cable of a link group: the storage vendor's to the appliances; an active cable
    where the switch end is one; fiber of the transceivers' media; copper of the link's rate."""
    if h.supply == "storage vendor":
        return None, "storage vendor"
    upper = _TIERS[c.segment][1]
    optic = None if is_copper(c.media) else _tier_optic(catalog, f, upper)
    if optic is not None and optic.kind in ("aoc", "acc"):
        # the cable's host end plugs into the host's cage: one that does not fit it (nor a form
        # the cage is documented to take) is no part to order, the cable stays to choose
        if h.cage_form and not fits_cage(optic, h.cage_form, h.cage_accepts):
            return None, "order"
        return optic, "order"
    if is_copper(c.media):
        # the cable plugs into the switches' cages: a QSFP56 DAC never into an OSFP cage
        cage = _tier_cage(catalog, f, upper)
        # a DAC whose plug the catalog does not give is a named gap, not one silently passed over
        needs = ("port_speed_gbps", "form_factor") if cage else ("port_speed_gbps",)
        fits = [
            o
            for o in _of_kind(catalog, "dac", needs)
            if o.port_speed_gbps == c.speed_gbps
            and (not o.technologies or f.technology in o.technologies)
            and same_family(o, cage)
        ]
    elif optic is not None and optic.media in ("multimode", "singlemode"):
        fibers = [
            o
            for o in _of_kind(catalog, "fiber", ("media", "port_speed_gbps"))
            if o.media == optic.media
        ]
        # a port slower than the module's lane group runs on a splitter fiber (200G on a
        # 400G SR4 pair: MFP7E20, MMA1Z00-NS400-T overview) where the switch's port is broken
        # out to that rate too; on a whole switch port (no breakout at the host's rate) the
        # link is one straight fiber, one switch port a host
        rate = h.speed_gbps or c.speed_gbps
        manager = rate != c.speed_gbps and _manager_breakout(catalog, f, c, rate)
        if manager and h.optic is not None and h.optic.split_port_speed_gbps is None:
            # the manager's module's slower mode is not in the catalog: the fiber stays to choose
            return None, "order"
        broken_out = rate == c.speed_gbps or manager
        split = h.optic is not None and broken_out and _runs_split(h.optic, rate * h.ports_per_cage)
        fits = [o for o in fibers if split and o.ports > 1 and o.port_speed_gbps == rate]
        fits = fits or [o for o in fibers if o.ports == 1]
    else:
        fits = []
    return (fits[0] if fits else None), "order"


def _of_kind(catalog: Catalog, kind: str, fields: tuple[str, ...]) -> list[Optic]:
    """`optics_of_kind` of the catalog's optics, once per catalog (every link group of every
    candidate asks; a gap it names is raised again at each ask, never kept)."""
    return cached(
        catalog,
        ("optics_of_kind", kind, fields),
        lambda: optics_of_kind(catalog.all("optics", Optic), kind, *fields),
    )


def _manager_breakout(catalog: Catalog, f: FabricDesign, c: CableLine, rate: float) -> bool:
    """Whether a fabric manager's slower links run on leaf ports broken out to its rate: the
    fabric gives the managers leaf ports of their own (no node shares them), so a leaf that
    breaks out to the manager's rate takes two managers a port on a 1:2 splitter fiber (H100
    RA Table 8: "2 x NDR Cables, 200 Gbps, UFM to leaf ports" for 4 UFM ports)."""
    if c.segment != "fabric-manager-leaf" or not f.leaf_switch:
        return False
    return any(b.speed_gbps == rate for b in catalog.switch(f.leaf_switch).breakouts)


def _tier_cage(catalog: Catalog, f: FabricDesign, tier: str) -> str | None:
    """The cage form of a switch tier's switch (None where the tier or its cage is unknown)."""
    sw = {"leaf": f.leaf_switch, "spine": f.spine_switch, "core": f.core_switch}.get(tier)
    return catalog.switch(sw).cage_form if sw else None


def _runs_split(optic: Optic, port_gbps: float) -> bool:
    """Whether a host module runs at its half-lane rate on this port."""
    return optic.total_gbps != port_gbps and optic.split_port_speed_gbps == port_gbps
