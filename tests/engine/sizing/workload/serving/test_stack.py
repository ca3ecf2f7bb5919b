"""The serving stack: speculative decoding's acceptance by draft depth, and the published
DeepSeek-R1 curves with disaggregated prefill/decode and MTP (issue 36's criterion)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from clustergen.catalog import load_catalog
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.sizing.workload.inputs import resolve_workload
from clustergen.engine.sizing.workload.serving.replica import (
    Efficiency,
    build_replica,
    speculative_tokens,
)
from clustergen.engine.sizing.workload.serving.stack import Stack
from clustergen.evals.calibration import FigureError, curve_errors

CAT = load_catalog()
CURVES = yaml.safe_load((Path(__file__).parent / "stack_curves.yaml").read_text())


def _rows() -> dict[str, FigureError]:
    return {r.label.split(" ", 1)[1]: r for r in curve_errors(CAT, CURVES)}


def test_later_drafts_are_accepted_less_often_than_the_first() -> None:
    """A module trained one token ahead, reused for the later drafts, predicts them less well:
    3 drafts emit fewer tokens than a constant rate would give, 1 draft the same."""
    stack = Stack.of(CAT, resolve_workload(CAT, DesignRequest(model="deepseek-r1", gpu="b200")))
    a, r = stack.acceptance, stack.acceptance_deeper
    assert r < a
    assert speculative_tokens(1, a, r) == pytest.approx(1 + a)
    assert speculative_tokens(3, a, r) == pytest.approx(1 + a + a * r + a * r * r)
    assert speculative_tokens(3, a, r) < speculative_tokens(3, a)
    assert speculative_tokens(0, a, r) == 1.0


def test_mtp_at_one_user_gives_tensorrt_llm_s_measured_speed_up_and_rate() -> None:
    """TensorRT-LLM tech blogs 1 and 2, DeepSeek-R1 FP4 on 8 x B200, batch 1, ISL/OSL 1k/2k:
    3 MTP drafts give 253 tokens/s per user and 2.16 x the rate without drafts (the fit of the
    deeper acceptance and the MoE layer's fixed time: a check that they still hold together)."""
    request = DesignRequest(
        model="deepseek-r1", gpu="b200", precision="fp4", speculative_decoding=True
    )
    w = resolve_workload(CAT, request)
    stack = Stack.of(CAT, w)
    rep = build_replica(w.arch, w.gpu, "fp4", 8, 1, 1024, 2048, Efficiency.of(CAT), "tp", 8)
    assert rep is not None
    plain = 1 / rep.tpot_s(1)
    drafted = 1 / stack.apply(rep, 3).tpot_s(1)
    assert drafted == pytest.approx(253, rel=0.03)
    assert drafted / plain == pytest.approx(2.16, rel=0.03)


def test_nvl72_over_b200_at_125_tokens_per_user_is_within_issue_36_s_range() -> None:
    """Issue 36: the GB200/B200 ratio at 125 tokens/s per user between 3.1 and 5.7 x (measured
    4.39 x): wide EP on the rack's NVLink against EP over 8-GPU nodes' NICs."""
    rows = _rows()
    gb200 = rows["gb200 at 125 tokens/s per user"].estimated
    b200 = rows["b200 at 125 tokens/s per user"].estimated
    assert 3.1 <= gb200 / b200 <= 5.7


def test_the_curves_at_low_interactivity_and_on_nvl72_are_within_a_quarter() -> None:
    """At 25 tokens/s per user (batches large enough to amortise the expert reads and the
    all-to-all floor) both points are within 25 % of the measured curves, and so is every GB200
    NVL72 point (wide EP on the rack's NVLink at 75 and 125, TEP8 at 200)."""
    rows = _rows()
    for gpu in ("gb200", "b200"):
        assert abs(rows[f"{gpu} at 25 tokens/s per user"].error) <= 0.25
    for rate in (75, 125, 200):
        assert abs(rows[f"gb200 at {rate} tokens/s per user"].error) <= 0.25


def test_a_few_users_per_tep8_instance_at_200_tokens_per_user_are_within_a_quarter() -> None:
    """At 200 tokens/s per user a TEP8 decode instance serves 5-8 users: a step reads only the
    experts its tokens route to, a drafted token mostly reusing its sequence's (it was 28-41 %
    under with drafts routed independently)."""
    rows = _rows()
    for gpu in ("gb200", "b200"):
        assert abs(rows[f"{gpu} at 200 tokens/s per user"].error) <= 0.25


def test_six_of_the_eight_published_points_are_within_a_quarter() -> None:
    """Issue 36's done-when: output tokens/s per GPU within +-25 % of measured at 25, 75, 125 and
    200 tokens/s per user on at least 6 of the 8 points (7 today: B200 at 75 is 37 % under)."""
    within = [r for r in _rows().values() if abs(r.error) <= 0.25]
    assert len(within) >= 6
