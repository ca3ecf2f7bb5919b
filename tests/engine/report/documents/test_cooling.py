"""The memo's cooling lines and the rack plan's CDU positions for liquid-cooled racks; nothing of
either for air-cooled ones."""

from __future__ import annotations

import csv
import io

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.design import Design
from clustergen.engine.report.documents.cooling import cooling_line, heat_lines
from clustergen.engine.report.documents.memo import render_memo
from clustergen.engine.report.files import rackplan
from clustergen.engine.report.pictures.elevation import picked_racks, racks_in_all
from clustergen.engine.search.planner import plan_design
from clustergen.engine.search.proposal import request_from_fields

CAT = load_catalog()


def _design(fields: dict[str, object]) -> Design:
    return plan_design(CAT, request_from_fields(CAT, fields))


@pytest.fixture(scope="module")
def gb200() -> Design:
    return _design({"platform": "gb200-nvl72", "gpus": 576 * 4})


def test_the_memo_says_the_cdus_their_heat_and_that_the_count_is_an_estimate(
    gb200: Design,
) -> None:
    line = cooling_line(gb200)
    assert line is not None
    assert line.startswith("- Cooling: 8 CDUs (")
    assert "1 + 1 spare per row of up to 8 racks" in line
    assert "at most 4.224 MW" in line  # 32 racks x 132 kW, the liquid share unpublished
    assert "8 rack positions" in line
    assert "An estimate, NVIDIA publishes no CDU count" in line
    memo = render_memo(gb200)
    assert "- Cooling: 8 CDUs" in memo
    (heat,) = heat_lines(gb200)
    assert "room air is not published" in heat
    assert "within the PUE" in heat
    assert heat.strip() in memo


def test_the_rack_plan_gives_each_in_row_cdu_a_position_and_an_elevation(gb200: Design) -> None:
    racks = rackplan.rack_plan(gb200)
    cdus = [r for r in racks if r.role == "cooling"]
    assert gb200.racks.cooling is not None
    assert len(cdus) == gb200.racks.cooling.row_positions == 8
    assert all(not d.height_known and d.power_w is None for r in cdus for d in r.devices)
    rows = list(csv.DictReader(io.StringIO(rackplan.rack_plan_csv(gb200))))
    assert sum(r["role"] == "cooling" for r in rows) == 8
    assert "cooling" in dict(picked_racks(racks))


def test_air_cooled_designs_have_no_cooling_line_and_no_cdu_position() -> None:
    d = _design({"platform": "dgx-h100", "nodes": 127})
    assert cooling_line(d) is None
    assert heat_lines(d) == []
    assert "- Cooling:" not in render_memo(d)
    assert not [r for r in rackplan.rack_plan(d) if r.role == "cooling"]


def test_the_elevations_count_cdu_positions_apart_from_racks(gb200: Design) -> None:
    assert racks_in_all(rackplan.rack_plan(gb200)) == (
        f"{gb200.racks.total_racks} racks and 8 CDU positions"
    )
