"""Storage analysis on the shipped catalog (hypothesis): utilisation is a fraction, and giving the
data path more of any resource never lowers it."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from clustergen.catalog import load_catalog
from clustergen.engine.model.storage import IoWorkload, StorageAnalysis
from clustergen.engine.sizing.storage.io import analyze_storage
from clustergen.errors import ClustergenError

CATALOG = load_catalog()


@st.composite
def workloads(draw: st.DrawFn) -> dict[str, Any]:
    """Complete, consistent workloads: the layout suits the system, an object store states its
    bandwidth, a checkpoint states its size and interval."""
    system = draw(st.sampled_from(["local-nvme", "parallel-fs", "object-store"]))
    fields: dict[str, Any] = {
        "gpus": draw(st.integers(1, 50_000)),
        "ingest_mb_per_s_per_gpu": draw(st.floats(0.1, 5_000)),
        "sample_mb": draw(st.floats(0.001, 500)),
        "workers_per_gpu": draw(st.integers(1, 32)),
        "read_pattern": draw(st.sampled_from(["sequential", "random-small", "prefetch"])),
        "system": system,
        "storage_targets": draw(st.integers(1, 500)),
        "metadata_servers": draw(st.integers(1, 16)),
        "prefetch_depth": draw(st.one_of(st.none(), st.integers(1, 64))),
    }
    if system == "object-store":
        fields["layout"] = "object-store"
        fields["read_gb_per_s"] = draw(st.floats(1, 10_000))
    else:
        fields["layout"] = draw(st.sampled_from(["one-file-per-sample", "shards"]))
    if draw(st.booleans()):
        fields["checkpoint_gb"] = draw(st.floats(1, 50_000))
        fields["checkpoint_interval_s"] = draw(st.floats(60, 86_400))
        fields["write_gb_per_s"] = draw(st.one_of(st.none(), st.floats(1, 10_000)))
    return {k: v for k, v in fields.items() if v is not None}


# Each is a resource: more of it can only help.
MORE = st.sampled_from(
    [("storage_targets", 2), ("metadata_servers", 2), ("workers_per_gpu", 2), ("prefetch_depth", 4)]
)


def analyse(fields: dict[str, Any]) -> StorageAnalysis | None:
    try:
        return analyze_storage(CATALOG, IoWorkload.model_validate(fields))
    except ClustergenError:
        return None  # e.g. a layout the chosen system cannot serve


@settings(max_examples=80, deadline=None)
@given(workloads(), MORE)
def test_more_of_a_resource_never_lowers_utilisation(
    fields: dict[str, Any], more: tuple[str, int]
) -> None:
    base = analyse(fields)
    if base is None:
        return
    assert 0.0 < base.gpu_utilisation <= 1.0
    assert base.gpu_utilisation <= base.data_gpu_utilisation + 1e-12
    name, factor = more
    current = fields.get(name, base.prefetch_depth if name == "prefetch_depth" else 1)
    better = analyse({**fields, name: current * factor})
    assert better is not None
    assert better.gpu_utilisation >= base.gpu_utilisation - 1e-12, (name, base, better)
