"""Platform resolution: the fabric a system gets from its reference architecture, and its optics."""

from __future__ import annotations

from clustergen.catalog import load_catalog
from clustergen.engine.sizing.fabric.plan import platform_fabric, resolve_fabric

CATALOG = load_catalog()


def test_b300_on_spectrum_x_follows_the_twin_planar_ra() -> None:
    system = CATALOG.system("dgx-b300")
    setup = resolve_fabric(CATALOG, system, 1024, technology="ethernet")
    assert (setup.plan.planes, setup.plan.plane_split) == (2, True)
    assert any(a.field == "planes" and a.value == "2" for a in setup.assumed)
    # each plane runs 400G: twin-port 2 x 400G modules at both ends
    assert setup.cabling.switch_optic is not None
    assert setup.cabling.switch_optic.ports == 2
    assert setup.cabling.node_optic is not None
    assert setup.cabling.node_optic.total_gbps == 800


def test_planes_the_user_sets_apart_from_the_ra_are_not_split() -> None:
    system = CATALOG.system("dgx-b300")
    assert not resolve_fabric(CATALOG, system, 64, technology="ethernet", planes=4).plan.plane_split
    broken_out = resolve_fabric(
        CATALOG, system, 64, technology="ethernet", planes=2, port_speed_gbps=400
    )
    assert not broken_out.plan.plane_split  # ports already 400G: not split again


def test_xdr_links_take_single_mode_when_no_multimode_part_exists() -> None:
    """NVIDIA publishes no multimode XDR transceivers; the switch side falls back to single-mode."""
    setup = resolve_fabric(CATALOG, CATALOG.system("dgx-b300"), 72, technology="infiniband")
    assert setup.leaf.id == "q3400"
    optic = setup.cabling.switch_optic
    assert optic is not None
    assert (optic.media, optic.total_gbps, optic.ports) == ("singlemode", 1600, 2)
    assert setup.cabling.optical


def test_small_a100_clusters_get_the_hdr_pair_while_it_holds_them() -> None:
    """The BasePOD pair rule on 40-port HDR switches (dgx-basepod-a100, derived): inter-switch
    links carry half the node links, so a QM8700 pair holds 5 DGX A100 (20 node + 20 ISL ports
    on each switch); 6 DGX A100 need leaves under two spines, never a single spine."""
    five = platform_fabric(CATALOG, "dgx-a100", 5)
    assert five.architecture == "dgx-basepod-a100"
    assert (five.fabric.leaf_switches, five.fabric.spine_switches) == (2, 0)
    assert five.fabric.inter_switch_links == 20
    six = platform_fabric(CATALOG, "dgx-a100", 6).fabric
    assert (six.tiers, six.leaf_switches, six.spine_switches) == (2, 4, 2)


def test_the_a100_superpod_puts_one_leaf_per_rail_in_each_su_of_20() -> None:
    """RA-09950-001: SUs of 20 DGX A100, eight HDR ports each, rail-optimized: 8 leaves per SU,
    20 down and 20 up; past k^2/2 = 800 host ports (100 nodes) a third tier."""
    su = platform_fabric(CATALOG, "dgx-a100", 20)
    assert su.architecture == "dgx-superpod-a100"
    assert (su.fabric.leaves_per_su, su.fabric.leaf_downlinks, su.fabric.leaf_uplinks) == (
        8,
        20,
        20,
    )
    assert platform_fabric(CATALOG, "dgx-a100", 100).fabric.tiers == 2
    assert platform_fabric(CATALOG, "dgx-a100", 120).fabric.tiers == 3
