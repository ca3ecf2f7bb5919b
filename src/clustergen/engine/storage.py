"""Storage: SuperPOD storage targets by tier, and the data-path I/O analysis.

Two parts.

1. `storage_targets`: NVIDIA's storage guidance (DGX SuperPOD H100 RA, Table 6) publishes read and
   write bandwidth for one node, one scalable unit (SU) and four SUs per tier (good, better, best).
   A design gets the published figure at its scale, interpolated between published points and scaled
   linearly per SU beyond the last one, never below the single-node figure.

2. `analyze_storage`: will storage keep the GPUs fed? Every constant comes from
   catalog/storage_models.yaml (the seed lab, AWS and Lustre documents), none from this module.
   Demand is the per-GPU ingest (given, or samples/s x sample size) times the GPU count. Each limit
   below has a capacity; the GPUs can run at most capacity/demand of the time it allows:

   - storage bandwidth: raw sequential read x read-pattern efficiency (sequential 0.85, random small
     reads 0.07, prefetch pipeline 0.78; the lab's pattern factors);
   - data loader (Little's law): each worker keeps `prefetch depth` file reads in flight and each read
     of a file takes the system's per-file latency (parallel FS ~20 ms: the lab's 50 files/s per
     worker), so one GPU's loaders deliver effective_workers x depth x file size / latency;
     effective workers follow the lab's worker scaling (linear to 8, flat beyond);
   - metadata: file opens/s x metadata ops per open (open + stat + close = 3) against the metadata
     servers (50,000 ops/s each); shards divide the opens by the samples per shard;
   - object-store requests: GETs/s against 5,500 per second per key prefix;
   - IOPS: read requests/s (ingest / request size) against the drives' or targets' IOPS;
   - storage network, when its bandwidth is given.

   GPU utilisation = t_compute / t_total = the smallest allowed fraction (I/O overlapped with compute
   in steady state), times interval / (interval + checkpoint write time) for synchronous checkpoints.
   The binding limit is the smallest; fixes are re-run through the model so each carries the
   utilisation it would reach.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Literal, cast, get_args

from pydantic import BaseModel, ConfigDict, Field

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import StorageModel
from clustergen.engine.platform import Assumed
from clustergen.errors import NotFoundError, RequestError

System = Literal["local-nvme", "parallel-fs", "object-store"]
ReadPattern = Literal["sequential", "random-small", "prefetch"]
Layout = Literal["one-file-per-sample", "shards", "object-store"]

SYSTEMS: tuple[str, ...] = get_args(System)
READ_PATTERNS: tuple[str, ...] = get_args(ReadPattern)
LAYOUTS: tuple[str, ...] = get_args(Layout)

#: the architecture whose RA publishes Table 6; its SU size is the table's unit
_TABLE6_ARCHITECTURE = "dgx-superpod-h100"

# --------------------------------------------------------------------------------------------------
# Part 1: SuperPOD storage targets by tier
# --------------------------------------------------------------------------------------------------


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


def storage_targets(
    catalog: Catalog, tier: str, nodes: int, su_nodes: int | None
) -> StorageTargets:
    """Aggregate read/write targets for `nodes` nodes at `tier`, from H100-RA Table 6.

    1 SU gets the 1-SU figure and 4 SUs the 4-SU figure exactly; between published points the figure
    is interpolated linearly, beyond the last one it scales linearly per SU, and it is never below the
    single-node figure. A design one node short of whole SUs (the UFM slot of H100-RA Table 4:
    31/63/127 nodes) counts the whole SUs.
    """
    if nodes < 1:
        raise RequestError(f"nodes must be at least 1, got {nodes}")
    if su_nodes is not None and su_nodes < 1:
        raise RequestError(f"su_nodes must be at least 1, got {su_nodes}")
    t = catalog.storage_tier(tier)
    su = su_nodes if su_nodes is not None else _table6_su_nodes(catalog)
    sus = nodes / su
    ufm_slot = su > 1 and nodes >= su - 1 and (nodes + 1) % su == 0
    if ufm_slot:
        sus = (nodes + 1) / su
    read, basis = _scale(
        t.node_read_gb_per_s, t.su_read_gb_per_s, t.four_su_read_gb_per_s, sus, su, nodes
    )
    write, _ = _scale(
        t.node_write_gb_per_s, t.su_write_gb_per_s, t.four_su_write_gb_per_s, sus, su, nodes
    )
    if ufm_slot:
        basis += f"; {nodes} nodes fill {round(sus)} SU(s) with one slot for the fabric manager"
    if su_nodes is None:
        basis += f"; SU of {su} nodes assumed ({_TABLE6_ARCHITECTURE})"
    capacity = None if t.capacity_tb_per_node is None else t.capacity_tb_per_node * nodes
    return StorageTargets(
        tier=t.id,
        nodes=nodes,
        read_gb_per_s=round(read, 3),
        write_gb_per_s=round(write, 3),
        node_read_gb_per_s=t.node_read_gb_per_s,
        node_write_gb_per_s=t.node_write_gb_per_s,
        basis=basis,
        capacity_tb=capacity,
        source=t.source,
    )


def _table6_su_nodes(catalog: Catalog) -> int:
    try:
        return catalog.architecture(_TABLE6_ARCHITECTURE).su_nodes
    except NotFoundError:
        raise RequestError(
            f"su_nodes not given and architecture {_TABLE6_ARCHITECTURE!r} is not in the catalog",
            hint="pass su_nodes (nodes per scalable unit)",
        ) from None


def _scale(
    node: float, su: float | None, four_su: float | None, sus: float, su_nodes: int, nodes: int
) -> tuple[float, str]:
    """Piecewise-linear in SUs through the published points; linear per SU past the last."""
    points: list[tuple[float, float, str]] = [(1 / su_nodes, node, "single-node")]
    if su is not None:
        points.append((1.0, su, "1-SU"))
    if four_su is not None:
        points.append((4.0, four_su, "4-SU"))
    table = "H100-RA Table 6"
    for x, y, label in points:
        if math.isclose(sus, x):
            return y, f"{label} figure from {table}"
    if sus < points[0][0]:  # pragma: no cover - nodes >= 1 keeps sus >= 1/su_nodes
        return node, f"single-node figure from {table}"
    for (x0, y0, l0), (x1, y1, l1) in itertools.pairwise(points):
        if x0 < sus < x1:
            value = y0 + (y1 - y0) * (sus - x0) / (x1 - x0)
            return value, (
                f"interpolated between the {l0} and {l1} figures of {table} "
                f"({nodes} nodes = {sus:.2f} SU)"
            )
    x, y, label = points[-1]
    value = max(node, y * sus / x)
    per = "node" if label == "single-node" else "SU"
    return value, f"{label} aggregate from {table}, scaled by {per} count ({sus:.2f} SU)"


# --------------------------------------------------------------------------------------------------
# Part 2: the data-path I/O analysis
# --------------------------------------------------------------------------------------------------


class IoWorkload(BaseModel):
    """What the GPUs read and what they read it from. Sizes in MB (1 GB = 1000 MB)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    gpus: int = Field(gt=0, description="GPUs reading training data")
    ingest_mb_per_s_per_gpu: float | None = Field(
        default=None, gt=0, description="data each GPU consumes at full speed"
    )
    samples_per_s_per_gpu: float | None = Field(default=None, gt=0)
    sample_mb: float | None = Field(default=None, gt=0, description="one sample (one file)")
    workers_per_gpu: int = Field(default=1, ge=1, description="data-loader worker processes")
    prefetch_depth: int | None = Field(
        default=None, ge=1, description="reads each worker keeps in flight; pattern default if None"
    )
    read_pattern: ReadPattern = "sequential"
    layout: Layout = "shards"
    shard_mb: float | None = Field(default=None, gt=0, description="catalog default if None")
    system: System = "parallel-fs"
    storage_targets: int | None = Field(default=None, gt=0, description="parallel-FS targets")
    target_read_gb_per_s: float | None = Field(default=None, gt=0)
    read_gb_per_s: float | None = Field(
        default=None, gt=0, description="aggregate read bandwidth; overrides targets x per-target"
    )
    write_gb_per_s: float | None = Field(default=None, gt=0, description="aggregate write")
    metadata_servers: int = Field(default=1, ge=1)
    mds_ops_per_s: float | None = Field(default=None, gt=0)
    gpus_per_node: int = Field(default=8, ge=1, description="local NVMe: GPUs sharing a node")
    drives_per_node: int = Field(default=4, ge=1, description="local NVMe drives per node")
    prefixes: int = Field(default=1, ge=1, description="object-store key prefixes")
    storage_network_gb_per_s: float | None = Field(default=None, gt=0)
    checkpoint_gb: float | None = Field(default=None, gt=0)
    checkpoint_interval_s: float | None = Field(default=None, gt=0)
    checkpoint_budget_fraction: float = Field(
        default=0.05, gt=0, lt=1, description="checkpoint stall the run accepts"
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


class CurvePoint(BaseModel):
    """Demand and supply at one GPU count, for plotting."""

    model_config = ConfigDict(extra="forbid")

    gpus: int
    demand_read_gb_per_s: float
    pattern_read_gb_per_s: float
    metadata_ops_per_s: float | None
    metadata_capacity_ops_per_s: float | None
    gpu_utilisation: float
    binding_limit: str | None


class _Model:
    """The catalog constants one analysis uses, resolved once."""

    def __init__(self, catalog: Catalog, w: IoWorkload) -> None:
        self.used: list[str] = []
        self.system = self._get(catalog, f"system-{w.system}")
        self.pattern = self._get(catalog, f"pattern-{w.read_pattern}")
        self.layout = self._get(catalog, f"layout-{w.layout}")
        self.workers = self._get(catalog, "workers-default")
        self.target = (
            self._get(catalog, "lustre-ost-4x-nvme") if w.system == "parallel-fs" else None
        )
        self.drive = self._get(catalog, "nvme-gen4") if w.system == "local-nvme" else None
        self.mds = self._get(catalog, "lustre-mds") if w.system == "parallel-fs" else None

    def _get(self, catalog: Catalog, entry_id: str) -> StorageModel:
        entry = catalog.get("storage_models", StorageModel, entry_id, "storage model")
        self.used.append(entry.id)
        return entry

    def effective_workers(self, workers: float) -> float:
        """Piecewise-linear through the catalog's points; flat past the last, linear below."""
        pts = [(p.workers, p.effective_workers) for p in self.workers.worker_points]
        x0, y0 = pts[0]
        if workers <= x0:
            return y0 * workers / x0
        for (xa, ya), (xb, yb) in itertools.pairwise(pts):
            if workers <= xb:
                return ya + (yb - ya) * (workers - xa) / (xb - xa)
        return pts[-1][1]

    def workers_for(self, effective: float) -> int | None:
        """The fewest workers reaching `effective` concurrent reads, or None if none do."""
        top = max(int(self.workers.worker_points[-1].workers), 1)
        for n in range(1, top + 1):
            if self.effective_workers(n) >= effective - 1e-9:
                return n
        return None


def analyze_storage(catalog: Catalog, workload: IoWorkload) -> StorageAnalysis:
    """Demand against every storage ceiling for `workload`, the binding limit and its fixes."""
    result = _analyse(catalog, workload)
    fixes = _fixes(catalog, workload, result)
    return result.model_copy(update={"fixes": fixes})


def storage_curves(
    catalog: Catalog, workload: IoWorkload, gpu_counts: list[int]
) -> list[CurvePoint]:
    """The analysis re-run at each GPU count (everything else fixed), for demand/supply plots."""
    points = []
    for n in gpu_counts:
        a = _analyse(catalog, workload.model_copy(update={"gpus": n}))
        points.append(
            CurvePoint(
                gpus=n,
                demand_read_gb_per_s=a.demand_read_gb_per_s,
                pattern_read_gb_per_s=a.pattern_read_gb_per_s,
                metadata_ops_per_s=a.metadata_ops_per_s,
                metadata_capacity_ops_per_s=a.metadata_capacity_ops_per_s,
                gpu_utilisation=a.gpu_utilisation,
                binding_limit=a.binding_limit,
            )
        )
    return points


def _check(w: IoWorkload) -> None:
    if w.layout == "object-store" and w.system != "object-store":
        raise RequestError(
            f"layout 'object-store' needs system 'object-store', got system {w.system!r}",
            hint="use --system object-store, or layout one-file-per-sample / shards",
        )
    if w.ingest_mb_per_s_per_gpu is None and (
        w.samples_per_s_per_gpu is None or w.sample_mb is None
    ):
        raise RequestError(
            "per-GPU ingest is unknown",
            hint="give the ingest in MB/s per GPU, or samples/s per GPU and the sample size in MB",
        )
    if w.layout != "shards" and w.sample_mb is None and w.samples_per_s_per_gpu is None:
        raise RequestError(
            f"layout {w.layout!r} opens one file per sample, so the sample size is needed",
            hint="give the sample size in MB (or samples/s per GPU)",
        )
    if w.system == "parallel-fs" and w.storage_targets is None and w.read_gb_per_s is None:
        raise RequestError(
            "a parallel file system needs its storage targets or its aggregate read bandwidth",
            hint="give the storage target count (e.g. 24) or the read GB/s",
        )
    if w.system == "object-store" and w.read_gb_per_s is None:
        raise RequestError(
            "an object store needs its aggregate read bandwidth", hint="give the read GB/s"
        )
    if (w.checkpoint_gb is None) != (w.checkpoint_interval_s is None):
        raise RequestError("a checkpoint needs both its size in GB and its interval in seconds")


def _ingest(w: IoWorkload) -> tuple[float, float | None]:
    """Per-GPU ingest in MB/s and the sample size in MB (None when unknown and not needed)."""
    if w.ingest_mb_per_s_per_gpu is not None:
        sample = w.sample_mb
        if sample is None and w.samples_per_s_per_gpu is not None:
            sample = w.ingest_mb_per_s_per_gpu / w.samples_per_s_per_gpu
        elif sample is not None and w.samples_per_s_per_gpu is not None:
            implied = w.samples_per_s_per_gpu * sample
            if not math.isclose(implied, w.ingest_mb_per_s_per_gpu, rel_tol=0.01):
                raise RequestError(
                    f"ingest {w.ingest_mb_per_s_per_gpu:g} MB/s per GPU disagrees with "
                    f"{w.samples_per_s_per_gpu:g} samples/s x {sample:g} MB = {implied:g} MB/s",
                    hint="give the ingest, or samples/s and sample size, not all three",
                )
        return w.ingest_mb_per_s_per_gpu, sample
    assert w.samples_per_s_per_gpu is not None  # _check
    assert w.sample_mb is not None
    return w.samples_per_s_per_gpu * w.sample_mb, w.sample_mb


def _read_supply(w: IoWorkload, m: _Model, assumed: list[str]) -> tuple[float, float | None]:
    """Raw sequential read GB/s and read IOPS of the storage system."""
    if w.system == "local-nvme":
        assert m.drive is not None
        assert m.drive.read_gb_per_s
        assert m.drive.read_iops
        nodes = math.ceil(w.gpus / w.gpus_per_node)
        drives = nodes * w.drives_per_node
        assumed.append(
            f"{nodes} nodes x {w.drives_per_node} {m.drive.name} at "
            f"{m.drive.read_gb_per_s:g} GB/s ({m.drive.id})"
        )
        raw = w.read_gb_per_s or drives * m.drive.read_gb_per_s
        return raw, drives * m.drive.read_iops
    if w.system == "parallel-fs":
        assert m.target is not None
        assert m.target.read_gb_per_s
        assert m.target.read_iops
        per = w.target_read_gb_per_s or m.target.read_gb_per_s
        if w.target_read_gb_per_s is None and w.storage_targets is not None:
            assumed.append(f"{per:g} GB/s per storage target ({m.target.id})")
        if w.storage_targets is None:
            return float(w.read_gb_per_s or 0.0), None
        raw = w.read_gb_per_s or w.storage_targets * per
        return raw, w.storage_targets * m.target.read_iops
    return float(w.read_gb_per_s or 0.0), None


def _write_supply(w: IoWorkload, m: _Model) -> float | None:
    if w.write_gb_per_s is not None:
        return w.write_gb_per_s
    if w.system == "parallel-fs" and m.target is not None and w.storage_targets is not None:
        per = m.target.write_gb_per_s
        return None if per is None else w.storage_targets * per
    if w.system == "local-nvme" and m.drive is not None and m.drive.write_gb_per_s is not None:
        return math.ceil(w.gpus / w.gpus_per_node) * w.drives_per_node * m.drive.write_gb_per_s
    return None


def _limit(
    name: str, description: str, unit: str, demand: float, capacity: float, gpus: int, fixed: bool
) -> Limit:
    load = demand / capacity if capacity > 0 else math.inf
    allowed = 1.0 if demand <= capacity * (1 + 1e-9) else capacity / demand
    at = None
    if fixed and demand > 0:
        at = max(1, math.floor(gpus * capacity / demand + 1e-9))
    return Limit(
        name=name,
        description=description,
        unit=unit,
        demand=demand,
        capacity=capacity,
        load_fraction=load if math.isfinite(load) else 1e9,
        allowed_gpu_utilisation=allowed,
        binds=allowed < 1.0,
        binds_at_gpus=at,
    )


def _analyse(catalog: Catalog, w: IoWorkload) -> StorageAnalysis:
    _check(w)
    m = _Model(catalog, w)
    assumed: list[str] = []
    notes: list[str] = []
    ingest, sample = _ingest(w)
    if w.layout == "shards":
        file_mb = w.shard_mb or m.layout.file_mb or 0.0
        if w.shard_mb is None:
            assumed.append(f"shards of {file_mb:g} MB ({m.layout.id})")
        if file_mb <= 0:
            raise RequestError("shard size unknown", hint="give the shard size in MB")
    else:
        assert sample is not None
        file_mb = sample
    depth = w.prefetch_depth or m.pattern.prefetch_depth or 1
    if w.prefetch_depth is None:
        assumed.append(f"prefetch depth {depth} for {w.read_pattern} reads ({m.pattern.id})")
    demand_gb = w.gpus * ingest / 1000
    raw_gb, iops_supply = _read_supply(w, m, assumed)
    efficiency = m.pattern.efficiency or 1.0
    pattern_gb = raw_gb * efficiency
    limits: list[Limit] = [
        _limit(
            "storage_bandwidth",
            f"read bandwidth: {raw_gb:,.1f} GB/s raw x {efficiency:g} for {w.read_pattern} reads",
            "GB/s",
            demand_gb,
            pattern_gb,
            w.gpus,
            fixed=w.system != "local-nvme" or w.read_gb_per_s is not None,
        )
    ]
    eff_workers = m.effective_workers(w.workers_per_gpu)
    latency_s = (m.system.file_latency_ms or 0.0) / 1000
    loader_mb = eff_workers * depth * file_mb / latency_s
    limits.append(
        _limit(
            "data_loader",
            f"data loader per GPU: {w.workers_per_gpu} worker(s) x {depth} read(s) in flight x "
            f"{file_mb:g} MB per {m.system.file_latency_ms:g} ms file access",
            "MB/s per GPU",
            ingest,
            loader_mb,
            w.gpus,
            fixed=False,
        )
    )
    opens = w.gpus * ingest / file_mb
    ops_per_open = m.system.metadata_ops_per_open or 0.0
    md_ops: float | None = None
    md_cap: float | None = None
    if w.system == "parallel-fs" and m.layout.uses_metadata_server and m.mds is not None:
        md_ops = opens * ops_per_open
        md_cap = w.metadata_servers * (w.mds_ops_per_s or m.mds.ops_per_s or 0.0)
        if w.mds_ops_per_s is None:
            assumed.append(f"{m.mds.ops_per_s:,.0f} metadata ops/s per server ({m.mds.id})")
        limits.append(
            _limit(
                "metadata",
                f"metadata: {opens:,.0f} file opens/s x {ops_per_open:g} ops against "
                f"{w.metadata_servers} metadata server(s)",
                "ops/s",
                md_ops,
                md_cap,
                w.gpus,
                fixed=True,
            )
        )
    if w.system == "object-store":
        per_prefix = m.system.requests_per_s_per_prefix or 0.0
        limits.append(
            _limit(
                "object_requests",
                f"object-store GETs: {w.prefixes} prefix(es) x {per_prefix:,.0f} requests/s",
                "requests/s",
                opens * max(ops_per_open, 1.0),
                w.prefixes * per_prefix,
                w.gpus,
                fixed=True,
            )
        )
    request_mb = min(file_mb, (m.pattern.request_kb or 1024) * 1024 / 1e6)
    iops_demand = demand_gb * 1000 / request_mb
    if iops_supply is not None:
        limits.append(
            _limit(
                "iops",
                f"read requests of {request_mb * 1000:,.1f} KB against the drives' IOPS",
                "IOPS",
                iops_demand,
                iops_supply,
                w.gpus,
                fixed=w.system != "local-nvme",
            )
        )
    if w.storage_network_gb_per_s is not None:
        limits.append(
            _limit(
                "storage_network",
                "storage network between the GPU nodes and the storage",
                "GB/s",
                demand_gb,
                w.storage_network_gb_per_s,
                w.gpus,
                fixed=True,
            )
        )
    data_util = min(lim.allowed_gpu_utilisation for lim in limits)
    write_gb = _write_supply(w, m)
    ckpt_s, ckpt_stall, ckpt_util = _checkpoint(w, write_gb, limits, notes)
    util = data_util * ckpt_util
    binding = _binding(limits)
    fixed = [lim for lim in limits if lim.binds_at_gpus is not None and lim.name != "checkpoint"]
    first = min(fixed, key=lambda lim: lim.binds_at_gpus or 0, default=None)
    if w.system == "local-nvme":
        notes.append("local NVMe: the dataset must be staged onto every node (or its shard of it)")
    if m.system.placeholder:
        notes.append(f"{m.system.id} uses placeholder constants: measure and layer your own")
    if write_gb is None and w.checkpoint_gb is not None:
        notes.append("write bandwidth unknown: give the write GB/s to time the checkpoint")
    needed_depth = math.ceil(ingest * latency_s / (eff_workers * file_mb) - 1e-9)
    return StorageAnalysis(
        workload=w,
        ingest_mb_per_s_per_gpu=ingest,
        file_mb=file_mb,
        demand_read_gb_per_s=demand_gb,
        supply_read_gb_per_s=raw_gb,
        pattern_read_gb_per_s=pattern_gb,
        delivered_read_gb_per_s=demand_gb * data_util,
        storage_busy_fraction=demand_gb * data_util / raw_gb if raw_gb else 0.0,
        read_iops_demand=iops_demand,
        read_iops_supply=iops_supply,
        file_opens_per_s=opens,
        metadata_ops_per_s=md_ops,
        metadata_capacity_ops_per_s=md_cap,
        effective_workers=eff_workers,
        prefetch_depth=depth,
        prefetch_depth_needed=max(1, needed_depth),
        loader_mb_per_s_per_gpu=loader_mb,
        write_gb_per_s=write_gb,
        checkpoint_write_s=ckpt_s,
        checkpoint_stall_fraction=ckpt_stall,
        data_gpu_utilisation=data_util,
        gpu_utilisation=util,
        io_bound=data_util < 1.0,
        binding_limit=binding,
        first_limit_at_scale=first.name if first else None,
        first_limit_at_gpus=first.binds_at_gpus if first else None,
        limits=limits,
        fixes=[],
        recommended_layout=_recommended_layout(w, m, md_ops, md_cap),
        assumed=assumed,
        notes=notes,
        catalog_entries=m.used,
    )


def _checkpoint(
    w: IoWorkload, write_gb: float | None, limits: list[Limit], notes: list[str]
) -> tuple[float | None, float | None, float]:
    """Checkpoint write time, stall fraction and the utilisation synchronous checkpoints allow."""
    if w.checkpoint_gb is None or w.checkpoint_interval_s is None or write_gb is None:
        return None, None, 1.0
    seconds = w.checkpoint_gb / write_gb
    stall = seconds / (w.checkpoint_interval_s + seconds)
    budget_s = w.checkpoint_budget_fraction / (1 - w.checkpoint_budget_fraction)
    budget_s *= w.checkpoint_interval_s
    lim = _limit(
        "checkpoint",
        f"synchronous checkpoint of {w.checkpoint_gb:g} GB at {write_gb:,.1f} GB/s every "
        f"{w.checkpoint_interval_s:g} s (budget {w.checkpoint_budget_fraction:.0%} of the time)",
        "s per checkpoint",
        seconds,
        budget_s,
        w.gpus,
        fixed=False,
    )
    limits.append(lim.model_copy(update={"allowed_gpu_utilisation": 1 - stall}))
    notes.append(
        f"checkpoints stall the GPUs {stall:.1%} of the time unless written asynchronously"
    )
    return seconds, stall, 1 - stall


def _binding(limits: list[Limit]) -> str | None:
    """The limit allowing the least GPU time; the checkpoint only binds past its budget."""
    candidates = [lim for lim in limits if lim.binds]
    if not candidates:
        return None
    return min(candidates, key=lambda lim: lim.allowed_gpu_utilisation).name


def _recommended_layout(
    w: IoWorkload, m: _Model, md_ops: float | None, md_cap: float | None
) -> str:
    if w.system == "object-store":
        return "shards (large objects) spread over enough key prefixes"
    if w.layout == "one-file-per-sample" and md_ops is not None and md_cap and md_ops > md_cap / 2:
        return "shards of >= 100 MB (one file per sample loads the metadata servers)"
    if w.read_pattern == "random-small":
        return "shards read sequentially (random small reads waste the storage bandwidth)"
    return "shards of >= 100 MB read sequentially" if w.layout == "shards" else w.layout


# --------------------------------------------------------------------------------------------------
# Fixes: each is a changed workload, re-run through the model
# --------------------------------------------------------------------------------------------------

_FixMaker = Callable[[Catalog, IoWorkload, StorageAnalysis, Limit], list[tuple[str, IoWorkload]]]


def _fixes(catalog: Catalog, w: IoWorkload, a: StorageAnalysis) -> list[Fix]:
    makers: dict[str, _FixMaker] = {
        "storage_bandwidth": _fix_bandwidth,
        "data_loader": _fix_loader,
        "metadata": _fix_metadata,
        "object_requests": _fix_requests,
        "iops": _fix_iops,
        "storage_network": _fix_network,
        "checkpoint": _fix_checkpoint,
    }
    out: list[Fix] = []
    seen: set[str] = set()
    for lim in sorted((x for x in a.limits if x.binds), key=lambda x: x.allowed_gpu_utilisation):
        for action, changed in makers[lim.name](catalog, w, a, lim):
            if action in seen:
                continue
            seen.add(action)
            after = _analyse(catalog, changed).gpu_utilisation if changed is not w else None
            out.append(Fix(limit=lim.name, action=action, gpu_utilisation_after=after))
    return out


def _shards(w: IoWorkload, a: StorageAnalysis, min_mb: float) -> tuple[str, IoWorkload]:
    size = max(min_mb, 100.0)
    size = float(10 ** math.ceil(math.log10(size))) if size > 100 else 100.0
    pattern: ReadPattern = "prefetch" if w.read_pattern == "prefetch" else "sequential"
    changed = w.model_copy(update={"layout": "shards", "shard_mb": size, "read_pattern": pattern})
    return f"pack into >= {size:,.0f} MB shards and read them sequentially", changed


def _fix_bandwidth(
    catalog: Catalog, w: IoWorkload, a: StorageAnalysis, lim: Limit
) -> list[tuple[str, IoWorkload]]:
    out: list[tuple[str, IoWorkload]] = []
    if w.read_pattern == "random-small":
        out.append(_shards(w, a, 100.0))
    if w.system == "parallel-fs" and w.storage_targets and w.read_gb_per_s is None:
        eff = a.pattern_read_gb_per_s / a.supply_read_gb_per_s
        per = a.supply_read_gb_per_s / w.storage_targets
        need = math.ceil(a.demand_read_gb_per_s / (per * eff) - 1e-9)
        changed = w.model_copy(update={"storage_targets": need})
        out.append((f"add {need - w.storage_targets} storage targets ({need} in all)", changed))
    elif w.system == "local-nvme":
        per_drive = a.supply_read_gb_per_s / (
            math.ceil(w.gpus / w.gpus_per_node) * w.drives_per_node
        )
        eff = a.pattern_read_gb_per_s / a.supply_read_gb_per_s
        node_need = a.demand_read_gb_per_s / math.ceil(w.gpus / w.gpus_per_node)
        drives = math.ceil(node_need / (per_drive * eff) - 1e-9)
        changed = w.model_copy(update={"drives_per_node": drives})
        out.append((f"use {drives} NVMe drives per node", changed))
    else:
        need_gb = a.demand_read_gb_per_s / (a.pattern_read_gb_per_s / a.supply_read_gb_per_s)
        changed = w.model_copy(update={"read_gb_per_s": need_gb, "storage_targets": None})
        out.append((f"provide >= {need_gb:,.0f} GB/s of read bandwidth", changed))
    return out


def _fix_loader(
    catalog: Catalog, w: IoWorkload, a: StorageAnalysis, lim: Limit
) -> list[tuple[str, IoWorkload]]:
    m = _Model(catalog, w)
    out: list[tuple[str, IoWorkload]] = []
    need_conc = lim.demand / lim.capacity * a.effective_workers * a.prefetch_depth
    workers = m.workers_for(need_conc / a.prefetch_depth)
    if workers is not None and workers > w.workers_per_gpu:
        changed = w.model_copy(update={"workers_per_gpu": workers})
        out.append((f"use {workers} data-loader workers per GPU", changed))
    depth = a.prefetch_depth_needed
    if depth > a.prefetch_depth:
        changed = w.model_copy(update={"prefetch_depth": depth})
        out.append((f"prefetch depth {depth} (async reads in flight per worker)", changed))
    if w.layout != "shards":
        out.append(_shards(w, a, 100.0))
    return out


def _fix_metadata(
    catalog: Catalog, w: IoWorkload, a: StorageAnalysis, lim: Limit
) -> list[tuple[str, IoWorkload]]:
    per_server = lim.capacity / w.metadata_servers
    ops_per_open = lim.demand / a.file_opens_per_s if a.file_opens_per_s else 0.0
    # the smallest file that keeps metadata load at half one server's capacity
    min_mb = w.gpus * a.ingest_mb_per_s_per_gpu * ops_per_open / (lim.capacity / 2)
    servers = math.ceil(lim.demand / per_server - 1e-9)
    out = [_shards(w, a, min_mb)] if w.layout != "shards" else []
    if w.layout == "shards":
        size = float(10 ** math.ceil(math.log10(max(min_mb, 1.0))))
        out.append((f"use shards of >= {size:,.0f} MB", w.model_copy(update={"shard_mb": size})))
    more = w.model_copy(update={"metadata_servers": servers})
    out.append((f"add {servers - w.metadata_servers} metadata servers ({servers} in all)", more))
    out.append(("move the dataset to an object store (no metadata server)", w))
    return out


def _fix_requests(
    catalog: Catalog, w: IoWorkload, a: StorageAnalysis, lim: Limit
) -> list[tuple[str, IoWorkload]]:
    prefixes = math.ceil(lim.demand / (lim.capacity / w.prefixes) - 1e-9)
    out = [
        (
            f"spread the objects over {prefixes} key prefixes",
            w.model_copy(update={"prefixes": prefixes}),
        )
    ]
    if w.layout != "shards":
        out.append(_shards(w, a, 100.0))
    return out


def _fix_iops(
    catalog: Catalog, w: IoWorkload, a: StorageAnalysis, lim: Limit
) -> list[tuple[str, IoWorkload]]:
    return [_shards(w, a, 100.0)]


def _fix_network(
    catalog: Catalog, w: IoWorkload, a: StorageAnalysis, lim: Limit
) -> list[tuple[str, IoWorkload]]:
    need = math.ceil(lim.demand)
    changed = w.model_copy(update={"storage_network_gb_per_s": float(need)})
    return [(f"give the storage network >= {need:,} GB/s", changed)]


def _fix_checkpoint(
    catalog: Catalog, w: IoWorkload, a: StorageAnalysis, lim: Limit
) -> list[tuple[str, IoWorkload]]:
    assert w.checkpoint_gb is not None
    need = w.checkpoint_gb / lim.capacity
    changed = w.model_copy(update={"write_gb_per_s": need})
    return [
        (f"write checkpoints at >= {need:,.1f} GB/s (or asynchronously)", changed),
    ]


# --------------------------------------------------------------------------------------------------
# Part 3: the data path of a design, with stated defaults
# --------------------------------------------------------------------------------------------------


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


class DesignIo(BaseModel):
    """What a design's data path was analysed with: the workload, its file system, the defaults."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    workload: IoWorkload
    file_system: FileSystem
    checkpoint_interval_basis: str | None
    assumed: list[Assumed] = Field(description="every default taken, with its source")


def _design_default(catalog: Catalog, name: str) -> tuple[str, str]:
    a = catalog.assumption(name)
    return str(a.value), a.source


def linear_workers(catalog: Catalog) -> tuple[int, str]:
    """The most data-loader workers per GPU that still scale linearly (the catalog's curve)."""
    entry = catalog.get("storage_models", StorageModel, "workers-default", "storage model")
    linear = [p for p in entry.worker_points if math.isclose(p.effective_workers, p.workers)]
    return int(max(p.workers for p in linear)), entry.source


def design_io(
    catalog: Catalog,
    *,
    gpus: int,
    gpus_per_node: int,
    read_gb_per_s: float,
    storage_network_gb_per_s: float | None,
    layout: Layout | None = None,
    sample_mb: float | None = None,
    checkpoint_gb: float | None = None,
    model_params_b: float | None = None,
    checkpoints: bool = True,
) -> DesignIo:
    """The I/O workload of a design of `gpus` GPUs whose storage tier reads `read_gb_per_s`.

    Defaults, each recorded with its source: the GPUs consume the tier's aggregate read (the tier
    is the statement of what the workload reads, H100-RA Tables 5 and 6); the data path is the
    catalog's design storage system, sized to deliver that read at the read pattern's efficiency;
    loaders run the most workers per GPU that still scale linearly; a checkpoint holds
    `checkpoint-bytes-per-param` bytes per parameter and is written every Young interval
    sqrt(2 x write time x mean time between interruptions) (J. W. Young, "A first order
    approximation to the optimum checkpoint interval", CACM 17(9), 1974), the interruptions
    from `gpu-hours-between-interruptions` over the GPUs.
    """
    if gpus < 1 or read_gb_per_s <= 0:
        raise RequestError("a design's data path needs GPUs and a positive read target")
    assumed: list[Assumed] = []

    def note(field: str, value: str, reason: str, source: str | None) -> None:
        assumed.append(Assumed(field=field, value=value, reason=reason, source=source))

    ingest = read_gb_per_s * 1000 / gpus
    note(
        "ingest_mb_per_s_per_gpu",
        f"{ingest:,.1f}",
        f"the storage tier's aggregate read {read_gb_per_s:g} GB/s over {gpus} GPUs",
        "DGX SuperPOD H100 RA Tables 5 and 6 (tiers by workload)",
    )
    if layout is None:
        layout_s, src = _design_default(catalog, "design-dataset-layout")
        layout = cast(Layout, _allowed(layout_s, LAYOUTS, "design-dataset-layout"))
        note("dataset_layout", layout, "dataset layout not given", src)
    pattern_s, src = _design_default(catalog, "design-read-pattern")
    pattern = cast(ReadPattern, _allowed(pattern_s, READ_PATTERNS, "design-read-pattern"))
    note("read_pattern", pattern, "data loaders prefetch", src)
    workers, src = linear_workers(catalog)
    note("workers_per_gpu", str(workers), "the most workers per GPU that scale linearly", src)
    if layout != "shards" and sample_mb is None:
        raise RequestError(
            f"a {layout} dataset opens one file per sample, so the sample size is needed",
            hint='say it, e.g. "110 KB images" or "sample size 2 MB"',
        )
    system: System
    if layout == "object-store":
        system = "object-store"
    else:
        system_s, src = _design_default(catalog, "design-storage-system")
        system = cast(System, _allowed(system_s, SYSTEMS, "design-storage-system"))
        note("storage_system", system, "storage system not given", src)
    fs = _size_file_system(catalog, system, pattern, read_gb_per_s)
    if system == "parallel-fs":
        # Sized for the recommended layout (shards), as the targets are for the read target: a
        # layout that opens more files than that overloads them, and the design's check says so.
        servers_s, src = _design_default(catalog, "design-metadata-servers")
        shards = catalog.get("storage_models", StorageModel, "layout-shards", "storage model")
        mds = catalog.get("storage_models", StorageModel, "lustre-mds", "storage model")
        sysm = catalog.get("storage_models", StorageModel, "system-parallel-fs", "storage model")
        servers = int(float(servers_s))
        if shards.file_mb and mds.ops_per_s and sysm.metadata_ops_per_open:
            ops = gpus * ingest / shards.file_mb * sysm.metadata_ops_per_open
            servers = max(servers, math.ceil(ops / mds.ops_per_s - 1e-9))
        fs = fs.model_copy(update={"metadata_servers": servers})
        note(
            "metadata_servers",
            str(servers),
            f"at least {servers_s}, enough for {shards.file_mb:g} MB shards at "
            f"{mds.ops_per_s or 0:,.0f} ops/s per server ({mds.id})",
            src,
        )
    interval: float | None = None
    interval_basis: str | None = None
    if checkpoints and checkpoint_gb is None and model_params_b is not None:
        per_param, src = _design_default(catalog, "checkpoint-bytes-per-param")
        checkpoint_gb = model_params_b * float(per_param)
        note("checkpoint_gb", f"{checkpoint_gb:,.0f}", f"{per_param} bytes per parameter", src)
    if checkpoints and checkpoint_gb is not None and fs.write_gb_per_s:
        hours_s, src = _design_default(catalog, "gpu-hours-between-interruptions")
        mtbi_s = float(hours_s) / gpus * 3600
        write_s = checkpoint_gb / fs.write_gb_per_s
        interval = math.sqrt(2 * write_s * mtbi_s)
        interval_basis = (
            f"Young's interval sqrt(2 x {write_s:,.1f} s write x {mtbi_s / 3600:,.1f} h between "
            f"interruptions) = {interval / 60:,.1f} min"
        )
        note("checkpoint_interval_s", f"{interval:,.0f}", interval_basis, src)
    workload = IoWorkload(
        gpus=gpus,
        ingest_mb_per_s_per_gpu=ingest,
        sample_mb=sample_mb,
        workers_per_gpu=workers,
        read_pattern=pattern,
        layout=layout,
        system=system,
        storage_targets=fs.storage_targets,
        read_gb_per_s=fs.read_gb_per_s if system == "object-store" else None,
        write_gb_per_s=fs.write_gb_per_s if system == "object-store" else None,
        metadata_servers=fs.metadata_servers or 1,
        gpus_per_node=gpus_per_node,
        storage_network_gb_per_s=storage_network_gb_per_s,
        checkpoint_gb=checkpoint_gb if interval is not None else None,
        checkpoint_interval_s=interval,
    )
    return DesignIo(
        workload=workload,
        file_system=fs,
        checkpoint_interval_basis=interval_basis,
        assumed=assumed,
    )


def _allowed(value: str, allowed: tuple[str, ...], entry: str) -> str:
    if value not in allowed:
        raise RequestError(
            f"assumption {entry} is {value!r}, not one of {', '.join(allowed)}",
            hint="fix the layered catalog",
        )
    return value


def _size_file_system(
    catalog: Catalog, system: System, pattern: ReadPattern, read_gb_per_s: float
) -> FileSystem:
    """Enough of the system to deliver `read_gb_per_s` at the pattern's efficiency."""
    p = catalog.get("storage_models", StorageModel, f"pattern-{pattern}", "storage model")
    efficiency = p.efficiency or 1.0
    if system == "parallel-fs":
        t = catalog.get("storage_models", StorageModel, "lustre-ost-4x-nvme", "storage model")
        if not t.read_gb_per_s:
            raise RequestError(f"storage target {t.id} has no read bandwidth in the catalog")
        targets = math.ceil(read_gb_per_s / (t.read_gb_per_s * efficiency) - 1e-9)
        return FileSystem(
            system=system,
            storage_targets=targets,
            target=t.id,
            read_gb_per_s=targets * t.read_gb_per_s,
            write_gb_per_s=None if t.write_gb_per_s is None else targets * t.write_gb_per_s,
            metadata_servers=1,
            basis=f"{targets} x {t.id} ({t.read_gb_per_s:g} GB/s read each) deliver "
            f"{read_gb_per_s:g} GB/s at {efficiency:g} efficiency for {pattern} reads",
        )
    raw = read_gb_per_s / efficiency
    return FileSystem(
        system=system,
        storage_targets=None,
        target=None,
        read_gb_per_s=raw,
        write_gb_per_s=None,
        metadata_servers=None,
        basis=f"{raw:,.1f} GB/s raw read delivers {read_gb_per_s:g} GB/s at {efficiency:g} "
        f"efficiency for {pattern} reads",
    )
