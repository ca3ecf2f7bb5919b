"""Fixes for a data path that starves the GPUs: for each binding limit, concrete changes to the\nworkload or the storage, each re-run through the model by storage_io."""

from __future__ import annotations

import math
from collections.abc import Callable

from clustergen.catalog.loader import Catalog
from clustergen.engine.model.storage import (
    IoWorkload,
    Limit,
    ReadPattern,
    StorageAnalysis,
)
from clustergen.engine.sizing.storage.constants import IoConstants

_FixMaker = Callable[[Catalog, IoWorkload, StorageAnalysis, Limit], list[tuple[str, IoWorkload]]]


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
    m = IoConstants(catalog, w)
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


_MAKERS: dict[str, _FixMaker] = {
    "storage_bandwidth": _fix_bandwidth,
    "data_loader": _fix_loader,
    "metadata": _fix_metadata,
    "object_requests": _fix_requests,
    "iops": _fix_iops,
    "storage_network": _fix_network,
    "checkpoint": _fix_checkpoint,
}


def candidate_fixes(
    catalog: Catalog, w: IoWorkload, a: StorageAnalysis, lim: Limit
) -> list[tuple[str, IoWorkload]]:
    """(action, the workload after it) for one binding limit; the workload itself where the
    model cannot express the change."""
    return _MAKERS[lim.name](catalog, w, a, lim)
