"""Management (sizing/management.py): fabric managers and management servers scaled by their
rules, and out-of-band access switches."""

from __future__ import annotations

import dataclasses

import pytest

from clustergen.catalog import load_catalog
from clustergen.catalog.architectures import ScaledCount
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design


def test_a_scaled_count_is_fixed_plus_a_part_per_block() -> None:
    rule = ScaledCount(fixed=2, per_block=2, block_nodes=128, basis="test")
    assert [rule.count(n) for n in (1, 127, 128, 129, 12_500)] == [4, 4, 4, 6, 2 + 2 * 98]
    assert ScaledCount(fixed=5, basis="BasePOD").count(16) == 5


@pytest.mark.parametrize(("nodes", "servers"), [(127, 4), (2048, 34)])
def test_management_servers_grow_with_the_cluster(nodes: int, servers: int) -> None:
    """H100 RA Table 7: 4 at 4 SU; beyond, 2 more per 128 nodes (a stated estimate). Issue 13:
    they stayed at 4 whatever the size."""
    cat = load_catalog()
    d = plan_design(cat, merge_request(cat, f"{nodes} DGX H100, InfiniBand", {}))
    assert d.servers.management_servers == servers
    assert d.servers.management_rule is not None
    assert "estimate" in d.servers.management_rule


def test_the_h100_superpod_keeps_its_published_management_bill() -> None:
    """H100 RA Tables 7 and 8 at 4 SU: 8 SN2201 OOB (one per 4 compute racks), 4 UFM."""
    cat = load_catalog()
    d = plan_design(cat, merge_request(cat, "127 DGX H100, InfiniBand", {}))
    assert d.fabrics.oob is not None
    assert (d.fabrics.oob.total_switches, d.fabrics.oob.spine_switches) == (8, 0)
    assert d.servers.fabric_managers == 4


def test_nvl72_racks_carry_two_oob_switches_each() -> None:
    """DGX GB Rack Scale Systems User Guide: '2x TOR Switches for management' per rack."""
    cat = load_catalog()
    d = plan_design(cat, merge_request(cat, "8 GB200 NVL72 racks", {}))
    oob = d.fabrics.oob
    assert oob is not None
    assert oob.in_rack_switches == 16
    assert oob.total_switches > 16  # the control plane's own access switches besides


@pytest.mark.parametrize(
    ("text", "servers"),
    [
        ("one GB200 NVL72 rack", 5),
        ("2 GB200 NVL72 racks", 5),
        ("7 GB200 NVL72 racks", 5),
        ("one GB300 NVL72 rack, InfiniBand", 5),
        ("8 GB200 NVL72 racks", 7),
    ],
)
def test_a_rack_scale_cluster_below_one_su_gets_the_smallest_published_control_plane(
    text: str, servers: int
) -> None:
    """Issue 23: one NVL72 rack had the 7 servers the SuperPOD layouts count per SU (2 BCM + 5
    service, an estimate). Below one SU of 8 racks: 2 BCM head nodes in HA + 3 Kubernetes admin
    nodes for NMX-M (catalog assumption sub-su-control-plane); from one SU the RA's count."""
    cat = load_catalog()
    d = plan_design(cat, merge_request(cat, text, {}))
    assert d.servers.management_servers == servers
    rule = d.servers.management_rule or ""
    assert ("smallest control plane" in rule) == (servers == 5)


def test_an_8_gpu_cluster_below_one_su_keeps_its_own_published_design() -> None:
    """The sub-SU cap is for rack-scale systems: 20 DGX B200 keep the B200 SuperPOD count (the
    BasePOD covers 8-GPU clusters up to 16 nodes with its own entry)."""
    cat = load_catalog()
    d = plan_design(cat, merge_request(cat, "20 DGX B200, InfiniBand", {}))
    assert d.servers.management_servers == 7


def test_a_management_network_is_sized_once_per_spec_and_port_count() -> None:
    """In-band management depends on the RA's spec and the port count alone: asked twice on one
    catalog it is one sizing, the same as one sized on a catalog of its own."""
    from clustergen.engine.sizing.management import AccessHosts, management_network

    cat = dataclasses.replace(load_catalog(), hash="management-shared")
    arch = cat.architecture("dgx-superpod-h100")
    first = management_network(cat, "in-band management", arch.inband_fabric, AccessHosts(150))
    assert first is not None
    assert (
        management_network(cat, "in-band management", arch.inband_fabric, AccessHosts(150)) is first
    )
    fresh = dataclasses.replace(load_catalog(), hash="management-fresh")
    assert (
        management_network(fresh, "in-band management", arch.inband_fabric, AccessHosts(150))
        == first
    )
    other = management_network(cat, "in-band management", arch.inband_fabric, AccessHosts(400))
    assert other is not None
    assert other.host_ports == 400
