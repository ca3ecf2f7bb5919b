"""`racks.png`'s panels: labels that fit or wrap rather than cut, and titles that say which
rack a rack type is drawn in and the power `rack_plan.csv` gives it."""

from __future__ import annotations

import csv
import io

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.design import Design
from clustergen.engine.report.files import rackplan
from clustergen.engine.report.pictures.elevation import device_label, panel_title, picked_racks
from clustergen.engine.search.planner import plan_design
from clustergen.engine.search.proposal import request_from_fields

CATALOG = load_catalog()


def _design(fields: dict[str, object]) -> Design:
    return plan_design(CATALOG, request_from_fields(CATALOG, fields))


def test_a_long_name_is_wrapped_where_the_device_has_room() -> None:
    """An in-row CDU is a full-height cabinet: its name was cut to 'U1 In-row ... 1.35 MW ...'."""
    cdu = "In-row liquid-to-liquid CDU, 1.35 MW class (LiquidStack CDU-1MW)"
    label = device_label(1, cdu, 48)
    assert "..." not in label
    assert label.replace("\n", " ") == f"U1 {cdu}"
    assert device_label(3, "QM9700", 1) == "U3 QM9700"
    assert device_label(7, cdu, 1).endswith("...")  # 1U: no room for a second line
    assert len(device_label(7, cdu, 1)) <= 38


def test_management_drawn_in_a_network_rack_says_so() -> None:
    """127 DGX H100: the management servers share network-05; its panel said 'management: rack
    network-05 ... 5 network racks in all', read as five management racks."""
    d = _design({"platform": "dgx-h100", "nodes": 127})
    racks = rackplan.rack_plan(d)
    kind, rack = next((k, r) for k, r in picked_racks(racks) if k == "management")
    assert rack.role == "network"
    alike = sum(1 for r in racks if r.role == rack.role)
    title = panel_title(kind, rack, alike, d.racks.compute.cooling)
    assert title.startswith(f"management: in network rack {rack.name}\n"), title
    # said once: the rack's own role is not 'also held' ('in network rack network-05 / also
    # holds network')
    assert "also holds network" not in title


@pytest.mark.parametrize(
    "fields",
    [
        {"gpus": 512, "power_cap_w": 5e6, "workload": "training"},
        {"platform": "dgx-h100", "nodes": 127},
        {"platform": "gb200-nvl72", "nodes": 32},
        {"platform": "gb300-nvl72", "nodes": 16, "fabric": "infiniband"},
    ],
    ids=lambda f: str(f.get("platform", "readme")),
)
def test_each_panel_gives_the_power_and_positions_of_the_rack_plan(
    fields: dict[str, object],
) -> None:
    d = _design(fields)
    racks = rackplan.rack_plan(d)
    rows = list(csv.DictReader(io.StringIO(rackplan.rack_plan_csv(d))))
    for kind, rack in picked_racks(racks):
        title = panel_title(kind, rack, 1, d.racks.compute.cooling)
        mine = [r for r in rows if r["rack"] == rack.name]
        assert mine, rack.name
        power = mine[0]["description"].split("rack power ")[1]
        if power != "unknown":
            assert power in title, (title, power)
        assert sorted(int(r["position"] or 0) for r in mine) == sorted(
            x.position for x in rack.devices
        )


def test_the_hatching_key_stands_only_over_a_drawing_with_hatching() -> None:
    """'hatched: height unknown' stood over an expansion's racks where nothing was hatched (its
    management servers are the installation's)."""
    from clustergen.engine.report.pictures.elevation import elevations_title
    from clustergen.engine.request import parse_request

    grown = "We have 64 DGX H100 today and want to add 32 more nodes"
    seen = set()
    for d in (plan_design(CATALOG, parse_request(CATALOG, grown)), _design({"nodes": 32})):
        racks = rackplan.rack_plan(d)
        picked = picked_racks(racks)
        hatched = any(not x.height_known for _, r in picked for x in r.devices if x.height)
        assert ("hatched:" in elevations_title(racks, picked)) == hatched
        seen.add(hatched)
    assert seen == {True, False}


def test_an_increments_title_counts_the_racks_it_adds_apart_from_standing_ones() -> None:
    """'we have 62 DGX H100 and want to add 8 more': the rack plan draws the standing rack whose
    free slots take 2 new nodes; the title said '5 racks in all' where the design adds 4."""
    from clustergen.engine.report.pictures.elevation import elevations_title
    from clustergen.engine.request import parse_request

    cat = load_catalog()
    d = plan_design(cat, parse_request(cat, "we have 62 DGX H100 and want to add 8 more"))
    racks = rackplan.rack_plan(d)
    standing = len(racks) - d.racks.total_racks
    assert standing == 1
    title = elevations_title(racks, picked_racks(racks), standing)
    assert f"{d.racks.total_racks} new racks in all" in title
    assert "1 standing rack's free slots" in title
