"""A complete reference design and its sections: the same model in offline and agent mode."""

from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_serializer,
)

from clustergen.engine.model.bom import BomLine, BomTotals
from clustergen.engine.model.bounds import RackKw
from clustergen.engine.model.common import Assumed, Check
from clustergen.engine.model.compute import NodePower, RackPlan
from clustergen.engine.model.cooling import LiquidCooling
from clustergen.engine.model.fabric import FabricDesign
from clustergen.engine.model.inventory import Inventory
from clustergen.engine.model.links import LinkGroup
from clustergen.engine.model.pools import Pool
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.model.run import AgentRun, GroundingReport
from clustergen.engine.model.storage import FileSystem, StorageAnalysis, StorageTargets
from clustergen.engine.model.tco import CostOfOwnership
from clustergen.engine.model.workload import WorkloadEstimate
from clustergen.factories import empty_list

Mode = Literal["offline", "agent"]


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DesignChoices(_M):
    """The choices a design is rebuilt from: what the planner or the model decides."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    platform: str = Field(max_length=200, description="system id, e.g. dgx-h100, gb200-nvl72")
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
    rack_power_kw: RackKw | None = None
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
    follows_ra: bool = Field(
        default=False,
        description="the compute fabric is built as the platform's reference architecture builds it",
    )
    rack_scale: bool = Field(
        default=False, description="one node is a whole rack (an NVL72): counted in racks"
    )
    gpu_link: str = Field(
        default="NVLink",
        description="what the GPUs of one node talk over without a network (NVLink, PCIe, ...)",
    )
    lone_unit: str = Field(
        default="one node, its GPUs share NVLink",
        description="what a design of one node is, in words: 'one node, its GPUs share NVLink', "
        "or for a rack-scale system 'one GB200 NVL72 rack, its 72 GPUs share NVLink (...)'",
    )


class ComputeSection(_M):
    """Compute nodes and GPUs."""

    nodes: int
    gpus: int
    requested_gpus: int | None
    spare_nodes: int = Field(
        default=0, description="of the nodes, the spares asked for beyond the size"
    )
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
    in_rack_switches: int = Field(
        default=0, description="switches inside the compute racks (two SN2201 per NVL72 rack)"
    )
    uplinks: int = Field(
        default=0,
        ge=0,
        description=(
            "links from the access switches up to the fabric carrying in-band management (two "
            "per OOB switch, H100 RA Table 8); 0 where the RA does not say"
        ),
    )
    uplink_gbps: float | None = None
    uplink_cage_form: str | None = None
    server_ports: int = Field(
        default=0,
        ge=0,
        description=(
            "of host_ports, the management servers' in-band ports (their own link group, on the "
            "server's in-band port)"
        ),
    )
    fabric_manager_ports: int = Field(
        default=0,
        ge=0,
        description="of host_ports, the fabric managers' in-band ports (UFM at 1 GbE: Table 8)",
    )
    leaf_spine_links: int = Field(default=0, ge=0, description="leaf to spine (core) links")
    spine_core_links: int = Field(default=0, ge=0, description="spine to core links (3 tiers)")
    inter_switch_links: int = Field(
        default=0, ge=0, description="peer links within the leaf pairs (MLAG ISLs)"
    )


NetworkName = Literal["compute", "storage", "in-band management", "out-of-band management"]
Carrier = Literal["compute", "storage", "inband", "oob", "node"]


class NetworkRole(_M):
    """One of the four networks a design needs and the physical fabric that carries it."""

    network: NetworkName
    carried_by: Carrier = Field(
        description=(
            "the fabrics section that carries it (compute, storage, inband, oob), or node when "
            "a single node needs no network of its own (its GPUs share the node's GPU link)"
        )
    )
    detail: str


class FabricsSection(_M):
    """Every network of the design: the physical fabrics, and which fabric carries each of the
    four networks (compute, storage, in-band and out-of-band management), so a converged or
    collapsed design (one fabric carrying several) is stated, never a silent gap."""

    compute: FabricDesign | None = Field(
        description="None for a single node: its GPUs talk over NVLink, no scale-out fabric"
    )
    storage: FabricDesign | None
    inband: ManagementNetwork | None
    oob: ManagementNetwork | None
    networks: list[NetworkRole] = Field(default_factory=empty_list)


class ServersSection(_M):
    """Fabric managers and management (head) servers, and the rule each count follows."""

    fabric_manager: str | None
    fabric_managers: int
    management_server: str | None
    management_servers: int
    basis: str
    fabric_manager_rule: str | None = None
    fabric_manager_pair_cables: int = Field(
        default=0,
        ge=0,
        description="cables joining the fabric managers' HA pairs back to back (H100 RA Table 8)",
    )
    management_rule: str | None = None


class RacksSection(_M):
    """Compute and network racks."""

    compute: RackPlan
    network_racks: int
    su_network_racks: int = Field(
        default=0,
        description="of the network racks, those holding each SU's leaves (the RA's SU layout)",
    )
    total_racks: int
    rack_type: str | None
    pdus: int
    basis: str
    cooling: LiquidCooling | None = Field(
        default=None,
        description="liquid-cooled compute racks: heat to liquid and the CDUs; None for air",
    )


class PowerSection(_M):
    """Power per subsystem, IT and facility totals, headroom against the cap.

    An unknown term is never counted as zero: `complete` says whether every term is known. When
    it is not, `it_total_w` and `facility_total_w` are lower bounds (the known terms), `unknown`
    names what is missing, and no headroom is stated. `estimated` names the terms that rest on a
    labelled estimate (a comparable part's figure) rather than a published one."""

    compute_w: float
    compute_fabric_switches_w: float
    compute_fabric_optics_w: float
    storage_fabric_w: float
    management_network_w: float
    management_servers_w: float | None
    storage_w: float | None
    it_total_w: float = Field(description="sum of the known terms; a lower bound unless complete")
    pue: float
    facility_total_w: float
    cap_w: float | None
    cap_basis: Literal["it", "facility"] | None
    headroom_w: float | None = Field(
        description="None when there is no cap or the sum is incomplete"
    )
    complete: bool = Field(default=True, description="every term of the IT total is known")
    unknown: list[str]
    estimated: list[str] = Field(default_factory=empty_list)


class StorageAppliances(_M):
    """The storage appliances the targets need: count, bandwidth, ports, power and space."""

    appliance: str
    name: str
    count: int = Field(ge=1)
    read_gb_per_s: float = Field(description="aggregate sustained read")
    write_gb_per_s: float | None = Field(description="aggregate sustained write; None if unknown")
    ports: int = Field(description="storage-fabric ports, all appliances")
    port_speed_gbps: float
    power_w: float | None
    rack_units: int | None
    basis: str


class StorageSection(_M):
    """Storage targets from SuperPOD guidance, the appliances and file system sized to them, and
    the data path: will it keep the GPUs fed (the storage I/O model run for this design's GPUs
    and workload)."""

    targets: StorageTargets
    appliances: StorageAppliances | None = None
    storage_ports: int
    port_speed_gbps: float
    file_system: FileSystem
    io: StorageAnalysis = Field(
        description="metadata load, GPU utilisation the data path allows, binding limit, checkpoint"
    )
    layout: str = Field(description="recommended dataset layout")
    notes: list[str]
    existing: bool = Field(
        default=False,
        description="the customer's own storage serves the cluster (the request puts storage out "
        "of scope): no storage system is quoted or powered; the targets say what it should deliver",
    )
    site_storage: bool = Field(
        default=False,
        description="a single-node footprint: the site's storage serves the node, so the design "
        "holds no storage system or storage fabric (the targets say what that storage delivers)",
    )


def data_path_applies(site_storage: bool, workload: str | None) -> bool:
    """Whether the training data path (data loaders reading a data set: its layout, read
    pattern, workers, metadata servers) describes a design. It does wherever it trains; a
    serving design loads model weights, not a data set, so none of those defaults or checks
    apply to it, on the site's storage or its own (its own was listed eight data-loader
    assumptions and a "GPUs 100% busy" data path)."""
    return (workload or "training") != "inference"


class ExpansionSection(_M):
    """The standing installation a design extends: the design itself is the increment."""

    existing_platform: str = Field(description="system id of the existing installation")
    existing_nodes: int | None = Field(description="its nodes; None when not stated")
    existing_gpus: int | None = Field(description="its GPUs; None when not stated")
    total_gpus: int | None = Field(
        description="GPUs of the installation once the increment joins it; None when its size "
        "is not stated"
    )
    standing_leaf_switches: int | None = Field(
        default=None,
        description="compute-fabric leaves of the standing installation, as its RA builds it "
        "(the design's own counts are those added); None when its size is not stated",
    )
    standing_spine_switches: int | None = Field(
        default=None, description="its compute-fabric spines, likewise"
    )
    standing_core_switches: int | None = Field(
        default=None, description="its compute-fabric core switches, likewise"
    )
    existing_it_w: float | None = Field(
        default=None,
        description="the standing installation's IT draw a cap over both holds: stated, or "
        "estimated (existing_it_estimated); None when neither is known",
    )
    existing_it_estimated: bool = Field(
        default=False,
        description="existing_it_w is an estimate: the standing installation as its RA builds "
        "it, at published maximum power",
    )


class ScaleSection(_M):
    """How a large design is split, and whether it is past what an RA publishes or site-scale."""

    ra_max_nodes: int | None = Field(
        description="the largest cluster the design's RA publishes; None if unknown or no RA"
    )
    beyond_ra: bool = Field(description="more nodes than the RA publishes a design for")
    pods: int | None = Field(description="pods of the compute fabric (a 3-tier fabric's pods)")
    pod_nodes: int | None = Field(description="nodes a pod holds at most")
    planes: int = Field(description="independent compute-fabric planes")
    split: str = Field(description="how the compute fabric is split, in words")
    site_scale: bool = Field(description="IT power past the site-scale threshold")
    caveat: str | None = Field(description="the first-lines statement when beyond the RA or site")
    basis: str


class Alternative(_M):
    """One row of the trade study: a projection of the whole design the engine builds for the
    candidate, so the chosen row and the answer are the same design. `why_not` says, for every row
    not chosen, why: not eligible (over the cap, a blocking fabric for training, power or
    throughput unknown, the workload not met), or ranked below the chosen row."""

    platform: str
    fabric: str
    switch: str
    oversubscription: float
    nodes: int
    gpus: int
    rack_scale: bool = Field(
        default=False, description="one node is a whole rack (an NVL72): nodes count racks"
    )
    needed_gpus: int | None = Field(
        default=None, description="GPUs the request or its workload needs on this platform"
    )
    it_power_w: float = Field(
        description="IT power of the whole design; a lower bound if not power_complete"
    )
    facility_power_w: float | None = Field(default=None, description="IT power x PUE")
    fabric_power_w: float = Field(description="compute fabric: switches and transceivers")
    switches: int = Field(description="switches of every fabric of the design")
    racks: int | None = Field(default=None, description="racks of the whole design")
    output_tokens_per_s: float | None = Field(
        default=None,
        description="output tokens/s the row serves: its serving estimate's rate per GPU x its "
        "GPUs; None without a serving estimate",
    )
    dense_pflops: float | None = Field(
        default=None, description="dense PFLOPS at the workload's precision; None if unknown"
    )
    capital_usd: float | None = Field(
        default=None, description="the design's priced BOM lines, USD; None when none is priced"
    )
    capital_complete: bool = Field(
        default=False, description="every orderable line priced: capital_usd is the total"
    )
    objective: float | None = Field(description="the row's score under the study's objective")
    eligible: bool
    infeasible: bool = Field(
        default=False,
        description="cannot meet the request at all (over the cap, the workload not met): such a "
        "row is never built as the answer, even as the closest",
    )
    why_not: str | None
    chosen: bool
    follows_ra: bool = Field(
        default=False, description="built on its platform's reference-architecture fabric"
    )
    power_complete: bool = Field(default=True, description="every term of it_power_w is known")
    power_estimated: bool = Field(
        default=False, description="a term of it_power_w rests on a labelled estimate"
    )


class DroppedCandidate(_M):
    """A candidate the trade study could not size at all, and why."""

    platform: str
    fabric: str | None = Field(description="technology tried; None when no fabric could help")
    oversubscription: float | None = Field(description="None when no fabric could help")
    why_not: str
    kind: str = Field(description="the kind of refusal, as clustergen reports errors")


class TradeStudy(_M):
    """Alternatives the planner weighed, ranked by a stated objective; candidates that could not
    be sized, with the reason. `ranking` states the order the rows are in, so the first eligible
    row is the one chosen."""

    objective: str
    better: Literal["higher", "lower"] = Field(
        default="higher", description="which way the objective column ranks"
    )
    objective_unit: Literal["W", "USD", "GPUs", "PFLOPS", "PFLOPS/MW", "tokens/s"] = Field(
        default="PFLOPS", description="the unit of each row's objective figure"
    )
    rows: list[Alternative]
    dropped: list[DroppedCandidate] = Field(default_factory=empty_list)
    ranking: str | None = None
    rows_left_off: int = Field(
        default=0, description="rows ranked below the last one listed and left off to keep it short"
    )
    dense_precision: str = Field(
        default="bf16", description="the number format each row's dense_pflops is stated at"
    )


class Provenance(_M):
    """Which engine and catalog made the design."""

    engine_version: str
    catalog_hash: str
    catalog_directories: list[str]
    mode: Mode
    generated_by: str
    inputs_sha256: str | None = Field(
        default=None,
        description="SHA-256 of the request and choices the design was built from (with the "
        "catalog hash): `render` tells an edit of the inputs from an edit of derived figures",
    )


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
    workload: WorkloadEstimate | None = Field(
        description="the workload estimate the design was sized for (GPUs, days, replicas, cost)"
    )
    links: list[LinkGroup] = Field(
        default_factory=empty_list,
        description="every link group with both ends and its cable (the BOM's transceivers and cables)",
    )
    inventory: Inventory | None = Field(
        default=None,
        description="every device group and every rack with its devices at their positions: "
        "what the rack plan, the cable schedule and the NetBox files are made from",
    )
    bom: list[BomLine]
    bom_totals: BomTotals
    cost: CostOfOwnership | None = Field(
        default=None,
        description="capital (the BOM's priced lines), energy and support over a term; unpriced "
        "terms unknown, never zero",
    )
    checks: list[Check]
    alternatives: TradeStudy | None
    notice: str | None = Field(
        default=None,
        description="what the answer does beyond or instead of the request (GPUs built past the "
        "need, a design built to fit under the cap), said in the first lines",
    )
    warnings: list[str]
    scale: ScaleSection | None = Field(
        default=None,
        description="how a design past its RA's published size is split, and the site-scale "
        "caveat; None for designs within it",
    )
    expansion: ExpansionSection | None = Field(
        default=None,
        description="the existing installation an expansion joins (the design is the increment); "
        "None for a new cluster",
    )
    pools: list[Pool] = Field(
        default_factory=empty_list,
        description="a mixed cluster's pools (training, serving), each on its own terms; the "
        "design's BOM, power, racks and checks cover them all; empty for a single pool",
    )
    serving_pool: "Design | None" = Field(
        default=None,
        description="a mixed cluster's serving pool as its own design (its trade study, "
        "workload estimate and checks); the enclosing design is the training pool with both "
        "pools' BOM, power and racks",
    )
    memo: str | None = None
    agent: AgentRun | None = None
    grounding: GroundingReport | None = None
    provenance: Provenance

    @field_serializer("request", mode="wrap")
    def _request_echo(
        self, request: DesignRequest, handler: SerializerFunctionWrapHandler
    ) -> dict[str, Any]:
        """The request as understood: what was given or read, never a field left at its default
        (a new request field that no one sets changes no design.json). Reading it back fills the
        defaults, so a design round-trips."""
        fields = type(request).model_fields
        echo: dict[str, Any] = handler(request)
        return {
            k: v
            for k, v in echo.items()
            if getattr(request, k) != fields[k].get_default(call_default_factory=True)
        }

    @property
    def data_path_applies(self) -> bool:
        """Whether the training data path (`data_path_applies`) describes this design."""
        return data_path_applies(self.storage.site_storage, self.request.workload)

    @property
    def passed(self) -> bool:
        """True when every error-severity check passed (an unknown one has not)."""
        return all(c.passed for c in self.checks if c.severity == "error")
