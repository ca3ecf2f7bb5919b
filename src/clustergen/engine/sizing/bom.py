"""Bill of materials: one line per part, with quantity, power and source. Prices only where the
catalog (or a user's layered catalog) has them."""

from __future__ import annotations

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Entry, Optic, System
from clustergen.engine.model.bom import BomLine, BomTotals
from clustergen.engine.model.design import (
    ComputeSection,
    FabricsSection,
    RacksSection,
    ServersSection,
    StorageSection,
)
from clustergen.engine.model.fabric import CableLine, FabricDesign
from clustergen.engine.sizing.fabric import switch_power_w
from clustergen.engine.sizing.racks import pdu_basis


def line(
    category: str,
    quantity: int,
    description: str,
    entry: Entry | None = None,
    unit_power_w: float | None = None,
    source: str | None = None,
) -> BomLine:
    """A BOM line for a catalog entry (or a generic item when entry is None)."""
    price = entry.price_usd if entry else None
    return BomLine(
        category=category,
        part=entry.id if entry else None,
        opn=entry.opn if entry else None,
        description=description,
        quantity=quantity,
        unit_power_w=unit_power_w,
        total_power_w=None if unit_power_w is None else unit_power_w * quantity,
        unit_price_usd=price,
        total_price_usd=None if price is None else price * quantity,
        price_source=entry.price_source if entry else None,
        source=source or (entry.source if entry else "clustergen engine"),
        # A line is a placeholder when it names no catalog part, or a part whose values the
        # catalog marks as assumed: a buyer must settle it before it can be quoted.
        placeholder=entry is None or entry.placeholder,
    )


def totals(lines: list[BomLine]) -> BomTotals:
    """Sum what can be summed; say what is missing."""
    priced = [ln for ln in lines if ln.total_price_usd is not None]
    total = sum(ln.total_price_usd or 0.0 for ln in priced) if priced else None
    note = (
        "no prices in the catalog; add price_usd with price_source in a layered catalog"
        if not priced
        else f"prices from the catalog on {len(priced)} of {len(lines)} lines; the rest unpriced"
    )
    return BomTotals(
        lines=len(lines), priced_lines=len(priced), total_price_usd=total, price_note=note
    )


def build_bom(
    catalog: Catalog,
    system: System,
    compute: ComputeSection,
    fabrics: FabricsSection,
    servers: ServersSection,
    racks: RacksSection,
    storage: StorageSection,
) -> list[BomLine]:
    """Every part of the design as BOM lines, from the sections built before."""
    storage_label = "storage fabric"
    if fabrics.storage is not None and any(
        r.network == "in-band management" and r.carried_by == "storage" for r in fabrics.networks
    ):
        storage_label = "converged storage and in-band fabric"
    compute_label = "compute fabric"
    if any(r.network == "storage" and r.carried_by == "compute" for r in fabrics.networks):
        compute_label = "collapsed compute, storage and in-band fabric"
    return [
        *_compute_lines(catalog, system, compute),
        *_fabric_lines(catalog, compute_label, fabrics.compute),
        *_fabric_lines(catalog, storage_label, fabrics.storage),
        *_management_lines(catalog, fabrics, servers),
        *_storage_lines(catalog, storage),
        *_rack_lines(catalog, racks),
    ]


def _compute_lines(catalog: Catalog, system: System, compute: ComputeSection) -> list[BomLine]:
    out = [line("compute", compute.nodes, system.name, system, compute.node_power.node_w)]
    if system.compute and system.compute.nic:
        nic = catalog.nic(system.compute.nic)
        n = compute.nodes * (system.compute.nics or system.compute.ports)
        out.append(
            line(
                "nic",
                n,
                f"{nic.name}, compute fabric (inside the {system.name}; its power is in the node's)",
                nic,
                None,
            )
        )
    elif system.compute and system.compute.ports:
        # the ports are known but not the card behind them: a line to settle, never left out
        n = compute.nodes * (system.compute.nics or system.compute.ports)
        what = f"compute-fabric NIC of the {system.name} (model not in the catalog; its power is in the node's)"
        out.append(line("nic", n, what, None, None, source=system.source))
    return out


def _fabric_lines(catalog: Catalog, label: str, f: FabricDesign | None) -> list[BomLine]:
    if f is None:
        return []
    out = []
    for role, count, sw_id in (
        ("leaf", f.leaf_switches, f.leaf_switch),
        ("spine", f.spine_switches, f.spine_switch),
        ("core", f.core_switches, f.core_switch),
    ):
        if count and sw_id:
            sw = catalog.switch(sw_id)
            out.append(line("switch", count, f"{sw.name}, {label} {role}", sw, switch_power_w(sw)))
    for t in f.transceivers:
        optic = catalog.optic(t.optic) if t.optic else None
        out.append(
            line(
                "transceiver",
                t.count,
                f"{optic.name if optic else 'transceiver (no catalog part fits)'}, "
                f"{label} {t.location} side",
                optic,
                t.unit_power_w,
            )
        )
    out += [_cable_line(catalog, label, f, c) for c in f.cables]
    return out


def _cable_line(catalog: Catalog, label: str, f: FabricDesign, c: CableLine) -> BomLine:
    """A cable line: the catalog cable that fits the link (its type and length class), or a
    placeholder that says what to choose."""
    where = f"{label} {c.segment} links"
    cable = cable_for(catalog, f, c)
    if cable is None:
        kind = "cable chosen with the storage system" if c.segment == "storage-leaf" else "cable"
        return line(
            "cable",
            c.count,
            f"{c.speed_gbps:g} Gb/s {kind}, {where}",
            None,
            None,
            source="link count from the fabric rules; no catalog cable fits this link",
        )
    return line(
        "cable",
        c.count,
        f"{cable.name}; {length_class(cable)}; {where}",
        cable,
        # passive fiber and copper draw nothing; an active cable's power per end is not counted
        # by the fabric, so it stays out of the BOM's power too
        None,
    )


def length_class(cable: Optic) -> str:
    """The length class a cable is ordered in: its type and the reach its media allows."""
    kinds = {
        "fiber": "passive fiber",
        "dac": "passive copper",
        "acc": "active copper",
        "aoc": "active optical",
    }
    kind = kinds.get(cable.kind, cable.kind)
    if cable.reach_m is None:
        return f"{kind}, length per the rack layout"
    return f"{kind}, up to {cable.reach_m:g} m (order lengths per the rack layout)"


def cable_for(catalog: Catalog, f: FabricDesign, c: CableLine) -> Optic | None:
    """The catalog cable for one fabric segment: fiber of the media its transceivers use, or
    passive copper of the link's speed on a copper fabric; None when none fits."""
    if c.segment == "storage-leaf":
        return None  # the storage vendor chooses the cables on its side (H100 RA Table 8 note 2)
    location = "core" if c.segment == "spine-core" else "leaf"
    optic_id = next((t.optic for t in f.transceivers if t.location == location), None)
    optic = catalog.optic(optic_id) if optic_id else None
    cables = catalog.all("optics", Optic)
    if optic is not None and optic.media in {"multimode", "singlemode"}:
        fits = [o for o in cables if o.kind == "fiber" and o.media == optic.media]
    elif c.media.startswith("passive copper"):
        fits = [
            o
            for o in cables
            if o.kind == "dac"
            and o.port_speed_gbps == c.speed_gbps
            and f.technology in o.technologies
        ]
    else:
        return None
    return fits[0] if fits else None


def _management_lines(
    catalog: Catalog, fabrics: FabricsSection, servers: ServersSection
) -> list[BomLine]:
    out = []
    for net in (fabrics.inband, fabrics.oob):
        if net is None:
            continue
        sw = catalog.switch(net.switch)
        where = f" ({net.in_rack_switches} in the compute racks)" if net.in_rack_switches else ""
        out.append(
            line(
                "switch",
                net.total_switches,
                f"{sw.name}, {net.name}{where}",
                sw,
                switch_power_w(sw),
            )
        )
    if servers.fabric_manager and servers.fabric_managers:
        fm = catalog.system(servers.fabric_manager)
        out.append(line("fabric-manager", servers.fabric_managers, fm.name, fm, fm.max_power_w))
    if servers.management_server and servers.management_servers:
        mgmt = catalog.system(servers.management_server)
        out.append(
            line("management-server", servers.management_servers, mgmt.name, mgmt, mgmt.max_power_w)
        )
    return out


def _storage_lines(catalog: Catalog, storage: StorageSection) -> list[BomLine]:
    a = storage.appliances
    if a is None:
        return [
            line(
                "storage",
                1,
                "parallel file system sized to the storage targets (vendor array to choose)",
                None,
                None,
                source="choose a storage partner certified for the reference architecture",
            )
        ]
    appliance = catalog.system(a.appliance)
    return [
        line(
            "storage",
            a.count,
            f"{appliance.name}, storage appliance ({a.basis})",
            appliance,
            appliance.max_power_w,
        )
    ]


def _rack_lines(catalog: Catalog, racks: RacksSection) -> list[BomLine]:
    rack = catalog.rack(racks.rack_type) if racks.rack_type else None
    return [
        line("rack", racks.total_racks, rack.name if rack else "rack (type to choose)", rack, None),
        line(
            "pdu",
            racks.pdus,
            (rack.pdu_name if rack and rack.pdu_name else "rack PDU (model to choose)"),
            None,
            None,
            source=pdu_basis(catalog),
        ),
    ]
