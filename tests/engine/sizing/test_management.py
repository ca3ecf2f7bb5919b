"""Management (sizing/management.py): fabric managers and management servers scaled by their
rules, and out-of-band access switches."""

from __future__ import annotations

import dataclasses

import pytest

from clustergen.catalog import load_catalog
from clustergen.catalog.architectures import ScaledCount
from clustergen.catalog.loader import Catalog
from clustergen.engine.model.design import Design
from clustergen.engine.model.links import LinkGroup
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


def _plan(catalog: Catalog, text: str) -> Design:
    return plan_design(catalog, merge_request(catalog, text, {}))


def test_inband_switch_links_are_the_ras_cabling_where_it_gives_one() -> None:
    """H100 SuperPOD (RA Table 8 gives the in-band leaf-core and ISL cabling): each leaf's
    uplinks and each leaf pair's peer links are built, on the switches' QSFP cables; a B200
    SuperPOD, whose RA pages give no in-band cabling, gets none invented."""
    cat = load_catalog()
    spec = cat.architecture("dgx-superpod-h100").inband_fabric
    assert spec is not None
    assert spec.uplinks_per_leaf
    assert spec.peer_links
    for text in ("64 DGX H100, InfiniBand", "256 DGX H100, InfiniBand"):
        d = _plan(cat, text)
        net = d.fabrics.inband
        assert net is not None
        assert net.spine_switches
        groups = {g.segment: g for g in d.links if g.fabric == net.name}
        assert groups["leaf-spine"].links == net.leaf_switches * spec.uplinks_per_leaf
        assert groups["leaf-spine"].cable == "aoc-100g-qsfp28"
        assert groups["inter-switch"].links == net.leaf_switches // 2 * spec.peer_links
        assert groups["inter-switch"].cable == "dac-100g-qsfp28"
    b200 = _plan(cat, "128 DGX B200, InfiniBand")
    segments = {g.segment for g in b200.links if g.fabric == "in-band management"}
    assert not segments & {"leaf-spine", "spine-core", "inter-switch"}


def test_a_server_joins_the_inband_network_on_its_own_port() -> None:
    """The BCM servers' in-band links are their catalog port's (2 x 100G QSFP28), not the
    DGX's; the UFM joins at its 1 GbE port only where the RA cables it (H100: one each)."""
    cat = load_catalog()
    d = _plan(cat, "127 DGX H100, InfiniBand")
    server = cat.system("bcm-head-node")
    assert server.inband is not None
    servers = [g for g in d.links if g.a.device == server.name and g.fabric == "in-band management"]
    assert [g.links for g in servers] == [d.servers.management_servers * server.inband.ports]
    ufm = [g for g in d.links if g.segment == "fabric-manager access"]
    assert [(g.links, g.speed_gbps, g.b.transceiver) for g in ufm] == [
        (d.servers.fabric_managers, 1.0, "sfp-1g-baset")
    ]


def test_the_ufm_splitter_needs_the_leaf_to_break_out_to_its_rate() -> None:
    """Two UFM ports share a leaf port on a 1:2 splitter fiber because the QM9700 breaks out to
    200G; a leaf without that breakout keeps one straight fiber a UFM port."""
    cat = load_catalog()

    def fm_group(catalog: Catalog) -> LinkGroup:
        d = _plan(catalog, "127 DGX H100, InfiniBand")
        return next(g for g in d.links if g.segment == "fabric-manager-leaf")

    split = fm_group(cat)
    assert (split.cable, split.links_per_cable, split.speed_gbps) == ("fiber-mpo-mm-split", 2, 200)
    entries = {stem: dict(rows) for stem, rows in cat.entries.items()}
    entries["switches"]["qm9700"] = entries["switches"]["qm9700"].model_copy(
        update={"breakouts": []}
    )
    whole = fm_group(dataclasses.replace(cat, entries=entries, hash="qm9700-no-breakout"))
    assert (whole.cable, whole.links_per_cable) == ("fiber-mpo-mm", 1)


@pytest.mark.parametrize(
    ("text", "appliance"),
    [
        # Quantum-X800 (XDR) compute fabrics: NVIDIA's UFM appliance catalog lists the UFM XDR
        # Appliance (Gen 3.5) for them; the NDR appliance (UFM Enterprise Appliance 3.1, H100 RA
        # Table 7) is the Quantum-2 generation's (issue 37: "the GB300 BOM names an NDR UFM
        # appliance for an XDR fabric")
        ("8 GB300 NVL72 racks", "ufm-xdr-appliance"),
        ("72 DGX B300, InfiniBand", "ufm-xdr-appliance"),
        ("127 DGX H100, InfiniBand", "ufm-appliance-3.1"),
        ("127 DGX B200, InfiniBand", "ufm-appliance-3.1"),
    ],
)
def test_the_ufm_appliance_is_the_fabric_generations(text: str, appliance: str) -> None:
    cat = load_catalog()
    d = plan_design(cat, merge_request(cat, text, {}))
    assert d.servers.fabric_manager == appliance
    cf = d.fabrics.compute
    assert cf is not None
    family = cat.switch(cf.leaf_switch).family
    assert cat.system(appliance).manages_family == family
    ufm = [ln for ln in d.bom if ln.part == appliance]
    assert [ln.quantity for ln in ufm] == [d.servers.fabric_managers]
    assert not [ln for ln in d.bom if ln.category == "fabric-manager" and ln.part != appliance]
