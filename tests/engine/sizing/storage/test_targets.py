"""design_io's defaults: the storage system, the metadata servers and the checkpoint interval."""

from __future__ import annotations

import math

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.common import Assumed
from clustergen.engine.model.storage import FileSystem
from clustergen.engine.sizing.storage.targets import (
    _checkpoint,
    _system,
    _with_metadata_servers,
    storage_targets,
    su_equivalents,
)
from clustergen.errors import RequestError


def _fs(write_gb_per_s: float | None) -> FileSystem:
    return FileSystem(
        system="parallel-fs",
        storage_targets=10,
        target="lustre-ost-4x-nvme",
        read_gb_per_s=100.0,
        write_gb_per_s=write_gb_per_s,
        metadata_servers=1,
        basis="test",
    )


def test_checkpoint_interval_is_youngs() -> None:
    cat = load_catalog()
    hours = float(cat.assumption("gpu-hours-between-interruptions").value)
    assumed: list[Assumed] = []
    ckpt = _checkpoint(cat, 1000, 1000.0, None, _fs(100.0), assumed)
    assert ckpt is not None
    mtbi_s = hours / 1000 * 3600
    assert ckpt.interval_s == math.sqrt(2 * 10.0 * mtbi_s)  # 1000 GB at 100 GB/s: 10 s
    assert [a.field for a in assumed] == ["checkpoint_interval_s"]


def test_checkpoint_size_from_the_model_is_recorded_even_when_it_cannot_be_timed() -> None:
    cat = load_catalog()
    per_param = float(cat.assumption("checkpoint-bytes-per-param").value)
    assumed: list[Assumed] = []
    assert _checkpoint(cat, 64, None, 70.0, _fs(None), assumed) is None
    assert [(a.field, a.value) for a in assumed] == [("checkpoint_gb", f"{70 * per_param:,.0f}")]


def test_an_object_store_layout_reads_from_an_object_store() -> None:
    assumed: list[Assumed] = []
    assert _system(load_catalog(), "object-store", None, assumed) == "object-store"
    assert assumed == []


def test_a_storage_system_asked_for_is_used_and_not_assumed() -> None:
    assumed: list[Assumed] = []
    assert _system(load_catalog(), "shards", "local-nvme", assumed) == "local-nvme"
    assert assumed == []
    with pytest.raises(RequestError, match="object-store dataset is read from an object store"):
        _system(load_catalog(), "object-store", "parallel-fs", [])


def test_metadata_servers_grow_with_the_shard_opens() -> None:
    cat = load_catalog()
    few = _with_metadata_servers(cat, _fs(None), 8, 100.0, [])
    many = _with_metadata_servers(cat, _fs(None), 10_000_000, 10_000.0, [])
    assert few.metadata_servers is not None
    assert many.metadata_servers is not None
    assert many.metadata_servers > few.metadata_servers >= 1


def test_storage_targets_count_a_large_su_in_table6_sus() -> None:
    """The issue's example: --su-nodes 100000 --nodes 1000 answered 4.11 GB/s, ~100x below what
    1000 nodes get in Table 6's own 32-node SUs (468.75 GB/s, good tier)."""
    cat = load_catalog()
    table = storage_targets(cat, "good", 1000, 32)
    for su in (33, 72, 1000, 100_000):
        t = storage_targets(cat, "good", 1000, su)
        assert t.read_gb_per_s == table.read_gb_per_s == 468.75
        assert t.write_gb_per_s == table.write_gb_per_s
        assert f"an SU of {su} nodes is larger than Table 6's 32-node SU" in t.basis


def test_storage_targets_never_fall_as_the_su_grows() -> None:
    cat = load_catalog()
    for nodes in (1, 7, 31, 64, 127, 1000):
        reads = [
            storage_targets(cat, "better", nodes, su).read_gb_per_s for su in (4, 8, 32, 64, 10_000)
        ]
        assert all(r >= storage_targets(cat, "better", nodes, 32).read_gb_per_s for r in reads[:3])
        assert reads[3] == reads[4] == storage_targets(cat, "better", nodes, 32).read_gb_per_s


@pytest.mark.parametrize(
    ("nodes", "su_nodes", "says"),
    [
        (10**12, None, "nodes must be a finite number at least 1 and at most 1,000,000"),
        (1000, 10**12, "su_nodes must be a finite number at least 1 and at most 1,000,000"),
    ],
)
def test_storage_targets_refuse_counts_past_the_physical_range(
    nodes: int, su_nodes: int | None, says: str
) -> None:
    with pytest.raises(RequestError, match=says):
        storage_targets(load_catalog(), "good", nodes, su_nodes)


def test_su_equivalents_are_worded_with_separators_and_no_trailing_zeros() -> None:
    """Issue 23: "2304 GPUs ... (9.00 SU)" read as code, not a memo."""
    assert su_equivalents(288, 9.0, 32) == "288 nodes = 9 SU-equivalents of 32 nodes"
    assert su_equivalents(2_048, 64.0, 32) == "2,048 nodes = 64 SU-equivalents of 32 nodes"
    assert su_equivalents(32, 1.0, 32) == "32 nodes = 1 SU-equivalent of 32 nodes"
    assert su_equivalents(18, 0.5625, 32) == "18 nodes = 0.56 of an SU of 32 nodes"
    assert su_equivalents(40, 1.25, 32) == "40 nodes = 1.25 SU-equivalents of 32 nodes"
