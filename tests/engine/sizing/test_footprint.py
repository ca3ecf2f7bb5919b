"""The single-node footprint and small clusters' racks: one server standing alone gets no control
plane, no storage fabric of its own unless a storage tier is asked for, one out-of-band switch in
its rack; from the RA's smallest published cluster (2 nodes) the RA's control plane applies."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.design import Design
from clustergen.engine.report.documents.memo import render_memo
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design
from clustergen.engine.sizing.management import smallest_cluster_nodes

CAT = load_catalog()


def _design(text: str) -> Design:
    return plan_design(CAT, merge_request(CAT, text, {}))


@pytest.mark.parametrize("text", ["1 DGX H100", "an HGX H200 server", "1 DGX B200 for training"])
def test_one_server_alone_has_a_single_node_footprint(text: str) -> None:
    d = _design(text)
    assert d.compute.nodes == 1
    assert d.servers.management_servers == 0
    assert d.servers.management_rule
    assert "stands alone" in d.servers.management_rule
    assert d.fabrics.compute is None
    assert d.fabrics.storage is None
    assert d.fabrics.inband is None
    assert d.fabrics.oob is not None
    assert d.fabrics.oob.total_switches == 1
    assert d.storage.site_storage
    assert d.storage.appliances is None
    assert d.racks.network_racks == 0
    assert d.power.storage_w == 0
    assert d.power.complete
    roles = {r.network: r.carried_by for r in d.fabrics.networks}
    assert roles["storage"] == "node"
    assert "stands alone" in render_memo(d)


def test_a_storage_tier_asked_for_gets_storage_of_its_own() -> None:
    d = _design("1 DGX H100 with best storage")
    assert d.fabrics.storage is not None
    assert d.storage.appliances is not None
    assert not d.storage.site_storage
    assert d.servers.management_servers == 0


def test_one_nvl72_rack_is_a_cluster_built_as_its_ra() -> None:
    d = _design("one GB200 NVL72 rack")
    assert d.servers.management_servers > 0
    assert d.fabrics.storage is not None


def test_the_smallest_published_cluster_gets_the_ra_control_plane() -> None:
    n = smallest_cluster_nodes(CAT)
    assert n == 2
    d = _design(f"{n} DGX H100 for training")
    # DGX BasePOD RA: five management servers and one SN4600C pair for management and storage
    assert d.servers.management_servers == 5
    assert d.fabrics.storage is not None
    assert d.fabrics.storage.leaf_switch == "sn4600c"
    assert d.fabrics.storage.total_switches == 2


def test_support_gear_that_fits_a_compute_rack_needs_no_network_rack() -> None:
    d = _design("4 DGX B200 systems")
    r = d.racks
    assert r.network_racks == 0
    assert "compute rack" in r.basis
    big = _design("DGX H100 4 SU")  # the SuperPOD's SU layout keeps its network racks
    assert big.racks.network_racks == 6
    assert big.racks.total_racks == 38  # H100 RA Table 7


def test_support_gear_without_power_headroom_gets_a_network_rack() -> None:
    # two DGX B200 at 28.6 kW leave 0.4 kW of a 29 kW rack: the switches and servers need more
    d = _design("4 DGX B200 systems, 29 kW per rack")
    assert d.racks.network_racks == 1
    assert _design("4 DGX B200 systems").racks.network_racks == 0
