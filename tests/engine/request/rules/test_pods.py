"""A GPU named with "SuperPOD" or "BasePOD" is designed on the DGX system those RAs build on."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.catalog.architectures import Architecture
from clustergen.engine.request import merge_request, parse_request
from clustergen.engine.search.planner import plan_design
from clustergen.errors import RequestError

CAT = load_catalog()


def _pod_systems(pod: str, gpu: str) -> set[str]:
    return {
        sid
        for a in CAT.all("architectures", Architecture)
        if pod in a.id
        for sid in a.systems
        if CAT.system(sid).gpu == gpu
    }


@pytest.mark.parametrize(
    ("text", "gpu", "pod"),
    [
        ("Design a 2048 GPU H200 SuperPOD", "h200", "superpod"),
        ("B200 SuperPOD 1024 GPUs", "b200", "superpod"),
        ("H100 BasePOD with 4 nodes", "h100-sxm", "basepod"),
    ],
)
def test_a_pod_word_picks_the_dgx_system_its_ras_build_on(text: str, gpu: str, pod: str) -> None:
    (system,) = _pod_systems(pod, gpu)
    r = merge_request(CAT, text, {})
    assert r.platform == system
    assert r.not_understood == []
    assert plan_design(CAT, r).platform.system == system


def test_a_pod_word_counts_the_pods_scalable_units() -> None:
    r = merge_request(CAT, "GB200 SuperPOD, 4 SU", {})
    assert r.platform == "gb200-nvl72"
    assert r.nodes == 4 * 8


def test_without_a_gpu_the_pod_word_names_no_platform() -> None:
    assert merge_request(CAT, "SuperPOD, 512 GPUs, 5 MW", {}).platform is None


@pytest.mark.parametrize(
    ("text", "tier"),
    [
        ("512 H100 training on video data", "best"),
        ("512 H100 training on ImageNet", "better"),
        ("512 H100, NLP training", "good"),
        ("512 H100 training on 4K video, good storage tier", "good"),  # a stated tier stands
        ("What's the best GB300 config for 5 MW?", None),  # "best" alone is no storage tier
    ],
)
def test_the_data_sets_the_storage_tier_nvidia_gives_it(text: str, tier: str | None) -> None:
    assert merge_request(CAT, text, {}).storage_tier == tier


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("Quote for 2 SuperPODs of GB300", "4 SU of gb300-nvl72"),
        ("a BasePOD of H200", "DGX BasePOD holds"),
    ],
)
def test_a_count_of_pods_alone_asks_for_the_size(text: str, says: str) -> None:
    with pytest.raises(RequestError, match="has no one size") as e:
        parse_request(load_catalog(), text)
    assert says in e.value.one_line()


def test_a_pod_word_beside_a_size_still_sizes() -> None:
    r = parse_request(load_catalog(), "a 2,048-GPU H200 SuperPOD")
    assert r.gpus == 2048
