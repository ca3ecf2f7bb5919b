"""The serving model under p99 latency limits against published MLPerf server and interactive
runs (tests/engine/sizing/workload/serving/server_runs.yaml, each with its source): output
tokens/s per GPU within the band the estimator states when a limit binds; where the run's log
gives them, the long-prompt runs' sequences in flight and p99 TTFT, and the p99 / mean TPOT.
Runs the model misses by a cause found and not yet modelled (Mixtral 8x7B, DeepSeek-R1) are
strict expected failures, their causes written beside them (MIXTRAL_MISS, DEEPSEEK_MISS)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
import yaml

from clustergen.catalog import load_catalog
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.sizing.workload.inputs import resolve_workload
from clustergen.engine.sizing.workload.serving.estimate import (
    BAND_LIMITED_EXTRA_PCT,
    BANDS_DENSE_PCT,
    choose_replica,
)
from clustergen.engine.sizing.workload.serving.replica import md1_wait
from clustergen.evals.calibration import server_run_errors
from support.held_runs import held

CAT = load_catalog()
#: Mixtral 8x7B, 34-51 % under (offline_runs.yaml: 49 and 33 % under, within the MoE band): at
#: the set's mean prompt (428 tokens, catalog/mlperf_benchmarks.yaml; the 1,000 the reader fell
#: back to left the runs 67-76 % under) the prompts are still 70 % of the modelled H200 step, and
#: the routed experts, 87 % of the FLOPs, run at the MoE efficiency of Mixtral's 4096 x 14336
#: experts (0.34 of the dense) where the runs' rates need 0.55 (B200) to 0.75 (H200): the H200
#: run does about 40 % of the FP8 peak over prompts and answers. Ruled out (2026-11-29, mixtral):
#: the curve's extrapolation in expert size (TensorRT-LLM perf-overview.md's 63 Llama 4 Scout
#: and Maverick rows, 5120 x 8192 experts 3 x past the fit and in no fit, modelled at mean -1 %,
#: RMS 17 %); a size curve saturating at the dense efficiency (where it brings Mixtral within
#: 35 %, the 136 MoE rows' RMS goes 27 -> 32-76 %); prompt chunks' experts at the dense
#: efficiency (RMS 65 %); a term in tokens per expert (k/E x batch: no trend in the 136 rows'
#: errors). Mixtral's routed share k/E = 1/4 (2 of 8: large GEMMs per expert at any batch) lies
#: outside every published table (1/128-1/8); the curve's cap, no expert faster than the dense
#: efficiency, does not bind (0.34)
MIXTRAL_MISS = "Mixtral: routed experts at k/E = 1/4, beyond the MoE tables (see MIXTRAL_MISS)"
#: DeepSeek-R1, 50-417 % over: the TensorRT-LLM DEP4 table it is anchored to (3,862 tokens/s per
#: GPU at 1024/8192, the MLPerf offline run 4,172 at about 1000/3886) is matched at its own
#: shape, but the anchor scales only the per-sequence work, so the DEP8-DEP32 replicas with 2-3 x
#: the table's sequences per GPU (KV room the spread experts free) gain throughput in proportion;
#: the runs' server/offline ratio (0.50-0.58 under an 80 ms p99 TPOT) says the real step at
#: maximum throughput is well over 80 ms where the modelled one is 65 ms. Ruled out as the main
#: cause (2026-11-29, r1-mlperf): MLA's attention over the growing context (modelled absorbed,
#: 17 MFLOP per cached token per generated token, 0.7 x the matmuls at 2.9k; now at the FP8 peak
#: it runs at, which took GB300 from +70/+219 % to +50/+177 %), the KV reservation (already the
#: prompt plus the whole output per sequence, as TensorRT-LLM's default GUARANTEED_NO_EVICT
#: reserves it), and the prompts riding in DEP steps (a prompt's attention on one rank while the
#: others wait: an estimated 3-8 ms a step at these loads). Carrying the DEP4 factor only to DEP4 replicas
#: brings B200/GB200 to +47/+66 % offline and +164/+186 % server, but leaves InferenceX's GB200
#: NVL72 DEP32 point at 75 tokens/s per user 32 % under (test_stack.py): not merged
DEEPSEEK_MISS = (
    "DeepSeek-R1: anchored per-sequence speed extrapolated to wider DEP (see DEEPSEEK_MISS)"
)
RUNS: list[dict[str, Any]] = yaml.safe_load(
    (Path(__file__).parent / "server_runs.yaml").read_text()
)
#: runs held only to the regime's worst case (below), each for a reason the model does not
#: carry: MLPerf v5.0 on Blackwell ran an FP4 stack 30-40 % slower than the same GPUs five
#: months later (B200 405B server: 845 then 1,240 tokens/s); B200 under the interactive limits
#: is modelled 33 % over where GB200 at the same limits is matched (the layout NVIDIA ran on an
#: 8-GPU domain is not known): recorded, not tuned away
OUTSIDE_BAND = {
    "mlperf-5.0-nvidia-b200x8-llama-3.1-405b-server",
    "mlperf-5.0-nvidia-gb200x72-llama-3.1-405b-server",
    "mlperf-5.1-nvidia-b200x8-llama-3.1-405b-interactive",
    # modelled 48 % over: at 940-token prompts the 8B replica is compute-bound on its prompts,
    # so the 500 ms / 30 ms limits cost it 5 % where the run lost 20 % to them (as the 405B
    # B200 interactive run above)
    "mlperf-5.1-nvidia-b200x8-llama-3.1-8b-interactive",
}
#: runs missed by more than half, each for a cause found and not yet modelled (no sourced rule
#: to fix it): held as strict expected failures, so a change that brings one in says so
MISSED_BY_HALF = {
    "mlperf-5.0-nvidia-h200x8-mixtral-8x7b-server": MIXTRAL_MISS,
    "mlperf-5.1-nvidia-b200x8-deepseek-r1-server": DEEPSEEK_MISS,
    "mlperf-5.1-nvidia-gb200x72-deepseek-r1-server": DEEPSEEK_MISS,
    "mlperf-5.1-nvidia-gb300x72-deepseek-r1-server": DEEPSEEK_MISS,
}
#: and the runs missed by more than the band, not by half (B200 Mixtral server, 34 % under)
KNOWN_MISSES = {
    **MISSED_BY_HALF,
    "mlperf-5.0-nvidia-b200x8-mixtral-8x7b-server": MIXTRAL_MISS,
}


def _choice(run: dict[str, Any]) -> tuple[Any, float]:
    request = DesignRequest(
        model=run["model"],
        gpu=run["gpu"],
        precision=run["precision"],
        isl_tokens=run["isl_tokens"],
        osl_tokens=run["osl_tokens"],
        ttft_ms=run["ttft_ms"],
        tpot_ms=run["tpot_ms"],
        latency_percentile=99,
        workload="inference",
    )
    choice, _ = choose_replica(CAT, resolve_workload(CAT, request))
    assert choice is not None
    return choice.replica, choice.batch


@pytest.mark.parametrize(
    "run", held([r for r in RUNS if r["id"] not in OUTSIDE_BAND], KNOWN_MISSES)
)
def test_server_run_tokens_per_gpu_within_the_limited_band(run: dict[str, Any]) -> None:
    (found,) = server_run_errors(CAT, [run])
    band = (BANDS_DENSE_PCT[0] + BAND_LIMITED_EXTRA_PCT) / 100
    assert abs(found.error) <= band, f"{found.estimated:.1f} vs {found.published:.1f}"


@pytest.mark.parametrize("run", held(RUNS, MISSED_BY_HALF))
def test_no_server_run_is_missed_by_more_than_half(run: dict[str, Any]) -> None:
    """Those outside the band included: none more than 50 % off."""
    (found,) = server_run_errors(CAT, [run])
    assert abs(found.error) <= 0.5, f"{found.estimated:.1f} vs {found.published:.1f}"


LONG = [r for r in RUNS if r["isl_tokens"] >= 4096 and "sequences_in_flight" in r]


@pytest.mark.parametrize("run", LONG, ids=lambda r: r["id"])
def test_long_prompts_keep_tens_of_sequences_in_flight(run: dict[str, Any]) -> None:
    """~9,400-token prompts under a 6 s p99 TTFT: the replica keeps at least 60 % of the
    sequences the run had in flight per GPU (the exponential tail it replaced kept 4-5 per
    8-GPU replica where the H200 run held 16)."""
    rep, batch = _choice(run)
    measured_per_gpu = run["sequences_in_flight"] / run["gpus"]
    assert batch / rep.gpus >= 0.6 * measured_per_gpu


@pytest.mark.parametrize("run", LONG, ids=lambda r: r["id"])
def test_p99_ttft_at_the_runs_load_is_within_the_limit_and_near_the_measured(
    run: dict[str, Any],
) -> None:
    """At the run's own sequences in flight the modelled p99 TTFT is within 40 % above the
    measured one or below it, and under the 6 s limit for the Hopper run that sat on it."""
    rep, _ = _choice(run)
    batch = min(run["sequences_in_flight"] * rep.gpus / run["gpus"], rep.max_batch)
    ttft = rep.ttft_s(batch) * 1e3
    assert ttft <= 1.4 * run["ttft_p99_ms"] + 1e3
    assert ttft >= 0.7 * run["ttft_p99_ms"]


def test_md1_tail_is_lighter_than_the_exponential_and_zero_when_mostly_idle() -> None:
    """The deterministic server's p99 wait is about half the exponential one in heavy traffic,
    shorter at moderate load, and zero while fewer than 1 % of prompts find it busy."""
    s = 1.0
    for rho in (0.3, 0.6, 0.9):
        exponential = s / (1 - rho) * math.log(rho / 0.01)
        assert md1_wait(rho, s, 0.99) < exponential
    assert md1_wait(0.95, s, 0.99) == pytest.approx(0.5 * s / 0.05 * math.log(95), rel=0.05)
    assert md1_wait(0.005, s, 0.99) == 0.0
    assert md1_wait(0.5, s, 0.99) < md1_wait(0.6, s, 0.99)


TPOT = [r for r in RUNS if "tpot_p99_ms" in r]


@pytest.mark.parametrize("run", TPOT, ids=lambda r: r["id"])
def test_p99_tpot_over_the_mean_follows_the_prompts_riding_along(run: dict[str, Any]) -> None:
    """At the run's load the modelled p99 / mean TPOT is never above the measured ratio (a
    request sees a Poisson count of prompts ride along, no more), and within 0.1 of it where
    30 or more sequences are in flight per replica (the H200 405B run's 16 add the spread of
    prompt lengths the model does not carry)."""
    rep, _ = _choice(run)
    batch = min(run["sequences_in_flight"] * rep.gpus / run["gpus"], rep.max_batch)
    modelled = rep.tpot_s(batch) / rep.at_percentile(None).tpot_s(batch)
    measured = run["tpot_p99_ms"] / run["tpot_mean_ms"]
    assert 1.0 < modelled <= measured + 0.05
    if batch >= 30:
        assert modelled == pytest.approx(measured, abs=0.1)
