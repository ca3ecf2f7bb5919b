"""Storage needs the request states (issue 35): the appliances are counted to the stated
capacity and bandwidth, a check fails when a figure is not met, and a checkpoint interval is an
interval, never a deadline."""

from __future__ import annotations

from clustergen.catalog import load_catalog
from clustergen.catalog.models import StorageModel
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design

CAT = load_catalog()


def _checks(text: str) -> dict[str, bool]:
    d = plan_design(CAT, merge_request(CAT, text, {}))
    return {c.name: c.passed for c in d.checks if c.name.startswith("storage ")}


def test_appliances_are_counted_to_the_stated_capacity_and_write_bandwidth() -> None:
    text = "512 GPUs training, 5 PB usable storage and 200 GB/s checkpoint write bandwidth"
    request = merge_request(CAT, text, {})
    assert request.storage_capacity_tb == 5000
    assert request.storage_write_gb_per_s == 200
    d = plan_design(CAT, request)
    app = d.storage.appliances
    assert app is not None
    each = CAT.system(app.appliance).usable_capacity_tb
    assert each is not None
    assert app.count * each >= 5000 > (app.count - 1) * each  # capacity binds: no more than it
    assert (app.write_gb_per_s or 0) >= 200
    checks = {c.name: c for c in d.checks}
    assert checks["storage capacity meets the request"].passed
    assert checks["storage write meets the request"].passed


def test_a_stated_figure_no_storage_figure_can_prove_is_not_a_pass() -> None:
    d = plan_design(
        CAT, merge_request(CAT, "64 GPUs for training on local NVMe, 3 PB usable capacity", {})
    )
    capacity = next(c for c in d.checks if c.name == "storage capacity meets the request")
    assert capacity.unknown
    assert not capacity.passed


def test_parallel_file_system_targets_are_counted_to_the_stated_capacity() -> None:
    text = "We need about 2 PB of parallel file system storage for 256 H200 GPUs training"
    request = merge_request(CAT, text, {})
    assert request.storage_capacity_tb == 2000
    d = plan_design(CAT, request)
    fs = d.storage.file_system
    each = CAT.get(StorageModel, fs.target or "").usable_capacity_tb
    assert each is not None
    assert fs.storage_targets is not None
    assert fs.storage_targets * each >= 2000 > (fs.storage_targets - 1) * each
    assert d.storage.storage_ports >= fs.storage_targets  # a port per target
    capacity = next(c for c in d.checks if c.name == "storage capacity meets the request")
    assert capacity.passed
    assert "is an estimate" in capacity.detail  # the per-target figure says what it is


def test_the_read_target_is_raised_to_the_stated_read_bandwidth() -> None:
    d = plan_design(CAT, merge_request(CAT, "256 GPUs, read bandwidth 600 GB/s", {}))
    assert d.storage.targets.read_gb_per_s == 600
    assert "raised to the request's 600 read GB/s" in d.storage.targets.basis


def test_a_checkpoint_interval_is_not_a_deadline() -> None:
    request = merge_request(CAT, "512 GPUs training, checkpoint every 30 minutes", {})
    assert request.checkpoint_interval_s == 1800
    assert request.training_days is None
    d = plan_design(CAT, request)
    assert any("every 30 min, as the request states" in n for n in d.storage.notes)


def test_a_stated_interval_replaces_youngs() -> None:
    text = "512 GPUs training a 70B model, checkpoints every 20 min"
    d = plan_design(CAT, merge_request(CAT, text, {}))
    assert any("the request's, every 20 min" in n for n in d.storage.notes)
    assert d.storage.io.workload.checkpoint_interval_s == 1200


def test_a_bandwidth_stated_per_host_or_gpu_is_multiplied_by_the_designs_own() -> None:
    # 32 HGX/DGX B200 nodes x 20 GB/s; 18 compute trays of one NVL72 rack x 4 GB/s; 512 x 2 GB/s
    for text, per, total in (
        ("256 B200 GPUs, 20 GB/s per node storage reads", "node", 32 * 20.0),
        ("72 GB200 GPUs, storage read 4 GB/s per node", "node", 18 * 4.0),
        ("512 H100 GPUs, 2 GB/s/GPU read bandwidth", "gpu", 512 * 2.0),
    ):
        request = merge_request(CAT, text, {})
        assert request.storage_bandwidth_per == per
        d = plan_design(CAT, request)
        assert d.storage.targets.read_gb_per_s >= total
        check = next(c for c in d.checks if c.name == "storage read meets the request")
        assert check.figure.endswith(f"of {total:,g} GB/s read")


def test_a_capacity_stated_per_host_or_gpu_is_multiplied_by_the_designs_own() -> None:
    # 32 H100 nodes x 20 TB; 18 compute trays of one NVL72 rack x 10 TB; 512 GPUs x 2 TB
    for text, per, total in (
        ("We need 20 TB of storage per node for 32 H100 nodes", "node", 32 * 20.0),
        ("72 GB200 GPUs, 10 TB usable per node", "node", 18 * 10.0),
        ("512 H100 GPUs, 2 TB storage each GPU", "gpu", 512 * 2.0),
    ):
        request = merge_request(CAT, text, {})
        assert request.storage_capacity_per == per
        d = plan_design(CAT, request)
        assert d.storage.targets.capacity_tb == total
        check = next(c for c in d.checks if c.name == "storage capacity meets the request")
        assert check.figure.endswith(f"of {total:,g} TB usable")


def test_a_total_capacity_is_not_multiplied() -> None:
    request = merge_request(CAT, "512 H100 GPUs, 2 PB usable storage", {})
    assert request.storage_capacity_per is None
    d = plan_design(CAT, request)
    assert d.storage.targets.capacity_tb == 2000
