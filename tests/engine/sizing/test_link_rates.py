"""Every link of every platform's design runs at a rate both of its ends have, takes modules
that fit the cage at each end, buys ceil(hosts / hosts per module) modules where a module or a
cable carries several hosts, and the design's power counts every powered BOM line or says its
total is a lower bound (issue 25, "Every link has both ends" and "Form factors agree")."""

from __future__ import annotations

import math

import pytest

from clustergen.catalog import load_catalog
from clustergen.catalog.models import Optic, PortGroup
from clustergen.engine.model.design import Design, LinkGroup, ManagementNetwork
from clustergen.engine.model.fabric import FabricDesign
from clustergen.engine.model.links import LinkEnd
from clustergen.engine.search.planner import plan_design
from clustergen.engine.search.proposal import request_from_fields
from clustergen.engine.sizing.bom import STORAGE_VENDOR
from clustergen.engine.sizing.fabric.host_optics import accepted_forms, fits_cage
from clustergen.engine.sizing.links import link_rate
from support.issue_designs import NAMED, PLATFORMS

CATALOG = load_catalog()
CASES = NAMED + [{"platform": p, "nodes": n} for p in PLATFORMS for n in (16, 64)]
#: parts that draw no power of their own (passive fibre and copper)
PASSIVE = ("fiber", "dac", "copper")


def design(fields: dict[str, object]) -> Design:
    return plan_design(CATALOG, request_from_fields(CATALOG, fields))


@pytest.fixture(scope="module", params=CASES, ids=lambda f: "-".join(map(str, f.values())))
def d(request: pytest.FixtureRequest) -> Design:
    return design(request.param)


def _fabric(d: Design, g: LinkGroup) -> FabricDesign | None:
    return {"compute": d.fabrics.compute, "storage": d.fabrics.storage}.get(g.fabric)


def _switch_of(d: Design, g: LinkGroup, end: LinkEnd) -> str | None:
    """The catalog switch at a link end, or None where the end is not a switch."""
    f = _fabric(d, g)
    if f is not None:
        tiers = {"leaf": f.leaf_switch, "spine": f.spine_switch, "core": f.core_switch}
        return tiers.get(end.device.rsplit(" ", 1)[-1])
    net = {"in-band management": d.fabrics.inband, "out-of-band management": d.fabrics.oob}
    m = net.get(g.fabric)
    if g.segment == "uplink":  # an access switch's uplink lands on the in-band network's switch
        return _inband_switch(d) if end is g.b else None
    return m.switch if m is not None and end is g.b else None


def _inband_switch(d: Design) -> str | None:
    role = next(r for r in d.fabrics.networks if r.network == "in-band management")
    carrier = {"inband": d.fabrics.inband, "storage": d.fabrics.storage}.get(role.carried_by)
    if carrier is None:
        return None
    return carrier.switch if isinstance(carrier, ManagementNetwork) else carrier.leaf_switch


def _host_group(d: Design, g: LinkGroup) -> PortGroup | None:
    """The port group behind a link's host end, where the catalog names it."""
    system = CATALOG.system(d.platform.system)
    by_fabric = {
        "compute": system.compute,
        "storage": system.storage,
        "in-band management": system.inband,
    }
    if g.a.device == system.name:
        return by_fabric.get(g.fabric)
    mgmt = d.servers.management_server
    if mgmt and g.a.device == CATALOG.system(mgmt).name and g.fabric == "storage":
        return CATALOG.system(mgmt).storage
    return None


def test_every_link_runs_at_a_rate_both_ends_have(d: Design) -> None:
    for g in d.links:
        host = _host_group(d, g)
        if host is not None and host.port_speed_gbps:
            assert g.speed_gbps <= host.port_speed_gbps, g
        if g.a.supply == "storage vendor":  # a storage appliance's port
            assert g.speed_gbps <= d.storage.port_speed_gbps, g
        sid = _switch_of(d, g, g.b)
        if sid is not None:
            sw = CATALOG.switch(sid)
            assert g.speed_gbps <= max([sw.port_speed_gbps, *(b.speed_gbps for b in sw.breakouts)])
        f = _fabric(d, g)
        if f is not None:
            assert g.speed_gbps <= max(f.port_speed_gbps, f.plane_port_speed_gbps), g


def test_a_north_south_node_link_runs_at_the_node_port_rate(d: Design) -> None:
    system = CATALOG.system(d.platform.system)
    group = system.storage
    f = d.fabrics.storage
    if f is None or group is None:
        pytest.skip("no storage fabric or no north-south port group")
    for g in d.links:
        if g.fabric == "storage" and g.a.device == system.name:
            assert g.speed_gbps == link_rate(f.port_speed_gbps, group), g


def _fits(optic: Optic, cage: str | None, accepts: tuple[str, ...] | list[str] = ()) -> bool:
    return fits_cage(optic, cage, accepts)


def test_transceivers_and_active_cables_fit_the_cage_at_each_end(d: Design) -> None:
    """A host end's module or active cable is of its cage's form or one the catalog documents
    the cage to take (cages.yaml: a QSFP112 cage takes QSFP56 and QSFP28 parts)."""
    system = CATALOG.system(d.platform.system)
    for g in d.links:
        host = _host_group(d, g)
        sid = _switch_of(d, g, g.b)
        sw = CATALOG.switch(sid) if sid else None
        if g.a.transceiver and host is not None:
            accepts = accepted_forms(CATALOG, host)
            assert _fits(CATALOG.optic(g.a.transceiver), host.cage_form, accepts), g
        if g.b.transceiver and sw is not None:
            # a switch cage takes the forms cages.yaml documents for it (QSFP28: SFP, adapted)
            cage = PortGroup(ports=1, port_speed_gbps=sw.port_speed_gbps, cage_form=sw.cage_form)
            accepts = accepted_forms(CATALOG, cage) if sw.cage_form else ()
            assert _fits(CATALOG.optic(g.b.transceiver), sw.cage_form, accepts), g
        cable = CATALOG.optic(g.cable) if g.cable else None
        if cable is not None and cable.kind in ("aoc", "acc"):
            node = system.inband if "management" in g.fabric else host
            if node is not None:
                assert _fits(cable, node.cage_form, accepted_forms(CATALOG, node)), g


def test_modules_and_cables_carrying_several_hosts_are_ceil_hosts_over_hosts_each(
    d: Design,
) -> None:
    for g in d.links:
        f = _fabric(d, g)
        host_end_counted_by_fabric = f is not None and g.a.unit_power_w is not None
        if g.a.transceiver and g.a.supply == "order" and not host_end_counted_by_fabric:
            assert g.a.transceivers == math.ceil(g.links / g.a.ports_per_transceiver), g
        if f is None and g.b.transceiver:  # a management network's switch modules
            assert g.b.transceivers == math.ceil(g.links / g.b.ports_per_transceiver), g
        if g.cable and g.cable_supply == "order":
            n = math.ceil(g.links / g.links_per_cable)
            lines = [
                ln
                for ln in d.bom
                if ln.category == "cable" and ln.part == g.cable and g.fabric in ln.description
            ]
            assert any(ln.quantity == n for ln in lines), (g, [ln.quantity for ln in lines])


def test_a_splitter_fibre_lands_on_a_switch_port_broken_out_to_the_host_rate(d: Design) -> None:
    for g in d.links:
        if g.cable is None or CATALOG.optic(g.cable).ports == 1:
            continue
        cable = CATALOG.optic(g.cable)
        if cable.kind != "fiber":
            continue
        assert cable.port_speed_gbps == g.speed_gbps, g
        sid = _switch_of(d, g, g.b)
        if sid is not None:
            sw = CATALOG.switch(sid)
            assert sw.radix_at(g.speed_gbps) is not None, (g, sid)


def _powered(part: str | None) -> tuple[bool, float | None] | None:
    """(draws power, catalog watts) of a BOM part; None when the part is not a catalog entry."""
    if part is None:
        return None
    for stem, getter in (
        ("optics", CATALOG.optic),
        ("switches", CATALOG.switch),
        ("systems", CATALOG.system),
    ):
        if part in CATALOG.entries.get(stem, {}):
            entry = getter(part)
            if isinstance(entry, Optic):
                return entry.kind not in PASSIVE and entry.media != "copper", entry.power_w
            watts = getattr(entry, "typical_power_w", None) or getattr(entry, "max_power_w", None)
            return True, watts
    return None


def test_power_counts_every_powered_bom_line_or_says_it_is_a_lower_bound(d: Design) -> None:
    ordered = [ln for ln in d.bom if ln.status == "order"]
    # a storage vendor's switch-end module draws at the switch, as the fabric counts it
    powered = ordered + [ln for ln in d.bom if ln.status == STORAGE_VENDOR]
    counted = sum(ln.total_power_w for ln in powered if ln.total_power_w is not None)
    assert math.isclose(counted, d.power.it_total_w, rel_tol=1e-9), (counted, d.power.it_total_w)
    for ln in ordered:
        if ln.total_power_w is not None or ln.category in ("rack", "pdu"):
            continue
        powered = _powered(ln.part)
        if powered is None or not powered[0]:
            continue
        if "in the host's" in ln.description:
            continue  # a north-south host's module draws from the host's own budget
        assert not d.power.complete, f"{ln.description}: powered, uncounted, total not a bound"
        assert d.power.unknown, ln.description


def test_h100_inband_aoc_switch_ends_are_in_the_management_network_power() -> None:
    """DGX H100: 272 in-band AOCs (H100 RA Table 8 pattern); the switch end of each draws the
    catalog's 5 W per end (a labelled estimate), so the network is its switches plus 1,360 W
    and the design names the estimate."""
    d = design({"platform": "dgx-h100", "nodes": 128})
    g = next(g for g in d.links if g.fabric == "in-band management")
    aoc = CATALOG.optic("aoc-200g-qsfp56")
    assert g.cable == aoc.id
    assert aoc.power_w is not None
    assert g.cable_power_w == g.links * aoc.power_w
    switches = d.fabrics.inband.switch_power_w if d.fabrics.inband else None
    oob = d.fabrics.oob.switch_power_w if d.fabrics.oob else 0.0
    assert switches is not None
    assert oob is not None
    # the OOB switches' uplinks (H100 RA Table 8: 2 per SN2201) draw at both ends, switches both
    up = next(u for u in d.links if u.segment == "uplink")
    uplink = CATALOG.optic("aoc-100g-qsfp28")
    assert up.cable == uplink.id
    assert uplink.power_w is not None
    assert up.cable_power_w == 2 * up.links * uplink.power_w
    # the servers' AOCs, the leaf-core AOCs (both ends the network's), the UFM's BaseT modules
    rest = [
        x.cable_power_w if not x.b.transceivers else x.b.transceivers * (x.b.unit_power_w or 0)
        for x in d.links
        if x.fabric == "in-band management" and x is not g
    ]
    assert all(r is not None for r in rest)
    total = switches + oob + g.cable_power_w + up.cable_power_w + sum(r or 0 for r in rest)
    assert d.power.management_network_w == pytest.approx(total)
    assert any(aoc.name in e for e in d.power.estimated)


def test_b200_inband_switch_modules_are_in_the_management_network_power() -> None:
    d = design({"platform": "dgx-b200", "nodes": 128})
    g = next(g for g in d.links if g.fabric == "in-band management")
    module = CATALOG.optic("mma4z00-ns")
    assert g.b.transceiver == module.id
    assert g.b.unit_power_w == module.power_w
    inband = d.fabrics.inband
    oob = d.fabrics.oob
    assert inband is not None
    assert oob is not None
    expected = (inband.switch_power_w or 0) + (oob.switch_power_w or 0)
    # every in-band host group's switch modules (the nodes' and the control plane's) and the
    # switches' own links (active cables, both ends the network's)
    for x in d.links:
        if x.fabric == "in-band management":
            own = x.b.transceivers * (x.b.unit_power_w or 0) if x.b.transceivers else None
            expected += own if own is not None else (x.cable_power_w or 0)
    assert d.power.management_network_w == pytest.approx(expected)


def test_a_management_module_without_power_makes_the_total_a_lower_bound() -> None:
    """Unknown is never zero: the B200's in-band switch module with its power nulled leaves the
    IT total a named lower bound, not a smaller total stated as complete."""
    import dataclasses

    entries = {s: dict(rows) for s, rows in CATALOG.entries.items()}
    entries["optics"]["mma4z00-ns"] = entries["optics"]["mma4z00-ns"].model_copy(
        update={"power_w": None}
    )
    catalog = dataclasses.replace(CATALOG, entries=entries, hash="null-mma4z00-ns-power")
    d = plan_design(catalog, request_from_fields(catalog, {"platform": "dgx-b200", "nodes": 32}))
    assert not d.power.complete
    assert any("in-band management" in u and "mma4z00-ns" in u for u in d.power.unknown)


def test_a_200g_bluefield_on_a_400g_port_without_a_200g_breakout_runs_200g_one_port_each() -> None:
    """HGX H100 on the Enterprise RA's SN5610 storage leaves: the B3220's 200 GbE port carries
    200 Gb/s (the slower end), its QSFP112 SR4 runs half its lanes, one straight fibre a host (the
    SN5610 lists no 200G breakout, so no splitter and one switch port a host)."""
    d = design({"platform": "hgx-h100", "nodes": 64})
    g = next(g for g in d.links if g.fabric == "storage" and g.a.device.startswith("NVIDIA HGX"))
    assert g.speed_gbps == 200
    assert g.a.transceiver == "mma1z00-ns400"
    assert g.cable == "fiber-mpo-mm"
    assert g.links_per_cable == 1
    network = d.storage.io.workload.storage_network_gb_per_s
    assert network is not None
    assert network <= 64 * 2 * 200 / 8  # the nodes' side at the delivered 200 Gb/s


def test_the_storage_port_check_counts_the_rate_the_ports_deliver() -> None:
    """DGX BasePOD H100: the appliances' 200G ports land on SN4600C 100 GbE storage leaves, so
    they carry 100 Gb/s each, and the read-target check counts that."""
    d = design({"platform": "dgx-h100", "nodes": 16})
    f = d.fabrics.storage
    assert f is not None
    assert f.port_speed_gbps < d.storage.port_speed_gbps
    c = next(c for c in d.checks if c.name == "storage ports carry the read target")
    delivered = d.storage.storage_ports * f.port_speed_gbps / 8
    assert c.figure.startswith(f"{delivered:,.0f} GB/s carried, ")
