"""The design pipeline: a request in, a complete validated reference design out.

The offline planner and the agent both end here: the agent submits choices (`DesignChoices`), the
planner derives them from the request; `build_design` turns either into the same `Design`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from clustergen import __version__
from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Architecture, FabricSpec, Gpu, RackType, Switch, System
from clustergen.engine import bom as bom_mod
from clustergen.engine.compute import FabricChoices, gpu_system, power_first
from clustergen.engine.fabric import Cabling, FabricDesign, FabricPlan, known_power_w, size_fabric
from clustergen.engine.platform import Assumed, resolve_fabric
from clustergen.engine.power import NodePower, it_cap_w, node_power
from clustergen.engine.racks import RackPlan, plan_racks
from clustergen.engine.request import DesignRequest
from clustergen.engine.run import AgentRun, GroundingReport
from clustergen.engine.storage import (
    FileSystem,
    StorageAnalysis,
    StorageTargets,
    analyze_storage,
    design_io,
    storage_targets,
)
from clustergen.engine.storage_fabric import size_storage_fabric
from clustergen.engine.validate import Check, check, fabric_checks, storage_io_checks
from clustergen.errors import InfeasibleDesignError, RequestError
from clustergen.units import ceil_div

Mode = Literal["offline", "agent"]


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DesignChoices(_M):
    """The choices a design is rebuilt from: what the planner or the model decides."""

    platform: str = Field(description="system id, e.g. dgx-h100, gb200-nvl72")
    fabric: Literal["infiniband", "ethernet"] | None = Field(
        default=None, description="compute fabric technology; None follows the platform's RA"
    )
    oversubscription: float = Field(default=1.0, ge=1.0, le=16.0)
    planes: int | None = Field(
        default=None,
        ge=1,
        le=8,
        description="compute-fabric planes; None follows the platform's RA",
    )
    storage_tier: Literal["good", "better", "best"] | None = None
    rack_power_kw: float | None = Field(default=None, gt=0)
    cooling: Literal["air", "liquid"] | None = None


class PlatformSection(_M):
    """The platform and why it was chosen."""

    system: str
    name: str
    gpu: str
    gpu_name: str
    gpus_per_node: int
    architecture: str | None
    architecture_name: str | None
    cooling: str
    reason: str


class ComputeSection(_M):
    """Compute nodes and GPUs."""

    nodes: int
    gpus: int
    requested_gpus: int | None
    scalable_units: int
    su_nodes: int | None
    node_power: NodePower
    max_nodes_under_cap: int | None
    max_gpus_under_cap: int | None


class ManagementNetwork(_M):
    """In-band or out-of-band management network: access switches and aggregation."""

    name: str
    switch: str
    port_speed_gbps: float
    host_ports: int
    leaf_switches: int
    spine_switches: int
    total_switches: int
    switch_power_w: float | None
    basis: str


class FabricsSection(_M):
    """Every network of the design."""

    compute: FabricDesign
    storage: FabricDesign | None
    inband: ManagementNetwork | None
    oob: ManagementNetwork | None


class ServersSection(_M):
    """Fabric managers and management (head) servers."""

    fabric_manager: str | None
    fabric_managers: int
    management_server: str | None
    management_servers: int
    basis: str


class RacksSection(_M):
    """Compute and network racks."""

    compute: RackPlan
    network_racks: int
    total_racks: int
    rack_type: str | None
    pdus: int
    basis: str


class PowerSection(_M):
    """Power per subsystem, IT and facility totals, headroom against the cap."""

    compute_w: float
    compute_fabric_switches_w: float
    compute_fabric_optics_w: float
    storage_fabric_w: float
    management_network_w: float
    management_servers_w: float | None
    storage_w: float | None
    it_total_w: float
    pue: float
    facility_total_w: float
    cap_w: float | None
    cap_basis: Literal["it", "facility"] | None
    headroom_w: float | None
    unknown: list[str]


class StorageSection(_M):
    """Storage targets from SuperPOD guidance, the file system sized to them, and the data path:
    will it keep the GPUs fed (the storage I/O model run for this design's GPUs and workload)."""

    targets: StorageTargets
    storage_ports: int
    port_speed_gbps: float
    file_system: FileSystem
    io: StorageAnalysis = Field(
        description="metadata load, GPU utilisation the data path allows, binding limit, checkpoint"
    )
    layout: str = Field(description="recommended dataset layout")
    notes: list[str]


class TrainingEstimate(_M):
    """6·N·D FLOPs over GPUs × dense BF16 peak × MFU."""

    model_params_b: float
    training_tokens_t: float
    total_flops: float
    gpus: int
    dense_bf16_tflops_per_gpu: float
    mfu: float
    days: float
    formula: str


class Alternative(_M):
    """One row of the trade study."""

    platform: str
    fabric: str
    switch: str
    oversubscription: float
    nodes: int
    gpus: int
    it_power_w: float
    fabric_power_w: float
    switches: int
    objective: float | None
    eligible: bool
    why_not: str | None
    chosen: bool


class TradeStudy(_M):
    """Alternatives the planner weighed, ranked by a stated objective."""

    objective: str
    rows: list[Alternative]


class Provenance(_M):
    """Which engine and catalog made the design."""

    engine_version: str
    catalog_hash: str
    catalog_directories: list[str]
    mode: Mode
    generated_by: str


class Design(_M):
    """A complete reference design: the same model in offline and agent mode."""

    schema_version: int = 1
    mode: Mode
    request: DesignRequest
    choices: DesignChoices
    assumptions: list[Assumed]
    platform: PlatformSection
    compute: ComputeSection
    fabrics: FabricsSection
    servers: ServersSection
    racks: RacksSection
    power: PowerSection
    storage: StorageSection
    training: TrainingEstimate | None
    bom: list[bom_mod.BomLine]
    bom_totals: bom_mod.BomTotals
    checks: list[Check]
    alternatives: TradeStudy | None
    warnings: list[str]
    memo: str | None = None
    agent: AgentRun | None = None
    grounding: GroundingReport | None = None
    provenance: Provenance

    @property
    def passed(self) -> bool:
        """True when every error-severity check passed."""
        return all(c.passed for c in self.checks if c.severity == "error")


def _assumption(catalog: Catalog, name: str) -> tuple[float, str]:
    a = catalog.assumption(name)
    return float(a.value), a.source


def _mgmt_network(
    catalog: Catalog, name: str, spec: FabricSpec | None, host_ports: int, speed: float
) -> ManagementNetwork | None:
    """An access/aggregation management network sized with the same Clos rules as the fabrics."""
    if spec is None or host_ports == 0:
        return None
    sw = catalog.switch(spec.switch)
    plan = FabricPlan(
        nodes=host_ports,
        ports_per_node=1,
        port_speed_gbps=sw.port_speed_gbps,
        oversubscription=spec.oversubscription,
    )
    f = size_fabric(plan, sw, sw, sw, Cabling())
    return ManagementNetwork(
        name=name,
        switch=sw.id,
        port_speed_gbps=sw.port_speed_gbps,
        host_ports=host_ports,
        leaf_switches=f.leaf_switches,
        spine_switches=f.spine_switches,
        total_switches=f.total_switches,
        switch_power_w=f.power.switches_w,
        basis=f"{spec.oversubscription:g}:1 access leaves of {sw.id}, {f.tiers}-tier",
    )


def _storage_fabric(
    catalog: Catalog,
    system: System,
    nodes: int,
    spec: FabricSpec | None,
    su_nodes: int | None,
    storage_ports: int,
) -> FabricDesign | None:
    if spec is None or system.storage is None or system.storage.ports == 0:
        return None
    sw = catalog.switch(spec.switch)
    speed = system.storage.port_speed_gbps
    if sw.radix_at(speed) is None:
        speed = sw.port_speed_gbps
    return size_storage_fabric(
        spec,
        sw,
        choose_cabling_for(catalog, sw, speed),
        nodes=nodes,
        ports_per_node=system.storage.ports,
        port_speed_gbps=speed,
        su_nodes=su_nodes,
        storage_ports=storage_ports,
    )


def choose_cabling_for(catalog: Catalog, sw: Switch, speed: float) -> Cabling:
    """Cabling for a non-compute fabric: switch-side transceivers sized to the cage."""
    from clustergen.engine.platform import find_optic

    ppc = sw.ports_per_cage_at(speed)
    optic = find_optic(
        catalog,
        total_gbps=sw.cage_gbps or speed,
        ports=ppc,
        technology=sw.technology,
    )
    return Cabling(switch_optic=optic, core_optic=optic)


def _objective_flops(gpu: Gpu, workload: str) -> tuple[float | None, str]:
    if workload == "inference":
        return gpu.fp8_dense_tflops, "dense FP8 PFLOPS per MW of IT power"
    return gpu.bf16_dense_tflops, "dense BF16 PFLOPS per MW of IT power"


class _OverCap(Exception):
    """A design over its IT cap, with the IT power beyond compute and the compute fabric."""

    def __init__(self, overhead_w: float, message: str, raise_to_w: float) -> None:
        super().__init__(message)
        self.overhead_w = overhead_w
        self.message = message
        self.raise_to_w = raise_to_w


def build_design(
    catalog: Catalog,
    request: DesignRequest,
    choices: DesignChoices,
    *,
    mode: Mode = "offline",
    assumptions: list[Assumed] | None = None,
    alternatives: TradeStudy | None = None,
    platform_reason: str = "named in the request",
) -> Design:
    """Rebuild and validate a full design from choices. Raises InfeasibleDesignError when the
    request cannot be met, saying what would fit.

    The power-first solve budgets compute and the compute fabric; the storage fabric, management
    networks and servers come on top. When the cap sizes the design, the cap is solved again with
    that overhead set aside until the whole design fits (the overhead never grows as nodes fall,
    so a few rounds settle); when the request names the GPUs, "what fits" sets it aside too.
    """
    system = gpu_system(catalog, choices.platform)
    cap_sized = request.power_cap_w is not None and not (request.nodes or request.gpus)
    best: Design | None = None
    reserve = 0.0
    for _ in range(8):
        try:
            d = _build_design(
                catalog,
                request,
                choices,
                mode=mode,
                assumptions=assumptions,
                alternatives=alternatives,
                platform_reason=platform_reason,
                reserve_w=reserve,
            )
        except _OverCap as over:
            if best is not None:
                return best
            if request.nodes or request.gpus:
                fits = _most_that_fit(catalog, request, choices)
            elif over.overhead_w <= reserve:
                fits = None
            else:
                reserve = over.overhead_w
                continue
            hint = (
                f"at most {fits} GPUs ({fits // system.gpus_per_node} {system.id} nodes) fit "
                "under it"
                if fits
                else f"no {system.id} design fits under it"
            )
            raise InfeasibleDesignError(
                over.message,
                hint=f"{hint}; or raise the cap to {over.raise_to_w / 1e6:.2f} MW IT",
                fits_gpus=fits or 0,
            ) from None
        if not cap_sized or reserve == 0.0:
            return d
        # Set aside this design's own overhead, smaller than the last: one more node may fit.
        own = _overhead_w(d)
        if own >= reserve - 1e-6:
            return d
        best, reserve = d, own
    if best is None:  # pragma: no cover - the overhead settles in two or three rounds
        raise InfeasibleDesignError(f"no {system.id} design settles under the cap")
    return best


def _overhead_w(d: Design) -> float:
    """IT power beyond compute and the compute fabric: what the power-first solve leaves out."""
    p = d.power
    return p.it_total_w - p.compute_w - p.compute_fabric_switches_w - p.compute_fabric_optics_w


def _most_that_fit(catalog: Catalog, request: DesignRequest, choices: DesignChoices) -> int | None:
    """GPUs of the largest whole design under the request's cap (the cap sizes it)."""
    capped = request.model_copy(update={"gpus": None, "nodes": None})
    try:
        return build_design(catalog, capped, choices).compute.gpus
    except InfeasibleDesignError:
        return None


def _build_design(
    catalog: Catalog,
    request: DesignRequest,
    choices: DesignChoices,
    *,
    mode: Mode,
    assumptions: list[Assumed] | None,
    alternatives: TradeStudy | None,
    platform_reason: str,
    reserve_w: float,
) -> Design:
    assumed = list(assumptions or [])
    warnings: list[str] = []
    system = gpu_system(catalog, choices.platform)
    gpu = catalog.gpu(system.gpu or "")
    arch: Architecture | None = catalog.architecture_for(system.id, choices.fabric)
    workload = request.workload or "training"
    power = node_power(system)

    # Power cap as IT watts.
    pue_default, pue_src = _assumption(catalog, "pue")
    pue = request.pue or pue_default
    if request.pue is None:
        assumed.append(
            Assumed(field="pue", value=f"{pue:g}", reason="PUE not given", source=pue_src)
        )
    cap_basis = request.power_cap_basis or ("it" if request.power_cap_w else None)
    if request.power_cap_w and request.power_cap_basis is None:
        assumed.append(
            Assumed(
                field="power_cap_basis",
                value="it",
                reason=f"{request.power_cap_w / 1e6:g} MW read as IT power; facility "
                f"{request.power_cap_w * pue / 1e6:.2f} MW at PUE {pue:g}",
            )
        )
    it_cap = None
    if request.power_cap_w:
        it_cap = it_cap_w(request.power_cap_w, cap_basis or "it", pue)

    fab_choices = FabricChoices(
        technology=choices.fabric,
        oversubscription=choices.oversubscription,
        planes=choices.planes,
    )

    # Node count: from GPUs, nodes, or the power-first solve.
    cap_solve = None
    if it_cap:
        try:
            if it_cap - reserve_w <= 0:
                raise InfeasibleDesignError(
                    "the cap leaves nothing for compute", hint="raise the power cap"
                )
            cap_solve = power_first(catalog, system.id, it_cap - reserve_w, choices=fab_choices)
        except InfeasibleDesignError as exc:
            raise InfeasibleDesignError(
                f"no {system.id} node fits under {it_cap / 1e6:g} MW IT",
                hint=exc.hint,
            ) from None
    if request.nodes:
        nodes = request.nodes
    elif request.gpus:
        nodes = ceil_div(request.gpus, system.gpus_per_node)
        if nodes * system.gpus_per_node != request.gpus:
            warnings.append(
                f"{request.gpus} GPUs round up to {nodes} {system.id} nodes "
                f"({nodes * system.gpus_per_node} GPUs)"
            )
    elif cap_solve is not None:
        nodes = cap_solve.nodes
        assumed.append(
            Assumed(
                field="gpus",
                value=str(cap_solve.gpus),
                reason="no GPU count given: the most that fit under the cap",
            )
        )
    else:  # pragma: no cover - parse_request guarantees one of them
        raise RequestError("nothing to size: give GPUs, nodes or a power cap")

    setup = resolve_fabric(
        catalog,
        system,
        nodes,
        technology=choices.fabric,
        oversubscription=choices.oversubscription,
        planes=choices.planes,
    )
    assumed += [a for a in setup.assumed if a.field not in {"oversubscription"}]
    compute_fabric = size_fabric(setup.plan, setup.leaf, setup.spine, setup.core, setup.cabling)
    follows_ra = setup.architecture is not None

    # Storage.
    tier: str | None = choices.storage_tier or request.storage_tier
    if tier is None:
        tier = (arch.storage_tier_default if arch else None) or "better"
        assumed.append(
            Assumed(
                field="storage_tier", value=tier, reason="storage tier not given; the RA's default"
            )
        )
    targets = storage_targets(catalog, tier, nodes, setup.plan.su_nodes)
    st_speed = system.storage.port_speed_gbps if system.storage else 400.0
    gpus_n = nodes * system.gpus_per_node
    io_plan = design_io(
        catalog,
        gpus=gpus_n,
        gpus_per_node=system.gpus_per_node,
        read_gb_per_s=targets.read_gb_per_s,
        storage_network_gb_per_s=None,
        layout=request.dataset_layout,
        sample_mb=request.sample_mb,
        checkpoint_gb=request.checkpoint_gb,
        model_params_b=request.model_params_b,
        checkpoints=workload in {"training", "fine-tuning"},
    )
    assumed += io_plan.assumed
    fs = io_plan.file_system
    # The read target at line rate, and a port for every storage target the file system needs.
    storage_ports = max(
        2, ceil_div(int(targets.read_gb_per_s * 8), int(st_speed)), fs.storage_targets or 0
    )
    storage_fabric = _storage_fabric(
        catalog,
        system,
        nodes,
        arch.storage_fabric if arch else None,
        arch.su_nodes if arch else None,
        storage_ports,
    )
    network_gb: float | None = None
    if storage_fabric is not None and system.storage is not None:
        node_side = nodes * system.storage.ports * storage_fabric.port_speed_gbps / 8
        network_gb = min(node_side, storage_ports * storage_fabric.port_speed_gbps / 8)
    io = analyze_storage(
        catalog, io_plan.workload.model_copy(update={"storage_network_gb_per_s": network_gb})
    )
    storage_notes = [
        f"storage-side ports: the {tier} read target {targets.read_gb_per_s:g} GB/s at "
        f"{st_speed:g} Gb/s line rate and one per storage target, at least 2 (an estimate; the "
        "storage vendor sizes the array)",
        f"file system: {fs.basis}",
    ]
    if io_plan.checkpoint_interval_basis:
        storage_notes.append(f"checkpoint interval: {io_plan.checkpoint_interval_basis}")
    elif workload in {"training", "fine-tuning"}:
        storage_notes.append(
            "checkpoint not timed: give the model size (e.g. 70B) or the checkpoint size"
        )
    storage = StorageSection(
        targets=targets,
        storage_ports=storage_ports,
        port_speed_gbps=st_speed,
        file_system=fs,
        io=io,
        layout=io.recommended_layout,
        notes=storage_notes + io.notes,
    )

    # Servers and management networks.
    fm = (
        catalog.system(arch.fabric_manager) if arch and arch.fabric_manager and follows_ra else None
    )
    fm_count = arch.fabric_manager_count if fm and arch else 0
    mgmt_count = arch.management_servers if arch else 2
    mgmt = next((s for s in catalog.all("systems", System) if s.kind == "management-server"), None)
    inband_ports = nodes * (system.inband.ports if system.inband else 1) + 2 * (
        mgmt_count + fm_count
    )
    inband = _mgmt_network(
        catalog, "in-band management", arch.inband_fabric if arch else None, inband_ports, 100
    )
    switch_count = compute_fabric.total_switches + (
        storage_fabric.total_switches if storage_fabric else 0
    )
    switch_count += inband.total_switches if inband else 0
    pdus_per_rack = 3
    rack_power_default, rack_src = _assumption(
        catalog, "rack-power-kw-liquid" if system.cooling == "liquid" else "rack-power-kw-air"
    )
    rack_kw = choices.rack_power_kw or request.rack_power_kw
    if rack_kw is None:
        if arch and arch.rack_power_kw:
            rack_kw = arch.rack_power_kw
            assumed.append(
                Assumed(
                    field="rack_power_kw",
                    value=f"{rack_kw:g}",
                    reason=f"{arch.name} rack layout",
                    source=arch.source,
                )
            )
        else:
            rack_kw = rack_power_default
            assumed.append(
                Assumed(
                    field="rack_power_kw",
                    value=f"{rack_kw:g}",
                    reason="rack limit not given",
                    source=rack_src,
                )
            )
    cooling = (
        choices.cooling or request.cooling or ("liquid" if system.cooling == "liquid" else "air")
    )
    racks_plan = plan_racks(
        system,
        nodes,
        power.node_w,
        rack_kw,
        48,
        cooling,
        arch.nodes_per_rack
        if arch and not (choices.rack_power_kw or request.rack_power_kw)
        else None,
    )
    oob_hosts = (
        nodes * (system.oob.ports if system.oob else 1) + switch_count + mgmt_count + fm_count
    )
    oob_hosts += racks_plan.compute_racks * pdus_per_rack
    oob = _mgmt_network(
        catalog, "out-of-band management", arch.oob_fabric if arch else None, oob_hosts, 1
    )
    if oob:
        switch_count += oob.total_switches
    # Management servers and fabric managers at 2U each, racks at 36 usable U: stated estimates.
    server_ru = 2 * (mgmt_count + fm_count)
    if follows_ra and arch and arch.network_racks_per_su and compute_fabric.su_nodes:
        # The RA's SU layout: each SU's leaves sit in its own network rack(s); spines, cores and
        # servers in central management racks.
        leaves = compute_fabric.leaf_switches
        leaves += storage_fabric.leaf_switches if storage_fabric else 0
        leaves += inband.leaf_switches if inband else 0
        leaves += oob.leaf_switches if oob else 0
        central_ru = switch_count - leaves + server_ru
        su_racks = compute_fabric.scalable_units * arch.network_racks_per_su
        network_racks = su_racks + max(1, ceil_div(central_ru, 36))
        rack_basis = (
            f"{su_racks} SU network rack(s) for the leaves ({arch.name} SU layout) + "
            f"{network_racks - su_racks} management rack(s): spines, cores and servers over 36 "
            "usable U"
        )
    else:
        network_racks = max(1, ceil_div(switch_count + server_ru, 36))
        rack_basis = "network racks: switch and server rack units over 36 usable U per rack"
    net_pdus, net_pdus_src = _assumption(catalog, "network-rack-pdus")
    pdus = racks_plan.compute_racks * pdus_per_rack + network_racks * int(net_pdus)

    # Power.
    unknown: list[str] = []
    compute_w = nodes * power.node_w
    sf_w = storage_fabric.power.known_w if storage_fabric else 0.0
    mn_w = (inband.switch_power_w or 0.0 if inband else 0.0) + (
        oob.switch_power_w or 0.0 if oob else 0.0
    )
    mgmt_w_each = [s.max_power_w for s in (mgmt, fm) if s is not None]
    servers_w: float | None = None
    if (
        mgmt is not None
        and mgmt.max_power_w is not None
        and (fm is None or fm.max_power_w is not None)
    ):
        servers_w = mgmt_count * mgmt.max_power_w + fm_count * (
            fm.max_power_w if fm and fm.max_power_w else 0.0
        )
    else:
        unknown.append("management server / fabric manager power (not in the catalog)")
    del mgmt_w_each
    unknown.append("storage array power (depends on the vendor array; not in the catalog)")
    cf_switches_w, cf_optics_w = known_power_w(compute_fabric)
    if compute_fabric.power.switches_w is None:
        unknown.append(
            f"compute-fabric switch power ({compute_fabric.leaf_switch} not in the catalog)"
        )
    if compute_fabric.power.optics_w is None:
        unknown.append("compute-fabric transceiver power (no catalog part fits)")
    it_total = compute_w + cf_switches_w + cf_optics_w + sf_w + mn_w + (servers_w or 0.0)
    facility = it_total * pue
    headroom = None
    if request.power_cap_w:
        headroom = (it_cap or 0.0) - it_total
    power_section = PowerSection(
        compute_w=compute_w,
        compute_fabric_switches_w=cf_switches_w,
        compute_fabric_optics_w=cf_optics_w,
        storage_fabric_w=sf_w,
        management_network_w=mn_w,
        management_servers_w=servers_w,
        storage_w=None,
        it_total_w=it_total,
        pue=pue,
        facility_total_w=facility,
        cap_w=request.power_cap_w,
        cap_basis=cap_basis,
        headroom_w=headroom,
        unknown=unknown,
    )
    if headroom is not None and headroom < 0 and cap_solve is not None:
        compute_part = compute_w + compute_fabric.power.known_w
        raise _OverCap(
            it_total - compute_part,
            f"{nodes * system.gpus_per_node} {gpu.id} GPUs need {it_total / 1e6:.2f} MW IT, over "
            f"the {(it_cap or 0) / 1e6:.2f} MW IT cap",
            it_total,
        )

    # Checks.
    checks = fabric_checks("compute fabric", compute_fabric)
    if storage_fabric:
        checks += fabric_checks("storage fabric", storage_fabric)
    if request.power_cap_w:
        checks.append(
            check(
                "power under cap",
                (headroom or 0.0) >= 0,
                f"{it_total / 1e6:.3f} MW IT of {(it_cap or 0) / 1e6:.3f} MW",
                "IT power of compute, fabrics, management (storage arrays not included)",
            )
        )
    checks.append(
        check(
            "rack power within limit",
            racks_plan.rack_power_kw <= rack_kw * 1.0001,
            f"{racks_plan.rack_power_kw:.1f} kW of {rack_kw:g} kW",
            f"{racks_plan.nodes_per_rack} node(s) per rack, limited by {racks_plan.limited_by}",
        )
    )
    checks.append(
        check(
            "cooling matches platform",
            not (system.cooling == "liquid" and cooling == "air"),
            f"{system.id} is {system.cooling}-cooled; racks are {cooling}",
            "a liquid-cooled platform cannot go in air-cooled racks",
        )
    )
    need_1to1 = workload in {"training", "fine-tuning"}
    checks.append(
        check(
            "fabric suits the workload",
            compute_fabric.oversubscription <= 1.0 or not need_1to1,
            f"{compute_fabric.oversubscription:g}:1 for {workload}",
            "training all-reduce needs a non-blocking compute fabric (the SuperPOD RAs are full fat trees)",
            severity="warning",
        )
    )
    if request.gpus:
        checks.append(
            check(
                "GPU count delivered",
                nodes * system.gpus_per_node >= request.gpus,
                f"{nodes * system.gpus_per_node} of {request.gpus}",
                "whole nodes cover the requested GPUs",
            )
        )
    st_cap = storage_ports * st_speed / 8
    checks.append(
        check(
            "storage ports carry the read target",
            st_cap >= targets.read_gb_per_s,
            f"{st_cap:g} GB/s of {targets.read_gb_per_s:g} GB/s",
            f"{tier} tier, {targets.basis}",
        )
    )
    checks += storage_io_checks(io)
    if compute_fabric.notes and any("not attached" in n for n in compute_fabric.notes):
        warnings.append(next(n for n in compute_fabric.notes if "not attached" in n))

    # Training estimate.
    training = None
    if request.model_params_b and request.training_tokens_t:
        mfu, mfu_src = _assumption(catalog, "mfu")
        if gpu.bf16_dense_tflops:
            flops = 6 * request.model_params_b * 1e9 * request.training_tokens_t * 1e12
            gpus_n = nodes * system.gpus_per_node
            seconds = flops / (gpus_n * gpu.bf16_dense_tflops * 1e12 * mfu)
            training = TrainingEstimate(
                model_params_b=request.model_params_b,
                training_tokens_t=request.training_tokens_t,
                total_flops=flops,
                gpus=gpus_n,
                dense_bf16_tflops_per_gpu=gpu.bf16_dense_tflops,
                mfu=mfu,
                days=seconds / 86400,
                formula="6·N·D / (GPUs × dense BF16 peak × MFU)",
            )
            assumed.append(
                Assumed(
                    field="mfu",
                    value=f"{mfu:g}",
                    reason="model FLOPs utilisation for the estimate",
                    source=mfu_src,
                )
            )
        else:
            warnings.append(f"no training estimate: dense BF16 throughput of {gpu.id} is unknown")

    bom_lines = build_bom(
        catalog,
        system,
        nodes,
        power,
        compute_fabric,
        storage_fabric,
        inband,
        oob,
        fm,
        fm_count,
        mgmt,
        mgmt_count,
        racks_plan,
        network_racks,
        pdus,
        f"{pdus_per_rack} per compute rack (H100 RA rack layout); {net_pdus:g} per network rack "
        f"({net_pdus_src})",
    )
    total_racks = racks_plan.compute_racks + network_racks
    return Design(
        mode=mode,
        request=request,
        choices=choices,
        assumptions=assumed,
        platform=PlatformSection(
            system=system.id,
            name=system.name,
            gpu=gpu.id,
            gpu_name=gpu.name,
            gpus_per_node=system.gpus_per_node,
            architecture=arch.id if arch else None,
            architecture_name=arch.name if arch else None,
            cooling=system.cooling,
            reason=platform_reason,
        ),
        compute=ComputeSection(
            nodes=nodes,
            gpus=nodes * system.gpus_per_node,
            requested_gpus=request.gpus,
            scalable_units=compute_fabric.scalable_units,
            su_nodes=compute_fabric.su_nodes,
            node_power=power,
            max_nodes_under_cap=cap_solve.nodes if cap_solve else None,
            max_gpus_under_cap=cap_solve.gpus if cap_solve else None,
        ),
        fabrics=FabricsSection(
            compute=compute_fabric, storage=storage_fabric, inband=inband, oob=oob
        ),
        servers=ServersSection(
            fabric_manager=fm.id if fm else None,
            fabric_managers=fm_count,
            management_server=mgmt.id if mgmt else None,
            management_servers=mgmt_count,
            basis=f"{arch.name} counts" if arch else "two management servers (HA pair), no RA",
        ),
        racks=RacksSection(
            compute=racks_plan,
            network_racks=network_racks,
            total_racks=total_racks,
            rack_type=rack.id if (rack := rack_type_for(catalog, racks_plan)) else None,
            pdus=pdus,
            basis=rack_basis,
        ),
        power=power_section,
        storage=storage,
        training=training,
        bom=bom_lines,
        bom_totals=bom_mod.totals(bom_lines),
        checks=checks,
        alternatives=alternatives,
        warnings=warnings,
        provenance=Provenance(
            engine_version=__version__,
            catalog_hash=catalog.hash,
            catalog_directories=[str(d) for d in catalog.directories],
            mode=mode,
            generated_by="clustergen offline planner" if mode == "offline" else "clustergen agent",
        ),
    )


def rack_type_for(catalog: Catalog, racks: RackPlan) -> RackType | None:
    """The catalog rack of the right cooling whose power profile is nearest the compute rack's:
    rack types are published per density (e.g. two DGX B200 at 28.6 kW, four DGX H100 at ~40 kW),
    so the nearest profile is the one built for this platform."""
    fits = [
        r for r in catalog.all("racks", RackType) if r.cooling in (racks.cooling, "air-or-liquid")
    ]
    return min(
        fits, key=lambda r: (abs(r.power_limit_kw - racks.rack_power_kw), r.id), default=None
    )


def build_bom(
    catalog: Catalog,
    system: System,
    nodes: int,
    power: NodePower,
    compute: FabricDesign,
    storage: FabricDesign | None,
    inband: ManagementNetwork | None,
    oob: ManagementNetwork | None,
    fm: System | None,
    fm_count: int,
    mgmt: System | None,
    mgmt_count: int,
    racks: RackPlan,
    network_racks: int,
    pdus: int,
    pdu_basis: str,
) -> list[bom_mod.BomLine]:
    """Every part of the design as BOM lines."""
    line = bom_mod.line
    out = [line("compute", nodes, system.name, system, power.node_w)]
    if system.compute and system.compute.nic:
        nic = catalog.nic(system.compute.nic)
        n = nodes * (system.compute.nics or system.compute.ports)
        out.append(
            line(
                "nic",
                n,
                f"{nic.name} (compute fabric; in the node, power counted there)",
                nic,
                None,
            )
        )
    for label, f in (("compute fabric", compute), ("storage fabric", storage)):
        if f is None:
            continue
        for role, count, sw_id in (
            ("leaf", f.leaf_switches, f.leaf_switch),
            ("spine", f.spine_switches, f.spine_switch),
            ("core", f.core_switches, f.core_switch),
        ):
            if count and sw_id:
                sw = catalog.switch(sw_id)
                out.append(
                    line("switch", count, f"{sw.name}, {label} {role}", sw, sw.typical_power_w)
                )
        for t in f.transceivers:
            optic = catalog.optic(t.optic) if t.optic else None
            out.append(
                line(
                    "transceiver",
                    t.count,
                    f"{optic.name if optic else 'transceiver'}, {label} {t.location} side",
                    optic,
                    t.unit_power_w,
                )
            )
        for c in f.cables:
            out.append(
                line(
                    "cable",
                    c.count,
                    f"{c.speed_gbps:g} Gb/s {c.media} cable, {label} {c.segment}",
                    None,
                    None,
                    source="link count from the fabric rules",
                )
            )
    for net in (inband, oob):
        if net is None:
            continue
        sw = catalog.switch(net.switch)
        out.append(
            line("switch", net.total_switches, f"{sw.name}, {net.name}", sw, sw.typical_power_w)
        )
    if fm and fm_count:
        out.append(line("fabric-manager", fm_count, fm.name, fm, fm.max_power_w))
    if mgmt and mgmt_count:
        out.append(line("management-server", mgmt_count, mgmt.name, mgmt, mgmt.max_power_w))
    rack = rack_type_for(catalog, racks)
    total_racks = racks.compute_racks + network_racks
    out.append(line("rack", total_racks, rack.name if rack else "rack", rack, None))
    out.append(
        line(
            "pdu",
            pdus,
            (rack.pdu_name if rack and rack.pdu_name else "rack PDU"),
            None,
            None,
            source=pdu_basis,
        )
    )
    out.append(
        line(
            "storage",
            1,
            "parallel file system sized to the storage targets (vendor array; placeholder)",
            None,
            None,
            source="placeholder: choose a certified SuperPOD storage partner",
        )
    )
    return out
