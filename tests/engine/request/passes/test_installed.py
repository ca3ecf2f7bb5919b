"""The installed passes: what exists and what is added, in several wordings; a replaced fleet's
platform, GPUs and draw."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.request import parse_request
from clustergen.errors import RequestError


def _read(text: str) -> dict[str, object]:
    return parse_request(load_catalog(), text).model_dump(exclude_defaults=True)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Add 256 GPUs to our existing 512 H100 SuperPOD",
            {"gpus": 256, "existing_gpus": 512, "platform": "dgx-h100"},
        ),
        (
            "we run 4 SUs of DGX H100 today and want to grow by 2 SUs",
            {"nodes": 64, "existing_sus": 4, "platform": "dgx-h100"},
        ),
        (
            "expand our 1,024-GPU B200 cluster by another 512",
            {"gpus": 512, "existing_gpus": 1024, "gpu": "b200"},
        ),
        (
            "Our current DGX B200 SuperPOD has 96 nodes; we need 32 additional DGX B200 systems",
            {"nodes": 32, "existing_nodes": 96, "platform": "dgx-b200"},
        ),
        (
            "Add 16 DGX B200 to our existing 32-node DGX H100 cluster",
            {"nodes": 16, "existing_nodes": 32, "existing_platform": "dgx-h100"},
        ),
        (
            "We have 64 DGX B200 nodes in production on InfiniBand; add 32 more. It draws "
            "950 kW and the spine has 128 free ports",
            {
                "nodes": 32,
                "existing_nodes": 64,
                "existing_power_w": 950_000.0,
                "existing_spine_free_ports": 128,
            },
        ),
        (
            "Extend our existing DGX GB200 SuperPOD (4 SUs) by 2 SUs",
            {"nodes": 16, "existing_sus": 4, "platform": "gb200-nvl72"},
        ),
        (
            "Currently running 128 H100 nodes on InfiniBand; looking to add 64 nodes of H100",
            {"nodes": 64, "existing_nodes": 128, "gpu": "h100-sxm"},
        ),
        (
            "We'd like to scale out our current 256-GPU H200 cluster with 128 more GPUs",
            {"gpus": 128, "existing_gpus": 256, "gpu": "h200"},
        ),
        (
            "extend the existing InfiniBand fabric with 32 more DGX H100 nodes",
            {"nodes": 32, "existing_fabric": "infiniband", "platform": "dgx-h100"},
        ),
        # an installation named with no size: the increment joins it, its size not stated
        (
            "expand our H100 cluster by 128 GPUs",
            {"gpus": 128, "existing_platform": "h100-sxm", "existing_gpus": None},
        ),
        # the unit word after the GPU's name counts the increment in nodes
        (
            "we want to add 64 more B200 nodes to our existing B200 pod",
            {"nodes": 64, "gpus": None, "existing_platform": "b200"},
        ),
        # a bare count of what stands is counted in the increment's unit
        (
            "add 32 more H100 servers to the 64 we already run",
            {"nodes": 32, "existing_nodes": 64, "existing_gpus": None},
        ),
    ],
)
def test_what_exists_and_what_is_added(text: str, expected: dict[str, object]) -> None:
    got = _read(text)
    assert {k: got.get(k) for k in expected} == expected
    assert not got.get("not_understood"), got.get("not_understood")


def test_a_standalone_request_is_no_expansion() -> None:
    got = _read("512 GPUs training, 5 MW")
    assert not any(k.startswith("existing_") for k in got)


@pytest.mark.parametrize(
    "text",
    [
        "our existing cluster has 4 SUs; add 2 SUs",
        "extend the existing InfiniBand fabric with 32 more nodes",
    ],
)
def test_an_increment_needs_the_installations_platform(text: str) -> None:
    with pytest.raises(RequestError, match="needs the installation's platform"):
        parse_request(load_catalog(), text)


def test_a_replaced_fleet_is_read_as_fields() -> None:
    got = _read("replace our 256 A100s, which draw 420 kW, with H200s")
    assert got["replaced_platform"] == "a100-80gb"
    assert got["replaced_gpus"] == 256
    assert got["replaced_power_w"] == 420_000.0
    assert "power_cap_w" not in got  # the old fleet's draw is no cap on its own
    nodes = _read("Replace our 64 DGX A100 nodes with current-generation systems within 1.6 MW")
    assert (nodes["replaced_platform"], nodes["replaced_gpus"]) == ("dgx-a100", 512)
