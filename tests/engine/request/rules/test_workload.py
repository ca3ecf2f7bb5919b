"""Each workload phrase, read on its own; and the four request forms of issue 14, whole."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.request import parse_request
from clustergen.errors import NotFoundError, RequestError
from support.rules import read

CAT = load_catalog()


@pytest.mark.parametrize(
    ("rule", "text", "field", "value"),
    [
        ("price_gpu_hour", "$2.50 per gpu-hour", "price_per_gpu_hour", 2.5),
        ("price_gpu_hour", "2.5 usd/gpu/hr", "price_per_gpu_hour", 2.5),
        ("price_node_hour", "$39.33 per node-hour", "price_per_node_hour", 39.33),
        ("budget", "$2m budget", "budget_usd", 2e6),
        ("budget", "$1.5 billion", "budget_usd", 1.5e9),
        ("budget", "3 million dollars", "budget_usd", 3e6),
        ("serving_target", "20,000 output tokens/s", "output_tokens_per_s", 20000.0),
        ("serving_target", "1.5k tok/s", "output_tokens_per_s", 1500.0),
        ("serving_target", "500 tokens per second", "output_tokens_per_s", 500.0),
        ("per_user", "25 tokens/s per user", "tpot_ms", 40.0),
        ("ttft", "ttft under 2 s", "ttft_ms", 2000.0),
        ("ttft", "ttft p99 < 450 ms", "ttft_ms", 450.0),
        ("ttft", "time to first token of 0.5 seconds", "ttft_ms", 500.0),
        ("ttft", "2 s ttft", "ttft_ms", 2000.0),
        ("tpot", "tpot under 40 ms", "tpot_ms", 40.0),
        ("tpot", "itl 50ms", "tpot_ms", 50.0),
        ("isl", "8k input tokens", "isl_tokens", 8000),
        ("isl", "prompts of 1000 tokens", "isl_tokens", 1000),
        ("osl", "300 output tokens", "osl_tokens", 300),
        ("days", "in 60 days", "training_days", 60.0),
        ("days", "a 3-week run", "training_days", 21.0),
        ("precision", "in nvfp4", "precision", "fp4"),
        ("precision", "bf16", "precision", "bf16"),
        ("sequence", "sequence length 4096", "sequence_tokens", 4096),
        ("context", "32k-token context", "_context", 32000),
        ("context", "context window of 8k", "_context", 8000),
        ("tokens", "1.4 trillion tokens", "training_tokens_t", 1.4),
    ],
)
def test_a_workload_rule_reads_its_field(rule: str, text: str, field: str, value: object) -> None:
    first = read(rule, text)[0]
    assert (first.field, first.value) == (field, pytest.approx(value))


def test_isl_osl_read_as_a_pair() -> None:
    assert [(r.field, r.value) for r in read("shape", "isl/osl 8k/1k")] == [
        ("isl_tokens", 8000),
        ("osl_tokens", 1000),
    ]


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        (
            "train a 70B model on 15T tokens in 60 days",
            {
                "workload": "training",
                "model_params_b": 70.0,
                "training_tokens_t": 15.0,
                "training_days": 60.0,
            },
        ),
        (
            "serve Llama 3.1 405B at 20,000 output tokens/s with TTFT under 2 s",
            {
                "workload": "inference",
                "model": "llama-3.1-405b",
                "output_tokens_per_s": 20000.0,
                "ttft_ms": 2000.0,
            },
        ),
        (
            "fine-tune 8B models on a $2M budget at $2.50 per GPU-hour",
            {
                "workload": "fine-tuning",
                "model_params_b": 8.0,
                "budget_usd": 2e6,
                "price_per_gpu_hour": 2.5,
            },
        ),
        (
            "we have 2,048 A100s: how long for 65B on 1.4T tokens?",
            {"gpus": 2048, "gpu": "a100-80gb", "model_params_b": 65.0, "training_tokens_t": 1.4},
        ),
        (
            "serve 405B dense, ISL/OSL 1000/1000, 30 tokens/s per user",
            {"workload": "inference", "model_params_b": 405.0, "isl_tokens": 1000},
        ),
        ("serve Qwen3-235B-A22B in FP4", {"model": "qwen3-235b-a22b", "precision": "fp4"}),
    ],
)
def test_the_workload_request_forms_parse(text: str, fields: dict[str, object]) -> None:
    r = parse_request(CAT, text).model_dump()
    assert {k: r[k] for k in fields} == fields
    assert r["not_understood"] == []


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("train a 70B model on 15 tokens in 60 days", "too few tokens"),
        ("train a 70B model on 15 TB of text in 60 days", "data size"),
        ("serve a 70B model, tpot 40 ms and 20 tokens/s per user", "two TPOT limit"),
        ("train 70B on 15T tokens in bf16 and fp8", "two precision"),
    ],
)
def test_bad_workload_input_gets_one_line(text: str, match: str) -> None:
    with pytest.raises(RequestError, match=match):
        parse_request(CAT, text)


def test_an_unknown_model_is_refused_with_the_closest_names() -> None:
    with pytest.raises(NotFoundError) as err:
        parse_request(CAT, "serve Llama 5 900B at 1,000 tokens/s")
    assert "llama" in err.value.matches[0]


def test_a_model_with_nothing_to_size_is_still_refused() -> None:
    with pytest.raises(RequestError, match="nothing to size"):
        parse_request(CAT, "Llama 3.1 70B")


@pytest.mark.parametrize(
    "text",
    ["serve llama 3.1 70b at 20k tokens a second", "serve llama 3.1 70b, 20k tokens each second"],
)
def test_a_rate_written_in_words_is_the_serving_target(text: str) -> None:
    assert parse_request(CAT, text).output_tokens_per_s == 20_000


@pytest.mark.parametrize(
    ("text", "share"),
    [
        ("half for inference", 0.5),
        ("half for training", 0.5),
        ("25% of them for serving", 0.25),
        ("a quarter dedicated to inference", 0.25),
        ("three quarters for training", 0.25),
        ("60% for training", 0.4),
    ],
)
def test_a_pool_share_is_the_serving_share(text: str, share: float) -> None:
    first, mixed = read("pool_share", text)
    assert (first.field, first.value) == ("serving_share", pytest.approx(share))
    assert (mixed.field, mixed.value, mixed.mode) == ("workload", "mixed", "member")


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        (
            "512 GPUs, half for training, half for inference of Llama 3.1 70B",
            {"gpus": 512, "serving_share": 0.5, "workload": "mixed"},
        ),
        (
            "1,024 GPUs: 30% for serving Llama 3.1 8B, the rest training",
            {"gpus": 1024, "serving_share": 0.3, "workload": "mixed"},
        ),
    ],
)
def test_a_split_cluster_reads_its_share(text: str, fields: dict[str, object]) -> None:
    req = parse_request(CAT, text)
    assert {k: getattr(req, k) for k in fields} == pytest.approx(fields)
    assert req.not_understood == []


def test_two_different_shares_are_refused() -> None:
    with pytest.raises(RequestError, match="two"):
        parse_request(CAT, "512 GPUs, 60% for training and 60% for inference")


@pytest.mark.parametrize(
    ("text", "years"),
    [
        ("how much would 1024 B200s cost to run for a year at $0.08/kWh", 1.0),
        ("1024 B200s, what would it cost to operate for 3 years", 3.0),
    ],
)
def test_what_it_costs_to_run_for_a_term_is_the_ownership_term(text: str, years: float) -> None:
    r = parse_request(CAT, text)
    assert r.tco_years == years
    assert r.training_days is None
    assert r.not_understood == []


def test_training_for_a_year_is_still_a_deadline() -> None:
    r = parse_request(CAT, "train a 7B model for a year on 64 GPUs")
    assert r.tco_years is None
    assert r.training_days == pytest.approx(365.2425)


@pytest.mark.parametrize(
    ("text", "years"),
    [
        ("16x DGX B200 with InfiniBand, 2PB storage, 3 year support", 3.0),
        ("64 GPUs, 5-year warranty", 5.0),
    ],
)
def test_a_support_term_is_the_ownership_term_not_a_deadline(text: str, years: float) -> None:
    r = parse_request(CAT, text)
    assert r.tco_years == years
    assert r.training_days is None


@pytest.mark.parametrize(
    "text",
    [
        "Budget of 10 million euros for an inference cluster",
        "€5M budget, 64 GPUs",
        "64 GPUs, 500k GBP",
    ],
)
def test_an_amount_in_another_currency_is_refused_not_dropped(text: str) -> None:
    with pytest.raises(RequestError, match="not in US dollars"):
        parse_request(CAT, text)


@pytest.mark.parametrize(
    "text",
    [
        "serve 20 LoRA adapters on Llama 3.1 8B for 300 users",
        "multi-LoRA serving of Llama 3.1 70B, 100 users",
    ],
)
def test_served_adapters_are_serving_the_base_model(text: str) -> None:
    r = parse_request(CAT, text)
    assert r.workload == "inference"
    assert r.training_method is None
    assert r.not_understood == []


def test_a_per_gpu_port_speed_is_the_compute_link() -> None:
    r = parse_request(CAT, "128 GPUs, 400Gb/s per GPU, non-blocking fabric")
    assert r.compute_link_gbps == 400
    assert r.not_understood == []


def test_watts_each_are_not_weeks() -> None:
    r = parse_request(CAT, "512 GPUs at 700W each")
    assert r.training_days is None
    assert r.gpus == 512


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        (
            "fine-tune Mistral 7B on 100k examples of 2k tokens for 3 epochs in 2 days",
            100e3 * 2e3 * 3,
        ),
        (
            "SFT of Llama 3.1 70B on 500,000 conversations averaging 1,500 tokens, 2 epochs, 16 GPUs",
            5e5 * 1500 * 2,
        ),
    ],
)
def test_examples_of_a_length_over_epochs_are_the_tokens_trained_on(
    text: str, tokens: float
) -> None:
    r = parse_request(CAT, text)
    assert r.training_tokens_t == pytest.approx(tokens / 1e12)
    assert r.not_understood == []


@pytest.mark.parametrize(
    "text",
    [
        "64 GPUs, opex $50k per month",
        "Monthly opex shouldn't exceed $300k a month",
        "64 GPUs, $300k a month",
    ],
)
def test_a_running_cost_over_a_period_is_refused_not_read_as_capital(text: str) -> None:
    with pytest.raises(RequestError, match="running cost over a period"):
        parse_request(CAT, text)


def test_a_price_per_gpu_hour_is_still_a_price() -> None:
    assert parse_request(CAT, "64 GPUs at $2.50 per GPU-hour").price_per_gpu_hour == 2.5


@pytest.mark.parametrize(
    ("text", "serving"),
    [
        ("we want around 500 B200s for both training and inference, 60/40 split", 0.4),
        ("512 GPUs, a 70/30 split between serving and training", 0.7),
        ("512 GPUs split 50:50 training/inference", 0.5),
    ],
)
def test_a_ratio_splits_the_gpus_in_the_order_the_roles_are_named(
    text: str, serving: float
) -> None:
    r = parse_request(CAT, text)
    assert r.serving_share == serving
    assert r.workload == "mixed"
    assert r.oversubscription is None  # "50:50" is no fabric's ratio


def test_an_energy_price_paid_over_years_is_the_cost_term_not_a_run() -> None:
    # "$0.09/kWh for 3 years" was a 1,096-day training run beside a run asked how long it takes
    r = parse_request(
        CAT, "train a 70B model on 10T tokens with 1,024 H100s, energy at $0.09/kWh for 3 years"
    )
    assert r.tco_years == 3.0
    assert r.training_days is None
    assert r.usd_per_kwh == 0.09
