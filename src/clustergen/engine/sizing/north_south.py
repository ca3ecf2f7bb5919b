"""The north-south side of a design: the storage fabric (or the converged fabric that carries
storage and in-band management together), and which fabric carries each of the four networks.

Three shapes, each an architecture's data (catalog/architectures.yaml):
- separate: a storage fabric of its own, in-band on a management network of its own (the NDR and
  XDR SuperPOD RAs);
- converged (`converged_inband`): one Ethernet fabric carries storage and in-band management
  (DGX BasePOD, the GB200 SuperPOD, the Enterprise RAs' north-south fabric);
- collapsed (`collapse_compute`): while the compute ports and the north-south ports fit one switch
  pair, the compute fabric's pair carries them all (the Enterprise RAs' small design points:
  "for smaller design points the Compute Fabric has been merged with the Converged Fabric").
"""

from __future__ import annotations

from typing import NamedTuple

from clustergen.catalog.architectures import FabricSpec
from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Switch
from clustergen.engine.cache import cached, own
from clustergen.engine.model.design import ManagementNetwork, NetworkRole
from clustergen.engine.model.fabric import FabricDesign, FabricSetup
from clustergen.engine.sizing.checks import published_row
from clustergen.engine.sizing.fabric import choose_cabling_for, size_setup, size_storage_fabric
from clustergen.engine.sizing.inputs import Inputs
from clustergen.engine.sizing.management import Servers, standalone, storage_asked
from clustergen.engine.sizing.storage import StoragePlan
from clustergen.errors import CatalogGapError
from clustergen.units import ceil_div, ratio


class NorthSouth(NamedTuple):
    """The compute fabric (a collapsed design's pair carries more), the storage fabric, and
    whether in-band management rides the storage fabric."""

    compute: FabricDesign | None
    storage: FabricDesign | None
    inband_on_storage: bool
    collapsed: bool
    node_ports: int  # a node's ports on the north-south fabric
    speed_gbps: float  # the switch ports' speed
    site: bool = False  # a standalone node's north-south ports go to the site's network
    host_gbps: float | None = None  # a node port's own rate, where it is known

    @property
    def node_link_gbps(self) -> float:
        """The rate a node's north-south link delivers: the slower end's (a 200 GbE port on a
        400 Gb/s switch port carries 200 Gb/s)."""
        return min(self.speed_gbps, self.host_gbps or self.speed_gbps)


def storage_spec(inputs: Inputs, compute_technology: str | None) -> FabricSpec | None:
    """The architecture's storage fabric; for an Ethernet design on an InfiniBand RA, or a request
    that asks for Ethernet storage, the RA's Ethernet storage option (an Ethernet request gets an
    Ethernet storage fabric)."""
    arch = inputs.architecture
    if arch is None:
        return None
    spec = arch.storage_fabric
    asked = inputs.request.storage_fabric
    if asked is not None and spec is not None and spec.technology != asked:
        # said apart from the compute fabric: the RA's storage option of that technology
        return (arch.ethernet_storage_fabric if asked == "ethernet" else None) or spec
    ethernet = (compute_technology or inputs.choices.fabric) == "ethernet"
    if ethernet and spec is not None and spec.technology != "ethernet":
        return arch.ethernet_storage_fabric or spec
    return spec


def fabric_speed(sw: Switch, wanted: float) -> float:
    """The port speed a switch runs for hosts of `wanted` Gb/s: that speed when it has it, else the
    slowest speed it has above it (one switch port per host port), else its native speed."""
    if sw.radix_at(wanted) is not None:
        return wanted
    speeds = sorted({sw.port_speed_gbps, *(b.speed_gbps for b in sw.breakouts)})
    return next((s for s in speeds if s >= wanted), sw.port_speed_gbps)


def _node_ports(inputs: Inputs, spec: FabricSpec) -> tuple[int, float]:
    """A node's ports on the storage (or converged) fabric and their speed."""
    system = inputs.system
    group = system.storage
    ports = (
        spec.ports_per_node if spec.ports_per_node is not None else (group.ports if group else 0)
    )
    speed = spec.port_speed_gbps or (group.port_speed_gbps if group else None)
    if ports and speed is None:
        raise CatalogGapError(
            f"system {system.id} has no storage ports in the catalog, and its architecture's "
            "storage fabric gives no port speed",
            entry=system.id,
            field="storage",
            hint="add its storage port group in a layered catalog",
        )
    return ports, speed or 0.0


def server_ports(srv: Servers, converged: bool) -> int:
    """Management-server ports on the north-south fabric: their storage ports (H100 RA Table 8,
    'Slurm management' on the storage fabric), or their in-band ports where in-band rides it
    (BasePOD Table 4.2: two per server)."""
    mgmt = srv.management_server
    if mgmt is None:
        return 0
    field = "inband" if converged else "storage"
    group = mgmt.inband if converged else mgmt.storage
    if group is None:
        raise CatalogGapError(
            f"management server {mgmt.id} has no {field} ports in the catalog",
            entry=mgmt.id,
            field=field,
            hint=f"add its {field} port group in a layered catalog",
        )
    return group.ports * srv.section.management_servers


def _collapse(
    catalog: Catalog, setup: FabricSetup | None, compute: FabricDesign | None, shared: int
) -> FabricDesign | None:
    """The compute fabric's pair carrying `shared` north-south ports too, or None when they do
    not fit one pair."""
    if setup is None or compute is None or compute.planes != 1 or not setup.plan.redundant:
        return None
    plan = setup.plan._replace(shared_hosts=shared)
    both = size_setup(catalog, setup._replace(plan=plan))
    return both if both.inter_switch_links and both.tiers == 1 else None


def north_south(
    inputs: Inputs,
    nodes: int,
    compute: tuple[FabricSetup | None, FabricDesign | None],
    storage: StoragePlan,
    srv: Servers,
    follows_ra: bool,
) -> NorthSouth:
    """The storage or converged fabric for the nodes' north-south ports, the storage appliances'
    ports and the management servers' ports; or the compute pair carrying them all."""
    arch, (setup, cf) = inputs.architecture, compute
    spec = storage_spec(inputs, cf.technology if cf else None)
    if arch is None or spec is None:
        return NorthSouth(cf, None, False, False, 0, 0.0)
    converged = arch.converged_inband
    node_ports, wanted = _node_ports(inputs, spec)
    sw = inputs.catalog.switch(spec.switch)
    speed = fabric_speed(sw, wanted or sw.port_speed_gbps)
    if standalone(inputs, nodes) and not storage_asked(inputs):
        # a single-node footprint: its own north-south ports reach the site's network
        group = inputs.system.storage
        ports, rate = (group.ports, group.port_speed_gbps) if group else (node_ports, speed)
        return NorthSouth(cf, None, converged, False, ports, rate, site=True)
    other = storage.storage_ports + server_ports(srv, converged)
    if arch.collapse_compute and follows_ra:
        both = _collapse(inputs.catalog, setup, cf, nodes * node_ports + other)
        if both is not None:
            return NorthSouth(both, None, converged, True, node_ports, speed, host_gbps=wanted)
    if node_ports == 0 and other == 0:
        return NorthSouth(cf, None, converged, False, 0, speed)
    planes = cf.planes if cf else None
    published, spines = _published_leaves(
        inputs, spec, sw, (nodes, nodes * node_ports + other), planes
    )
    fabric = _storage_fabric(
        inputs.catalog,
        published,
        sw,
        nodes=nodes,
        ports_per_node=node_ports,
        port_speed_gbps=speed,
        su_nodes=arch.su_nodes if spec.storage_leaves_per_su else None,
        storage_ports=other,
        fabric_manager_links=_storage_manager_links(inputs, spec, srv),
        spines=spines,
    )
    if spines is not None:
        said = (
            f"{fabric.leaf_switches} leaves and {fabric.spine_switches} spines as the RA's table "
            "publishes at this size"
        )
        if published.oversubscription != spec.oversubscription:
            said += (
                f", their ports at {ratio(published.oversubscription)} (the table publishes the "
                f"switches, not their ratio; {ratio(spec.oversubscription)} would need more "
                "leaves for these ports)"
            )
        fabric = fabric.model_copy(update={"notes": [*fabric.notes, said]})
    return NorthSouth(cf, fabric, converged, False, node_ports, speed, host_gbps=wanted)


def _storage_manager_links(inputs: Inputs, spec: FabricSpec, srv: Servers) -> int:
    """The storage fabric's own fabric-manager links: an InfiniBand storage fabric has its UFM
    pair (H100 RA Tables 7 and 8: 4 UFM, an HA pair on each InfiniBand fabric; the storage
    fabric's 369 transceivers count 4 UFM links), cabled as the compute fabric's are."""
    arch = inputs.architecture
    if arch is None or spec.technology != "infiniband" or not srv.section.fabric_managers:
        return 0
    return arch.fabric_manager_links


def _published_leaves(
    inputs: Inputs, spec: FabricSpec, sw: Switch, ports: tuple[int, int], planes: int | None
) -> tuple[FabricSpec, int | None]:
    """The storage fabric's spec set so its host ports fill the leaves the RA's table publishes
    at this size (B200 RA Figure 3.2: 8 storage leaves under 4 spines at 4 SU): each leaf's
    uplinks a multiple of the published spines, no fewer than the spec's ratio asks where the
    leaves hold that; where they do not, the published leaves still hold the ports, with as many
    uplinks as each leaf's free ports allow (a steeper ratio, which the fabric's notes state: the
    table publishes the switches, not their ratio, and its storage was the RA's). The spec is
    unchanged where no row publishes the leaves, the RA splits its leaves by kind
    (`storage_leaves_per_su`), or not even that fits; beside it, the spines the row publishes
    (None where the spec is unchanged). `ports`: the cluster's nodes and the fabric's host
    ports."""
    nodes, host_ports = ports
    row = published_row(inputs, nodes, planes)
    if row is None or row.storage_leaf is None or spec.storage_leaves_per_su is not None:
        return spec, None
    leaves, spines = row.storage_leaf, row.storage_spine or 1
    radix = sw.radix_at(sw.port_speed_gbps) or sw.ports
    down = ceil_div(host_ports, leaves)
    up = ceil_div(ceil_div(down * 1_000_000, round(spec.oversubscription * 1_000_000)), spines)
    up *= spines
    if down + up <= radix and leaves * up <= spines * radix:
        return spec.model_copy(update={"uplinks_per_leaf": up}), row.storage_spine
    # the published leaves at the ratio their free ports give (the uplinks still a multiple of
    # the spines, each spine's ports enough for them)
    up = min((radix - down) // spines * spines, radix)
    if up < spines or leaves * up > spines * radix:
        return spec, None
    steeper = {"uplinks_per_leaf": up, "oversubscription": (radix - up) / up}
    return spec.model_copy(update=steeper), row.storage_spine


def _storage_fabric(
    catalog: Catalog,
    spec: FabricSpec,
    sw: Switch,
    *,
    nodes: int,
    ports_per_node: int,
    port_speed_gbps: float,
    su_nodes: int | None,
    storage_ports: int,
    fabric_manager_links: int = 0,
    spines: int | None = None,
) -> FabricDesign:
    """The storage (or converged) fabric, sized once per loaded catalog for its spec, switch and
    port counts: a trade study's rows that share them (a platform's fabric alternatives,
    platforms on one RA family) share one sizing."""

    def size() -> FabricDesign:
        return size_storage_fabric(
            spec,
            sw,
            choose_cabling_for(catalog, sw, port_speed_gbps),
            nodes=nodes,
            ports_per_node=ports_per_node,
            port_speed_gbps=port_speed_gbps,
            su_nodes=su_nodes,
            storage_ports=storage_ports,
            fabric_manager_links=fabric_manager_links,
            spines=spines,
        )

    if not own(catalog, "switches", sw):  # a caller's own variant of a switch: size it afresh
        return size()
    key = (
        "storage_fabric",
        spec,
        sw.id,
        nodes,
        ports_per_node,
        port_speed_gbps,
        su_nodes,
        storage_ports,
        fabric_manager_links,
        spines,
    )
    return cached(catalog, key, size)


def storage_network_gb(ns: NorthSouth, nodes: int, storage_ports: int) -> float | None:
    """GB/s the storage network carries: the nodes' side or the storage side, the smaller."""
    if ns.node_ports == 0 or (ns.storage is None and not ns.collapsed and not ns.site):
        return None
    node_side = nodes * ns.node_ports * ns.node_link_gbps / 8
    if ns.site:  # the site's storage side is not designed here: the node's ports bound it
        return node_side
    return min(node_side, storage_ports * ns.speed_gbps / 8)


def network_roles(
    ns: NorthSouth,
    inband: ManagementNetwork | None,
    oob: ManagementNetwork | None,
    unit: str = "one node, its GPUs share NVLink",
) -> list[NetworkRole]:
    """Which fabric carries each of the four networks, in words a reader can check; `unit` is
    what a design of one node is (platform.lone_unit: its GPUs and what they talk over)."""
    roles: list[NetworkRole] = []
    if ns.compute is None:
        roles.append(
            NetworkRole(
                network="compute",
                carried_by="node",
                detail=f"{unit}; no scale-out fabric",
            )
        )
    else:
        roles.append(
            NetworkRole(network="compute", carried_by="compute", detail="the compute fabric")
        )
    if ns.site:
        detail = (
            f"the node's {ns.node_ports} north-south ports ({ns.speed_gbps:g} Gb/s) to the site's "
            "network: a single-node footprint has no storage fabric of its own"
        )
        roles.append(NetworkRole(network="storage", carried_by="node", detail=detail))
        roles.append(NetworkRole(network="in-band management", carried_by="node", detail=detail))
    elif ns.collapsed:
        detail = "the compute fabric's switch pair (collapsed: every port fits one pair)"
        roles.append(NetworkRole(network="storage", carried_by="compute", detail=detail))
        roles.append(NetworkRole(network="in-band management", carried_by="compute", detail=detail))
    else:
        if ns.storage is not None:
            roles.append(
                NetworkRole(network="storage", carried_by="storage", detail="the storage fabric")
            )
        if ns.inband_on_storage and ns.storage is not None:
            roles.append(
                NetworkRole(
                    network="in-band management",
                    carried_by="storage",
                    detail="the converged north-south fabric (storage and in-band together)",
                )
            )
        elif inband is not None:
            roles.append(
                NetworkRole(network="in-band management", carried_by="inband", detail=inband.basis)
            )
        else:  # a standalone server with storage of its own: in-band still goes to the site
            detail = (
                "the node's in-band port to the site's network: a single-node footprint has no "
                "in-band network of its own"
            )
            roles.append(
                NetworkRole(network="in-band management", carried_by="node", detail=detail)
            )
    return roles + oob_role(oob)


def oob_role(oob: ManagementNetwork | None) -> list[NetworkRole]:
    """The out-of-band network's role, the last of `network_roles` (none without the network)."""
    if oob is None:
        return []
    return [NetworkRole(network="out-of-band management", carried_by="oob", detail=oob.basis)]
