"""The increment arithmetic: room on the standing fabric, the new BOM lines."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.bom import BomLine
from clustergen.engine.model.design import Design
from clustergen.engine.model.inventory import PartKind, unfolded
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.search.planner import plan_design
from clustergen.engine.sizing.expansion import (
    REUSED,
    _fabric_words,
    added_power_w,
    bom_increment,
    fabric_room,
)
from clustergen.units import watts


def _pod(nodes: int) -> Design:
    return plan_design(load_catalog(), DesignRequest(platform="dgx-h100", nodes=nodes))


def test_growth_within_the_tiers_adds_leaves_and_fits() -> None:
    standing, grown = _pod(64), _pod(96)
    assert standing.fabrics.compute
    assert grown.fabrics.compute
    room = fabric_room(standing.fabrics.compute, grown.fabrics.compute)
    assert room.fits
    assert room.tiers == 2
    assert (
        room.leaves == grown.fabrics.compute.leaf_switches - standing.fabrics.compute.leaf_switches
    )
    assert room.max_nodes >= 96


def test_growth_past_the_tiers_needs_a_core() -> None:
    standing, grown = _pod(255), _pod(319)
    assert standing.fabrics.compute
    assert grown.fabrics.compute
    room = fabric_room(standing.fabrics.compute, grown.fabrics.compute)
    assert not room.fits
    assert "core tier" in room.why


def test_stated_free_ports_bound_an_increment_that_adds_no_spine() -> None:
    standing = _pod(64)
    assert standing.fabrics.compute
    f = standing.fabrics.compute
    grown = f.model_copy(
        update={"leaf_switches": f.leaf_switches + 1, "leaf_spine_links": f.leaf_spine_links + 32}
    )
    assert not fabric_room(f, grown, stated_free_ports=16).fits
    assert fabric_room(f, grown, stated_free_ports=32).fits


def test_the_increment_bom_is_the_difference_less_what_is_reused() -> None:
    standing, grown, increment = _pod(64), _pod(96), _pod(32)
    lines = bom_increment(increment.bom, standing.bom, grown.bom)
    assert not {ln.category for ln in lines} & REUSED
    nodes = sum(ln.quantity for ln in lines if ln.category == PartKind.COMPUTE)
    assert nodes == 32
    leaves = sum(
        ln.quantity
        for ln in lines
        if ln.category == PartKind.SWITCH and "compute fabric leaf" in ln.description
    )
    assert standing.fabrics.compute
    assert grown.fabrics.compute
    assert leaves == grown.fabrics.compute.leaf_switches - standing.fabrics.compute.leaf_switches


def test_an_unknown_power_term_adds_nothing_known() -> None:
    assert added_power_w(None, 100.0) == 100.0
    assert added_power_w(200.0, 100.0) == 0.0


def test_an_expansion_says_what_stands_and_the_total() -> None:
    """The design is the increment; its expansion section says what it joins, so the first line
    reads 'added to the existing 512 (768 in all)', never the increment as the cluster."""
    from clustergen.engine.report.scale_words import what_text

    d = plan_design(load_catalog(), DesignRequest(platform="dgx-h100", gpus=256, existing_gpus=512))
    assert d.expansion is not None
    assert (d.expansion.existing_gpus, d.expansion.total_gpus) == (512, 768)
    assert what_text(d).endswith("added to the existing 512 (768 in all)")
    unsized = plan_design(
        load_catalog(), DesignRequest(platform="dgx-h100", gpus=128, existing_platform="dgx-h100")
    )
    assert unsized.expansion is not None
    assert unsized.expansion.total_gpus is None
    assert what_text(unsized).endswith("added to the existing dgx-h100 installation")
    assert _pod(64).expansion is None


def test_an_increments_headroom_is_the_it_cap_less_the_installation_and_the_increment() -> None:
    from clustergen.engine.request import parse_request

    cat = load_catalog()
    text = "We have 64 DGX B200 nodes in production on InfiniBand drawing 950 kW; add 32 more, site IT cap 2 MW"
    d = plan_design(cat, parse_request(cat, text))
    assert d.power.headroom_w is not None
    assert d.power.headroom_w == pytest.approx(2e6 - 950e3 - d.power.it_total_w)


def test_an_increments_power_margin_weighs_what_its_cap_check_weighs() -> None:
    """It was the whole design's margin (563.6 kW) beside a 571.1 kW headroom, and a PASS
    beside a 'power under cap' that could not tell for the unknown existing load."""
    from clustergen.engine.report.figures import headroom_words
    from clustergen.engine.request import parse_request

    cat = load_catalog()
    add = "add 32 more, site IT cap 2 MW"
    stated = plan_design(cat, parse_request(cat, f"We have 64 DGX B200 drawing 950 kW; {add}"))
    (margin,) = [c for c in stated.checks if c.name == "power margin under cap"]
    assert stated.power.headroom_w is not None
    assert margin.figure.startswith(watts(stated.power.headroom_w))
    # its size known, its draw unstated: estimated as its RA builds it, said so, and the cap,
    # the margin and the headroom weigh that estimate alike
    estimated = plan_design(cat, parse_request(cat, f"We have 64 DGX B200 nodes; {add}"))
    (cap,) = [c for c in estimated.checks if c.name == "power under cap"]
    assert not cap.unknown
    assert "an estimate" in cap.detail
    assert estimated.expansion is not None
    assert estimated.expansion.existing_it_estimated
    (margin,) = [c for c in estimated.checks if c.name == "power margin under cap"]
    left = headroom_words(estimated)
    assert left is not None
    assert margin.figure.startswith(left.split(" (")[0])
    # its size unknown too: the cap cannot tell, and no margin is claimed
    unknown = plan_design(cat, parse_request(cat, f"We have a DGX B200 cluster; {add}"))
    (cap,) = [c for c in unknown.checks if c.name == "power under cap"]
    assert cap.unknown
    assert not [c for c in unknown.checks if c.name == "power margin under cap"]


def test_a_full_switch_pair_re_cabled_at_another_speed_has_no_room() -> None:
    """DGX BasePOD's NDR400 pair is full at 8 DGX; at 16 the RA runs the same pair at NDR200,
    which re-cables every standing node: that is no increment, and it says so."""
    standing, grown = _pod(8), _pod(16)
    assert standing.fabrics.compute
    assert grown.fabrics.compute
    room = fabric_room(standing.fabrics.compute, grown.fabrics.compute)
    assert not room.fits
    assert room.max_nodes == 8
    assert "re-cabled" in room.why


def test_a_pair_with_ports_free_takes_the_new_nodes_with_no_switch_added() -> None:
    standing, grown = _pod(4), _pod(8)
    assert standing.fabrics.compute
    assert grown.fabrics.compute
    room = fabric_room(standing.fabrics.compute, grown.fabrics.compute)
    assert room.fits
    assert (room.leaves, room.spines, room.max_nodes) == (0, 0, 8)


def _expansion(nodes: int, existing: int) -> Design:
    return plan_design(
        load_catalog(), DesignRequest(platform="dgx-h100", nodes=nodes, existing_nodes=existing)
    )


def _switches(lines: list[BomLine]) -> int:
    return sum(
        ln.quantity for ln in lines if ln.category == PartKind.SWITCH and ln.status == "order"
    )


def test_an_increments_inventory_is_the_grown_ones_new_devices_numbered_on() -> None:
    """64 DGX H100 grown by 32: the new nodes are node-0065..0096 and the added leaves number on
    from the standing ones; the reused kinds add no device; the switches the inventory holds
    are the BOM's."""
    d, standing, grown = _expansion(32, 64), _pod(64), _pod(96)
    assert d.inventory is not None
    assert standing.inventory is not None
    assert grown.inventory is not None
    had = {g.id: g.count for g in standing.inventory.groups}
    groups = {g.id: g for g in d.inventory.groups}
    assert groups["node"].count == 32
    assert groups["node"].standing == 64
    for g in grown.inventory.groups:
        mine = groups[g.id]
        assert mine.standing == had.get(g.id, 0)
        if g.kind in REUSED:
            assert mine.count == 0
        elif g.kind != PartKind.PDU:
            assert mine.count == g.count - had.get(g.id, 0)
    runs = [run for rack in unfolded(d.inventory.racks) for run in rack.runs]
    nodes = sorted(i for r in runs if r.group == "node" for i in range(r.first, r.first + r.count))
    assert nodes == list(range(65, 97))
    leaves = [r for r in runs if r.group == "compute-leaf"]
    assert min(r.first for r in leaves) == had["compute-leaf"] + 1
    ordered = sum(g.count for g in d.inventory.groups if g.kind == PartKind.SWITCH)
    assert ordered == _switches(d.bom)


def test_an_increments_links_are_the_grown_ones_less_the_standing_ones() -> None:
    """Each link group is the grown installation's less the standing one's, and each reaches a
    new device: the new nodes' compute links are theirs alone."""
    d, standing, grown = _expansion(32, 64), _pod(64), _pod(96)
    assert d.inventory is not None
    new = {g.id for g in d.inventory.groups if g.count}
    assert d.links
    for g in d.links:
        assert new & {*g.a.groups, *g.b.groups}
    node_leaf = [g for g in d.links if (g.fabric, g.segment) == ("compute", "node-leaf")]
    assert sum(g.links for g in node_leaf) == sum(
        g.links for g in grown.links if (g.fabric, g.segment) == ("compute", "node-leaf")
    ) - sum(g.links for g in standing.links if (g.fabric, g.segment) == ("compute", "node-leaf"))


def test_new_nodes_on_a_standing_pair_cable_to_its_switches_past_their_used_ports() -> None:
    """4 DGX H100 on a pair with ports free: no switch is added, so the new nodes' cables end on
    the standing leaves, named as they stand, on interfaces past those the standing nodes use."""
    from clustergen.engine.report.files.rackplan import design_cables, rack_plan

    d = _expansion(4, 4)
    assert d.inventory is not None
    leaf = d.inventory.group("compute-leaf")
    assert leaf is not None
    assert (leaf.count, leaf.standing) == (0, 2)
    placed = {x.name for r in rack_plan(d) for x in r.devices}
    assert not any(n.startswith("compute-leaf") for n in placed)
    cables = [c for g, cs in design_cables(d) if g.segment == "node-leaf" for c in cs]
    cables = [c for c in cables if c[2].startswith("compute-leaf")]
    assert {c[0] for c in cables} == {f"node-{i:04d}" for i in range(5, 9)}
    assert {c[2] for c in cables} == {"compute-leaf-001", "compute-leaf-002"}
    assert min(c[3] for c in cables) > (leaf.standing_ports or 0)


def test_spines_added_respread_every_leafs_uplinks_and_the_words_say_so() -> None:
    """A 2-tier fabric grown by spines spreads every leaf's uplinks evenly over the grown spine
    tier: each standing leaf-spine pair keeps the grown pair's links, the rest are re-cabled to
    the added spines, and the new leaves' uplinks land partly on the standing spines (on the
    ports those moves free), partly on the added ones; the words never say the new uplinks all
    take standing spine ports."""
    standing, grown = _pod(32), _pod(64)
    sf, gf = standing.fabrics.compute, grown.fabrics.compute
    assert sf
    assert gf
    room = fabric_room(sf, gf)
    assert room.spines == gf.spine_switches - sf.spine_switches > 0
    s_pair, g_pair = sf.links_per_leaf_spine_pair, gf.links_per_leaf_spine_pair
    assert room.pair_links == (s_pair, g_pair)
    assert room.moved == sf.leaf_spine_links - sf.leaf_spine_links * g_pair // s_pair
    assert room.new_uplinks == gf.leaf_spine_links - sf.leaf_spine_links
    # every spine of the grown tier carries the same load: the standing ones theirs
    grown_load = sf.spine_switches * gf.leaf_spine_links // gf.spine_switches
    kept = sf.leaf_spine_links - room.moved
    assert room.onto_standing == grown_load - kept
    # the added spines' ports: the re-cabled standing uplinks and the rest of the new ones
    added_ports = room.spines * gf.leaf_spine_links // gf.spine_switches
    assert added_ports == room.moved + room.new_uplinks - room.onto_standing
    words = _fabric_words(room)
    assert f"{room.moved:,} of the standing leaves' uplinks are re-cabled" in words
    assert f"{room.onto_standing:,} on the standing spines" in words
    assert "their uplinks take" not in words
