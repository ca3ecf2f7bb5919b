"""Storage targets, the data-path workload and its analysis, and a design's file system."""

from typing import Literal, NamedTuple, get_args

from pydantic import BaseModel, ConfigDict, Field

from clustergen.engine.model.bounds import MAX_GPUS, TINY
from clustergen.engine.model.common import Assumed

System = Literal["local-nvme", "parallel-fs", "object-store"]


ReadPattern = Literal["sequential", "random-small", "prefetch"]


Layout = Literal["one-file-per-sample", "shards", "object-store"]


SYSTEMS: tuple[str, ...] = get_args(System)


READ_PATTERNS: tuple[str, ...] = get_args(ReadPattern)


LAYOUTS: tuple[str, ...] = get_args(Layout)


class StorageTargets(BaseModel):
    """Storage read/write targets for a design, from NVIDIA's tiered SuperPOD guidance."""

    model_config = ConfigDict(extra="forbid")

    tier: str = Field(description="good | better | best")
    nodes: int
    read_gb_per_s: float = Field(description="aggregate read target")
    write_gb_per_s: float = Field(description="aggregate write target")
    node_read_gb_per_s: float
    node_write_gb_per_s: float
    basis: str = Field(description="how the aggregate was derived")
    capacity_tb: float | None = Field(description="None when no capacity guidance is known")
    source: str


class IoWorkload(BaseModel):
    """What the GPUs read and what they read it from. Sizes in MB (1 GB = 1000 MB). Every number is
    finite and within a physical range (see `bounds`)."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    gpus: int = Field(gt=0, le=MAX_GPUS, description="GPUs reading training data")
    ingest_mb_per_s_per_gpu: float | None = Field(
        default=None, ge=TINY, le=1e6, description="data each GPU consumes at full speed"
    )
    samples_per_s_per_gpu: float | None = Field(default=None, ge=TINY, le=1e9)
    sample_mb: float | None = Field(
        default=None, ge=TINY, le=1e6, description="one sample (one file)"
    )
    workers_per_gpu: int = Field(
        default=1, ge=1, le=1024, description="data-loader worker processes"
    )
    prefetch_depth: int | None = Field(
        default=None,
        ge=1,
        le=100_000,
        description="reads each worker keeps in flight; pattern default if None",
    )
    read_pattern: ReadPattern = "sequential"
    layout: Layout = "shards"
    shard_mb: float | None = Field(
        default=None, ge=TINY, le=1e7, description="catalog default if None"
    )
    system: System = "parallel-fs"
    storage_targets: int | None = Field(
        default=None, gt=0, le=1_000_000, description="parallel-FS targets"
    )
    target_read_gb_per_s: float | None = Field(default=None, ge=TINY, le=1e5)
    read_gb_per_s: float | None = Field(
        default=None,
        ge=TINY,
        le=1e8,
        description="aggregate read bandwidth; overrides targets x per-target",
    )
    write_gb_per_s: float | None = Field(
        default=None, ge=TINY, le=1e8, description="aggregate write"
    )
    metadata_servers: int = Field(default=1, ge=1, le=100_000)
    mds_ops_per_s: float | None = Field(default=None, ge=TINY, le=1e10)
    gpus_per_node: int = Field(
        default=8, ge=1, le=4096, description="local NVMe: GPUs sharing a node"
    )
    drives_per_node: int = Field(default=4, ge=1, le=1024, description="local NVMe drives per node")
    prefixes: int = Field(
        default=1, ge=1, le=1_000_000_000, description="object-store key prefixes"
    )
    storage_network_gb_per_s: float | None = Field(default=None, ge=TINY, le=1e8)
    checkpoint_gb: float | None = Field(default=None, ge=TINY, le=1e7)
    checkpoint_interval_s: float | None = Field(default=None, ge=TINY, le=1e9)
    checkpoint_budget_fraction: float = Field(
        default=0.05, ge=TINY, lt=1, description="checkpoint stall the run accepts"
    )


class Limit(BaseModel):
    """One ceiling on the data path: its demand, its capacity, and the GPU time it allows."""

    model_config = ConfigDict(extra="forbid")

    name: str
    description: str
    unit: str
    demand: float
    capacity: float
    load_fraction: float = Field(description="demand / capacity")
    allowed_gpu_utilisation: float = Field(description="min(1, capacity / demand)")
    binds: bool
    binds_at_gpus: int | None = Field(
        description="GPU count where demand reaches capacity; None if capacity grows with GPUs"
    )


class Fix(BaseModel):
    """A concrete change and the GPU utilisation the model gives after it."""

    model_config = ConfigDict(extra="forbid")

    limit: str
    action: str
    gpu_utilisation_after: float | None


class StorageAnalysis(BaseModel):
    """Will the storage keep the GPUs fed, what binds first, and what fixes it."""

    model_config = ConfigDict(extra="forbid")

    workload: IoWorkload
    ingest_mb_per_s_per_gpu: float
    file_mb: float = Field(description="size of one file read: the sample or the shard")
    demand_read_gb_per_s: float
    supply_read_gb_per_s: float = Field(description="raw sequential read bandwidth")
    pattern_read_gb_per_s: float = Field(description="supply x read-pattern efficiency")
    delivered_read_gb_per_s: float
    storage_busy_fraction: float = Field(description="delivered / raw sequential bandwidth")
    read_iops_demand: float
    read_iops_supply: float | None
    file_opens_per_s: float
    metadata_ops_per_s: float | None
    metadata_capacity_ops_per_s: float | None
    effective_workers: float
    prefetch_depth: int
    prefetch_depth_needed: int = Field(description="reads in flight per worker to meet demand")
    loader_mb_per_s_per_gpu: float
    write_gb_per_s: float | None
    checkpoint_write_s: float | None
    checkpoint_stall_fraction: float | None
    data_gpu_utilisation: float = Field(description="t_compute / t_total from the data path")
    gpu_utilisation: float = Field(description="data path and checkpoint stalls together")
    io_bound: bool
    binding_limit: str | None
    first_limit_at_scale: str | None = Field(description="the fixed-capacity limit hit first")
    first_limit_at_gpus: int | None
    limits: list[Limit]
    fixes: list[Fix]
    recommended_layout: str
    assumed: list[str]
    notes: list[str]
    catalog_entries: list[str]


class CurvePoint(NamedTuple):
    """Demand and supply at one GPU count, for plotting (an engine record)."""

    gpus: int
    demand_read_gb_per_s: float
    pattern_read_gb_per_s: float
    metadata_ops_per_s: float | None
    metadata_capacity_ops_per_s: float | None
    gpu_utilisation: float
    binding_limit: str | None


class FileSystem(BaseModel):
    """The storage system a design's data path reads from, sized to its storage tier."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    system: System
    storage_targets: int | None = Field(description="parallel-FS targets; None otherwise")
    target: str | None = Field(description="storage-model id of one target")
    read_gb_per_s: float = Field(description="raw sequential read")
    write_gb_per_s: float | None
    metadata_servers: int | None
    basis: str


class DesignIo(NamedTuple):
    """What a design's data path was analysed with: the workload, its file system, the defaults
    (an engine record; the Design carries the analysis, not this)."""

    workload: IoWorkload
    file_system: FileSystem
    checkpoint_interval_basis: str | None
    assumed: list[Assumed]  # every default taken, with its source
