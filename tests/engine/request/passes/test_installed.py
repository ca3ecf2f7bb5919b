"""The installed passes: what exists and what is added, in several wordings; a replaced fleet's
platform, GPUs and draw."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.request import parse_request
from clustergen.errors import RequestError

CAT = load_catalog()


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
            "Expand our 4 SU DGX H100 SuperPOD by 2 SUs",  # four words between "our" and its noun
            {"nodes": 64, "existing_sus": 4, "platform": "dgx-h100"},
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
        # "with" far from its growth verb; the new part named inside the increment
        (
            "Expand our 256 H100 cluster with 256 B200 GPUs, same InfiniBand fabric",
            {"gpus": 256, "gpu": "b200", "existing_gpus": 256, "existing_platform": "h100-sxm"},
        ),
        (
            "extend our DGX H100 SuperPOD (4 SUs) with 64 more DGX B200 systems",
            {
                "nodes": 64,
                "platform": "dgx-b200",
                "existing_sus": 4,
                "existing_platform": "dgx-h100",
            },
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


@pytest.mark.parametrize(
    ("text", "replaced"),
    [
        ("Refresh of a 1,024-GPU A100 cluster, keep the power at 3 MW facility", "a100-80gb"),
        ("replace our 256 H100s within 1 MW", "h100-sxm"),
    ],
)
def test_a_fleet_retired_with_no_successor_named_is_replaced_by_a_current_one(
    text: str, replaced: str
) -> None:
    r = parse_request(load_catalog(), text)
    assert r.replaced_platform == replaced
    assert r.gpu is None
    assert r.platform is None


@pytest.mark.parametrize(
    "text", ["We are moving 64 H100 nodes into a new hall", "upgrade to B200, 512 GPUs"]
)
def test_a_move_or_an_upgrade_to_a_part_replaces_nothing(text: str) -> None:
    assert parse_request(load_catalog(), text).replaced_platform is None


def test_a_decimal_figure_is_never_read_as_the_installations_size() -> None:
    # "1.5 MW" once gave "1" to the "we have" cue: a number is read whole
    got = _read("We have 1.5 MW left for the new pods; add 256 B200 GPUs to our existing 512 H100")
    assert got["existing_gpus"] == 512
    assert got["power_cap_w"] == 1.5e6


@pytest.mark.parametrize(
    "text",
    [
        "We have 1.5 MW left for the new pods; add 256 B200 GPUs to our existing 512 H100 cluster",
        "we have 2 MW of headroom. Expand our 4 SU DGX H100 SuperPOD by 2 SUs",
        "add 256 B200 GPUs to our existing 512 H100 cluster, 1.5 MW available for the expansion",
        "Grow our existing 64-node DGX B200 pod by 32 nodes with the 900 kW remaining",
    ],
)
def test_a_cap_left_for_the_increment_is_the_increments_own(text: str) -> None:
    got = parse_request(load_catalog(), text)
    assert got.power_cap_scope == "increment"
    assert got.not_understood == []


@pytest.mark.parametrize(
    "text",
    [
        "add 256 B200 GPUs to our existing 512 H100 cluster; the site is capped at 3 MW",
        "1.5 MW left, 256 H100 GPUs",  # no installation: an ordinary cap
    ],
)
def test_a_cap_with_no_word_of_what_is_left_holds_everything(text: str) -> None:
    assert parse_request(load_catalog(), text).power_cap_scope is None


@pytest.mark.parametrize(
    ("text", "replaced", "gpus"),
    [
        # issue #36/#37 inputs: V100 fleets read as A100 fleets are
        (
            "We have an aging V100 cluster of 64 nodes and want to replace it within 400 kW",
            "v100-sxm2-32gb",
            512,
        ),
        (
            "Replace 64 V100 nodes with something that fits in the same 400 kW",
            "v100-sxm2-32gb",
            512,
        ),
        ("replace 32 DGX-1 with DGX B200", "dgx-1", 256),
        ("our 16 DGX-2 systems need replacing with H200, same throughput", "dgx-2", 256),
        ("64 DGX-1 to H200", "dgx-1", 512),
        ("upgrade our 32 DGX1 fleet to DGX B200", "dgx-1", 256),
        ("replace our 512 Tesla V100s with B200, same throughput", "v100-sxm2-32gb", 512),
        ("our 256 V100 GPUs need to be replaced by B200", "v100-sxm2-32gb", 256),
        # the same words on an A100 fleet
        (
            "We have an aging A100 cluster of 64 nodes and want to replace it within 400 kW",
            "a100-80gb",
            512,
        ),
        ("64 DGX A100 to H200", "dgx-a100", 512),
    ],
)
def test_a_volta_fleet_is_read_as_the_fleet_replaced(text: str, replaced: str, gpus: int) -> None:
    r = parse_request(load_catalog(), text)
    assert r.replaced_platform == replaced
    assert r.replaced_gpus == gpus
    # the old fleet is never the design's platform, nor its node count the design's
    assert r.platform not in {"dgx-1", "dgx-2"}
    assert r.gpu != "v100-sxm2-32gb"
    assert r.nodes is None or "V100" not in text


def test_the_fleets_count_after_its_name_is_the_fleets_not_the_designs() -> None:
    r = parse_request(
        load_catalog(),
        "We have an aging V100 cluster of 64 nodes and want to replace it within 400 kW",
    )
    assert (r.replaced_gpus, r.nodes, r.gpus) == (512, None, None)


def test_same_throughput_of_a_dgx_2_fleet_is_its_fp16_tensor_compute() -> None:
    """16 DGX-2 = 256 V100 at 125 TFLOPS dense (datasheet): 32 PFLOPS to deliver."""
    r = parse_request(
        load_catalog(), "our 16 DGX-2 systems need replacing with H200, same throughput"
    )
    assert r.compute_pflops == pytest.approx(256 * 125 / 1e3)
    assert r.gpu == "h200"
    assert not [u for u in r.understood if u.startswith("not understood")]


def test_nodes_of_a_v100_are_its_8_gpu_servers_not_the_16_gpu_dgx_2() -> None:
    r = parse_request(load_catalog(), "replace our 64 V100 nodes with B200, same throughput")
    assert r.replaced_gpus == 512


def test_a_bare_to_between_counts_of_one_gpu_replaces_nothing() -> None:
    assert parse_request(load_catalog(), "scale from 64 to 128 H100").replaced_platform is None


@pytest.mark.parametrize(
    ("text", "k"),
    [
        ("Replace our 16 DGX A100 with something 3x faster, same power envelope", 3.0),
        ("replace our 16 DGX A100 with B200, twice as fast", 2.0),
        ("Replace our 16 DGX A100 with 2.5x the compute", 2.5),
    ],
)
def test_a_multiple_of_the_replaced_fleet_is_its_compute_times_that(text: str, k: float) -> None:
    r = parse_request(CAT, text)
    a100 = CAT.gpu("a100-80gb").bf16_dense_tflops
    assert a100 is not None
    assert r.compute_pflops == pytest.approx(k * 128 * a100 / 1e3)
    assert r.gpus is None  # the multiple sizes it, not the fleet's count again
    assert r.not_understood == []


def test_a_fleet_counted_in_nodes_with_its_unit_is_the_fleet_replaced() -> None:
    r = parse_request(CAT, "Replace our 64-node DGX A100 cluster with H200, same power envelope")
    assert r.replaced_gpus == 512
