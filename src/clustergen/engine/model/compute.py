"""Node power, compute-fabric choices, the power-first answer and the rack plan."""

from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from clustergen.engine.model.bounds import Oversubscription, Planes, PortSpeedGbps, SuNodes
from clustergen.engine.model.common import Assumed, Technology
from clustergen.engine.model.fabric import FabricDesign
from clustergen.factories import empty_dict

NodePowerBasis = Literal["max", "terms"]
CapBasis = Literal["it", "facility"]


class NodePower(BaseModel):
    """Power of one node and how it was found."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    system: str
    basis: NodePowerBasis
    node_w: float = Field(gt=0)
    terms_w: dict[str, float] = Field(
        default_factory=empty_dict, description="seed memo terms, if known"
    )
    source: str


class SolveResult(NamedTuple):
    """The most nodes whose total power fits the cap (an engine record of the power solve)."""

    nodes: int
    total_w: float
    cap_w: float
    evaluations: int


class FabricChoices(BaseModel):
    """Compute-fabric choices a caller may pin; None means the platform's default."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    switch: str | None = Field(default=None, max_length=200)
    technology: Technology | None = None
    su_nodes: SuNodes | None = None
    rail_optimized: bool | None = None
    oversubscription: Oversubscription | None = None
    planes: Planes | None = None
    port_speed_gbps: PortSpeedGbps | None = None
    fabric_manager: bool = True


class PlatformFabric(BaseModel):
    """`clustergen fabric` output: the fabric plus the platform and the defaults assumed."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    platform: str
    gpus_per_node: int
    gpus: int
    architecture: str | None
    assumed: list[Assumed]
    fabric: FabricDesign


class PowerFirstResult(BaseModel):
    """The most GPUs whose IT power (nodes + switches + optics) fits the cap."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    platform: str
    gpu: str | None
    cap_basis: Literal["it", "facility"]
    cap_w: float
    pue: float | None
    it_cap_w: float
    node_power: NodePower
    nodes: int
    gpus: int
    scalable_units: int
    whole_scalable_units: bool
    compute_w: float
    switches_w: float
    optics_w: float
    it_total_w: float = Field(description="the known terms; a lower bound unless complete")
    headroom_w: float | None = Field(description="None when a switch or optic power is unknown")
    complete: bool = Field(default=True, description="every power term is known")
    gpus_per_mw: float
    fabric: FabricDesign
    assumed: list[Assumed]
    evaluations: int
    notes: list[str]


class RackLoad(BaseModel):
    """Compute racks holding the same number of nodes, and the power each draws."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    racks: int = Field(ge=0)
    nodes: int = Field(ge=0)
    power_kw: float = Field(description="each rack's power: its nodes' and any gear it holds")
    support_kw: float = Field(
        default=0.0,
        description="of that, the switches, servers and storage the rack also holds (a design "
        "with no network rack puts them in its last compute rack)",
    )


class RackPlan(BaseModel):
    """Compute racks for the nodes, under a rack power limit."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rack_power_limit_kw: float = Field(gt=0)
    cooling: str
    rack_units: int
    node_rack_units: int | None = Field(
        default=None, description="height of one node in rack units; None when unknown"
    )
    nodes_per_rack: int = Field(ge=1)
    compute_racks: int = Field(ge=0)
    rack_power_kw: float = Field(description="power of a full compute rack")
    limited_by: str = Field(description="power, space or the reference architecture's layout")
    rack_loads: list[RackLoad] = Field(
        description="the compute racks grouped by the nodes they hold and the power each draws: "
        "the full racks, then a part-filled last rack (as the one rack of a design smaller "
        "than a rack) where the nodes do not fill it"
    )
