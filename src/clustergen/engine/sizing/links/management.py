"""The management networks' link groups: hosts to access switches, switch to switch (the rules
are the package's)."""

from __future__ import annotations

from typing import NamedTuple

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Optic, PortGroup, Switch
from clustergen.engine.cache import Same, cached
from clustergen.engine.model.design import (
    ManagementNetwork,
    ServersSection,
)
from clustergen.engine.model.inventory import (
    FABRIC_MANAGER,
    MANAGEMENT_SERVER,
    switch_group,
)
from clustergen.engine.model.links import End, Link
from clustergen.engine.sizing.fabric import (
    AccessOptics,
    accepted_forms,
    access_optics,
    fits_cage,
    optics_of_kind,
    same_family,
)
from clustergen.units import ceil_div


def inband_links(
    catalog: Catalog,
    net: ManagementNetwork,
    node: PortGroup | None,
    servers: ServersSection,
    hosts: tuple[str, ...] = (),
) -> list[Link]:
    """The in-band management network's links: the nodes' host links, the management servers'
    on their own in-band ports (H100 RA Table 8: "8 x 100 Gbps QSFP to QSFP AOC, Management
    nodes"), the fabric managers' (its UFM at 1 GbE), and the switches' own links: leaves to the
    switches above them and each leaf pair's peer links ("Leaf - Core cables", "ISL Cables")."""
    out = [management_links(catalog, net, node, hosts)]
    for system_id, ports, segment, group in (
        (servers.management_server, net.server_ports, "host-access", MANAGEMENT_SERVER),
        (servers.fabric_manager, net.fabric_manager_ports, "fabric-manager access", FABRIC_MANAGER),
    ):
        if ports:
            srv = catalog.system(system_id) if system_id else None
            out.append(
                _access_links(
                    catalog,
                    net,
                    _Access(
                        group=srv.inband if srv else None,
                        links=ports,
                        device=srv.name if srv else "management server",
                        segment=segment,
                        groups=(group,),
                    ),
                )
            )
    return out + switch_links(catalog, net)


def switch_links(catalog: Catalog, net: ManagementNetwork) -> list[Link]:
    """A management network's links between its own switches, at the switches' port rate: each
    leaf's uplinks (and a 3-tier network's spine-core links) on the active optical cable of the
    switch's cage family (they run to another rack: H100 RA Table 8, "100 Gbps QSFP to QSFP AOC,
    Leaf - Core cables"), a leaf pair's peer links on passive copper (side by side in one rack:
    "100 Gbps QSFP passive, ISL Cables"). Both ends are switches': the cable's power is the
    network's, every end (catalog power is per end)."""
    sw = catalog.switch(net.switch)
    speed = sw.port_speed_gbps
    out = []
    for segment, links, kind, lower, upper in (
        ("leaf-spine", net.leaf_spine_links, "aoc", "leaf", "spine"),
        ("spine-core", net.spine_core_links, "aoc", "spine", "core"),
        ("inter-switch", net.inter_switch_links, "dac", "leaf", "leaf"),
    ):
        if not links:
            continue
        cable = next(
            (
                o
                for o in optics_of_kind(catalog.all("optics", Optic), kind, "port_speed_gbps")
                if o.ports == 1
                and o.port_speed_gbps == speed
                and same_family(o, sw.cage_form)
                and (not o.technologies or "ethernet" in o.technologies)
            ),
            None,
        )
        copper = kind == "dac"
        media = ("copper (DAC)" if copper else "active optical (AOC)") if cable else "optical"
        power = None if cable is None or cable.power_w is None else 2 * cable.power_w * links
        out.append(
            Link(
                fabric=net.name,
                segment=segment,
                links=links,
                speed_gbps=speed,
                media=media if cable or not copper else "copper",
                cable=cable.id if cable else None,
                cable_power_w=power,
                length_class="in-rack" if copper else "row",
                a=_switch_port(sw, lower, net.name),
                b=_switch_port(sw, upper, net.name),
            )
        )
    return out


def _switch_port(sw: Switch, tier: str, network: str) -> End:
    return End(
        device=f"{sw.name} {tier}",
        port=f"switch port ({sw.cage_form or 'cage not in the catalog'})",
        transceiver=None,
        transceivers=0,
        groups=[switch_group(network, tier)],
    )


def access_groups(net: ManagementNetwork) -> tuple[str, ...]:
    """The switch groups a management network's hosts plug into: its in-rack switches and its
    access (leaf) switches outside the compute racks, those it has."""
    out = []
    if net.in_rack_switches:
        out.append(switch_group(net.name, "rack"))
    if net.leaf_switches > net.in_rack_switches:
        out.append(switch_group(net.name, "leaf"))
    return tuple(out)


class _Access(NamedTuple):
    """One kind of host on a management network's access ports."""

    group: PortGroup | None
    links: int
    device: str
    segment: str = "host-access"
    groups: tuple[str, ...] = ()  # the inventory's device groups of these hosts


def management_links(
    catalog: Catalog, net: ManagementNetwork, node: PortGroup | None, hosts: tuple[str, ...] = ()
) -> Link:
    """A management network's node links (every host's on the out-of-band network; on the
    in-band network the servers' are their own, `inband_links`) at the nodes' port speed: RJ45
    copper at 1 Gb/s, an active optical cable where the catalog has one that fits the node's
    cage (H100 RA Table 8: QSFP AOCs on the in-band network), else a cable to choose. The switch
    end's optics power (the AOC's switch end, or the switch's module) is the network's, as a
    fabric counts its switch tiers; the host end's is in the host's budget. `hosts`: the
    device groups on the network's host ports."""
    servers = net.server_ports + net.fabric_manager_ports
    copper = (node.port_speed_gbps if node else net.port_speed_gbps) <= 10
    if copper:
        device = "nodes, switches, servers and PDUs"
    else:
        device = "nodes" if servers else "nodes and servers"
    return _access_links(
        catalog, net, _Access(node, net.host_ports - servers, device, groups=hosts)
    )


def _access_links(catalog: Catalog, net: ManagementNetwork, hosts: _Access) -> Link:
    """Resolved once per network and kind of host: a design's power and its link list ask, and
    so do a trade study's rows that share the network. The hosts' port group is a catalog
    system's (frozen, kept with it), so it keys by itself, not its contents."""
    group = hosts.group
    key = (
        "management_links",
        net,
        Same(group),
        hosts.links,
        hosts.device,
        hosts.segment,
    )
    links = cached(catalog, key, lambda: _management_links(catalog, net, hosts._replace(groups=())))
    if not hosts.groups:
        return links
    # the ends' device groups apart: the power section asks without them
    return cached(
        catalog,
        (*key, hosts.groups),
        lambda: links._replace(
            a=links.a._replace(groups=list(hosts.groups)),
            b=links.b._replace(groups=list(access_groups(net))),
        ),
    )


def _management_links(catalog: Catalog, net: ManagementNetwork, hosts: _Access) -> Link:
    node = hosts.group
    speed = node.port_speed_gbps if node else net.port_speed_gbps
    copper = speed <= 10
    # an active cable's end plugs into the node's cage: none is picked for an unknown cage, nor
    # for nodes whose in-band ports the catalog does not give at all
    cage_known = copper or (node is not None and node.cage_form is not None)
    sw = catalog.switch(net.switch)
    # the cable's other end plugs into the switch: a QSFP plug never into an OSFP cage
    cable = (
        next(
            (
                o
                for o in catalog.all("optics", Optic)
                if o.kind == ("dac" if copper else "aoc")
                and o.total_gbps == speed
                # one link a cable, of the switch's technology: a twin-port InfiniBand HDR
                # splitter (MFA7U10-H) is no 400GbE in-band cable
                and o.ports == 1
                and (not o.technologies or sw.technology in o.technologies)
                and fits_cage(o, node.cage_form if node else None, accepted_forms(catalog, node))
                and same_family(o, sw.cage_form)
            ),
            None,
        )
        if cage_known
        else None
    )
    if cable is None and not copper and node is not None:
        parts = access_optics(catalog, port_gbps=speed, cage_form=node.cage_form, switch=sw)
        if parts is not None:
            return _optical_access(net, hosts, sw.name, _rate(speed, sw), parts)
    if cable is None and copper and node is not None and node.cage_form:
        slow = _baset_access(catalog, net, hosts, sw)
        if slow is not None:
            return slow
    # an optical link whose cable is not settled says so, not "AOC" (it may take transceivers)
    media = "copper (RJ45)" if copper else ("active optical (AOC)" if cable else "optical")
    return Link(
        fabric=net.name,
        segment=hosts.segment,
        links=hosts.links,
        # the cable is the host port's (H100 RA Table 8: 200G QSFP56 AOCs); the link runs at
        # the slower end's rate (a 200G port on an SN4600C's 100 GbE port carries 100 Gb/s)
        speed_gbps=_rate(speed, sw),
        media=media,
        cable=cable.id if cable else None,
        # an AOC's power is per end (catalog note); the switch's end is the network's
        cable_power_w=(
            None
            if copper or cable is None or cable.power_w is None
            else cable.power_w * hosts.links
        ),
        length_class="in-rack" if net.in_rack_switches else "row",
        a=End(
            device=hosts.device,
            port=_access_port(node, copper, hosts.segment),
            transceiver=None,
            transceivers=0,
        ),
        b=End(
            device=f"{sw.name} access switch",
            # a cage the catalog does not give is said: it leaves the cable unsettled
            port="access port" if sw.cage_form else "access port (cage not in the catalog)",
            transceiver=None,
            transceivers=0,
        ),
    )


def _access_port(node: PortGroup | None, copper: bool, segment: str) -> str:
    """A management host's port: a BMC's on the out-of-band network, else its in-band port,
    its cage said where the catalog does not give it."""
    if copper and segment == "host-access":
        return "BMC / management port (RJ45)"
    if node is not None and node.cage_form is None:
        return "in-band port (cage not in the catalog)"
    return "in-band port"


def _baset_access(
    catalog: Catalog, net: ManagementNetwork, hosts: _Access, sw: Switch
) -> Link | None:
    """An RJ45 host port on a switch whose cages take no RJ45 cable: the host's patch cable
    into a BaseT module of the host's rate at the switch, held in a QSFP-to-SFP+ adapter (H100
    RA Table 8: "QSFP to SFP+ Adapter" and "Ethernet Module SFP BaseT 1G", "For the UFM
    connections"). The module's power is the network's; None where the catalog has no such
    module or cable."""
    node = hosts.group
    if node is None or not sw.cage_form:
        return None  # no module is picked for a cage the catalog does not give
    optics = catalog.all("optics", Optic)
    # the forms the switch's cage takes (cages.yaml: a QSFP28 cage an SFP module, in an adapter)
    cage = PortGroup(ports=1, port_speed_gbps=sw.port_speed_gbps, cage_form=sw.cage_form)
    switch_accepts = accepted_forms(catalog, cage)
    module = next(
        (
            o
            for o in optics_of_kind(optics, "transceiver", "media")
            if o.total_gbps == node.port_speed_gbps
            and o.media == "copper"
            and fits_cage(o, sw.cage_form, switch_accepts)
        ),
        None,
    )
    cable = next(
        (
            o
            for o in optics
            if o.kind == "dac"
            and o.total_gbps == node.port_speed_gbps
            and fits_cage(o, node.cage_form, accepted_forms(catalog, node))
        ),
        None,
    )
    if module is None or cable is None:
        return None
    return Link(
        fabric=net.name,
        segment=hosts.segment,
        links=hosts.links,
        speed_gbps=node.port_speed_gbps,
        media="copper (RJ45)",
        cable=cable.id,
        length_class="in-rack" if net.in_rack_switches else "row",
        a=End(
            device=hosts.device,
            port=f"in-band port ({node.cage_form})",
            transceiver=None,
            transceivers=0,
        ),
        b=End(
            device=f"{sw.name} access switch",
            port=f"access port ({sw.cage_form}) with a QSFP-to-SFP+ adapter",
            transceiver=module.id,
            transceivers=hosts.links,
            unit_power_w=module.power_w,
        ),
    )


def _rate(host_gbps: float, sw: Switch) -> float:
    """A host link's rate on a switch: the slower of the host port and the switch's fastest
    port."""
    return min(host_gbps, max([sw.port_speed_gbps, *(b.speed_gbps for b in sw.breakouts)]))


def _optical_access(
    net: ManagementNetwork, hosts: _Access, switch: str, speed: float, parts: AccessOptics
) -> Link:
    """Host links where no active cable joins the host's cage to the switch's: a module at each
    end and fiber (`access_optics`). The host's module draws from the host's budget; the
    switch's is the network's (its catalog power, None where the catalog has none)."""
    links, fiber = hosts.links, parts.fiber
    return Link(
        fabric=net.name,
        segment=hosts.segment,
        links=links,
        speed_gbps=speed,
        media=f"optical, {fiber.media}" + (", 1:2 splitter" if fiber.ports > 1 else ""),
        cable=fiber.id,
        links_per_cable=fiber.ports,
        length_class="in-rack" if net.in_rack_switches else "row",
        a=End(
            device=hosts.device,
            port=f"in-band port ({hosts.group.cage_form if hosts.group else 'cage unknown'})",
            transceiver=parts.host.id,
            transceivers=links,
        ),
        b=End(
            device=f"{switch} access switch",
            port="access port",
            transceiver=parts.switch.id,
            transceivers=ceil_div(links, parts.links_per_switch_module),
            ports_per_transceiver=parts.links_per_switch_module,
            unit_power_w=parts.switch.power_w,
        ),
    )
