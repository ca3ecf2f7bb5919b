"""The inventory sizing owns: every device the design counts in one device group, every group's
devices placed in the racks the design counts, every link end on a device group, so the rack
plan, the cable schedule and the NetBox files are projections that match no text."""

from __future__ import annotations

import csv
import io
from collections import Counter

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.design import Design
from clustergen.engine.model.inventory import PartKind, device_name
from clustergen.engine.report.files import rackplan
from clustergen.engine.search.planner import plan_design
from clustergen.engine.search.proposal import request_from_fields

CATALOG = load_catalog()

#: the issue's four bundles: an RA DGX, a rack-scale system, an OEM HGX, a single server
DESIGNS = {
    "dgx-h100-4su": {"platform": "dgx-h100", "nodes": 128},
    "gb300-nvl72": {"platform": "gb300-nvl72", "nodes": 16},
    "hgx-b300": {"platform": "hgx-b300", "nodes": 16},
    "one-dgx": {"platform": "dgx-b200", "nodes": 1},
}


@pytest.fixture(scope="module", params=sorted(DESIGNS))
def design(request: pytest.FixtureRequest) -> Design:
    return plan_design(CATALOG, request_from_fields(CATALOG, DESIGNS[request.param]))


def test_the_bom_category_is_the_part_kind_and_its_json_value_unchanged(design: Design) -> None:
    assert all(isinstance(ln.category, PartKind) for ln in design.bom)
    dumped = design.model_dump(mode="json")["bom"]
    assert {ln["category"] for ln in dumped} <= {k.value for k in PartKind}


def test_the_rack_plan_holds_the_boms_devices(design: Design) -> None:
    """Nodes, switches, servers, storage appliances and PDUs: as many in the rack plan as the
    BOM lists (a rack-scale system is its trays; its in-rack switches come inside it)."""
    inv = design.inventory
    assert inv is not None
    placed = Counter(x.group for r in rackplan.rack_plan(design) for x in r.devices)
    for g in inv.groups:
        if g.id == "node" and g.rack_units == 0 and design.platform.rack_scale:
            continue  # the system is its rack; its trays are the devices
        assert placed[g.id] == g.count, g.id
    ordered: Counter[PartKind] = Counter()
    for ln in design.bom:
        if ln.status == "order" or ln.category is PartKind.PDU:
            ordered[ln.category] += ln.quantity
    grouped: Counter[PartKind] = Counter()
    for g in inv.groups:
        if g.supply == "order" and g.kind is not PartKind.INCLUDED:
            grouped[g.kind] += g.count
    for kind in (PartKind.SWITCH, PartKind.STORAGE, PartKind.PDU, PartKind.MANAGEMENT_SERVER):
        assert grouped[kind] == ordered[kind], kind
    if not design.platform.rack_scale:
        assert grouped[PartKind.COMPUTE] == ordered[PartKind.COMPUTE]


def test_every_link_end_names_device_groups_of_the_inventory(design: Design) -> None:
    inv = design.inventory
    assert inv is not None
    ids = {g.id for g in inv.groups}
    for g in design.links:
        for end in (g.a, g.b):
            assert end.groups, (g.fabric, g.segment, end.device)
            assert set(end.groups) <= ids, (g.fabric, g.segment, end.groups)


def test_every_link_is_a_netbox_cable_between_rack_plan_devices(design: Design) -> None:
    """All networks, not only the compute fabric's: one row per link, each interface used
    once, both ends devices of the rack plan."""
    names = {x.name for r in rackplan.rack_plan(design) for x in r.devices}
    rows = list(csv.DictReader(io.StringIO(rackplan.netbox_cables_csv(design))))
    assert len(rows) == sum(g.links for g in design.links)
    ends = [(r["side_a_device"], r["side_a_name"]) for r in rows]
    ends += [(r["side_b_device"], r["side_b_name"]) for r in rows]
    assert len(ends) == len(set(ends))
    assert {d for d, _ in ends} <= names


def test_a_device_name_is_its_group_and_index() -> None:
    assert device_name("node", 7) == "node-0007"
    assert device_name("compute-leaf", 12) == "compute-leaf-012"


def test_an_increments_new_rack_scale_racks_draw_the_systems_power() -> None:
    """4 GB200 NVL72 racks added to 4: each new rack read 'rack power at least 0.2 kW' in the
    rack plan and racks.png (its out-of-band switches; the trays' power is the rack's)."""
    from clustergen.engine.request import parse_request

    text = "Expand our GB200 NVL72 deployment of 4 racks by 4 more racks, 1.5 MW limit"
    d = plan_design(CATALOG, parse_request(CATALOG, text))
    assert d.expansion is not None
    compute = [r for r in rackplan.rack_plan(d) if r.role == "compute"]
    assert len(compute) == d.compute.nodes == 4
    for rack in compute:
        assert rack.power_complete
        assert rack.power_w is not None
        assert rack.power_w >= d.compute.node_power.node_w
