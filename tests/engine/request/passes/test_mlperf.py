"""An MLPerf Inference benchmark named with a scenario sizes what the benchmark measures: the
dataset's mean lengths and the scenario's p99 limits, where the request does not state them."""

import pytest

from clustergen.catalog import load_catalog
from clustergen.catalog.workload_models import MlperfBenchmark
from clustergen.engine.request import parse_request
from clustergen.errors import RequestError

CAT = load_catalog()


def _bench(model: str) -> MlperfBenchmark:
    return next(b for b in CAT.all(MlperfBenchmark) if b.model == model)


@pytest.mark.parametrize(
    ("text", "model", "scenario"),
    [
        ("Llama 2 70B on 8 H200, MLPerf server scenario", "llama-2-70b", "server"),
        ("MLPerf server for Llama 3.1 405B on GB200 NVL72", "llama-3.1-405b", "server"),
        (
            "Llama 3.1 405B on 8 B200, MLPerf Inference v5.1 interactive",
            "llama-3.1-405b",
            "interactive",
        ),
        ("Llama 2 70B on 8 H200, mlperf interactive", "llama-2-70b", "interactive"),
    ],
)
def test_a_latency_scenario_sets_its_lengths_and_p99_limits(
    text: str, model: str, scenario: str
) -> None:
    r = parse_request(CAT, text)
    bench = _bench(model)
    limits = bench.scenarios[scenario]  # type: ignore[index]
    assert r.not_understood == []
    assert (r.isl_tokens, r.osl_tokens) == (bench.isl_tokens, bench.osl_tokens)
    assert (r.ttft_ms, r.tpot_ms) == (limits.ttft_p99_ms, limits.tpot_p99_ms)
    assert r.latency_percentile == 99
    note = next(u for u in r.understood if "MLPerf Inference" in u)
    assert scenario.capitalize() in note
    assert "(dataset means)" in note


def test_the_server_note_reads_as_the_benchmark_defines_it() -> None:
    r = parse_request(CAT, "Llama 2 70B on 8 H200, MLPerf server")
    assert (
        "'mlperf server' -> MLPerf Inference Llama 2 70B Server: ISL/OSL 300/294 (dataset means), "
        "TTFT p99 <= 2 s, TPOT p99 <= 200 ms"
    ) in r.understood


@pytest.mark.parametrize(
    "text",
    ["Llama 2 70B on 8 H200, MLPerf offline", "Llama 2 70B on 8 H200, MLPerf offline scenario"],
)
def test_offline_is_maximum_throughput_at_the_dataset_lengths(text: str) -> None:
    r = parse_request(CAT, text)
    assert r.not_understood == []
    assert r.interactive is False
    assert (r.isl_tokens, r.osl_tokens) == (300, 294)
    assert r.ttft_ms is None
    assert r.tpot_ms is None


def test_mixtral_is_read_at_its_sets_mean_prompt_and_answer() -> None:
    """The catalog's Mixtral prompt is derived from the set's per-sample lengths: the request
    takes it, not the serving default."""
    r = parse_request(CAT, "Mixtral 8x7B MLPerf v5.0 offline")
    bench = _bench("mixtral-8x7b")
    assert bench.isl_tokens is not None
    assert (r.isl_tokens, r.osl_tokens) == (bench.isl_tokens, bench.osl_tokens)
    note = next(u for u in r.understood if "MLPerf Inference" in u)
    assert "(dataset means)" in note


def test_an_unpublished_prompt_length_stays_the_requests_to_give() -> None:
    r = parse_request(CAT, "DeepSeek-R1 MLPerf v5.1 offline")
    assert r.isl_tokens is None
    assert r.osl_tokens == _bench("deepseek-r1").osl_tokens
    note = next(u for u in r.understood if "MLPerf Inference" in u)
    assert "mean prompt is not in the catalog (assumed)" in note


def test_what_the_request_states_is_kept() -> None:
    r = parse_request(CAT, "Llama 2 70B on 8 H200, MLPerf server, p90 TTFT 1 s, 1000 input tokens")
    assert (r.isl_tokens, r.osl_tokens) == (1000, 294)
    assert (r.ttft_ms, r.tpot_ms) == (1000, 200)
    assert r.latency_percentile == 90
    note = next(u for u in r.understood if "MLPerf Inference" in u)
    assert "held at the request's p90" in note


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("Qwen3 32B on 8 H100, MLPerf offline", "no benchmark of qwen3-32b"),
        ("Llama 2 70B on 8 H200, MLPerf", "names no scenario"),
        ("Mixtral 8x7B MLPerf interactive", "no interactive scenario"),
        ("MLPerf offline on 8 H200", "no model"),
    ],
)
def test_what_the_catalog_cannot_answer_is_refused(text: str, says: str) -> None:
    with pytest.raises(RequestError, match=says):
        parse_request(CAT, text)


def test_the_refusal_names_the_models_benchmarked() -> None:
    with pytest.raises(RequestError) as err:
        parse_request(CAT, "Qwen3 32B on 8 H100, MLPerf offline")
    for name in ("Llama 2 70B", "Llama 3.1 405B", "Mixtral 8x7B"):
        assert name in str(err.value.hint)


def test_the_training_suite_is_not_read_as_inference() -> None:
    r = parse_request(CAT, "Llama 3.1 405B pre-training on 512 H100 like MLPerf Training")
    assert not any("MLPerf Inference" in u for u in r.understood)


def test_a_training_request_naming_mlperf_is_not_refused() -> None:
    r = parse_request(CAT, "Llama 3.1 405B pre-training on 512 H100, like MLPerf")
    assert not any("MLPerf Inference" in u for u in r.understood)
