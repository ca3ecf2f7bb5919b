"""Each kind of phrase, read on its own."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.request import merge_request, parse_request
from clustergen.engine.request.rules import Reading
from clustergen.engine.request.translate import validated
from clustergen.errors import RequestError
from support.rules import read


@pytest.mark.parametrize(
    ("rule", "text", "field", "value"),
    [
        ("pue", "pue 1.3", "pue", 1.3),
        ("rack", "40 kw per rack", "rack_power_kw", 40.0),
        ("rack", "racks limited to 60 kw", "rack_power_kw", 60.0),
        ("power", "5 mw", "power_cap_w", 5e6),
        ("power", "1.5 gw", "power_cap_w", 1.5e9),
        ("ratio", "2:1 oversubscription", "oversubscription", 2.0),
        ("nonblocking", "non-blocking", "oversubscription", 1.0),
        ("nonblocking", "no oversubscription", "oversubscription", 1.0),
        ("nonblocking", "not oversubscribed", "oversubscription", 1.0),
        ("checkpoint", "2 tb checkpoint", "checkpoint_gb", 2000.0),
        ("sample", "150 kb images", "sample_mb", 0.15),
        ("tokens", "15t tokens", "training_tokens_t", 15.0),
        ("tokens", "300b tokens", "training_tokens_t", 0.3),
        ("model", "70b model", "model_params_b", 70.0),
        # a range of sizes is sized for its largest
        ("model_range", "7b-13b models", "model_params_b", 13.0),
        ("model_range", "7 to 70b models", "model_params_b", 70.0),
        ("gpus", "1.5k gpus", "gpus", 1500),
        ("nodes", "64 nodes", "nodes", 64),
        ("tier", "best storage", "storage_tier", "best"),
    ],
)
def test_a_value_rule_reads_its_field(rule: str, text: str, field: str, value: object) -> None:
    first = read(rule, text)[0]
    assert (first.field, first.value, first.mode) == (field, value, "once")


def test_the_power_rule_reads_its_basis_outright() -> None:
    readings = read("power", "facility power 6.5 mw")
    assert [(r.field, r.value, r.mode) for r in readings] == [
        ("power_cap_w", 6.5e6, "once"),
        ("power_cap_basis", "facility", "set"),
    ]
    with pytest.raises(RequestError, match="both IT and facility"):
        read("power", "it load 5 mw facility")


def test_a_ratio_below_one_is_refused_by_its_rule() -> None:
    with pytest.raises(RequestError, match="below 1:1"):
        read("ratio", "1:2")


@pytest.mark.parametrize(
    ("rule", "text", "field", "value"),
    [
        ("fabric_ib", "infiniband", "fabric", "infiniband"),
        ("fabric_eth", "spectrum-x", "fabric", "ethernet"),
        ("cool_liquid", "liquid-cooled", "cooling", "liquid"),
        ("w_inf", "serving", "workload", "inference"),
        ("layout_shards", "webdataset", "dataset_layout", "shards"),
    ],
)
def test_a_word_rule_names_a_member(rule: str, text: str, field: str, value: str) -> None:
    assert read(rule, text) == [Reading(field, value, read(rule, text)[0].note, "member")]


def test_one_translator_names_the_words_or_the_field() -> None:
    with pytest.raises(RequestError, match="'0 gpus' does not work as the GPU count"):
        validated(DesignRequest, {"gpus": 0}, phrases={"gpus": "0 gpus"})
    with pytest.raises(RequestError, match="pue: input should be less than or equal to 3, got 9"):
        validated(DesignRequest, {"gpus": 8, "pue": 9})


@pytest.mark.parametrize(
    "text", ["max GPUs under 0.5 MW", "the most GPUs in 2 MW", "how many B200 fit in 10 MW"]
)
def test_a_request_for_the_most_gpus_names_that_objective(text: str) -> None:
    from clustergen.catalog import load_catalog
    from clustergen.engine.request import parse_request

    assert parse_request(load_catalog(), text).objective == "most-gpus"


@pytest.mark.parametrize(
    ("text", "objective"),
    [
        ("how many B200s do I need to pretrain a 405B model on 15T tokens in 90 days", None),
        ("how many GPUs does it take to serve llama 3.1 70b at 10k tokens/s", None),
        ("How many H100 fit in 5 MW?", "most-gpus"),
        ("How many H100s to pretrain a 7B model on 2T tokens in 30 days?", None),
        ("how many GPUs for serving llama 3 70b at 1000 tokens/s", None),
        ("how many H100s can we fit in 5 MW to train models", "most-gpus"),
    ],
)
def test_how_many_asks_for_the_most_only_when_it_is_not_a_need(
    text: str, objective: str | None
) -> None:
    assert merge_request(load_catalog(), text, {}).objective == objective


@pytest.mark.parametrize("text", ["2 MW, maximise the number of GPUs", "2 MW, maximize GPUs"])
def test_maximize_the_gpus_asks_for_the_most(text: str) -> None:
    r = merge_request(load_catalog(), text, {})
    assert r.objective == "most-gpus"
    assert r.not_understood == []


@pytest.mark.parametrize(
    "text",
    [
        "best perf per watt for 1000 GPUs",
        "most energy-efficient cluster under 5 MW",
        "max PFLOPS per MW, 2 MW",
        "1024 GPUs, performance/watt",
    ],
)
def test_performance_per_watt_is_an_objective(text: str) -> None:
    r = merge_request(load_catalog(), text, {})
    assert r.objective == "perf-per-watt"
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "pflops", "precision"),
    [
        ("1 exaflop of FP8", 1000.0, "fp8"),
        ("100 PFLOPS BF16 training", 100.0, "bf16"),
        ("2.5 EF of FP4 for inference", 2500.0, "fp4"),
        ("we need 40 petaflops", 40.0, None),
    ],
)
def test_a_compute_target_is_read_with_its_precision(
    text: str, pflops: float, precision: str | None
) -> None:
    r = merge_request(load_catalog(), text, {})
    assert r.compute_pflops == pflops
    assert r.precision == precision
    assert r.gpus is None


def test_pflops_per_mw_is_not_a_compute_target() -> None:
    r = merge_request(load_catalog(), "1000 GPUs, max PFLOPS per MW", {})
    assert r.compute_pflops is None
    assert r.objective == "perf-per-watt"


def test_a_budget_for_a_cluster_to_own_is_capital() -> None:
    text = (
        "We are a bank. Need an on-prem cluster for fine-tuning 70B models and serving them "
        "internally. Budget $20M, 1.5 MW available."
    )
    r = merge_request(load_catalog(), text, {})
    assert r.capital_budget_usd == 20e6
    assert r.budget_usd is None


@pytest.mark.parametrize(
    "text", ["build me the cheapest cluster to finetune mistral 7b", "pretrain llama 3 8b"]
)
def test_a_job_without_its_size_says_what_sizes_it(text: str) -> None:
    from clustergen.errors import RequestError

    with pytest.raises(RequestError, match="has no size") as e:
        merge_request(load_catalog(), text, {})
    assert "tokens and days" in e.value.one_line()


def test_a_compute_target_written_as_a_sentence_is_read_whole() -> None:
    text = "We need about 1 exaflop of FP8 compute for inference, liquid cooling is fine, 3 MW max"
    r = merge_request(load_catalog(), text, {})
    assert r.compute_pflops == 1000
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "tiers"),
    [
        ("build a 3-tier fabric for 8192 B200 GPUs", 3),
        ("a two-tier leaf-spine for 512 H100", 2),
        ("512 H200 in a 3 tier fat tree", 3),
        ("4096 GPUs on a leaf-spine-core network", 3),
    ],
)
def test_the_fabric_tiers_asked_for_are_read(text: str, tiers: int) -> None:
    got = parse_request(load_catalog(), text)
    assert got.fabric_tiers == tiers
    assert got.not_understood == []


@pytest.mark.parametrize(
    ("text", "ratio"),
    [
        ("1024 H100 GPUs on an InfiniBand fat tree", 1.0),
        ("1024 H100 GPUs, a 2:1 tapered fat tree", 2.0),
        ("1024 H100 GPUs, 2:1 fat tree", 2.0),
    ],
)
def test_a_fat_tree_is_full_bisection_unless_a_taper_is_stated(text: str, ratio: float) -> None:
    got = parse_request(load_catalog(), text)
    assert got.oversubscription == ratio
    assert got.not_understood == []


def test_fill_it_asks_for_the_most_gpus_under_the_cap() -> None:
    r = parse_request(load_catalog(), "a 10 MW data center, fill it with B200")
    assert (r.objective, r.power_cap_w) == ("most-gpus", 10e6)
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "seq"),
    [
        ("train a 1.5B model from scratch on 300B tokens, 4k seq, bf16", 4000),
        ("train 7B on 1T tokens, 8k sequence length", 8000),
        ("7B, 2048 seq len, 1T tokens", 2048),
    ],
)
def test_a_sequence_length_after_its_figure_is_read_not_taken_for_video(
    text: str, seq: int
) -> None:
    r = parse_request(load_catalog(), text)
    assert r.sequence_tokens == seq
    assert r.storage_tier is None
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "racks", "rack_kw"),
    [
        ("64 H100 GPUs in no more than 2 racks", 2, None),
        ("a 4-rack limit, 64 H200", 4, None),
        ("256 H100 GPUs across 8 racks", 8, None),
        ("12 rack positions, 40 kW per rack, B200 training", 12, 40.0),
        ("we have space for 10 racks at 30 kW, training", 10, 30.0),
        # the rack's power after the count is the same phrase's (not a site cap of 40 kW)
        ("max 6 racks, 40 kW each, H200", 6, 40.0),
        ("10 racks x 40 kW, inference for Llama 3.1 70B", 10, 40.0),
        ("B200 training, room for 3 racks of 60 kW", 3, 60.0),
        # a room's power after its racks is the room's total, never each rack's
        ("10 racks in a 400 kW room, B200 training", 10, None),
        ("we have 12 rack positions and 600 kW, H100 training", 12, None),
        # rows of racks: every row's racks, never one row's ("3" and "rows" were not understood)
        ("H100 training, we have 2 rows of 10 racks at 35 kW each", 20, 35.0),
        ("inference, 3 rows, 8 racks each, 40 kW per rack", 24, 40.0),
    ],
)
def test_the_sites_rack_positions_are_read_with_their_power(
    text: str, racks: int, rack_kw: float | None
) -> None:
    got = parse_request(load_catalog(), text)
    assert (got.max_racks, got.rack_power_kw) == (racks, rack_kw)
    assert got.not_understood == []


def test_racks_and_their_power_bound_the_it_power_when_no_cap_is_stated() -> None:
    cat = load_catalog()
    got = parse_request(cat, "we have space for 10 racks at 30 kW, training")
    assert (got.power_cap_w, got.power_cap_basis) == (300e3, "it")
    assert any("10 x 30 kW" in u for u in got.understood)
    # a stated cap stands: the racks only count
    stated = parse_request(cat, "500 kW IT for 10 racks, H100 training")
    assert (stated.power_cap_w, stated.max_racks, stated.rack_power_kw) == (500e3, 10, None)


def test_a_rooms_power_beside_its_racks_is_a_cap_not_a_rack_limit() -> None:
    cat = load_catalog()
    for text in ("we have 12 rack positions and 600 kW, training", "10 racks in a 600 kW room"):
        got = parse_request(cat, text)
        assert got.power_cap_w == 600e3
        assert got.rack_power_kw is None


@pytest.mark.parametrize(
    "text",
    [
        "512 B200 in our Frankfurt data center, 4 MW",
        "512 GPUs training at our Ashburn site",
        "512 GPUs, located in Texas, training",
        "based in Austin, TX with 2 MW",
        "512 GPUs in our existing data center",
    ],
)
def test_where_the_cluster_stands_is_said_and_sizes_nothing(text: str) -> None:
    got = parse_request(load_catalog(), text)
    assert got.not_understood == []
    assert any("where the cluster stands" in u for u in got.understood)
    assert got.existing_gpus is None


@pytest.mark.parametrize(
    "text",
    [
        "256 H200 training, with separate in-band and out-of-band management networks",
        "256 H200 training, dedicated storage network",
        "we need an in-band network, 64 GPUs",
    ],
)
def test_the_networks_every_design_has_apart_are_said(text: str) -> None:
    got = parse_request(load_catalog(), text)
    assert got.not_understood == []
    assert any("designed apart from the compute fabric" in u for u in got.understood)


def test_a_count_of_named_racks_is_still_what_to_build() -> None:
    got = parse_request(load_catalog(), "8 racks of GB200 NVL72")
    assert (got.nodes, got.max_racks) == (8, None)


@pytest.mark.parametrize(
    ("text", "later"),
    [
        ("256 B200 GPUs for training now, room to grow to 1024 later", 1024),
        ("512 H100, expandable to 2k GPUs", 2000),
        ("start with 128 GPUs, scaling to 4096 later", 4096),
        ("128 GB200 GPUs with a path to 1,024 GPUs", 1024),
        ("256 GPUs training, 5 MW, future expansion to 1024", 1024),
    ],
)
def test_the_size_to_grow_to_is_read_apart_from_the_size_built(text: str, later: int) -> None:
    got = parse_request(load_catalog(), text)
    assert got.growth_gpus == later
    assert got.gpus is not None
    assert got.gpus < later
    assert got.not_understood == []


@pytest.mark.parametrize(
    "text",
    [
        "fine-tune Mistral 7B, one node",
        "fine-tune Mistral 7B; a single server is enough",
        "a single-node fine-tune of Llama 3 8B",
        "fine-tune Mistral 7B on a single node, that is plenty",
    ],
)
def test_one_node_in_words_is_a_node_count(text: str) -> None:
    got = parse_request(load_catalog(), text)
    assert got.nodes == 1
    assert got.not_understood == []


@pytest.mark.parametrize(
    ("text", "cap_w"),
    [
        ("Our DC has 4 MW but only 2 MW is available for the AI cluster", 2e6),
        ("6 MW site, 3 MW of it free for us, H200 training", 3e6),
        ("we have 10 MW, 4 MW available for GPUs, B200", 4e6),
    ],
)
def test_the_clusters_share_of_a_sites_power_is_the_cap(text: str, cap_w: float) -> None:
    got = parse_request(load_catalog(), text)
    assert got.power_cap_w == cap_w
    assert got.not_understood == []


@pytest.mark.parametrize(
    ("text", "tokens_per_s"),
    [
        # a month's volume at an even rate: 50M x 200 tokens over 30.44 days
        (
            "batch summaries of 50M documents per month with Llama 3.1 70B, 2k tokens in, 200 out",
            50e6 * 200 / (365.25 * 86400 / 12),
        ),
        ("Llama 3.1 70B, 2 million support tickets a day, 300 tokens out", 2e6 * 300 / 86400),
        ("500 API calls a minute, Llama 3.1 8B, 100 tokens out", 500 * 100 / 60),
        ("Llama 3.1 8B, 70,000 emails a week, 250 output tokens", 70_000 * 250 / (7 * 86400)),
    ],
)
def test_a_volume_of_work_over_a_period_is_its_even_rate(text: str, tokens_per_s: float) -> None:
    got = parse_request(load_catalog(), text)
    assert got.output_tokens_per_s == pytest.approx(tokens_per_s, rel=1e-6)


@pytest.mark.parametrize(
    ("text", "tokens_per_s", "isl"),
    [
        # a night's batch: done in a 12-hour window, each document its prompt
        (
            "batch inference: summarize 5 million documents of 3,000 tokens each overnight "
            "with Llama 3.1 8B, 200 tokens out",
            5e6 * 200 / (12 * 3600),
            3000,
        ),
        (
            "summarize 5 million 3,000-token documents a day with Llama 3.1 8B, 200 tokens out",
            5e6 * 200 / 86400,
            3000,
        ),
        (
            "Llama 3.1 70B, 40,000 contracts of about 8k tokens nightly, 500 tokens out",
            4e4 * 500 / 43200,
            8000,
        ),
    ],
)
def test_a_volume_of_documents_carries_their_length_and_window(
    text: str, tokens_per_s: float, isl: int
) -> None:
    got = parse_request(load_catalog(), text)
    assert got.output_tokens_per_s == pytest.approx(tokens_per_s, rel=1e-6)
    assert got.isl_tokens == isl
    assert got.not_understood == []


@pytest.mark.parametrize(
    ("text", "now", "later"),
    [
        ("We plan to scale from 256 GPUs this year to 1,024 next year", 256, 1024),
        ("ramp from 1k to 4k GPUs", 1000, 4000),
        ("go from 512 GPUs initially to 2048 later", 512, 2048),
    ],
)
def test_scaling_from_one_count_to_another_builds_the_first_with_room_for_the_second(
    text: str, now: int, later: int
) -> None:
    got = parse_request(load_catalog(), text)
    assert (got.gpus, got.growth_gpus) == (now, later)
    assert got.not_understood == []


def test_growth_in_nodes_is_refused_with_what_works() -> None:
    with pytest.raises(RequestError, match="growth room is sized in GPUs"):
        parse_request(load_catalog(), "scaling from 8 to 32 nodes")


@pytest.mark.parametrize(
    "text",
    [
        "host Llama 3.3 70B for 2,000 staff, about 10% concurrent, answers within 2 seconds",
        "serve Llama 3.1 70B to 200 users, replies start within 2 s",
    ],
)
def test_answers_within_a_time_are_a_first_token_limit(text: str) -> None:
    got = parse_request(load_catalog(), text)
    assert got.ttft_ms == 2000.0
    assert got.not_understood == []


def test_a_reasoning_trace_is_the_output_length() -> None:
    got = parse_request(
        load_catalog(), "serve DeepSeek R1 with reasoning traces of ~8k tokens to 500 users"
    )
    assert got.osl_tokens == 8000
    assert got.not_understood == []


def test_concurrent_calls_are_concurrent_streams() -> None:
    got = parse_request(load_catalog(), "Llama 3.1 8B, TTFT under 200ms, 2,000 concurrent calls")
    assert got.output_tokens_per_s == 2000 * 20.0
    assert got.not_understood == []


@pytest.mark.parametrize(
    "text",
    [
        "1024 GPUs, checkpoints every hour for a 405B model",
        "512 GPUs, hourly checkpoints of a 70B model",
    ],
)
def test_a_checkpoint_every_hour_is_an_interval(text: str) -> None:
    got = parse_request(load_catalog(), text)
    assert got.checkpoint_interval_s == 3600.0
    assert got.not_understood == []


@pytest.mark.parametrize(
    ("text", "gbps"),
    [("512 H200 with 3.2T networking per node", 400), ("B300, 6.4 Tb/s per node, 64 nodes", 800)],
)
def test_a_nodes_bandwidth_is_its_eight_ports_speed_not_a_model_size(text: str, gbps: int) -> None:
    got = parse_request(load_catalog(), text)
    assert got.compute_link_gbps == gbps
    assert got.model_params_b is None


def test_a_ratio_said_of_the_storage_network_is_not_the_compute_fabrics() -> None:
    got = parse_request(load_catalog(), "128 B200 GPUs with 1:1 storage network and 2 PB VAST")
    assert got.oversubscription is None


@pytest.mark.parametrize(
    ("text", "cap_w"), [("0.5k GPUs, 5,000 kW, training", 5e6), ("1,200 kW IT, 64 GPUs", 1.2e6)]
)
def test_a_power_figure_with_a_thousands_separator_is_read_whole(text: str, cap_w: float) -> None:
    assert parse_request(load_catalog(), text).power_cap_w == cap_w


def test_each_user_wanting_a_rate_is_a_rate_per_user() -> None:
    got = parse_request(load_catalog(), "Llama 3.1 405B, 50 concurrent users, each wants 30 tok/s")
    assert got.output_tokens_per_s == 1500.0
    assert got.not_understood == []


def test_a_hugging_face_organisation_before_a_model_name_is_read_with_it() -> None:
    got = parse_request(
        load_catalog(), "serve meta-llama/Llama-3.1-8B-Instruct at 10,000 tokens per second"
    )
    assert got.model == "llama-3.1-8b"
    assert got.not_understood == []


@pytest.mark.parametrize(
    ("text", "nodes", "gpus"),
    [
        ("16 8-GPU servers for training", 16, 128),
        ("4-GPU servers x 8", 8, 32),
        ("a single 8-GPU server", 1, 8),
        ("8-GPU servers, 16 of them", 16, 128),
    ],
)
def test_a_count_of_n_gpu_servers_is_a_node_count(text: str, nodes: int, gpus: int) -> None:
    got = parse_request(load_catalog(), text)
    assert (got.nodes, got.gpus) == (nodes, gpus)
    assert got.not_understood == []


@pytest.mark.parametrize(
    "text", ["we'd like between 256 and 512 GPUs", "256-512 GPUs for training"]
)
def test_a_range_of_gpus_is_built_at_its_top_and_said_so(text: str) -> None:
    got = parse_request(load_catalog(), text)
    assert got.gpus == 512
    assert any("the top of 256-512" in u for u in got.understood)
    assert got.not_understood == []


def test_bringing_our_own_storage_product_excludes_storage_from_the_quote() -> None:
    got = parse_request(load_catalog(), "128 GPUs, we'll bring our own NetApp")
    assert got.storage_excluded is True
    assert got.not_understood == []


def test_a_storage_throughput_floor_is_the_read_bandwidth() -> None:
    got = parse_request(load_catalog(), "512 GPUs, storage throughput at least 1 TB/s")
    assert got.storage_read_gb_per_s == 1000.0
    assert got.not_understood == []


@pytest.mark.parametrize(
    ("text", "field", "n"),
    [
        ("We don't need 512 GPUs, 256 is plenty", "gpus", 256),
        ("Not 128 but 256 GPUs", "gpus", 256),
        ("no need for 64 nodes, 32 nodes is enough", "nodes", 32),
    ],
)
def test_a_count_said_not_to_be_needed_gives_way_to_the_one_that_is(
    text: str, field: str, n: int
) -> None:
    got = parse_request(load_catalog(), text)
    assert getattr(got, field) == n
    assert got.not_understood == []


@pytest.mark.parametrize(
    ("text", "workload"),
    [
        ("We're not doing training, only inference on 32 H200", "inference"),
        ("512 GPUs for training, no inference", "training"),
    ],
)
def test_a_workload_ruled_out_leaves_the_one_asked_for(text: str, workload: str) -> None:
    got = parse_request(load_catalog(), text)
    assert got.workload == workload
    assert got.not_understood == []


@pytest.mark.parametrize(
    ("text", "existing", "added"),
    [
        ("We already run 8 DGX H100 and want to double it", 8, 8),
        ("We already have 64 H100 and want to triple the cluster", 64, 128),
        ("we have an 8-node DGX H100 BasePOD, double it", 8, 8),
        ("We run a 64 GPU H100 cluster; we want to double it", 64, 64),
        ("We own 16 DGX H100. We'd like to triple the cluster", 16, 32),
        ("We operate 16 DGX H100 nodes; please double the pod", 16, 16),
    ],
)
def test_doubling_or_tripling_an_installation_adds_to_it(
    text: str, existing: int, added: int
) -> None:
    got = parse_request(load_catalog(), text)
    assert (got.existing_nodes or got.existing_gpus) == existing
    assert (got.nodes or got.gpus) == added


@pytest.mark.parametrize(
    ("text", "cap_w"),
    [
        ("512 GPUs, not 5 MW", None),
        ("5 MW, not 10 MW, training", 5e6),
        ("3 MW rather than 5 MW, 256 H100", 3e6),
        ("not more than 5 MW, 512 GPUs", 5e6),
        # the figure the site lacks is no cap; the one it has is
        ("We don't have 5 MW, only 2 MW, 256 GPUs training", 2e6),
        ("we do not have 10 MW; we have 3 MW. training", 3e6),
    ],
)
def test_a_power_figure_said_not_to_be_the_limit_is_no_cap(text: str, cap_w: float | None) -> None:
    got = parse_request(load_catalog(), text)
    assert got.power_cap_w == cap_w
    assert got.not_understood == []


@pytest.mark.parametrize(
    ("text", "nodes"),
    [("GB200 NVL72, 8 racks, liquid cooled", 8), ("GB300 NVL72, two racks", 2)],
)
def test_a_rack_count_after_a_comma_counts_the_named_racks(text: str, nodes: int) -> None:
    assert parse_request(load_catalog(), text).nodes == nodes


@pytest.mark.parametrize(
    ("text", "disaggregated", "speculative"),
    [
        ("Llama 3.1 8B on 8 H100, no disaggregation", False, None),
        ("DeepSeek R1 on 8 B200 without MTP", None, False),
        ("DeepSeek R1 on 8 B200, MTP off, aggregated serving", False, False),
        (
            "DeepSeek R1 on GB200 NVL72, disaggregated prefill/decode with Dynamo, MTP on",
            True,
            True,
        ),
    ],
)
def test_a_served_model_named_with_its_serving_stack_is_served_and_negations_hold(
    text: str, disaggregated: bool | None, speculative: bool | None
) -> None:
    """Issue 36: the serving words alone say the workload ('nothing to size' before), and 'no
    disaggregation', 'without MTP' rule them out (they asked for them)."""
    got = parse_request(load_catalog(), text)
    assert (got.workload, got.disaggregated, got.speculative_decoding) == (
        "inference",
        disaggregated,
        speculative,
    )
    assert got.not_understood == []


@pytest.mark.parametrize(
    "text",
    [
        "Llama 3.3 70B on H100 for 2,000 concurrent users, time between tokens below 40ms",
        "Llama 3.3 70B on H100, 2,000 concurrent users, between-token latency under 40 ms",
    ],
)
def test_time_between_tokens_is_the_per_token_limit(text: str) -> None:
    assert parse_request(load_catalog(), text).tpot_ms == 40


@pytest.mark.parametrize(
    ("text", "fabric", "storage_fabric"),
    [
        ("A SuperPOD of 4 SUs of DGX B200 with Ethernet storage", "infiniband", "ethernet"),
        ("127 DGX B200, InfiniBand compute, storage over RoCE", "infiniband", "ethernet"),
        ("256 H100 on Spectrum-X with an InfiniBand storage fabric", "ethernet", "infiniband"),
    ],
)
def test_the_storage_fabric_said_apart_is_not_the_compute_fabric(
    text: str, fabric: str, storage_fabric: str
) -> None:
    """'Ethernet storage' made the compute fabric Ethernet on an InfiniBand SuperPOD."""
    got = parse_request(load_catalog(), text)
    assert (got.fabric or "infiniband", got.storage_fabric) == (fabric, storage_fabric)


@pytest.mark.parametrize(
    ("text", "gbps"), [("8 DGX B200 on NDR400", 400), ("16 DGX H100, NDR200", 200)]
)
def test_an_infiniband_generation_with_its_rate_is_the_port_speed(text: str, gbps: int) -> None:
    got = parse_request(load_catalog(), text)
    assert (got.fabric, got.compute_link_gbps) == ("infiniband", gbps)
    assert got.not_understood == []


def test_how_many_days_asks_the_time_not_the_most_gpus() -> None:
    got = parse_request(load_catalog(), "Mixtral 8x22B on 500B tokens, 512 H200, how many days")
    assert got.objective is None
    assert got.not_understood == []


@pytest.mark.parametrize(
    "text",
    [
        "the most tokens per second within 20 MW serving Llama 3.1 70B",
        "serve Llama 3.1 405B offline on H200 under 2 MW, maximize throughput",
        "the most users we can serve Llama 3.1 70B to within 2 MW at 20 tok/s each",
        "Llama 3.3 70B: what gives the most tokens per second inside 1 MW IT?",
    ],
)
def test_the_most_throughput_under_a_bound_is_the_most_it_serves(text: str) -> None:
    """Filled to the bound and ranked by the output tokens/s each platform serves, not by its
    GPU count (1,632 L40S won '1 MW, the most tokens per second for Llama 3.3 70B')."""
    got = parse_request(load_catalog(), text)
    assert got.objective == "most-tokens"
    assert got.not_understood == []


def test_the_most_throughput_is_ranked_by_the_tokens_served() -> None:
    from clustergen.engine.search.planner import plan_design

    cat = load_catalog()
    text = "1 MW, inference only, whatever gives the most tokens per second for Llama 3.3 70B"
    d = plan_design(cat, parse_request(cat, text))
    study = d.alternatives
    assert study is not None
    assert study.objective_unit == "tokens/s"
    served = [r.output_tokens_per_s for r in study.rows if r.eligible]
    assert all(s is not None for s in served)
    chosen = next(r for r in study.rows if r.chosen)
    assert chosen.output_tokens_per_s == max(s for s in served if s is not None)
    most_gpus = max((r for r in study.rows if r.eligible), key=lambda r: r.gpus)
    assert chosen.output_tokens_per_s is not None
    assert most_gpus.output_tokens_per_s is not None
    assert chosen.output_tokens_per_s >= most_gpus.output_tokens_per_s
    # the first lines say what the filled design serves (its estimate sizes one load's replica)
    assert d.notice is not None
    assert f"serving {chosen.output_tokens_per_s:,.0f} output tokens/s" in d.notice


def test_the_datas_storage_tier_is_for_training_not_serving() -> None:
    """H100 RA Table 5 tiers training sets by kind: 'video inference' built the best tier."""
    cat = load_catalog()
    assert parse_request(cat, "video inference on 64 L40S").storage_tier is None
    assert parse_request(cat, "train on video data, 256 H100").storage_tier == "best"


def test_documents_of_a_length_in_a_window_are_prompts_for_a_served_model() -> None:
    """'10 million documents of 4k tokens ... within 24 hours' for a summariser was 40B training
    tokens; served, it is 116 prompts/s of 4,000 tokens, the summaries' length the output."""
    got = parse_request(
        load_catalog(),
        "batch-summarize 10 million documents of 4k tokens into 300-token summaries within 24 "
        "hours using Llama 3.1 8B",
    )
    assert got.training_tokens_t is None
    assert (got.isl_tokens, got.osl_tokens) == (4000, 300)
    assert got.output_tokens_per_s == pytest.approx(10e6 * 300 / 86400)
    assert got.not_understood == []


@pytest.mark.parametrize(
    ("text", "ratio"),
    [("1024 H100s at 20% oversubscription", 1.2), ("512 H200, 0% oversubscription", 1.0)],
)
def test_oversubscription_as_a_percentage_is_the_share_above_the_uplinks(
    text: str, ratio: float
) -> None:
    got = parse_request(load_catalog(), text)
    assert got.oversubscription == pytest.approx(ratio)
    assert got.not_understood == []


@pytest.mark.parametrize(
    ("text", "tp"),
    [
        ("serve Llama 3.3 70B TP4 on H100, 200 concurrent users", 4),
        ("Llama 3.1 405B, FP4 on B200, tensor parallel 8, 500 concurrent users", 8),
        ("Llama 3.1 70B, 2-way tensor parallelism, 8 H200, 100 concurrent", 2),
    ],
)
def test_a_tensor_parallel_width_is_read_and_the_load_says_serving(text: str, tp: int) -> None:
    got = parse_request(load_catalog(), text)
    assert (got.tensor_parallel_gpus, got.workload) == (tp, "inference")
    assert got.not_understood == []


@pytest.mark.parametrize(
    "text",
    [
        "We have a 2 MW hall (facility), PUE around 1.35, and want the most B200 we can fit",
        "the most GB200 that will fit in 2 MW",
    ],
)
def test_the_most_of_a_named_gpu_that_fits_is_the_count_objective(text: str) -> None:
    got = parse_request(load_catalog(), text)
    assert got.objective == "most-gpus"
    assert got.not_understood == []


def test_of_it_as_a_pronoun_is_no_it_basis() -> None:
    """'half of it reserved ...' read 'of it' as an IT cap; '2 MW of IT' still is one."""
    cat = load_catalog()
    assert parse_request(cat, "3 MW of IT for H100").power_cap_basis == "it"
    got = parse_request(cat, "2 MW at the facility, half of it reserved, GB200")
    assert got.power_cap_basis == "facility"


@pytest.mark.parametrize(
    ("text", "workload"),
    [
        (
            "fine-tune Qwen2.5 72B with full parameters on 20B tokens in 10 days, H200s",
            "fine-tuning",
        ),
        ("Llama 3 8B full-parameter training on 100B tokens, 64 H100", "training"),
    ],
)
def test_full_parameters_is_the_method_and_leaves_the_workload_its_own(
    text: str, workload: str
) -> None:
    got = parse_request(load_catalog(), text)
    assert (got.training_method, got.workload) == ("full", workload)
    assert got.not_understood == []


@pytest.mark.parametrize(
    ("text", "platform", "gpus", "nodes"),
    [
        ("256 x B300 (HGX)", "hgx-b300", 256, None),
        ("32 H200 DGX systems", "dgx-h200", None, 32),
        ("a single H200 DGX", "dgx-h200", None, 1),
        ("4 H100 HGX servers", "hgx-h100", None, 4),
    ],
)
def test_a_gpu_named_before_its_system_family(
    text: str, platform: str, gpus: int | None, nodes: int | None
) -> None:
    """'B300 HGX' names the HGX system ('hgx' was unread); a figure before the GPU counts
    GPUs, a unit word or a count in words counts systems ('32 H200 DGX systems' was 32 GPUs)."""
    got = parse_request(load_catalog(), text)
    assert (got.platform, got.gpus, got.nodes) == (platform, gpus, nodes)
    assert got.not_understood == []


@pytest.mark.parametrize(
    "text",
    [
        "cheapest way to serve Llama 3.1 70B at 10k tokens/s aggregate",
        "most cost-effective H100 cluster for 512 GPUs",
        "train a 7B on 2T tokens in 3 weeks with 128 H100, then serve it to 300 concurrent users",
    ],
)
def test_cost_words_and_framing_are_understood(text: str) -> None:
    assert parse_request(load_catalog(), text).not_understood == []


@pytest.mark.parametrize(
    "text",
    [
        "Design for 2048 GB200 GPUs on InfiniBand XDR with 8 racks per SU",
        "256 DGX H100, SUs of 32 nodes",
    ],
)
def test_an_ras_own_su_size_is_read_and_not_taken_for_a_count(text: str) -> None:
    """'SUs of 32 nodes' was read as 32 nodes (and '256' left unread)."""
    got = parse_request(load_catalog(), text)
    assert (got.gpus or 0) + (got.nodes or 0) in (2048, 256)
    assert got.not_understood == []


def test_an_su_size_no_ra_builds_is_refused_with_the_sizes_there_are() -> None:
    with pytest.raises(RequestError, match="8 racks"):
        parse_request(load_catalog(), "2048 GB200, 4 racks per SU")


def test_a_stack_ruled_out_item_by_item_leaves_the_one_asked() -> None:
    """'We don't want Dynamo or disaggregation, just plain vLLM' was refused as two engines."""
    cat = load_catalog()
    got = parse_request(
        cat,
        "We don't want Dynamo or disaggregation, just plain vLLM on 8 H100 for Llama 3.1 70B, "
        "100 concurrent users",
    )
    assert (got.serving_engine, got.disaggregated) == ("vllm", False)
    assert parse_request(
        cat, "no vLLM; serve Llama 3.1 8B with SGLang on 2 H100"
    ).serving_engine == ("sglang")


@pytest.mark.parametrize(
    "text",
    [
        "no TP: Llama 3.1 8B on 8 L40S, 200 concurrent users",
        "Llama 3.1 8B on 8 L40S, each GPU its own replica, 200 concurrent users",
    ],
)
def test_a_copy_on_every_gpu_is_a_width_of_one(text: str) -> None:
    got = parse_request(load_catalog(), text)
    assert got.tensor_parallel_gpus == 1
    assert got.not_understood == []


def test_a_negated_fabric_for_storage_sets_the_storage_fabric_not_the_compute_one() -> None:
    """'avoid Ethernet storage' ruled Ethernet out for compute and put storage out of scope."""
    got = parse_request(load_catalog(), "avoid Ethernet storage; InfiniBand everywhere; 256 H200")
    assert (got.storage_fabric, got.fabric_excluded, got.storage_excluded) == (
        "infiniband",
        None,
        None,
    )
    assert got.not_understood == []


def test_an_su_size_said_not_needed_is_not_held() -> None:
    got = parse_request(load_catalog(), "4 racks per SU isn't required, just give me 2048 GB200")
    assert got.gpus == 2048


def test_a_share_of_the_hall_already_used_leaves_the_rest() -> None:
    got = parse_request(load_catalog(), "a 1 MW hall, currently 50% used; B200 for training")
    assert got.power_cap_w == pytest.approx(0.5e6)


def test_a_quarter_is_a_deadline_not_a_gpu() -> None:
    """'deadline end of Q1' was refused as an unknown GPU 'q1'."""
    got = parse_request(
        load_catalog(),
        "Continued pretraining of Llama 3.1 70B on 200B tokens of domain data, deadline end of Q1",
    )
    assert got.training_days is not None
    assert got.not_understood == []


def test_preference_pairs_of_a_length_are_the_tokens_trained_on() -> None:
    got = parse_request(
        load_catalog(), "DPO on Llama 3.1 8B with 1M preference pairs of 1k tokens, 8 H100"
    )
    assert got.training_tokens_t == pytest.approx(1e-3)
    assert got.not_understood == []


@pytest.mark.parametrize(
    "text",
    [
        "H200 cluster, 128 GPUs, to be installed in H2 2027",
        "need ~2k H100 GPUs, ib, 4:1 storage",
    ],
)
def test_an_install_date_and_another_networks_ratio_are_said_not_unread(text: str) -> None:
    got = parse_request(load_catalog(), text)
    assert got.not_understood == []
    assert got.oversubscription is None


def test_when_growth_comes_is_no_training_deadline() -> None:
    """'expandable to 512 within 2 years' made a 730-day training deadline."""
    got = parse_request(
        load_catalog(), "initially 64 H100, expandable to 512 within 2 years, air-cooled, 2 MW"
    )
    assert (got.growth_gpus, got.training_days) == (512, None)
    assert got.not_understood == []


def test_counted_racks_in_a_figure_are_their_total() -> None:
    """'fit 2 GB300 NVL72 racks in 300 kW' read a 300 kW rack limit."""
    got = parse_request(load_catalog(), "can we fit 2 GB300 NVL72 racks in 300 kW?")
    assert (got.power_cap_w, got.rack_power_kw) == (300e3, None)


def test_whichever_uses_less_power_is_understood() -> None:
    got = parse_request(
        load_catalog(),
        "serve Qwen3 235B A22B at 5000 tok/s, H200 or B200, whichever uses less power",
    )
    assert got.not_understood == []


def test_a_training_time_with_no_tokens_is_refused_asking_for_them() -> None:
    """It was 'no candidate platform could be sized (12 dropped)'."""
    with pytest.raises(RequestError, match="no token count"):
        parse_request(load_catalog(), "train Llama 3 405B from scratch in under 90 days")


@pytest.mark.parametrize(
    ("text", "pflops"),
    [
        ("A100 refresh: move our 512 A100 workload to B200, same throughput", 512 * 0.312),
        ("replace our 256 A100s with B200s, like-for-like performance", 256 * 0.312),
        ("B200 with equivalent throughput to our 64 DGX A100", 512 * 0.312),
    ],
)
def test_a_successor_matching_the_fleet_delivers_its_compute(text: str, pflops: float) -> None:
    """'A100 refresh: move our 512 A100 workload to B200' was refused as two GPUs; with 'same
    throughput' the successor matches the fleet's dense compute, not its GPU count."""
    got = parse_request(load_catalog(), text)
    assert got.compute_pflops == pytest.approx(pflops)
    assert (got.gpus, got.gpu) == (None, "b200")
    assert got.not_understood == []


def test_a_named_model_beside_another_size_is_two_models() -> None:
    """'Llama 3.1 8B and 70B' sized the 8B and carried 70B as a stray model size."""
    cat = load_catalog()
    with pytest.raises(RequestError, match="two models"):
        parse_request(cat, "host Llama 3.1 8B and 70B for internal apps")
    assert parse_request(cat, "Mixtral 8x7B, 47B params, serve on 8 H100").model == "mixtral-8x7b"


def test_the_software_stack_is_said_not_left_unread() -> None:
    got = parse_request(
        load_catalog(),
        "8x DGX B300, Spectrum-X, with Slurm, Kubernetes, BCM and NVIDIA AI Enterprise",
    )
    assert got.nodes == 8
    assert got.not_understood == []


def test_asking_which_gives_more_pflops_is_understood() -> None:
    got = parse_request(load_catalog(), "2 MW, B200 vs GB200, which gives more PFLOPS?")
    assert got.not_understood == []


@pytest.mark.parametrize(
    ("text", "replaced", "gpu"),
    [
        ("We run 32 A100 nodes and want to move to H200 with the same node count", "a100", "h200"),
        ("we have 256 H100 and plan to migrate to B300", "h100", "b300"),
        ("our 64 H100 servers: we'd like to upgrade them to B200", "h100", "b200"),
    ],
)
def test_a_fleet_moved_to_a_successor_is_replaced_not_two_gpus(
    text: str, replaced: str, gpu: str
) -> None:
    got = parse_request(load_catalog(), text)
    assert (got.replaced_platform or "").startswith(replaced)
    assert got.gpu == gpu
    assert got.not_understood == []


def test_how_many_after_a_sized_job_asks_its_need_not_the_most_that_fit() -> None:
    cat = load_catalog()
    job = "Train Llama 3 405B from scratch on 15T tokens within 100 days, how many B200s?"
    assert parse_request(cat, job).objective is None
    served = "serve Llama 3.1 70B to 500 concurrent users. How many H200?"
    assert parse_request(cat, served).objective is None
    # a bound keeps the question the most that fit
    assert parse_request(cat, "5 MW for training, how many GPUs?").objective == "most-gpus"
    assert parse_request(cat, "How big a B300 cluster fits in 10 MW?").objective == "most-gpus"


def test_the_smallest_configuration_of_a_named_platform_is_one_node() -> None:
    cat = load_catalog()
    got = parse_request(cat, "What's the smallest GB200 configuration you can offer?")
    assert got.nodes == 1
    assert got.not_understood == []
    with pytest.raises(RequestError):
        parse_request(cat, "the smallest cluster")  # nothing named: still nothing to size


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("4 DGX B200 for a university lab, air cooled, 208V power", "supply voltage"),
        ("512 GPUs, 415 V three-phase feeds", "supply voltage"),
        ("99.9% uptime for inference of Llama 3.3 70B, 1,000 concurrent users", "availability"),
        ("512 GPUs training, high availability", "availability"),
    ],
)
def test_the_sites_voltage_and_an_uptime_are_said_not_left_unread(text: str, said: str) -> None:
    got = parse_request(load_catalog(), text)
    assert got.not_understood == []
    assert any(f"-> {said}" in u for u in got.understood)


def test_what_a_cluster_is_for_and_the_halls_water_are_said() -> None:
    text = (
        "Hi, we're a pharma company planning a 256-GPU cluster for protein folding and LLM "
        "fine-tuning; we have a 500 kW hall with chilled water."
    )
    got = parse_request(load_catalog(), text)
    assert got.not_understood == []
    assert (got.gpus, got.power_cap_w, got.workload) == (256, 500e3, "fine-tuning")
    assert any("facility water" in u for u in got.understood)


@pytest.mark.parametrize(
    ("text", "basis", "pue"),
    [
        ("2 MW, of which 20% is for cooling, 256 GPUs", "facility", 1.25),
        ("we have 5 MW; 25% goes to cooling and overhead. 512 GPUs training", "facility", 1.3333),
        ("3 MW gross, 256 GPUs", "facility", None),
        ("3 MW net IT, 256 GPUs", "it", None),
        ("the data hall is rated for 2 MW of IT, 256 GPUs", "it", None),
    ],
)
def test_the_power_caps_basis_is_read_from_how_the_site_states_it(
    text: str, basis: str, pue: float | None
) -> None:
    got = parse_request(load_catalog(), text)
    assert got.not_understood == []
    assert (got.power_cap_basis, got.pue) == (basis, pue)


@pytest.mark.parametrize(
    ("text", "existing", "added"),
    [
        # the count before a part whose name starts with "gb" is a count, not gigabytes
        ("we have 2 GB200 NVL72 racks and want to add 1 more", 2, 1),
        ("add one more NVL72 rack to our two GB200 NVL72 racks", 2, 1),
        # a growth to a total beside what stands adds the difference
        ("we have 64 DGX H100 and want to grow to 128", 64, 64),
        ("our 1 GB200 NVL72 rack, grow to 4 racks", 1, 3),
        ("we run 256 H100 GPUs today; expand to 512 GPUs", 256, 256),
    ],
)
def test_what_stands_and_what_is_added_are_read_apart(text: str, existing: int, added: int) -> None:
    got = parse_request(load_catalog(), text)
    assert (got.existing_nodes or got.existing_gpus) == existing
    assert (got.nodes or got.gpus) == added
    assert got.not_understood == []


def test_room_to_grow_without_what_stands_stays_room() -> None:
    got = parse_request(load_catalog(), "a 64-node H100 cluster with room to grow to 1024 GPUs")
    assert (got.nodes, got.growth_gpus, got.existing_nodes) == (64, 1024, None)


@pytest.mark.parametrize(
    "text",
    [
        "We want NVIDIA's latest and greatest for training, around 4,000 GPUs",
        "512 of the newest GPUs",
        "512 GPUs, whatever is most power efficient",
    ],
)
def test_words_of_age_and_indifference_leave_nothing_unread(text: str) -> None:
    got = parse_request(load_catalog(), text)
    assert got.gpus in (512, 4000)
    assert got.not_understood == []


def test_a_checkpoints_write_window_is_its_write_rate_never_the_runs_deadline() -> None:
    cat = load_catalog()
    got = parse_request(
        cat, "checkpoints of 2 TB every hour must write in under 2 minutes, 1024 H100"
    )
    assert got.training_days is None
    assert (got.checkpoint_gb, got.checkpoint_interval_s) == (2000, 3600)
    assert got.storage_write_gb_per_s == pytest.approx(2000 / 120)
    assert got.not_understood == []
    with pytest.raises(RequestError, match="needs the checkpoint's size"):
        parse_request(cat, "1024 H100 training, checkpoints must be written within 60 s")


def test_a_second_colder_tier_is_said_not_summed_or_refused() -> None:
    cat = load_catalog()
    got = parse_request(cat, "at least 400 TB of fast scratch plus 5 PB capacity tier, 512 GPUs")
    assert got.storage_capacity_tb == 400
    assert any("second storage tier of 5,000 TB" in u for u in got.understood)
    assert got.not_understood == []
    assert parse_request(cat, "512 GPUs, 5 PB capacity").storage_capacity_tb == 5000


@pytest.mark.parametrize(
    "text",
    [
        "Is GB300 worth it over B300 for our 2 MW site?",
        "is B200 better than H200 for 512 GPUs training",
    ],
)
def test_a_question_setting_two_gpus_side_by_side_weighs_both(text: str) -> None:
    got = parse_request(load_catalog(), text)
    assert got.gpus_weighed is not None
    assert len(got.gpus_weighed) == 2
    assert got.not_understood == []


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        # a work volume of any kind of item, and where the data may live
        (
            "We're a hospital network. We want to run Llama 3.3 70B on-prem for clinical note "
            "summarization, about 2,000 notes an hour, each ~3k tokens in and 500 out. HIPAA, "
            "no cloud.",
            {"isl_tokens": 3000, "osl_tokens": 500},
        ),
        # a count joined to the part: GPUs, never nodes ("8x7B" stays a model's name)
        ("Mixtral 8x7B on 4xH100", {"gpus": 4, "model": "mixtral-8x7b"}),
        # one rack: the site's, or the named system's count
        ("single rack, max GPUs, 50 kW, air only", {"max_racks": 1}),
        ("GB200 NVL72, single rack", {"nodes": 1, "platform": "gb200-nvl72"}),
        # no figure for "including cooling" to qualify: it asks the facility's power
        ("How much power would 1,000 H200s need including cooling?", {"gpus": 1000}),
    ],
)
def test_more_of_what_customers_write_leaves_nothing_unread(
    text: str, fields: dict[str, object]
) -> None:
    got = parse_request(load_catalog(), text)
    assert got.not_understood == []
    for field, value in fields.items():
        assert getattr(got, field) == value, field


def test_a_single_joined_gpu_node_is_its_gpus_not_that_many_nodes() -> None:
    got = parse_request(load_catalog(), "can we run Llama 3.1 405B on a single 8xH100 node?")
    assert (got.gpus, got.nodes) == (8, None)
    assert got.not_understood == []


@pytest.mark.parametrize(
    ("text", "gpus"),
    [
        ("36 GB200 superchips", 72),  # a superchip: one Grace and the system's GPUs per CPU
        ("18 GB200 compute trays", 72),  # a compute tray: the system's GPUs over its trays
        ("2xGB200 superchips", 4),
    ],
)
def test_a_count_of_superchips_or_trays_is_their_gpus(text: str, gpus: int) -> None:
    got = parse_request(load_catalog(), text)
    assert got.gpus == gpus
    assert got.not_understood == []


CAT_SPARES = load_catalog()


@pytest.mark.parametrize(
    ("text", "spares", "size"),
    [
        ("512 GPUs training with 2 spare nodes", 2, {"gpus": 512}),
        ("64 DGX B200 plus two hot spares", 2, {"nodes": 64}),
        ("512 GPUs, one spare.", 1, {"gpus": 512}),
        ("32 H100 nodes, N+2 node redundancy", 2, {"nodes": 32}),
        ("512 GPUs training, N+1 nodes", 1, {"gpus": 512}),
        ("256 GPUs for training, N+1", 1, {"gpus": 256}),
        # a count of nodes that may fail is a spare, never the cluster's size
        ("512 GPUs training, tolerate 1 node failure", 1, {"gpus": 512}),
        ("512 GPUs training, survive a single node failure", 1, {"gpus": 512}),
        ("32 H200 servers that must survive the loss of 2 servers", 2, {"nodes": 32}),
    ],
)
def test_spares_are_read_beside_the_size_never_as_it(
    text: str, spares: int, size: dict[str, int]
) -> None:
    r = merge_request(CAT_SPARES, text, {})
    assert r.spare_nodes == spares
    assert {k: getattr(r, k) for k in size} == size
    assert not r.not_understood


@pytest.mark.parametrize(
    "text",
    [
        "512 GPUs, keep a spare PSU in each rack",  # a spare part, not a node
        "512 GPUs with N+1 power",  # the facility's redundancy
        "512 GPUs, power N+1",
    ],
)
def test_spares_of_other_things_are_no_spare_nodes(text: str) -> None:
    r = merge_request(CAT_SPARES, text, {})
    assert r.spare_nodes is None
    assert r.gpus == 512


@pytest.mark.parametrize(
    "text",
    [
        "Two GB300 NVL72 racks, what's the total FP4 compute and power draw?",
        "512 H100, what's the power consumption?",
        "64 B200: total compute in PFLOPS?",
    ],
)
def test_a_figure_every_design_states_is_a_question_read(text: str) -> None:
    assert parse_request(load_catalog(), text).not_understood == []


def test_a_power_requirement_with_its_figure_is_still_the_cap() -> None:
    r = parse_request(load_catalog(), "512 GPUs, power requirement of at most 2 MW")
    assert r.power_cap_w == 2e6


@pytest.mark.parametrize(
    "text",
    [
        "GB300 NVL72, 4 racks, Spectrum-X, what do I need to buy?",
        "How much power and cooling do 16 GB200 NVL72 racks need? Our PUE is 1.25",
        "256 H100 GPUs, budget $12M, energy at $0.10/kWh",
        "256 H100, power costs 10 cents per kWh",
    ],
)
def test_questions_the_bom_power_and_cost_answer_are_read(text: str) -> None:
    assert parse_request(load_catalog(), text).not_understood == []
