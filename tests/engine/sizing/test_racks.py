"""Racks: nodes per rack under power, space and the RA layout; network racks and PDUs; the CDUs
of liquid-cooled racks."""

from __future__ import annotations

import dataclasses

import pytest

from clustergen.catalog import Catalog, load_catalog
from clustergen.engine.model.design import Design
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design
from clustergen.engine.search.proposal import request_from_fields
from clustergen.engine.sizing.racks import plan_racks
from clustergen.errors import InfeasibleDesignError


def test_the_fewest_of_power_space_and_layout_bounds_a_rack() -> None:
    dgx = load_catalog().system("dgx-h100")
    by_power = plan_racks(dgx, 10, 10_200, 25, 48, "air")
    assert (by_power.nodes_per_rack, by_power.limited_by, by_power.compute_racks) == (2, "power", 5)
    by_ra = plan_racks(dgx, 10, 10_200, 100, 48, "air", ra_nodes_per_rack=4)
    assert (by_ra.nodes_per_rack, by_ra.compute_racks) == (4, 3)
    assert by_ra.rack_power_kw == pytest.approx(40.8)


def test_a_rack_below_one_node_is_infeasible() -> None:
    with pytest.raises(InfeasibleDesignError, match=r"needs 10\.2 kW"):
        plan_racks(load_catalog().system("dgx-h100"), 1, 10_200, 8, 48, "air")


def test_an_nvl_rack_is_one_rack() -> None:
    nvl = load_catalog().system("gb200-nvl72")
    plan = plan_racks(nvl, 3, nvl.max_power_w or 0, 200, 48, "liquid")
    assert (plan.nodes_per_rack, plan.compute_racks) == (1, 3)
    # the memo reads "limited by <limited_by>": a noun phrase, never a sentence
    sentence = f"(liquid cooling, limited by {plan.limited_by})"
    assert sentence == "(liquid cooling, limited by the system itself, a whole rack)"


def test_nvidias_rack_profile_sets_the_height_of_its_own_systems_racks() -> None:
    """DGX B200 at two per rack is NVIDIA's 52U best-practice profile: the plan, the BOM line and
    the rack type agree on 52U; an OEM HGX server keeps the generic 48U line to settle."""
    from clustergen.catalog import load_catalog
    from clustergen.engine.assemble import assemble_design
    from clustergen.engine.model.design import DesignChoices
    from clustergen.engine.model.request import DesignRequest

    cat = load_catalog()
    dgx = assemble_design(cat, DesignRequest(nodes=32), DesignChoices(platform="dgx-b200"))
    rack = next(b for b in dgx.bom if b.category == "rack" and "compute rack" in b.description)
    assert dgx.racks.rack_type == "air-52u-b200"
    assert dgx.racks.compute.rack_units == 52
    assert rack.part == "air-52u-b200"
    assert rack.description.startswith("52U ")
    hgx = assemble_design(cat, DesignRequest(nodes=48), DesignChoices(platform="hgx-h100"))
    assert hgx.racks.compute.rack_units == 48


# ---------------------------------------------------------------- liquid cooling (CDUs)


def _planned(fields: dict[str, object], catalog: Catalog | None = None) -> Design:
    cat = catalog or load_catalog()
    return plan_design(cat, request_from_fields(cat, fields))


def _with(stem: str, eid: str, **update: object) -> Catalog:
    """The shipped catalog with one entry's fields replaced."""
    cat = load_catalog()
    entries = {s: dict(rows) for s, rows in cat.entries.items()}
    entries[stem][eid] = entries[stem][eid].model_copy(update=update)
    return dataclasses.replace(cat, entries=entries, hash=f"test-{eid}-{sorted(update)}")


@pytest.mark.parametrize(("sus", "cdus"), [(1, 2), (4, 8), (8, 16)])
def test_gb200_gets_one_in_row_cdu_and_a_spare_per_su_row(sus: int, cdus: int) -> None:
    """8 racks x 132 kW = 1,056 kW a row: one 1,350 kW CDU, plus the Tier 3 spare."""
    d = _planned({"platform": "gb200-nvl72", "gpus": 576 * sus})
    c = d.racks.cooling
    assert c is not None
    assert d.racks.compute.compute_racks == 8 * sus
    assert (c.cdus, c.loops, c.racks_per_loop, c.cdus_per_loop, c.spares_per_loop) == (
        cdus,
        sus,
        8,
        1,
        1,
    )
    assert c.liquid_heat_kw == pytest.approx(132 * 8 * sus)
    assert c.liquid_heat_bound
    assert c.air_heat_kw is None
    assert c.row_positions == cdus  # in-row units stand in the rows
    assert c.basis.startswith("estimate")


def test_gb300_two_sus_get_two_cdus_per_row() -> None:
    d = plan_design(load_catalog(), merge_request(load_catalog(), "GB300 NVL72, 2 SU", {}))
    c = d.racks.cooling
    assert c is not None
    assert (c.loops, c.racks_per_loop, c.cdus) == (2, 8, 4)  # 8 x 142 kW = 1,136 kW a row
    assert c.liquid_heat_kw == pytest.approx(16 * 142)


def test_a_row_needs_as_many_cdus_as_its_heat_over_their_capacity() -> None:
    cat = _with("cdus", "liquidstack-cdu-1mw", capacity_kw=500.0)
    c = _planned({"platform": "gb200-nvl72", "gpus": 576 * 2}, cat).racks.cooling
    assert c is not None
    assert (c.cdus_per_loop, c.cdus) == (3, 8)  # ceil(1,056 / 500) = 3, + 1 spare, 2 rows


def test_a_published_liquid_share_splits_the_heat() -> None:
    cat = _with("systems", "gb200-nvl72", liquid_heat_fraction=0.8)
    c = _planned({"platform": "gb200-nvl72", "gpus": 576}, cat).racks.cooling
    assert c is not None
    assert not c.liquid_heat_bound
    assert c.liquid_heat_kw == pytest.approx(8 * 132 * 0.8)
    assert c.air_heat_kw == pytest.approx(8 * 132 * 0.2)


def test_an_in_rack_cdu_cools_its_own_rack_and_takes_no_row_position() -> None:
    cat = _with("systems", "gb200-nvl72", cdu="supermicro-in-rack-cdu-250kw")
    d = _planned({"platform": "gb200-nvl72", "gpus": 576 * 2}, cat)
    c = d.racks.cooling
    assert c is not None
    assert (c.form, c.loops, c.cdus, c.spares_per_loop, c.row_positions) == (
        "in-rack",
        16,
        16,
        0,
        0,
    )
    assert "redundant pumps" in c.redundancy


def test_an_unknown_cdu_capacity_leaves_the_count_unknown_with_its_floor() -> None:
    cat = _with("cdus", "liquidstack-cdu-1mw", capacity_kw=None)
    d = _planned({"platform": "gb200-nvl72", "gpus": 576 * 4}, cat)
    c = d.racks.cooling
    assert c is not None
    assert c.cdus is None
    assert c.cdus_at_least == 8
    (cdu,) = [ln for ln in d.bom if ln.category == "cooling"]
    assert cdu.quantity == 8
    assert "capacity unknown" in cdu.description


@pytest.mark.parametrize("platform", ["dgx-h100", "dgx-b200"])
def test_air_cooled_racks_get_no_cdu(platform: str) -> None:
    d = _planned({"platform": platform, "gpus": 512})
    assert d.racks.cooling is None
    assert not [ln for ln in d.bom if ln.category == "cooling"]


@pytest.mark.parametrize(("racks", "form", "cdus"), [(1, "in-rack", 1), (2, "in-row", 2)])
def test_a_platform_naming_no_cdu_class_gets_the_class_needing_fewest_units(
    racks: int, form: str, cdus: int
) -> None:
    """One rack: one in-rack unit beats an in-row unit and its spare; from two racks the
    assumed in-row class needs no more units, and a tie keeps it."""
    d = _planned({"platform": "gb200-nvl72", "gpus": 72 * racks})
    c = d.racks.cooling
    assert c is not None
    assert (c.form, c.cdus) == (form, cdus)
    assert ("rather than" in c.basis) == (form == "in-rack")


@pytest.mark.parametrize(
    ("platform", "nodes", "full", "last"),
    [("dgx-h100", 1, 0, 1), ("dgx-b200", 3, 1, 1), ("dgx-h100", 7, 2, 1), ("dgx-b200", 4, 2, 0)],
)
def test_a_part_filled_rack_states_its_own_nodes_load_and_pdus(
    platform: str, nodes: int, full: int, last: int
) -> None:
    """A rack holding fewer nodes than its layout (the one rack of a one-node design, the last
    rack where the nodes do not divide) states its own nodes and kW on its BOM line, its PDUs are
    sized by that kW, the rack plan gives it that power, and the rack check reads the most
    loaded real rack, not the layout."""
    from clustergen.engine.assemble import assemble_design
    from clustergen.engine.model.design import DesignChoices
    from clustergen.engine.model.request import DesignRequest
    from clustergen.engine.report.files.rackplan import rack_plan

    cat = load_catalog()
    d = assemble_design(
        cat, DesignRequest(nodes=nodes, rack_power_kw=40), DesignChoices(platform=platform)
    )
    plan, node_kw = d.racks.compute, d.compute.node_power.node_w / 1e3
    per = plan.nodes_per_rack
    assert sum(g.racks * g.nodes for g in plan.rack_loads) == nodes
    assert sum(g.racks for g in plan.rack_loads) == plan.compute_racks
    lines = [b for b in d.bom if b.category == "rack" and "compute rack" in b.description]
    assert sum(b.quantity for b in lines) == plan.compute_racks
    full_line = [
        b for b in lines if f"{per} x " in b.description and "part-filled" not in b.description
    ]
    assert sum(b.quantity for b in full_line) == (full if full else 0)
    pdu = next(b for b in d.bom if b.category == "pdu" and "compute rack" in b.description)
    real = [g.power_kw for g in plan.rack_loads]
    # a rack's load is its nodes' and, in a design with no network rack, the gear it holds
    assert all(
        g.power_kw == pytest.approx(g.nodes * node_kw + g.support_kw) for g in plan.rack_loads
    )
    if last:
        part = next(b for b in lines if "part-filled" in b.description)
        assert part.quantity == 1
        assert f"{last} x " in part.description
        load = next(g for g in plan.rack_loads if g.nodes == last).power_kw
        assert f"{load:,.1f} kW" in part.description
        assert f"{load:,.1f} kW ({load / 3:,.1f} kW each)" in pdu.description
    # no PDU is sized for a load no rack carries: each group's load, and no other
    for g in plan.rack_loads:
        assert f"{g.power_kw:,.1f} kW ({g.power_kw / 3:,.1f} kW each)" in pdu.description
    assert f"{per * node_kw:,.1f} kW" not in pdu.description or full
    racks = [r for r in rack_plan(d) if r.role == "compute"]
    assert [len([x for x in r.devices if x.name.startswith("node-")]) for r in racks] == [
        per
    ] * full + ([last] if last else [])
    check = next(c for c in d.checks if c.name == "rack power within limit")
    assert f"{max(real):.1f} kW of" in check.figure
