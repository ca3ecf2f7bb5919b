"""Switch entries: the figures the engine relies on, exactly as their sources give them, and a
fabric the engine can build from each."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clustergen.catalog import load_catalog
from clustergen.engine.model.fabric import FabricPlan
from clustergen.engine.sizing.fabric.clos import max_host_ports
from clustergen.engine.sizing.fabric.network import size_clos


def test_qm8700_matches_its_product_brief() -> None:
    """QM8700 product brief (pb-qm8700.pdf): 40 x HDR 200 Gb/s in 1U, 80 x HDR100 100 Gb/s;
    OPN MQM8700-HS2F (Dell Omnia support matrix); power not in the sources read."""
    switch = load_catalog().switch("QM8700")
    assert switch.id == "qm8700"
    assert (switch.technology, switch.ports, switch.port_speed_gbps) == ("infiniband", 40, 200)
    assert (switch.cages, switch.cage_form, switch.rack_units) == (40, "QSFP56", 1)
    assert switch.radix_at(100) == 80
    assert switch.radix_at(400) is None  # HDR tops out at 200 Gb/s
    assert switch.opn == "MQM8700-HS2F"
    assert (switch.typical_power_w, switch.max_power_w) == (None, None)  # unknown stays unknown


@pytest.mark.parametrize(
    "name", ["QM8700", "qm 8700", "NVIDIA Quantum QM8700", "Mellanox QM8700", "mqm8700-hs2r"]
)
def test_qm8700_is_found_by_the_names_people_type(name: str) -> None:
    assert load_catalog().switch(name).id == "qm8700"


def test_two_tiers_of_qm8700_serve_k_squared_over_two_hosts() -> None:
    switch = load_catalog().switch("qm8700")
    assert max_host_ports(40, 2) == 800
    full = size_clos(FabricPlan(nodes=100, ports_per_node=8, port_speed_gbps=200), switch)
    assert (full.tiers, full.host_links) == (2, 800)
    assert (full.leaf_switches, full.spine_switches) == (40, 20)  # 20 down, 20 up per leaf
    past = size_clos(FabricPlan(nodes=101, ports_per_node=8, port_speed_gbps=200), switch)
    assert past.tiers == 3
    # HDR100 splits the radix to 80: 80^2/2 = 3,200 hosts before a third tier
    split = size_clos(FabricPlan(nodes=400, ports_per_node=8, port_speed_gbps=100), switch)
    assert (split.tiers, split.leaf_radix, split.host_links) == (2, 80, 3200)


@settings(max_examples=60, deadline=None)
@given(
    nodes=st.integers(1, 2000),
    speed=st.sampled_from([100.0, 200.0]),
    su_nodes=st.sampled_from([None, 10, 20]),
)
def test_qm8700_fabrics_keep_the_clos_rules(nodes: int, speed: float, su_nodes: int | None) -> None:
    switch = load_catalog().switch("qm8700")
    plan = FabricPlan(nodes=nodes, ports_per_node=4, port_speed_gbps=speed, su_nodes=su_nodes)
    f = size_clos(plan, switch)
    radix = switch.radix_at(speed)
    assert f.max_ports_used["leaf"] <= (radix or 0)
    assert f.max_ports_used["spine"] <= (radix or 0)
    assert f.max_ports_used["core"] <= (radix or 0)
    if f.tiers == 2:
        assert f.leaf_uplinks % f.spine_switches == 0  # uplinks spread evenly over the spines
