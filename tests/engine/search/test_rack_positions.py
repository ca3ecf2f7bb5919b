"""The site's rack positions: a design fills them, never passes them, and a request they cannot
hold is refused with what they do hold."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.request import parse_request
from clustergen.engine.search.planner import plan_design
from clustergen.errors import InfeasibleDesignError

CAT = load_catalog()


@pytest.mark.parametrize(
    "text",
    [
        "H100 training, no more than 4 racks",
        "max 6 racks, 40 kW each, H200",
        "we have space for 10 racks at 30 kW, training",
    ],
)
def test_a_design_sized_by_its_racks_fills_them_and_no_more(text: str) -> None:
    request = parse_request(CAT, text)
    d = plan_design(CAT, request)
    room = request.max_racks or 0
    assert d.racks.total_racks <= room
    check = next(c for c in d.checks if c.name == "racks within the site's positions")
    assert check.passed
    assert check.figure == f"{d.racks.total_racks} of {room}"
    # one node more would need another rack or pass the cap: the positions are filled
    per_rack = d.racks.compute.nodes_per_rack
    spare = room - d.racks.total_racks
    assert spare * per_rack < d.compute.nodes + per_rack


def test_no_row_over_the_positions_is_eligible() -> None:
    d = plan_design(CAT, parse_request(CAT, "we have space for 10 racks at 30 kW, training"))
    study = d.alternatives
    assert study is not None
    for row in study.rows:
        if row.racks > 10:
            assert not row.eligible
            assert "over the 10 the site has" in (row.why_not or "")


def test_a_count_the_positions_cannot_hold_is_refused_with_what_they_hold() -> None:
    request = parse_request(CAT, "64 H100 GPUs in no more than 2 racks")
    with pytest.raises(InfeasibleDesignError) as err:
        plan_design(CAT, request)
    assert "no design fits in the site's 2 racks" in str(err.value)
    fits = err.value.details["fits_gpus"]
    assert 0 < fits < 64
    fitted = plan_design(CAT, request.model_copy(update={"fit": True}))
    assert fitted.compute.gpus == fits
    assert fitted.racks.total_racks <= 2


def test_racks_that_bind_before_the_cap_are_said_with_their_limit() -> None:
    text = "we have 12 rack positions and 600 kW, B200 training, as many GPUs as fit"
    d = plan_design(CAT, parse_request(CAT, text))
    assert d.notice is not None
    assert "the site's 12 racks bind, not the cap" in d.notice
    assert "assumed 40 kW a rack" in d.notice
