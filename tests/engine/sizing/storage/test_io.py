"""The data path's nouns: the loader (Little's law), the optional limits, the first at scale."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.storage import IoWorkload
from clustergen.engine.sizing.storage.io import (
    IoConstants,
    _first_at_scale,
    _limit,
    _Loader,
    _metadata_limit,
    _request_mb,
)


def test_loader_delivers_reads_in_flight_times_file_size_over_latency() -> None:
    loader = _Loader(file_mb=0.1, depth=2, workers=4.0, latency_s=0.02)
    assert loader.mb_per_s == pytest.approx(40.0)  # 4 x 2 x 0.1 MB / 20 ms
    assert loader.depth_needed(100.0) == 5  # 100 MB/s x 20 ms / (4 x 0.1 MB)
    assert loader.depth_needed(1.0) == 1


def test_no_metadata_limit_without_a_metadata_server() -> None:
    w = IoWorkload(gpus=8, ingest_mb_per_s_per_gpu=100, system="object-store", read_gb_per_s=10)
    assumed: list[str] = []
    assert _metadata_limit(w, IoConstants(load_catalog(), w), 1000.0, assumed) is None
    assert assumed == []


def test_a_request_is_never_larger_than_the_file() -> None:
    w = IoWorkload(gpus=8, ingest_mb_per_s_per_gpu=100, storage_targets=4)
    m = IoConstants(load_catalog(), w)
    assert _request_mb(m, 0.001) == 0.001
    assert _request_mb(m, 1e6) < 1e6


def test_first_limit_at_scale_ignores_the_checkpoint() -> None:
    limits = [
        _limit("checkpoint", "", "s", 10.0, 1.0, 64, fixed=True),
        _limit("metadata", "", "ops/s", 4.0, 1.0, 64, fixed=True),
        _limit("iops", "", "IOPS", 2.0, 1.0, 64, fixed=True),
        _limit("data_loader", "", "MB/s", 9.0, 1.0, 64, fixed=False),
    ]
    first = _first_at_scale(limits)
    assert first is not None
    assert (first.name, first.binds_at_gpus) == ("metadata", 16)
    assert _first_at_scale(limits[3:]) is None
