"""Expert parallelism with attention data parallelism (DEP) or tensor-parallel attention (TEP)
against tensor parallelism (TP):
weights per GPU, the MLA cache TP copies, the all-to-all, and the layout the estimator picks."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.sizing.workload.inputs import resolve_workload
from clustergen.engine.sizing.workload.llm import arch_of
from clustergen.engine.sizing.workload.serving.estimate import choose_replica
from clustergen.engine.sizing.workload.serving.experts import (
    Layout,
    all_to_all_bytes_per_token,
    all_to_all_latency_s,
    all_to_all_s_per_token,
    kv_copies,
    weights_per_gpu,
)
from clustergen.engine.sizing.workload.serving.replica import (
    Efficiency,
    build_replica,
    moe_efficiency,
    moe_overhead_s,
)

CAT = load_catalog()
EFF = Efficiency.of(CAT)
R1 = arch_of(CAT.model("deepseek-r1"), None)
assert R1 is not None


def test_dep_keeps_the_shared_weights_whole_on_every_gpu() -> None:
    """DeepSeek-R1 FP8: about 16.5 GB shared (attention, dense layers, shared expert,
    embeddings) on every GPU plus 1/N of the 654 GB of routed experts; TP splits all 671 GB."""
    shared, routed = R1.expert_split()
    assert shared / 1e9 == pytest.approx(16.5, abs=0.5)
    dep8 = weights_per_gpu(R1, Layout("dep", 8), 1.0)
    assert dep8 == pytest.approx(shared + routed / 8)
    assert weights_per_gpu(R1, Layout("tp", 8), 1.0) == pytest.approx(671e9 / 8)
    assert dep8 > weights_per_gpu(R1, Layout("tp", 8), 1.0)


def test_tp_copies_the_mla_latent_to_every_rank_and_dep_copies_nothing() -> None:
    assert kv_copies(R1, Layout("tp", 8)) == 8
    assert kv_copies(R1, Layout("dep", 8)) == 1
    llama = arch_of(CAT.model("llama-3.3-70b"), None)
    assert llama is not None
    assert kv_copies(llama, Layout("tp", 8)) == 1


def test_the_all_to_all_moves_k_x_hidden_per_moe_layer_and_costs_more_over_nodes() -> None:
    """58 MoE layers x 8 experts x 7,168 wide x (1 B FP8 dispatch + 2 B BF16 combine)."""
    assert all_to_all_bytes_per_token(R1, "fp8") == 58 * 8 * 7168 * 3
    h100 = CAT.gpu("h100-sxm")
    inside = all_to_all_s_per_token(R1, "fp8", Layout("dep", 8), h100, 8, 50.0)
    across = all_to_all_s_per_token(R1, "fp8", Layout("dep", 16), h100, 8, 50.0)
    assert inside is not None
    assert across is not None
    assert 0 < inside < across
    assert all_to_all_s_per_token(R1, "fp8", Layout("tp", 8), h100, 8, 50.0) == 0.0


def test_unknown_nvlink_is_never_free() -> None:
    """A GPU with no NVLink figure cannot cost a DEP all-to-all: no DEP replica on it."""
    l40s = CAT.gpu("l40s")
    assert l40s.nvlink_gb_per_s is None
    assert all_to_all_s_per_token(R1, "fp8", Layout("dep", 8), l40s, 8, 50.0) is None
    assert build_replica(R1, l40s, "fp8", 8, 1, 1000, 1000, EFF, "dep", 8) is None


def test_dep_holds_more_sequences_than_tp_for_an_mla_model() -> None:
    h200 = CAT.gpu("h200")
    tp = build_replica(R1, h200, "fp8", 8, 1, 1000, 1000, EFF, "tp", 8)
    dep = build_replica(R1, h200, "fp8", 8, 1, 1000, 1000, EFF, "dep", 8)
    assert tp is not None
    assert dep is not None
    assert dep.max_batch > 4 * tp.max_batch
    assert dep.tokens_per_s(dep.max_batch) > 1.5 * tp.tokens_per_s(tp.max_batch)


def test_deepseek_r1_is_served_expert_parallel_not_tp_x_pp() -> None:
    """The brief's example: DeepSeek-R1 at 50 tokens/s per user on H100 was TP8 x PP2 at 19
    output tokens/s per GPU; expert parallel over nodes serves it at many times that (with its
    MTP drafts, as R1 is served: plain decoding pays ~10 ms of MoE layers' fixed cost a step)."""
    request = DesignRequest(
        model="deepseek-r1",
        gpu="h100-sxm",
        workload="inference",
        output_tokens_per_s=5000,
        tpot_ms=20,
        speculative_decoding=True,
    )
    choice, _ = choose_replica(CAT, resolve_workload(CAT, request))
    assert choice is not None
    assert choice.replica.layout == "dep"
    per_gpu = choice.replica.tokens_per_s(choice.batch) / choice.replica.gpus
    assert per_gpu > 100


def test_pipeline_stages_hold_the_weights_once() -> None:
    """TP8 x PP2 of Llama 3.1 405B BF16 on H100 holds 810 GB of weights once over 16 GPUs
    (480 GB left for the cache), not once per stage."""
    arch = arch_of(CAT.model("llama-3.1-405b"), None)
    assert arch is not None
    rep = build_replica(arch, CAT.gpu("h100-sxm"), "bf16", 8, 2, 1000, 1000, EFF)
    assert rep is not None
    assert rep.max_batch > 100


def test_beyond_the_nvlink_domain_every_copy_crosses_the_nic() -> None:
    """Decode's low-latency all-to-all is pure RDMA once a replica spans nodes: all 15 of 16
    copies go over the 50 GB/s port, not only the 8 on other nodes."""
    h100 = CAT.gpu("h100-sxm")
    per_token = all_to_all_bytes_per_token(R1, "fp8")
    across = all_to_all_s_per_token(R1, "fp8", Layout("dep", 16), h100, 8, 50.0)
    assert across == pytest.approx(per_token * 15 / 16 / 50e9 / 16)


def test_bigger_experts_run_closer_to_the_dense_efficiency() -> None:
    """R1's 7168 x 2048 experts multiply faster per FLOP than Qwen3-30B-A3B's 2048 x 768; a
    dense model runs at the dense efficiency."""
    qwen = arch_of(CAT.model("qwen3-30b-a3b"), None)
    dense = arch_of(CAT.model("llama-3.3-70b"), None)
    assert qwen is not None
    assert dense is not None
    assert moe_efficiency(R1, EFF) > 1.5 * moe_efficiency(qwen, EFF)
    assert moe_efficiency(R1, EFF) <= 1.0
    assert moe_efficiency(dense, EFF) == 1.0


def test_a_moe_layer_pays_more_fixed_time_than_a_dense_one() -> None:
    """Router and grouped GEMMs: R1's 58 MoE layers cost the step far more than 61 dense
    layers would."""
    dense_only = EFF.step_overhead_s_per_layer * 61
    assert moe_overhead_s(R1, EFF) > 2.5 * dense_only


@pytest.mark.parametrize(("ep", "measured_us"), [(8, 49.9), (16, 49.6), (32, 51.2), (64, 60.4)])
def test_the_dispatch_and_combine_floor_is_tensorrt_llm_s_measured_one(
    ep: int, measured_us: float
) -> None:
    """TensorRT-LLM tech blog 18 (GB200 NVL72, DeepSeek-V3 shape, one token per rank):
    dispatch + combine latency per MoE layer at EP 8-64, within 3 us."""
    per_layer = all_to_all_latency_s(
        R1, Layout("dep", ep), EFF.a2a_latency_s_per_layer, EFF.a2a_latency_s_per_rank
    )
    assert per_layer / 58 * 1e6 == pytest.approx(measured_us, abs=3.0)


def test_a_dep_replica_pays_the_all_to_all_floor_every_step_and_tp_does_not() -> None:
    """DEP's dispatch and combine are a fixed cost of every step (58 MoE layers: ~3 ms for R1),
    on top of the per-layer costs fitted on a TP replica; a wider EP group pays more."""
    tp = build_replica(R1, CAT.gpu("b200"), "fp4", 8, 1, 1000, 1000, EFF, "tp", 8)
    dep8 = build_replica(R1, CAT.gpu("b200"), "fp4", 8, 1, 1000, 1000, EFF, "dep", 8)
    dep32 = build_replica(R1, CAT.gpu("gb200"), "fp4", 32, 1, 1000, 1000, EFF, "dep", 72)
    assert tp is not None
    assert dep8 is not None
    assert dep32 is not None
    assert dep8.overhead_s - tp.overhead_s == pytest.approx(58 * 48.3e-6, rel=0.02)
    assert dep32.overhead_s > dep8.overhead_s
    assert all_to_all_latency_s(R1, Layout("tp", 8), 1.0, 1.0) == 0.0


def test_tep_reads_whole_experts_at_the_full_bandwidth_and_splits_like_tp() -> None:
    """TEP (attention TP, experts spread): the same weights and KV copies per GPU as TP, no
    all-to-all floor, but each expert is read whole on its GPU, not in TP slices that pay the
    TP^-exponent: its routed reads are faster by 8^0.2."""
    b200 = CAT.gpu("b200")
    tp = build_replica(R1, b200, "fp4", 8, 1, 1000, 1000, EFF, "tp", 8)
    tep = build_replica(R1, b200, "fp4", 8, 1, 1000, 1000, EFF, "tep", 8)
    assert tp is not None
    assert tep is not None
    assert tep.shape == "TEP8"
    assert tep.max_batch == pytest.approx(tp.max_batch)
    assert tep.overhead_s == pytest.approx(tp.overhead_s)
    assert tep.routed_s == pytest.approx(tp.routed_s * 8 ** (-EFF.tp_exponent))
    assert kv_copies(R1, Layout("tep", 8)) == 8


def test_a_drafted_step_reads_each_sequence_s_cache_once() -> None:
    """Speculative decoding verifies 1 + d tokens of a sequence in one pass: its decode math is
    paid 1 + d times, its KV cache read once."""
    rep = build_replica(R1, CAT.gpu("b200"), "fp4", 8, 1, 1000, 1000, EFF, "tep", 8)
    assert rep is not None
    assert 0 < rep.kv_seq_s < rep.per_seq_s
    drafted = rep.speculating(3, 0.85, 0.0)
    math_part = (rep.per_seq_s - rep.kv_seq_s) * 4
    assert drafted.per_seq_s == pytest.approx(math_part + rep.kv_seq_s)


@pytest.mark.parametrize(
    ("ep", "dispatch_us", "combine_us"), [(16, 173, 329), (32, 182, 350), (64, 186, 353)]
)
def test_beyond_the_nvlink_domain_the_floor_plus_the_bytes_give_deep_ep_s_latency(
    ep: int, dispatch_us: float, combine_us: float
) -> None:
    """DeepEP README, low-latency kernels with pure RDMA (H800, CX7 ~50 GB/s, 128 tokens per
    rank, V3's shape): the bytes the model costs at the port rate plus the RDMA floor give the
    measured dispatch + combine latency per MoE layer within 15 us (3 %; the model counts
    no FP8 scales)."""
    h100 = CAT.gpu("h100-sxm")
    per_token = all_to_all_s_per_token(R1, "fp8", Layout("dep", ep), h100, 8, 50.0)
    assert per_token is not None
    # seconds of the replica per token x its GPUs = one GPU's seconds; per MoE layer
    bytes_us = per_token * ep * 128 / 58 * 1e6
    floor = all_to_all_latency_s(
        R1,
        Layout("dep", ep),
        EFF.a2a_latency_s_per_layer,
        EFF.a2a_latency_s_per_rank,
        8,
        EFF.a2a_latency_s_per_layer_rdma,
    )
    assert bytes_us + floor / 58 * 1e6 == pytest.approx(dispatch_us + combine_us, abs=15.0)
    inside = all_to_all_latency_s(
        R1, Layout("dep", 8), EFF.a2a_latency_s_per_layer, EFF.a2a_latency_s_per_rank, 8, 1.0
    )
    assert inside / 58 == pytest.approx(
        EFF.a2a_latency_s_per_layer + 8 * EFF.a2a_latency_s_per_rank
    )


def test_b200_keeps_deepseek_r1_decode_inside_the_node_at_125_tokens_per_user() -> None:
    """NVIDIA's B200 recipes (InferenceX, dsr1-fp4-b200-dynamo-trt) never run decode EP wider
    than 8: with the RDMA floor a wide DEP group over the NICs loses to TEP8 at 8 ms per token."""
    request = DesignRequest(
        model="deepseek-r1",
        gpu="b200",
        precision="fp4",
        isl_tokens=1000,
        osl_tokens=1000,
        tpot_ms=8,
        serving_engine="dynamo",
        disaggregated=True,
        speculative_decoding=True,
        workload="inference",
    )
    choice, _ = choose_replica(CAT, resolve_workload(CAT, request))
    assert choice is not None
    assert choice.replica.gpus <= 8
