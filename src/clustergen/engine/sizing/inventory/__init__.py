"""The design's inventory: its device groups (`groups`) and the racks they stand in
(`placement`), built once for the design a caller returns."""

from __future__ import annotations

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import System
from clustergen.engine.model.design import (
    ComputeSection,
    FabricsSection,
    RacksSection,
    ServersSection,
    StorageSection,
)
from clustergen.engine.model.inventory import Inventory
from clustergen.engine.sizing.inventory.groups import device_groups, node_group
from clustergen.engine.sizing.inventory.increment import SUPPORT, increment_of
from clustergen.engine.sizing.inventory.placement import PLACEMENT_BASIS, USABLE_U, place

__all__ = ["SUPPORT", "USABLE_U", "build_inventory", "device_groups", "increment_of", "node_group"]


def build_inventory(
    catalog: Catalog,
    system: System,
    compute: ComputeSection,
    fabrics: FabricsSection,
    servers: ServersSection,
    racks: RacksSection,
    storage: StorageSection,
) -> Inventory:
    """The design's device groups and the racks they stand in."""
    groups = device_groups(catalog, system, compute, fabrics, servers, racks, storage)
    net_pdus = int(float(catalog.assumption("network-rack-pdus").value))
    # the compute racks' PDUs are what the racks section counts beyond the network racks'
    # (none where power shelves feed the rack: racks.py decides, once)
    compute_pdus = (racks.pdus - racks.network_racks * net_pdus) // max(
        1, racks.compute.compute_racks
    )
    return Inventory(
        groups=groups,
        racks=place(groups, racks, compute_pdus, net_pdus),
        basis=PLACEMENT_BASIS,
    )
