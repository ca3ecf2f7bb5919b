"""Storage engine: SuperPOD targets (H100-RA Table 6) and the seed lab's two I/O stories."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from clustergen.catalog import Catalog, builtin_catalog_dir, load_catalog
from clustergen.catalog.loader import FILES
from clustergen.engine.model.storage import IoWorkload, StorageAnalysis
from clustergen.engine.request.translate import build
from clustergen.engine.sizing.storage.io import analyze_storage, storage_curves
from clustergen.engine.sizing.storage.targets import storage_targets
from clustergen.errors import NotFoundError, RequestError

# H100-RA Table 6 (shared/golden/superpod.yaml storage_performance_guidance), GB/s:
# tier: (node read, node write, 1-SU read, 1-SU write, 4-SU read, 4-SU write)
TABLE6 = {
    "good": (4, 2, 15, 7, 60, 30),
    "better": (8, 4, 40, 20, 160, 80),
    "best": (40, 20, 125, 62, 500, 250),
}


def _tier_rows() -> list[dict[str, Any]]:
    return [
        {
            "id": tier,
            "name": tier,
            "node_read_gb_per_s": v[0],
            "node_write_gb_per_s": v[1],
            "su_read_gb_per_s": v[2],
            "su_write_gb_per_s": v[3],
            "four_su_read_gb_per_s": v[4],
            "four_su_write_gb_per_s": v[5],
            "source": "H100-RA Table 6",
            "as_of": "2023-09",
        }
        for tier, v in TABLE6.items()
    ]


def catalog_with(**files: list[dict[str, Any]]) -> Catalog:
    """A catalog of exactly these rows (plus the shipped storage_models.yaml unless given)."""
    if "storage_models" not in files:
        path = builtin_catalog_dir() / "storage_models.yaml"
        files["storage_models"] = yaml.safe_load(path.read_text(encoding="utf-8"))
    entries: dict[str, dict[str, Any]] = {stem: {} for stem in FILES}
    for stem, rows in files.items():
        for row in rows:
            entries[stem][row["id"]] = FILES[stem].model_validate(row)
    return Catalog(entries=entries, directories=[], hash="test")


@pytest.fixture
def cat() -> Catalog:
    return catalog_with(storage_tiers=_tier_rows())


# ---------------------------------------------------------------- SuperPOD targets (Table 6)


@pytest.mark.parametrize("tier", TABLE6)
def test_targets_reproduce_table6_at_1_and_4_su(cat: Catalog, tier: str) -> None:
    node_r, node_w, su_r, su_w, four_r, four_w = TABLE6[tier]
    one = storage_targets(cat, tier, 32, 32)
    four = storage_targets(cat, tier, 128, 32)
    assert (one.read_gb_per_s, one.write_gb_per_s) == (su_r, su_w)
    assert (four.read_gb_per_s, four.write_gb_per_s) == (four_r, four_w)
    assert (one.node_read_gb_per_s, one.node_write_gb_per_s) == (node_r, node_w)
    assert "4-SU" in four.basis
    assert "Table 6" in four.basis
    assert one.capacity_tb is None


@pytest.mark.parametrize("tier", TABLE6)
def test_targets_interpolate_scale_and_never_drop_below_one_node(cat: Catalog, tier: str) -> None:
    node_r, _, su_r, _, four_r, _ = TABLE6[tier]
    reads = [storage_targets(cat, tier, n, 32).read_gb_per_s for n in range(1, 300)]
    assert reads[0] == node_r
    assert all(r >= node_r for r in reads)
    assert reads == sorted(reads)  # more nodes never get a smaller target
    assert storage_targets(cat, tier, 256, 32).read_gb_per_s == pytest.approx(2 * four_r)
    two = storage_targets(cat, tier, 64, 32)
    assert two.read_gb_per_s == pytest.approx(su_r + (four_r - su_r) / 3)
    assert "interpolated" in two.basis


def test_targets_count_whole_sus_one_node_short_for_the_ufm_slot(cat: Catalog) -> None:
    # H100-RA Table 4: 31 / 127 DGX nodes fill 1 / 4 SUs (one slot holds the UFM)
    assert storage_targets(cat, "best", 31, 32).read_gb_per_s == 125
    assert storage_targets(cat, "best", 127, 32).read_gb_per_s == 500


def test_targets_from_the_shipped_catalog() -> None:
    real = load_catalog()
    assert storage_targets(real, "better", 128, 32).read_gb_per_s == 160
    assert storage_targets(real, "best", 32, None).read_gb_per_s == 125  # SU from the H100 RA


def test_targets_scale_from_su_when_four_su_figure_is_missing(tmp_path: Path) -> None:
    row = {**_tier_rows()[0], "id": "custom", "name": "custom", "four_su_read_gb_per_s": None}
    row["four_su_write_gb_per_s"] = None
    (tmp_path / "storage_tiers.yaml").write_text(yaml.safe_dump([row]), encoding="utf-8")
    layered = load_catalog(tmp_path)
    t = storage_targets(layered, "custom", 96, 32)
    assert t.read_gb_per_s == pytest.approx(3 * 15)
    assert "1-SU aggregate" in t.basis


def test_targets_bad_inputs(cat: Catalog) -> None:
    with pytest.raises(RequestError, match="nodes must be at least 1"):
        storage_targets(cat, "good", 0, 32)
    with pytest.raises(RequestError, match="su_nodes"):
        storage_targets(cat, "good", 8, 0)
    with pytest.raises(NotFoundError) as err:
        storage_targets(cat, "fastest", 8, 32)
    assert err.value.matches


# ---------------------------------------------------------------- the seed lab's stories

# Both stories read the lab's 80 MB/s per GPU in files of 0.2 MB: the lab's Act II has 8 workers
# per GPU each opening 50 files/s feed 80 MB/s per GPU, i.e. 400 files/s of 0.2 MB each.
STORY = {"ingest_mb_per_s_per_gpu": 80, "sample_mb": 0.2, "layout": "one-file-per-sample"}


def story1(cat: Catalog, **changes: Any) -> StorageAnalysis:
    """128 H100 on a 672 GB/s Lustre (24 OSTs x 28 GB/s), small random files, one worker."""
    fields = {**STORY, "gpus": 128, "workers_per_gpu": 1, "read_pattern": "random-small"}
    fields.update(storage_targets=24, **changes)
    return analyze_storage(cat, build(IoWorkload, **fields))


def story2(cat: Catalog, **changes: Any) -> StorageAnalysis:
    """4,096 GPUs x 8 workers, one file per sample, 48 OSTs (1,344 GB/s), one metadata server."""
    fields = {**STORY, "gpus": 4096, "workers_per_gpu": 8, "read_pattern": "sequential"}
    fields.update(storage_targets=48, **changes)
    return analyze_storage(cat, build(IoWorkload, **fields))


def test_story1_io_bound_with_storage_far_from_saturated(cat: Catalog) -> None:
    a = story1(cat)
    assert a.supply_read_gb_per_s == pytest.approx(672)
    assert a.demand_read_gb_per_s == pytest.approx(10.24)  # lab: 128 x 80 MB/s
    assert a.io_bound
    assert a.gpu_utilisation == pytest.approx(0.125)  # lab: "12% GPU utilization"
    assert a.binding_limit == "data_loader"
    assert a.storage_busy_fraction < 0.01  # 1.28 of 672 GB/s
    bandwidth = next(lim for lim in a.limits if lim.name == "storage_bandwidth")
    assert not bandwidth.binds
    assert bandwidth.load_fraction < 0.25  # even the random-read ceiling (47 GB/s) is idle


def test_story1_fixes_more_workers_prefetch_and_shards(cat: Catalog) -> None:
    fixes = {f.action: f.gpu_utilisation_after for f in story1(cat).fixes}
    assert fixes["use 8 data-loader workers per GPU"] > 0.125
    assert fixes["prefetch depth 8 (async reads in flight per worker)"] > 0.125
    assert fixes["pack into >= 100 MB shards and read them sequentially"] == pytest.approx(1.0)
    shards = story1(cat, layout="shards", read_pattern="sequential")
    assert shards.gpu_utilisation == pytest.approx(1.0)
    assert not shards.io_bound


def test_story2_one_mds_saturates_long_before_bandwidth(cat: Catalog) -> None:
    a = story2(cat)
    md = next(lim for lim in a.limits if lim.name == "metadata")
    bw = next(lim for lim in a.limits if lim.name == "storage_bandwidth")
    assert a.binding_limit == "metadata"
    assert md.demand == pytest.approx(4_915_200)  # lab: 4,096 x 8 x 50 x 3
    assert md.capacity == pytest.approx(50_000)
    assert a.gpu_utilisation < 0.02
    assert a.demand_read_gb_per_s == pytest.approx(327.68)  # lab: 328 GB/s of 1,344
    assert not bw.binds
    assert bw.load_fraction < 0.3
    assert md.binds_at_gpus is not None
    assert bw.binds_at_gpus is not None
    assert md.binds_at_gpus * 100 < bw.binds_at_gpus
    assert a.first_limit_at_scale == "metadata"


def test_story2_shards_fix_it(cat: Catalog) -> None:
    a = story2(cat)
    fixes = {f.action: f.gpu_utilisation_after for f in a.fixes}
    assert fixes["pack into >= 100 MB shards and read them sequentially"] == pytest.approx(1.0)
    assert fixes["add 98 metadata servers (99 in all)"] == pytest.approx(1.0)
    fixed = story2(cat, layout="shards", shard_mb=100)
    assert fixed.metadata_ops_per_s == pytest.approx(4096 * 80 / 100 * 3)
    assert fixed.binding_limit is None
    assert fixed.gpu_utilisation == pytest.approx(1.0)
    assert "shards" in a.recommended_layout


# ---------------------------------------------------------------- the rest of the model


def test_samples_and_size_give_the_ingest(cat: Catalog) -> None:
    w = build(
        IoWorkload,
        gpus=8,
        samples_per_s_per_gpu=400,
        sample_mb=0.2,
        storage_targets=4,
        layout="one-file-per-sample",
    )
    a = analyze_storage(cat, w)
    assert a.ingest_mb_per_s_per_gpu == pytest.approx(80)
    assert a.file_opens_per_s == pytest.approx(8 * 400)


def test_checkpoint_write_time_and_stall(cat: Catalog) -> None:
    a = story2(cat, layout="shards", checkpoint_gb=1344, checkpoint_interval_s=600)
    # 48 targets x 14 GB/s write (half the read rate, H100-RA Table 6 ratio)
    assert a.write_gb_per_s == pytest.approx(672)
    assert a.checkpoint_write_s == pytest.approx(2.0)
    assert a.gpu_utilisation == pytest.approx(600 / 602)
    slow = story2(
        cat, layout="shards", checkpoint_gb=1000, checkpoint_interval_s=60, write_gb_per_s=10
    )
    assert slow.binding_limit == "checkpoint"
    assert any("write checkpoints at >=" in f.action for f in slow.fixes)


def test_object_store_has_no_metadata_server_but_a_request_ceiling(cat: Catalog) -> None:
    w = build(IoWorkload, **STORY, gpus=512, workers_per_gpu=8, system="object-store")
    w = w.model_copy(update={"layout": "object-store", "read_gb_per_s": 500.0})
    a = analyze_storage(cat, w)
    names = {lim.name for lim in a.limits}
    assert "metadata" not in names
    assert a.binding_limit == "object_requests"
    assert any("key prefixes" in f.action for f in a.fixes)


def test_local_nvme_bandwidth_grows_with_the_nodes(cat: Catalog) -> None:
    w = build(IoWorkload, gpus=64, ingest_mb_per_s_per_gpu=80, system="local-nvme")
    a = analyze_storage(cat, w)
    assert a.supply_read_gb_per_s == pytest.approx(8 * 4 * 7)  # 8 nodes x 4 drives x 7 GB/s
    bw = next(lim for lim in a.limits if lim.name == "storage_bandwidth")
    assert bw.binds_at_gpus is None
    assert any("placeholder" in n for n in a.notes)


def test_constants_come_from_the_catalog(cat: Catalog) -> None:
    rows = yaml.safe_load((builtin_catalog_dir() / "storage_models.yaml").read_text())
    for row in rows:
        if row["id"] == "lustre-mds":
            row["ops_per_s"] = 200_000
    faster = catalog_with(storage_tiers=_tier_rows(), storage_models=rows)
    md = next(lim for lim in story2(faster).limits if lim.name == "metadata")
    assert md.capacity == 200_000


def test_curves_follow_the_gpu_count(cat: Catalog) -> None:
    w = build(IoWorkload, **STORY, gpus=128, workers_per_gpu=8, storage_targets=24)
    pts = storage_curves(cat, w, [64, 128, 4096])
    assert [p.demand_read_gb_per_s for p in pts] == pytest.approx([5.12, 10.24, 327.68])
    assert pts[-1].binding_limit == "metadata"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"gpus": -1, "ingest_mb_per_s_per_gpu": 80, "storage_targets": 4}, "gpus"),
        ({"gpus": 0, "ingest_mb_per_s_per_gpu": 80, "storage_targets": 4}, "gpus"),
        ({"gpus": 8, "ingest_mb_per_s_per_gpu": -5, "storage_targets": 4}, "ingest"),
        ({"gpus": 8, "ingest_mb_per_s_per_gpu": 80, "storage_targets": -2}, "storage_targets"),
        ({"gpus": 8, "ingest_mb_per_s_per_gpu": 80, "workers_per_gpu": 0}, "workers_per_gpu"),
        ({"gpus": 8, "ingest_mb_per_s_per_gpu": 80, "read_pattern": "zigzag"}, "read_pattern"),
    ],
)
def test_bad_numbers_are_request_errors(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(RequestError, match=message):
        build(IoWorkload, **fields)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"gpus": 8, "storage_targets": 4}, "ingest is unknown"),
        ({"gpus": 8, "ingest_mb_per_s_per_gpu": 80}, "storage targets"),
        (
            {
                "gpus": 8,
                "ingest_mb_per_s_per_gpu": 80,
                "storage_targets": 4,
                "layout": "one-file-per-sample",
            },
            "sample size",
        ),
        ({"gpus": 8, "ingest_mb_per_s_per_gpu": 80, "system": "object-store"}, "read bandwidth"),
        (
            {
                "gpus": 8,
                "ingest_mb_per_s_per_gpu": 80,
                "storage_targets": 4,
                "layout": "object-store",
            },
            "needs system 'object-store'",
        ),
        (
            {
                "gpus": 8,
                "ingest_mb_per_s_per_gpu": 80,
                "samples_per_s_per_gpu": 10,
                "sample_mb": 1,
                "storage_targets": 4,
            },
            "disagrees",
        ),
        (
            {"gpus": 8, "ingest_mb_per_s_per_gpu": 80, "storage_targets": 4, "checkpoint_gb": 5},
            "checkpoint",
        ),
    ],
)
def test_incomplete_workloads_say_what_is_missing(
    cat: Catalog, fields: dict[str, Any], message: str
) -> None:
    with pytest.raises(RequestError, match=message):
        analyze_storage(cat, build(IoWorkload, **fields))
