"""Reference architectures in the catalog: NVIDIA's RA patterns (C-G-N-B), the fabrics an\narchitecture specifies, and how its server counts scale."""

import re
from typing import Annotated, Literal

from pydantic import (
    Field,
    field_validator,
    model_validator,
)

from clustergen.catalog.models import Entry, Strict
from clustergen.catalog.ranges import (
    ArchCount,
    PortCount,
    PositiveInt,
)
from clustergen.catalog.refs import Ref
from clustergen.factories import empty_list


class NetworkingDefaults(Strict):
    """Fabric defaults an Enterprise RA pattern names."""

    fabric: Literal["infiniband", "ethernet"]
    platform: str
    leaf_switch: Annotated[str, Ref("switches")] | None = None
    spine_switch: Annotated[str, Ref("switches")] | None = None
    north_south: str | None = None


class RaPattern(Entry, kind="ra_patterns", file="ra_patterns.yaml", noun="RA pattern"):
    """An NVIDIA Enterprise RA node pattern in C-G-N-B form (CPUs-GPUs-NICs-Gb/s per GPU)."""

    cpus: Annotated[int, Field(ge=1, le=1024)]
    gpus_per_node: Annotated[int, Field(ge=1, le=4096)]
    nics: Annotated[int, Field(ge=1, le=4096)]
    bandwidth_gbps_per_gpu: Annotated[int, Field(ge=1, le=100_000)]
    node_count_min: PositiveInt
    node_count_max: PositiveInt
    su_nodes: Annotated[int, Field(ge=1, le=10_000)] = Field(
        description="scalable unit size in nodes"
    )
    workloads: list[Literal["training", "fine-tuning", "inference", "mixed"]]
    systems: list[Annotated[str, Ref("systems")]] = Field(
        default_factory=empty_list, description="system ids that fit the pattern"
    )
    networking: NetworkingDefaults

    @field_validator("id")
    @classmethod
    def _cgnb(cls, v: str) -> str:
        if not re.fullmatch(r"\d+-\d+-\d+-\d+", v):
            raise ValueError(f"RA pattern id {v!r} must be C-G-N-B, e.g. 2-8-9-400")
        return v

    @model_validator(mode="after")
    def _consistent(self) -> "RaPattern":
        expected = f"{self.cpus}-{self.gpus_per_node}-{self.nics}-{self.bandwidth_gbps_per_gpu}"
        if self.id != expected:
            raise ValueError(f"id {self.id!r} disagrees with its fields ({expected})")
        if self.node_count_min > self.node_count_max:
            raise ValueError("node_count_min exceeds node_count_max")
        return self


class FabricSpec(Strict):
    """How a reference architecture builds one fabric."""

    technology: Literal["infiniband", "ethernet"]
    switch: Annotated[str, Ref("switches")]
    rail_optimized: bool = False
    oversubscription: float = Field(default=1.0, ge=1.0, le=16.0)
    ports_per_node: PortCount | None = Field(
        default=None, description="node ports on this fabric; default from the system"
    )
    planes: int | None = Field(
        default=None, ge=1, le=64, description="parallel planes the RA builds; None for one"
    )
    plane_split: bool = Field(
        default=False,
        description=(
            "each node port is broken out into one lane group per plane (the B300 Spectrum-X "
            "twin-planar design: 800G as 2 x 400G), rather than the ports divided among planes"
        ),
    )
    switches_per_su: ArchCount | None = Field(
        default=None, description="published switch count per SU, when the RA gives one"
    )
    storage_leaves_per_su: int | None = Field(
        default=None,
        ge=1,
        le=10_000,
        description=(
            "storage fabric only: leaves per SU that take the storage devices' ports at 1:1, apart "
            "from the node leaves; None puts storage ports on the node leaves"
        ),
    )
    # Layout rules of the engine (sizing/fabric.py, sizing/clos.py, sizing/management.py).
    port_speed_gbps: float | None = Field(
        default=None, gt=0, le=3200, description="node ports run at this speed (BasePOD NDR200)"
    )
    rails: int | None = Field(
        default=None, ge=1, le=1024, description="rail groups per node (GB200 NVL72: 4)"
    )
    redundant: bool = Field(
        default=False, description="switch pairs: a one-tier pair with ISLs, >= 2 spines above"
    )
    peer_links: int | None = Field(
        default=None, ge=1, le=64, description="a pair of dual-homed hosts joined by peer links"
    )
    pair_below_su: bool = Field(
        default=False, description="a cluster below one SU that fits a pair gets the pair"
    )
    spine_leaf_groups: bool = Field(
        default=False, description="GB200 SuperPOD spine-leaf groups (a leaf per node and rail)"
    )
    switches_per_rack: int | None = Field(
        default=None, ge=1, le=16, description="OOB: in-rack switches per compute rack (NVL72)"
    )
    racks_per_switch: int | None = Field(
        default=None, ge=1, le=64, description="OOB: at least one switch per this many racks"
    )
    nodes_per_switch: int | None = Field(
        default=None, ge=1, le=1000, description="OOB: at least one switch per this many nodes"
    )
    min_switches: int | None = Field(
        default=None, ge=1, le=16, description="OOB: the fewest access switches of a cluster"
    )
    fabric_manager_ports: int | None = Field(
        default=None,
        ge=1,
        le=8,
        description=(
            "in-band: ports of each fabric manager the RA cables to this network (H100 RA Table "
            "8: one 1 GbE port a UFM); None where the RA does not cable them here"
        ),
    )
    uplinks_per_leaf: int | None = Field(
        default=None,
        ge=1,
        le=64,
        description=(
            "in-band: links from each access leaf to the switches above it where the RA gives its "
            "leaf-core cabling (None: the oversubscription's split)"
        ),
    )
    uplinks_per_switch: int | None = Field(
        default=None,
        ge=1,
        le=16,
        description=(
            "OOB: links from each access switch up to the fabric that carries in-band management "
            "(None where the RA does not say)"
        ),
    )
    uplink_gbps: float | None = Field(
        default=None, gt=0, le=3200, description="OOB: the speed of an access switch's uplink"
    )
    uplink_cage_form: str | None = Field(
        default=None, description="OOB: the cage of an access switch's uplink port (QSFP28)"
    )


class ScaledCount(Strict):
    """A server count an RA publishes for the sizes it documents, and how it grows: `fixed` +
    `per_block` x ceil(nodes / `block_nodes`) (no `block_nodes`: `fixed` + `per_block`);
    `basis` says where each figure comes from and which part is an estimate."""

    fixed: int = Field(default=0, ge=0, le=1000)
    per_block: int = Field(default=0, ge=0, le=1000)
    block_nodes: int | None = Field(default=None, ge=1, le=1_000_000)
    basis: str = Field(min_length=3)

    def count(self, nodes: int) -> int:
        """The count for a cluster of `nodes` nodes."""
        blocks = 1 if self.block_nodes is None else max(1, -(-nodes // self.block_nodes))
        return self.fixed + self.per_block * blocks


class Architecture(Entry, kind="architectures", file="architectures.yaml"):
    """A reference architecture (e.g. a DGX SuperPOD generation): SU size and fabric choices.

    `min_nodes`..`max_nodes` is the cluster size it covers (DGX BasePOD: up to 8 nodes; the
    SuperPOD above): a system with several architectures gets the one whose range holds the
    cluster. `converged_inband` carries in-band management on the storage fabric (one
    north-south fabric); `collapse_compute` merges the compute (east-west) fabric into that
    fabric's switch pair while every port fits the pair (the Enterprise RAs' small designs).
    """

    systems: list[Annotated[str, Ref("systems")]] = Field(min_length=1)
    su_nodes: Annotated[int, Field(ge=1, le=10_000)]
    min_nodes: int = Field(default=1, ge=1, le=1_000_000)
    max_nodes: int | None = Field(default=None, ge=1, le=1_000_000)
    published_max_nodes: int | None = Field(
        default=None,
        ge=1,
        le=1_000_000,
        description="the largest cluster the RA publishes a design for (its fabric tables); "
        "beyond it the design says how it is split and that no RA covers it; None if unknown",
    )
    nodes_per_rack: Annotated[int, Field(ge=1, le=1000)] | None = None
    network_racks_per_su: Annotated[int, Field(ge=1, le=1000)] | None = Field(
        default=None,
        description="racks per SU that hold the SU's leaf switches beside its compute racks",
    )
    rack_power_kw: float | None = Field(default=None, ge=0.1, le=10_000)
    compute_fabric: FabricSpec
    storage_fabric: FabricSpec | None = None
    ethernet_storage_fabric: FabricSpec | None = Field(
        default=None, description="the RA's Ethernet storage option, for Ethernet designs"
    )
    inband_fabric: FabricSpec | None = None
    oob_fabric: FabricSpec | None = None
    converged_inband: bool = Field(default=False, description="in-band on the storage fabric")
    collapse_compute: bool = Field(default=False, description="compute on its pair while it fits")
    storage_appliance: Annotated[str, Ref("systems")] | None = Field(
        default=None, description="system id of the appliance"
    )
    fabric_manager: Annotated[str, Ref("systems")] | None = Field(
        default=None, description="system id of the fabric manager"
    )
    fabric_manager_links: ArchCount = Field(default=0, description="its compute-fabric links")
    fabric_managers: ScaledCount | None = Field(default=None, description="per InfiniBand fabric")
    fabric_manager_pair_cables: int | None = Field(
        default=None,
        ge=1,
        le=8,
        description=(
            "copper cables joining each fabric-manager HA pair back to back (H100 RA Table 8: "
            "'UFM Back-to-Back', 2 Cat5e for its 2 pairs); None where the RA does not say"
        ),
    )
    management: ScaledCount | None = Field(default=None, description="control-plane servers")
    management_server: Annotated[str, Ref("systems")] | None = Field(
        default=None, description="system id of the control-plane server (else the first one)"
    )
    storage_tier_default: Annotated[str, Ref("storage_tiers")] | None = None

    @model_validator(mode="after")
    def _node_range(self) -> "Architecture":
        if self.max_nodes is not None and self.max_nodes < self.min_nodes:
            raise ValueError("max_nodes is below min_nodes")
        if self.fabric_manager is None and self.fabric_managers is not None:
            raise ValueError("fabric_managers needs a fabric_manager")
        return self

    def covers(self, nodes: int | None) -> bool:
        """Whether a cluster of `nodes` nodes is in this architecture's range (None: any)."""
        if nodes is None:
            return True
        return self.min_nodes <= nodes and (self.max_nodes is None or nodes <= self.max_nodes)


#: the component counts a per-SU table may publish, each a count of the whole cluster at the
#: row's size: the compute fabric's leaf, spine and core switches, the storage fabric's leaves,
#: spines and switches in all, the in-band and out-of-band management switches, the fabric
#: managers (UFM appliances), the management servers, the management (network) racks beside the
#: compute racks, and the racks in all
SU_TABLE_COUNTS = (
    "compute_leaf",
    "compute_spine",
    "compute_core",
    "storage_leaf",
    "storage_spine",
    "storage_switches",
    "inband_switches",
    "oob_switches",
    "fabric_managers",
    "management_servers",
    "management_racks",
    "racks",
)

Count = Annotated[int, Field(ge=0, le=1_000_000)]


class SuTableRow(Strict):
    """One published row: the cluster's size and the counts the table gives for it. A count the
    table does not give stays None (the rule derives it); `source` names the table and row."""

    nodes: Annotated[int, Field(ge=1, le=1_000_000)]
    scalable_units: float | None = Field(default=None, gt=0, le=10_000)
    compute_leaf: Count | None = None
    compute_spine: Count | None = None
    compute_core: Count | None = None
    storage_leaf: Count | None = None
    storage_spine: Count | None = None
    storage_switches: Count | None = None
    inband_switches: Count | None = None
    oob_switches: Count | None = None
    fabric_managers: Count | None = None
    management_servers: Count | None = None
    management_racks: Count | None = None
    racks: Count | None = None
    source: str = Field(min_length=3, description="the table and row (or figure) it comes from")

    def counts(self) -> dict[str, int]:
        """The counts this row publishes, by name, in `SU_TABLE_COUNTS` order."""
        return {k: v for k in SU_TABLE_COUNTS if (v := getattr(self, k)) is not None}

    @model_validator(mode="after")
    def _publishes_a_count(self) -> "SuTableRow":
        if not self.counts():
            raise ValueError("a row publishes at least one count")
        return self


class SuTable(Entry, kind="su_tables", file="su_tables.yaml", noun="SU table"):
    """NVIDIA's published component counts for one reference architecture (and variant), by
    cluster size: what a design of that RA and size is checked against, and the counts its
    sizing reads where the table publishes the size."""

    architecture: Annotated[str, Ref("architectures")]
    systems: list[Annotated[str, Ref("systems")]] = Field(
        default_factory=empty_list,
        description="the systems the table is for; empty: every system of the architecture",
    )
    pattern: Annotated[str, Ref("ra_patterns")] | None = Field(
        default=None, description="the Enterprise RA pattern (C-G-N-B) the table is for"
    )
    planes: int | None = Field(
        default=None,
        ge=1,
        le=64,
        description="the compute planes of the variant the table is for; None: the RA's own",
    )
    variant: str | None = Field(
        default=None, max_length=200, description="the published variant (busbar, AC/PDU, ...)"
    )
    rows: list[SuTableRow] = Field(min_length=1, max_length=200)

    @model_validator(mode="after")
    def _one_row_a_size(self) -> "SuTable":
        sizes = [r.nodes for r in self.rows]
        if len(set(sizes)) != len(sizes):
            raise ValueError("one row per node count")
        return self

    def row(self, nodes: int) -> SuTableRow | None:
        """The row published for a cluster of `nodes` nodes, or None."""
        return next((r for r in self.rows if r.nodes == nodes), None)
