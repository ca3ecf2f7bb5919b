"""Power: the IT power a cap leaves, and the design's power per subsystem against it.

An unknown is never counted as zero: every term whose catalog figure is missing is named in
`unknown`, the total is then a lower bound (`complete` False) and no headroom is stated. Terms
resting on a labelled estimate (a catalog `field_sources` entry of kind `estimate`) are named
in `estimated`, so a reader sees which watts are published and which are bounds.
"""

from __future__ import annotations

from typing import NamedTuple

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Entry
from clustergen.engine.model.design import (
    FabricsSection,
    ManagementNetwork,
    PowerSection,
    StorageSection,
)
from clustergen.engine.model.fabric import FabricDesign
from clustergen.engine.model.links import Link
from clustergen.engine.sizing.fabric import known_power_w
from clustergen.engine.sizing.inputs import Inputs
from clustergen.engine.sizing.links import inband_links, is_copper, management_links
from clustergen.engine.sizing.management import Servers, oob_uplinks
from clustergen.engine.sizing.platform import estimate_of


def _servers_w(srv: Servers, unknown: list[str]) -> float:
    """Watts of the fabric managers and management servers whose power the catalog has; each
    server whose power it lacks is named in `unknown` (a lower bound then, as for a fabric)."""
    s = srv.section
    known = 0.0
    for entry, count in (
        (srv.management_server, s.management_servers),
        (srv.fabric_manager, s.fabric_managers),
    ):
        if entry is None or not count:
            continue
        if entry.max_power_w is None:
            unknown.append(f"{entry.name} power (not in the catalog)")
        else:
            known += count * entry.max_power_w
    return known


def _fabric_terms(label: str, f: FabricDesign | None, unknown: list[str]) -> tuple[float, float]:
    """(switches, transceivers) watts a fabric's known parts draw; what is missing is named."""
    if f is None:
        return 0.0, 0.0
    if f.power.switches_w is None:
        unknown.append(f"{label} switch power ({f.leaf_switch} not in the catalog)")
    if f.power.optics_w is None:
        unknown.append(f"{label} transceiver power (a part or its power not in the catalog)")
    return known_power_w(f)


def _splitters_w(label: str, name: str, links: list[Link], unknown: list[str]) -> float:
    """The change splitter cables make to a fabric's optics watts: the switch modules the fabric
    counted for their links come out, the cables' switch ends (an AOC's power per end) go in;
    a splitter whose power the catalog lacks is named in `unknown`, never counted as zero."""
    delta = 0.0
    for g in links:
        if g.fabric != name or g.replaced_switch_transceivers is None:
            continue
        # modules of unknown power were never in the fabric's known watts
        delta -= g.replaced_switch_transceivers * (g.b.unit_power_w or 0.0)
        if g.cable_power_w is None:
            unknown.append(f"{label} splitter cable power ({g.cable} not given)")
        else:
            delta += g.cable_power_w
    return delta


def _storage_w(storage: StorageSection, unknown: list[str]) -> float | None:
    a = storage.appliances
    if a is None and (storage.site_storage or storage.existing):
        # the site's storage, or the customer's own, draws on its own feed: none in this design
        return 0.0
    if a is None:
        unknown.append("storage array power (the array is the storage vendor's to size)")
        return None
    if a.power_w is None:
        unknown.append(f"storage appliance power ({a.appliance} not in the catalog)")
    return a.power_w


def _optics_w(g: Link, unknown: list[str]) -> float:
    """Watts of a management network's optics at its switches: an active cable's switch ends or
    the switch's modules (the host's end is in the host's budget); copper draws none. A part
    whose power is not in the catalog, or an optical cable still to choose, is named in
    `unknown`: the total is then a lower bound, never a zero counted as known."""
    if g.b.transceivers and g.cable is not None:
        # a module at the switch end draws whatever the cable (a BaseT module on RJ45 copper)
        if g.b.unit_power_w is None:
            unknown.append(f"{g.fabric} switch transceiver power ({g.b.transceiver} not given)")
            return 0.0
        return g.b.transceivers * g.b.unit_power_w
    if is_copper(g.media):
        return 0.0
    if g.cable is None:
        unknown.append(f"{g.fabric} optics power (the {g.media} cable is not chosen)")
        return 0.0
    if g.cable_power_w is None:
        unknown.append(f"{g.fabric} active cable power ({g.cable} not given)")
        return 0.0
    return g.cable_power_w


def _management_w(
    nets: list[ManagementNetwork],
    links: list[Link],
    nodes: int,
    inputs: Inputs,
    unknown: list[str],
) -> float:
    """Watts of the management networks: their switches and their switch-end optics."""
    mn_w = 0.0
    for net in nets:
        if net.switch_power_w is None:
            unknown.append(f"{net.name} switch power ({net.switch} not in the catalog)")
        # switches that come inside a rack-scale system draw from its own budget (the NVL72's
        # in-rack SN2201s are busbar-powered: Enterprise RA NVL72, Components)
        inside = min(net.in_rack_switches, nodes * inputs.system.included_count(net.switch))
        share = (net.total_switches - inside) / net.total_switches if net.total_switches else 1.0
        mn_w += (net.switch_power_w or 0.0) * share
    return mn_w + sum(_optics_w(g, unknown) for g in links)


def _estimated(
    catalog: Catalog, switch_ids: set[str], links: list[Link], *entries: Entry | None
) -> set[str]:
    """The power terms of these switches, link groups' optics (a management network's switch
    ends, a fabric's splitter cables) and entries that rest on a labelled estimate."""
    found: list[str | None] = [estimate_of(e, "max_power_w") for e in entries if e is not None]
    for g in links:
        part = g.b.transceiver or (g.cable if g.cable_power_w is not None else None)
        if part and not is_copper(g.media):
            found.append(estimate_of(catalog.optic(part), "power_w"))
    for sid in switch_ids:
        sw = catalog.switch(sid)
        field = "typical_power_w" if sw.typical_power_w is not None else "max_power_w"
        found.append(estimate_of(sw, field))
    return {e for e in found if e}


class PowerTerms(NamedTuple):
    """The power terms of a design but its out-of-band network, which moves with the racks'
    PDUs while the rest holds (`power_terms`; `power_section` adds the network)."""

    compute_w: float
    cf_switches_w: float
    cf_optics_w: float
    sf_switches_w: float
    sf_optics_w: float
    servers_w: float
    storage_w: float | None
    fabrics_unknown: list[str]  # named before the management networks'
    others_unknown: list[str]  # the servers' and storage's, named after them
    inband_links: list[Link]  # the in-band network's host and switch-to-switch links
    estimated: set[str]


def power_terms(
    inputs: Inputs,
    nodes: int,
    fabrics: FabricsSection,
    srv: Servers,
    storage: StorageSection,
    fabric_links: list[Link],
) -> PowerTerms:
    """The terms of `power_section` the out-of-band network leaves alone: the nodes, the compute
    and storage fabrics (`fabric_links` their link groups, or every group of the design: a
    splitter cable among them changes its fabric's optics watts, `_splitters_w`), the in-band
    network's links, the servers and the storage. `fabrics.oob` is not read."""
    catalog, system = inputs.catalog, inputs.system
    unknown: list[str] = []
    cf_switches_w, cf_optics_w = _fabric_terms("compute-fabric", fabrics.compute, unknown)
    cf_optics_w += _splitters_w("compute-fabric", "compute", fabric_links, unknown)
    sf_switches_w, sf_optics_w = _fabric_terms("storage-fabric", fabrics.storage, unknown)
    sf_optics_w += _splitters_w("storage-fabric", "storage", fabric_links, unknown)
    others: list[str] = []
    servers_w = _servers_w(srv, others)
    storage_w = _storage_w(storage, others)
    inband = []
    if fabrics.inband is not None:
        inband = inband_links(catalog, fabrics.inband, system.inband, srv.section)
    switch_ids = {fabrics.inband.switch} if fabrics.inband is not None else set()
    optics: list[Entry | None] = []
    for f in (fabrics.compute, fabrics.storage):
        if f is not None:
            switch_ids |= {s for s in (f.leaf_switch, f.spine_switch, f.core_switch) if s}
            optics += [catalog.optic(t.optic) for t in f.transceivers if t.optic]
    splitters = [g for g in fabric_links if g.replaced_switch_transceivers is not None]
    estimated = _estimated(
        catalog, switch_ids, inband + splitters, system, srv.management_server, srv.fabric_manager
    )
    estimated |= {e for e in (estimate_of(o, "power_w") for o in optics if o) if e}
    return PowerTerms(
        compute_w=nodes * inputs.platform.node_power.node_w,
        cf_switches_w=cf_switches_w,
        cf_optics_w=cf_optics_w,
        sf_switches_w=sf_switches_w,
        sf_optics_w=sf_optics_w,
        servers_w=servers_w,
        storage_w=storage_w,
        fabrics_unknown=unknown,
        others_unknown=others,
        inband_links=inband,
        estimated=estimated,
    )


def power_section(
    inputs: Inputs, nodes: int, fabrics: FabricsSection, terms: PowerTerms
) -> PowerSection:
    """Power per subsystem, IT and facility totals at the PUE, and headroom against the cap (only
    when every term is known): the `terms` of everything but the out-of-band network (found for
    these `fabrics`), and the management networks' switches and switch-end optics with the
    out-of-band network's host links and uplinks, as the design's link list resolves them."""
    request, common, catalog = inputs.request, inputs.common, inputs.catalog
    oob: list[Link] = []
    if fabrics.oob is not None:
        oob.append(management_links(catalog, fabrics.oob, inputs.system.oob))
    uplinks = oob_uplinks(catalog, fabrics)
    oob += [uplinks] if uplinks else []
    nets = [n for n in (fabrics.inband, fabrics.oob) if n is not None]
    unknown = list(terms.fabrics_unknown)
    mn_w = _management_w(nets, terms.inband_links + oob, nodes, inputs, unknown)
    unknown += terms.others_unknown
    it_total = terms.compute_w + terms.cf_switches_w + terms.cf_optics_w + terms.sf_switches_w
    it_total += terms.sf_optics_w + mn_w + (terms.servers_w or 0.0) + (terms.storage_w or 0.0)
    complete = not unknown
    headroom = None
    if request.power_cap_w and complete:
        headroom = (common.it_cap_w or 0.0) - it_total
    oob_switch = {fabrics.oob.switch} if fabrics.oob is not None else set()
    estimated = terms.estimated | _estimated(catalog, oob_switch, oob)
    return PowerSection(
        compute_w=terms.compute_w,
        compute_fabric_switches_w=terms.cf_switches_w,
        compute_fabric_optics_w=terms.cf_optics_w,
        storage_fabric_w=terms.sf_switches_w + terms.sf_optics_w,
        management_network_w=mn_w,
        management_servers_w=terms.servers_w,
        storage_w=terms.storage_w,
        it_total_w=it_total,
        pue=common.pue,
        facility_total_w=it_total * common.pue,
        cap_w=request.power_cap_w,
        cap_basis=common.cap_basis,
        headroom_w=headroom,
        complete=complete,
        unknown=unknown,
        estimated=sorted(estimated),
    )
