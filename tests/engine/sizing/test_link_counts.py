"""Issue #25, widened: on every platform at several sizes (one node to several scalable units,
and NVL72 rack counts that leave a scalable unit part-built), every fabric's transceivers and
cables agree with its links. Per link group: the modules at each end serve its links (a twin-port
module two, a splitter, active or copper cable none), a switch tier counting at most one
half-used module per switch beyond that; an active cable's power is that of the ends the fabric
counts; and a fabric's optics power is the sum over its link groups."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.design import Design
from clustergen.engine.model.fabric import FabricDesign
from clustergen.engine.model.links import LinkEnd, LinkGroup
from clustergen.engine.search.planner import plan_design
from clustergen.engine.search.proposal import request_from_fields
from clustergen.units import ceil_div
from support.issue_designs import PLATFORMS

CATALOG = load_catalog()
SIZES = (1, 2, 8, 32, 128, 256)
#: NVL72 rack counts that leave the last 8-rack scalable unit part-built
PART_BUILT = (5, 12, 100)
CASES = [(p, n) for p in PLATFORMS for n in SIZES] + [
    (p, n) for p in PLATFORMS if "nvl72" in p for n in PART_BUILT
]
TIERS = ("leaf", "spine", "core")
#: how the BOM names each fabric (a collapsed or converged fabric says so)
LABELS = {
    "compute": ("compute fabric", "collapsed compute, storage and in-band fabric"),
    "storage": ("storage fabric", "converged storage and in-band fabric"),
}


@pytest.fixture(scope="module", params=CASES, ids=lambda c: f"{c[0]}-{c[1]}")
def d(request: pytest.FixtureRequest) -> Design:
    platform, nodes = request.param
    return plan_design(
        CATALOG, request_from_fields(CATALOG, {"platform": platform, "nodes": nodes})
    )


def _fabrics(d: Design) -> list[tuple[str, FabricDesign]]:
    pairs = (("compute", d.fabrics.compute), ("storage", d.fabrics.storage))
    return [(name, f) for name, f in pairs if f is not None]


def _tier(end: LinkEnd) -> str | None:
    tier = end.device.rsplit(" ", 1)[-1]
    return tier if tier in TIERS else None


def _switch_need(f: FabricDesign, g: LinkGroup, tier: str) -> tuple[int, int]:
    """(modules the group's links need at a switch tier, switches of that tier)."""
    sw = {"leaf": f.leaf_switch, "spine": f.spine_switch, "core": f.core_switch}[tier]
    assert sw is not None
    per_module = CATALOG.switch(sw).ports_per_cage_at(f.plane_port_speed_gbps)
    per_link = f.planes if f.plane_split else 1
    switches = {"leaf": f.leaf_switches, "spine": f.spine_switches, "core": f.core_switches}
    return ceil_div(g.links * per_link, per_module), switches[tier]


def test_no_end_takes_an_active_cable_as_its_module(d: Design) -> None:
    """An AOC, ACC or splitter is a cable: no end counts it as a module it plugs in."""
    for g in d.links:
        for end in (g.a, g.b):
            if end.transceivers and end.transceiver:
                assert CATALOG.optic(end.transceiver).kind == "transceiver", (g.segment, end)


def test_each_end_has_the_modules_its_links_need(d: Design) -> None:
    for name, f in _fabrics(d):
        for g in (g for g in d.links if g.fabric == name):
            for end in (g.a, g.b):
                if not end.transceivers:
                    continue
                tier = _tier(end)
                if tier is None:  # a host's end: one module per its ports
                    assert end.transceivers == ceil_div(g.links, end.ports_per_transceiver), g
                    continue
                need, switches = _switch_need(f, g, tier)
                # at most one half-used module per switch beyond what the links need
                assert need <= end.transceivers < need + max(1, switches), (name, g.segment, end)
    for g in (g for g in d.links if g.fabric not in ("compute", "storage")):
        for end in (g.a, g.b):
            if end.transceivers:
                assert end.transceivers == ceil_div(g.links, end.ports_per_transceiver), g


def test_an_active_cables_power_is_the_ends_the_fabric_counts(d: Design) -> None:
    """An AOC's power per end counted at the switch tier: one end a link (the other in a host's
    budget) or both; never a share of a tier's modules that other links' ends took."""
    for name, _ in _fabrics(d):
        for g in (g for g in d.links if g.fabric == name):
            unit = g.b.unit_power_w
            if g.cable_power_w is None or g.replaced_switch_transceivers is not None or not unit:
                continue
            assert round(g.cable_power_w / unit) in (g.links, 2 * g.links), (name, g.segment)


def _group_power(g: LinkGroup) -> float:
    """Optics watts a link group carries as its fabric counts them: its ends' modules, an
    active cable's ends, or the switch modules a splitter cable stands in for."""
    watts = sum(e.transceivers * e.unit_power_w for e in (g.a, g.b) if e.unit_power_w)
    if g.replaced_switch_transceivers is not None:
        return watts + g.replaced_switch_transceivers * (g.b.unit_power_w or 0.0)
    return watts + (g.cable_power_w or 0.0)


def test_a_fabrics_optics_power_is_the_sum_over_its_link_groups(d: Design) -> None:
    for name, f in _fabrics(d):
        if f.power.optics_w is None:
            continue
        groups = [g for g in d.links if g.fabric == name]
        assert sum(_group_power(g) for g in groups) == pytest.approx(f.power.optics_w), name


def test_cables_carry_the_links(d: Design) -> None:
    """A cable carries as many links as its ports; the BOM buys links / ports of each ordered
    cable and lists every vendor's link once."""
    for g in d.links:
        if g.cable and g.cable_supply == "order":
            assert g.links_per_cable == CATALOG.optic(g.cable).ports, g
    ordered = sum(ln.quantity for ln in d.bom if ln.category == "cable")
    assert ordered == sum(ceil_div(g.links, g.links_per_cable) for g in d.links)


def test_bom_power_of_link_ends_is_the_designs(d: Design) -> None:
    """The BOM's transceiver and cable watts of a fabric are the design's: the fabric's optics
    watts, a splitter cable's ends in for the switch modules it stands in for (a storage
    vendor's ends included, at the power the fabric counts them)."""
    for name, f in _fabrics(d):
        groups = [g for g in d.links if g.fabric == name]
        splitters = [g for g in groups if g.replaced_switch_transceivers is not None]
        if f.power.optics_w is None or any(g.cable_power_w is None for g in splitters):
            continue
        design = f.power.optics_w + sum(
            (g.cable_power_w or 0.0)
            - (g.replaced_switch_transceivers or 0) * (g.b.unit_power_w or 0.0)
            for g in splitters
        )
        lines = [
            ln
            for ln in d.bom
            if ln.category in ("transceiver", "cable")
            and any(x in ln.description for x in LABELS[name])
        ]
        listed = sum(ln.total_power_w or 0.0 for ln in lines)
        assert listed == pytest.approx(design), name


def test_a_part_built_pods_spines_take_only_its_leaves_links() -> None:
    """DGX A100 at 128 nodes: 3 tiers, the last pod part-built. Each spine's leaf-facing AOC
    ends are the leaf links it takes (1,120 over all spines), plus its core links (1,280): 2,400,
    not a full pod's 2,560 for every spine."""
    d = plan_design(CATALOG, request_from_fields(CATALOG, {"platform": "dgx-a100", "nodes": 128}))
    f = d.fabrics.compute
    assert f is not None
    assert f.tiers == 3
    spine = sum(t.count for t in f.transceivers if t.location == "spine")
    assert spine == f.leaf_spine_links + f.spine_core_links == 2400
