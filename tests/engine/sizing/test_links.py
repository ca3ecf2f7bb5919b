"""Every link of every platform's design has both ends and its cable on the BOM: link counts match
the fabrics, transceivers at each end match the fabric's count, media and cage forms agree, and
no orderable line buys a part that comes inside a system."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.design import Design, LinkGroup
from clustergen.engine.report.files import rackplan
from clustergen.engine.search.planner import plan_design
from clustergen.engine.search.proposal import request_from_fields
from clustergen.engine.sizing.fabric import VENDOR_MEDIA
from clustergen.engine.sizing.fabric.host_optics import fits_cage
from clustergen.engine.sizing.links import is_copper, management_links
from support.bom_lines import ends_to_choose
from support.issue_designs import NAMED, PLATFORMS

CATALOG = load_catalog()
CASES = NAMED + [{"platform": p, "nodes": 64} for p in PLATFORMS]


def design(fields: dict[str, object]) -> Design:
    return plan_design(CATALOG, request_from_fields(CATALOG, fields))


@pytest.fixture(scope="module", params=CASES, ids=lambda f: "-".join(map(str, f.values())))
def d(request: pytest.FixtureRequest) -> Design:
    return design(request.param)


def test_every_fabric_link_is_in_a_link_group(d: Design) -> None:
    for name, f in (("compute", d.fabrics.compute), ("storage", d.fabrics.storage)):
        if f is None:
            continue
        groups = [g for g in d.links if g.fabric == name]
        for c in f.cables:
            got = sum(g.links for g in groups if g.segment == c.segment)
            assert got == c.count, (name, c.segment)
            for g in groups:
                if g.segment != c.segment:
                    continue
                # an ordered end among the storage vendor's (a management server) is optical
                vendor = c.media == VENDOR_MEDIA and g.cable_supply == "order"
                assert g.media == ("optical" if vendor else c.media), g


def test_switch_and_node_transceivers_match_the_fabric(d: Design) -> None:
    for name, f in (("compute", d.fabrics.compute), ("storage", d.fabrics.storage)):
        if f is None:
            continue
        groups = [g for g in d.links if g.fabric == name]
        counted: Counter[str] = Counter()
        for t in f.transceivers:
            optic = CATALOG.optic(t.optic) if t.optic else None
            if optic is None or optic.kind == "transceiver":
                counted[t.location] += t.count  # an active cable's ends: its cable line
        for location, count in counted.items():
            ends = [
                end
                for g in groups
                for end in (g.a, g.b)
                if _location(g.segment, end.device, location, g.fabric)
            ]
            # a splitter cable's switch ends stand in for modules the fabric counted there
            replaced = sum(
                g.replaced_switch_transceivers or 0
                for g in groups
                if _location(g.segment, g.b.device, location, g.fabric)
            )
            assert sum(e.transceivers for e in ends) + replaced == count, (name, location)


def _location(segment: str, device: str, location: str, fabric: str) -> bool:
    if location in ("leaf", "spine", "core"):
        return device.endswith(f" {location}")
    if location == "node":
        return fabric == "compute" and segment == "node-leaf" and not device.endswith(" leaf")
    return segment == "fabric-manager-leaf" and not device.endswith(" leaf")


def test_bom_has_each_end_and_the_cable_of_every_link(d: Design) -> None:
    placeholders = [ln for ln in d.bom if ln.category == "cable" and ln.part is None]
    unsettled = [g for g in d.links if g.cable is None and g.cable_supply == "order"]
    assert sum(ln.quantity for ln in placeholders if ln.placeholder) == sum(
        g.links for g in unsettled
    )
    cables = sum(ln.quantity for ln in d.bom if ln.category == "cable")
    assert cables == sum(-(-g.links // g.links_per_cable) for g in d.links)
    xcvrs = sum(ln.quantity for ln in d.bom if ln.category == "transceiver")
    assert xcvrs == sum(g.a.transceivers + g.b.transceivers for g in d.links)
    for g in d.links:
        if g.a.transceivers == 0 and g.b.transceivers == 0 and not is_copper(g.media):
            # an optical link without transceivers is an active cable or the vendor's
            # (or no catalog part fits: then the BOM line is a placeholder saying so)
            cable = CATALOG.optic(g.cable) if g.cable else None
            assert g.cable_supply != "order" or cable is None or cable.kind in ("aoc", "acc")


def test_an_active_cable_link_has_no_transceiver_at_either_end(d: Design) -> None:
    """An AOC or ACC has its optics built in: no module at either end, on any fabric."""
    for g in d.links:
        if g.cable and CATALOG.optic(g.cable).kind in ("aoc", "acc"):
            assert (g.a.transceivers, g.b.transceivers) == (0, 0), g
            assert (g.a.transceiver, g.b.transceiver) == (None, None), g


def test_media_agree_between_links_and_cables(d: Design) -> None:
    for g in d.links:
        if g.cable is None:
            continue
        cable = CATALOG.optic(g.cable)
        if is_copper(g.media):
            assert cable.media == "copper", g
        else:
            assert cable.kind in ("fiber", "aoc"), g
            end = g.a.transceiver or g.b.transceiver
            if cable.kind == "fiber" and end:
                assert cable.media == CATALOG.optic(end).media, g


def test_host_transceivers_fit_the_adapter_cage(d: Design) -> None:
    system = CATALOG.system(d.platform.system)
    cages = {
        system.name: {g.cage_form for g in (system.compute, system.storage) if g and g.cage_form}
    }
    for g in d.links:
        end = g.a
        if end.transceiver is None or end.device not in cages:
            continue
        optic = CATALOG.optic(end.transceiver)
        forms = cages[end.device]
        assert not forms or any(fits_cage(optic, form) for form in forms), (end, forms)


def test_no_orderable_line_buys_an_included_part(d: Design) -> None:
    included = {ln.part for ln in d.bom if ln.status.startswith("included") and ln.part}
    ordered = {ln.part for ln in d.bom if ln.status == "order" and ln.part}
    assert not included & ordered
    for ln in d.bom:
        assert (ln.order_quantity is None) == (ln.status != "order")
        if ln.status != "order":
            assert ln.total_price_usd is None


def test_hgx_node_optic_is_the_osfp_part() -> None:
    """The HGX B200's ConnectX-7 is single-port OSFP: its optic is the OSFP module, not QSFP112."""
    d = design({"platform": "hgx-b200", "nodes": 64})
    node = next(t for t in d.fabrics.compute.transceivers if t.location == "node")  # type: ignore[union-attr]
    assert node.optic == "mma4z00-ns400"


def test_storage_isl_is_copper_on_the_bom_too() -> None:
    d = design({"gpus": 512, "power_cap_w": 5e6, "workload": "training"})
    isl = [g for g in d.links if g.segment == "inter-switch"]
    assert isl
    assert all(CATALOG.optic(g.cable).kind == "dac" for g in isl if g.cable)
    counts = Counter(ln.category for ln in d.bom)
    assert counts["cable"] >= 4


def test_h100_ra_table_8_transceiver_counts() -> None:
    """DGX SuperPOD H100 RA (RA-11333-001 V11) Table 8, 127 DGX H100 and 4 UFM: "508 x system
    OSFP transceivers in the DGX H100 systems, 980-9I51A-00NS00", "254 x DGX system transceivers
    (QSFP112), 980-9I693-00NS00" (storage fabric), "UFM system transceivers, UFM to leaf,
    980-9I51S-00NS00"."""
    d = design({"platform": "dgx-h100", "nodes": 127})
    by_opn: Counter[str] = Counter()
    for ln in d.bom:
        if ln.category == "transceiver" and ln.opn:
            by_opn[ln.opn] += ln.quantity
    assert by_opn["980-9I51A-00NS00"] == 508
    assert by_opn["980-9I693-00NS00"] == 254
    assert by_opn["980-9I51S-00NS00"] >= 4
    ufm = next(g for g in d.links if g.segment == "fabric-manager-leaf")
    assert ufm.a.transceiver == "mma4z00-ns400"
    assert ufm.a.transceivers == 4


def test_h100_ra_table_8_inband_cables_are_qsfp56_aocs() -> None:
    """DGX SuperPOD H100 RA (RA-11333-001 V11) Table 8: "254 x 200 Gbps QSFP56 AOC, DGX H100
    system, 980-9I440-00H030" into the QSFP112 ConnectX-7 in-band ports (the port group's
    cage_accepts), with no transceiver at either end."""
    d = design({"platform": "dgx-h100", "nodes": 127})
    inband = next(g for g in d.links if g.fabric == d.fabrics.inband.name)
    assert inband.cable == "aoc-200g-qsfp56"
    assert inband.a.transceivers == inband.b.transceivers == 0
    line = next(ln for ln in d.bom if ln.part == "aoc-200g-qsfp56")
    assert line.opn == "980-9I440-00H030"
    assert line.quantity >= 254
    assert not line.placeholder


def test_a_cage_takes_another_form_only_where_the_catalog_says_so() -> None:
    aoc = CATALOG.optic("aoc-200g-qsfp56")
    assert not fits_cage(aoc, "QSFP112")
    assert fits_cage(aoc, "QSFP112", ["QSFP56"])
    assert fits_cage(aoc, "qsfp56")
    assert not fits_cage(aoc, "OSFP", ["QSFP112"])


def test_a_bluefield_port_at_200g_takes_a_qsfp112_module_on_a_splitter_fiber() -> None:
    """GB200 NVL72: each BlueField-3 400G QSFP112 port runs 2 x 200GbE (NCP reference guide);
    the QSFP112 SR4 in its 200G mode on a 1:2 splitter fiber (MMA1Z00-NS400-T overview), one
    fiber for two links. No end of the nodes' north-south links is left to choose."""
    d = design({"platform": "gb200-nvl72", "nodes": 8})
    nodes = next(g for g in d.links if g.fabric == "storage" and g.a.device == d.platform.name)
    assert nodes.a.transceiver == "mma1z00-ns400"
    assert nodes.a.transceivers == nodes.links
    assert nodes.cable == "fiber-mpo-mm-split"
    assert nodes.links_per_cable == 2
    line = next(ln for ln in d.bom if ln.part == "fiber-mpo-mm-split" and "576" in ln.description)
    assert line.quantity == nodes.links // 2


def _server_ends(d: Design) -> list[LinkGroup]:
    assert d.servers.management_server
    name = CATALOG.system(d.servers.management_server).name
    return [g for g in d.links if g.a.device == name and g.a.transceivers]


def test_a_control_plane_node_end_takes_a_module_for_its_card() -> None:
    """The SuperPOD control-plane nodes carry one dual-port BlueField-3 (DGX SuperPOD RA,
    Management Servers): their 200G north-south ends take the QSFP112 module, and the card is
    listed as bought inside the servers. No end of a GB200 design is left to choose."""
    d = design({"platform": "gb200-nvl72", "nodes": 8})
    assert d.servers.management_server == "superpod-control-plane-node"
    servers = _server_ends(d)
    assert servers
    assert all(g.a.transceiver == "mma1z00-ns400" for g in servers)
    assert all("BlueField-3" in g.a.port for g in servers)
    card = next(ln for ln in d.bom if ln.part == "bluefield-3-b3220")
    assert card.quantity == d.servers.management_servers
    assert card.status.startswith("included in Control-plane node")
    assert not [ln for ln in d.bom if ln.category == "transceiver" and ln.placeholder]


def test_the_h100_ra_management_servers_keep_their_own_spec() -> None:
    """The H100 RA's BCM servers (Table 7, HDR200 VPI ports) are not the newer control-plane
    node: an architecture names its server, the rest take the first in the catalog."""
    d = design({"platform": "dgx-h100", "nodes": 127})
    assert d.servers.management_server == "bcm-head-node"
    assert not [ln for ln in d.bom if ln.part == "bluefield-3-b3220"]


def test_a_host_of_unknown_cage_gets_no_guessed_module() -> None:
    """A management server whose adapter cage the catalog does not know: its transceiver is one
    to choose (flagged), never a module picked for another cage."""
    server = CATALOG.system("superpod-control-plane-node")
    assert server.storage is not None
    blind = server.model_copy(
        update={"storage": server.storage.model_copy(update={"cage_form": None})}
    )
    entries = {stem: dict(rows) for stem, rows in CATALOG.entries.items()}
    entries["systems"][server.id] = blind
    catalog = dataclasses.replace(CATALOG, entries=entries, hash="blind-control-plane-cage")
    d = plan_design(catalog, request_from_fields(catalog, {"platform": "gb200-nvl72", "nodes": 8}))
    servers = _server_ends(d)
    assert servers
    assert all(g.a.transceiver is None for g in servers)
    flagged = [ln for ln in d.bom if ln.category == "transceiver" and server.name in ln.description]
    assert flagged
    assert all(ln.placeholder for ln in flagged)


def test_a_switch_inside_the_rack_is_not_ordered_again(d: Design) -> None:
    """The NVL72 rack ships its two in-rack SN2201 management switches (DGX GB200 user guide:
    "2x TOR Switches for management"; Enterprise RA NVL72: "2 SN2201 OOB switches"): the
    orderable switch lines buy only the ones outside the racks."""
    system = CATALOG.system(d.platform.system)
    for net in (d.fabrics.inband, d.fabrics.oob):
        if net is None:
            continue
        inside = d.compute.nodes * sum(p.count for p in system.included if p.part == net.switch)
        inside = min(inside, net.in_rack_switches)
        ordered = sum(
            ln.quantity
            for ln in d.bom
            if ln.part == net.switch and ln.status == "order" and net.name in ln.description
        )
        assert ordered == net.total_switches - inside, net.name
        if inside:
            listed = [
                ln
                for ln in d.bom
                if ln.status.startswith("included") and "SN2201" in ln.description
            ]
            assert sum(ln.quantity for ln in listed) == inside


def test_the_compute_rack_on_the_bom_is_the_one_drawn(d: Design) -> None:
    """Rack height and cooling agree between the BOM's compute-rack line, the catalog rack it
    names and the rack elevations (a 52U catalog rack is never sold for a 48U plan)."""
    line = next(ln for ln in d.bom if ln.category == "rack" and "compute rack" in ln.description)
    height = int(line.description.split("U ", 1)[0])
    drawn = {r.height_u for r in rackplan.rack_plan(d) if r.role == "compute"}
    assert drawn == {height}
    assert f"{d.racks.compute.cooling}-cooled" in line.description
    if line.part:
        assert CATALOG.rack(line.part).rack_units == height


def test_a_bluefield_inband_port_on_spectrum4_takes_modules_and_splitter_fiber() -> None:
    """DGX B200: the BlueField-3 in-band port is QSFP112 at 200 Gb/s and the SN5600 has OSFP
    cages; no AOC joins them. NVIDIA's MMA1Z00-NS400-T overview gives the link: the QSFP112
    SR4 in its 200G mode, a 1:2 splitter fiber (MFP7E20), a twin-port OSFP (MMA4Z00-NS) in the
    Spectrum-4 switch serving four such ports. No in-band line is left to choose."""
    d = design({"platform": "dgx-b200", "nodes": 32})
    g = next(g for g in d.links if g.fabric == "in-band management")
    assert (g.a.transceiver, g.cable, g.b.transceiver) == (
        "mma1z00-ns400",
        "fiber-mpo-mm-split",
        "mma4z00-ns",
    )
    assert g.a.transceivers == g.links
    assert g.b.transceivers == -(-g.links // 4)
    assert g.links_per_cable == 2
    lines = [ln for ln in d.bom if "in-band management" in ln.description]
    assert not [ln for ln in lines if ln.placeholder]
    cables = [ln for ln in lines if ln.category == "cable" and ln.part == "fiber-mpo-mm-split"]
    # the nodes' and the control plane's in-band links (each group's own cables)
    split = [x for x in d.links if x.fabric == g.fabric and x.cable == "fiber-mpo-mm-split"]
    assert sum(ln.quantity for ln in cables) == sum(-(-x.links // 2) for x in split)


def test_an_unsettled_inband_cable_says_what_it_must_join() -> None:
    """Without the splitter fiber in the catalog the B200's in-band cable stays a flagged
    placeholder that names both ends, and the link claims no cable type (AOC) nobody chose."""
    entries = {stem: dict(rows) for stem, rows in CATALOG.entries.items()}
    del entries["optics"]["fiber-mpo-mm-split"]
    catalog = dataclasses.replace(CATALOG, entries=entries, hash="no-splitter-fiber")
    d = plan_design(catalog, request_from_fields(catalog, {"platform": "dgx-b200", "nodes": 32}))
    g = next(g for g in d.links if g.fabric == "in-band management")
    assert g.cable is None
    assert "AOC" not in g.media
    line = next(ln for ln in d.bom if ln.category == "cable" and "in-band" in ln.description)
    assert line.placeholder
    assert "QSFP112" in line.source
    assert "OSFP cage" in line.source


def test_bcm_servers_hdr200_ports_take_the_ndr_to_hdr_splitter_cable() -> None:
    """H100 RA (RA-11333-001 V11) Table 8, storage fabric: "4 x HDR 400 Gbps to 2x200 Gbps,
    Slurm management". The 4 BCM servers' 8 HDR200 QSFP56 ports (Table 7) share the
    storage-leaf segment with the appliances; an NDR switch module cannot link to HDR, so each
    pair of ports is one twin-port OSFP to 2x QSFP56 splitter cable: 4 cables, no transceiver
    at either end, and no "to choose" line left on the BOM."""
    d = design({"platform": "dgx-h100", "nodes": 127})
    g = next(g for g in d.links if g.fabric == "storage" and "BCM" in g.a.device)
    assert g.links == 8
    assert g.cable_supply == "order"
    assert g.media == "optical"
    assert g.cable == "mfa7u10-h"
    assert g.links_per_cable == 2
    assert (g.a.transceivers, g.b.transceivers) == (0, 0)
    assert (g.a.transceiver, g.b.transceiver) == (None, None)
    assert g.replaced_switch_transceivers == 4  # the twin-port modules the leaf no longer takes
    cable = next(ln for ln in d.bom if ln.category == "cable" and ln.part == "mfa7u10-h")
    assert cable.quantity == 4
    assert not [ln for ln in d.bom if "to choose" in ln.description]
    assert not [ln for ln in d.bom if ln.placeholder and "BCM" in ln.description]


def test_without_the_splitter_cable_the_bcm_link_stays_a_flagged_choice() -> None:
    """The splitter is the catalog's, not the BCM server's: without it the servers' links are
    ordered fiber and their module, which no catalog part fits, a flagged line that says so."""
    entries = {stem: dict(rows) for stem, rows in CATALOG.entries.items()}
    del entries["optics"]["mfa7u10-h"]
    catalog = dataclasses.replace(CATALOG, entries=entries, hash="no-hdr-splitter")
    d = plan_design(catalog, request_from_fields(catalog, {"platform": "dgx-h100", "nodes": 127}))
    g = next(g for g in d.links if g.fabric == "storage" and "BCM" in g.a.device)
    assert g.cable is not None
    assert CATALOG.optic(g.cable).kind == "fiber"
    assert g.replaced_switch_transceivers is None
    line = next(ln for ln in d.bom if ln.category == "transceiver" and "BCM" in ln.description)
    assert line.placeholder
    assert "card not in the catalog" in line.description


def test_a_management_networks_links_are_resolved_once_and_as_afresh() -> None:
    """The power section and the link list ask for the same management links: one answer per
    catalog, the same as resolved on a catalog of its own."""
    d = design({"gpus": 1016, "platform": "dgx-h100", "fabric": "infiniband"})
    net = d.fabrics.inband
    assert net is not None
    node = CATALOG.system("dgx-h100").inband
    shared = dataclasses.replace(load_catalog(), hash="links-shared")
    hosts = ("node",)  # the servers have in-band ports of their own
    first = management_links(shared, net, node, hosts)
    assert management_links(shared, net, node, hosts) is first
    fresh = dataclasses.replace(load_catalog(), hash="links-fresh")
    assert management_links(fresh, net, node, hosts) == first
    assert first.contract() in d.links  # the engine's record, as the design states it
    # the power section's answer is the same links, their ends' device groups apart
    bare = management_links(shared, net, node)
    assert not bare.a.groups
    assert (bare.links, bare.cable) == (first.links, first.cable)


@pytest.mark.parametrize("fields", NAMED, ids=lambda f: str(f.get("platform", "readme")))
def test_no_link_end_of_the_issues_designs_is_left_to_choose(fields: dict[str, object]) -> None:
    """Issue #25's six designs: every ordered link end and cable resolves to a catalog part."""
    d = plan_design(CATALOG, request_from_fields(CATALOG, fields))
    assert ends_to_choose(d) == []


@pytest.mark.parametrize("platform", PLATFORMS)
def test_no_platform_leaves_a_management_server_link_end_to_choose(platform: str) -> None:
    """The control plane's storage links on every platform's design: the card's cage meets the
    fabric's optics (the H100-era HDR200 card on its splitter, the BlueField-3 elsewhere)."""
    d = plan_design(CATALOG, request_from_fields(CATALOG, {"platform": platform, "nodes": 16}))
    assert not [t for t in ends_to_choose(d) if "server" in t.lower()]
