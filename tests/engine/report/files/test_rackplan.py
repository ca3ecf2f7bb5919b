"""The rack plan a data-centre team imports: every device row names its manufacturer and model,
every rack the design counts and no other, a device family kept together."""

from __future__ import annotations

import csv
import io

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.design import Design
from clustergen.engine.report.files import device_types, rackplan
from clustergen.engine.report.files.cable_schedule import cable_schedule_csv
from clustergen.engine.search.planner import plan_design
from clustergen.engine.search.proposal import request_from_fields

CATALOG = load_catalog()

#: the platforms a data-centre team imports most: NVIDIA DGX with RA layout, an OEM HGX server,
#: a rack-scale system; each with its storage appliances and management servers; and issue 37's
#: four bundles (DGX H100 4 SU above, GB300 NVL72, HGX B300 on Spectrum-X, a single DGX)
DESIGNS = {
    "dgx-h100-4su": {"platform": "dgx-h100", "nodes": 128},
    "dgx-b200-3": {"platform": "dgx-b200", "nodes": 3},
    "hgx-b200-64": {"platform": "hgx-b200", "nodes": 64},
    "gb200-4su": {"platform": "gb200-nvl72", "nodes": 32},
    "gb300-nvl72": {"platform": "gb300-nvl72", "nodes": 16},
    "hgx-b300": {"platform": "hgx-b300", "nodes": 16},
    "one-dgx": {"platform": "dgx-b200", "nodes": 1},
    # B200 RA Figure 3.2's 4 SU: its storage fabric at the published 8 leaves and 4 spines
    "dgx-b200-4su": {"platform": "dgx-b200", "nodes": 127},
}


@pytest.fixture(scope="module", params=sorted(DESIGNS))
def design(request: pytest.FixtureRequest) -> Design:
    return plan_design(CATALOG, request_from_fields(CATALOG, DESIGNS[request.param]))


def _rows(d: Design) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(rackplan.rack_plan_csv(d))))


def test_every_device_row_names_its_manufacturer_and_model(design: Design) -> None:
    """NetBox rejects a device row with no manufacturer: each names the NetBox manufacturer of
    its catalog vendor (the library's `Nvidia` for NVIDIA), or the placeholder maker (saying
    from what class of makers) where the catalog names no one maker."""
    rows = _rows(design)
    assert rows
    for row in rows:
        assert row["manufacturer"], row
        assert row["device_type"], row
        assert row["manufacturer"] != "NVIDIA", row
        if row["manufacturer"] == device_types.PLACEHOLDER_MAKER:
            assert "manufacturer to choose (" in row["description"], row
    assert design.inventory is not None
    groups = {g.id: g for g in design.inventory.groups}
    nodes = [r for r in rows if r["name"].startswith("node-")]
    for row in nodes:
        assert row["manufacturer"] == device_types.manufacturer(groups["node"])
    storage = [r for r in rows if r["role"] == "storage"]
    for row in storage:
        line = next(ln for ln in design.bom if ln.category == "storage" and ln.status == "order")
        assert row["manufacturer"] == (line.vendor or device_types.PLACEHOLDER_MAKER)


def test_a_class_of_makers_is_left_to_choose_and_one_maker_is_named() -> None:
    hgx = plan_design(CATALOG, request_from_fields(CATALOG, DESIGNS["hgx-b200-64"]))
    rows = _rows(hgx)
    node = next(r for r in rows if r["name"] == "node-0001")
    assert node["manufacturer"] == device_types.PLACEHOLDER_MAKER
    assert "NVIDIA HGX partner (OEM)" in node["description"]
    ddn = [r for r in rows if r["device_type"].startswith("DDN ")]
    assert ddn
    assert {r["manufacturer"] for r in ddn} == {"DDN"}
    switches = [r for r in rows if r["role"] == "network"]
    assert switches
    assert {r["manufacturer"] for r in switches} == {"Nvidia"}


def test_every_device_type_is_the_librarys_or_shipped_and_every_cable_end_an_interface(
    design: Design,
) -> None:
    """The NetBox files import as they are: each device row's type is one the community library
    has (its interface names) or one netbox_device_types.yaml ships, and every cable end is an
    interface of its device's type."""
    shipped: dict[tuple[str, str], set[str]] = {}
    for doc in rackplan.device_types_yaml_of(design).split("---\n")[1:]:
        fields = dict(line.split(": ", 1) for line in doc.splitlines() if ": " in line)
        key = (fields["manufacturer"].strip('"'), fields["model"].strip('"'))
        shipped[key] = {ln.split(": ")[1] for ln in doc.splitlines() if "- name: " in ln}
    library = {("Nvidia", t.model): t for t in device_types.LIBRARY.values()}
    types = {}
    for row in _rows(design):
        key = (row["manufacturer"], row["device_type"])
        assert key in shipped or key in library, key
        types[row["name"]] = key
    for row in csv.DictReader(io.StringIO(rackplan.netbox_cables_csv(design))):
        for side in ("side_a", "side_b"):
            key = types[row[f"{side}_device"]]
            name = row[f"{side}_name"]
            if key in library:
                t = library[key]
                assert name in {t.interface(n) for n in range(1, t.ports + 1)}, (key, name)
            else:
                assert name in shipped[key], (key, name)


def test_the_rack_plan_has_the_racks_the_design_counts(design: Design) -> None:
    """rack_plan.csv lays out the racks design.json counts: its compute racks, its network,
    management and storage racks, no more and no fewer (in-row CDU positions apart)."""
    racks = [r for r in rackplan.rack_plan(design) if r.role != "cooling"]
    assert len([r for r in racks if r.role == "compute"]) == design.racks.compute.compute_racks
    assert len(racks) == design.racks.total_racks


def test_a_device_family_sits_in_one_rack_where_the_racks_allow(design: Design) -> None:
    """The storage appliances of a DGX H100 4-SU design were split 2 + 1 over two racks: a
    family (one BOM line's devices outside the SU racks) now sits in one rack whenever one of
    the racks the design counts has room for all of it."""
    support = [r for r in rackplan.rack_plan(design) if r.role not in ("compute", "cooling")]
    placed: dict[str, set[str]] = {}
    for rack in support:
        for x in rack.devices:
            placed.setdefault(x.name.rsplit("-", 1)[0], set()).add(rack.name)
    storage = {x.name.rsplit("-", 1)[0] for r in support for x in r.devices if x.role == "storage"}
    for family in storage:
        size = sum(
            x.height for r in support for x in r.devices if x.name.rsplit("-", 1)[0] == family
        )
        if size <= rackplan.USABLE_U:
            assert len(placed[family]) == 1, (family, placed[family])


def test_every_cable_schedule_end_names_devices_of_the_rack_plan(design: Design) -> None:
    """Each link group's two ends name the rack-plan devices they join, and every name (each
    run's first and last) is a device row of rack_plan.csv."""
    names = {r["name"] for r in _rows(design)}
    rows = list(csv.DictReader(io.StringIO(cable_schedule_csv(design))))
    assert rows
    for row in rows:
        for side in ("side_a", "side_b"):
            assert row[f"{side}_device"], row
            found = row[f"{side}_names"]
            assert found, (row["fabric"], row["segment"], row[f"{side}_device"])
            for run in found.split("; "):
                for name in run.split(" .. "):
                    assert name in names, (name, row[f"{side}_device"])


def test_netbox_cables_join_devices_of_the_rack_plan(design: Design) -> None:
    names = {r["name"] for r in _rows(design)}
    for row in csv.DictReader(io.StringIO(rackplan.netbox_cables_csv(design))):
        assert row["side_a_device"] in names
        assert row["side_b_device"] in names


def test_a_run_of_names_never_spans_a_gap() -> None:
    from clustergen.engine.report.files.rackplan import ranges

    assert ranges(["qm9700-001", "qm9700-002", "qm9700-004", "node-0001"]) == [
        "qm9700-001 .. qm9700-002",
        "qm9700-004",
        "node-0001",
    ]


def test_a_rail_optimized_hosts_ports_reach_one_leaf_of_each_rail(design: Design) -> None:
    """On a rail-optimized compute fabric port r of a host lands on a leaf of rail r (NVIDIA
    SuperPOD RAs: each GPU's NIC on its rail's leaf), so a host's ports reach as many leaves as
    it has ports, up to the fabric's rails (each plane's its own; one rail an SU leaf where the
    fabric records none), all of its own SU; never all on one leaf (the GB200 SuperPOD's trays
    did, its rails being 8 leaves each)."""
    f = design.fabrics.compute
    if f is None or not f.rail_optimized or not f.leaves_per_su:
        pytest.skip("no rail-optimized compute fabric")
    su_leaves = f.leaves_per_su * f.planes
    rails = (f.rails or 0) * f.planes
    rails = rails if rails and su_leaves % rails == 0 else su_leaves
    reached: dict[str, list[str]] = {}
    for g, cables in rackplan.design_cables(design):
        if g.fabric == "compute" and g.segment == "node-leaf":
            for host, _, leaf, _ in cables:
                reached.setdefault(host, []).append(leaf)
    assert reached
    for host, leaves in reached.items():
        want = min(len(leaves), rails)
        assert len(set(leaves)) == want, (host, leaves)
        sus = {(int(leaf.rsplit("-", 1)[1]) - 1) // su_leaves for leaf in leaves}
        assert len(sus) == 1, (host, leaves)


def test_a_leaf_sends_its_pair_links_to_each_spine_it_reaches(design: Design) -> None:
    """Each compute leaf sends the fabric's links_per_leaf_spine_pair to each of its
    leaf_uplinks / that spines (every spine of its plane, or of its spine-leaf group: the GB200
    SuperPOD's rail of 8 leaves under 6 spines, 3 links each), never all its uplinks to one."""
    f = design.fabrics.compute
    if f is None or f.tiers < 2 or not f.links_per_leaf_spine_pair:
        pytest.skip("no leaf-spine tier")
    pairs: dict[str, dict[str, int]] = {}
    for g, cables in rackplan.design_cables(design):
        if g.fabric == "compute" and g.segment == "leaf-spine":
            for leaf, _, spine, _ in cables:
                to = pairs.setdefault(leaf, {})
                to[spine] = to.get(spine, 0) + 1
    assert len(pairs) == f.leaf_switches
    up = f.leaf_spine_links // f.leaf_switches
    for leaf, to in pairs.items():
        assert set(to.values()) == {f.links_per_leaf_spine_pair}, (leaf, to)
        assert len(to) == up // f.links_per_leaf_spine_pair, (leaf, to)


def test_a_host_dual_homed_to_a_redundant_pair_reaches_both_switches(design: Design) -> None:
    """A redundant fabric's two ports per node go one to each switch of a pair: node-0001's two
    storage ports and two in-band ports both went to storage-leaf-001 / inband-leaf-001."""
    from collections import defaultdict

    ends: dict[tuple[str, str], list[str]] = defaultdict(list)
    for row in csv.DictReader(io.StringIO(rackplan.netbox_cables_csv(design))):
        a, b = row["side_a_device"], row["side_b_device"]
        for net in ("storage", "inband"):
            if b.startswith(f"{net}-leaf-") and not a.startswith(f"{net}-"):
                ends[(a, net)].append(b)
    for (host, net), leaves in ends.items():
        if len(leaves) == 2:
            assert leaves[0] != leaves[1], (host, net, leaves)


def test_a_storage_leafs_uplinks_reach_every_spine_alike() -> None:
    from collections import Counter

    d = plan_design(CATALOG, request_from_fields(CATALOG, DESIGNS["dgx-h100-4su"]))
    rows = csv.DictReader(io.StringIO(rackplan.netbox_cables_csv(d)))
    spines = Counter(
        r["side_b_device"]
        for r in rows
        if r["side_a_device"] == "storage-leaf-001"
        and r["side_b_device"].startswith("storage-spine")
    )
    assert len(spines) > 1
    assert len(set(spines.values())) == 1, spines
