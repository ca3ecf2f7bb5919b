"""Storage I/O: will storage keep the GPUs fed?

`analyze_storage`: will storage keep the GPUs fed? Every constant comes from
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

import math
from typing import NamedTuple

from clustergen.catalog.loader import Catalog
from clustergen.engine.model.storage import (
    CurvePoint,
    Fix,
    IoWorkload,
    Limit,
    StorageAnalysis,
)
from clustergen.engine.sizing.storage.constants import IoConstants
from clustergen.engine.sizing.storage.fixes import candidate_fixes
from clustergen.errors import RequestError
from clustergen.units import plural


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
            hint="use `system` object-store, or `layout` one-file-per-sample / shards",
            field="system",
            value=w.system,
            limit="object-store",
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


def _read_supply(w: IoWorkload, m: IoConstants, assumed: list[str]) -> tuple[float, float | None]:
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


def _write_supply(w: IoWorkload, m: IoConstants) -> float | None:
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


class _Loader(NamedTuple):
    """One GPU's data loaders: effective workers x reads in flight per worker, each read one file
    taking the system's per-file latency (Little's law)."""

    file_mb: float
    depth: int
    workers: float  # effective, from the catalog's worker scaling
    latency_s: float

    @property
    def mb_per_s(self) -> float:
        return self.workers * self.depth * self.file_mb / self.latency_s

    def depth_needed(self, ingest: float) -> int:
        """The fewest reads in flight per worker that deliver `ingest` MB/s."""
        return max(1, math.ceil(ingest * self.latency_s / (self.workers * self.file_mb) - 1e-9))


def _loader(w: IoWorkload, m: IoConstants, sample: float | None, assumed: list[str]) -> _Loader:
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
    return _Loader(
        file_mb=file_mb,
        depth=depth,
        workers=m.effective_workers(w.workers_per_gpu),
        latency_s=(m.system.file_latency_ms or 0.0) / 1000,
    )


def _bandwidth_limit(w: IoWorkload, m: IoConstants, demand_gb: float, raw_gb: float) -> Limit:
    efficiency = m.pattern.efficiency or 1.0
    return _limit(
        "storage_bandwidth",
        f"read bandwidth: {raw_gb:,.1f} GB/s raw x {efficiency:g} for {w.read_pattern} reads",
        "GB/s",
        demand_gb,
        raw_gb * efficiency,
        w.gpus,
        fixed=w.system != "local-nvme" or w.read_gb_per_s is not None,
    )


def _loader_limit(w: IoWorkload, m: IoConstants, ingest: float, loader: _Loader) -> Limit:
    return _limit(
        "data_loader",
        f"data loader per GPU: {plural(w.workers_per_gpu, 'worker')} x "
        f"{plural(loader.depth, 'read')} in flight x "
        f"{loader.file_mb:g} MB per {m.system.file_latency_ms:g} ms file access",
        "MB/s per GPU",
        ingest,
        loader.mb_per_s,
        w.gpus,
        fixed=False,
    )


def _metadata_limit(
    w: IoWorkload, m: IoConstants, opens: float, assumed: list[str]
) -> Limit | None:
    """File opens against the metadata servers; None where no metadata server is in the path."""
    if not (w.system == "parallel-fs" and m.layout.uses_metadata_server and m.mds is not None):
        return None
    ops_per_open = m.system.metadata_ops_per_open or 0.0
    capacity = w.metadata_servers * (w.mds_ops_per_s or m.mds.ops_per_s or 0.0)
    if w.mds_ops_per_s is None:
        assumed.append(f"{m.mds.ops_per_s:,.0f} metadata ops/s per server ({m.mds.id})")
    return _limit(
        "metadata",
        f"metadata: {opens:,.0f} file opens/s x {ops_per_open:g} ops against "
        f"{plural(w.metadata_servers, 'metadata server')}",
        "ops/s",
        opens * ops_per_open,
        capacity,
        w.gpus,
        fixed=True,
    )


def _object_limit(w: IoWorkload, m: IoConstants, opens: float) -> Limit | None:
    if w.system != "object-store":
        return None
    per_prefix = m.system.requests_per_s_per_prefix or 0.0
    ops_per_open = m.system.metadata_ops_per_open or 0.0
    return _limit(
        "object_requests",
        f"object-store GETs: {w.prefixes} prefix(es) x {per_prefix:,.0f} requests/s",
        "requests/s",
        opens * max(ops_per_open, 1.0),
        w.prefixes * per_prefix,
        w.gpus,
        fixed=True,
    )


def _request_mb(m: IoConstants, file_mb: float) -> float:
    """One read request: the pattern's request size, or the whole file when it is smaller."""
    return min(file_mb, (m.pattern.request_kb or 1024) * 1024 / 1e6)


def _iops_limit(
    w: IoWorkload, request_mb: float, demand: float, supply: float | None
) -> Limit | None:
    if supply is None:
        return None
    return _limit(
        "iops",
        f"read requests of {request_mb * 1000:,.1f} KB against the drives' IOPS",
        "IOPS",
        demand,
        supply,
        w.gpus,
        fixed=w.system != "local-nvme",
    )


def _network_limit(w: IoWorkload, demand_gb: float) -> Limit | None:
    if w.storage_network_gb_per_s is None:
        return None
    return _limit(
        "storage_network",
        "storage network between the GPU nodes and the storage",
        "GB/s",
        demand_gb,
        w.storage_network_gb_per_s,
        w.gpus,
        fixed=True,
    )


def _first_at_scale(limits: list[Limit]) -> Limit | None:
    """The data-path limit that binds at the fewest GPUs as the cluster grows."""
    fixed = [lim for lim in limits if lim.binds_at_gpus is not None and lim.name != "checkpoint"]
    return min(fixed, key=lambda lim: lim.binds_at_gpus or 0, default=None)


def _system_notes(w: IoWorkload, m: IoConstants, write_gb: float | None) -> list[str]:
    notes: list[str] = []
    if w.system == "local-nvme":
        notes.append("local NVMe: the dataset must be staged onto every node (or its shard of it)")
    if m.system.placeholder:
        notes.append(f"{m.system.id} uses placeholder constants: measure and layer your own")
    if write_gb is None and w.checkpoint_gb is not None:
        notes.append("write bandwidth unknown: give the write GB/s to time the checkpoint")
    return notes


def _analyse(catalog: Catalog, w: IoWorkload) -> StorageAnalysis:
    _check(w)
    m = IoConstants(catalog, w)
    assumed: list[str] = []
    notes: list[str] = []
    ingest, sample = _ingest(w)
    loader = _loader(w, m, sample, assumed)
    demand_gb = w.gpus * ingest / 1000
    raw_gb, iops_supply = _read_supply(w, m, assumed)
    opens = w.gpus * ingest / loader.file_mb
    request_mb = _request_mb(m, loader.file_mb)
    iops_demand = demand_gb * 1000 / request_mb
    bandwidth = _bandwidth_limit(w, m, demand_gb, raw_gb)
    metadata = _metadata_limit(w, m, opens, assumed)
    every = (
        bandwidth,
        _loader_limit(w, m, ingest, loader),
        metadata,
        _object_limit(w, m, opens),
        _iops_limit(w, request_mb, iops_demand, iops_supply),
        _network_limit(w, demand_gb),
    )
    limits = [lim for lim in every if lim is not None]
    data_util = min(lim.allowed_gpu_utilisation for lim in limits)
    write_gb = _write_supply(w, m)
    ckpt_s, ckpt_stall, ckpt_util = _checkpoint(w, write_gb, limits, notes)
    first = _first_at_scale(limits)
    md_ops = None if metadata is None else metadata.demand
    md_cap = None if metadata is None else metadata.capacity
    return StorageAnalysis(
        workload=w,
        ingest_mb_per_s_per_gpu=ingest,
        file_mb=loader.file_mb,
        demand_read_gb_per_s=demand_gb,
        supply_read_gb_per_s=raw_gb,
        pattern_read_gb_per_s=bandwidth.capacity,
        delivered_read_gb_per_s=demand_gb * data_util,
        storage_busy_fraction=demand_gb * data_util / raw_gb if raw_gb else 0.0,
        read_iops_demand=iops_demand,
        read_iops_supply=iops_supply,
        file_opens_per_s=opens,
        metadata_ops_per_s=md_ops,
        metadata_capacity_ops_per_s=md_cap,
        effective_workers=loader.workers,
        prefetch_depth=loader.depth,
        prefetch_depth_needed=loader.depth_needed(ingest),
        loader_mb_per_s_per_gpu=loader.mb_per_s,
        write_gb_per_s=write_gb,
        checkpoint_write_s=ckpt_s,
        checkpoint_stall_fraction=ckpt_stall,
        data_gpu_utilisation=data_util,
        gpu_utilisation=data_util * ckpt_util,
        io_bound=data_util < 1.0,
        binding_limit=_binding(limits),
        first_limit_at_scale=first.name if first else None,
        first_limit_at_gpus=first.binds_at_gpus if first else None,
        limits=limits,
        fixes=[],
        recommended_layout=_recommended_layout(w, m, md_ops, md_cap),
        assumed=assumed,
        notes=[*notes, *_system_notes(w, m, write_gb)],
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
    w: IoWorkload, m: IoConstants, md_ops: float | None, md_cap: float | None
) -> str:
    if w.system == "object-store":
        return "shards (large objects) spread over enough key prefixes"
    if w.layout == "one-file-per-sample" and md_ops is not None and md_cap and md_ops > md_cap / 2:
        return "shards of >= 100 MB (one file per sample loads the metadata servers)"
    if w.read_pattern == "random-small":
        return "shards read sequentially (random small reads waste the storage bandwidth)"
    return "shards of >= 100 MB read sequentially" if w.layout == "shards" else w.layout


def _fixes(catalog: Catalog, w: IoWorkload, a: StorageAnalysis) -> list[Fix]:
    out: list[Fix] = []
    seen: set[str] = set()
    for lim in sorted((x for x in a.limits if x.binds), key=lambda x: x.allowed_gpu_utilisation):
        for action, changed in candidate_fixes(catalog, w, a, lim):
            if action in seen:
                continue
            seen.add(action)
            after = _analyse(catalog, changed).gpu_utilisation if changed is not w else None
            out.append(Fix(limit=lim.name, action=action, gpu_utilisation_after=after))
    return out
