"""What a power-capped design is sensitive to: GPUs per MW for each fabric option, GPUs lost as
GPU power rises, the fabric choice as optics power moves, and GPUs against the cap."""

from pydantic import BaseModel, ConfigDict, Field


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FabricOption(_M):
    """One platform and compute-fabric choice, sized under the cap at catalog power."""

    option: str = Field(
        description="platform / technology / oversubscription, e.g. dgx-h100 IB 1:1"
    )
    platform: str
    technology: str
    switch: str
    oversubscription: float
    gpus: int
    nodes: int
    it_power_w: float = Field(description="compute + compute-fabric power of those nodes")
    gpus_per_mw: float = Field(description="GPUs per MW of the IT cap")
    dense_pflops: float | None = Field(description="dense throughput of the GPUs (workload's)")
    optics_share: float = Field(description="transceiver power / IT power")
    eligible: bool = Field(description="meets the workload's fabric rule (training: 1:1)")
    gpu_w_per_node: float | None = Field(description="GPU power per node a GPU-power change scales")
    power_unknown: list[str] = Field(
        description="fabric power the catalog lacks: GPUs are then an upper bound, and the option "
        "cannot win a comparison that depends on it"
    )


class GpuPowerPoint(_M):
    """GPUs under the cap when every GPU draws `change` more (a fraction: 0.1 = +10%)."""

    option: str
    change: float
    node_w: float
    gpus: int
    gpus_lost: int = Field(description="against catalog GPU power (negative: gained)")


class OpticsPoint(_M):
    """Every option's GPUs when transceiver power is `scale` x the catalog's, and the winner."""

    scale: float
    gpus: dict[str, int] = Field(description="option -> GPUs under the cap")
    winner: str | None = Field(description="eligible option with the most dense throughput")


class CapPoint(_M):
    """Every option's GPUs under an IT cap of `cap_w`."""

    cap_w: float
    gpus: dict[str, int]


class Sensitivity(_M):
    """The seed memo's sensitivity figures for one request, all at catalog facts unless swept."""

    request: str | None
    cap_w: float = Field(description="IT cap the figures are held at")
    workload: str
    objective: str
    options: list[FabricOption]
    chosen: str | None = Field(description="the eligible option with the most dense throughput")
    gpu_power: list[GpuPowerPoint]
    gpus_lost_per_10pct: dict[str, float] = Field(
        description="option -> GPUs lost per +10% GPU power (mean slope over the sweep)"
    )
    optics: list[OpticsPoint]
    optics_switch_points: list[str] = Field(
        description="where the winning option changes as optics power moves"
    )
    caps: list[CapPoint]
    points: int = Field(description="designs solved in the sweep")
    seconds: float = Field(description="wall time of the sweep")
    basis: list[str] = Field(description="how each sweep changes the catalog's figures")
