"""Every link of a design with both ends and its cable, from the sized fabrics.

A fabric counts its links per segment and its switch transceivers per tier; this module says, for
each segment, what sits at each end (the node's adapter, a switch tier, a storage appliance, a
management server), which transceiver each end takes and how many, and which cable joins them.
The BOM's transceiver and cable lines are built from these groups, so the two never disagree.

Rules:
- a switch tier's transceivers (the fabric's own per-switch count) are shared over the segments
  that land on that tier in proportion to their ports there; their sum is the fabric's count;
- a host end takes a transceiver of its adapter's cage form at the port's rate (`host_optics`);
  its power is in the node's own budget on the north-south fabrics, as the fabric sizing counts it;
- storage appliances' ends and cables are the storage vendor's (H100 RA Table 8, note 2);
- a copper or active cable (DAC, ACC, AOC) carries no transceiver at either end; an AOC's power
  per end, which the fabric counts at its switch tier, moves with the cable, and so does its
  lower end's where the fabric counts that end as the cable's (a compute node's, a leaf's on
  a leaf-spine link: `cable_ends`); a north-south host's end is in the host's budget;
- a copper cable plugs into the switches' cages: one of their plug family (a QSFP56 DAC on an
  HDR switch's QSFP56 cages, never on an OSFP switch);
- a host cage that takes no module the catalog has, on an optical link, takes a splitter cable
  whose split ends fit it at the link's rate and whose head fits the switch's cage family
  (`splitter_cable`: an HDR200 QSFP56 port on an NDR switch, H100 RA Table 8 "HDR 400 Gbps to
  2x200 Gbps"): no transceiver at either end, the switch tier's modules for those links dropping
  as an AOC's switch end does, the cable's power per end counted at the switch as an AOC's is;
- a cable carries as many links as its logical ports (a twin-port DAC or a 1:2 splitter fiber
  two), so the BOM buys links / ports of it;
- a management network's optical host link takes an AOC that fits the host's cage (H100 RA
  Table 8), else a module at each end on fiber (`access_optics`: a BlueField-3 QSFP112 port at
  200G on a 1:2 splitter to a twin-port OSFP in a Spectrum-4 switch, four hosts a module);
- length class: a host's link to an in-rack switch is in-rack, a switch pair's inter-switch links
  are in-rack, everything to the network racks is row.
"""

from __future__ import annotations

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import System
from clustergen.engine.model.design import FabricsSection, ServersSection, StorageSection
from clustergen.engine.model.inventory import (
    FABRIC_MANAGER,
    MANAGEMENT_SERVER,
    STORAGE,
    switch_group,
)
from clustergen.engine.model.links import Link
from clustergen.engine.sizing.inventory import node_group
from clustergen.engine.sizing.links.fabric import Hosts, fabric_links, is_copper, link_rate
from clustergen.engine.sizing.links.management import (
    access_groups,
    inband_links,
    management_links,
)
from clustergen.engine.sizing.management import fabric_manager_pairs, oob_uplinks


def network_switch_groups(fabrics: FabricsSection) -> list[str]:
    """The switch groups of the compute, storage and in-band networks, those they have."""
    out = []
    for name, f in (("compute", fabrics.compute), ("storage", fabrics.storage)):
        if f is not None:
            for tier, n in (
                ("leaf", f.leaf_switches),
                ("spine", f.spine_switches),
                ("core", f.core_switches),
            ):
                if n:
                    out.append(switch_group(name, tier))
    net = fabrics.inband
    if net is not None:
        out += access_groups(net)
        core = net.total_switches - net.leaf_switches - net.spine_switches
        out += [
            switch_group(net.name, t)
            for t, n in (("spine", net.spine_switches), ("core", core))
            if n
        ]
    return out


def build_links(
    catalog: Catalog,
    system: System,
    fabrics: FabricsSection,
    servers: ServersSection,
    storage: StorageSection,
    hosts: Hosts,
) -> list[Link]:
    """Every link group of the design, fabric by fabric, in a stable order."""
    out = scale_out_links(catalog, system, fabrics, servers, storage, hosts)
    others = (STORAGE,) * (storage.appliances is not None)
    return out + management_link_groups(catalog, system, fabrics, servers, others)


def scale_out_links(
    catalog: Catalog,
    system: System,
    fabrics: FabricsSection,
    servers: ServersSection,
    storage: StorageSection,
    hosts: Hosts,
    *,
    splitters_only: bool = False,
) -> list[Link]:
    """The compute and storage fabrics' link groups: what the management networks around them
    do not change, so a caller settling those builds these once. `splitters_only`: only those
    on a splitter cable, the fabrics' groups the design's power reads."""
    out: list[Link] = []
    for name, f in (("compute", fabrics.compute), ("storage", fabrics.storage)):
        if f is not None:
            out += fabric_links(
                catalog, system, name, f, servers, storage, hosts, splitters_only=splitters_only
            )
    return out


def management_link_groups(
    catalog: Catalog,
    system: System,
    fabrics: FabricsSection,
    servers: ServersSection,
    others: tuple[str, ...] = (),
) -> list[Link]:
    """The in-band and out-of-band networks' link groups, their uplinks and the fabric
    managers' HA pair cables. `others`: the device groups beside the nodes, switches and servers
    whose management ports the out-of-band network takes (storage, PDUs)."""
    out: list[Link] = []
    managers = (MANAGEMENT_SERVER,) * bool(servers.management_servers) + (FABRIC_MANAGER,) * bool(
        servers.fabric_managers
    )
    if fabrics.inband is not None:
        # a network whose servers have no ports of their own carries them on the nodes' links
        own = fabrics.inband.server_ports + fabrics.inband.fabric_manager_ports
        nodes = node_group(system)
        hosts = (nodes,) if own else (nodes, *managers)
        out += inband_links(catalog, fabrics.inband, system.inband, servers, hosts)
    if fabrics.oob is not None:
        hosts = (node_group(system), *network_switch_groups(fabrics), *managers, *others)
        out.append(management_links(catalog, fabrics.oob, system.oob, hosts))
    uplinks = oob_uplinks(catalog, fabrics)
    pairs = fabric_manager_pairs(catalog, servers, fabrics.oob.name) if fabrics.oob else None
    return out + [g for g in (uplinks, pairs) if g is not None]


__all__ = [
    "Hosts",
    "build_links",
    "inband_links",
    "is_copper",
    "link_rate",
    "management_link_groups",
    "management_links",
    "network_switch_groups",
    "scale_out_links",
]
