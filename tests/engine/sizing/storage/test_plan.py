"""Storage planning (sizing/storage_plan.py): targets by GPUs, appliances sized to them."""

from __future__ import annotations

import dataclasses

import pytest

from clustergen.catalog import Catalog, load_catalog
from clustergen.engine.assemble import assemble_design
from clustergen.engine.model.design import DesignChoices, StorageSection
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design


def _storage(text: str):  # type: ignore[no-untyped-def]
    cat = load_catalog()
    return plan_design(cat, merge_request(cat, text, {})).storage


def test_targets_scale_by_gpus_not_by_the_su_label() -> None:
    """Issue 13: 72 DGX B300 (576 GPUs, one B300 SU) must not get the 1-SU figure of 32 DGX H100.
    H100-RA Table 6, Better: 40 GB/s at 1 SU, 160 at 4 SU; 576 GPUs = 72 H100-equivalent nodes."""
    h100 = _storage("32 DGX H100, InfiniBand")
    b300 = _storage("72 DGX B300, InfiniBand")
    assert h100.targets.read_gb_per_s == 40
    assert b300.targets.read_gb_per_s == pytest.approx(40 + 120 * 1.25 / 3)


def test_storage_is_sized_to_appliances_with_their_power_and_ports() -> None:
    """DDN AI400X2 Turbo (MLPerf Storage v1.0): 99 GB/s read, 2.4 kW, 2U, 8 ports."""
    st = _storage("127 DGX H100, InfiniBand")
    a = st.appliances
    assert a is not None
    assert a.appliance == "ddn-ai400x2t"
    assert a.count >= 160 / 99
    assert (a.power_w, a.rack_units, a.ports) == (2400 * a.count, 2 * a.count, 8 * a.count)
    assert st.storage_ports == a.ports


def test_rows_with_one_data_path_share_its_sizing_equal_to_a_fresh_one() -> None:
    """The data path (file system, analysis) depends on the GPU count, the tier and the request's
    data-set words alone: the HGX H100 and H200 designs of one request share it on one catalog,
    and it is the one sized on a catalog of its own."""

    def storage(catalog: Catalog, platform: str) -> StorageSection:
        request = DesignRequest(nodes=64, model_params_b=70.0)
        return assemble_design(catalog, request, DesignChoices(platform=platform)).storage

    shared = dataclasses.replace(load_catalog(), hash="data-path-shared")
    h100, h200 = storage(shared, "hgx-h100"), storage(shared, "hgx-h200")
    assert h100.io is h200.io
    assert h100.file_system is h200.file_system
    fresh = dataclasses.replace(load_catalog(), hash="data-path-fresh")
    assert storage(fresh, "hgx-h200") == h100


#: the defaults and checks of the training data path (data loaders reading a data set)
DATA_PATH_FIELDS = {
    "ingest_mb_per_s_per_gpu",
    "dataset_layout",
    "read_pattern",
    "workers_per_gpu",
    "storage_system",
    "metadata_servers",
    "checkpoint_gb",
    "checkpoint_interval_s",
}
DATA_PATH_CHECKS = {"data path keeps the GPUs fed", "metadata load within the metadata servers"}


@pytest.mark.parametrize(
    "text", ["serve Llama 3.1 8B on one server", "serve Llama 3.1 70B at 100 tokens/s"]
)
def test_a_serving_node_on_the_sites_storage_assumes_no_training_data_path(text: str) -> None:
    """A single-node serving design printed eight training-storage assumptions: it loads model
    weights from the site's storage and reads no data set, so no data-loader default, data-path
    check or memo line describes it."""
    cat = load_catalog()
    d = plan_design(cat, merge_request(cat, text, {}))
    assert d.storage.site_storage
    assert not d.data_path_applies
    assert not {a.field for a in d.assumptions} & DATA_PATH_FIELDS
    assert not {c.name for c in d.checks} & DATA_PATH_CHECKS
    assert any(a.field == "storage_tier" for a in d.assumptions)  # the site storage's target


def test_a_training_node_on_the_sites_storage_keeps_its_data_path() -> None:
    """Training on one node still reads its data set through the site's storage."""
    cat = load_catalog()
    d = plan_design(cat, merge_request(cat, "8 GPUs training", {}))
    assert d.storage.site_storage
    assert d.data_path_applies
    assert {"dataset_layout", "read_pattern", "workers_per_gpu"} <= {a.field for a in d.assumptions}
    assert DATA_PATH_CHECKS & {c.name for c in d.checks}


def test_a_serving_cluster_with_storage_of_its_own_assumes_no_training_data_path() -> None:
    """Two DGX B200 serving Llama 3.3 70B size storage of their own (the RA's tier) and listed
    the data-loader defaults and a 'GPUs 100% busy' data path: they read no data set."""
    cat = load_catalog()
    d = plan_design(cat, merge_request(cat, "serve Llama 3.3 70B on 2 DGX B200", {}))
    assert not d.storage.site_storage
    assert not d.data_path_applies
    assert not {a.field for a in d.assumptions} & DATA_PATH_FIELDS
    assert not {c.name for c in d.checks} & DATA_PATH_CHECKS
    assert d.storage.targets.read_gb_per_s > 0  # the storage is still sized, by its tier
