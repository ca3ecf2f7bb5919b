"""Clos tiers by rule (sizing/clos.py): the switch pair of small fabrics, never a single spine,
the GB200 SuperPOD's spine-leaf groups, and the capacity of a tier count at a leaf split."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.fabric import FabricPlan
from clustergen.engine.sizing.fabric.clos import (
    group_leaves,
    group_upper,
    host_capacity,
    leaf_split,
    pair_leaves,
    single_tier_capacity,
)
from clustergen.engine.sizing.fabric.network import size_clos


def test_a_pair_takes_every_host_port_and_half_of_them_as_inter_switch_links() -> None:
    """BasePOD V5 Table 4.2 (secondary): 8 DGX x 8 NDR = 64 links on 2 x QM9700 joined by 32."""
    plan = FabricPlan(nodes=8, ports_per_node=8, port_speed_gbps=400, redundant=True)
    pair = pair_leaves(plan, 8, 64, 0)
    assert pair is not None
    assert (pair.count, pair.isl, pair.loads) == (2, 32, {32: 2})


def test_a_pair_is_refused_when_its_ports_overflow() -> None:
    plan = FabricPlan(nodes=9, ports_per_node=8, port_speed_gbps=400, redundant=True)
    assert pair_leaves(plan, 8, 64, 0) is None


@pytest.mark.parametrize("nodes", [2, 4, 8])
def test_a_non_blocking_pair_holds_one_radix_of_hosts_whatever_it_carries_now(nodes: int) -> None:
    """Half the hosts on each switch and half again across: 8 DGX x 8 NDR fill a QM9700 pair."""
    plan = FabricPlan(nodes=nodes, ports_per_node=8, port_speed_gbps=400, redundant=True)
    pair = pair_leaves(plan, 8, 64, 0)
    assert pair is not None
    assert single_tier_capacity(pair, 64, None) == 64


def test_a_pair_with_fixed_peer_links_holds_the_ports_beside_them() -> None:
    plan = FabricPlan(nodes=10, ports_per_node=1, port_speed_gbps=100, redundant=True, peer_links=2)
    pair = pair_leaves(plan, 1, 64, 0)
    assert pair is not None
    assert single_tier_capacity(pair, 64, 2) == 124


def test_dual_homed_hosts_need_only_the_peer_links() -> None:
    plan = FabricPlan(
        nodes=100, ports_per_node=1, port_speed_gbps=100, redundant=True, peer_links=2
    )
    pair = pair_leaves(plan, 1, 64, 0)
    assert pair is not None
    assert (pair.isl, max(pair.loads)) == (2, 50)


def test_shared_north_south_ports_add_no_inter_switch_share() -> None:
    """ERA 2-8-9-400 collapsed: 12 nodes x 8 east-west ports (ISL 48) plus 42 north-south."""
    plan = FabricPlan(
        nodes=12, ports_per_node=8, port_speed_gbps=400, redundant=True, shared_hosts=42
    )
    pair = pair_leaves(plan, 8, 128, 0)
    assert pair is not None
    assert (pair.isl, max(pair.loads)) == (48, 69)


def test_a_fabric_past_one_pair_has_an_even_count_of_leaves_and_two_spines_at_least() -> None:
    sw = load_catalog().switch("sn5610")
    f = size_clos(FabricPlan(nodes=17, ports_per_node=8, port_speed_gbps=400, redundant=True), sw)
    assert f.tiers == 2
    assert f.leaf_switches % 2 == 0
    assert f.spine_switches >= 2


@pytest.mark.parametrize("ratio", [2.0, 4.0])
def test_oversubscribed_fabrics_never_get_a_single_spine(ratio: float) -> None:
    """Issue 13: 2:1 and 4:1 fabrics got one spine; a Clos fabric has at least two."""
    sw = load_catalog().switch("qm9700")
    f = size_clos(
        FabricPlan(nodes=16, ports_per_node=8, port_speed_gbps=400, oversubscription=ratio), sw
    )
    assert f.tiers == 2
    assert f.spine_switches >= 2
    assert f.leaf_uplinks % f.spine_switches == 0


@pytest.mark.parametrize(
    ("racks", "leaf", "spine", "core"),
    [(8, 32, 24, 0), (16, 64, 48, 18), (32, 128, 96, 36), (64, 256, 192, 72), (128, 512, 384, 144)],
)
def test_gb200_spine_leaf_groups_reproduce_the_ra(
    racks: int, leaf: int, spine: int, core: int
) -> None:
    """GB200-RA Compute Fabric (primary): 4 SLGs per SU, 8 leaf + 6 spine each; Table 3 (secondary)
    core counts 18 / 36 / 72 / 144 at 2 / 4 / 8 / 16 SU."""
    plan = FabricPlan(
        nodes=racks,
        ports_per_node=72,
        port_speed_gbps=400,
        su_nodes=8,
        rails=4,
        spine_leaf_groups=True,
    )
    leaves = group_leaves(plan, 72, 64)
    upper = group_upper(leaves, 8, 64, 64)
    assert (leaves.count, upper.spines, upper.cores) == (leaf, spine, core)
    assert (leaves.down, leaves.up) == (18, 18)


def test_the_capacity_of_two_tiers_grows_with_the_leaves_downlinks() -> None:
    """k^2/2 at 1:1; an oversubscribed leaf serves more hosts (the 8,192-GPU B200 storage fabric:
    2,268 ports fit a 4:3 two-tier fabric of 64-port switches, 64 x 36 = 2,304)."""
    assert host_capacity(2, 32, 64, 64) == 64 * 64 // 2
    down, _ = leaf_split(64, 4 / 3)
    assert host_capacity(2, down, 64, 64) == 2304
    assert host_capacity(3, 32, 64, 64) == 64**3 // 4
