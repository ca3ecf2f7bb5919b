"""Management: fabric managers and management servers scaled with the cluster, the in-band
management network (Clos rules, as the fabrics), and the out-of-band network of access switches.

The counts follow the architecture's `ScaledCount` rules (catalog/architectures.yaml), each with
its basis: the RA's published count for the sizes it documents, and a stated estimate beyond.
The out-of-band network is access switches only: SN2201 leaves whose 100G uplinks go to the
in-band (or converged north-south) fabric (DGX SuperPOD H100 RA Table 8: "Two uplinks per OOB to
in-band"), at least one per `racks_per_switch` compute racks or `nodes_per_switch` nodes (and at
least `min_switches`) where the RA places them so, plus the
in-rack switches of rack-scale systems (two SN2201 in every NVL72 rack).

Each access switch's uplinks (`oob_uplinks`): DGX SuperPOD H100 RA (RA-11333-001 V11) Table 8
lists "16 x 100 Gbps QSFP to QSFP AOC, 980-9I13N-00C030, Two uplinks per OOB to in-band" for its
8 SN2201, and the DGX BasePOD RA (RA-11127-001 V5) Table 4.2 "100GbE AOC, OOB to in-band" for
its one and two SN2201 (2 and 4): two per access switch where the architecture says so, on an
active optical cable that plugs into both the uplink cage and the in-band switch's, else a cable
to choose.
"""

from __future__ import annotations

from typing import NamedTuple

from clustergen.catalog.architectures import FabricSpec, ScaledCount
from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Optic, Switch, System
from clustergen.engine.cache import cached, own
from clustergen.engine.model.design import FabricsSection, ManagementNetwork, ServersSection
from clustergen.engine.model.fabric import Cabling, FabricPlan
from clustergen.engine.model.inventory import FABRIC_MANAGER, switch_group
from clustergen.engine.model.links import End, Link
from clustergen.engine.sizing.checks import published_count
from clustergen.engine.sizing.fabric import leaf_split, same_family, size_clos, switch_power_w
from clustergen.engine.sizing.inputs import Inputs
from clustergen.units import ceil_div, plural, ratio

#: management servers where no architecture says: the BCM head nodes' HA pair
_NO_RA_MANAGEMENT = 2


class AccessHosts(NamedTuple):
    """Who takes a management network's access ports: all of them, and of those the management
    servers' and the fabric managers' (each on its own in-band port)."""

    ports: int
    servers: int = 0
    fabric_managers: int = 0


def management_network(
    catalog: Catalog, name: str, spec: FabricSpec | None, hosts: AccessHosts
) -> ManagementNetwork | None:
    """An access/aggregation management network sized with the same Clos rules as the fabrics.
    It depends on the architecture's spec and the port counts alone, so a trade study's rows that
    share them (a platform's fabric alternatives, platforms on one RA family) share one sizing."""
    if spec is None or hosts.ports == 0:
        return None
    return cached(
        catalog,
        ("management_network", name, spec, hosts),
        lambda: _size_management(catalog, name, spec, hosts),
    )


def _size_management(
    catalog: Catalog, name: str, spec: FabricSpec, hosts: AccessHosts
) -> ManagementNetwork:
    sw = catalog.switch(spec.switch)
    # access ports at the rate the RA runs them (B200 RA: SN5600 in-band leaves on 200G split
    # ports), else the switch's own
    speed = spec.port_speed_gbps or sw.port_speed_gbps
    plan = FabricPlan(
        nodes=hosts.ports,
        ports_per_node=1,
        port_speed_gbps=speed,
        oversubscription=spec.oversubscription,
        redundant=spec.redundant,
        peer_links=spec.peer_links,
        leaf_uplinks=spec.uplinks_per_leaf,
    )
    f = size_clos(plan, sw, sw, sw, Cabling())
    # the switches' own links are built where the RA gives them (its leaf-core cabling, its
    # pairs' peer links: H100 RA Table 8); elsewhere the network is sized, its cabling unstated
    counts = {c.segment: c.count for c in f.cables} if spec.uplinks_per_leaf else {}
    isl = 0
    if spec.peer_links:
        isl = next((c.count for c in f.cables if c.segment == "inter-switch"), 0)
        if spec.redundant and f.spine_switches:
            # leaves under spines stay paired (MLAG): each pair joined by the RA's peer links
            isl += (f.leaf_switches // 2) * spec.peer_links
    basis = f"{ratio(spec.oversubscription)} access leaves of {sw.id}, {f.tiers}-tier"
    if speed != sw.port_speed_gbps:
        basis += f", {speed:g}G split ports ({sw.radix_at(speed)} a switch)"
    if spec.uplinks_per_leaf and f.spine_switches:
        basis += f", {spec.uplinks_per_leaf} uplinks a leaf (the RA's leaf-core cabling)"
    if isl:
        basis += f", {isl} inter-switch links"
    return ManagementNetwork(
        name=name,
        switch=sw.id,
        port_speed_gbps=speed,
        host_ports=hosts.ports,
        leaf_switches=f.leaf_switches,
        spine_switches=f.spine_switches,
        total_switches=f.total_switches,
        switch_power_w=f.power.switches_w,
        basis=basis,
        server_ports=hosts.servers,
        fabric_manager_ports=hosts.fabric_managers,
        leaf_spine_links=counts.get("leaf-spine", 0),
        spine_core_links=counts.get("spine-core", 0),
        inter_switch_links=isl,
    )


class Servers:
    """Fabric managers and management servers: the section and the catalog systems behind it."""

    __slots__ = ("fabric_manager", "management_server", "section")

    def __init__(
        self,
        section: ServersSection,
        fabric_manager: System | None,
        management_server: System | None,
    ) -> None:
        self.section = section
        self.fabric_manager = fabric_manager
        self.management_server = management_server

    @property
    def count(self) -> int:
        return self.section.fabric_managers + self.section.management_servers


def _rule_text(rule: ScaledCount, nodes: int, unit: str) -> str:
    """'2 + 5 x 8 (per 128 nodes) = 42 servers: <basis>'."""
    terms = [str(rule.fixed)] if rule.fixed else []
    if rule.per_block and rule.block_nodes:
        blocks = max(1, ceil_div(nodes, rule.block_nodes))
        terms.append(f"{rule.per_block} x {blocks} (per {rule.block_nodes} nodes)")
    elif rule.per_block:
        terms.append(str(rule.per_block))
    return f"{' + '.join(terms) or '0'} = {rule.count(nodes)} {unit}: {rule.basis}"


def smallest_cluster_nodes(catalog: Catalog) -> int:
    """The fewest nodes an NVIDIA RA publishes a cluster for (DGX BasePOD: 2)."""
    return int(float(catalog.assumption("smallest-cluster-nodes").value))


def standalone(inputs: Inputs, nodes: int) -> bool:
    """Whether the design is one server standing alone: fewer nodes than the smallest cluster an
    RA publishes, and not a rack-scale system (one NVL72 rack is a cluster of compute trays, built
    as its RA builds it). A standalone server gets a single-node footprint: no control plane, no
    storage system or fabric of its own unless the request names a storage tier, one out-of-band
    switch, no network rack."""
    return nodes < smallest_cluster_nodes(inputs.catalog) and inputs.system.kind != "nvl-rack"


def storage_asked(inputs: Inputs) -> bool:
    """Whether the request asks for storage of its own (it names a storage tier)."""
    return inputs.request.storage_tier is not None


def _standalone_servers(inputs: Inputs) -> Servers:
    a = inputs.catalog.assumption("smallest-cluster-nodes")
    text = (
        "none: one server stands alone, with no cluster to schedule, so it needs no BCM head "
        f"nodes or service nodes; the RA's control plane (five servers) starts at "
        f"{plural(smallest_cluster_nodes(inputs.catalog), 'node')} ({a.source.split(',')[0]})"
    )
    section = ServersSection(
        fabric_manager=None,
        fabric_managers=0,
        management_server=None,
        management_servers=0,
        basis="single-node footprint",
        management_rule=text,
    )
    return Servers(section=section, fabric_manager=None, management_server=None)


def below_one_rack_su(inputs: Inputs, nodes: int) -> bool:
    """Whether the design is a rack-scale cluster smaller than one scalable unit of its RA (one
    to seven NVL72 racks of an 8-rack SU). Its RA publishes no design that small; an 8-GPU
    cluster that small has a published design of its own (the DGX BasePOD)."""
    arch = inputs.architecture
    return inputs.system.kind == "nvl-rack" and arch is not None and nodes < arch.su_nodes


def _management_count(inputs: Inputs, nodes: int) -> tuple[int, str]:
    """The management servers and the rule behind the count: the RA's scaled count, capped for a
    rack-scale cluster below one SU at the smallest control plane NVIDIA publishes."""
    arch = inputs.architecture
    if arch is None or arch.management is None:
        return _NO_RA_MANAGEMENT, "two management servers (the BCM head nodes' HA pair), no RA"
    rule = arch.management
    count = rule.count(nodes)
    if not below_one_rack_su(inputs, nodes):
        return count, _rule_text(rule, nodes, "servers")
    a = inputs.catalog.assumption("sub-su-control-plane")
    plane = int(float(a.value))
    if count <= plane:
        return count, _rule_text(rule, nodes, "servers")
    racks = plural(nodes, "rack")
    text = (
        f"{plane} servers: {racks}, fewer than one SU of {arch.su_nodes}, so not the RA's "
        f"per-SU count ({count}) but the smallest control plane NVIDIA publishes: 2 BCM head "
        "nodes in HA and 3 Kubernetes admin nodes that host NMX-M (DGX BasePOD RA's five "
        "servers; Mission Control N/S guide 2.3.0: 'Kubernetes Admin|User nodes Server - 3x')"
    )
    return plane, text


def fabric_manager_for(catalog: Catalog, named: str, switch: Switch | None) -> System:
    """The fabric-manager appliance for an InfiniBand fabric of `switch`: the one that manages
    its switch family (a Quantum-X800 XDR fabric gets the XDR appliance, not the NDR one the
    architecture may name), the architecture's own (`named`) where it does or where no
    appliance in the catalog says it manages that family."""
    own = catalog.system(named)
    if switch is None or own.manages_family == switch.family:
        return own
    return next(
        (
            s
            for s in catalog.all(System)
            if s.kind == "fabric-manager" and s.manages_family == switch.family
        ),
        own,
    )


def servers(
    inputs: Inputs, nodes: int, ib_fabrics: int, ib_switch: Switch | None = None
) -> Servers:
    """The RA's fabric managers (per InfiniBand fabric of the RA's design, the appliance of the
    compute fabric's switch generation: `fabric_manager_for`) and management servers, each count
    scaled with the cluster by its rule; two management servers (an HA pair) where no RA says;
    none for a server standing alone (`standalone`)."""
    if standalone(inputs, nodes):
        return _standalone_servers(inputs)
    catalog, arch = inputs.catalog, inputs.architecture
    fm_rule = arch.fabric_managers if arch else None
    fm = (
        fabric_manager_for(catalog, arch.fabric_manager, ib_switch)
        if arch and arch.fabric_manager and ib_fabrics
        else None
    )
    fm_count = fm_rule.count(nodes) * ib_fabrics if fm and fm_rule else 0
    fm_text = None
    if fm and fm_rule:
        fm_text = (
            f"{plural(ib_fabrics, 'InfiniBand fabric')} x ({_rule_text(fm_rule, nodes, 'per fabric')}) "
            f"= {fm_count}"
        )
        listed = arch.fabric_manager if arch else None
        if listed and fm.id != listed and ib_switch is not None:
            fm_text += (
                f"; {fm.name}, the appliance of the compute fabric's {ib_switch.family} "
                f"switches (the architecture lists {catalog.system(listed).name})"
            )
            if ib_fabrics > 1:
                fm_text += (
                    "; the storage fabric's pair is counted as the same model (an assumption: "
                    "one appliance model a design, its newer generation managing the older "
                    "fabric too; the RA's own models were not retrieved)"
                )
    mgmt_count, mgmt_text = _management_count(inputs, nodes)
    mgmt = (
        catalog.system(arch.management_server)
        if arch and arch.management_server
        else next((s for s in catalog.all(System) if s.kind == "management-server"), None)
    )
    per_pair = arch.fabric_manager_pair_cables if arch else None
    section = ServersSection(
        fabric_manager=fm.id if fm else None,
        fabric_managers=fm_count,
        fabric_manager_pair_cables=(fm_count // 2) * (per_pair or 0),
        management_server=mgmt.id if mgmt else None,
        management_servers=mgmt_count,
        basis=f"{arch.name} counts, scaled with the cluster" if arch else mgmt_text,
        fabric_manager_rule=fm_text,
        management_rule=mgmt_text,
    )
    return Servers(section=section, fabric_manager=fm, management_server=mgmt)


#: in-band ports of a server whose catalog entry does not give them: an HA-bonded pair
_SERVER_INBAND_PORTS = 2


def server_inband_ports(server: System | None) -> int:
    """A management server's in-band ports, from its catalog entry (the H100 RA's BCM servers
    two: Table 8); two where it does not say."""
    if server is not None and server.inband is not None:
        return server.inband.ports
    return _SERVER_INBAND_PORTS


def inband_network(inputs: Inputs, nodes: int, srv: Servers) -> ManagementNetwork | None:
    """In-band management: every node's in-band ports and each server's own (`server_inband_
    ports`). None when the architecture carries in-band on its converged north-south fabric."""
    system, arch = inputs.system, inputs.architecture
    if arch is None or arch.converged_inband or standalone(inputs, nodes):
        return None  # a standalone server's in-band ports go to the site's network
    spec = arch.inband_fabric
    per_node = spec.ports_per_node if spec and spec.ports_per_node else None
    if per_node is None:
        per_node = system.inband.ports if system.inband else 1
    section = srv.section
    servers = section.management_servers * server_inband_ports(srv.management_server)
    # the fabric managers join where the RA cables them (H100 RA Table 8: one 1 GbE port each)
    managers = section.fabric_managers * ((spec.fabric_manager_ports or 0) if spec else 0)
    hosts = AccessHosts(nodes * per_node + servers + managers, servers, managers)
    return management_network(inputs.catalog, "in-band management", spec, hosts)


def oob_network(
    inputs: Inputs, nodes: int, compute_racks: int, other_hosts: int
) -> ManagementNetwork | None:
    """Out-of-band management: access switches for every node's BMC (or the in-rack switches of a
    rack-scale system), and for every other device (`other_hosts`: switches, servers, storage,
    PDUs), their uplinks on the in-band fabric. Once per catalog for the platform, its RA, the
    planes asked for and the counts (a caller's own system or RA is sized afresh)."""
    system, arch = inputs.system, inputs.architecture
    spec = arch.oob_fabric if arch else None
    if spec is None:
        return None

    def size() -> ManagementNetwork:
        return _oob_network(inputs, spec, nodes, compute_racks, other_hosts)

    if not (own(inputs.catalog, "systems", system) and own(inputs.catalog, "architectures", arch)):
        return size()
    planes = inputs.choices.planes
    key = ("oob_network", system.id, arch.id if arch else None, planes, nodes, compute_racks)
    return cached(inputs.catalog, (*key, other_hosts), size)


def _oob_network(
    inputs: Inputs, spec: FabricSpec, nodes: int, compute_racks: int, other_hosts: int
) -> ManagementNetwork:
    system, arch = inputs.system, inputs.architecture
    sw = inputs.catalog.switch(spec.switch)
    in_rack = compute_racks * spec.switches_per_rack if spec.switches_per_rack else 0
    per_node = spec.ports_per_node or (system.oob.ports if system.oob else 1)
    hosts = other_hosts + (0 if in_rack else nodes * per_node)
    down, _ = leaf_split(sw.radix_at(sw.port_speed_gbps) or sw.ports, spec.oversubscription)
    access = ceil_div(hosts, down) if hosts else 0
    by_racks = ceil_div(compute_racks, spec.racks_per_switch) if spec.racks_per_switch else 0
    by_nodes = ceil_div(nodes, spec.nodes_per_switch) if spec.nodes_per_switch else 0
    # a server standing alone keeps its one switch (the single-node footprint)
    floor = 0 if standalone(inputs, nodes) else spec.min_switches or 0
    leaves = max(access, by_racks, by_nodes, floor)
    # the RA's table, where it publishes this size, gives the count (never below the ports)
    planes = inputs.choices.planes or (arch.compute_fabric.planes if arch else None)
    published = published_count(inputs, nodes, planes, "oob_switches")
    if published is not None and not in_rack:
        leaves = max(access, published)
    total = in_rack + leaves
    unit_w = switch_power_w(sw)
    basis = f"{plural(leaves, 'access switch')}: {hosts:,} host ports at {down} per {sw.id}"
    if published is not None and not in_rack:
        basis += f", {published} at {plural(nodes, 'node')} in the RA's published table"
    if by_racks:
        basis += f", at least one per {spec.racks_per_switch} compute racks"
    if by_nodes:
        basis += f", at least one per {spec.nodes_per_switch} nodes"
    if floor:
        basis += f", at least {floor}"
    if in_rack:
        basis += f"; {in_rack} in-rack ({spec.switches_per_rack} per compute rack)"
    per = f"{spec.uplinks_per_switch} uplinks a switch" if spec.uplinks_per_switch else "uplinks"
    basis += f"; {per} to the in-band (north-south) fabric, no OOB spine"
    return ManagementNetwork(
        name="out-of-band management",
        switch=sw.id,
        port_speed_gbps=sw.port_speed_gbps,
        host_ports=hosts + (nodes * per_node if in_rack else 0),
        leaf_switches=total,
        spine_switches=0,
        total_switches=total,
        switch_power_w=None if unit_w is None else unit_w * total,
        basis=basis,
        in_rack_switches=in_rack,
        uplinks=total * (spec.uplinks_per_switch or 0),
        uplink_gbps=spec.uplink_gbps,
        uplink_cage_form=spec.uplink_cage_form,
    )


def oob_uplinks(catalog: Catalog, fabrics: FabricsSection) -> Link | None:
    """The uplink group of the design's out-of-band network; None where it has no uplinks the
    RA states or no fabric carries in-band management."""
    net = fabrics.oob
    target = _inband_switch(catalog, fabrics)
    if net is None or not net.uplinks or net.uplink_gbps is None or target is None:
        return None
    speed = net.uplink_gbps
    cable = _uplink_cable(catalog, speed, net.uplink_cage_form, target.cage_form)
    oob = catalog.switch(net.switch)
    return Link(
        fabric=net.name,
        segment="uplink",
        links=net.uplinks,
        speed_gbps=speed,
        media="active optical (AOC)" if cable else "optical",
        cable=cable.id if cable else None,
        # both ends plug into switches: both ends' power is the networks' (catalog: per end)
        cable_power_w=(
            None if cable is None or cable.power_w is None else 2 * cable.power_w * net.uplinks
        ),
        length_class="row",
        a=End(
            device=f"{oob.name} access switch",
            port=f"uplink port ({net.uplink_cage_form})" if net.uplink_cage_form else "uplink",
            transceiver=None,
            transceivers=0,
            # every access switch uplinks: the in-rack ones and those outside the racks
            groups=[
                switch_group(net.name, tier)
                for tier, n in (
                    ("rack", net.in_rack_switches),
                    ("leaf", net.leaf_switches - net.in_rack_switches),
                )
                if n
            ],
        ),
        b=End(
            device=target.name,
            port="access port",
            transceiver=None,
            transceivers=0,
            groups=[_inband_group(fabrics)],
        ),
    )


def _uplink_cable(
    catalog: Catalog, speed: float, uplink_cage: str | None, target_cage: str | None
) -> Optic | None:
    """The AOC of an out-of-band uplink: its rate, one port, of both cages' families (once per
    catalog: every pass of every design's settling asks)."""

    def find() -> Optic | None:
        return next(
            (
                o
                for o in catalog.all(Optic)
                if o.kind == "aoc"
                and o.total_gbps == speed
                and o.ports == 1
                and bool(uplink_cage)
                and same_family(o, uplink_cage)
                and same_family(o, target_cage)
            ),
            None,
        )

    return cached(catalog, ("oob_uplink_cable", speed, uplink_cage, target_cage), find)


def _inband_group(fabrics: FabricsSection) -> str:
    """The switch group the out-of-band uplinks land on: the in-band network's access
    switches, or the leaves of the fabric that carries in-band management."""
    role = next(r for r in fabrics.networks if r.network == "in-band management")
    if role.carried_by == "inband" and fabrics.inband is not None:
        return switch_group(fabrics.inband.name, "leaf")
    return switch_group(role.carried_by, "leaf")


def _inband_switch(catalog: Catalog, fabrics: FabricsSection) -> Switch | None:
    """The switch the in-band management network's hosts plug into: the in-band network's own,
    or the leaf of the fabric that carries it (a converged storage and in-band fabric)."""
    role = next((r for r in fabrics.networks if r.network == "in-band management"), None)
    if role is None:
        return None
    if role.carried_by == "inband" and fabrics.inband is not None:
        return catalog.switch(fabrics.inband.switch)
    for name, fabric in (("storage", fabrics.storage), ("compute", fabrics.compute)):
        if role.carried_by == name and fabric is not None:
            return catalog.switch(fabric.leaf_switch)
    return None


def fabric_manager_pairs(catalog: Catalog, servers: ServersSection, oob: str) -> Link | None:
    """The cables that join each fabric-manager HA pair back to back, listed with the
    out-of-band network's cables as H100 RA Table 8 lists them ("2 x 1 Gbps, UFM Back-to-Back,
    Cat5e" for 4 UFM): RJ45 copper, the two appliances side by side in the management rack."""
    if not servers.fabric_manager or not servers.fabric_manager_pair_cables:
        return None
    fm = catalog.system(servers.fabric_manager)
    end = End(
        device=fm.name,
        port="HA port (RJ45)",
        transceiver=None,
        transceivers=0,
        groups=[FABRIC_MANAGER],
    )
    return Link(
        fabric=oob,
        segment="fabric-manager HA",
        links=servers.fabric_manager_pair_cables,
        speed_gbps=1,
        media="copper (RJ45)",
        cable="cat5e-1g",
        length_class="in-rack",
        a=end,
        b=end,
    )
