"""Fabric rules against NVIDIA's published SuperPOD tables, and Clos invariants (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clustergen.catalog.models import Breakout, Switch
from clustergen.engine.model.fabric import Cabling, FabricPlan
from clustergen.engine.sizing.fabric.clos import leaf_split, max_host_ports
from clustergen.engine.sizing.fabric.network import size_clos
from clustergen.errors import InfeasibleDesignError, RequestError

_SRC = {"source": "test fixture", "as_of": "2026-01", "vendor": "nvidia"}
QM9700 = Switch(id="qm9700", name="QM9700", technology="infiniband", ports=64, port_speed_gbps=400, cage_gbps=800, typical_power_w=747, **_SRC)  # fmt: skip
Q3400 = Switch(
    id="q3400", name="Q3400", technology="infiniband", ports=144, port_speed_gbps=800, **_SRC
)
SN5610 = Switch(
    id="sn5610",
    name="SN5610",
    technology="ethernet",
    ports=64,
    port_speed_gbps=800,
    breakouts=[Breakout(ports=128, speed_gbps=400)],
    **_SRC,
)


# H100-RA (RA-11333-001 V11) Table 4; B200-RA Table 4 is identical. 32-node SUs, one slot to UFM.
@pytest.mark.parametrize(
    ("nodes", "leaf", "spine", "node_and_ufm", "leaf_spine"),
    [
        (31, 8, 4, 252, 256),
        (63, 16, 8, 508, 512),
        (95, 24, 16, 764, 768),
        (127, 32, 16, 1020, 1024),
    ],
)
def test_superpod_table4(
    nodes: int, leaf: int, spine: int, node_and_ufm: int, leaf_spine: int
) -> None:
    plan = FabricPlan(
        nodes=nodes, ports_per_node=8, port_speed_gbps=400, su_nodes=32, fabric_manager_links=4
    )
    f = size_clos(plan, QM9700)
    assert (f.tiers, f.leaf_switches, f.spine_switches, f.core_switches) == (2, leaf, spine, 0)
    assert f.host_links == node_and_ufm
    assert f.node_links == nodes * 8
    assert f.leaf_spine_links == leaf_spine


# H100-RA Table 3 and B200-RA "larger SuperPOD" table: full SUs, no UFM slot; core from 16 SUs.
@pytest.mark.parametrize(
    ("su", "leaf", "spine", "core"),
    [
        (2, 16, 8, 0),
        (4, 32, 16, 0),
        (8, 64, 32, 0),
        (16, 128, 128, 64),
        (32, 256, 256, 128),
        (64, 512, 512, 256),
    ],
)
def test_superpod_table3(su: int, leaf: int, spine: int, core: int) -> None:
    nodes = 32 * su
    f = size_clos(
        FabricPlan(nodes=nodes, ports_per_node=8, port_speed_gbps=400, su_nodes=32), QM9700
    )
    assert (f.leaf_switches, f.spine_switches, f.core_switches) == (leaf, spine, core)
    assert f.node_links == f.leaf_spine_links == nodes * 8
    assert f.spine_core_links == (nodes * 8 if core else 0)
    assert f.tiers == (3 if core else 2)


# DGX SuperPOD B300 XDR RA (RA-11339-001) Table 3: Q3400, 72-node SUs. Spines divide 72 uplinks.
@pytest.mark.parametrize(
    ("su", "leaf", "spine"), [(1, 8, 4), (2, 16, 8), (4, 32, 18), (8, 64, 36), (18, 144, 72)]
)
def test_b300_xdr_table(su: int, leaf: int, spine: int) -> None:
    f = size_clos(
        FabricPlan(nodes=72 * su, ports_per_node=8, port_speed_gbps=800, su_nodes=72), Q3400
    )
    assert (f.leaf_switches, f.spine_switches) == (leaf, spine)
    assert f.node_links == 72 * su * 8


# DGX SuperPOD B300 Spectrum-X RA (RA-11337-001) Table 3: twin-plane, 64-node SUs.
@pytest.mark.parametrize(
    ("su", "leaf", "spine"), [(1, 16, 8), (2, 32, 16), (4, 64, 32), (8, 128, 64), (16, 256, 128)]
)
def test_b300_spectrum_x_twin_plane(su: int, leaf: int, spine: int) -> None:
    plan = FabricPlan(nodes=64 * su, ports_per_node=16, port_speed_gbps=400, su_nodes=64, planes=2)
    f = size_clos(plan, SN5610)
    assert (f.leaf_switches, f.spine_switches, f.planes) == (leaf, spine, 2)


def test_4su_bom_transceivers() -> None:
    """H100-RA Table 8: 128 nodes, 48 QM9700, 1,536 switch-side twin-port OSFP transceivers."""
    from clustergen.catalog.models import Optic
    from clustergen.engine.model.fabric import Cabling

    twin = Optic(
        id="mma4z00-ns",
        name="800G twin-port",
        kind="transceiver",
        ports=2,
        total_gbps=800,
        power_w=15,
        **_SRC,
    )
    f = size_clos(
        FabricPlan(
            nodes=128, ports_per_node=8, port_speed_gbps=400, su_nodes=32, node_ports_per_cage=2
        ),
        QM9700,
        cabling=Cabling(switch_optic=twin, node_optic=twin),
    )
    assert f.total_switches == 48
    switch_side = sum(t.count for t in f.transceivers if t.location in {"leaf", "spine"})
    assert switch_side == 1536
    assert next(t.count for t in f.transceivers if t.location == "node") == 512


def test_ufm_not_attached_when_every_slot_is_taken() -> None:
    plan = FabricPlan(
        nodes=128, ports_per_node=8, port_speed_gbps=400, su_nodes=32, fabric_manager_links=4
    )
    f = size_clos(plan, QM9700)
    assert f.fabric_manager_links == 0
    assert any("not attached" in n for n in f.notes)


def test_two_tier_limit_is_k_squared_over_two() -> None:
    at_limit = size_clos(FabricPlan(nodes=256, ports_per_node=8, port_speed_gbps=400), QM9700)
    past = size_clos(FabricPlan(nodes=257, ports_per_node=8, port_speed_gbps=400), QM9700)
    assert at_limit.tiers == 2
    assert at_limit.host_links == max_host_ports(64, 2)
    assert past.tiers == 3


def test_single_switch_when_hosts_fit_one_leaf() -> None:
    f = size_clos(FabricPlan(nodes=4, ports_per_node=8, port_speed_gbps=400), QM9700)
    assert (f.tiers, f.leaf_switches, f.spine_switches) == (1, 1, 0)


def test_oversubscription_changes_the_split() -> None:
    assert leaf_split(64, 1.0) == (32, 32)
    assert leaf_split(64, 2.0) == (42, 21)
    f = size_clos(
        FabricPlan(nodes=64, ports_per_node=8, port_speed_gbps=400, oversubscription=2.0), QM9700
    )
    one = size_clos(FabricPlan(nodes=64, ports_per_node=8, port_speed_gbps=400), QM9700)
    # the cheapest build at or below the ratio asked (here 5:3: 13 leaves of 40 down and 24 up)
    assert 1.0 < f.oversubscription <= 2.0
    assert f.spine_switches
    assert f.leaf_uplinks % f.spine_switches == 0  # uplinks spread evenly over the spines
    assert f.total_switches < one.total_switches  # blocking is cheaper, never dearer


def test_breakout_speed_unknown_is_a_clear_error() -> None:
    with pytest.raises(RequestError, match="no 100 Gb/s ports"):
        size_clos(FabricPlan(nodes=8, ports_per_node=8, port_speed_gbps=100), QM9700)


def test_planes_must_divide_ports() -> None:
    with pytest.raises(RequestError, match="planes"):
        size_clos(FabricPlan(nodes=8, ports_per_node=8, port_speed_gbps=400, planes=3), QM9700)


def test_beyond_three_tiers_is_infeasible() -> None:
    with pytest.raises(InfeasibleDesignError, match="3-tier"):
        size_clos(FabricPlan(nodes=70_000, ports_per_node=1, port_speed_gbps=400), QM9700)


# the fields drawn, every other at its default (a NamedTuple given to st.builds would have
# hypothesis draw all its fields)
plans = st.fixed_dictionaries(
    {
        "nodes": st.integers(1, 3000),
        "ports_per_node": st.sampled_from([1, 2, 4, 8]),
        "port_speed_gbps": st.just(400.0),
        "su_nodes": st.one_of(st.none(), st.sampled_from([4, 16, 32])),
        "oversubscription": st.sampled_from([1.0, 1.5, 2.0, 3.0]),
        "fabric_manager_links": st.sampled_from([0, 4]),
    }
).map(lambda fields: FabricPlan(**fields))


@settings(max_examples=150, deadline=None)
@given(plans)
def test_no_switch_uses_more_ports_than_it_has(plan: FabricPlan) -> None:
    f = size_clos(plan, QM9700)
    assert f.max_ports_used["leaf"] <= f.leaf_radix
    assert f.max_ports_used["spine"] <= 64
    assert f.max_ports_used["core"] <= 64


@settings(max_examples=150, deadline=None)
@given(plans)
def test_uplinks_spread_evenly(plan: FabricPlan) -> None:
    f = size_clos(plan, QM9700)
    if f.tiers == 2:
        assert f.leaf_uplinks % f.spine_switches == 0
        assert f.leaf_spine_links == f.leaf_switches * f.leaf_uplinks
    if f.tiers == 3:
        assert f.spines_per_pod
        assert f.leaf_uplinks % f.spines_per_pod == 0
        assert f.spine_core_links % f.core_switches == 0


@settings(max_examples=100, deadline=None)
@given(plans, st.integers(1, 400))
def test_more_nodes_never_need_fewer_switches(plan: FabricPlan, extra: int) -> None:
    bigger = plan._replace(nodes=plan.nodes + extra)
    assert size_clos(bigger, QM9700).total_switches >= size_clos(plan, QM9700).total_switches


@settings(max_examples=150, deadline=None)
@given(plans)
def test_every_leaf_port_in_use_gets_a_transceiver(plan: FabricPlan) -> None:
    """With one port per transceiver, leaf optics count every host and uplink port on every leaf,
    partial SUs and the UFM's links included."""
    from clustergen.catalog.models import Optic
    from clustergen.engine.model.fabric import Cabling

    single = Optic(id="x", name="single", kind="transceiver", total_gbps=400, power_w=8, **_SRC)
    f = size_clos(
        plan, QM9700.model_copy(update={"cage_gbps": None}), cabling=Cabling(switch_optic=single)
    )
    leaf = next(t.count for t in f.transceivers if t.location == "leaf")
    assert leaf == f.host_links + f.leaf_switches * f.leaf_uplinks


# B300-ETH-RA (RA-11337-001) Table 3: twin-planar, every 800G port split 2 x 400G, one per plane.
@pytest.mark.parametrize(
    ("nodes", "leaf", "spine"), [(64, 16, 8), (256, 64, 32), (512, 128, 64), (1024, 256, 128)]
)
def test_twin_planar_split_stays_two_tier_to_16_su(nodes: int, leaf: int, spine: int) -> None:
    plan = FabricPlan(
        nodes=nodes, ports_per_node=8, port_speed_gbps=800, su_nodes=64, planes=2, plane_split=True
    )
    f = size_clos(plan, SN5610)
    assert (f.tiers, f.leaf_switches, f.spine_switches, f.core_switches) == (2, leaf, spine, 0)
    # counted by the 800G cable, as the RA's table does
    assert f.node_links == f.leaf_spine_links == nodes * 8
    assert (f.leaf_radix, f.plane_port_speed_gbps, f.port_speed_gbps) == (128, 400, 800)
    assert all(c.speed_gbps == 800 for c in f.cables)


def test_planes_without_split_divide_the_ports_and_reach_less() -> None:
    """Whole 800G ports per plane: radix 64, so 16 SU (4,096 ports a plane) needs a third tier."""
    plan = FabricPlan(nodes=1024, ports_per_node=8, port_speed_gbps=800, su_nodes=64, planes=2)
    f = size_clos(plan, SN5610)
    assert f.tiers == 3
    assert not f.plane_split
    assert f.node_links == 8192


def test_an_optical_fabric_without_a_catalog_transceiver_counts_it_with_unknown_power() -> None:
    """No part in the catalog is not copper: the transceivers are counted, their watts unknown,
    and the known part of the fabric power stays a lower bound."""
    plan = FabricPlan(nodes=64, ports_per_node=8, port_speed_gbps=400, su_nodes=32)
    f = size_clos(plan, QM9700, cabling=Cabling(optical=True))
    assert {t.location for t in f.transceivers} == {"node", "leaf", "spine"}
    assert all(t.optic is None and t.power_w is None for t in f.transceivers)
    assert sum(t.count for t in f.transceivers if t.location == "leaf") == f.leaf_switches * 32
    assert f.power.optics_w is None
    assert f.power.total_w is None
    assert f.power.known_w == f.power.switches_w == (f.leaf_switches + f.spine_switches) * 747
    assert any("none in the catalog fits" in n for n in f.notes)
    assert "copper" not in f.cables[0].media
    copper = size_clos(plan, QM9700)
    assert copper.transceivers == []
    assert copper.power.optics_w == 0
