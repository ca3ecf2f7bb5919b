"""Bill of materials: one line per part, with quantity, power and source. Prices only where the
catalog (or a user's layered catalog) has them."""

from __future__ import annotations

from collections.abc import Sequence

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Entry, Optic, PortGroup, RackType, Switch, System
from clustergen.engine.model.bom import BomLine, BomTotals, PricedLine
from clustergen.engine.model.compute import RackLoad, RackPlan
from clustergen.engine.model.cooling import LiquidCooling
from clustergen.engine.model.design import (
    ComputeSection,
    FabricsSection,
    RacksSection,
    ServersSection,
    StorageSection,
)
from clustergen.engine.model.fabric import FabricDesign
from clustergen.engine.model.inventory import PartKind
from clustergen.engine.model.links import End, Link
from clustergen.engine.sizing.fabric import switch_power_w
from clustergen.engine.sizing.racks import PDUS_PER_COMPUTE_RACK, pdu_basis, shelves_per_rack
from clustergen.units import ceil_div, plural

#: the status of a line whose model is still to choose: listed with its specification, not
#: bought until a model is named (the OPN stays empty). A line that says a part is to choose is
#: this, never "order": its quantity is the requirement, not an order. (A generic item ordered
#: by its specification, a rack or a cable of a media and rate, is an ordered placeholder.)
TO_CHOOSE = "to choose"


class Line:
    """A BOM line as sizing builds it: a plain record with `BomLine`'s fields, made dozens of
    times for every trade-study candidate; the design's lines become the contract type once
    (`as_bom_lines`), in `finish_design`. Engine code reads either alike (`PricedLine`)."""

    __slots__ = FIELDS = (
        "category",
        "name",
        "part",
        "opn",
        "description",
        "quantity",
        "unit_power_w",
        "total_power_w",
        "unit_price_usd",
        "total_price_usd",
        "price_source",
        "source",
        "placeholder",
        "status",
        "unit_rack_units",
        "order_quantity",
        "vendor",
    )

    def __init__(
        self,
        *,
        category: PartKind,
        name: str,
        part: str | None,
        opn: str | None,
        description: str,
        quantity: int,
        unit_power_w: float | None,
        total_power_w: float | None,
        unit_price_usd: float | None,
        total_price_usd: float | None,
        price_source: str | None,
        source: str,
        placeholder: bool,
        status: str,
        unit_rack_units: int | None,
        order_quantity: int | None,
        vendor: str | None,
    ) -> None:
        self.category = category
        self.name = name
        self.part = part
        self.opn = opn
        self.description = description
        self.quantity = quantity
        self.unit_power_w = unit_power_w
        self.total_power_w = total_power_w
        self.unit_price_usd = unit_price_usd
        self.total_price_usd = total_price_usd
        self.price_source = price_source
        self.source = source
        self.placeholder = placeholder
        self.status = status
        self.unit_rack_units = unit_rack_units
        self.order_quantity = order_quantity
        self.vendor = vendor

    def bom_line(self) -> BomLine:
        """The contract type, validated."""
        return BomLine(**{name: getattr(self, name) for name in Line.FIELDS})


def as_bom_lines(lines: list[Line]) -> list[BomLine]:
    """The design's BOM as the contract's lines (validated once, for the design returned)."""
    return [ln.bom_line() for ln in lines]


def line(
    category: PartKind,
    quantity: int,
    description: str,
    entry: Entry | None = None,
    unit_power_w: float | None = None,
    source: str | None = None,
    status: str = "order",
    rack_units: int | None = None,
    name: str | None = None,
) -> Line:
    """A BOM line for a catalog entry (or a generic item when entry is None). A line whose
    status is not "order" is listed for the record: no quantity to order, no price in totals.
    `name`: what the item is, where no catalog entry names it and the description says more."""
    ordered = status == "order"
    if entry is None:
        return _generic_line(
            category, quantity, description, unit_power_w, source, status, rack_units, name
        )
    price = entry.price_usd if ordered else None
    return Line(
        category=category,
        name=name or entry.name,
        part=entry.id,
        opn=entry.opn,
        description=description,
        quantity=quantity,
        unit_power_w=unit_power_w,
        total_power_w=None if unit_power_w is None else unit_power_w * quantity,
        unit_price_usd=price,
        total_price_usd=None if price is None else price * quantity,
        price_source=entry.price_source if ordered else None,
        source=source or entry.source,
        # A line is a placeholder when it names no catalog part, or a part whose values the
        # catalog marks as assumed: a buyer must settle it before it can be quoted. A line to
        # choose is one too; a part inside a system or the storage vendor's is not ours.
        placeholder=(ordered or status == TO_CHOOSE) and entry.placeholder,
        status=status,
        order_quantity=quantity if ordered else None,
        unit_rack_units=rack_units
        if rack_units is not None
        else getattr(entry, "rack_units", None)
        if isinstance(entry, _RACKED)
        else None,
        # the catalog entry's maker, so a device row names it
        vendor=getattr(entry, "vendor", None),
    )


#: the catalog entries a line takes its rack units from
_RACKED = (System, Switch)


def _generic_line(
    category: PartKind,
    quantity: int,
    description: str,
    unit_power_w: float | None,
    source: str | None,
    status: str,
    rack_units: int | None,
    name: str | None,
) -> Line:
    """`line` for a generic item (no catalog entry): no part, no price, no maker."""
    ordered = status == "order"
    return Line(
        category=category,
        name=name or description,
        part=None,
        opn=None,
        description=description,
        quantity=quantity,
        unit_power_w=unit_power_w,
        total_power_w=None if unit_power_w is None else unit_power_w * quantity,
        unit_price_usd=None,
        total_price_usd=None,
        price_source=None,
        source=source or ENGINE_SOURCE,
        placeholder=ordered or status == TO_CHOOSE,
        status=status,
        order_quantity=quantity if ordered else None,
        unit_rack_units=rack_units,
        vendor=None,
    )


def included(system: System) -> str:
    """The status of a part that comes inside a system."""
    return f"included in {system.name}, do not order"


#: the source of a line the engine derives (a count from rules, not a catalog part)
ENGINE_SOURCE = "count from the design's rules (see the memo's appendix)"
#: what a line supplied with the storage system says
STORAGE_VENDOR = "supplied by the storage vendor with the storage system"


def totals(lines: Sequence[PricedLine]) -> BomTotals:
    """Sum what can be summed over the lines a buyer orders; say what is missing."""
    ordered = [ln for ln in lines if ln.status == "order"]
    priced = [ln for ln in ordered if ln.total_price_usd is not None]
    total = sum(ln.total_price_usd or 0.0 for ln in priced) if priced else None
    note = (
        "no prices in the catalog; add price_usd with price_source in a layered catalog"
        if not priced
        else f"prices from the catalog on {len(priced)} of {len(ordered)} orderable lines; "
        "the rest unpriced"
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
    links: list[Link],
) -> list[Line]:
    """Every part of the design as BOM lines, from the sections built before; transceivers and
    cables from the design's links, so each link's two ends and cable are on the BOM."""
    storage_label = "storage fabric"
    if fabrics.storage is not None and any(
        r.network == "in-band management" and r.carried_by == "storage" for r in fabrics.networks
    ):
        storage_label = "converged storage and in-band fabric"
    compute_label = "compute fabric"
    if any(r.network == "storage" and r.carried_by == "compute" for r in fabrics.networks):
        compute_label = "collapsed compute, storage and in-band fabric"
    labels = {"compute": compute_label, "storage": storage_label}
    return [
        *_compute_lines(catalog, system, compute),
        *_fabric_lines(catalog, compute_label, fabrics.compute, _of(links, "compute"), labels),
        *_fabric_lines(catalog, storage_label, fabrics.storage, _of(links, "storage"), labels),
        *_management_lines(catalog, system, compute.nodes, fabrics, servers, links),
        *_storage_lines(catalog, storage),
        *_rack_lines(catalog, system, racks),
    ]


def _of(links: list[Link], fabric: str) -> list[Link]:
    return [g for g in links if g.fabric == fabric]


def _compute_lines(catalog: Catalog, system: System, compute: ComputeSection) -> list[Line]:
    """The nodes, and for the record what comes inside them: GPUs, the compute NICs and the
    north-south adapter (Enterprise RA 2-8-9-400: eight east-west NICs and one north-south)."""
    out = [line(PartKind.COMPUTE, compute.nodes, system.name, system, compute.node_power.node_w)]
    status = included(system)
    if system.gpu and system.gpus_per_node:
        gpu = catalog.gpu(system.gpu)
        out.append(line(PartKind.GPU, compute.gpus, f"{gpu.name}", gpu, None, status=status))
    for part in system.included:
        out.append(
            line(
                PartKind.INCLUDED,
                compute.nodes * part.count,
                f"{part.name} ({part.count} per {system.name})",
                None,
                None,
                part.source,
                status=status,
                rack_units=part.rack_units,
            )
        )
    seen: set[str] = set()
    for role, group in (
        ("compute fabric", system.compute),
        ("north-south (storage and in-band)", system.storage),
        ("in-band management", system.inband),
    ):
        if group is None or group.nic is None or group.nic in seen:
            continue
        seen.add(group.nic)
        nic = catalog.nic(group.nic)
        per_node = group.nics or ceil_div(group.ports, nic.ports)
        out.append(
            line(
                PartKind.NIC,
                compute.nodes * per_node,
                f"{nic.name}, {role} ({_cards(group, per_node, 'node')}; its power is in the node's)",
                nic,
                None,
                source=_card_source(group, nic.source),
                status=status,
            )
        )
    for role, group in (
        ("compute-fabric NIC", system.compute),
        ("north-south (storage and in-band) adapter", system.storage),
    ):
        if group and group.ports and group.nic is None:
            # the ports are known but not the card behind them: listed, never left out; it
            # ships inside the system like a known card
            n = compute.nodes * (group.nics or group.ports)
            what = f"{role} of the {system.name} (model not in the catalog; its power is in the node's)"
            out.append(
                line(
                    PartKind.NIC,
                    n,
                    what,
                    None,
                    None,
                    source=system.source,
                    status=status,
                    name=f"{role} (model not in the catalog)",
                )
            )
    return out


def _fabric_lines(
    catalog: Catalog,
    label: str,
    f: FabricDesign | None,
    groups: list[Link],
    labels: dict[str, str],
) -> list[Line]:
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
            out.append(
                line(PartKind.SWITCH, count, f"{sw.name}, {label} {role}", sw, switch_power_w(sw))
            )
    for g in groups:
        for end in (g.a, g.b):
            out += _end_line(catalog, label, g, end)
    out += [_cable_line(catalog, labels.get(g.fabric, g.fabric), g) for g in groups]
    return out


def _end_line(catalog: Catalog, label: str, g: Link, end: End) -> list[Line]:
    """The transceivers at one end of a link group, if it has any."""
    if end.transceivers == 0:
        return []
    where = f"{label}, {end.device} end of {_plural(g.links, g.segment + ' link')}"
    if end.supply == "storage vendor":
        # a switch end the fabric powers keeps its power here, so the BOM's watts are the design's
        if end.unit_power_w is not None and end.transceiver:
            where += (
                f"; its power as the switch's own module ({catalog.optic(end.transceiver).name})"
            )
        return [
            line(
                PartKind.TRANSCEIVER,
                end.transceivers,
                where,
                None,
                end.unit_power_w,
                STORAGE_VENDOR,
                status=STORAGE_VENDOR,
                name="transceiver supplied by the storage vendor",
            )
        ]
    optic = catalog.optic(end.transceiver) if end.transceiver else None
    # no module: the end's cage is not in the catalog or no catalog part fits it; the port
    # says which ("server port (card not in the catalog)")
    name = optic.name if optic else f"transceiver to choose for the {end.port}"
    if end.unit_power_w is None and optic is not None and end is g.a and g.segment not in _TRUNKS:
        # a host's module draws from the host's own budget, whatever its catalog power
        text = f"{name}; {where}; {HOST_END_POWER}"
        source = f"{optic.source}; {HOST_END_POWER_SOURCE}"
        return [line(PartKind.TRANSCEIVER, end.transceivers, text, optic, None, source=source)]
    if end.unit_power_w is None and optic is not None and optic.power_w is not None:
        # a switch end the link leaves unpowered is said to be outside the design's total
        where += "; its power is not in the design's"
    status = "order" if optic else TO_CHOOSE
    return [
        line(
            PartKind.TRANSCEIVER,
            end.transceivers,
            f"{name}; {where}",
            optic,
            end.unit_power_w,
            status=status,
            name=name,
        )
    ]


#: segments whose lower end is a switch, not a host
_TRUNKS = ("inter-switch", "leaf-spine", "spine-core")


def _plural(n: int, noun: str) -> str:
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def _cable_line(catalog: Catalog, label: str, g: Link, why: str | None = None) -> Line:
    """A cable line: the catalog cable of the link group (its media and length class), the
    storage vendor's, or a placeholder that says what to choose (and `why`, where the caller
    knows what the cable must join)."""
    where = f"{label} {_plural(g.links, g.segment + ' link')}, {g.length_class}"
    if g.cable_supply == "storage vendor":
        # an active cable's switch end the fabric powers keeps its watts on the vendor's line
        return line(
            PartKind.CABLE,
            g.links,
            f"{g.speed_gbps:g} Gb/s cable; {where}",
            None,
            None if g.cable_power_w is None else g.cable_power_w / max(1, g.links),
            STORAGE_VENDOR,
            status=STORAGE_VENDOR,
            name=f"{g.speed_gbps:g} Gb/s cable supplied by the storage vendor",
        )
    cable = catalog.optic(g.cable) if g.cable else None
    if cable is None:
        return line(
            PartKind.CABLE,
            g.links,
            f"{g.speed_gbps:g} Gb/s {g.media} cable; {where}",
            None,
            None,
            source="link count from the fabric rules; "
            + (why or "no catalog cable fits this link"),
            name=f"{g.speed_gbps:g} Gb/s {g.media} cable (to choose)",
        )
    n = ceil_div(g.links, g.links_per_cable)
    unit = None if g.cable_power_w is None else g.cable_power_w / max(1, n)
    if g.links_per_cable > 1:
        where += f" ({g.links_per_cable} links a cable)"
    return line(PartKind.CABLE, n, f"{cable.name}; {length_class(cable)}; {where}", cable, unit)


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


def _management_lines(
    catalog: Catalog,
    system: System,
    nodes: int,
    fabrics: FabricsSection,
    servers: ServersSection,
    links: list[Link],
) -> list[Line]:
    out = []
    for net in (fabrics.inband, fabrics.oob):
        if net is None:
            continue
        sw = catalog.switch(net.switch)
        inside = min(net.in_rack_switches, nodes * system.included_count(sw.id))
        where = f" ({net.in_rack_switches} in the compute racks)" if net.in_rack_switches else ""
        if inside:
            # the rack-scale system ships its in-rack switches: order only the others
            where = (
                f" ({net.total_switches - inside} outside the compute racks; the {inside} in "
                f"them are {included(system).removesuffix(', do not order')})"
            )
        out.append(
            line(
                PartKind.SWITCH,
                net.total_switches - inside,
                f"{sw.name}, {net.name}{where}",
                sw,
                switch_power_w(sw),
            )
        )
        why = _unjoined(system.inband if net is fabrics.inband else system.oob, sw, net.name)
        for g in _of(links, net.name):
            out += _end_line(catalog, net.name, g, g.a) + _end_line(catalog, net.name, g, g.b)
            out.append(_cable_line(catalog, net.name, g, why))
    if servers.fabric_manager and servers.fabric_managers:
        fm = catalog.system(servers.fabric_manager)
        out.append(
            line(PartKind.FABRIC_MANAGER, servers.fabric_managers, fm.name, fm, fm.max_power_w)
        )
    if servers.management_server and servers.management_servers:
        mgmt = catalog.system(servers.management_server)
        out.append(
            line(
                PartKind.MANAGEMENT_SERVER,
                servers.management_servers,
                mgmt.name,
                mgmt,
                mgmt.max_power_w,
            )
        )
        out += _server_card_lines(catalog, mgmt, servers.management_servers)
    return out


def _unjoined(node: PortGroup | None, sw: Switch, net: str) -> str | None:
    """Why a management network's host cable is left to choose: what its ends are (the DGX
    B200's QSFP112 BlueField-3 in-band port at 200 Gb/s and the SN5600's OSFP cage, which no
    catalog AOC joins and the B200 RA names no part for)."""
    if node is None or not node.cage_form or not sw.cage_form:
        return None
    return (
        f"no catalog cable joins the nodes' {node.cage_form} {net} port at "
        f"{node.port_speed_gbps:g} Gb/s to the {sw.name}'s {sw.cage_form} cage, and the "
        "platform's reference architecture names no part: choose one with the switch vendor"
    )


def _cards(group: PortGroup, count: int, unit: str) -> str:
    """How many cards per host: the catalog's count, or (where it gives only the ports) the
    fewest cards that carry them, said to be a lower bound (the DGX H100 spreads 2 storage ports
    over 2 dual-port cards)."""
    if group.nics:
        return f"{count} per {unit}"
    return f"at least {count} per {unit}: the catalog gives the ports, not the card count"


def _card_source(group: PortGroup, source: str) -> str:
    if group.nics:
        return source
    return f"{source}; card count: at least the fewest cards that carry the ports (none in the catalog)"


def _server_card_lines(catalog: Catalog, server: System, servers: int) -> list[Line]:
    """The north-south card a management server is configured with, where the catalog names it
    (its links' modules are chosen for that card's cage): listed, bought inside the server as an
    OEM server's adapters are."""
    g = server.storage
    if g is None or g.nic is None:
        return []
    nic = catalog.nic(g.nic)
    per = g.nics or ceil_div(g.ports, nic.ports)
    what = f"{nic.name}, north-south card of the {server.name} ({_cards(g, per, 'server')}; its power is in the server's)"
    return [
        line(
            PartKind.NIC,
            servers * per,
            what,
            nic,
            None,
            source=_card_source(g, server.source_of("storage")),
            status=included(server),
        )
    ]


def _storage_lines(catalog: Catalog, storage: StorageSection) -> list[Line]:
    a = storage.appliances
    if a is None and (storage.site_storage or storage.existing):
        return []  # the site's storage, or the customer's own, serves it: none quoted
    if a is None:
        return [
            line(
                PartKind.STORAGE,
                1,
                "parallel file system sized to the storage targets (vendor array to choose)",
                None,
                None,
                source="choose a storage partner certified for the reference architecture",
                status=TO_CHOOSE,
                name="parallel file system (vendor array to choose)",
            )
        ]
    appliance = catalog.system(a.appliance)
    return [
        line(
            PartKind.STORAGE,
            a.count,
            f"{appliance.name}, storage appliance ({a.basis})",
            appliance,
            appliance.max_power_w,
        )
    ]


def _rack_lines(catalog: Catalog, system: System, racks: RacksSection) -> list[Line]:
    """Compute racks as the platform builds them, network racks, their power distribution named
    as what it is (PDUs, or the power shelves inside a rack-scale system) and, for liquid-cooled
    racks, their coolant distribution."""
    plan = racks.compute
    rack = catalog.rack(racks.rack_type) if racks.rack_type else None
    # a catalog rack is this design's only when its height and cooling are the plan's
    fits = (
        rack
        if rack is not None
        and rack.rack_units == plan.rack_units
        and rack.cooling in (plan.cooling, "air-or-liquid")
        else None
    )
    inside = system.kind == "nvl-rack"
    out = [
        line(
            PartKind.RACK,
            group.racks,
            _compute_rack_text(system, plan, group, fits),
            fits,
            None,
            source=None if fits else RACK_SOURCE,
            status=included(system) if inside else "order",
            name=fits.name if fits else f"{plan.rack_units}U {plan.cooling}-cooled compute rack",
        )
        for group in plan.rack_loads
    ]
    # the RA's own rack for its network racks too (H100 RA Table 7: 38 NVIDPD13 for 32 compute
    # and 6 other racks), where the compute rack is the catalog's
    net = fits if fits and fits.network_racks and not inside else None
    if racks.network_racks:
        out.append(
            line(
                PartKind.RACK,
                racks.network_racks,
                "air-cooled network and management rack (switches, servers, storage; at least "
                f"36U usable){', ' + net.name if net else ''}",
                net,
                None,
                source=f"{racks.basis}; {net.source}" if net else racks.basis,
                status="order" if net else TO_CHOOSE,
                name=net.name if net else "air-cooled network and management rack",
            )
        )
    out += _pdu_lines(catalog, racks, fits, net, rack, inside)
    out += _shelf_lines(rack, plan)
    if racks.cooling is not None:
        out.append(_cdu_line(catalog, racks.cooling))
    return out


#: why a host end's module adds nothing to the design's power: it is powered by the host's port,
#: so it draws within the host's own maximum input, which the design counts as the node's power
HOST_END_POWER = (
    "its power is in the host's (drawn from the host's port, within the host's maximum input)"
)
HOST_END_POWER_SOURCE = (
    "host-end power: NVIDIA DGX SuperPOD Data Center Design Guide, Cabling, Port Power "
    "(https://docs.nvidia.com/dgx-superpod/design-guide-cabling-data-centers/latest/port-power.html):"
    ' "All cable types except passive copper draw power from the QSFP port on the switch or host '
    "channel adapter\"; a system's published maximum input power covers what its ports draw"
)


def _compute_rack_text(
    system: System, plan: RackPlan, group: RackLoad, fits: RackType | None
) -> str:
    """A compute rack line: what the racks of `group` hold and draw. A part-filled rack states
    its own nodes and load, and the room its layout leaves."""
    if system.kind == "nvl-rack":
        holds = "the system is the rack"
    elif group.nodes == plan.nodes_per_rack:
        holds = f"{group.nodes} x {system.name} per rack"
    else:
        holds = (
            f"{group.nodes} x {system.name} (part-filled: room for {plan.nodes_per_rack}, "
            f"limited by {plan.limited_by})"
        )
    gear = (
        f" and the switches, servers and storage ({group.support_kw:,.1f} kW)"
        if group.support_kw
        else ""
    )
    return (
        f"{plan.rack_units}U {plan.cooling}-cooled compute rack, {holds}{gear}, "
        f"{group.power_kw:,.1f} kW" + (f" ({fits.name})" if fits else "")
    )


def _pdu_load(plan: RackPlan) -> str:
    """What the compute racks' PDUs carry: each rack's PDUs share its real load, a part-filled
    rack's its own."""
    each = PDUS_PER_COMPUTE_RACK
    groups = plan.rack_loads
    if len(groups) == 1:
        g = groups[0]
        return f"{each} per compute rack carrying {g.power_kw:,.1f} kW ({g.power_kw / each:,.1f} kW each)"
    return f"{each} per compute rack: " + ", ".join(
        f"{plural(g.racks, 'rack')} of {plural(g.nodes, 'node')} carrying {g.power_kw:,.1f} kW "
        f"({g.power_kw / each:,.1f} kW each)"
        for g in groups
    )


def _pdu_lines(
    catalog: Catalog,
    racks: RacksSection,
    fits: RackType | None,
    net: RackType | None,
    rack: RackType | None,
    inside: bool,
) -> list[Line]:
    """The racks' PDUs: the RA's model where the catalog rack names one, else a line to choose
    whose description is the specification a buyer quotes from (count per rack, the load each
    carries, and the rack's published power feed where the catalog rack's profile holds the
    plan's load)."""
    plan = racks.compute
    net_pdus = int(float(catalog.assumption("network-rack-pdus").value))
    # the compute racks' PDUs: what the racks section counts beyond the network racks' (none
    # where power shelves feed the racks)
    compute_pdus = racks.pdus - racks.network_racks * net_pdus
    pdu = fits.pdu_name if fits and fits.pdu_name and not inside else None
    out = []
    if compute_pdus:
        spec = _pdu_load(plan)
        most_kw = max(g.power_kw for g in plan.rack_loads)
        feed, feed_source = _published_feed(rack, most_kw, plan.cooling)
        if pdu:
            text, status = f"{pdu}, compute racks ({spec})", "order"
        else:
            text, status = f"rack PDU, model to choose: {spec}{feed}", TO_CHOOSE
        source = pdu_basis(catalog) + (f"; {feed_source}" if feed_source else "")
        out.append(
            line(
                PartKind.PDU,
                compute_pdus,
                text,
                None,
                None,
                source=source,
                status=status,
                name=pdu or "rack PDU (model to choose)",
            )
        )
    if racks.network_racks:
        model = net.network_pdu_name if net else None
        text = (
            f"{model}, network racks ({net_pdus} per rack)"
            if model
            else f"rack PDU, model to choose: {net_pdus} per network rack"
        )
        out.append(
            line(
                PartKind.PDU,
                racks.network_racks * net_pdus,
                text,
                None,
                None,
                source=pdu_basis(catalog),
                status="order" if model else TO_CHOOSE,
                name=model or "rack PDU (model to choose)",
            )
        )
    return out


def _shelf_lines(rack: RackType | None, plan: RackPlan) -> list[Line]:
    """A busbar rack's DC power shelves: the count per compute rack, what each carries and what
    the rack's heaviest load needs."""
    shelves = shelves_per_rack(rack, plan)
    if rack is None or shelves is None:
        return []
    each, basis = shelves
    most_kw = max(g.power_kw for g in plan.rack_loads)
    name = rack.power_shelf_name or "DC power shelf"
    text = (
        f"{name}, DC busbar power shelves of the compute racks ({each} per compute rack of "
        f"{rack.name}, {rack.power_shelf_kw:g} kW each: {each * (rack.power_shelf_kw or 0):g} kW "
        f"installed for the heaviest rack's {most_kw:,.1f} kW)"
    )
    return [
        line(
            PartKind.POWER_SHELF,
            each * plan.compute_racks,
            text,
            None,
            None,
            source=f"{rack.source}; count: {basis}",
            status="order",
            rack_units=rack.power_shelf_units,
            name=name,
        )
    ]


def _published_feed(rack: RackType | None, load_kw: float, cooling: str) -> tuple[str, str]:
    """The catalog rack's published power feed, where its profile holds this rack's load and
    cooling (a DGX B200 two-system 28.6 kW rack profile feeds an HGX B200 rack of 28.6 kW the
    same); empty otherwise."""
    if (
        rack is None
        or not rack.power_feed
        or load_kw > rack.power_limit_kw
        or rack.cooling not in (cooling, "air-or-liquid")
    ):
        return "", ""
    cited = rack.field_sources.get("power_feed")
    return (
        f"; rack feed {rack.power_feed} (as {rack.name}, {rack.power_limit_kw:g} kW)",
        f"rack feed: {cited if cited is not None else rack.source}",
    )


#: where a compute rack line's facts come from when no catalog rack matches the plan
RACK_SOURCE = (
    "compute rack plan: nodes per rack from the platform's height and the rack power limit"
)


def _cdu_line(catalog: Catalog, c: LiquidCooling) -> Line:
    """The CDUs of the liquid-cooled racks, as the cooling rule counts them. The racks' own
    manifolds come inside the system; no source names the row piping as a part, so it is the
    facility's and not a line."""
    cdu = catalog.cdu(c.cdu)
    heat = f"{c.liquid_heat_kw:,.0f} kW to liquid" + (" at most" if c.liquid_heat_bound else "")
    each = f"{c.cdu_capacity_kw:,.0f} kW each" if c.cdu_capacity_kw else "a capacity unknown"
    count = (
        f"{plural(c.cdus_per_loop or 0, 'CDU')} + {c.spares_per_loop} spare per row"
        if c.form == "in-row" and c.cdus is not None
        else "at least one per loop"
        if c.cdus is None
        else "one per rack"
    )
    return line(
        PartKind.CDU,
        c.cdus_at_least,
        f"{cdu.name}, coolant distribution unit (CDU) at {each}, for "
        # the line names a catalog model (a class the catalog marks as assumed): ordered, its
        # model confirmed with the facility, not a line to choose
        f"{plural(c.racks, 'liquid-cooled rack')} ({heat}; {count}); model to confirm with the "
        "facility",
        cdu,
        cdu.power_w,
        source=f"{cdu.source}; count: {c.basis}",
    )
