"""The BOM against the counts NVIDIA's RAs publish: racks and PDUs (H100 RA Table 7), the
GB200 rack's north-south ends, and the rack-scale system's liquid-cooling line."""

from __future__ import annotations

from collections import Counter

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.bom import BomLine
from clustergen.engine.model.design import Design
from clustergen.engine.search.planner import plan_design
from clustergen.engine.search.proposal import request_from_fields
from support.issue_designs import PLATFORMS

CATALOG = load_catalog()


def design(fields: dict[str, object]) -> Design:
    return plan_design(CATALOG, request_from_fields(CATALOG, fields))


def test_h100_ra_table_7_racks_and_pdus() -> None:
    """DGX SuperPOD H100 RA (RA-11333-001 V11) Table 7, 4 SU, 127 DGX H100: "38 x Rack
    (Legrand) NVIDPD13", "96 x Raritan PX3-5878I2R-P1Q2R1A15D5" and "12 x Raritan PX3-5747V-V2"."""
    d = design({"platform": "dgx-h100", "nodes": 127})
    racks = sum(ln.quantity for ln in d.bom if ln.category == "rack" and ln.status == "order")
    assert racks == 38
    assert all(ln.part == "legrand-nvidpd13" for ln in d.bom if ln.category == "rack")
    pdus: Counter[str] = Counter()
    for ln in d.bom:
        if ln.category == "pdu":
            pdus[ln.description.split(",")[0]] += ln.quantity
    assert pdus == {"Raritan PX3-5878I2R-P1Q2R1A15D5": 96, "Raritan PX3-5747V-V2": 12}


def test_gb200_orders_no_transceiver_left_to_choose_at_its_racks() -> None:
    d = design({"gpus": 576, "platform": "gb200-nvl72"})
    for ln in d.bom:
        if ln.category == "transceiver" and d.platform.name in ln.description:
            assert ln.part, ln.description
    cooling = [ln for ln in d.bom if ln.category == "cooling"]
    assert len(cooling) == 1
    # one row of 8 racks: one in-row CDU and its spare, as the design's cooling rule counts
    assert d.racks.cooling is not None
    assert cooling[0].quantity == cooling[0].order_quantity == d.racks.cooling.cdus == 2
    assert cooling[0].part == "liquidstack-cdu-1mw"
    assert not cooling[0].opn
    assert "1,056 kW to liquid at most" in cooling[0].description  # 8 racks at 132 kW
    assert "estimate" in cooling[0].source  # no NVIDIA CDU count: the basis says so
    assert cooling[0].placeholder  # the CDU model is the facility's to choose: flagged


def _pdu_lines(d: Design) -> list[BomLine]:
    return [ln for ln in d.bom if ln.category == "pdu"]


def test_an_oem_rack_pdu_is_a_line_to_choose_that_states_its_specification() -> None:
    """HGX B200, two per 48U rack at 28.6 kW: no RA names the PDU model, so the line is 'to
    choose' (no OPN, nothing ordered yet) and says what to quote: three per compute rack, the
    load each carries and the rack feed NVIDIA publishes for a 28.6 kW two-system B200 rack."""
    d = design({"platform": "hgx-b200", "nodes": 64})
    compute = next(ln for ln in _pdu_lines(d) if "compute rack" in ln.description)
    assert compute.status == "to choose"
    assert compute.opn is None
    assert compute.order_quantity is None
    assert compute.quantity == d.racks.compute.compute_racks * 3
    assert "3 per compute rack carrying 28.6 kW (9.5 kW each)" in compute.description
    assert "2 x 380 V 3-phase 32 A" in compute.description
    assert "Rack Power Profiles" in compute.source
    network = next(ln for ln in _pdu_lines(d) if "network rack" in ln.description)
    assert network.status == "to choose"
    rack = next(ln for ln in d.bom if ln.category == "rack" and "network" in ln.description)
    assert rack.status == "to choose"
    assert rack.part is None


def test_a_rack_feed_is_stated_only_where_the_published_profile_holds_the_load() -> None:
    """HGX H100, three per rack at 30.6 kW: more than the 28.6 kW profile carries, so no feed is
    borrowed from it; the count and load per PDU are still stated."""
    d = design({"platform": "hgx-h100", "nodes": 64})
    compute = next(ln for ln in _pdu_lines(d) if "compute rack" in ln.description)
    assert d.racks.compute.rack_power_kw > 28.6
    assert "rack feed" not in compute.description
    assert "3 per compute rack: 21 racks of 3 nodes carrying 30.6 kW (10.2 kW each)" in (
        compute.description
    )


def test_a_named_ra_pdu_stays_an_order_line() -> None:
    d = design({"platform": "dgx-h100", "nodes": 127})
    assert {ln.status for ln in _pdu_lines(d)} == {"order"}


def test_a_host_end_module_says_its_power_is_in_the_host_and_why() -> None:
    """The DGX B200's storage modules draw from its own ports (NVIDIA Port Power page), inside
    the system's maximum input the design counts for the node: the line says so with its
    source and adds no power of its own."""
    d = design({"platform": "dgx-b200", "nodes": 32})
    ln = next(
        ln
        for ln in d.bom
        if ln.category == "transceiver" and "storage fabric, NVIDIA DGX B200 end" in ln.description
    )
    assert "its power is in the host's" in ln.description
    assert "port-power.html" in ln.source
    assert ln.unit_power_w is None
    assert ln.total_power_w is None


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("nodes", [2, 64])
def test_a_line_to_choose_is_never_ordered(platform: str, nodes: int) -> None:
    """A line that says a part is to choose has no order: status 'to choose', no order
    quantity, flagged for the buyer to settle (the DGX A100 once listed 'transceiver to choose'
    lines as 'order'). An ordered line with no part is a generic item ordered by its
    specification, flagged as a placeholder."""
    d = design({"platform": platform, "nodes": nodes})
    for ln in d.bom:
        if "to choose" in ln.description:
            assert ln.status != "order", ln.description
        if ln.status == "order" and ln.part is None:
            assert ln.placeholder, ln.description
        if ln.status == "to choose":
            assert ln.order_quantity is None, ln.description
            assert ln.placeholder, ln.description
