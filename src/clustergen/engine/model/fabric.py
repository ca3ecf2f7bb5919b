"""A fabric to size (`FabricPlan`), the parts that build it (`FabricSetup`, `Cabling`), and the
sized result (`FabricDesign`). The first three are engine records (NamedTuples: values that key
the engine's cache); `FabricDesign` is a contract type, part of the Design."""

from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from clustergen.catalog.models import Optic, Switch
from clustergen.engine.model.common import Assumed


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FabricPlan(NamedTuple):
    """What a fabric must connect, independent of the switches that build it. An engine record
    (its fields come from the validated request and catalog); a value, so it keys the cache."""

    nodes: int  # compute nodes (an NVL72 rack counts as one node), >= 1
    ports_per_node: int  # fabric ports per node over all planes, >= 1
    port_speed_gbps: float
    rails: int | None = None  # rail groups per node per plane; default one per port
    su_nodes: int | None = None  # scalable-unit size; set for a rail-optimized fabric
    oversubscription: float = 1.0  # leaf downlink:uplink ratio, >= 1
    planes: int = 1
    # every node port broken out into one lane group per plane (twin-planar), so each plane has
    # all the node's ports at port speed / planes; links count by the node port
    plane_split: bool = False
    fabric_manager_links: int = 0  # UFM links wanted on leaves
    node_ports_per_cage: int = 1  # 2 for twin-port OSFP on nodes
    # switches in pairs: a fabric that fits one pair (per plane) is that pair joined by
    # inter-switch links; otherwise leaves are even per plane and spines at least two
    redundant: bool = False
    # a pair of dual-homed hosts joined by this many peer links (Ethernet MLAG); None joins a
    # pair non-blocking, half the host links crossing it
    peer_links: int | None = None
    # a cluster below one SU that fits a pair gets the pair, not the SU's leaves
    pair_below_su: bool = False
    # the GB200 SuperPOD layout: per SU and rail a group of one leaf per node under spines that
    # keep half their ports for the core
    spine_leaf_groups: bool = False
    # uplinks of every leaf where the architecture states them (H100 RA Table 8's in-band
    # leaf-core cables); None: the oversubscription's split
    leaf_uplinks: int | None = None
    # the spines a published table gives for this fabric (B200 RA Figure 3.2: 4 storage spines);
    # None: the fewest that hold the leaves' uplinks
    spines: int | None = None
    # dual-homed host ports of other networks sharing a pair (a collapsed design's north-south
    # ports): they need no inter-switch share
    shared_hosts: int = 0


class Cabling(NamedTuple):
    """Which transceivers sit where. On copper links a None optic means no transceiver; on
    optical links it means the catalog has none that fits: counted, its power unknown."""

    node_optic: Optic | None = None
    switch_optic: Optic | None = None
    core_optic: Optic | None = None
    fabric_manager_optic: Optic | None = None
    optical: bool = False  # links are optical even where the catalog lacks the part


class TransceiverLine(_Model):
    """Transceivers at one place in the fabric."""

    location: Literal["node", "fabric-manager", "leaf", "spine", "core"]
    optic: str | None
    count: int = Field(ge=0)
    unit_power_w: float | None
    power_w: float | None


class CableLine(_Model):
    """Cables of one fabric segment; one cable per logical link."""

    segment: Literal[
        "node-leaf",
        "fabric-manager-leaf",
        "storage-leaf",
        "shared-leaf",
        "inter-switch",
        "leaf-spine",
        "spine-core",
    ]
    media: str
    speed_gbps: float
    count: int = Field(ge=0)


class FabricPower(_Model):
    """Fabric power in watts; None where a catalog value is unknown."""

    switches_w: float | None
    optics_w: float | None
    total_w: float | None
    known_w: float = Field(
        description="the parts whose power the catalog has; a lower bound when total_w is None"
    )
    switch_power_basis: Literal["typical", "max"]


class FabricDesign(_Model):
    """A sized fabric. Switch and link counts are totals over all planes."""

    technology: str
    tiers: int = Field(ge=1, le=3)
    planes: int
    plane_split: bool = Field(description="each node port split into one lane group per plane")
    plane_port_speed_gbps: float = Field(
        description="speed of a port within one plane (port speed / planes when split)"
    )
    rail_optimized: bool
    rails: int | None = Field(
        default=None,
        description="rails of a rail-optimized fabric: a node's port groups per plane, each to "
        "its own leaf (or group of leaves) in an SU; None where not rail-optimized",
    )
    su_nodes: int | None
    scalable_units: int
    nodes: int
    port_speed_gbps: float
    leaf_switch: str
    spine_switch: str | None
    core_switch: str | None
    leaf_radix: int
    spine_radix: int | None
    core_radix: int | None
    leaf_switches: int
    spine_switches: int
    core_switches: int
    total_switches: int
    leaves_per_su: int | None = Field(description="per plane")
    leaf_downlinks: int = Field(description="designed host ports per leaf")
    leaf_uplinks: int
    links_per_leaf_spine_pair: int | None
    pods: int | None
    spines_per_pod: int | None
    core_groups: int | None
    node_links: int
    fabric_manager_links: int
    host_links: int = Field(description="node_links + fabric_manager_links")
    inter_switch_links: int = Field(
        default=0, description="links joining the two switches of a single-tier pair"
    )
    leaf_spine_links: int
    spine_core_links: int
    total_links: int
    oversubscription: float = Field(description="achieved leaf downlink:uplink bandwidth ratio")
    host_port_capacity: int = Field(description="host ports the built leaves offer, all planes")
    max_host_ports_at_tiers: int = Field(
        description=(
            "per plane, the most host ports this tier count can serve at the leaves' "
            "downlink:uplink split (k^2/2 for a non-blocking 2-tier fat tree of radix k)"
        )
    )
    bisection_bandwidth_gbps: float
    max_ports_used: dict[str, int] = Field(description="most ports used on any switch, per tier")
    transceivers: list[TransceiverLine]
    cables: list[CableLine]
    power: FabricPower
    notes: list[str]


class FabricSetup(NamedTuple):
    """Everything needed to size a compute fabric for a platform."""

    plan: FabricPlan
    leaf: Switch
    spine: Switch
    core: Switch
    cabling: Cabling
    architecture: str | None
    # The whole scalable unit, even when this cluster is smaller than one (plan.su_nodes is then
    # the cluster): whole-SU sizing steps by this.
    full_su_nodes: int | None = None
    assumed: tuple[Assumed, ...] = ()
