"""One serving replica as a prefill/decode time model."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.sizing.workload.llm import arch_of
from clustergen.engine.sizing.workload.serving.replica import Efficiency, Replica, build_replica

CAT = load_catalog()
EFF = Efficiency.of(CAT)


def _replica(model: str, gpu: str, tp: int, isl: int, osl: int, precision: str = "fp8") -> Replica:
    arch = arch_of(CAT.model(model), None)
    assert arch is not None
    rep = build_replica(arch, CAT.gpu(gpu), precision, tp, 1, isl, osl, EFF)
    assert rep is not None
    return rep


def test_memory_left_after_the_weights_caps_the_batch() -> None:
    """Llama 3.1 405B FP8 (406 GB) needs TP8 on 80 GB H100: TP4 holds no KV cache at all."""
    assert _replica("llama-3.1-405b", "h100", 4, 1000, 1000).max_batch == 0
    assert _replica("llama-3.1-405b", "h100", 8, 1000, 1000).max_batch > 100


def test_throughput_rises_and_latency_grows_with_the_batch() -> None:
    rep = _replica("llama-3.3-70b", "h100", 2, 1000, 1000)
    assert rep.tokens_per_s(64) < rep.tokens_per_s(256)
    assert rep.step_s(64) < rep.step_s(256)
    assert rep.ttft_s(64) < rep.ttft_s(256)


def test_limits_bound_the_batch() -> None:
    rep = _replica("llama-3.3-70b", "h100", 2, 1000, 1000)
    b = rep.best_batch(None, 0.05)
    assert 1 <= b < rep.max_batch
    assert rep.step_s(b) == pytest.approx(0.05, rel=1e-3)
    assert rep.best_batch(None, rep.step_s(1) / 2) == 0


def test_long_prompts_lose_more_than_short_ones_under_the_same_limits() -> None:
    """Under MLPerf's Llama 2 70B server limits (p99 TTFT 2 s, TPOT 200 ms) the share of max
    throughput kept falls with the prompt length: prefill takes more of each step, so the TTFT
    limit cuts the batch (TRT-LLM's shapes)."""

    def kept(isl: int, osl: int) -> float:
        rep = _replica("llama-3.3-70b", "h100", 2, isl, osl).at_percentile(0.99)
        limited = rep.tokens_per_s(rep.best_batch(2.0, 0.2))
        return limited / rep.tokens_per_s(rep.max_batch)

    assert kept(1000, 1000) > 0.95
    assert kept(20000, 2000) < 0.8 * kept(1000, 1000)


def test_a_replica_delivers_a_lower_load_with_fewer_sequences() -> None:
    rep = _replica("llama-3.3-70b", "h200", 1, 1000, 1000)
    full = rep.tokens_per_s(rep.max_batch)
    half = rep.batch_for(full / 2)
    assert rep.tokens_per_s(half) == pytest.approx(full / 2, rel=1e-3)
    assert rep.ttft_s(half) < rep.ttft_s(rep.max_batch)


def test_ttft_at_load_queues_behind_other_prompts_and_the_tail_waits_longer() -> None:
    """One prompt alone waits for nothing; at load the prefill is busy and a prompt queues
    (Kingman, Poisson arrivals): the mean grows, the p99 more, and both diverge as the prefill
    share nears 1."""
    rep = _replica("llama-3.3-70b", "h100", 2, 5000, 500)
    alone = rep.pp * rep.prefill_s + rep.chunks * rep.decode_s(1e-9)
    assert rep.ttft_s(1e-9) == pytest.approx(alone, rel=1e-6)
    p99 = rep.at_percentile(0.99)
    for b in (10.0, 40.0, 80.0):
        assert alone < rep.ttft_s(b) < p99.ttft_s(b)
    assert rep.prefill_share(80) > rep.prefill_share(10)
    assert p99.ttft_s(80) > 2 * p99.ttft_s(10)


def test_every_step_pays_a_fixed_cost_per_layer() -> None:
    """One user's TPOT is weights over bandwidth plus a per-layer step cost (fitted to NIM's
    one-user inter-token latency), so it is never below the step overhead."""
    rep = _replica("llama-3.1-8b", "h100", 1, 1000, 1000)
    assert rep.overhead_s == pytest.approx(32 * EFF.step_overhead_s_per_layer)
    assert rep.step_s(1) > rep.overhead_s + rep.shared_s


def test_an_anchor_meets_the_published_row_without_speeding_up_one_user() -> None:
    """A max-throughput row calibrates the per-sequence work; one sequence's step (weights read
    and the fixed cost) stays as modelled."""
    rep = _replica("llama-3.3-70b", "h100", 2, 1000, 1000)
    target = 1.3 * rep.tokens_per_s(rep.max_batch)
    fitted = rep.anchored(rep.batch_factor(target))
    assert fitted.tokens_per_s(fitted.max_batch) == pytest.approx(target, rel=1e-6)
    assert fitted.floor_s(1.0) == pytest.approx(rep.floor_s(1.0))
    assert fitted.step_s(1.0) > rep.scaled(1.3).step_s(1.0)


def _dep8(model: str, gpu: str, isl: int, precision: str = "fp4") -> Replica:
    arch = arch_of(CAT.model(model), None)
    assert arch is not None
    rep = build_replica(arch, CAT.gpu(gpu), precision, 8, 1, isl, 2000, EFF, "dep", 8)
    assert rep is not None
    return rep


def test_an_fp4_moe_attends_at_the_fp8_peak_only_its_experts_are_fp4() -> None:
    """DeepSeek-R1's FP4 checkpoint quantizes only the routed experts, and TensorRT-LLM runs its
    attention in FP8 (tech blog 3): what a longer context adds to a sequence's step (MLA's math
    over the cache, the cache read) costs GB300 (15 PF FP4, 5 PF FP8, 8 TB/s) what it costs
    GB200 (10 PF FP4, 5 PF FP8, 8 TB/s); the routed experts' math alone is faster on GB300."""
    added = {
        gpu: _dep8("deepseek-r1", gpu, 9000).per_seq_s - _dep8("deepseek-r1", gpu, 1000).per_seq_s
        for gpu in ("gb200", "gb300")
    }
    assert added["gb300"] == pytest.approx(added["gb200"], rel=1e-9)
    assert (
        _dep8("deepseek-r1", "gb300", 1000).per_seq_s
        < _dep8("deepseek-r1", "gb200", 1000).per_seq_s
    )


def test_a_dense_fp4_model_attends_at_the_fp8_peak_only_its_linear_layers_are_fp4() -> None:
    """A dense FP4 checkpoint quantizes only its linear layers (nvidia/Llama-3.1-405B-Instruct-FP4
    model card): what a longer context adds to a sequence's step (attention's math over the
    cache, the cache read) costs GB300 (15 PF FP4, 5 PF FP8, 8 TB/s) what it costs GB200 (10 PF
    FP4, 5 PF FP8, 8 TB/s), and so does the attention a longer prompt adds beyond its linear
    layers; the linear layers alone are faster on GB300."""

    def rep(gpu: str, isl: int) -> Replica:
        return _replica("llama-3.1-405b", gpu, 4, isl, 1000, "fp4")

    added = {gpu: rep(gpu, 9000).per_seq_s - rep(gpu, 1000).per_seq_s for gpu in ("gb200", "gb300")}
    assert added["gb300"] == pytest.approx(added["gb200"], rel=1e-9)
    # a prompt 9 x as long: 9 x the linear layers' math, and causal attention beyond 9 x
    beyond = {gpu: rep(gpu, 9000).prefill_s - 9 * rep(gpu, 1000).prefill_s for gpu in added}
    assert beyond["gb300"] == pytest.approx(beyond["gb200"], rel=1e-9)
    assert rep("gb300", 1000).prefill_s < rep("gb200", 1000).prefill_s
    assert rep("gb300", 1000).per_seq_s < rep("gb200", 1000).per_seq_s
