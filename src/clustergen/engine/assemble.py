"""The design pipeline: a request and choices in, a complete validated reference design out.

The offline planner and the agent both end here: the agent submits choices (`DesignChoices`), the
planner derives them from the request; `assemble_design` turns either into the same `Design`.

The chain (httpx's `send` habit): `size_design` resolves the inputs once and settles the design under
its cap (`solve.cap_reserve`); `size_once` is one pass over the section builders, each taking the
sections built before it, through the bill of materials; `finish_design` adds what no trade-study
row reads (checks, scale, the serving table, provenance). `assemble_design` is the two in turn; a
trade study sizes every candidate and finishes only the one it chooses.
"""

from __future__ import annotations

import hashlib
import json
from typing import Literal, NamedTuple

from clustergen import __version__
from clustergen.catalog.loader import Catalog
from clustergen.engine.cache import own
from clustergen.engine.cost import (
    capital_check,
    capital_of,
    cost_of_ownership,
    node_capital_usd,
    over_budget,
    prices_anything,
    terms_for,
)
from clustergen.engine.model.common import Assumed, Check
from clustergen.engine.model.compute import RackPlan
from clustergen.engine.model.design import (
    ComputeSection,
    Design,
    DesignChoices,
    FabricsSection,
    ManagementNetwork,
    Mode,
    NetworkRole,
    PlatformSection,
    PowerSection,
    Provenance,
    RacksSection,
    ServersSection,
    StorageSection,
    TradeStudy,
)
from clustergen.engine.model.fabric import FabricDesign, FabricSetup
from clustergen.engine.model.inventory import PDU, STORAGE
from clustergen.engine.model.links import Link
from clustergen.engine.model.request import DesignRequest, extends
from clustergen.engine.model.tco import CostOfOwnership
from clustergen.engine.sizing.bom import Line, as_bom_lines, build_bom, totals
from clustergen.engine.sizing.checks import design_checks, racks_check, su_table_check
from clustergen.engine.sizing.compute import compute_nodes, compute_section
from clustergen.engine.sizing.expansion import expand_design
from clustergen.engine.sizing.fabric import compute_fabric, scale_section
from clustergen.engine.sizing.inputs import Inputs, Notes, RequestInputs, resolve_inputs
from clustergen.engine.sizing.inventory import build_inventory
from clustergen.engine.sizing.links import Hosts, management_link_groups, scale_out_links
from clustergen.engine.sizing.management import Servers, inband_network, oob_network, servers
from clustergen.engine.sizing.north_south import (
    NorthSouth,
    network_roles,
    north_south,
    oob_role,
    server_ports,
    storage_network_gb,
    storage_spec,
)
from clustergen.engine.sizing.platform import gpu_link, lone_unit
from clustergen.engine.sizing.power import PowerTerms, power_section, power_terms
from clustergen.engine.sizing.racks import (
    PDUS_PER_COMPUTE_RACK,
    compute_racks,
    racks_section,
    server_rack_units,
    switch_units,
)
from clustergen.engine.sizing.storage import StoragePlan, plan_storage, storage_section
from clustergen.engine.sizing.workload import (
    is_slow_first_token,
    unmodelled_warnings,
    with_interactivity,
)
from clustergen.engine.solve.cap_reserve import OverCap, Reserve, settle_under_cap
from clustergen.engine.solve.power_first import solve_cap
from clustergen.errors import InfeasibleDesignError
from clustergen.units import dollars, plural, power_words


def assemble_design(
    catalog: Catalog,
    request: DesignRequest,
    choices: DesignChoices,
    *,
    mode: Mode = "offline",
    assumptions: list[Assumed] | None = None,
    alternatives: TradeStudy | None = None,
    platform_reason: str = "named in the request",
    request_inputs: RequestInputs | None = None,
    over_cap: Literal["raise", "build"] = "raise",
) -> Design:
    """Rebuild and validate a full design from choices. Raises InfeasibleDesignError when the
    request cannot be met, saying what would fit.

    `assumptions` are the caller's own (the planner's platform choice); `request_inputs` are the
    request's defaults when the caller already resolved them for its trade study. With
    `over_cap="build"`, a design whose size the request fixes is built even when it is over the
    cap (its power section and checks say so): what the trade study shows for such a candidate.
    """
    sized = size_design(catalog, request, choices, request_inputs=request_inputs, over_cap=over_cap)
    d = finish_design(
        sized,
        mode=mode,
        assumptions=assumptions or [],
        alternatives=alternatives,
        platform_reason=platform_reason,
    )
    if not extends(request):
        return d
    # an increment on an installation: restated on its fabric, however its choices were made
    return expand_design(catalog, request, d, lambda rq, ch: assemble_design(catalog, rq, ch))


def size_design(
    catalog: Catalog,
    request: DesignRequest,
    choices: DesignChoices,
    *,
    request_inputs: RequestInputs | None = None,
    over_cap: Literal["raise", "build"] = "raise",
) -> Sized:
    """The design's sections through its bill of materials, settled under its cap: every figure
    a trade-study row reads (`assemble_design` takes the arguments as it does)."""
    inputs = resolve_inputs(catalog, request, choices, request_inputs)

    def once(reserve: Reserve) -> Sized:
        return size_once(inputs, reserve, check_cap=over_cap == "raise" or inputs.cap_sized)

    try:
        return settle_under_cap(once, _overhead, cap_sized=inputs.cap_sized)
    except OverCap as over:
        system = inputs.system
        fits = None if inputs.cap_sized else _most_that_fit(catalog, request, choices)
        hint = (
            f"at most {fits} GPUs ({fits // system.gpus_per_node} {system.id} nodes) fit under it"
            if fits
            else f"no {system.id} design fits under it"
        )
        if over.raise_to_usd is not None:
            hint += f"; or raise the capital budget to {dollars(over.raise_to_usd)}"
        if over.raise_to_w is not None:
            hint += f"; or raise the cap to {over.raise_to_w / 1e6:.2f} MW IT"
        raise InfeasibleDesignError(over.message, hint=hint, fits_gpus=fits or 0) from None


def _overhead(d: Sized) -> Reserve:
    """What the solves leave out: IT power beyond compute and the compute fabric, and capital
    (priced) beyond the nodes."""
    p = d.power
    w = p.it_total_w - p.compute_w - p.compute_fabric_switches_w - p.compute_fabric_optics_w
    priced = d.capital()[0]
    # no priced line: the nodes' priced capital is none either
    usd = 0.0 if priced is None else priced - node_capital_usd(d.bom, d.inputs.system.id)
    racks = d.racks.network_racks if d.inputs.request.max_racks is not None else 0
    return Reserve(w, usd, racks)


def _capital_over(d: Sized) -> OverCap | None:
    """The design over its capital budget (its priced lines alone exceed it), if it is."""
    inputs, gpus = d.inputs, d.compute.gpus
    budget = inputs.request.capital_budget_usd
    if budget is None:
        return None
    bom = d.bom
    capital = capital_of(bom)
    if not over_budget(capital, budget):
        return None
    priced = capital.priced_usd or 0.0
    bound = "" if capital.complete else "at least "
    return OverCap(
        Reserve(usd=priced - node_capital_usd(bom, inputs.system.id)),
        f"{gpus} {inputs.platform.gpu.id} GPUs cost {bound}{dollars(priced)}, over the "
        f"{dollars(budget)} capital budget",
        raise_to_usd=priced,
    )


#: request fields that size a design by its workload; cleared to ask what the cap alone fits
_UNSIZED = {
    "training_tokens_t": None,
    "training_days": None,
    "output_tokens_per_s": None,
    "budget_usd": None,
}


def _most_that_fit(catalog: Catalog, request: DesignRequest, choices: DesignChoices) -> int | None:
    """GPUs of the largest whole design under the request's cap (the cap sizes it)."""
    capped = request.model_copy(update={"gpus": None, "nodes": None, **_UNSIZED})
    try:
        return assemble_design(catalog, capped, choices).compute.gpus
    except InfeasibleDesignError:
        return None


def _scale_out(
    inputs: Inputs, nodes: int, notes: Notes, sized: tuple[FabricSetup, FabricDesign] | None
) -> tuple[FabricSetup, FabricDesign | None]:
    """The compute fabric, or none for a single node: its GPUs share NVLink (NVL72 racks
    included), so it needs no scale-out fabric and no fabric manager."""
    setup, cf = compute_fabric(inputs, nodes, notes, sized)
    if nodes == 1 and not cf.fabric_manager_links:
        return setup, None
    return setup, cf


def _infiniband_fabrics(inputs: Inputs, cf: FabricDesign | None, follows_ra: bool) -> int:
    """InfiniBand fabrics of the RA's design, each managed by its fabric managers."""
    count = int(cf is not None and follows_ra and cf.technology == "infiniband")
    spec = storage_spec(inputs, cf.technology if cf else None)
    return count + int(spec is not None and spec.technology == "infiniband")


def _networks(
    inputs: Inputs,
    nodes: int,
    ns: NorthSouth,
    srv: Servers,
    storage: StoragePlan,
    compute_racks: int,
    inner: tuple[ManagementNetwork | None, list[NetworkRole]],
    pdus: int | None = None,
) -> FabricsSection:
    """The management networks around the fabrics (`inner`: the in-band network, as
    `inband_network` sizes it, and the networks' roles but the out-of-band one's, as
    `network_roles` gives them), and which fabric carries each network. `pdus`: every rack PDU's
    management port on the out-of-band network (H100 RA Table 8 cables all 108, network racks'
    too); None before the racks are known: the compute racks' only."""
    inband, roles = inner
    switches = sum(f.total_switches for f in (ns.compute, ns.storage) if f is not None)
    switches += inband.total_switches if inband else 0
    arch = inputs.architecture
    in_rack = bool(arch and arch.oob_fabric and arch.oob_fabric.switches_per_rack)
    if pdus is None:
        pdus = 0 if in_rack else compute_racks * PDUS_PER_COMPUTE_RACK
    appliances = storage.appliances.count if storage.appliances else 0
    oob = oob_network(inputs, nodes, compute_racks, switches + srv.count + appliances + pdus)
    return FabricsSection(
        compute=ns.compute,
        storage=ns.storage,
        inband=inband,
        oob=oob,
        networks=roles + oob_role(oob),
    )


def _check_warnings(checks: list[Check]) -> list[str]:
    """A design that fails or cannot confirm its own checks says so at the top of its warnings."""
    failed = [c.name for c in checks if c.severity == "error" and not c.passed and not c.unknown]
    unknown = [c.name for c in checks if c.unknown]
    out = []
    if failed:
        out.append(
            f"not a validated design: it fails {plural(len(failed), 'check')}: {'; '.join(failed)}"
        )
    if unknown:
        out.append(
            f"not a validated design: {plural(len(unknown), 'check')} "
            f"{'rests' if len(unknown) == 1 else 'rest'} on unknown values "
            f"(UNKNOWN): {'; '.join(unknown)}"
        )
    return out


class Sized:
    """A design's sections through its power, racks and cost: every figure a trade-study row
    reads, and what `finish_design` needs to finish it. Its parts list (the management networks'
    link groups, the bill of materials and the cost of ownership) is built the first time it is
    read: for the design a caller finishes, or a row under a capital budget or a priced catalog,
    never for a row that reads no price. The parts no row reads (checks and the warnings they
    raise, the scale statement, the serving interactivity table, provenance) are left to
    `finish_design`, run once for the design a caller returns."""

    __slots__ = (
        "_hosts",
        "_others",
        "_parts",
        "compute",
        "compute_fabric",
        "fabrics",
        "follows_ra",
        "head",
        "inputs",
        "notes",
        "power",
        "rack_plan",
        "racks",
        "servers",
        "storage",
    )

    def __init__(
        self,
        *,
        inputs: Inputs,  # for the design's own node count
        head: list[Assumed],  # the request's workload default, listed before the caller's own
        notes: Notes,  # what the sections recorded, in order
        follows_ra: bool,
        compute_fabric: FabricDesign | None,  # as sized, before a collapsed pair carries more
        rack_plan: RackPlan,
        compute: ComputeSection,
        fabrics: FabricsSection,
        servers: ServersSection,
        racks: RacksSection,
        power: PowerSection,
        storage: StorageSection,
        hosts: Hosts,  # the fabrics' host ports, their link groups built with the parts list
        others: tuple[str, ...],  # device groups beside the hosts on the out-of-band network
    ) -> None:
        self.inputs, self.head, self.notes, self.follows_ra = inputs, head, notes, follows_ra
        self.compute_fabric, self.rack_plan, self.compute = compute_fabric, rack_plan, compute
        self.fabrics, self.servers, self.racks = fabrics, servers, racks
        self.power, self.storage = power, storage
        self._hosts, self._others = hosts, others
        self._parts: _Parts | None = None

    def _built(self) -> _Parts:
        """The parts list, built once: the management networks' link groups beside the
        fabrics', the bill of materials over every section and link, and its cost."""
        if self._parts is None:
            inputs = self.inputs
            catalog, system = inputs.catalog, inputs.system
            fabrics, servers = self.fabrics, self.servers
            links = scale_out_links(catalog, system, fabrics, servers, self.storage, self._hosts)
            links += management_link_groups(catalog, system, fabrics, servers, self._others)
            bom = build_bom(
                catalog,
                system,
                self.compute,
                self.fabrics,
                self.servers,
                self.racks,
                self.storage,
                links,
            )
            budget = inputs.request.capital_budget_usd
            terms = terms_for(catalog, inputs.request)
            self._parts = _Parts(links, bom, cost_of_ownership(bom, self.power, terms, budget))
        return self._parts

    @property
    def links(self) -> list[Link]:
        """Every link group of the design."""
        return self._built().links

    @property
    def bom(self) -> list[Line]:
        """Plain records: `finish_design` makes them the contract's BomLines."""
        return self._built().bom

    @property
    def cost(self) -> CostOfOwnership:
        """The cost of ownership of the bill of materials and the power."""
        return self._built().cost

    def capital(self) -> tuple[float | None, bool]:
        """(priced capital, whether every orderable line is priced), as `capital_of` states
        them for the BOM. A catalog that prices no part prices no line, and its compute line is
        always one to order: (None, False), with no BOM built for it (a caller's own variant
        of the system may carry a price of its own: its BOM is read)."""
        catalog = self.inputs.catalog
        if not prices_anything(catalog) and own(catalog, "systems", self.inputs.system):
            return None, False
        capital = capital_of(self.bom)
        return capital.priced_usd, capital.complete


class _Parts(NamedTuple):
    links: list[Link]
    bom: list[Line]
    cost: CostOfOwnership


#: passes that settle the out-of-band network's PDU ports with the racks' PDUs
_PDU_SETTLE_PASSES = 3


#: defaults that only a compute fabric makes true
_FABRIC_DEFAULTS = frozenset({"switch", "oversubscription", "port_speed_gbps", "planes"})


def _applying(assumed: list[Assumed], fabrics: FabricsSection) -> list[Assumed]:
    """The assumptions the design rests on: a single node has no compute fabric, so no switch
    was assumed for it (a one-node serving design listed one). The storage tier stays: it sets
    what the site's storage must deliver."""
    if fabrics.compute is not None:
        return assumed
    return [a for a in assumed if a.field not in _FABRIC_DEFAULTS]


def _excluded_elsewhere(inputs: Inputs, fabrics: FabricsSection) -> list[Assumed]:
    """A fabric ruled out ('no Ethernet') is the compute fabric's: the storage fabric the
    reference architecture builds of that technology stays, and the design says so."""
    out = inputs.request.fabric_excluded
    storage = fabrics.storage
    if out is None or storage is None or storage.technology != out:
        return []
    carried = [r.network for r in fabrics.networks if r.carried_by == "storage"]
    nets = ["storage", *(n for n in carried if n != "storage")]
    what = " and ".join(nets) + (" networks stay" if len(nets) > 1 else " network stays")
    return [
        Assumed(
            field="fabric_excluded",
            value=out,
            reason=f"read for the compute fabric: the {what} {out} "
            f"({storage.leaf_switch}), as the design's reference architecture builds it",
        )
    ]


def size_once(inputs: Inputs, reserve: Reserve, *, check_cap: bool = True) -> Sized:
    """One pass: every section from the inputs and the sections before it. Raises OverCap when
    the design is over its IT cap or its capital budget (unless `check_cap` is off)."""
    catalog, system = inputs.catalog, inputs.system
    head = inputs.assumptions("workload")
    notes = Notes(assumed=list(inputs.estimate_assumed))
    notes.assumed += inputs.assumptions("pue", "power_cap_basis")
    cap_solve, sized = solve_cap(inputs, reserve)
    nodes = compute_nodes(inputs, cap_solve, notes)
    inputs = inputs.for_nodes(nodes)
    setup, cf = _scale_out(inputs, nodes, notes, sized)
    follows_ra = setup.architecture is not None
    plan = plan_storage(inputs, nodes, notes)
    ib = catalog.switch(cf.leaf_switch) if cf and cf.technology == "infiniband" else None
    srv = servers(inputs, nodes, _infiniband_fabrics(inputs, cf, follows_ra), ib)
    ns = north_south(inputs, nodes, (setup, cf), plan, srv, follows_ra)
    rack_plan = compute_racks(inputs, nodes, notes)
    storage = storage_section(inputs, plan, storage_network_gb(ns, nodes, plan.storage_ports))
    units = server_rack_units(
        [
            (srv.fabric_manager, srv.section.fabric_managers),
            (srv.management_server, srv.section.management_servers),
            (plan.appliance, plan.appliances.count if plan.appliances else 0),
        ]
    )
    hosts = Hosts(
        nodes=nodes,
        node_ports=ns.node_ports,
        storage_ports=plan.storage_ports,
        server_ports=server_ports(srv, ns.inband_on_storage),
    )
    # the in-band network and the roles of all networks but the out-of-band one: the racks'
    # PDUs are on neither
    inband = inband_network(inputs, nodes, srv)
    unit = lone_unit(inputs.system, inputs.platform.gpu)
    inner = (inband, network_roles(ns, inband, None, unit))
    pdus: int | None = None
    terms: PowerTerms | None = None
    settled: FabricsSection | None = None
    racked: tuple[object, float | None] | None = None  # what the racks were sized for
    # the out-of-band network takes every rack's PDUs, and the racks hold its switches: settle
    # the two (a PDU more seldom adds a switch, a switch more seldom a rack); the compute and
    # storage fabrics do not move, so their splitter cables and every power term but the
    # out-of-band network's are found once, and the power and racks of networks that did not
    # move are the last pass's
    for _ in range(_PDU_SETTLE_PASSES):
        fabrics = _networks(inputs, nodes, ns, srv, plan, rack_plan.compute_racks, inner, pdus)
        # the devices beside nodes, switches and servers on the out-of-band network's ports
        others = (STORAGE,) * (plan.appliances is not None) + (PDU,) * bool(pdus)
        if fabrics == settled:
            break
        if terms is None:  # the fabrics' splitter cables change their optics' power
            splitters = scale_out_links(
                catalog, system, fabrics, srv.section, storage, hosts, splitters_only=True
            )
            terms = power_terms(inputs, nodes, fabrics, srv, storage, splitters)
        power = power_section(inputs, nodes, fabrics, terms)
        support_w = None if not power.complete else power.it_total_w - power.compute_w
        held = switch_units(catalog, fabrics)
        if (held, support_w) != racked:  # else the racks are the last pass's: nothing moved
            racks = racks_section(
                inputs, rack_plan, ns.compute, held, units, follows_ra, nodes, support_w
            )
            racked = (held, support_w)
        if fabrics.oob is None or racks.pdus == pdus:
            break
        pdus, settled = racks.pdus, fabrics
    if check_cap:
        _refuse_over_cap(inputs, nodes, power)
        _refuse_over_racks(inputs, nodes, racks)
    su_nodes = cf.su_nodes if cf else setup.plan.su_nodes
    compute = compute_section(inputs, nodes, cf.scalable_units if cf else 1, su_nodes, cap_solve)
    if ns.compute is not None:
        notes.warnings += [n for n in ns.compute.notes if "not attached" in n][:1]
    notes.assumed += _excluded_elsewhere(inputs, fabrics)
    if inputs.estimate is not None:
        # a first token people wait tens of seconds for is said before anything else
        slow = [t for t in inputs.estimate.warnings if is_slow_first_token(t)]
        notes.warnings[:0] = slow
        notes.warnings += unmodelled_warnings(inputs.request, inputs.estimate.kind)
    d = Sized(
        inputs=inputs,
        head=head,
        notes=notes,
        follows_ra=follows_ra,
        compute_fabric=cf,
        rack_plan=rack_plan,
        compute=compute,
        fabrics=fabrics,
        servers=srv.section,
        racks=racks,
        power=power,
        storage=storage,
        hosts=hosts,
        others=others,
    )
    over = _capital_over(d) if check_cap else None
    if over is not None:
        raise over
    return d


def finish_design(
    sized: Sized,
    *,
    mode: Mode = "offline",
    assumptions: list[Assumed] | None = None,
    alternatives: TradeStudy | None = None,
    platform_reason: str = "named in the request",
) -> Design:
    """The validated design of sized sections: its checks and the warnings they raise, its scale
    statement, the serving estimate's interactivity table, and its provenance."""
    inputs, catalog, power = sized.inputs, sized.inputs.catalog, sized.power
    checks = design_checks(
        inputs, sized.compute, sized.fabrics, sized.racks.compute, power, sized.storage
    )
    checks.append(
        su_table_check(
            inputs,
            sized.compute.nodes,
            sized.fabrics,
            sized.servers,
            sized.racks,
            sized.follows_ra,
        )
    )
    if inputs.request.max_racks is not None:
        checks.append(racks_check(sized.racks, inputs.request.max_racks))
    budget = inputs.request.capital_budget_usd
    if budget is not None:
        checks = [*checks, capital_check(capital_of(sized.bom), budget)]
    scale = scale_section(
        catalog,
        inputs.architecture,
        sized.compute_fabric,
        sized.compute.nodes,
        (power.compute_w, power.it_total_w, power.facility_total_w),
    )
    workload = inputs.estimate
    if workload is not None:
        workload = with_interactivity(catalog, inputs.request, inputs.system, workload)
    return Design(
        mode=mode,
        request=inputs.request,
        choices=inputs.choices,
        assumptions=_applying(
            [*sized.head, *(assumptions or []), *sized.notes.assumed], sized.fabrics
        ),
        platform=_platform_section(inputs, platform_reason, sized.follows_ra),
        compute=sized.compute,
        fabrics=sized.fabrics,
        servers=sized.servers,
        racks=sized.racks,
        power=power,
        storage=sized.storage,
        workload=workload,
        links=[g.contract() for g in sized.links],
        inventory=build_inventory(
            catalog,
            inputs.system,
            sized.compute,
            sized.fabrics,
            sized.servers,
            sized.racks,
            sized.storage,
        ),
        bom=as_bom_lines(sized.bom),
        bom_totals=totals(sized.bom),
        cost=sized.cost,
        checks=checks,
        alternatives=alternatives,
        warnings=_check_warnings(checks) + sized.notes.warnings,
        scale=scale,
        provenance=Provenance(
            engine_version=__version__,
            catalog_hash=catalog.hash,
            catalog_directories=[str(d) for d in catalog.directories],
            mode=mode,
            generated_by="clustergen offline planner" if mode == "offline" else "clustergen agent",
            inputs_sha256=inputs_digest(inputs.request, inputs.choices, catalog.hash),
        ),
    )


def _refuse_over_cap(inputs: Inputs, nodes: int, power: PowerSection) -> None:
    """OverCap, carrying what the rest of the design needs beside compute and its fabric, when
    the design's IT power is over the request's IT cap."""
    it_cap = inputs.common.it_cap_w
    if it_cap is None or power.it_total_w <= it_cap:
        return
    fabric_w = power.compute_fabric_switches_w + power.compute_fabric_optics_w
    raise OverCap(
        Reserve(w=power.it_total_w - (power.compute_w + fabric_w)),
        f"{nodes * inputs.system.gpus_per_node} {inputs.platform.gpu.id} GPUs need "
        f"{'at least ' if not power.complete else ''}{power_words(power.it_total_w)} IT, "
        f"over the {power_words(it_cap)} IT cap",
        power.it_total_w,
    )


def _refuse_over_racks(inputs: Inputs, nodes: int, racks: RacksSection) -> None:
    """OverCap, carrying the network racks beside the compute racks, when the design needs more
    racks than the site has positions for."""
    room = inputs.request.max_racks
    if room is None or racks.total_racks <= room:
        return
    raise OverCap(
        Reserve(racks=racks.network_racks),
        f"{nodes * inputs.system.gpus_per_node} {inputs.platform.gpu.id} GPUs need "
        f"{racks.total_racks} racks, over the {room} the site has",
    )


def inputs_digest(request: DesignRequest, choices: DesignChoices, catalog_hash: str) -> str:
    """SHA-256 of what a design is built from: its request, its choices and the catalog."""
    text = json.dumps(
        {
            "request": request.model_dump(mode="json"),
            "choices": choices.model_dump(mode="json"),
            "catalog": catalog_hash,
        },
        sort_keys=True,
    )
    return hashlib.sha256(text.encode()).hexdigest()


def _platform_section(inputs: Inputs, reason: str, follows_ra: bool) -> PlatformSection:
    system, gpu, arch = inputs.system, inputs.platform.gpu, inputs.architecture
    return PlatformSection(
        system=system.id,
        name=system.name,
        gpu=gpu.id,
        gpu_name=gpu.name,
        gpus_per_node=system.gpus_per_node,
        architecture=arch.id if arch else None,
        architecture_name=arch.name if arch else None,
        cooling=system.cooling,
        reason=reason,
        follows_ra=follows_ra,
        rack_scale=system.kind == "nvl-rack",
        gpu_link=gpu_link(gpu, system),
        lone_unit=lone_unit(system, gpu),
    )
