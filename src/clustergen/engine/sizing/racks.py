"""Racks: how many nodes a rack holds under its power limit and space, and the rack type."""

from __future__ import annotations

import math

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Cdu, RackType, System
from clustergen.engine.cache import cached, own
from clustergen.engine.model.compute import RackLoad, RackPlan
from clustergen.engine.model.cooling import LiquidCooling
from clustergen.engine.model.design import FabricsSection, RacksSection
from clustergen.engine.model.fabric import FabricDesign
from clustergen.engine.sizing.checks import published_count
from clustergen.engine.sizing.inputs import Inputs, Notes
from clustergen.errors import InfeasibleDesignError
from clustergen.units import ceil_div, plural, watts


def plan_racks(
    system: System,
    nodes: int,
    node_w: float,
    rack_power_limit_kw: float,
    rack_units: int,
    cooling: str,
    ra_nodes_per_rack: int | None = None,
) -> RackPlan:
    """Nodes per rack = the fewest of what power, space and the RA layout allow."""
    if system.kind == "nvl-rack":
        if node_w / 1e3 > rack_power_limit_kw * 1.0001:
            raise InfeasibleDesignError(
                f"{system.id} is a {node_w / 1e3:.0f} kW rack but the rack limit is "
                f"{rack_power_limit_kw:g} kW",
                hint=f"allow at least {node_w / 1e3:.0f} kW (liquid-cooled) racks",
            )
        return RackPlan(
            rack_power_limit_kw=rack_power_limit_kw,
            cooling=cooling,
            rack_units=rack_units,
            node_rack_units=system.rack_units,
            nodes_per_rack=1,
            compute_racks=nodes,
            rack_power_kw=node_w / 1e3,
            limited_by="the system itself, a whole rack",
            rack_loads=rack_loads(nodes, 1, node_w),
        )
    by_power = int((rack_power_limit_kw * 1e3 + 1e-6) // node_w)
    by_space = rack_units // system.rack_units if system.rack_units else by_power
    options = {"power": by_power, "space": by_space}
    if ra_nodes_per_rack:
        options["the reference architecture's rack layout"] = ra_nodes_per_rack
    limited_by = min(options, key=lambda k: options[k])
    per_rack = options[limited_by]
    if per_rack < 1:
        raise InfeasibleDesignError(
            f"one {system.id} node needs {node_w / 1e3:.1f} kW but racks are limited to "
            f"{rack_power_limit_kw:g} kW",
            hint=f"allow racks of at least {node_w / 1e3:.1f} kW",
        )
    racks = ceil_div(nodes, per_rack)
    return RackPlan(
        rack_power_limit_kw=rack_power_limit_kw,
        cooling=cooling,
        rack_units=rack_units,
        node_rack_units=system.rack_units,
        nodes_per_rack=per_rack,
        compute_racks=racks,
        rack_power_kw=per_rack * node_w / 1e3,
        limited_by=limited_by,
        rack_loads=rack_loads(nodes, per_rack, node_w),
    )


def rack_loads(nodes: int, per_rack: int, node_w: float) -> list[RackLoad]:
    """The full racks, then the last rack where it holds fewer nodes than a full one."""
    full, rest = divmod(nodes, per_rack)
    groups = [RackLoad(racks=full, nodes=per_rack, power_kw=per_rack * node_w / 1e3)]
    if rest:
        groups.append(RackLoad(racks=1, nodes=rest, power_kw=rest * node_w / 1e3))
    return [g for g in groups if g.racks]


def rack_type_for(
    catalog: Catalog, racks: RackPlan, busbar: tuple[str, ...] = ()
) -> RackType | None:
    """The catalog rack of the right cooling whose power profile is nearest the compute rack's:
    rack types are published per density (e.g. two DGX B200 at 28.6 kW, four DGX H100 at ~40 kW),
    so the nearest profile is the one built for this platform. AC-fed racks unless `busbar`
    names the system a request wants on a DC busbar: then only busbar racks built for it. Once
    per catalog for the cooling, the rack's power and the busbar system."""
    cooling, rack_kw = racks.cooling, racks.rack_power_kw
    return cached(
        catalog,
        ("rack_type_for", cooling, rack_kw, busbar),
        lambda: _nearest_rack(catalog, cooling, rack_kw, busbar),
    )


def _nearest_rack(
    catalog: Catalog, cooling: str, rack_kw: float, busbar: tuple[str, ...]
) -> RackType | None:
    power = "dc-busbar" if busbar else "ac-pdu"
    fits = [
        r
        for r in catalog.all("racks", RackType)
        if r.cooling in (cooling, "air-or-liquid")
        and r.power == power
        and (not busbar or busbar[0] in r.systems)
    ]
    return min(fits, key=lambda r: (abs(r.power_limit_kw - rack_kw), r.id), default=None)


#: compute rack height where no catalog rack of the platform's load says otherwise
_DEFAULT_RACK_UNITS = 48
#: PDUs in a compute rack: the DGX SuperPOD H100 RA's rack layout
PDUS_PER_COMPUTE_RACK = 3
#: usable rack units for switches and servers in a network rack (a stated estimate)
_NETWORK_RACK_UNITS = 36
#: rack units of one management server or fabric manager (a stated estimate)
_SERVER_RACK_UNITS = 2  # engine/report/files/rackplan.py holds the same estimate


def compute_racks(inputs: Inputs, nodes: int, notes: Notes) -> RackPlan:
    """Compute racks under the rack power limit, in the RA's layout unless the request set one."""
    notes.assumed += inputs.assumptions("rack_power_kw")
    arch = inputs.architecture

    system, node_w, limit_kw = (
        inputs.system,
        inputs.platform.node_power.node_w,
        inputs.rack_power_kw,
    )
    cooling = inputs.cooling
    ra_per_rack = arch.nodes_per_rack if arch and inputs.rack_layout_from_ra else None

    def plan(rack_units: int) -> RackPlan:
        # once per catalog for what `plan_racks` reads of the system and its arguments
        key = (system.id, system.kind, system.rack_units, nodes, node_w, limit_kw, rack_units)
        return cached(
            inputs.catalog,
            ("plan_racks", *key, cooling, ra_per_rack),
            lambda: plan_racks(system, nodes, node_w, limit_kw, rack_units, cooling, ra_per_rack),
        )

    # 48U unless NVIDIA's rack profile for this load is another height, as the 52U DGX B200
    # profile is: the BOM's rack and the elevations then agree on it. NVIDIA's profiles are for
    # its own systems within their power limit; an OEM server's rack is the OEM's to state.
    first = plan(_DEFAULT_RACK_UNITS)
    rack = rack_type_for(inputs.catalog, first)
    if (
        rack is None
        or not rack.rack_units
        or rack.rack_units == first.rack_units
        or inputs.system.kind not in ("dgx", "nvl-rack")
        or first.rack_power_kw > rack.power_limit_kw * 1.0001
    ):
        return first
    again = plan(rack.rack_units)
    return again if rack_type_for(inputs.catalog, again) == rack else first


def switch_units(catalog: Catalog, fabrics: FabricsSection) -> tuple[int, int, tuple[str, ...]]:
    """(rack units of every switch, of the leaves among them, the switches of unknown height):
    what `racks_section` reads of the fabrics beside the compute fabric's layout;
    each switch at its catalog height, 1U where unknown (so the count is a lower bound, and the
    basis says so). In-rack switches of rack-scale systems (NVL72 OOB) sit in the compute racks
    and are left out."""
    total = leaves = 0
    unknown: set[str] = set()

    def height(sid: str) -> int:
        units = catalog.switch(sid).rack_units
        if units is None:
            unknown.add(sid)
        return units or 1

    for f in (fabrics.compute, fabrics.storage):
        if f is None:
            continue
        for sid, n, is_leaf in (
            (f.leaf_switch, f.leaf_switches, True),
            (f.spine_switch, f.spine_switches, False),
            (f.core_switch, f.core_switches, False),
        ):
            if sid and n:
                u = n * height(sid)
                total += u
                leaves += u if is_leaf else 0
    for net in (fabrics.inband, fabrics.oob):
        if net is None:
            continue
        unit = height(net.switch)
        total += (net.total_switches - net.in_rack_switches) * unit
        leaves += (net.leaf_switches - net.in_rack_switches) * unit
    return total, leaves, tuple(sorted(unknown))


def _fits_a_compute_rack(
    inputs: Inputs, plan: RackPlan, nodes: int, units: int, support_w: float | None
) -> bool:
    """Whether every switch, server and appliance (`units` U, `support_w` W) fits the free space
    and power headroom of one compute rack: the least filled, laid out as the rack plan lays
    nodes (from U2, one free U between nodes, in-rack switches at the top)."""
    if plan.node_rack_units is None or support_w is None or inputs.system.kind == "nvl-rack":
        return False
    here = nodes - (plan.compute_racks - 1) * plan.nodes_per_rack
    free_ru = plan.rack_units - 1 - here * (plan.node_rack_units + 1)
    headroom_w = plan.rack_power_limit_kw * 1e3 - here * inputs.platform.node_power.node_w
    return units <= free_ru and support_w <= headroom_w


def racks_section(
    inputs: Inputs,
    plan: RackPlan,
    cf: FabricDesign | None,
    switches: tuple[int, int, tuple[str, ...]],
    server_units: int,
    follows_ra: bool,
    nodes: int | None = None,
    support_w: float | None = None,
) -> RacksSection:
    """Compute racks, network racks (the RA's SU layout where it has one) and PDUs. Network racks
    hold every switch at its height (`switches`, as `switch_units` finds them; `cf` the compute
    fabric), the servers and the storage appliances (`server_units`);
    where the RA gives no SU layout and they all fit one compute rack's free space and power
    headroom (`nodes` the design's, `support_w` the power of what the racks hold), they sit
    there and no network rack is added."""
    arch = inputs.architecture
    switch_ru, leaf_ru, unknown = switches
    su_racks = 0
    su_layout = bool(follows_ra and arch and arch.network_racks_per_su and cf and cf.su_nodes)
    # heights all known and the RA gives no SU layout: the gear may share a compute rack
    in_compute = (
        not su_layout
        and not unknown
        and nodes is not None
        and _fits_a_compute_rack(inputs, plan, nodes, switch_ru + server_units, support_w)
    )
    if in_compute:
        network_racks = 0
        plan = _with_support(plan, support_w or 0.0)
        basis = (
            f"no network rack: the switches, servers and storage ({switch_ru + server_units} U, "
            f"{watts(support_w)}) fit a compute rack's free space and power headroom"
        )
    elif su_layout and arch and arch.network_racks_per_su and cf:
        # The RA's SU layout: each SU's leaves sit in its own network rack(s); spines, cores,
        # servers and storage in central management racks.
        central_ru = switch_ru - leaf_ru + server_units
        su_racks = cf.scalable_units * arch.network_racks_per_su
        network_racks = su_racks + max(1, ceil_div(central_ru, _NETWORK_RACK_UNITS))
        basis = (
            f"{plural(su_racks, 'SU network rack')} for the leaves ({arch.name} SU layout) + "
            f"{plural(network_racks - su_racks, 'management rack')}: spines, cores, servers and storage "
            "over 36 usable U"
        )
    else:
        network_racks = max(1, ceil_div(switch_ru + server_units, _NETWORK_RACK_UNITS))
        basis = (
            "network racks: switches (at their catalog height), servers and storage over 36 "
            "usable U per rack"
        )
    published = (
        published_count(inputs, nodes, cf.planes if cf else None, "management_racks")
        if follows_ra and nodes is not None and not in_compute
        else None
    )
    if published is not None and published > network_racks:
        # the RA lays its management gear out by function over more racks than the gear's
        # height needs (B200 RA Figure 3.2: five): its count, the gear spread over them
        basis += (
            f"; {plural(published, 'management rack')} as the RA's table publishes at "
            f"{plural(nodes or 0, 'node')} (the gear's height needs {network_racks})"
        )
        network_racks = published
    if unknown:
        basis += (
            f"; height of {', '.join(unknown)} not in the catalog, counted at 1U: "
            f"at least {plural(network_racks, 'network rack')}"
        )
    net_pdus = float(inputs.catalog.assumption("network-rack-pdus").value)
    rack, basis = _rack_of(inputs, plan, basis)
    fed = inputs.system.kind == "nvl-rack" or shelves_per_rack(rack, plan) is not None
    row = ceil_div(cf.su_nodes, plan.nodes_per_rack) if cf and cf.su_nodes else None
    return RacksSection(
        compute=plan,
        network_racks=network_racks,
        su_network_racks=su_racks,
        total_racks=plan.compute_racks + network_racks,
        rack_type=rack.id if rack else None,
        # power shelves feed a rack-scale system's rack (inside it) or a busbar rack: no PDUs
        pdus=(0 if fed else plan.compute_racks * PDUS_PER_COMPUTE_RACK)
        + network_racks * int(net_pdus),
        basis=basis,
        cooling=liquid_cooling(inputs, plan, row),
    )


def _rack_of(inputs: Inputs, plan: RackPlan, basis: str) -> tuple[RackType | None, str]:
    """The compute racks' catalog rack, and the basis with what became of a busbar asked for:
    AC racks unless the request asks for a DC busbar and the catalog has a busbar rack built
    for the system (the DGX SuperPOD B300 Spectrum-4 RA's MGX racks with DC power shelves)."""
    catalog = inputs.catalog
    if inputs.request.rack_power != "busbar":
        return rack_type_for(catalog, plan), basis
    rack = rack_type_for(catalog, plan, (inputs.system.id,))
    if rack is None or shelves_per_rack(rack, plan) is None:
        why = f"no DC busbar rack for {inputs.system.name} in the catalog: AC racks with PDUs"
        return rack_type_for(catalog, plan), f"{basis}; {why}"
    return rack, f"{basis}; compute racks on a DC busbar ({rack.name}), as the request asks"


def shelves_per_rack(rack: RackType | None, plan: RackPlan) -> tuple[int, str] | None:
    """The DC power shelves in each compute rack of a busbar rack, and how the count was
    reached: the rack's published count, else N+N of the heaviest rack's load (twice the shelves
    that carry it, as NVIDIA's GB200 reference rack's 8 x 33 kW shelves carry its load twice);
    None for an AC-fed rack."""
    if rack is None or rack.power != "dc-busbar" or not rack.power_shelf_kw:
        return None
    if rack.power_shelves:
        return rack.power_shelves, f"{rack.power_shelves} per compute rack ({rack.source})"
    most_kw = max(g.power_kw for g in plan.rack_loads)
    need = max(1, math.ceil(most_kw / rack.power_shelf_kw - 1e-9))
    return 2 * need, (
        f"estimate, no count published for this rack: N+N, 2 x ceil({most_kw:,.1f} kW / "
        f"{rack.power_shelf_kw:g} kW a shelf) = {2 * need} per compute rack (NVIDIA's GB200 "
        "reference rack carries its load twice: 8 shelves of 33 kW)"
    )


def _with_support(plan: RackPlan, support_w: float) -> RackPlan:
    """The plan with its last compute rack also carrying the switches, servers and storage
    (`support_w`), a group of its own, so its PDUs and BOM line state the rack's whole load."""
    groups = list(plan.rack_loads)
    if not groups or support_w <= 0:
        return plan
    last = groups.pop()
    if last.racks > 1:
        groups.append(last.model_copy(update={"racks": last.racks - 1}))
    support_kw = support_w / 1e3
    groups.append(
        RackLoad(
            racks=1, nodes=last.nodes, power_kw=last.power_kw + support_kw, support_kw=support_kw
        )
    )
    return plan.model_copy(update={"rack_loads": groups})


def server_rack_units(systems: list[tuple[System | None, int]]) -> int:
    """Rack units of servers and appliances: each at its catalog height, the stated estimate of
    2U where the catalog has none."""
    return sum(n * ((s.rack_units if s else None) or _SERVER_RACK_UNITS) for s, n in systems)


def pdu_basis(catalog: Catalog) -> str:
    """How the PDU count was reached, for the BOM line."""
    a = catalog.assumption("network-rack-pdus")
    return (
        f"{PDUS_PER_COMPUTE_RACK} per compute rack (H100 RA rack layout); {float(a.value):g} per "
        f"network rack ({a.source})"
    )


#: rack positions one in-row CDU takes: a cabinet standing in the row like a rack (a stated
#: estimate; the unit's width is the vendor's)
IN_ROW_CDU_POSITIONS = 1


def _loop_sizes(racks: int, per_loop: int) -> list[int]:
    """Racks on each loop: full loops, then the remainder."""
    return [per_loop] * (racks // per_loop) + ([racks % per_loop] if racks % per_loop else [])


def liquid_cooling(inputs: Inputs, plan: RackPlan, su_racks: int | None) -> LiquidCooling | None:
    """CDUs for liquid-cooled compute racks, by a rule stated as an estimate: NVIDIA's public
    DGX SuperPOD GB200 and GB300 pages publish no CDU count or model. A loop is a row (one SU,
    as the RA lays an SU in one row; every rack when there is no SU) for an in-row CDU, or one
    rack for an in-rack CDU. A loop gets ceil(its liquid heat / the CDU's capacity) units and,
    in a row, `cdu-spare-units-per-row` spares (the RA's Tier 3 concurrent maintainability).
    Liquid heat is rack power x the platform's published liquid share, or the whole rack power
    (an upper bound) where no share is published. An unknown capacity leaves the count unknown
    (`cdus` None) with its floor, one unit per loop and the spares. Once per catalog for the
    platform, the racks' count and load and the SU's racks (a caller's own system afresh)."""
    if plan.cooling != "liquid" or not plan.compute_racks:
        return None
    catalog, system = inputs.catalog, inputs.system
    if not own(catalog, "systems", system):
        return _liquid_cooling(inputs, plan, su_racks)
    key = ("liquid_cooling", system.id, plan.compute_racks, plan.rack_power_kw, su_racks)
    return cached(catalog, key, lambda: _liquid_cooling(inputs, plan, su_racks))


def _liquid_cooling(inputs: Inputs, plan: RackPlan, su_racks: int | None) -> LiquidCooling:
    catalog, system = inputs.catalog, inputs.system
    if system.cdu:
        return _cooling_with(inputs, plan, su_racks, catalog.cdu(system.cdu))
    # no class the platform names: the assumed class, unless another needs fewer units (one
    # rack: one in-rack CDU, not an in-row unit and its spare); a tie keeps the assumed one
    default = catalog.cdu(str(catalog.assumption("cdu").value))
    others = [c for c in catalog.all("cdus", Cdu) if c.id != default.id]
    options = [_cooling_with(inputs, plan, su_racks, c) for c in [default, *others]]
    best = min(options, key=lambda o: math.inf if o.cdus is None else o.cdus)
    if best is options[0] or options[0].cdus is None:  # unknown is not more: nothing compared
        return options[0]
    fewer = (
        f"; {best.cdu_name} rather than {default.name}: {plural(best.cdus or 0, 'unit')}, "
        f"not {options[0].cdus}"
    )
    return best.model_copy(update={"basis": best.basis + fewer})


def _cooling_with(inputs: Inputs, plan: RackPlan, su_racks: int | None, cdu: Cdu) -> LiquidCooling:
    """The CDUs of one class for the design's liquid-cooled racks (see `liquid_cooling`)."""
    catalog, system = inputs.catalog, inputs.system
    share = system.liquid_heat_fraction
    rack_kw = plan.rack_power_kw * (share or 1.0)
    in_row = cdu.form == "in-row"
    su = bool(su_racks and su_racks < plan.compute_racks)
    per_loop = (su_racks if su and su_racks else plan.compute_racks) if in_row else 1
    sizes = _loop_sizes(plan.compute_racks, max(1, per_loop))
    spares = int(float(catalog.assumption("cdu-spare-units-per-row").value)) if in_row else 0
    cap = cdu.capacity_kw
    need = [ceil_div(round(n * rack_kw * 1e3), round(cap * 1e3)) for n in sizes] if cap else None
    cdus = sum(need) + spares * len(sizes) if need is not None else None
    floor = cdus if cdus is not None else len(sizes) * (1 + spares)
    redundancy = (
        f"N+{spares} per row (a spare so any CDU can be serviced: the RA's Tier 3 concurrent "
        f"maintainability); in each unit {cdu.redundancy or 'redundancy not in the catalog'}"
        if in_row
        else f"in each unit: {cdu.redundancy or 'redundancy not in the catalog'}"
    )
    return LiquidCooling(
        racks=plan.compute_racks,
        rack_heat_kw=plan.rack_power_kw,
        liquid_heat_fraction=share,
        liquid_heat_kw=plan.compute_racks * rack_kw,
        liquid_heat_bound=share is None,
        air_heat_kw=None
        if share is None
        else plan.compute_racks * plan.rack_power_kw * (1 - share),
        cdu=cdu.id,
        cdu_name=cdu.name,
        form=cdu.form,
        cdu_capacity_kw=cap,
        loops=len(sizes),
        racks_per_loop=max(sizes),
        cdus_per_loop=max(need) if need else None,
        spares_per_loop=spares,
        cdus=cdus,
        cdus_at_least=floor,
        row_positions=floor * IN_ROW_CDU_POSITIONS if in_row else 0,
        cdu_power_w=None if cdus is None or cdu.power_w is None else cdus * cdu.power_w,
        redundancy=redundancy,
        basis=_cooling_basis(cdu.name, cap, (len(sizes), max(sizes), in_row, su), rack_kw, share),
    )


def _cooling_basis(
    name: str,
    cap: float | None,
    loops: tuple[int, int, bool, bool],
    rack_kw: float,
    share: float | None,
) -> str:
    """The rule as it ran: the loops (count, racks on the largest, in-row, rows are SUs), the
    heat per rack, and the division."""
    count, per_loop, in_row, su = loops
    if not in_row:
        where = f"one loop per rack ({plural(count, 'rack')})"
    elif su:
        where = (
            f"{plural(count, 'row')} of up to {plural(per_loop, 'rack')} (one SU per row, the RA's "
            "row layout), one loop each"
        )
    else:
        where = f"one row of {plural(per_loop, 'rack')} on one loop"
    heat = (
        f"{rack_kw:,.1f} kW per rack to liquid ({share:.0%} of its power)"
        if share is not None
        else f"{rack_kw:,.1f} kW per rack to liquid, the whole rack power: the liquid share is not "
        "published, so an upper bound"
    )
    size = (
        f"CDUs per loop = ceil(the loop's heat / {cap:,.0f} kW, the CDU's capacity)"
        if cap
        else f"the capacity of {name} is not in the catalog: at least one CDU per loop"
    )
    spare = (
        "plus the row's spare CDUs (N+1 so any can be serviced: the DGX SuperPOD RA's Uptime "
        "Tier 3 concurrent maintainability)"
        if in_row
        else "the unit's pumps are redundant inside it"
    )
    return (
        f"estimate, NVIDIA publishes no CDU count for this platform: {where}; {heat}; {size}; "
        f"{spare}"
    )
