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
    BANDS_MOE_PCT,
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
#: DeepSeek-R1, 50-278 % over (offline +50/+83/+123 %, server +177/+226/+278 % on GB300, B200,
#: GB200). Found (2026-11-29, r1): the anchor to TensorRT-LLM's DEP4 table (perf overview, late
#: 2025, attention-DP balancing on) was carried as a per-sequence factor solved on the DEP4
#: replica, whose step is mostly floor (expert weights read): 1.1-5.5 x over the B200 and
#: GB200 rows where their max throughput is 1.1-1.4 x the model's, x1.97 at 1000/3886 (B200),
#: which sped the DEP8-DEP32
#: replicas (mostly per-sequence work) up by the whole 1.9-2.0 x; it is now carried as the
#: rows' ratio of max throughputs (serving/estimate.py Anchor.on), which took B200/GB200 from
#: +126/+199 % to +83/+123 % offline and +306/+417 % to +226/+278 % server. What is left is
#: the serving stack the v5.1 runs used, not the hardware: MLPerf Inference v6.0 (2026-04-01,
#: NVIDIA's blog as reported by storagereview.com and others) ran the same GB300 NVL72 on the
#: same DeepSeek-R1 scenarios at 8,064 output tokens/s per GPU in the server scenario (2.77 x
#: v5.1's 2,907) and 2,494,310 tokens/s on 288 GPUs offline (8,661 per GPU, 1.48 x v5.1's
#: 5,842), crediting TensorRT-LLM's fused kernels, attention data parallelism balanced across
#: ranks and load balancing across ranks; the model gives GB300 8,792 offline and 8,050 server
#: (within 2 % of v6.0; later_runs.yaml, held below). TensorRT-LLM's own mid-2025 B200 DEP8 recipe (batch_points.yaml, no
#: attention-DP balancing) runs 1.48 x slower than the model anchored to the late-2025 table.
#: So the v5.1 server/offline ratio of 0.50-0.58 was that stack's (v6.0: 0.93, modelled 0.92):
#: a prompt prefilled on one attention-DP rank holds every rank at each MoE layer's all-to-all
#: (12 ms of a 1,000-token prompt's attention and shared layers on one B200 at the model's FP8
#: prefill rate, in 72 % of the steps at B200 DEP8's 1.3 prompts a step: some 10 % of its
#: 81 ms step) until the ranks' prompts are balanced. Not modelled: the
#: estimator sizes the current stack. Ruled out (2026-11-29, r1-mlperf): MLA's attention over
#: the growing context, the KV reservation (the prompt plus the whole output per sequence, as
#: GUARANTEED_NO_EVICT reserves it; v6.0's 8,064 per GPU at 80 ms needs some 640 sequences per
#: GPU, the model's 643 at GB300 DEP32); not carried either: the EP load imbalance at DEP32 (the
#: hottest of 32 ranks gets 2.56 x the mean tokens a step without EPLB, of 36 with 288 slots
#: 1.12 x: TensorRT-LLM examples/ep_load_balancer/README.md, read 2026-11-29), since the fitted MoE efficiency already holds DEP4-8's
#: and GB200 NVL72 runs with EPLB (InferenceX recipes eplb288)
DEEPSEEK_MISS = (
    "DeepSeek-R1: MLPerf v5.1's serving stack, 1.5-2.8 x slower than v6.0's on the same GB300 "
    "(see DEEPSEEK_MISS)"
)
RUNS: list[dict[str, Any]] = yaml.safe_load(
    (Path(__file__).parent / "server_runs.yaml").read_text()
)
#: runs held only to the regime's worst case (below), each for a reason the model does not
#: carry: MLPerf v5.0 on Blackwell ran an FP4 stack 30-40 % slower than the same GPUs five
#: months later (B200 405B server: 845 then 1,240 tokens/s); B200 under the interactive limits
#: is modelled 32 % over where GB200 at the same limits is matched. Read 2026-11-29 (NVIDIA's
#: v5.1 configs, closed/NVIDIA/configs/<system>/<scenario>/<benchmark>.py, through the copy
#: ykamiset/inference_results_v5.1): NVIDIA ran 405B as TP4 replicas on both B200 (two per
#: 8-GPU board: batch 256, max_num_tokens 1536 interactive, 2048 server) and GB200 (1024
#: interactive, 2048 server), the layout the model chooses; the B200 run's interactive rate
#: per replica is 0.68 x GB200's where its server rate is 0.96 x (modelled 0.91 x and 0.92 x):
#: a B200-only loss under the tight limits, not the layout: recorded, not tuned away
OUTSIDE_BAND = {
    "mlperf-5.0-nvidia-b200x8-llama-3.1-405b-server",
    "mlperf-5.0-nvidia-gb200x72-llama-3.1-405b-server",
    "mlperf-5.1-nvidia-b200x8-llama-3.1-405b-interactive",
    # modelled 38 % over: GB300's FP4 peak is 1.5 x GB200's (15 and 10 PFLOPS dense,
    # catalog/gpus.yaml) where its FP8 peak is the same (5 PFLOPS), and the model carries the
    # FP4 one whole on the linear layers (no TensorRT-LLM table for GB300 to anchor it), where
    # the v5.1 405B runs got 1.09 x GB200's per GPU offline and 1.06 x in the server scenario
    # (offline modelled +18 %, GB200 -12 %: offline_runs.yaml). Attention's math over the
    # context runs at the FP8 peak (an FP4 checkpoint quantizes only the linear layers:
    # serving/replica.py), which took this run from +45 % to +38 % and offline from +22 %;
    # at 9,400-token prompts that math is only some 5 % of the 405B's FLOPs, so the rest of
    # the gap is in the linear layers' FP4 GEMMs, not the attention (2026-11-29, fp4attn).
    # NVIDIA ran TP2 replicas (its config), the model's choice; at the run's load (26.6 in
    # flight per replica) the modelled p99 TTFT and TPOT are 10-14 % under the log's, and the
    # run stopped at 79 % of the TTFT limit and 57 % of the TPOT one where the model fills the
    # batch to 6 s
    "mlperf-5.1-nvidia-gb300x72-llama-3.1-405b-server",
    # modelled 47 % over (server +24 %, offline +17 %). NVIDIA's v5.1 configs ran the three
    # scenarios on one engine: TP1, batch up to 6,000, max_num_tokens 12,000 (one 940-token
    # prompt is one chunk), inflight batching with chunked context; only the loadgen target
    # differs (1,100 / 1,000 / 800 queries/s on 8 GPUs), as the model has it (TP1, one chunk).
    # At 940-token prompts the 8B replica is compute-bound on its prompts (66 % of its step,
    # a floor of 2 ms of 28), so its throughput is flat in the batch: the 500 ms / 30 ms
    # limits cost it 5 % where the run lost 20 %. Not the TPOT tail: the v5.1 interactive
    # logs at hand measure p99 / mean TPOT 1.09-1.10 (GB200 405B, GB200 70B), and the 8B
    # would need about 3 to lose 20 % on the modelled step (a 10 ms mean step under a 30 ms
    # p99); not the TTFT (89 ms modelled at p99 of the 500).
    # The same under-counted loss shows on every dense model under the interactive limits
    # (run / its server run: 8B 0.80, 70B 0.60, 405B GB200 0.85; modelled 0.95, 0.81, 0.89):
    # at the GB200 interactive runs' loads the model's mean TPOT is within 3 % of the logs',
    # but the runs stopped at 84-90 % of the p99 TPOT limit (and 27-76 % of the TTFT one)
    # where the model fills the batch up to the limit
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


LATER: list[dict[str, Any]] = yaml.safe_load(
    (Path(__file__).parent / "later_runs.yaml").read_text()
)


@pytest.mark.parametrize("run", [r for r in LATER if "ttft_ms" in r], ids=lambda r: r["id"])
def test_deepseek_r1_server_on_the_later_stack_is_within_the_limited_band(
    run: dict[str, Any],
) -> None:
    """MLPerf v6.0's DeepSeek-R1 server run on GB300 NVL72 (later_runs.yaml: 8,064 output
    tokens/s per GPU, 2.77 x v5.1's on the same hardware) within the band a limited MoE
    estimate without a table states (modelled 8,050)."""
    per_gpu = {**run, "tokens_per_s": run["tokens_per_s_per_gpu"], "gpus": 1}
    (found,) = server_run_errors(CAT, [per_gpu])
    band = (BANDS_MOE_PCT[1] + BAND_LIMITED_EXTRA_PCT) / 100
    assert abs(found.error) <= band, f"{found.estimated:.1f} vs {found.published:.1f}"


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
#: GB200 NVL72 405B interactive (v5.1 log): p99 / mean TPOT 1.09 measured, 1.25 modelled at
#: its load (its server run beside it: 1.23 measured, 1.20 modelled). Its config cut the step's
#: token budget from the server's 2,048 to 1,024 (max_num_tokens), so a 9,400-token prompt
#: rides ten steps at half the cost each; the Poisson count of prompts over one request's life
#: does not see that; the modelled p99 TTFT at its load is 4.7 s where the log has 3.4 s
TPOT_TAIL_MISSES = {
    "mlperf-5.1-nvidia-gb200x72-llama-3.1-405b-interactive": (
        "GB200 405B interactive: p99 / mean TPOT 1.09 measured, 1.25 modelled (a 1,024-token "
        "step budget; see TPOT_TAIL_MISSES)"
    ),
}


@pytest.mark.parametrize("run", held(TPOT, TPOT_TAIL_MISSES))
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
