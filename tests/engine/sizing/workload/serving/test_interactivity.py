"""Serving at a stated interactivity: the default TPOT, tokens/s per user, TTFT at a percentile,
the throughput-vs-interactivity table, the GPUs that meet what one does not, edge warnings."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.sizing.workload import estimate_request
from clustergen.engine.sizing.workload.inputs import resolve_workload
from clustergen.engine.sizing.workload.serving.estimate import estimate_inference
from clustergen.engine.sizing.workload.serving.interactivity import (
    USER_RATES,
    interactivity_table,
    meets_on,
)

CAT = load_catalog()
SERVE_405B = {"model": "llama-3.1-405b", "output_tokens_per_s": 20000, "ttft_ms": 2000}


def _request(**fields: object) -> DesignRequest:
    return DesignRequest.model_validate({"workload": "inference", **fields})


def test_a_request_without_interactivity_is_held_to_the_default_and_says_so() -> None:
    w = resolve_workload(CAT, _request(**SERVE_405B))
    default = float(CAT.assumption("tpot-ms").value)
    assert w.tpot_s == pytest.approx(default / 1e3)
    assert w.tpot_assumed
    assert any(a.field == "tpot_ms" and "tokens/s per user" in a.reason for a in w.assumed)
    est, _ = estimate_inference(CAT, w)
    assert est.tpot_ms is not None
    assert est.tpot_ms <= default
    assert est.tokens_per_s_per_user == pytest.approx(1e3 / est.tpot_ms, rel=0.01)


def test_a_stated_tpot_is_not_replaced() -> None:
    w = resolve_workload(CAT, _request(**SERVE_405B, tpot_ms=30))
    assert w.tpot_s == pytest.approx(0.030)
    assert not w.tpot_assumed


def test_tighter_interactivity_needs_more_gpus() -> None:
    """The README example: 20,000 tokens/s of Llama 3.1 405B on H100 needs more GPUs at 28.6
    tokens/s per user than at the default 20, and those more than at max throughput (33 per
    user, TPOT 30 ms, is under the 31 ms one sequence alone takes on TP8: the weights' read
    and the fixed step cost, which a max-throughput table does not speed up)."""
    gpus = []
    for tpot in (1e5, None, 35):
        fields = {**SERVE_405B, "gpu": "h100", **({"tpot_ms": tpot} if tpot else {})}
        est, _ = estimate_inference(CAT, resolve_workload(CAT, _request(**fields)))
        gpus.append(est.gpus_required or 0)
    assert gpus[0] < gpus[1] < gpus[2]


def test_ttft_at_the_p99_is_longer_than_the_mean() -> None:
    fields = {**SERVE_405B, "gpu": "h100", "isl_tokens": 5000, "osl_tokens": 500}
    mean, _ = estimate_inference(CAT, resolve_workload(CAT, _request(**fields)))
    p99, _ = estimate_inference(CAT, resolve_workload(CAT, _request(**fields), percentile=0.99))
    assert p99.latency_percentile == 0.99
    assert mean.latency_percentile is None
    assert (p99.ttft_ms or 0) > (mean.ttft_ms or 0)
    # holding the tail to the same limit leaves fewer sequences per replica: as many or more GPUs
    assert (p99.gpus_required or 0) >= (mean.gpus_required or 0)


def test_the_interactivity_table_falls_as_users_get_faster_and_ends_where_no_replica_meets_it() -> (
    None
):
    w = resolve_workload(CAT, _request(model="llama-3.3-70b", isl_tokens=1000, osl_tokens=1000))
    table = interactivity_table(CAT, w, [CAT.gpu("h100"), CAT.gpu("b200")])
    for gpu in ("h100-sxm", "b200"):
        column = [p for p in table if p.gpu == gpu]
        assert [p.tokens_per_s_per_user for p in column] == list(USER_RATES)
        values = [p.tokens_per_s_per_gpu for p in column]
        met = [v for v in values if v is not None]
        assert met
        assert values[: len(met)] == met  # once not met, never met again
        assert met[0] >= met[-1]
        assert all(
            p.tpot_ms == pytest.approx(1e3 / p.tokens_per_s_per_user, rel=1e-3) for p in column
        )
    # a faster GPU serves more per GPU at every interactivity both meet
    h100 = {p.tokens_per_s_per_user: p.tokens_per_s_per_gpu for p in table if p.gpu == "h100-sxm"}
    for p in table:
        if p.gpu == "b200" and p.tokens_per_s_per_gpu and h100[p.tokens_per_s_per_user]:
            assert p.tokens_per_s_per_gpu > h100[p.tokens_per_s_per_user]


def test_not_met_names_the_gpus_that_meet_it() -> None:
    """50 tokens/s per user of Llama 3.1 405B: one H100 sequence alone takes about 30 ms per
    token, so H100 cannot; Blackwell's bandwidth can."""
    w = resolve_workload(CAT, _request(**SERVE_405B, gpu="h100", tpot_ms=20))
    est, unmet = estimate_inference(CAT, w)
    assert not est.feasible
    assert unmet
    others = meets_on(CAT, w)
    assert others
    assert not any(o.startswith("h100") for o in others)
    assert any(o.startswith("b200") for o in others)
    full, _ = estimate_request(CAT, _request(**SERVE_405B, gpu="h100", tpot_ms=20))
    assert full.meets_on == others
    assert full.interactivity


def test_an_impossible_default_interactivity_is_not_met_rather_than_refused() -> None:
    """The default TPOT is an assumption: a GPU that cannot reach it gives NOT MET with the
    GPUs that can, never a refusal of the request."""
    est, _ = estimate_request(
        CAT, _request(model="llama-3.1-405b", gpu="a100", output_tokens_per_s=1000)
    )
    assert est.kind == "inference"


def test_a_plan_at_the_edge_of_feasibility_is_warned() -> None:
    """Llama 3.1 405B FP8 on H200 with 8k prompts under a 2 s TTFT: the TTFT limit cuts the batch,
    and a stack as much slower as the band would lose far more throughput than that."""
    fields = {
        "model": "llama-3.1-405b", "gpu": "h200", "precision": "fp8", "isl_tokens": 8192,
        "osl_tokens": 1024, "ttft_ms": 2000, "output_tokens_per_s": 5000,
    }  # fmt: skip
    est, _ = estimate_inference(CAT, resolve_workload(CAT, _request(**fields)))
    assert est.feasible
    assert any("feasibility edge" in text for text in est.warnings)
    relaxed = {**fields, "isl_tokens": 1000, "osl_tokens": 1000, "tpot_ms": 1e5, "ttft_ms": 1e5}
    calm, _ = estimate_inference(CAT, resolve_workload(CAT, _request(**relaxed)))
    assert calm.warnings == []


def test_no_looser_rate_serves_less_per_gpu_than_a_tighter_one() -> None:
    """A replica that gives each user 50 tokens/s gives them 30 too: the table once showed
    Mixtral 8x7B on B200 at 2,839 tokens/s per GPU at 30 per user and 2,962 at 50 (the chooser
    took a smaller replica near the best at the looser rate)."""
    request = DesignRequest(
        workload="inference", model="mixtral-8x7b", gpu="b200", isl_tokens=4000,
        osl_tokens=512, output_tokens_per_s=50_000,
    )  # fmt: skip
    w = resolve_workload(CAT, request)
    table = interactivity_table(CAT, w)
    for gpu in {p.gpu for p in table}:
        column = [p.tokens_per_s_per_gpu for p in table if p.gpu == gpu]
        met = [v for v in column if v is not None]
        assert met == sorted(met, reverse=True), (gpu, column)
