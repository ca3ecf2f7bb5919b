"""A 200 Gb/s-and-below switch cage takes an active optical cable, its host end the cable's own:
the DGX A100's HDR fabrics (QM8700 QSFP56 cages, ConnectX-6 QSFP56 ports) resolve every link end
and cable to a catalog part (issue #25), by the general rule, not a DGX A100 case."""

from __future__ import annotations

import dataclasses

import pytest

from clustergen.catalog import load_catalog
from clustergen.catalog.loader import Catalog
from clustergen.engine.model.design import Design
from clustergen.engine.search.planner import plan_design
from clustergen.engine.search.proposal import request_from_fields
from clustergen.engine.sizing.fabric.cable_ends import host_cable_end, switch_cable_end
from support.bom_lines import ends_to_choose

CATALOG = load_catalog()
A100 = ("dgx-a100", "dgx-a100-320gb")
#: 2-node switch pair (in-rack ISL), 2-tier at 9 to 64 nodes, 3-tier (a core) at 128 and 256
NODES = (2, 9, 20, 64, 128, 256)


def _design(catalog: Catalog, platform: str, nodes: int) -> Design:
    fields = {"platform": platform, "nodes": nodes, "fabric": "infiniband"}
    return plan_design(catalog, request_from_fields(catalog, fields))


@pytest.fixture(
    scope="module",
    params=[(p, n) for p in A100 for n in NODES],
    ids=lambda pn: f"{pn[0]}-{pn[1]}",
)
def a100(request: pytest.FixtureRequest) -> Design:
    platform, nodes = request.param
    return _design(CATALOG, platform, nodes)


def test_the_hdr_switch_cage_takes_the_hdr_aoc_and_the_node_its_other_end() -> None:
    qm8700 = CATALOG.switch("qm8700")
    aoc = switch_cable_end(CATALOG, qm8700, 200)
    assert aoc is not None
    assert aoc.id == "aoc-200g-qsfp56"
    assert aoc.kind == "aoc"
    assert "infiniband" in aoc.technologies
    node = CATALOG.system("dgx-a100").compute
    assert node is not None
    end = host_cable_end(aoc, total_gbps=200, ports=1, cage_form=node.cage_form)
    assert end is aoc


def test_the_rule_does_not_reach_past_its_cages() -> None:
    """A cage split into HDR100 ports takes a splitter, not a one-port AOC; an NDR or XDR cage
    takes modules; an AOC never joins an OSFP host cage or one of unknown form."""
    qm8700 = CATALOG.switch("qm8700")
    assert switch_cable_end(CATALOG, qm8700, 100) is None
    assert switch_cable_end(CATALOG, CATALOG.switch("qm9700"), 400) is None
    aoc = CATALOG.optic("aoc-200g-qsfp56")
    assert host_cable_end(aoc, total_gbps=200, ports=1, cage_form="OSFP") is None
    assert host_cable_end(aoc, total_gbps=200, ports=1, cage_form=None) is None
    assert host_cable_end(aoc, total_gbps=100, ports=1, cage_form="QSFP56") is None
    module = CATALOG.optic("mma4z00-ns")
    assert host_cable_end(module, total_gbps=800, ports=2, cage_form="OSFP") is None


def test_no_dgx_a100_link_end_or_cable_is_left_to_choose(a100: Design) -> None:
    assert ends_to_choose(a100) == []
    assert not [
        ln
        for ln in a100.bom
        if "to choose" in ln.description
        and ln.category
        in (
            "transceiver",
            "cable",
        )
    ]


def test_aoc_links_have_no_transceiver_at_either_end(a100: Design) -> None:
    aocs = [g for g in a100.links if g.cable and CATALOG.optic(g.cable).kind == "aoc"]
    assert any(g.fabric == "compute" for g in aocs)
    for g in aocs:
        assert (g.a.transceivers, g.b.transceivers) == (0, 0), g
        assert (g.a.transceiver, g.b.transceiver) == (None, None), g
    # and the BOM buys no module for the compute fabric at all
    assert not [
        ln for ln in a100.bom if ln.category == "transceiver" and "compute fabric" in ln.description
    ]


def test_compute_cables_match_the_links_and_the_fabric(a100: Design) -> None:
    f = a100.fabrics.compute
    assert f is not None
    groups = [g for g in a100.links if g.fabric == "compute"]
    for c in f.cables:
        links = sum(g.links for g in groups if g.segment == c.segment)
        assert links == c.count
        bought = sum(
            ln.quantity
            for ln in a100.bom
            if ln.category == "cable"
            and ln.description.split("; ")[-1].startswith(f"compute fabric {c.count:,} ")
            and f" {c.segment} link" in ln.description
        )
        assert bought == c.count, c.segment  # one AOC (or in-rack DAC) a link


def test_the_cables_carry_the_optics_power_the_fabric_counts(a100: Design) -> None:
    """An AOC draws power at each end (6 W, a labelled estimate): the node's and both switch
    tiers' ends the fabric counts are the cables' power on the BOM, none lost, none twice."""
    f = a100.fabrics.compute
    assert f is not None
    assert f.power.optics_w is not None
    links = sum(g.cable_power_w or 0.0 for g in a100.links if g.fabric == "compute")
    assert links == pytest.approx(f.power.optics_w)
    aoc = CATALOG.optic("aoc-200g-qsfp56")
    assert aoc.power_w is not None
    # two ends a cable; where a core tier's spines count more ports than they cable (the
    # fabric's per-switch count), only the node-leaf segment's ends are exactly its cables'
    three_tier = f.core_switch is not None
    for g in a100.links:
        if g.fabric == "compute" and g.cable == aoc.id:
            if three_tier and g.segment != "node-leaf":
                continue
            assert g.cable_power_w == pytest.approx(2 * aoc.power_w * g.links), g.segment


def test_in_rack_hdr_links_take_the_hdr_dac_and_row_links_no_single_mode_claim(
    a100: Design,
) -> None:
    for g in a100.links:
        if g.segment == "inter-switch" and g.speed_gbps == 200:
            assert g.cable == "dac-200g-qsfp56"
            assert g.length_class == "in-rack"
        if g.segment == "spine-core":
            assert g.cable == "aoc-200g-qsfp56"
            assert "single-mode" not in g.media  # the core takes the multimode AOC


def test_the_hdr_dac_never_lands_in_an_osfp_switch() -> None:
    """DGX H100 at 16 nodes: its NDR200 switch pair's in-rack links are on QM9700 OSFP cages,
    which no QSFP56 DAC plugs into."""
    d = plan_design(CATALOG, request_from_fields(CATALOG, {"platform": "dgx-h100", "nodes": 16}))
    isl = [g for g in d.links if g.segment == "inter-switch" and g.fabric == "compute"]
    assert isl
    assert all(g.cable != "dac-200g-qsfp56" for g in isl)


def test_without_an_infiniband_aoc_the_hdr_ends_stay_to_choose_and_say_so() -> None:
    """The rule is the catalog's parts, not a lookup: an Ethernet-only QSFP56 AOC (as the
    catalog had it) leaves the HDR ends to choose, listed as such, never ordered."""
    entries = {stem: dict(rows) for stem, rows in CATALOG.entries.items()}
    aoc = CATALOG.optic("aoc-200g-qsfp56")
    entries["optics"]["aoc-200g-qsfp56"] = aoc.model_copy(update={"technologies": ["ethernet"]})
    catalog = dataclasses.replace(CATALOG, entries=entries, hash="aoc-ethernet-only")
    d = _design(catalog, "dgx-a100", 64)
    left = [ln for ln in d.bom if "to choose" in ln.description and "compute" in ln.description]
    assert left
    assert all(ln.status == "to choose" and ln.order_quantity is None for ln in left)
    assert all(ln.placeholder for ln in left)
