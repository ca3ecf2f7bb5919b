"""A storage system named by class or product reads as the catalog's storage-system entry whose
aliases hold the name, and the design's data path is sized on it (the field's consumer)."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.catalog.models import StorageModel
from clustergen.engine.request import parse_request
from clustergen.engine.search.planner import plan_design
from clustergen.errors import RequestError

CAT = load_catalog()


def _aliases() -> list[tuple[str, str]]:
    return [
        (a, m.id.removeprefix("system-"))
        for m in CAT.all("storage_models", StorageModel)
        if m.kind == "storage-system" and "object" not in m.id
        for a in m.aliases
    ]


@pytest.mark.parametrize(("alias", "system"), _aliases())
def test_every_catalog_alias_names_its_storage_system(alias: str, system: str) -> None:
    r = parse_request(CAT, f"256 H100 GPUs for training with {alias} storage")
    assert r.storage_system == system
    assert r.not_understood == []


def test_two_storage_systems_are_refused() -> None:
    with pytest.raises(RequestError, match="two storage systems"):
        parse_request(CAT, "256 H100 GPUs, lustre and local nvme")


def test_the_design_sizes_the_data_path_on_the_system_named() -> None:
    default = plan_design(CAT, parse_request(CAT, "256 H100 GPUs for training"))
    local = plan_design(CAT, parse_request(CAT, "256 H100 GPUs for training, local NVMe"))
    assert default.storage.file_system.system == "parallel-fs"
    assert local.storage.file_system.system == "local-nvme"
    assert not any(a.field == "storage_system" for a in local.assumptions)
    assert any(a.field == "storage_system" for a in default.assumptions)


def test_a_named_storage_system_replaces_the_ras_example_appliance() -> None:
    # DGX H100 4 SU: the SuperPOD RA's storage is a DDN appliance unless the customer names theirs
    ra = plan_design(CAT, parse_request(CAT, "DGX H100 4 SU"))
    weka = plan_design(CAT, parse_request(CAT, "DGX H100 4 SU with WEKA storage"))
    assert ra.storage.appliances is not None
    assert weka.storage.appliances is None
    assert any("example appliance" in n for n in weka.storage.notes)
    assert not any(ln.category == "storage" and "DDN" in ln.description for ln in weka.bom)


@pytest.mark.parametrize(
    ("text", "tb"),
    [
        ("4 racks of GB300 NVL72 with 1.2 PB of fast storage", 1200.0),
        ("64 H200 GPUs, air-cooled, 500 TB scratch", 500.0),
        ("256 GPUs with 3 PB of shared all-flash storage", 3000.0),
        ("128 GPUs and a 800 TB filesystem", 800.0),
        # a storage system's name after the figure, read by its own pass
        ("We need about 2 PB of parallel file system storage for 256 H200 GPUs", 2000.0),
        ("256 H200 and 4 PB of Lustre", 4000.0),
        ("256 H200, storage: 3PB", 3000.0),
        ("Our storage team needs 200 GB/s read and 5 PB for 256 H200 GPUs", 5000.0),
        ("64 H100 with 2 PB on Pure FlashBlade", 2000.0),
        ("16 DGX B200 with 1 PB of VAST storage", 1000.0),
    ],
)
def test_a_capacity_is_read_with_the_words_customers_put_between(text: str, tb: float) -> None:
    r = parse_request(CAT, text)
    assert r.storage_capacity_tb == tb
    assert r.not_understood == []
