"""Racks: nodes per rack under power, space and the RA layout; network racks and PDUs."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
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
