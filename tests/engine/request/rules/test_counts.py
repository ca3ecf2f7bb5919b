"""Counts of a named system: nodes, racks and scalable units, in digits or words."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from clustergen.catalog import load_catalog
from clustergen.catalog.architectures import Architecture
from clustergen.engine.request import parse_request
from clustergen.engine.request.rules.counts import su_node_count
from clustergen.errors import RequestError

CAT = load_catalog()


@pytest.mark.parametrize(
    ("text", "platform", "nodes"),
    [
        ("one GB200 NVL72 rack", "gb200-nvl72", 1),
        ("two racks of GB300 NVL72", "gb300-nvl72", 2),
        ("a rack of NVIDIA GB200 NVL72", "gb200-nvl72", 1),
        ("16 servers of HGX H200 for training", "hgx-h200", 16),
        ("2 GB200 NVL72 racks", "gb200-nvl72", 2),
        ("one DGX GB200 rack", "gb200-nvl72", 1),
        ("a single DGX H100", "dgx-h100", 1),
        ("4 DGX B200 systems", "dgx-b200", 4),
        ("an HGX H200 server", "hgx-h200", 1),
        ("two DGX B200 nodes", "dgx-b200", 2),
        ("a DGX H100.", "dgx-h100", 1),
        ("3 GB300 NVL72 racks", "gb300-nvl72", 3),
    ],
)
def test_a_count_of_a_named_system_is_its_nodes(text: str, platform: str, nodes: int) -> None:
    r = parse_request(CAT, text)
    assert (r.platform, r.nodes, r.gpus) == (platform, nodes, None)


def _ra(system: str) -> Architecture:
    arch = CAT.architecture_for(system)
    assert arch is not None
    return arch


@pytest.mark.parametrize(
    ("text", "platform", "sus"),
    [
        ("GB200 NVL72, 4 SU", "gb200-nvl72", 4),
        ("DGX H100 4 SU", "dgx-h100", 4),
        ("2 scalable units of DGX B200", "dgx-b200", 2),
        ("one SU of DGX H100", "dgx-h100", 1),
        # a GPU's name counts the SUs of the system its SuperPOD RA builds
        ("4 SUs of GB200", "gb200-nvl72", 4),
        ("2 SU of B200", "dgx-b200", 2),
        ("four SuperPOD SUs of GB200", "gb200-nvl72", 4),
    ],
)
def test_a_count_of_scalable_units_is_built_as_the_ra_builds_it(
    text: str, platform: str, sus: int
) -> None:
    r = parse_request(CAT, text)
    arch = _ra(platform)
    slot = 1 if arch.fabric_manager_links else 0
    assert (r.platform, r.nodes) == (platform, sus * arch.su_nodes - slot)
    assert any("SU" in u or "su" in u for u in r.understood)


def test_the_superpod_su_counts_match_the_ra_tables() -> None:
    # H100 RA Table 4: 1, 2 and 4 SU hold 31, 63 and 127 DGX (one slot to the UFM)
    assert [su_node_count(CAT, "dgx-h100", None, k)[0] for k in (1, 2, 4)] == [31, 63, 127]
    # GB200 RA: an SU is 8 NVL72 racks
    assert su_node_count(CAT, "gb200-nvl72", None, 4)[0] == 32


@pytest.mark.parametrize("text", ["train on a DGX H100 cluster", "a DGX H100 cluster for training"])
def test_an_article_before_a_system_that_is_not_a_count_sizes_nothing(text: str) -> None:
    with pytest.raises(RequestError, match="nothing to size"):
        parse_request(CAT, text)
    assert parse_request(CAT, text + ", 16 nodes").nodes == 16


def test_an_su_count_without_a_system_says_what_would_work() -> None:
    with pytest.raises(RequestError, match="needs a system"):
        parse_request(CAT, "4 SU training")


def test_racks_of_a_system_that_is_not_rack_scale_follow_its_ra_rack_layout() -> None:
    r = parse_request(CAT, "2 DGX H100 racks")
    assert r.nodes == 2 * (_ra("dgx-h100").nodes_per_rack or 0)


@pytest.mark.parametrize(
    "text",
    [
        "train a 70B model on 15T tokens in 60 days on a DGX B200.",
        "serve llama 3.1 70b at 5000 tokens per second on an HGX H200 server",
        "max GPUs under 5 MW on a DGX H100.",
    ],
)
def test_an_article_names_the_platform_when_something_else_sizes_the_request(text: str) -> None:
    r = parse_request(CAT, text)
    assert r.platform is not None
    assert r.nodes is None


def test_a_count_word_counts_even_beside_a_cap() -> None:
    r = parse_request(CAT, "one DGX B200, 5 MW")
    assert (r.platform, r.nodes) == ("dgx-b200", 1)


_PARSE = (
    "from clustergen.catalog import load_catalog\n"
    "from clustergen.engine.request import parse_request\n"
    "r = parse_request(load_catalog(), 'GB200 NVL72, 4 SU')\n"
    "print(r.platform, r.nodes)\n"
)


@pytest.mark.parametrize("seed", ["0", "1", "2"])
def test_a_name_a_system_and_a_gpu_share_is_the_system(seed: str) -> None:
    # "GB200 NVL72" is the rack's name and an alias of its GPU: always the rack, whatever order
    # the interpreter's string hashing gives a set of names
    env = {**os.environ, "PYTHONHASHSEED": seed}
    out = subprocess.run(
        [sys.executable, "-c", _PARSE], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["gb200-nvl72", "32"]


def test_a_gpu_word_after_a_system_counts_gpus() -> None:
    r = parse_request(CAT, "64 GB200 NVL72 GPUs")
    assert (r.platform, r.gpus, r.nodes) == ("gb200-nvl72", 64, None)


def _multi_ra_systems() -> list[str]:
    """Every system with more than one reference architecture in the catalog."""
    count: dict[str, int] = {}
    for a in CAT.all("architectures", Architecture):
        for s in a.systems:
            count[s] = count.get(s, 0) + 1
    return sorted(s for s, n in count.items() if n > 1)


def test_there_are_systems_with_several_ras_to_check() -> None:
    assert {"dgx-b300", "gb300-nvl72", "dgx-h100"} <= set(_multi_ra_systems())


@pytest.mark.parametrize("system", _multi_ra_systems())
def test_an_su_count_keeps_the_ra_whose_su_it_counted(system: str) -> None:
    """Issue 23: "DGX B300 8 SU" was read as 8 XDR SUs (576 nodes) and then built on the
    Spectrum-4 RA as 9 SUs of 64. The count names the RA it counted: the request keeps its
    fabric, so every candidate is built on that RA; a named fabric counts that RA's SUs."""
    name = CAT.system(system).name
    for fabric in (None, "infiniband", "ethernet"):
        text = f"{name} 3 SU" + (f" {fabric}" if fabric else "")
        arch = CAT.architecture_for(system, fabric)
        assert arch is not None
        if fabric and arch.compute_fabric.technology != fabric:
            continue  # no RA of the system on that fabric: not an SU of it
        r = parse_request(CAT, text)
        slot = 1 if arch.fabric_manager_links else 0
        assert (r.platform, r.nodes) == (system, 3 * arch.su_nodes - slot), text
        assert (r.su_architecture, r.fabric) == (arch.id, arch.compute_fabric.technology), text
        # the design the count asks for is in that RA's range, so it is the RA built
        assert CAT.architecture_for(system, r.fabric, r.nodes) == arch, text


def test_dgx_b300_su_counts_per_fabric() -> None:
    assert parse_request(CAT, "DGX B300 8 SU").nodes == 8 * 72
    assert parse_request(CAT, "DGX B300 8 SU ethernet").nodes == 8 * 64
    assert parse_request(CAT, "GB300 NVL72 2 SU").nodes == 16
    assert parse_request(CAT, "GB300 NVL72 2 SU ethernet").nodes == 2


def test_a_fabric_field_recounts_the_sus_the_text_asked_for() -> None:
    """`design "DGX B300 8 SU" --fabric ethernet`: 8 SUs of the Spectrum-4 RA, not 576 nodes."""
    from clustergen.engine.request import merge_request

    r = merge_request(CAT, "DGX B300 8 SU", {"fabric": "ethernet"})
    assert (r.nodes, r.fabric, r.su_architecture) == (512, "ethernet", "dgx-superpod-b300-ethernet")
    same = merge_request(CAT, "DGX B300 8 SU", {"fabric": "infiniband"})
    assert (same.nodes, same.su_architecture) == (576, "dgx-superpod-b300-xdr")
    # no RA of DGX H100 on Ethernet: the nodes stand, counted in no SU of it
    h = merge_request(CAT, "DGX H100 4 SU", {"fabric": "ethernet"})
    assert (h.nodes, h.su_architecture) == (127, None)
    # a node count given as a field is never recounted
    fixed = merge_request(CAT, "DGX B300 8 SU", {"fabric": "ethernet", "nodes": 576})
    assert fixed.nodes == 576


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("GB200 NVL72 x 4 racks for inference", "nodes", 4),
        ("DGX B200 x 16", "nodes", 16),
        ("H100 x 256, 5 MW", "gpus", 256),
    ],
)
def test_a_count_written_after_the_name_as_on_a_quote_line(
    text: str, field: str, value: int
) -> None:
    r = parse_request(CAT, text)
    assert getattr(r, field) == value
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("What does a 32-node H100 cluster look like?", "nodes", 32),
        ("a 512-GPU cluster, 5 MW", "gpus", 512),
    ],
)
def test_a_hyphenated_count_counts(text: str, field: str, value: int) -> None:
    r = parse_request(CAT, text)
    assert getattr(r, field) == value
    assert r.not_understood == []


@pytest.mark.parametrize(
    "text",
    [
        "B200 cluster for training, 3MW budget, rack density 40kW max",
        "512 GPUs, 5 MW, rack power limit of 40 kW",
        "512 GPUs, 5 MW, 40 kW rack density",
        "512 GPUs at 5 MW, 40kW per rack",
    ],
)
def test_a_rack_limit_however_written_is_not_a_second_power_cap(text: str) -> None:
    r = parse_request(CAT, text)
    assert r.rack_power_kw == 40.0
    assert r.power_cap_w is not None
    assert r.power_cap_w >= 3e6
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        # a count beside a GPU's name counts by its unit word: GPUs, nodes or racks
        ("512 H100s", {"gpus": 512, "gpu": "h100-sxm"}),
        ("16 H100 servers", {"nodes": 16, "gpu": "h100-sxm"}),
        ("train on 16 B200 boxes", {"nodes": 16, "gpu": "b200"}),
        # racks of a GPU with one rack-scale system are that system's racks, never GPUs
        ("3 racks of GB200", {"nodes": 3, "platform": "gb200-nvl72"}),
        ("3 GB200 racks", {"nodes": 3, "platform": "gb200-nvl72"}),
        ("GB300 x 4 racks", {"nodes": 4, "platform": "gb300-nvl72"}),
    ],
)
def test_a_count_beside_a_gpu_counts_what_its_unit_says(
    text: str, fields: dict[str, object]
) -> None:
    r = parse_request(CAT, text).model_dump()
    assert {k: r[k] for k in fields} == fields
    assert r["gpus" if "nodes" in fields else "nodes"] is None


def test_racks_of_a_gpu_in_several_systems_ask_which() -> None:
    with pytest.raises(RequestError) as e:
        parse_request(CAT, "4 racks of H100")
    assert "dgx-h100" in e.value.one_line()
    assert "hgx-h100" in e.value.one_line()


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        ("replace our 256 A100s with H200s", {"gpus": 256, "gpu": "h200", "platform": None}),
        ("upgrade 32 DGX A100 to DGX B200", {"gpus": 256, "platform": "dgx-b200"}),
        # one for one by GPU: 64 eight-GPU systems are 512 GPUs, never 64 NVL72 racks
        ("we want to move from 64 DGX H100 to GB200 NVL72", {"gpus": 512, "nodes": None}),
        ("replace 3 racks of GB200 with DGX B300", {"gpus": 216, "platform": "dgx-b300"}),
        ("swap the H100s for B200s, 5 MW", {"gpu": "b200", "power_cap_w": 5e6}),
    ],
)
def test_a_replaced_fleet_sizes_the_new_one_gpu_for_gpu(
    text: str, fields: dict[str, object]
) -> None:
    r = parse_request(CAT, text).model_dump()
    assert {k: r[k] for k in fields} == fields
    assert any("replaced by" in u for u in r["understood"])


def test_two_platforms_without_a_replacement_still_contradict() -> None:
    with pytest.raises(RequestError, match="two gpus"):
        parse_request(CAT, "256 A100s and H200s")


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("Can you spec out a GB200 NVL72 deployment - 4 racks - for LLM training?", "nodes", 4),
        ("DGX B200 (16 systems) for training", "nodes", 16),
        ("B200: 64 servers", "nodes", 64),
        ("H100 x 256", "gpus", 256),
    ],
)
def test_a_count_set_off_after_the_name_counts_it(text: str, field: str, value: int) -> None:
    assert getattr(parse_request(CAT, text), field) == value


@pytest.mark.parametrize(
    ("text", "nodes"),
    [("8 NVL72 racks for training", 8), ("We want NVL72 for training, 1152 GPUs", None)],
)
def test_a_bare_nvl72_weighs_both_generations(text: str, nodes: int | None) -> None:
    r = parse_request(CAT, text)
    assert r.gpus_weighed == ["gb200", "gb300"]
    assert r.nodes == nodes
    assert r.not_understood == []


def test_nvl72_beside_a_named_gpu_is_that_gpus_rack() -> None:
    r = parse_request(CAT, "576 GB200 GPUs in NVL72 racks")
    assert (r.gpu, r.gpus_weighed) == ("gb200", None)


@pytest.mark.parametrize(
    ("text", "pair"),
    [
        (
            "1k GPUs for pretraining, B200 preferred but GB200 acceptable, 2.5MW IT",
            ("b200", "gb200"),
        ),
        ("prefer H200, B200 is fine too, 256 GPUs inference", ("h200", "b200")),
        ("512 GPUs, B300 ideally, GB300 as a fallback, 5 MW", ("b300", "gb300")),
    ],
)
def test_a_preferred_gpu_with_a_fallback_weighs_the_fallback_last(
    text: str, pair: tuple[str, str]
) -> None:
    r = parse_request(CAT, text)
    assert r.gpus_weighed == list(pair)
    assert r.platforms_avoided == [pair[1]]
    assert r.not_understood == []


def test_the_preferred_gpu_is_built_when_it_meets_the_request() -> None:
    from clustergen.engine.search.planner import plan_design

    text = "1k GPUs for pretraining, B200 preferred but GB200 acceptable, 2.5MW IT"
    d = plan_design(CAT, parse_request(CAT, text))
    assert d.platform.gpu == "b200"


@pytest.mark.parametrize(
    "text",
    [
        "I have 1.2 MW and 30 racks. What's the best training cluster I can build?",
        "512 GPUs, 30 racks",
    ],
)
def test_a_bare_rack_count_ending_its_clause_is_the_sites_room(text: str) -> None:
    r = parse_request(CAT, text)
    assert r.max_racks == 30
    assert "30" not in r.not_understood
