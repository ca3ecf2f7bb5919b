"""A capacity question ("how many users can 8 H200 handle", "what's the throughput of ...") and
a catalog model on GPUs given with no run to train are read as serving, and the design's first
lines say what the GPUs serve: output tokens/s and, for people, the streams at each one's speed."""

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.request import parse_request
from clustergen.engine.search.planner import plan_design

CAT = load_catalog()


@pytest.mark.parametrize(
    "text",
    [
        "How many tokens per second can 16 B200 push for Llama 3.1 405B?",
        "what's the throughput of DeepSeek R1 on a GB200 NVL72 rack",
        "we have 4 DGX H100, how many users can we serve with Llama 3.1 70B",
        "Llama 3.1 405B on 16 B200",
        "Qwen3 235B on 8 B200: how much throughput can we expect?",
    ],
)
def test_a_model_on_gpus_given_is_served_and_nothing_is_left_unread(text: str) -> None:
    r = parse_request(CAT, text)
    assert r.workload == "inference"
    assert r.objective is None  # "how many" asks no most-GPUs answer of GPUs already given
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "workload"),
    [
        ("Llama 3.1 405B on 1024 H100, 15T tokens", "training"),
        ("fine-tune Llama 3.1 70B on 16 H100", "fine-tuning"),
        ("Llama 3 70B LoRA on 8 H100", "fine-tuning"),
        ("train Llama 3.1 8B on 64 H100", "training"),
    ],
)
def test_a_run_to_train_stays_training(text: str, workload: str) -> None:
    r = parse_request(CAT, text)
    assert (r.workload or "training") == workload


def test_a_bare_size_on_gpus_is_not_taken_for_a_served_model() -> None:
    assert parse_request(CAT, "512 GPUs, 1.8T parameters").workload is None


def test_how_many_users_at_a_speed_is_each_streams_speed_not_a_total() -> None:
    r = parse_request(CAT, "Llama 3.3 70B on 8 H200, how many concurrent users at 30 tokens/s?")
    assert r.output_tokens_per_s is None
    assert r.tpot_ms == pytest.approx(1000 / 30)


def test_a_total_beside_a_users_question_stays_a_total() -> None:
    r = parse_request(
        CAT, "Llama 3.3 70B, 20,000 tokens/s in total, how many users is that at 25 each?"
    )
    assert r.output_tokens_per_s == 20_000


def test_the_first_lines_answer_the_question_from_the_estimate() -> None:
    d = plan_design(
        CAT, parse_request(CAT, "Llama 3.3 70B on 8 H200, how many users at 30 tokens/s each?")
    )
    w = d.workload
    assert w is not None
    assert w.tokens_per_s_per_gpu is not None
    total = w.tokens_per_s_per_gpu * 8
    assert d.notice is not None
    assert f"the 8 GPUs serve about {total:,.0f} output tokens/s of Llama 3.3 70B" in d.notice
    assert f"about {total / 30:,.0f} users at once at 30 tokens/s each" in d.notice


def test_an_offline_run_says_its_tokens_not_users() -> None:
    d = plan_design(CAT, parse_request(CAT, "Llama 3.1 70B offline batch on 8 H100, 2k in 500 out"))
    assert d.notice is not None
    assert "output tokens/s" in d.notice
    assert "users" not in d.notice


def test_a_run_on_gpus_given_says_its_time_first_in_both_formats() -> None:
    d = plan_design(
        CAT,
        parse_request(
            CAT, "How long would it take to train a 70B model on 10T tokens with 1,024 H100s?"
        ),
    )
    w = d.workload
    assert w is not None
    assert w.days is not None
    assert d.notice is not None
    assert f"the run takes about {w.days:,.1f} days on the 1,024 GPUs" in d.notice
    other = next(p for p in w.by_precision if not p.assumed)
    assert other.days is not None
    assert f"{other.days:,.1f} days at {other.precision.upper()}" in d.notice


@pytest.mark.parametrize(
    "text",
    [
        "what QPS can 8 H100 do with Llama 3.1 8B?",
        "Mixtral 8x7B on 8 H100s: requests per second at 1k input / 200 output?",
    ],
)
def test_a_rate_asked_is_answered_in_requests_per_second(text: str) -> None:
    r = parse_request(CAT, text)
    assert r.output_tokens_per_s is None  # asked, not stated
    assert r.not_understood == []
    d = plan_design(CAT, r)
    assert d.notice is not None
    assert "requests/s of" in d.notice


def test_a_rate_stated_with_a_question_mark_is_still_a_load() -> None:
    r = parse_request(CAT, "Llama 3.1 8B on 8 H100, 100 requests per second?")
    assert r.output_tokens_per_s is not None


@pytest.mark.parametrize(
    "text",
    [
        "what's the smallest B200 config that can serve Llama 3.1 405B at FP8?",
        "smallest cluster to train a 70B model on 2T tokens in 60 days",
    ],
)
def test_the_smallest_that_meets_a_sized_request_is_the_default_objective(text: str) -> None:
    r = parse_request(CAT, text)
    assert r.not_understood == []
    assert r.objective is None
    assert any("the least that meets the request" in u for u in r.understood)


def test_the_capacity_asked_under_a_cap_fills_it_with_the_most_tokens() -> None:
    # it built one 4-GPU server: the smallest that serves, not what 2 MW holds
    r = parse_request(
        CAT, "2 MW IT, inference, Llama 3.3 70B, how many tokens per second can we serve?"
    )
    assert r.objective == "most-tokens"


def test_a_bare_rack_count_of_a_rack_scale_system_is_its_racks() -> None:
    r = parse_request(CAT, "GB200 NVL72 SuperPOD, 8 racks, InfiniBand, 3 year TCO at $0.12/kWh")
    assert r.nodes == 8
    assert r.max_racks is None
