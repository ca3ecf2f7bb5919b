"""The design's device groups, from the sections sizing has built: no new arithmetic, the counts
the sections hold, each group with the catalog part, maker, height and power a device row needs.

Groups come in the BOM's order (nodes, the compute fabric's tiers, the storage fabric's, the
management networks', the servers, the storage, the racks' PDUs and CDUs), which is the order the
placement fills the racks in.
"""

from __future__ import annotations

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import System
from clustergen.engine.model.design import (
    ComputeSection,
    FabricsSection,
    ManagementNetwork,
    RacksSection,
    ServersSection,
    StorageSection,
)
from clustergen.engine.model.fabric import FabricDesign
from clustergen.engine.model.inventory import (
    CDU,
    FABRIC_MANAGER,
    MANAGEMENT_SERVER,
    NODE,
    PDU,
    POWER_SHELF,
    STORAGE,
    DeviceGroup,
    PartKind,
    switch_group,
)
from clustergen.engine.sizing.fabric import switch_power_w
from clustergen.engine.sizing.racks import shelves_per_rack

#: a server or appliance of unknown height: the racks section's stated estimate
SERVER_RACK_UNITS = 2
#: a switch of unknown height: one rack unit (every switch the catalog gives is 1U or 2U)
SWITCH_RACK_UNITS = 1
#: the group id of each kind of rack-scale tray
_TRAY_GROUPS = {"compute": "compute-tray", "switch": "switch-tray", "power": "power-shelf"}


def node_group(system: System) -> str:
    """The group a node's links end on: a rack-scale system's compute trays (its hosts), else
    the nodes."""
    if any(p.tray == "compute" for p in system.included):
        return _TRAY_GROUPS["compute"]
    return NODE


def device_groups(
    catalog: Catalog,
    system: System,
    compute: ComputeSection,
    fabrics: FabricsSection,
    servers: ServersSection,
    racks: RacksSection,
    storage: StorageSection,
) -> list[DeviceGroup]:
    """Every device group of the design, in the BOM's order."""
    out = _compute_groups(system, compute, racks)
    for name, f in (("compute", fabrics.compute), ("storage", fabrics.storage)):
        out += _fabric_groups(catalog, name, f)
    for net in (fabrics.inband, fabrics.oob):
        out += _network_groups(catalog, system, net)
    for group_id, kind, system_id, count in (
        (FABRIC_MANAGER, PartKind.FABRIC_MANAGER, servers.fabric_manager, servers.fabric_managers),
        (
            MANAGEMENT_SERVER,
            PartKind.MANAGEMENT_SERVER,
            servers.management_server,
            servers.management_servers,
        ),
    ):
        if system_id and count:
            out.append(
                _server_group(catalog.system(system_id), group_id, kind, "management", count)
            )
    if storage.appliances is not None:
        appliance = catalog.system(storage.appliances.appliance)
        out.append(
            _server_group(appliance, STORAGE, PartKind.STORAGE, "storage", storage.appliances.count)
        )
    if racks.pdus:
        out.append(
            DeviceGroup(
                id=PDU,
                kind=PartKind.PDU,
                name="rack PDU",
                role="power",
                part=None,
                vendor=None,
                # a vertical PDU takes no rack unit; its own draw is not a term of the design
                rack_units=0,
                rack_units_known=True,
                unit_power_w=None,
                count=racks.pdus,
            )
        )
    rack = catalog.rack(racks.rack_type) if racks.rack_type else None
    shelves = shelves_per_rack(rack, racks.compute)
    if rack is not None and shelves is not None:
        out.append(
            DeviceGroup(
                id=POWER_SHELF,
                kind=PartKind.POWER_SHELF,
                name=rack.power_shelf_name or "DC power shelf",
                role="power",
                part=None,
                vendor=None,
                rack_units=rack.power_shelf_units or 1,
                rack_units_known=rack.power_shelf_units is not None,
                unit_power_w=None,  # its loss is within the nodes' input (model/inventory PARTS)
                count=shelves[0] * racks.compute.compute_racks,
            )
        )
    c = racks.cooling
    if c is not None and c.row_positions:
        cdu = catalog.cdu(c.cdu)
        out.append(
            DeviceGroup(
                id=CDU,
                kind=PartKind.CDU,
                name=c.cdu_name,
                role="cooling",
                part=c.cdu,
                vendor=cdu.vendor,
                # a cabinet of the compute racks' height: its own height is not in the catalog
                rack_units=racks.compute.rack_units,
                rack_units_known=False,
                unit_power_w=cdu.power_w,
                count=c.row_positions,
            )
        )
    return out


def _compute_groups(
    system: System, compute: ComputeSection, racks: RacksSection
) -> list[DeviceGroup]:
    """The nodes, and a rack-scale system's trays (the devices its racks hold)."""
    plan = racks.compute
    out = [
        DeviceGroup(
            id=NODE,
            kind=PartKind.COMPUTE,
            name=system.name,
            role="compute",
            part=system.id,
            vendor=system.vendor,
            rack_units=0 if system.kind == "nvl-rack" else plan.node_rack_units or 0,
            rack_units_known=plan.node_rack_units is not None or system.kind == "nvl-rack",
            unit_power_w=compute.node_power.node_w,
            count=compute.nodes,
        )
    ]
    for part in system.included:
        if part.tray is None:
            continue
        out.append(
            DeviceGroup(
                id=_TRAY_GROUPS[part.tray],
                kind=PartKind.INCLUDED,
                name=part.name,
                role="compute",
                part=part.part,
                vendor=system.vendor,
                rack_units=part.rack_units or 1,
                rack_units_known=part.rack_units is not None,
                unit_power_w=None,
                count=compute.nodes * part.count,
                supply="included",
                tray=part.tray,
            )
        )
    return out


def _fabric_groups(catalog: Catalog, name: str, f: FabricDesign | None) -> list[DeviceGroup]:
    if f is None:
        return []
    out = []
    for tier, count, sw_id in (
        ("leaf", f.leaf_switches, f.leaf_switch),
        ("spine", f.spine_switches, f.spine_switch),
        ("core", f.core_switches, f.core_switch),
    ):
        if count and sw_id:
            out.append(_switch_group(catalog, name, tier, sw_id, count))
    return out


def _network_groups(
    catalog: Catalog, system: System, net: ManagementNetwork | None
) -> list[DeviceGroup]:
    """A management network's in-rack switches, its access switches outside the compute racks,
    its spines and cores."""
    if net is None:
        return []
    core = net.total_switches - net.leaf_switches - net.spine_switches
    inside = system.included_count(net.switch) > 0
    out = []
    for tier, count in (
        ("rack", net.in_rack_switches),
        ("leaf", net.leaf_switches - net.in_rack_switches),
        ("spine", net.spine_switches),
        ("core", core),
    ):
        if count > 0:
            group = _switch_group(catalog, net.name, tier, net.switch, count)
            if tier == "rack" and inside:
                # a rack-scale system ships its in-rack switches
                group = group.model_copy(update={"supply": "included"})
            out.append(group)
    return out


def _switch_group(catalog: Catalog, network: str, tier: str, sw_id: str, count: int) -> DeviceGroup:
    sw = catalog.switch(sw_id)
    return DeviceGroup(
        id=switch_group(network, tier),
        kind=PartKind.SWITCH,
        name=sw.name,
        role="network",
        tier=tier,
        network=network,
        part=sw.id,
        vendor=sw.vendor,
        rack_units=sw.rack_units or SWITCH_RACK_UNITS,
        rack_units_known=sw.rack_units is not None,
        unit_power_w=switch_power_w(sw),
        count=count,
    )


def _server_group(
    system: System, group_id: str, kind: PartKind, role: str, count: int
) -> DeviceGroup:
    return DeviceGroup(
        id=group_id,
        kind=kind,
        name=system.name,
        role=role,
        part=system.id,
        vendor=system.vendor,
        rack_units=system.rack_units or SERVER_RACK_UNITS,
        rack_units_known=system.rack_units is not None,
        unit_power_w=system.max_power_w,
        count=count,
    )
