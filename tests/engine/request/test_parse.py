"""The request parser: phrasings and units in, a typed DesignRequest out; bad input, one error."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clustergen.catalog import Catalog, load_catalog
from clustergen.engine.model.request import sizes_workload
from clustergen.engine.request import DesignRequest, parse_request
from clustergen.errors import ClustergenError, NotFoundError, RequestError

CAT = load_catalog()


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return CAT


def _fields(r: DesignRequest) -> dict[str, Any]:
    skip = {"text", "understood", "not_understood"}
    return {k: v for k, v in r.model_dump().items() if v is not None and k not in skip}


# --------------------------------------------------------------------------------------------------
# Phrasings and units
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("512 GPUs", {"gpus": 512}),
        ("512 gpu", {"gpus": 512}),
        ("512 accelerators", {"gpus": 512}),
        ("1.5k GPUs", {"gpus": 1500}),
        ("2,048 GPUs", {"gpus": 2048}),
        ("512 x H100", {"gpus": 512, "gpu": "h100-sxm"}),
        ("512x H100", {"gpus": 512, "gpu": "h100-sxm"}),
        ("512 × H100", {"gpus": 512, "gpu": "h100-sxm"}),
        ("2,048 H100s", {"gpus": 2048, "gpu": "h100-sxm"}),
        ("64 DGX B200 nodes", {"nodes": 64, "platform": "dgx-b200"}),
        ("64 DGX B200", {"nodes": 64, "platform": "dgx-b200"}),
        ("16 GB200 NVL72 racks", {"nodes": 16, "platform": "gb200-nvl72"}),
        ("64 nodes", {"nodes": 64}),
        ("32 servers", {"nodes": 32}),
        ("512 NVIDIA GPUs", {"gpus": 512}),
        ("2048 H100 SXM GPUs", {"gpus": 2048, "gpu": "h100-sxm"}),
    ],
)
def test_counts(cat: Catalog, text: str, expected: dict[str, Any]) -> None:
    r = parse_request(cat, text)
    assert _fields(r) == expected
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "cap_w", "basis", "pue"),
    [
        ("5 MW", 5e6, None, None),
        ("5MW", 5e6, None, None),
        ("5 megawatts", 5e6, None, None),
        ("5000 kW", 5e6, None, None),
        ("5000 kilowatts", 5e6, None, None),
        ("0.5 GW", 5e8, None, None),
        ("5 MW IT", 5e6, "it", None),
        ("IT load 4.2 MW", 4.2e6, "it", None),
        ("4.2MW IT load", 4.2e6, "it", None),
        ("IT power of 4.2 MW", 4.2e6, "it", None),
        ("10 MW of critical power", 10e6, "it", None),
        ("5MW facility at PUE 1.3", 5e6, "facility", 1.3),
        ("facility 6.5 MW, PUE=1.25", 6.5e6, "facility", 1.25),
        ("6.5 MW total facility power, pue of 1.2", 6.5e6, "facility", 1.2),
    ],
)
def test_power_caps(
    cat: Catalog, text: str, cap_w: float, basis: str | None, pue: float | None
) -> None:
    r = parse_request(cat, text)
    assert r.power_cap_w == pytest.approx(cap_w)
    assert (r.power_cap_basis, r.pue) == (basis, pue)
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("512 GPUs, 2:1 oversubscribed", {"oversubscription": 2.0}),
        ("512 GPUs 3:1 oversubscription", {"oversubscription": 3.0}),
        ("512 GPUs non-blocking", {"oversubscription": 1.0}),
        ("512 GPUs nonblocking full fat tree", {"oversubscription": 1.0}),
        ("512 GPUs Spectrum-X", {"fabric": "ethernet"}),
        ("512 GPUs spectrum x", {"fabric": "ethernet"}),
        ("512 GPUs ethernet", {"fabric": "ethernet"}),
        ("512 GPUs RoCE", {"fabric": "ethernet"}),
        ("512 GPUs InfiniBand", {"fabric": "infiniband"}),
        ("512 GPUs NDR IB", {"fabric": "infiniband"}),
        ("512 GPUs, 40 kW racks", {"rack_power_kw": 40.0}),
        ("512 GPUs, 50 kW per rack", {"rack_power_kw": 50.0}),
        ("512 GPUs, racks of 30 kW", {"rack_power_kw": 30.0}),
        ("512 GPUs liquid cooled", {"cooling": "liquid"}),
        ("512 GPUs, direct liquid cooling", {"cooling": "liquid"}),
        ("512 GPUs air-cooled", {"cooling": "air"}),
        ("512 GPUs training", {"workload": "training"}),
        ("512 GPUs pre-training", {"workload": "training"}),
        ("512 GPUs fine-tuning", {"workload": "fine-tuning"}),
        ("512 GPUs finetune with LoRA", {"workload": "fine-tuning", "training_method": "lora"}),
        ("512 GPUs inference", {"workload": "inference"}),
        ("512 GPUs serving", {"workload": "inference"}),
        ("512 GPUs mixed", {"workload": "mixed"}),
        ("512 GPUs training and inference", {"workload": "mixed"}),
        ("512 GPUs best storage", {"storage_tier": "best"}),
        ("512 GPUs, storage tier good", {"storage_tier": "good"}),
        ("512 GPUs better tier", {"storage_tier": "better"}),
        ("512 GPUs, 70B model, 15T tokens", {"model_params_b": 70.0, "training_tokens_t": 15.0}),
        ("512 GPUs, 1.8T parameters", {"model_params_b": 1800.0}),
        ("512 GPUs, 8B model on 400B tokens", {"model_params_b": 8.0, "training_tokens_t": 0.4}),
        (
            "512 GPUs, one file per sample, 110 KB images",
            {"dataset_layout": "one-file-per-sample", "sample_mb": 0.11},
        ),
        ("512 GPUs, sharded dataset", {"dataset_layout": "shards"}),
        ("512 GPUs, WebDataset", {"dataset_layout": "shards"}),
        (
            "512 GPUs, data in S3, 2 MB samples",
            {"dataset_layout": "object-store", "sample_mb": 2.0},
        ),
        ("512 GPUs, object storage", {"dataset_layout": "object-store"}),
        ("512 GPUs, 2 TB checkpoints", {"checkpoint_gb": 2000.0}),
        ("512 GPUs, checkpoint of 500 GB", {"checkpoint_gb": 500.0}),
    ],
)
def test_choices(cat: Catalog, text: str, expected: dict[str, Any]) -> None:
    r = parse_request(cat, text)
    got = _fields(r)
    assert got.pop("gpus") == 512
    assert got.keys() == expected.keys()
    for key, value in expected.items():
        assert got[key] == (pytest.approx(value) if isinstance(value, float) else value), key
    assert r.not_understood == []


def test_a_whole_request(cat: Catalog) -> None:
    r = parse_request(
        cat, "1024 H200, training a 405B model on 15T tokens, 10 MW facility at PUE 1.25, "
        "InfiniBand, non-blocking, 45 kW racks, air-cooled, best storage"
    )  # fmt: skip
    assert _fields(r) == {
        "gpus": 1024,
        "gpu": "h200",
        "workload": "training",
        "model_params_b": 405.0,
        "training_tokens_t": 15.0,
        "power_cap_w": 10e6,
        "power_cap_basis": "facility",
        "pue": 1.25,
        "fabric": "infiniband",
        "oversubscription": 1.0,
        "rack_power_kw": 45.0,
        "cooling": "air",
        "storage_tier": "best",
    }
    assert r.not_understood == []
    assert any("405b model" in u for u in r.understood)


def test_filler_words_are_not_reported(cat: Catalog) -> None:
    r = parse_request(cat, "how many B200 fit in 10 MW")
    assert (r.gpu, r.power_cap_w) == ("b200", 10e6)
    assert r.not_understood == []
    # what the cluster is for: "private" and "service" were reported as not understood
    r = parse_request(cat, "a private inference service for Llama 3.3 70B, 400 concurrent users")
    assert r.model == "llama-3.3-70b"
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "unknown"),
    [
        ("512 GPUs, flux capacitor", ["flux", "capacitor"]),
        ("512 GPUs with quantum entanglement", ["entanglement"]),
        ("512 GPUs 1e3 kW", ["1e3", "kw"]),  # not scientific notation: said, not guessed
        ("512 GPUs on Mars", ["mars"]),
    ],
)
def test_unknown_words_are_reported(cat: Catalog, text: str, unknown: list[str]) -> None:
    assert parse_request(cat, text).not_understood == unknown


@pytest.mark.parametrize(
    ("text", "kind", "name", "closest"),
    [
        ("train DeepSeek-V3 on 14.8T tokens with 2048 H900 GPUs", "GPU", "h900", "h100-sxm"),
        ("we have 2,048 H900s: how long to train DeepSeek-V3", "GPU", "h900", "h100-sxm"),
        ("1024 MI355X accelerators", "GPU", "mi355x", None),
        # the closest by spelling: an 8-GPU HGX server, as the XE9680 is
        ("16 XE9680 servers training", "platform", "xe9680", "hgx-h800"),
        ("16x XE9680 servers", "platform", "xe9680", "hgx-h800"),
    ],
)
def test_a_count_of_an_unknown_product_is_refused_not_dropped(
    cat: Catalog, text: str, kind: str, name: str, closest: str | None
) -> None:
    """The count and the name go together: sizing another platform, without the count, would
    answer a question nobody asked."""
    with pytest.raises(NotFoundError) as err:
        parse_request(cat, text)
    assert err.value.one_line().startswith(f"unknown {kind} {name!r}")
    if closest:
        assert closest in err.value.matches


# --------------------------------------------------------------------------------------------------
# Bad input: one RequestError line that says what would work
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("hello world", "nothing to size"),
        ("InfiniBand, liquid cooled", "nothing to size"),
        ("air-cooled GB200 NVL72, 5 MW", "liquid-cooled only"),
        ("air cooled GB200, 576 GPUs", "liquid-cooled only"),
        ("512 GPUs InfiniBand over Spectrum-X", "both InfiniBand and Ethernet"),
        ("512 GPUs, air cooled, liquid cooled", "both air and liquid"),
        ("512 H100 and 512 B200", "two gpus"),
        ("512 GPUs, 1 MW, 2 MW", "two power cap values"),
        ("512 GPUs, 2:1, non-blocking", "two oversubscription values"),
        ("512 GPUs, shards, one file per sample", "more than one dataset layout"),
        ("512 GPUs, IT load 5 MW facility", "both IT and facility"),
        ("0 GPUs", "GPU count"),
        ("0.4 GPUs", "GPU count"),
        ("-512 GPUs", "negative"),
        ("-64 DGX H100", "negative"),
        ("512 GPUs, -5 MW", "negative"),
        # a private field's words, never its name: "give a positive user base"
        ("serve llama 3.1 70b to -10 users", "negative"),
        ("0 nodes", "node count"),
        ("512 GPUs 0 MW", "power cap"),
        ("5000000 MW", "power cap"),
        ("100000000 GPUs", "GPU count"),
        ("512 GPUs 0 kW racks", "rack power limit"),
        ("512 GPUs 5000 kW racks", "rack power limit"),
        ("512 GPUs pue 0.5", "PUE"),
        ("512 GPUs pue 9", "PUE"),
        ("512 GPUs, 1:2 oversubscription", "below 1:1"),
        ("512 GPUs, 0:1", "below 1:1"),
        ("512 GPUs, 0B model", "model size"),
        ("9" * 400 + " GPUs", "too large"),
    ],
)
def test_bad_input_is_one_request_error(cat: Catalog, text: str, message: str) -> None:
    with pytest.raises(RequestError) as err:
        parse_request(cat, text)
    assert message in err.value.message
    assert "\n" not in err.value.one_line()
    assert "_" not in err.value.one_line().split(";", 1)[-1]  # the hint names no field id


# --------------------------------------------------------------------------------------------------
# Any text: a DesignRequest or a clustergen error, never anything else
# --------------------------------------------------------------------------------------------------

_WORDS = st.sampled_from(
    [
        "512",
        "1.5k",
        "2,048",
        "0",
        "-3",
        "x",
        "×",
        "GPUs",
        "nodes",
        "H100",
        "B200",
        "GB200",
        "NVL72",
        "DGX",
        "MW",
        "kW",
        "GW",
        "IT",
        "facility",
        "PUE",
        "1.3",
        "=",
        ":",
        "2:1",
        "0:0",
        "1:0",
        "non-blocking",
        "InfiniBand",
        "Spectrum-X",
        "air",
        "liquid",
        "cooled",
        "racks",
        "training",
        "inference",
        "70B",
        "15T",
        "tokens",
        "model",
        "shards",
        "one",
        "file",
        "per",
        "sample",
        "110",
        "KB",
        "images",
        "S3",
        "checkpoint",
        "TB",
        "GB",
        "best",
        "tier",
        ",",
        ".",
        "-",
        "9999999999999999999999",
        "1e3",
        "in",
        "of",
        "at",
    ]
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=80), st.lists(_WORDS, max_size=14).map(" ".join)))
def test_parse_never_raises_anything_but_clustergen_errors(text: str) -> None:
    try:
        r = parse_request(CAT, text)
    except ClustergenError:
        return
    assert (
        r.gpus or r.nodes or r.power_cap_w or r.capital_budget_usd or sizes_workload(r.model_dump())
    )
    DesignRequest.model_validate(r.model_dump())  # what it returns is a valid request


def test_merge_structured_fields_win_and_names_resolve() -> None:
    from clustergen.engine.request import merge_request
    from clustergen.errors import NotFoundError

    cat = load_catalog()
    req = merge_request(cat, "512 GPUs training, 5 MW", {"gpus": 256, "platform": "DGX H100"})
    assert (req.gpus, req.platform, req.power_cap_w) == (256, "dgx-h100", 5e6)
    assert merge_request(cat, None, {"nodes": 4, "gpu": "H100"}).gpu == "h100-sxm"
    with pytest.raises(RequestError, match="nothing to size"):
        merge_request(cat, None, {"workload": "training"})
    with pytest.raises(
        RequestError, match="gpus: input should be greater than or equal to 1, got -1"
    ):
        merge_request(cat, None, {"gpus": -1})
    with pytest.raises(NotFoundError):
        merge_request(cat, None, {"gpus": 8, "gpu": "H900"})


def test_w_slash_and_w_slash_o_read_as_with_and_without() -> None:
    from clustergen.catalog import load_catalog
    from clustergen.engine.request import parse_request

    cat = load_catalog()
    r = parse_request(cat, "32 H100 nodes w/ 8 GPUs each, NDR IB")
    assert (r.nodes, r.not_understood) == (32, [])
    assert parse_request(cat, "4 DGX B300 w/o storage").storage_excluded is True


def test_a_model_like_a_family_is_sized_by_its_figure() -> None:
    from clustergen.catalog import load_catalog
    from clustergen.engine.request import parse_request

    cat = load_catalog()
    for text in (
        "train Llama-3-style 8B models on 1T tokens in 30 days",
        "train a GPT-like 8B on 1T tokens in 30 days",
    ):
        r = parse_request(cat, text)
        assert (r.workload, r.model_params_b, r.model) == ("training", 8.0, None)
        assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "gpu"),
    [
        ("about 2,000 H100-class GPUs, but not GB200", "h100-sxm"),
        ("256 B200 class GPUs for inference", "b200"),
        ("an A100-equivalent cluster of 64 GPUs", "a100-80gb"),
    ],
)
def test_a_gpu_class_is_the_gpu_named(text: str, gpu: str) -> None:
    r = parse_request(CAT, text)
    assert r.gpu == gpu
    assert r.not_understood == []


@pytest.mark.parametrize(
    "text",
    [
        "256 GPUs, no Nvidia Grace, x86 only",
        "256 GPUs, x86-based servers",
        "256 GPUs, no Arm CPUs",
    ],
)
def test_a_host_cpu_ruled_out_or_asked_for_rules_out_the_grace_systems(text: str) -> None:
    from clustergen.catalog.models import System

    r = parse_request(CAT, text)
    grace = {s.id for s in CAT.all("systems", System) if "grace" in (s.cpu or "").lower()}
    assert grace
    assert set(r.platforms_excluded) == grace
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "kept", "gone"),
    [
        ("64 GPUs, no GPUs older than Hopper", "h100-sxm", "a100-80gb"),
        ("256 GPUs, nothing older than Blackwell", "b200", "h200"),
        ("256 GPUs newer than Hopper", "b300", "h200"),
        ("256 GPUs, Hopper or newer", "h200", "a100-80gb"),
        ("256 GPUs, at least Blackwell", "gb200", "h100-sxm"),
    ],
)
def test_a_generation_bound_keeps_its_side_of_the_architecture(
    text: str, kept: str, gone: str
) -> None:
    r = parse_request(CAT, text)
    assert gone in r.platforms_excluded
    assert kept not in r.platforms_excluded
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "systems", "fabric"),
    [
        (
            "ERA-00010-001 with 16 nodes",
            {"hgx-h100", "hgx-h200", "hgx-b200", "hgx-h800"},
            "ethernet",
        ),
        ("a 2-8-9-800 architecture design with 16 nodes", {"hgx-b300"}, "ethernet"),
        (
            "a 2-8-9-400 Enterprise RA design with 16 nodes",
            {"hgx-h100", "hgx-h200", "hgx-b200", "hgx-h800"},
            "ethernet",
        ),
        ("BasePOD NDR200 with 8 DGX H100", {"dgx-h100", "dgx-h200", "dgx-b200"}, "infiniband"),
    ],
)
def test_a_named_reference_architecture_weighs_only_its_systems(
    text: str, systems: set[str], fabric: str
) -> None:
    from clustergen.catalog.models import System

    r = parse_request(CAT, text)
    left = {
        s.id
        for s in CAT.all("systems", System)
        if s.gpus_per_node and s.id not in r.platforms_excluded
    }
    assert left == systems
    assert r.fabric == fabric
    assert r.not_understood == []


def test_an_enterprise_ra_by_family_weighs_the_enterprise_ra_systems() -> None:
    r = parse_request(CAT, "an Enterprise RA design for 64 GPUs")
    assert "dgx-h100" in r.platforms_excluded
    assert "hgx-b200" not in r.platforms_excluded
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "size"),
    [
        (
            "pre-train a 70-billion-parameter model on fifteen trillion tokens within two months",
            70.0,
        ),
        ("train a 1.5-billion-parameter model on 100B tokens in a week", 1.5),
    ],
)
def test_a_hyphenated_size_is_a_model_size(text: str, size: float) -> None:
    r = parse_request(CAT, text)
    assert r.model_params_b == size
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "gpus", "gpu", "k"),
    [
        ("we need 2x the compute of our current 256 A100 cluster", 256, "a100-80gb", 2.0),
        ("three times the performance of our 32 DGX H100", 256, "h100-sxm", 3.0),
    ],
)
def test_a_multiple_of_a_fleets_compute_is_a_compute_target(
    text: str, gpus: int, gpu: str, k: float
) -> None:
    r = parse_request(CAT, text)
    tflops = CAT.gpu(gpu).bf16_dense_tflops
    assert tflops
    assert r.compute_pflops == pytest.approx(k * gpus * tflops / 1e3)
    assert r.gpu is None
    assert r.platform is None
    assert r.not_understood == []


@pytest.mark.parametrize(
    "text", ["double our existing 64 DGX H100", "double the size of our 64-node DGX H100 cluster"]
)
def test_doubling_an_installation_adds_as_many_again(text: str) -> None:
    r = parse_request(CAT, text)
    assert (r.nodes, r.existing_nodes, r.platform) == (64, 64, "dgx-h100")
    assert r.not_understood == []


@pytest.mark.parametrize(
    "text", ["replace our 256 A100s with 128 B200s", "Instead of 256 H100 we now want 128 B200"]
)
def test_a_successors_own_count_is_the_design_and_the_fleets_is_what_it_replaces(text: str) -> None:
    r = parse_request(CAT, text)
    assert (r.gpus, r.gpu, r.replaced_gpus) == (128, "b200", 256)
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("We need 3000 QPM on Llama 3.1 70B", "output_tokens_per_s", 3000 / 60 * 1000),
        ("The cluster should not exceed 16 racks, H200", "max_racks", 16),
    ],
)
def test_qpm_and_a_rack_ceiling_said_as_not_to_exceed(text: str, field: str, value: float) -> None:
    assert getattr(parse_request(CAT, text), field) == pytest.approx(value)


def test_a_budget_beside_a_run_sized_by_tokens_and_days_is_the_clusters_cost() -> None:
    r = parse_request(
        CAT,
        "We need a cluster to train a 13B model from scratch on 2T tokens in 3 weeks, "
        "budget around $5M",
    )
    assert r.budget_usd is None
    assert r.capital_budget_usd == 5e6
    priced = parse_request(
        CAT, "train a 7B model on 1T tokens in 30 days, $500k budget at $2/GPU-hour"
    )
    assert priced.budget_usd == 5e5  # an hourly price makes it a budget of GPU-hours


def test_a_count_a_pass_set_then_said_again_is_a_one_line_refusal() -> None:
    # it raised a KeyError (the first count had no phrase) instead of saying the two counts
    with pytest.raises(RequestError, match="two node count values"):
        parse_request(CAT, "a single node, we have 32 DGX H100 and want to add 16 more")


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        (
            "Is a 1:1 non-blocking fabric really needed for 256 H100 doing inference? "
            "we'd prefer 2:1",
            "oversubscription",
            2.0,
        ),
        ("256 GPUs, 400G ports, ideally 800G", "compute_link_gbps", 800),
        ("256 GPUs, 800G preferred, 400G is fine too", "compute_link_gbps", 800),
    ],
)
def test_of_two_values_the_one_its_clause_prefers_stands(
    text: str, field: str, value: object
) -> None:
    r = parse_request(CAT, text)
    assert getattr(r, field) == value
    assert r.not_understood == []


def test_two_values_neither_preferred_are_still_refused() -> None:
    with pytest.raises(RequestError, match="two oversubscription values"):
        parse_request(CAT, "256 GPUs 1:1 and 2:1")
