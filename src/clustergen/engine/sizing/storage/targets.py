"""Storage sizing: SuperPOD storage targets by tier, and the file system and data path a design
reads from, with stated defaults.

`storage_targets`: NVIDIA's storage guidance (DGX SuperPOD H100 RA, Table 6) publishes read and
write bandwidth for one node, one scalable unit (SU) and four SUs per tier (good, better, best).
A design gets the published figure at its scale, interpolated between published points and scaled
linearly per SU beyond the last one, never below the single-node figure.
"""

from __future__ import annotations

import itertools
import math
from typing import NamedTuple, cast

from pydantic import ValidationError

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import StorageModel
from clustergen.catalog.models import System as CatalogSystem
from clustergen.engine.model.bounds import MAX_NODES, check_number
from clustergen.engine.model.common import Assumed
from clustergen.engine.model.storage import (
    LAYOUTS,
    READ_PATTERNS,
    SYSTEMS,
    DesignIo,
    FileSystem,
    IoWorkload,
    Layout,
    ReadPattern,
    StorageTargets,
    System,
)
from clustergen.errors import CatalogError, CatalogGapError, NotFoundError, RequestError
from clustergen.units import plural

#: the architecture whose RA publishes Table 6; its SU size is the table's unit
_TABLE6_ARCHITECTURE = "dgx-superpod-h100"


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
        raise RequestError(
            f"nodes must be at least 1, got {nodes}", field="nodes", value=nodes, limit=1
        )
    if su_nodes is not None and su_nodes < 1:
        raise RequestError(
            f"su_nodes must be at least 1, got {su_nodes}",
            field="su_nodes",
            value=su_nodes,
            limit=1,
        )
    check_number("nodes", nodes, ge=1, le=MAX_NODES)
    if su_nodes is not None:
        # any SU size is harmless here: one past Table 6's own is counted in Table 6 SUs
        check_number("su_nodes", su_nodes, ge=1, le=MAX_NODES)
    t = catalog.storage_tier(tier)
    table_su = _table6_su_nodes(catalog, required=su_nodes is None)
    su = su_nodes if su_nodes is not None else table_su
    assert su is not None  # _table6_su_nodes raised when neither is known
    notes = ""
    if table_su is not None and su > table_su:
        # Table 6's figures are for SUs of its own size: counting a larger SU as one would give
        # its nodes a fraction of what the Table asks for (100,000-node SUs: 1% of the target).
        notes = (
            f"; an SU of {su} nodes is larger than Table 6's {table_su}-node SU, so the nodes are "
            f"counted in {table_su}-node SUs"
        )
    sizes = [su] if table_su is None or su <= table_su else [su, table_su]
    slot = next((s for s in sizes if s > 1 and nodes >= s - 1 and (nodes + 1) % s == 0), None)
    counted = nodes + 1 if slot else nodes
    su = sizes[-1]
    sus = counted / su
    read, basis = _scale(
        t.node_read_gb_per_s, t.su_read_gb_per_s, t.four_su_read_gb_per_s, sus, su, nodes
    )
    write, _ = _scale(
        t.node_write_gb_per_s, t.su_write_gb_per_s, t.four_su_write_gb_per_s, sus, su, nodes
    )
    if slot:
        basis += f"; {nodes} nodes fill {plural(counted // slot, 'SU')} with one slot for the fabric manager"
    basis += notes
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


def _table6_su_nodes(catalog: Catalog, *, required: bool) -> int | None:
    """The SU size Table 6's figures were published for, from its architecture in the catalog;
    None when that is missing and the caller gave its own (else a RequestError)."""
    try:
        return catalog.architecture(_TABLE6_ARCHITECTURE).su_nodes
    except NotFoundError:
        if not required:
            return None
        raise RequestError(
            f"su_nodes not given and architecture {_TABLE6_ARCHITECTURE!r} is not in the catalog",
            hint="pass su_nodes (nodes per scalable unit)",
        ) from None


def su_equivalents(nodes: int, sus: float, su_nodes: int) -> str:
    """'288 nodes = 9 SU-equivalents of 32 nodes', '18 nodes = 0.56 of an SU of 32 nodes': the
    nodes counted in Table 6's scalable units, with thousands separators, no trailing zeros."""
    count = f"{sus:,.2f}".rstrip("0").rstrip(".")
    if sus < 1:
        return f"{nodes:,} nodes = {count} of an SU of {su_nodes} nodes"
    noun = "SU-equivalent" if count == "1" else "SU-equivalents"
    return f"{nodes:,} nodes = {count} {noun} of {su_nodes} nodes"


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
                f"({su_equivalents(nodes, sus, su_nodes)})"
            )
    x, y, label = points[-1]
    value = max(node, y * sus / x)
    per = "node" if label == "single-node" else "SU"
    return (
        value,
        f"{label} aggregate from {table}, scaled by {per} count ({su_equivalents(nodes, sus, su_nodes)})",
    )


def _design_default(catalog: Catalog, name: str) -> tuple[str, str]:
    a = catalog.assumption(name)
    return str(a.value), a.source


def linear_workers(catalog: Catalog) -> tuple[int, str]:
    """The most data-loader workers per GPU that still scale linearly (the catalog's curve)."""
    entry = catalog.get(StorageModel, "workers-default")
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
    appliance: CatalogSystem | None = None,
    write_gb_per_s: float | None = None,
    storage_system: System | None = None,
    capacity_tb: float | None = None,
    checkpoint_interval_s: float | None = None,
) -> DesignIo:
    """The I/O workload of a design of `gpus` GPUs whose storage tier reads `read_gb_per_s`.

    Defaults, each recorded with its source: the GPUs consume the tier's aggregate read (the tier
    is the statement of what the workload reads, H100-RA Tables 5 and 6); the data path is the
    catalog's design storage system, sized to deliver that read at the read pattern's efficiency;
    loaders run the most workers per GPU that still scale linearly; a checkpoint holds
    `checkpoint-bytes-per-param` bytes per parameter and is written every Young interval
    sqrt(2 x write time x mean time between interruptions) (J. W. Young, "A first order
    approximation to the optimum checkpoint interval", CACM 17(9), 1974), the interruptions
    from `gpu-hours-between-interruptions` over the GPUs. With a storage `appliance`, the
    parallel file system is that many appliances: enough for the read target at the pattern's
    efficiency, for the `write_gb_per_s` target and to hold `capacity_tb` usable. A
    `checkpoint_interval_s` the request states is the interval, not Young's.
    """
    if gpus < 1 or read_gb_per_s <= 0:
        raise RequestError("a design's data path needs GPUs and a positive read target")
    ingest = read_gb_per_s * 1000 / gpus
    assumed = [
        Assumed(
            field="ingest_mb_per_s_per_gpu",
            value=f"{ingest:,.1f}",
            reason=f"the storage tier's aggregate read {read_gb_per_s:g} GB/s over {gpus:,} GPUs",
            source="DGX SuperPOD H100 RA Tables 5 and 6 (tiers by workload)",
        )
    ]
    if layout is None:
        layout = _default_layout(catalog, assumed)
    pattern, workers = _loaders(catalog, assumed)
    if layout != "shards" and sample_mb is None:
        raise RequestError(
            f"{'an' if layout[0] in 'aeiou' else 'a'} {layout} dataset opens one file per sample, so the sample size is needed",
            hint='say it, e.g. "110 KB images" or "sample size 2 MB"',
        )
    system = _system(catalog, layout, storage_system, assumed)
    if appliance is not None and system == "parallel-fs":
        need = (read_gb_per_s, write_gb_per_s, capacity_tb)
        fs = _appliance_file_system(catalog, appliance, pattern, *need)
    else:
        fs = _size_file_system(catalog, system, pattern, read_gb_per_s, capacity_tb)
    if system == "parallel-fs":
        fs = _with_metadata_servers(catalog, fs, gpus, ingest, assumed)
    ckpt = None
    if checkpoints:
        ckpt = _checkpoint(catalog, gpus, checkpoint_gb, model_params_b, fs, assumed)
        ckpt = _stated_interval(ckpt, checkpoint_interval_s)
    fields = {
        "gpus": gpus,
        "ingest_mb_per_s_per_gpu": ingest,
        "sample_mb": sample_mb,
        "workers_per_gpu": workers,
        "read_pattern": pattern,
        "layout": layout,
        "system": system,
        "storage_targets": fs.storage_targets,
        "target_read_gb_per_s": appliance.read_gb_per_s
        if appliance and system == "parallel-fs"
        else None,
        "read_gb_per_s": fs.read_gb_per_s if system == "object-store" else None,
        "write_gb_per_s": fs.write_gb_per_s if system == "object-store" or appliance else None,
        "metadata_servers": fs.metadata_servers or 1,
        "gpus_per_node": gpus_per_node,
        "storage_network_gb_per_s": storage_network_gb_per_s,
        "checkpoint_gb": ckpt.gb if ckpt else None,
        "checkpoint_interval_s": ckpt.interval_s if ckpt else None,
    }
    try:
        workload = IoWorkload.model_validate(fields)
    except ValidationError as exc:
        # Every input was in range; the catalog's storage figures took the data path out of it.
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise CatalogError(
            f"the catalog's storage figures give this design a data path out of range "
            f"({where} {err.get('input')!r}: {err['msg'].lower()})",
            hint="check storage_tiers.yaml and storage_models.yaml",
        ) from None
    return DesignIo(
        workload=workload,
        file_system=fs,
        checkpoint_interval_basis=ckpt.basis if ckpt else None,
        assumed=assumed,
    )


def _default_layout(catalog: Catalog, assumed: list[Assumed]) -> Layout:
    value, src = _design_default(catalog, "design-dataset-layout")
    layout = cast(Layout, _allowed(value, LAYOUTS, "design-dataset-layout"))
    assumed.append(
        Assumed(field="dataset_layout", value=layout, reason="dataset layout not given", source=src)
    )
    return layout


def _loaders(catalog: Catalog, assumed: list[Assumed]) -> tuple[ReadPattern, int]:
    """The data loaders' read pattern and their workers per GPU."""
    value, src = _design_default(catalog, "design-read-pattern")
    pattern = cast(ReadPattern, _allowed(value, READ_PATTERNS, "design-read-pattern"))
    assumed.append(
        Assumed(field="read_pattern", value=pattern, reason="data loaders prefetch", source=src)
    )
    workers, src = linear_workers(catalog)
    assumed.append(
        Assumed(
            field="workers_per_gpu",
            value=str(workers),
            reason="the most workers per GPU that scale linearly",
            source=src,
        )
    )
    return pattern, workers


def _system(
    catalog: Catalog, layout: Layout, asked: System | None, assumed: list[Assumed]
) -> System:
    if layout == "object-store":
        if asked not in (None, "object-store"):
            raise RequestError(
                f"an object-store dataset is read from an object store, not {asked}",
                hint="drop one: the dataset layout or the storage system",
                field="storage_system",
                value=asked,
            )
        return "object-store"
    if asked is not None:
        return asked
    value, src = _design_default(catalog, "design-storage-system")
    system = cast(System, _allowed(value, SYSTEMS, "design-storage-system"))
    assumed.append(
        Assumed(field="storage_system", value=system, reason="storage system not given", source=src)
    )
    return system


def _with_metadata_servers(
    catalog: Catalog, fs: FileSystem, gpus: int, ingest: float, assumed: list[Assumed]
) -> FileSystem:
    """Sized for the recommended layout (shards), as the targets are for the read target: a layout
    that opens more files than that overloads them, and the design's check says so."""
    servers_s, src = _design_default(catalog, "design-metadata-servers")
    shards = catalog.get(StorageModel, "layout-shards")
    mds = catalog.get(StorageModel, "lustre-mds")
    sysm = catalog.get(StorageModel, "system-parallel-fs")
    servers = int(float(servers_s))
    if shards.file_mb and mds.ops_per_s and sysm.metadata_ops_per_open:
        ops = gpus * ingest / shards.file_mb * sysm.metadata_ops_per_open
        servers = max(servers, math.ceil(ops / mds.ops_per_s - 1e-9))
    assumed.append(
        Assumed(
            field="metadata_servers",
            value=str(servers),
            reason=f"at least {servers_s}, enough for {shards.file_mb:g} MB shards at "
            f"{mds.ops_per_s or 0:,.0f} ops/s per server ({mds.name})",
            source=src,
        )
    )
    return fs.model_copy(update={"metadata_servers": servers})


class _Checkpoint(NamedTuple):
    """A checkpoint the design can time: its size and Young's interval."""

    gb: float
    interval_s: float
    basis: str


def _checkpoint(
    catalog: Catalog,
    gpus: int,
    checkpoint_gb: float | None,
    model_params_b: float | None,
    fs: FileSystem,
    assumed: list[Assumed],
) -> _Checkpoint | None:
    """The checkpoint (given, or from the model size) and its interval; None when its size or the
    file system's write bandwidth is unknown."""
    if checkpoint_gb is None and model_params_b is not None:
        per_param, src = _design_default(catalog, "checkpoint-bytes-per-param")
        checkpoint_gb = model_params_b * float(per_param)
        assumed.append(
            Assumed(
                field="checkpoint_gb",
                value=f"{checkpoint_gb:,.0f}",
                reason=f"{per_param} bytes per parameter",
                source=src,
            )
        )
    if checkpoint_gb is None or not fs.write_gb_per_s:
        return None
    hours_s, src = _design_default(catalog, "gpu-hours-between-interruptions")
    mtbi_s = float(hours_s) / gpus * 3600
    write_s = checkpoint_gb / fs.write_gb_per_s
    interval = math.sqrt(2 * write_s * mtbi_s)
    basis = (
        f"Young's interval sqrt(2 x {write_s:,.1f} s write x {mtbi_s / 3600:,.1f} h between "
        f"interruptions) = {interval / 60:,.1f} min"
    )
    assumed.append(
        Assumed(field="checkpoint_interval_s", value=f"{interval:,.0f}", reason=basis, source=src)
    )
    return _Checkpoint(gb=checkpoint_gb, interval_s=interval, basis=basis)


def _stated_interval(ckpt: _Checkpoint | None, interval_s: float | None) -> _Checkpoint | None:
    """The checkpoint written at the interval the request states, Young's said beside it."""
    if ckpt is None or interval_s is None:
        return ckpt
    return _Checkpoint(
        gb=ckpt.gb,
        interval_s=interval_s,
        basis=f"the request's, every {interval_s / 60:,.0f} min (Young's interval would be "
        f"{ckpt.interval_s / 60:,.1f} min)",
    )


def _allowed(value: str, allowed: tuple[str, ...], entry: str) -> str:
    if value not in allowed:
        raise RequestError(
            f"assumption {entry} is {value!r}, not one of {', '.join(allowed)}",
            hint="fix the layered catalog",
        )
    return value


def _size_file_system(
    catalog: Catalog,
    system: System,
    pattern: ReadPattern,
    read_gb_per_s: float,
    capacity_tb: float | None = None,
) -> FileSystem:
    """Enough of the system to deliver `read_gb_per_s` at the pattern's efficiency and, for a
    parallel file system whose target's capacity is known, to hold `capacity_tb` usable."""
    p = catalog.get(StorageModel, f"pattern-{pattern}")
    efficiency = p.efficiency or 1.0
    if system == "parallel-fs":
        t = catalog.get(StorageModel, "lustre-ost-4x-nvme")
        if not t.read_gb_per_s:
            raise CatalogGapError(
                f"storage target {t.id} has no read bandwidth in the catalog",
                entry=t.id,
                field="read_gb_per_s",
                hint="add its read_gb_per_s in a layered catalog",
            )
        targets = math.ceil(read_gb_per_s / (t.read_gb_per_s * efficiency) - 1e-9)
        basis = (
            f"{targets} x {t.name} ({t.read_gb_per_s:g} GB/s read each) deliver "
            f"{read_gb_per_s:g} GB/s at {efficiency:g} efficiency for {pattern} reads"
        )
        if capacity_tb and t.usable_capacity_tb:
            by_capacity = math.ceil(capacity_tb / t.usable_capacity_tb - 1e-9)
            if by_capacity > targets:
                targets = by_capacity
                basis = (
                    f"{targets} x {t.name} hold {capacity_tb:,g} TB usable at "
                    f"{t.usable_capacity_tb:g} TB each (estimated), more than the "
                    f"{read_gb_per_s:g} GB/s read target needs"
                )
        return FileSystem(
            system=system,
            storage_targets=targets,
            target=t.id,
            read_gb_per_s=targets * t.read_gb_per_s,
            write_gb_per_s=None if t.write_gb_per_s is None else targets * t.write_gb_per_s,
            metadata_servers=1,
            basis=basis,
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


def _appliance_file_system(
    catalog: Catalog,
    appliance: CatalogSystem,
    pattern: ReadPattern,
    read_gb_per_s: float,
    write_gb_per_s: float | None,
    capacity_tb: float | None = None,
) -> FileSystem:
    """A parallel file system of storage appliances: enough of them to deliver the read target at
    the pattern's efficiency, to absorb the write target and to hold the capacity asked for, at
    least one."""
    if not appliance.read_gb_per_s:
        raise CatalogGapError(
            f"storage appliance {appliance.id} has no read bandwidth in the catalog",
            entry=appliance.id,
            field="read_gb_per_s",
            hint="add its read_gb_per_s in a layered catalog, or pick another appliance",
        )
    p = catalog.get(StorageModel, f"pattern-{pattern}")
    efficiency = p.efficiency or 1.0
    by_read = math.ceil(read_gb_per_s / (appliance.read_gb_per_s * efficiency) - 1e-9)
    by_write = 0
    if write_gb_per_s and appliance.write_gb_per_s:
        by_write = math.ceil(write_gb_per_s / appliance.write_gb_per_s - 1e-9)
    by_capacity = 0
    if capacity_tb and appliance.usable_capacity_tb:
        by_capacity = math.ceil(capacity_tb / appliance.usable_capacity_tb - 1e-9)
    count = max(1, by_read, by_write, by_capacity)
    write = None if appliance.write_gb_per_s is None else count * appliance.write_gb_per_s
    binds = max(
        (by_read, "read"), (by_write, "write"), (by_capacity, "capacity"), key=lambda t: t[0]
    )[1]
    return FileSystem(
        system="parallel-fs",
        storage_targets=count,
        target=appliance.id,
        read_gb_per_s=count * appliance.read_gb_per_s,
        write_gb_per_s=write,
        metadata_servers=1,
        basis=f"{count} x {appliance.name} ({appliance.read_gb_per_s:g} GB/s read"
        + (f", {appliance.write_gb_per_s:g} GB/s write" if appliance.write_gb_per_s else "")
        + f" each): the {binds} target binds ({read_gb_per_s:g} GB/s read at {efficiency:g} "
        f"efficiency for {pattern} reads"
        + (f", {write_gb_per_s:g} GB/s write" if write_gb_per_s else "")
        + (f", {capacity_tb:,g} TB usable" if by_capacity else "")
        + ")",
    )
