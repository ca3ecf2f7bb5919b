"""Serving phrases as customers write them: lengths, latency with its percentile, per-user
speed, interactivity (issue 24)."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.request import parse_request
from clustergen.engine.request.rules.load import LOAD_NOTE, serving_defaults, to_tokens
from clustergen.errors import RequestError

CAT = load_catalog()


def _fields(text: str) -> dict[str, object]:
    r = parse_request(CAT, text)
    assert r.not_understood == [], r.not_understood
    return r.model_dump(exclude_none=True, exclude={"text", "understood", "not_understood"})


@pytest.mark.parametrize(
    ("phrase", "isl", "osl"),
    [
        ("8k input", 8000, None),
        ("8k input tokens", 8000, None),
        ("prompts of about 9,400 tokens and answers of about 650 tokens", 9400, 650),
        ("500 output tokens", None, 500),
        ("answers ~300 tokens", None, 300),
        ("8k/1k", 8000, 1000),
        ("isl/osl 2k/256", 2000, 256),
        ("8k in / 1k out", 8000, 1000),
        ("2,000-token prompts and 400-token answers", 2000, 400),
        ("inputs average 3k tokens, responses up to 500 tokens", 3000, 500),
        ("input length 1024, output length 128", 1024, 128),
        ("prompt size roughly 4,000 tokens", 4000, None),
        ("ISL=8192, OSL=1024", 8192, 1024),
        ("1000 in/1000 out", 1000, 1000),
        ("generating about 256 tokens", None, 256),
        ("input sequence length 2048, output sequence length 256", 2048, 256),
    ],
)
def test_request_lengths_read_as_written(phrase: str, isl: int | None, osl: int | None) -> None:
    f = _fields(f"serve llama 3.1 70b at 2000 tokens/s, {phrase}")
    assert (f.get("isl_tokens"), f.get("osl_tokens")) == (isl, osl)


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("p99 TTFT 500ms", {"ttft_ms": 500.0, "latency_percentile": 99.0}),
        ("TTFT p95 under 1.5 s", {"ttft_ms": 1500.0, "latency_percentile": 95.0}),
        ("99th percentile time to first token below 2 seconds", {"ttft_ms": 2000.0}),
        ("30 ms per token", {"tpot_ms": 30.0}),
        ("25ms/token", {"tpot_ms": 25.0}),
        ("40 ms between tokens", {"tpot_ms": 40.0}),
        ("50 tokens/s per user", {"tpot_ms": 20.0}),
        ("each user gets 40 tokens per second", {"tpot_ms": 25.0}),
        ("20 tok/s per stream", {"tpot_ms": 50.0}),
        ("TTFT ≤ 300 ms", {"ttft_ms": 300.0}),
        ("first token in under 1 second", {"ttft_ms": 1000.0}),
        ("under 200 ms to first token", {"ttft_ms": 200.0}),
        ("ITL p95 < 30 ms", {"tpot_ms": 30.0, "latency_percentile": 95.0}),
        ("at least 30 tokens/s per user", {"tpot_ms": 1000 / 30}),
        # a latency not said to be per token: the wait for the first token, said so
        ("p95 latency under 300 ms", {"ttft_ms": 300.0, "latency_percentile": 95.0}),
        ("response time below 2 s", {"ttft_ms": 2000.0}),
        ("latency of at most 800ms", {"ttft_ms": 800.0}),
        ("interactive chat", {"interactive": True}),
        ("offline batch inference", {"interactive": False}),
    ],
)
def test_latency_phrases_read_with_their_percentile(
    phrase: str, expected: dict[str, object]
) -> None:
    f = _fields(f"serve llama 3.1 70b at 5000 tokens per second, {phrase}")
    assert f["output_tokens_per_s"] == 5000.0  # a per-user rate is never the total
    for field, value in expected.items():
        assert f[field] == pytest.approx(value)


def test_the_issue_s_serving_request_drops_nothing() -> None:
    f = _fields("serve llama 3.1 70b at 5000 tokens per second, p99 TTFT 500ms, 8k input")
    assert f == {
        "workload": "inference",
        "model": "llama-3.1-70b",
        "output_tokens_per_s": 5000.0,
        "isl_tokens": 8000,
        "ttft_ms": 500.0,
        "latency_percentile": 99.0,
    }


@pytest.mark.parametrize("text", ["serve 70b at 1000 tokens/s, each request is 2,000 tokens"])
def test_a_bare_token_count_in_serving_says_which_lengths_it_could_be(text: str) -> None:
    with pytest.raises(RequestError, match="neither input nor output"):
        parse_request(CAT, text)


@pytest.mark.parametrize("text", ["24/7 serving of 70b at 1000 tokens/s", "serve 70b 1/2 the time"])
def test_a_slash_without_a_k_is_not_a_shape(text: str) -> None:
    r = parse_request(CAT, text)
    assert (r.isl_tokens, r.osl_tokens) == (None, None)


def test_a_percentile_outside_50_to_100_is_refused() -> None:
    with pytest.raises(RequestError, match="not a latency percentile"):
        parse_request(CAT, "serve 70b at 1000 tokens/s, TTFT p10 200 ms")


@pytest.mark.parametrize(
    ("text", "rate"),
    [
        ("serve llama 3.1 70b at 100 requests/s with answers of 500 tokens", 50_000.0),
        ("serve llama 3.1 70b at 50 QPS, 2k input, 300 output tokens", 15_000.0),
        ("serve llama 3.1 70b to 1,000 concurrent users at 30 tokens/s each", 30_000.0),
        # a rate per minute or hour is a rate per second over its period (API limits say RPM)
        ("serve llama 3.1 70b at 1200 req/min, 500 output tokens", 10_000.0),
        ("serve llama 3.1 70b at 600 RPM with answers of 500 tokens", 5_000.0),
        ("serve llama 3.1 70b at 36,000 queries an hour, 300 output tokens", 3_000.0),
        # a thousands suffix with a space before the noun ("5k users")
        ("chatbot for 5k users at 20 tokens/s each, llama 3.3 70b", 100_000.0),
        # the people counted after them, and people other than 'users'
        ("host llama 3.1 70b for our developers, about 150 of them", 3_000.0),
        ("serve llama 3.1 70b to 300 engineers", 6_000.0),
        # a millions suffix: '2m requests per hour'
        ("serve llama 3.1 70b at 2m requests per hour, 300 output tokens", 500_000.0 / 3),
        # a rate said to be the peak is the load ("peak" was left unread)
        ("serve llama 3.3 70b, ~2000 req/min peak, 500 output tokens", 2000 / 60 * 500),
        ("serve llama 3.1 70b at 50 qps at peak, 300 output tokens", 15_000.0),
    ],
)
def test_a_load_in_requests_or_users_becomes_a_token_rate(text: str, rate: float) -> None:
    r = parse_request(CAT, text)
    assert r.output_tokens_per_s == pytest.approx(rate)
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "rate", "assumed"),
    [
        # 1000 output tokens per request and TPOT 50 ms: the catalog's serving assumptions
        ("serve llama 3.1 70b at 100 requests per second", 100_000.0, "1000 output tokens"),
        ("serve llama 3.1 70b to 1000 concurrent users", 20_000.0, "50 ms TPOT"),
        ("inference cluster for 10,000 concurrent users of a 70B chatbot", 200_000.0, "50 ms"),
    ],
)
def test_a_load_without_what_converts_it_takes_the_stated_serving_assumption(
    text: str, rate: float, assumed: str
) -> None:
    r = parse_request(CAT, text)
    assert r.output_tokens_per_s == pytest.approx(rate)
    assert r.tpot_ms is None  # left for the estimate to state as assumptions
    assert r.osl_tokens is None
    assert r.not_understood == []
    fields: dict[str, object] = {}
    phrases: dict[str, str] = {}
    key = "_concurrent" if "users" in text else "_requests_per_s"
    fields[key], phrases[key] = 1.0, "the load"
    to_tokens(fields, phrases, serving_defaults(CAT))
    assert assumed in phrases["output_tokens_per_s"]


def test_a_load_is_converted_with_the_defaults_given_not_a_constant() -> None:
    fields: dict[str, object] = {"_concurrent": 100.0}
    phrases = {"_concurrent": "100 concurrent users"}
    to_tokens(fields, phrases, {"osl_tokens": 500.0, "tpot_ms": 25.0})
    assert fields["output_tokens_per_s"] == pytest.approx(4_000.0)  # 100 x 40 tokens/s
    assert "assumed 25 ms TPOT" in phrases["output_tokens_per_s"]


def test_a_load_and_a_token_rate_that_disagree_are_refused() -> None:
    with pytest.raises(RequestError, match="makes 50,000 output tokens/s"):
        parse_request(CAT, "serve llama 3.1 70b at 100 req/s, 500 output tokens, 60000 tokens/s")


@pytest.mark.parametrize(
    "text",
    [
        "2 MW, as many B200 as possible",
        "as many H100 as will fit in 5 MW",
        "5 MW: as many as fit",
        "We have a 3 MW hall, what's the biggest H200 cluster we can build?",
        "the largest possible cluster in 10 MW",
    ],
)
def test_as_many_as_possible_asks_for_the_most_gpus(text: str) -> None:
    r = parse_request(CAT, text)
    assert r.objective == "most-gpus"
    assert r.not_understood == []


def test_as_possible_without_as_many_is_not_read_as_an_objective() -> None:
    r = parse_request(CAT, "512 GPUs training, 5 MW, delivered as soon as possible")
    assert r.objective != "most-gpus"


@pytest.mark.parametrize(
    "text",
    [
        "serve llama 3.1 70b at 5000 tokens/s with sub-second first token",
        "serve llama 3.1 70b at 5000 tokens/s, TTFT under a second",
        "serve llama 3.1 70b at 5000 tokens/s, first token in under one second",
        "serve llama 3.1 70b at 5000 tokens/s, sub-second latency",
    ],
)
def test_a_second_written_in_words_is_a_ttft_limit(text: str) -> None:
    r = parse_request(CAT, text)
    assert r.ttft_ms == pytest.approx(1000.0)
    assert r.not_understood == []


@pytest.mark.parametrize("who", ["users", "employees", "seats", "developers"])
def test_a_plain_user_count_is_a_load_read_as_concurrent_and_says_so(who: str) -> None:
    r = parse_request(CAT, f"serve llama 3.1 70b to 500 {who} at 30 tokens/s each")
    assert r.output_tokens_per_s == pytest.approx(15_000.0)
    assert any("read as concurrent" in n for n in r.understood)
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "isl", "sequence"),
    [
        ("inference for deepseek r1 with 100 concurrent users, 8k context", 8000, None),
        ("serve llama 3.1 70b at 5000 tokens/s, context window of 32k tokens", 32000, None),
        ("train llama 3.1 8b on 1T tokens in 10 days with 32k context", None, 32000),
        ("train a 70B model on 15T tokens in 60 days with 8k-token context", None, 8000),
    ],
)
def test_a_context_is_a_served_prompt_or_a_training_sequence(
    text: str, isl: int | None, sequence: int | None
) -> None:
    r = parse_request(CAT, text)
    assert (r.isl_tokens, r.sequence_tokens) == (isl, sequence)
    assert r.not_understood == []


def test_an_explicit_input_length_beats_a_context() -> None:
    r = parse_request(CAT, "serve llama 3.1 70b at 5000 tokens/s, 2k input, 8k context")
    assert r.isl_tokens == 2000


@pytest.mark.parametrize(
    ("text", "rate"),
    [
        ("inference for llama 3.1 70b, 1M tokens per minute", 1e6 / 60),
        ("serve llama 3.1 70b at 600k tokens/min", 10_000.0),
        ("serve llama 3.1 70b at 36 million tokens an hour", 10_000.0),
        ("serve llama 3.1 70b, 864M tokens/day", 10_000.0),
        ("offline batch inference of llama 3.1 405b, 2 billion output tokens per day", 2e9 / 86400),
    ],
)
def test_a_token_rate_per_minute_or_hour_is_read_over_its_period(text: str, rate: float) -> None:
    r = parse_request(CAT, text)
    assert r.output_tokens_per_s == pytest.approx(rate)
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "tokens_per_s"),
    [
        # who the users are, written between the count and "users", still counts them
        ("host Llama 3.3 70B for 500 internal users", 500),
        ("self-hosting qwen 2.5 72b for 200 employees", 200),
    ],
)
def test_users_of_a_hosted_model_are_a_serving_load(text: str, tokens_per_s: int) -> None:
    r = parse_request(load_catalog(), text)
    assert r.workload == "inference"
    assert r.output_tokens_per_s is not None
    assert r.output_tokens_per_s % tokens_per_s == 0  # the users times a rate per user
    assert r.not_understood == []


@pytest.mark.parametrize(
    "text", ["serving llama-3.1-8b to 10,000 daily active users", "serve llama 3 70b, 50k MAU"]
)
def test_a_user_base_is_refused_as_a_load(text: str) -> None:
    with pytest.raises(RequestError, match="user base, not a load"):
        parse_request(load_catalog(), text)


def test_host_parts_are_not_a_serving_verb() -> None:
    r = parse_request(load_catalog(), "64 H100 GPUs training, 2 TB host memory per node")
    assert r.workload == "training"


# serving regimes (issue 36): offline is read in the ways people say it, and a looser limit in the
# words people use for it
@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("offline", {"interactive": False}),
        ("in batch mode", {"interactive": False}),
        ("in batch", {"interactive": False}),
        ("no latency limit", {"interactive": False}),
        ("no latency constraints", {"interactive": False}),
        ("latency doesn't matter", {"interactive": False}),
        ("TPOT can be up to 200 ms", {"tpot_ms": 200.0}),
        ("ITL may go up to 120 ms at p99", {"tpot_ms": 120.0, "latency_percentile": 99.0}),
        ("TTFT should be under 3 s", {"ttft_ms": 3000.0}),
    ],
)
def test_serving_regime_phrases(phrase: str, expected: dict[str, object]) -> None:
    f = _fields(f"serve llama 3.1 70b at 5000 tokens per second, {phrase}")
    for field, value in expected.items():
        assert f[field] == pytest.approx(value)


@pytest.mark.parametrize(
    "text",
    [
        "train llama 3 70b on 15T tokens in 60 days, global batch 1024",
        "train llama 3 8b on 1T tokens in 10 days, batch size 512",
        "train llama 3 8b on 1T tokens in 10 days with micro batch 2",
    ],
)
def test_a_batch_size_is_not_offline_serving(text: str) -> None:
    assert parse_request(CAT, text).interactive is None


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("with vLLM", {"serving_engine": "vllm"}),
        ("on SGLang", {"serving_engine": "sglang"}),
        ("using TensorRT-LLM", {"serving_engine": "tensorrt-llm"}),
        ("with NVIDIA Dynamo", {"serving_engine": "dynamo"}),
        ("disaggregated prefill", {"disaggregated": True}),
        ("with MTP", {"speculative_decoding": True}),
        ("speculative decoding", {"speculative_decoding": True}),
    ],
)
def test_serving_stack_phrases(phrase: str, expected: dict[str, object]) -> None:
    f = _fields(f"serve llama 3.1 70b at 5000 tokens per second {phrase}")
    for field, value in expected.items():
        assert f[field] == value


@pytest.mark.parametrize(
    ("text", "streams"),
    [
        ("Serve Llama 3.1 70B to 5,000 users (about 10% active at peak)", 500),
        ("serve Llama 3.3 70B for 2,000 employees, 25% of them active at once", 500),
        ("Llama 3.1 8B inference for 1200 staff with 5% concurrent", 60),
        ("serve Qwen3 235B A22B to 10,000 users, 3% concurrently active", 300),
        ("serve Llama 3.1 8B to two thousand staff, 10% active at any given time", 200),
    ],
)
def test_a_share_active_at_once_scales_the_users_to_streams(text: str, streams: int) -> None:
    r = parse_request(load_catalog(), text)
    tpot_ms = 50.0  # the catalog's serving default, stated in the note
    assert r.output_tokens_per_s == pytest.approx(streams * 1e3 / tpot_ms)
    assert not r.not_understood
    note = next(n for n in r.understood if n.startswith(LOAD_NOTE))
    assert f"= {streams:,} streams" in note
    assert not r.not_understood


def test_a_share_with_no_users_is_refused() -> None:
    with pytest.raises(RequestError, match="share of users"):
        parse_request(load_catalog(), "serve Llama 3.1 70B, 10% active at peak, 1 MW")


def test_a_user_base_in_millions_is_refused_as_a_user_base() -> None:
    with pytest.raises(RequestError, match="user base"):
        parse_request(CAT, "Need to serve DeepSeek-V3 to 1M daily users")


def test_a_latency_per_token_or_end_to_end_is_not_a_first_token_limit() -> None:
    f = _fields("serve llama 3.1 70b at 5000 tokens per second, latency 40 ms per token")
    assert f.get("ttft_ms") is None
    assert f["tpot_ms"] == pytest.approx(40.0)
    # an end-to-end limit is split: the first token's share, the rest over the answer's tokens
    f = _fields("serve llama 3.1 70b at 5000 tokens per second, end-to-end latency under 10 s")
    assert f["ttft_ms"] == pytest.approx(1000.0)  # e2e-ttft-share 0.1
    assert f["tpot_ms"] == pytest.approx(9.0)  # 9 s over the default 1,000 tokens


@pytest.mark.parametrize(
    ("text", "ttft", "tpot"),
    [
        # the words after the figure; the answer's length stated
        ("Llama 3.1 70B, 57.9 requests/s, 300 output tokens, p95 latency 3s end to end", 300, 9),
        # a stated TTFT replaces the share
        (
            "Llama 3.1 70B, 100 concurrent users, TTFT 1 s, e2e latency 10 s, 500 output tokens",
            1000,
            18,
        ),
        # a stated TPOT that already holds the limit stands
        (
            "Llama 3.1 70B, 100 concurrent users, TPOT 10 ms, e2e latency 10 s, 500 output tokens",
            1000,
            10,
        ),
    ],
)
def test_an_end_to_end_limit_is_read_as_a_first_token_and_a_per_token_limit(
    text: str, ttft: float, tpot: float
) -> None:
    f = _fields(text)
    assert (f["ttft_ms"], f["tpot_ms"]) == (pytest.approx(ttft), pytest.approx(tpot))


def test_an_end_to_end_limit_the_first_token_uses_up_is_refused() -> None:
    with pytest.raises(RequestError, match="leaves nothing"):
        parse_request(CAT, "Llama 3.1 70B, 100 users, TTFT 5 s, end-to-end latency 3 s")


@pytest.mark.parametrize(
    "text", ["Llama 2 70B offline on 8 H200, FP8", "Mixtral 8x7B batch inference on H100"]
)
def test_an_offline_regime_for_a_model_is_serving_it(text: str) -> None:
    r = parse_request(CAT, text)
    assert r.workload == "inference"
    assert r.interactive is False


@pytest.mark.parametrize(
    "text",
    [
        "RAG assistant, Qwen 2.5 72B, 50 requests per second",
        "coding agents with DeepSeek V3, 200 concurrent sessions, 30 tok/s each",
        "an internal copilot on Llama 3.1 8B for 300 devs",
    ],
)
def test_an_application_a_person_waits_on_is_interactive_serving(text: str) -> None:
    r = parse_request(CAT, text)
    assert r.interactive is True
    assert r.output_tokens_per_s
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "gpus", "share"),
    [
        ("GPUs for both training and inference: 256 for training, 64 for serving", 320, 0.2),
        ("512 GPUs for training and 128 for inference", 640, 0.2),
    ],
)
def test_two_pools_counted_by_role_are_a_mixed_cluster(text: str, gpus: int, share: float) -> None:
    r = parse_request(CAT, text)
    assert (r.gpus, r.workload, r.serving_share) == (gpus, "mixed", share)
    assert r.not_understood == []


def test_a_concurrency_with_its_noun_left_out_is_read() -> None:
    text = "serve Llama 3.1 405B at FP4 on B300s, 1000 concurrent, TTFT 2s p95, 20 tok/s/user"
    r = parse_request(CAT, text)
    assert r.output_tokens_per_s == 20_000
    assert r.not_understood == []


def test_a_bare_speed_beside_many_users_is_each_users_speed() -> None:
    text = (
        "Serve a 70B model to 2,000 concurrent users with a 2 s time to first token and 30 tokens/s"
    )
    f = _fields(text)
    assert f["tpot_ms"] == pytest.approx(1e3 / 30)
    assert f["output_tokens_per_s"] == pytest.approx(2000 * 30)
    # a total that gives every stream at least a token a second stays a total (and clashes
    # with the assumed speed: the request must say which)
    with pytest.raises(RequestError, match="makes 400 output tokens/s"):
        parse_request(CAT, "serve Llama 3.1 8B to 20 concurrent users, 5000 tokens/s")


def test_an_embedding_load_beside_a_chat_load_is_said_and_the_chat_load_sized() -> None:
    text = (
        "We expect 3,000 QPS of embeddings plus a chat model; chat is Llama 3.1 8B with 500 "
        "concurrent sessions"
    )
    r = parse_request(CAT, text)
    assert r.output_tokens_per_s == pytest.approx(500 * 20)  # 500 streams at the assumed 50 ms
    assert any("embedding or reranking load" in u for u in r.understood)
    assert r.not_understood == []


def test_a_user_base_beside_its_stated_peak_is_the_base_and_the_peak_the_load() -> None:
    r = parse_request(
        CAT, "Serve Llama 3.3 70B to our 2,000 employees, about 300 concurrent at peak"
    )
    assert r.output_tokens_per_s == pytest.approx(300 * 20)  # 300 streams at the assumed 50 ms
    assert any("a user base of 2,000" in u for u in r.understood)
    assert not any("read as concurrent streams" in u for u in r.understood)
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "ttft_ms"),
    [
        ("gpt-oss-120b for ~300 devs, response should start within 2 seconds", 2000.0),
        ("Llama 3.3 70B for 200 agents, answers must begin streaming in under 1.5 s", 1500.0),
        ("Llama 3.3 70B for 200 users, first words within 800 ms", 800.0),
        ("Llama 3.3 70B for 200 users, responses should start within a second", 1000.0),
        ("Llama 3.3 70B for 200 users, response time under one second", 1000.0),
        ("Llama 3.3 70B for 200 users, latency should be under a second", 1000.0),
    ],
)
def test_when_the_reply_starts_is_its_first_token(text: str, ttft_ms: float) -> None:
    r = parse_request(CAT, text)
    assert r.ttft_ms == ttft_ms
    assert r.not_understood == []


@pytest.mark.parametrize(
    "text",
    [
        "an inference cluster for Llama 4 Maverick, 1,000 concurrent users, latency-sensitive",
        "Llama 3.3 70B, low latency, 500 users",
    ],
)
def test_latency_sensitive_serving_is_interactive(text: str) -> None:
    r = parse_request(CAT, text)
    assert r.interactive is True
    assert r.not_understood == []


def test_people_sharing_a_cluster_with_no_model_to_serve_are_no_serving_load() -> None:
    r = parse_request(
        CAT, "Slurm cluster with 128 B200 for a research lab, shared by 40 researchers"
    )
    assert r.output_tokens_per_s is None
    assert r.not_understood == []
    assert any("the people who share the cluster" in u for u in r.understood)
    served = parse_request(CAT, "serve Llama 3.3 70B to 40 researchers")
    assert served.output_tokens_per_s is not None


def test_a_user_base_sized_as_all_at_once_says_so_where_it_is_sized() -> None:
    r = parse_request(CAT, "serve Llama 3.3 70B to about 2,000 staff")
    line = next(u for u in r.understood if u.startswith("serving load sized for"))
    assert "all of them at once, an upper bound" in line
    shared = parse_request(CAT, "serve Llama 3.3 70B to 5,000 employees, 10% active at peak")
    line = next(u for u in shared.understood if u.startswith("serving load sized for"))
    assert "all of them at once" not in line
