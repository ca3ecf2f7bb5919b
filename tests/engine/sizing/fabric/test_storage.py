"""Storage leaves at 1:1 and the spines they share, against the H100 RA's 4-SU storage fabric."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.fabric import FabricDesign, FabricPlan
from clustergen.engine.sizing.fabric.network import size_clos
from clustergen.engine.sizing.fabric.storage import _storage_leaves


@pytest.fixture(scope="module")
def node_part() -> FabricDesign:
    """H100-RA Tables 7 and 8: 127 DGX H100 x 2 storage ports, node leaves at 4:3."""
    sw = load_catalog().switch("qm9700")
    plan = FabricPlan(
        nodes=127,
        ports_per_node=2,
        port_speed_gbps=400,
        rails=1,
        su_nodes=32,
        oversubscription=4 / 3,
    )
    return size_clos(plan, sw, sw, sw)


def test_one_storage_leaf_per_su_at_one_to_one_under_four_spines(node_part: FabricDesign) -> None:
    spec = load_catalog().architecture("dgx-superpod-h100").storage_fabric
    assert spec is not None
    assert (node_part.leaf_switches, node_part.leaf_uplinks) == (8, 24)
    storage = _storage_leaves(spec, node_part, 48)
    assert storage is not None
    assert (storage.count, storage.down, storage.up, storage.spines) == (4, 12, 12, 4)


def test_no_spine_count_holds_every_uplink(node_part: FabricDesign) -> None:
    spec = load_catalog().architecture("dgx-superpod-h100").storage_fabric
    assert spec is not None
    assert _storage_leaves(spec, node_part, 2000) is None
