"""The topology drawn by clustergen (SVG, PNG, draw.io) and the rack plan: scalable units in
order, rails and planes told apart, storage and management hung from the nodes, every device
inside its rack, the same design drawn to the same bytes."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.design import Design
from clustergen.engine.report.files import rackplan
from clustergen.engine.report.files.cable_schedule import cable_schedule_csv
from clustergen.engine.report.pictures import diagram
from clustergen.engine.search.planner import plan_design
from clustergen.engine.search.proposal import request_from_fields
from support.issue_designs import DRAWN

CATALOG = load_catalog()


def _design(fields: dict[str, object]) -> Design:
    return plan_design(CATALOG, request_from_fields(CATALOG, fields))


@pytest.fixture(scope="module")
def h100() -> Design:
    return _design({"platform": "dgx-h100", "nodes": 128})


def test_scalable_units_in_order_with_numbered_rails(h100: Design) -> None:
    lay = diagram.layout(h100)
    nodes = [b for b in lay.boxes if b.id.endswith("_nodes")]
    assert [b.label.split("\n")[0] for b in nodes] == [f"Scalable unit {i}" for i in range(1, 5)]
    assert [b.x for b in nodes] == sorted(b.x for b in nodes)
    leaves = [b for b in lay.boxes if b.id.startswith("su") and "_p" in b.id]
    assert all(b.rails == 8 for b in leaves)


def test_planes_are_separate_boxes_in_their_colour() -> None:
    d = _design({"platform": "gb300-nvl72", "nodes": 16})
    assert d.fabrics.compute is not None
    assert d.fabrics.compute.planes == 2
    lay = diagram.layout(d)
    planes = [b for b in lay.boxes if b.id.startswith("su") and "_p" in b.id]
    assert len(planes) == 2
    assert planes[0].stroke != planes[1].stroke


def test_storage_and_management_hang_from_the_nodes(h100: Design) -> None:
    lay = diagram.layout(h100)
    edges = {(e.src, e.dst) for e in lay.edges}
    for i in range(1, 5):
        assert (f"su{i}_nodes", "sbus") in edges
        assert (f"su{i}_nodes", "mbus") in edges
    assert ("sfabric", "sbus") in edges
    assert ("oob", "mbus") in edges


@pytest.mark.parametrize("platform", ["hgx-h100", "dgx-h100"])
def test_the_servers_edge_counts_only_the_servers_links(platform: str) -> None:
    """An HGX node is an '8-GPU server': its storage links are the nodes', not the management
    servers' (the README design labelled the servers' edge 138 links for their 10)."""
    d = _design({"platform": platform, "nodes": 64})
    edge = next(e for e in diagram.layout(d).edges if e.src == "servers")
    assert d.servers.management_server
    # the box holds the management servers and the fabric managers (an InfiniBand storage
    # fabric's own UFM pair links to it: H100 RA Table 8)
    ids = [i for i in (d.servers.management_server, d.servers.fabric_manager) if i]
    names = {CATALOG.system(i).name for i in ids}
    want = sum(g.links for g in d.links if g.fabric == "storage" and g.a.device in names)
    assert want
    assert edge.label == f"{want:,} links"


def test_pictures_are_deterministic_and_the_drawio_file_parses(h100: Design) -> None:
    assert diagram.topology_svg(h100) == diagram.topology_svg(h100)
    assert diagram.topology_png(h100)[:8] == b"\x89PNG\r\n\x1a\n"
    root = ET.fromstring(diagram.drawio_xml(h100))
    cells = root.findall(".//mxCell")
    assert sum(1 for c in cells if c.get("vertex") == "1") == len(diagram.layout(h100).boxes)


def test_untrusted_text_is_escaped_in_the_drawio_file() -> None:
    from clustergen.engine.report.plain_text import plot_text, xml_text

    assert xml_text('<b a="1">') == "&lt;b a=&quot;1&quot;&gt;"
    assert plot_text("$5") == r"\$5"


@pytest.mark.parametrize(
    "fields",
    [
        {"platform": "dgx-h100", "nodes": 128},
        {"platform": "gb200-nvl72", "nodes": 32},
        {"gpus": 512, "power_cap_w": 5e6, "workload": "training"},
    ],
)
def test_every_device_fits_its_rack(fields: dict[str, object]) -> None:
    d = _design(fields)
    racks = rackplan.rack_plan(d)
    assert sum(1 for r in racks if r.role == "compute") == d.racks.compute.compute_racks
    nodes = sum(1 for r in racks for x in r.devices if x.name.startswith("node-"))
    assert nodes in (0, d.compute.nodes)  # an NVL72 rack is drawn by its trays
    for r in racks:
        used: set[int] = set()
        for x in r.devices:
            if not x.height:
                continue  # a vertical PDU: beside the rack's units
            units = set(range(x.position, x.position + x.height))
            assert not units & used, (r.name, x.name)
            assert x.position >= 1, (r.name, x)
            assert x.position + x.height - 1 <= r.height_u, (r.name, x)
            used |= units
    rows = rackplan.rack_plan_csv(d).splitlines()
    assert rows[0].startswith("name,role,manufacturer,device_type,site,rack,position")
    assert len(rows) - 1 == sum(len(r.devices) for r in racks)
    cables = cable_schedule_csv(d).splitlines()
    assert len(cables) - 1 == len(d.links)


def test_netbox_cables_use_each_port_once_and_name_rack_plan_devices(h100: Design) -> None:
    import csv
    import io

    f = h100.fabrics.compute
    assert f is not None
    rows = list(csv.DictReader(io.StringIO(rackplan.netbox_cables_csv(h100))))
    assert len(rows) == sum(g.links for g in h100.links)
    ends = [(r["side_a_device"], r["side_a_name"]) for r in rows]
    ends += [(r["side_b_device"], r["side_b_name"]) for r in rows]
    assert len(ends) == len(set(ends))
    devices = {r["name"] for r in csv.DictReader(io.StringIO(rackplan.rack_plan_csv(h100)))}
    assert {d for d, _ in ends} <= devices
    # rail-optimized: port r of every node in SU 1 lands on SU 1's leaf r
    first = [r for r in rows if r["side_a_device"] == "node-0001"]
    compute = [r for r in first if r["side_b_device"].startswith("compute-leaf-")]
    assert [r["side_b_device"] for r in compute] == [f"compute-leaf-{i:03d}" for i in range(1, 9)]


@pytest.mark.parametrize(
    "fields",
    [
        {"platform": "dgx-h100", "nodes": 128},
        {"gpus": 512, "power_cap_w": 5e6, "workload": "training"},
        {"platform": "gb200-nvl72", "nodes": 32},
    ],
    ids=lambda f: str(f.get("platform", "readme")),
)
def test_every_kind_of_device_gets_an_elevation(fields: dict[str, object]) -> None:
    """A management server packed into a rack named for its switches still has its rack drawn
    (the H100 4-SU plan drew no management rack), and no rack is drawn twice."""
    from clustergen.engine.report.pictures.elevation import picked_racks

    racks = rackplan.rack_plan(_design(fields))
    kinds = {x.role or r.role for r in racks for x in r.devices}
    picked = picked_racks(racks)
    drawn = {x.role or r.role for _, r in picked for x in r.devices}
    assert kinds <= drawn
    assert len({id(r) for _, r in picked}) == len(picked)
    assert next(k for k, _ in picked) == "compute"


def test_a_device_of_unknown_height_says_the_height_it_holds() -> None:
    d = _design({"gpus": 512, "power_cap_w": 5e6, "workload": "training"})
    rows = rackplan.rack_plan_csv(d)
    held = [x for r in rackplan.rack_plan(d) for x in r.devices if not x.height_known]
    assert held
    assert "1U held" not in rows
    assert all(f"{x.height}U (height unknown, estimate)" in rows for x in held)


def test_the_title_names_the_gpus_and_systems_once_each() -> None:
    lay = diagram.layout(_design({"platform": "gb200-nvl72", "nodes": 32}))
    assert lay.title.startswith(
        "2,304 NVIDIA GB200 Blackwell GPUs on 32 NVIDIA GB200 NVL72 racks (DGX GB200):"
    ), lay.title


def test_a_management_box_gives_the_hosts_link_rate() -> None:
    """DGX B200: 200G in-band ports on an 800G SN5600, drawn as '... at 200 Gb/s'."""
    d = _design({"platform": "dgx-b200", "nodes": 32})
    box = next(b for b in diagram.layout(d).boxes if b.id == "inband")
    assert "host ports at 200 Gb/s" in box.label


def test_a_converged_storage_fabric_is_named_for_both_networks() -> None:
    d = _design({"platform": "hgx-b200", "nodes": 64})
    assert d.fabrics.inband is None
    box = next(b for b in diagram.layout(d).boxes if b.id == "sfabric")
    assert box.label.startswith("Storage and in-band fabric")


def _count(label: str) -> int:
    return int(label.split(" ")[0].replace(",", ""))


@pytest.mark.parametrize("fields", DRAWN, ids=lambda f: "-".join(str(v) for v in f.values()))
def test_boxes_and_edges_add_up_to_the_design(fields: dict[str, object]) -> None:
    """The leaves on the SU boxes, the links on the spine edges and the bandwidth on the node
    edges add up to design.json's fabric (SU 4 of 127 DGX H100 was drawn with 250 uplinks
    and the others 258, for 256 each; a part-built GB200 SU with a full SU's 32 leaves)."""
    d = _design(fields)
    f = d.fabrics.compute
    assert f is not None
    lay = diagram.layout(d)
    leaf_boxes = [b for b in lay.boxes if b.id.startswith("su") and "_p" in b.id]
    more = [b for b in lay.boxes if b.id == "su_more"]
    leaves = sum(_count(b.label.split(": ")[1]) for b in leaf_boxes)
    leaves += sum(_count(b.label.split("\n")[2]) * f.planes for b in more)
    assert leaves == f.leaf_switches
    ups = [e for e in lay.edges if e.src.startswith("spine") and e.dst.startswith("su")]
    if f.tiers >= 2:
        assert sum(_count(e.label) for e in ups) == f.leaf_spine_links
    down = [e for e in lay.edges if e.dst.endswith("_nodes") and e.src.startswith("su")]
    lanes = sum(_count(e.label) for e in down)
    lanes += sum(_count(b.label.split("\n")[3]) * f.planes for b in more)
    assert lanes * f.plane_port_speed_gbps == pytest.approx(f.node_links * f.port_speed_gbps)


def test_a_part_built_su_is_drawn_with_its_own_leaves() -> None:
    """28 GB200 NVL72 racks: SU 4 holds 4 racks and, as design.json counts, 16 leaves."""
    lay = diagram.layout(_design({"platform": "gb200-nvl72", "nodes": 28}))
    su4 = lay.box("su4_p1")
    assert su4.label == "SU 4: 16 x QM9700 rail leaves, 4 per rail (rails 1-4)"
    assert su4.rails == 4  # the cells number the fabric's 4 rails, not the 16 leaves
    assert diagram.rail_cells(32)[-1] == "32"  # 32 leaves are not numbered 1-16
    assert diagram.rail_cells(8) == [str(i) for i in range(1, 9)]


def test_fabric_manager_links_are_drawn_where_they_land() -> None:
    """127 DGX H100: the 4 UFM links take SU 4's free node slot on its leaves."""
    d = _design({"platform": "dgx-h100", "nodes": 127})
    assert d.fabrics.compute is not None
    assert d.fabrics.compute.fabric_manager_links == 4
    lay = diagram.layout(d)
    edge = next(e for e in lay.edges if e.src == "su4_p1" and e.dst == "su4_nodes")
    assert edge.label == "248 x 400 Gb/s\n+ 4 fabric-manager links"
    assert "4 fabric managers\n(4 links to SU 4's leaves)" in lay.box("servers").label


def test_one_spine_is_one_spine() -> None:
    d = _design({"platform": "dgx-h100", "nodes": 20})
    sf = d.fabrics.storage
    assert sf is not None
    # one spine: the storage fabric's own UFM links (H100 RA Table 8) give this size two
    one = sf.model_copy(update={"spine_switches": 1, "total_switches": sf.leaf_switches + 1})
    d = d.model_copy(update={"fabrics": d.fabrics.model_copy(update={"storage": one})})
    label = diagram.layout(d).box("sfabric").label
    assert label.endswith(", 1 spine"), label


def test_a_twin_planar_fabric_says_each_plane_has_every_port() -> None:
    """28 GB300 NVL72 on Spectrum-X: each 800G port split 2 x 400G, so each plane's edge has
    all 2,016 ports at 400G (it was drawn 1,008, half the bandwidth)."""
    d = _design({"platform": "gb300-nvl72", "nodes": 28})
    f = d.fabrics.compute
    assert f is not None
    assert f.plane_split
    lay = diagram.layout(d)
    assert lay.title.endswith("(each 800 Gb/s node port split 2 x 400 Gb/s)"), lay.title
    edge = next(e for e in lay.edges if e.src == "su1_p2")
    assert edge.label == "2,016 x 400 Gb/s"


def test_the_drawio_file_tells_the_planes_apart() -> None:
    """The editable export drew every box in one grey: plane 1 and plane 2 looked alike."""
    d = _design({"platform": "gb300-nvl72", "nodes": 16})
    root = ET.fromstring(diagram.drawio_xml(d))
    styles = {c.get("id"): c.get("style") or "" for c in root.findall(".//mxCell")}
    lay = diagram.layout(d)
    for b in lay.boxes:
        if "_p" in b.id:
            assert f"strokeColor={b.stroke};" in styles[b.id]
    assert styles["su1_p1"] != styles["su1_p2"]


def test_an_oob_box_says_how_many_switches_the_racks_hold() -> None:
    """GB200 NVL72: 71 SN2201 in all, 64 of them inside the racks (listed, not ordered) and 7
    ordered; the box said only '71 x SN2201' against the BOM's orderable 7."""
    d = _design({"platform": "gb200-nvl72", "nodes": 32})
    oob = d.fabrics.oob
    assert oob is not None
    assert oob.in_rack_switches == 64
    label = diagram.layout(d).box("oob").label
    assert f"{oob.total_switches} x SN2201\n(64 in the compute racks)" in label


def test_an_oob_box_counts_the_in_rack_switches_ports() -> None:
    """GB300 NVL72, 16 racks (issue 37): the box counted only the access switches' host ports and
    left out the 32 in-rack switches'. Each rack's 18 compute trays, 9 NVLink switch trays and 8
    power shelves (catalog gb300-nvl72, included parts) take one port each on its in-rack pair."""
    d = _design({"platform": "gb300-nvl72", "nodes": 16})
    oob = d.fabrics.oob
    assert oob is not None
    assert oob.in_rack_switches == 32
    trays = 16 * (18 + 9 + 8)
    label = diagram.layout(d).box("oob").label
    assert f"{oob.host_ports + trays:,} host ports at 1 Gb/s: {trays:,} trays'" in label
    assert f"{oob.host_ports:,} on the access switches" in label


def test_a_switch_pair_shows_the_links_joining_it() -> None:
    """3 DGX B200: a QM9700 pair with no spine; its 12 inter-switch links were not drawn."""
    d = _design({"platform": "dgx-b200", "nodes": 3})
    f = d.fabrics.compute
    assert f is not None
    assert f.tiers == 1
    assert f.inter_switch_links == 12
    label = diagram.layout(d).box("su1_p1").label
    assert label.endswith("\njoined by 12 inter-switch links"), label


def test_a_device_keeps_its_own_role_in_another_types_rack() -> None:
    """127 DGX H100: the BCM servers, UFMs and two storage appliances share network-05; the
    NetBox import gave them the rack's role, 'network'."""
    import csv
    import io

    d = _design({"platform": "dgx-h100", "nodes": 127})
    rows = list(csv.DictReader(io.StringIO(rackplan.rack_plan_csv(d))))
    roles = {r["device_type"]: r["role"] for r in rows}
    kinds = {g.name: g.kind for g in d.inventory.groups} if d.inventory else {}
    expected = {"management-server": "management", "fabric-manager": "management"}
    expected |= {"storage": "storage", "switch": "network", "compute": "compute"}
    for name, kind in kinds.items():
        if kind.value in expected and name in roles:
            assert roles[name] == expected[kind.value], name
    assert set(roles.values()) >= {"management", "storage", "network", "compute"}
    gb200 = _design({"platform": "gb200-nvl72", "nodes": 8})
    rows = list(csv.DictReader(io.StringIO(rackplan.rack_plan_csv(gb200))))
    in_rack = [r for r in rows if r["rack"] == "compute-001" and r["name"].startswith("oob-")]
    assert in_rack
    assert {r["role"] for r in in_rack} == {"network"}  # an SN2201 in a compute rack


def test_three_tier_spines_are_drawn_as_their_groups() -> None:
    """GB200 4 SU: 96 spines are 16 spine-leaf groups of 6 under the core, not one pool."""
    d = _design({"platform": "gb200-nvl72", "nodes": 32})
    f = d.fabrics.compute
    assert f is not None
    assert (f.tiers, f.pods, f.spines_per_pod) == (3, 16, 6)
    label = diagram.layout(d).box("spine").label
    assert label == "96 x QM9700 spine switches in 16 groups of 6"


def test_each_planes_spines_are_drawn_apart() -> None:
    """A dual-plane B300 fabric drew both planes' spines as one box: each plane is a fabric of
    its own, so each has its spine box, in its plane's colour, joined to its own leaves only;
    the page-width picture keeps them apart too."""
    from clustergen.engine.report.pictures.page_topology import page_layout

    d = _design({"platform": "dgx-b300", "gpus": 512})
    f = d.fabrics.compute
    assert f is not None
    assert (f.planes, f.tiers) == (2, 2)
    lay = diagram.layout(d)
    spines = [b for b in lay.boxes if b.id.startswith("spine")]
    assert [b.id for b in spines] == ["spine_p1", "spine_p2"]
    assert sum(_count(b.label.split(": ")[1]) for b in spines) == f.spine_switches
    assert spines[0].stroke != spines[1].stroke
    for k, b in enumerate(spines, start=1):
        assert b.label.startswith(f"plane {k}: ")
        ends = {e.dst for e in lay.edges if e.src == b.id}
        assert ends == {f"su1_p{k}"}
        assert b.stroke == lay.box(f"su1_p{k}").stroke
    page = {b.id: b for b in page_layout(d).boxes}
    one, two = page["spine_p1"], page["spine_p2"]
    assert one.x + one.w < two.x  # side by side, not overlapping
    single = diagram.layout(_design({"platform": "dgx-h100", "nodes": 64}))
    assert [b.id for b in single.boxes if b.id.startswith("spine")] == ["spine"]


def test_an_expansion_labels_the_standing_leaves_and_the_reused_storage() -> None:
    d = _design({"platform": "dgx-h100", "nodes": 4, "existing_nodes": 4})
    labels = " | ".join(b.label for b in diagram.layout(d).boxes)
    assert "2 x QM9700 leaves standing, 0 added" in labels
    assert "the existing installation's (reused, not quoted)" in labels
    assert "0 x QM9700" not in labels


def test_the_storage_box_quotes_the_targets_as_the_terminal_does() -> None:
    """It read 'write 22 GB/s' where the terminal and memo said 22.5 GB/s (whole GB/s, rounded
    half to even)."""
    from clustergen.engine.report.pictures.topology import mermaid
    from clustergen.engine.request import parse_request
    from clustergen.units import bandwidth

    text = "Expand our GB200 NVL72 deployment of 4 racks by 4 more racks, 1.5 MW limit"
    d = plan_design(CATALOG, parse_request(CATALOG, text))
    t = d.storage.targets
    assert bandwidth(t.write_gb_per_s) == "22.5 GB/s"
    (box,) = [b for b in diagram.layout(d).boxes if b.id == "ssys"]
    assert f"read {bandwidth(t.read_gb_per_s)}, write {bandwidth(t.write_gb_per_s)}" in box.label
    assert f"write {bandwidth(t.write_gb_per_s)}" in mermaid(d)


def test_an_expansion_names_the_model_of_the_spines_it_orders() -> None:
    """'expand our 32-node DGX H100 SuperPOD by 16 nodes' drew '4 x ? spine switches standing,
    4 added' (topology.png and topology.mmd) while its BOM orders 4 QM9700 spines."""
    from clustergen.engine.report.pictures.topology import mermaid
    from clustergen.engine.request import merge_request

    text = "expand our 32-node DGX H100 SuperPOD by 16 nodes, we have 600 kW left"
    d = plan_design(CATALOG, merge_request(CATALOG, text, {}))
    ordered = {ln.part for ln in d.bom if ln.description.endswith("compute fabric spine")}
    assert ordered == {"qm9700"}
    spines = [b.label for b in diagram.layout(d).boxes if "spine" in b.label]
    assert spines
    for label in spines:
        assert "?" not in label
        assert "QM9700" in label
    assert "?" not in mermaid(d)
