"""The MLPerf Inference benchmark catalog loads, names catalog models, and sources every value."""

import pytest

from clustergen.catalog import load_catalog
from clustergen.catalog.workload_models import LanguageModel, MlperfBenchmark

CAT = load_catalog()
BENCHES = CAT.all(MlperfBenchmark)


def test_the_benchmarks_the_issue_names_are_held() -> None:
    models = {b.model for b in BENCHES}
    assert {"llama-2-70b", "llama-3.1-405b", "mixtral-8x7b"} <= models


@pytest.mark.parametrize("bench", BENCHES, ids=lambda b: b.id)
def test_every_value_is_sourced(bench: MlperfBenchmark) -> None:
    assert CAT.get(LanguageModel, bench.model).id == bench.model
    assert bench.source.startswith("CONF")  # the limits: loadgen/mlperf.conf
    for field in ("isl_tokens", "osl_tokens"):
        if getattr(bench, field) is not None:
            assert field in bench.field_sources, field


@pytest.mark.parametrize(
    ("bench", "scenario", "ttft", "tpot"),
    [
        ("mlperf-llama2-70b", "server", 2000, 200),
        ("mlperf-llama2-70b", "interactive", 450, 40),
        ("mlperf-llama3.1-405b", "server", 6000, 175),
        ("mlperf-llama3.1-405b", "interactive", 4500, 80),
        ("mlperf-mixtral-8x7b", "server", 2000, 200),
        ("mlperf-llama3.1-8b", "interactive", 500, 30),
        ("mlperf-deepseek-r1", "server", 2000, 80),
    ],
)
def test_limits_are_mlperf_conf(bench: str, scenario: str, ttft: float, tpot: float) -> None:
    """mlcommons/inference loadgen/mlperf.conf, <benchmark>[-interactive].Server.*_latency."""
    limits = CAT.get(MlperfBenchmark, bench).scenarios[scenario]  # type: ignore[index]
    assert (limits.ttft_p99_ms, limits.tpot_p99_ms) == (ttft, tpot)


def test_offline_holds_no_limit() -> None:
    for bench in BENCHES:
        offline = bench.scenarios["offline"]
        assert offline.ttft_p99_ms is None
        assert offline.tpot_p99_ms is None


def test_a_limit_on_offline_is_refused() -> None:
    with pytest.raises(ValueError, match="only the server and interactive"):
        MlperfBenchmark.model_validate(
            {
                "id": "x",
                "name": "x",
                "model": "llama-2-70b",
                "benchmark": "x",
                "dataset": "x",
                "scenarios": {"offline": {"ttft_p99_ms": 1}},
                "source": "test",
                "as_of": "2025-04",
            }
        )
