"""The serving model with no latency limit against published MLPerf offline runs
(tests/engine/sizing/workload/serving/offline_runs.yaml, each with its source): output tokens/s
per GPU within the band the estimator states for the model, as a request that says "offline"
sizes it. Runs missed by a cause found and not yet modelled are strict expected failures, their
cause in test_server_runs.py (the same model's server runs miss the same way). A published
maximum-throughput run that states its sequences in flight (batch_points.yaml) holds the forward
model at that batch, and shows the anchor's share of DeepSeek-R1's miss."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from clustergen.catalog import load_catalog
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.sizing.workload.inputs import resolve_workload
from clustergen.engine.sizing.workload.serving.estimate import (
    BANDS_DENSE_PCT,
    BANDS_MOE_PCT,
    anchor,
)
from clustergen.engine.sizing.workload.serving.replica import Efficiency, build_replica
from clustergen.evals.calibration import offline_run_errors
from support.held_runs import held

CAT = load_catalog()
RUNS: list[dict[str, Any]] = yaml.safe_load(
    (Path(__file__).parent / "offline_runs.yaml").read_text()
)
#: the causes, said in test_server_runs.py (MIXTRAL_MISS, DEEPSEEK_MISS)
#: (the Mixtral 8x7B runs, at the set's mean prompt, are within the MoE band: H200 49 % under,
#: B200 33 %; what is left of their miss is MIXTRAL_MISS)
KNOWN_MISSES = {
    "mlperf-5.1-nvidia-b200x8-deepseek-r1-offline": "DeepSeek-R1: MLPerf v5.1's serving stack "
    "(83 % over; v6.0 ran the same GB300 1.48 x faster offline)",
    "mlperf-5.1-nvidia-gb200x72-deepseek-r1-offline": "DeepSeek-R1: as on B200 (123 % over)",
    "mlperf-5.1-nvidia-gb300x72-deepseek-r1-offline": "DeepSeek-R1: as on B200, no GB300 table "
    "(the forward model alone, 50.5 % over v5.1, 1.5 % over v6.0's 8,661 per GPU)",
}


@pytest.mark.parametrize("run", held(RUNS, KNOWN_MISSES))
def test_offline_run_tokens_per_gpu_within_the_stated_band(run: dict[str, Any]) -> None:
    """Within the forward model's band (a run's model has no published table at its GPU and
    precision, or an anchored one: the wider band of the two)."""
    (found,) = offline_run_errors(CAT, [run])
    band = (BANDS_MOE_PCT if found.moe else BANDS_DENSE_PCT)[1] / 100
    assert abs(found.error) <= band, f"{found.estimated:.1f} vs {found.published:.1f}"


LATER: list[dict[str, Any]] = yaml.safe_load(
    (Path(__file__).parent / "later_runs.yaml").read_text()
)


@pytest.mark.parametrize("run", [r for r in LATER if "ttft_ms" not in r], ids=lambda r: r["id"])
def test_deepseek_r1_offline_on_the_later_stack_is_within_the_stated_band(
    run: dict[str, Any],
) -> None:
    """MLPerf v6.0's DeepSeek-R1 offline run on 4 x GB300 NVL72 (later_runs.yaml: 8,661 output
    tokens/s per GPU, 1.48 x v5.1's on the same hardware) within the forward model's MoE band
    (modelled 8,792): the v5.1 runs' miss is their stack's (DEEPSEEK_MISS)."""
    (found,) = offline_run_errors(CAT, [run])
    assert abs(found.error) <= BANDS_MOE_PCT[1] / 100, (
        f"{found.estimated:.1f} vs {found.published:.1f}"
    )


def test_every_offline_run_names_its_source_and_no_limit() -> None:
    for run in RUNS:
        assert run["source"].startswith("MLPerf Inference v5.")
        assert "ttft_ms" not in run
        assert "tpot_ms" not in run


POINTS: list[dict[str, Any]] = yaml.safe_load(
    (Path(__file__).parent / "batch_points.yaml").read_text()
)


def _at_the_published_batch(point: dict[str, Any], anchored: bool) -> float:
    """Output tokens/s per GPU of the point's replica at its stated sequences in flight, the
    forward model alone or scaled by the published table's anchor as the estimator scales it."""
    request = DesignRequest(
        model=point["model"],
        gpu=point["gpu"],
        precision=point["precision"],
        isl_tokens=point["isl_tokens"],
        osl_tokens=point["osl_tokens"],
        interactive=False,
        workload="inference",
    )
    w = resolve_workload(CAT, request)
    eff = Efficiency.of(CAT)
    rep = build_replica(
        w.arch,
        w.gpu,
        w.precision,
        point["gpus"],
        1,
        w.isl,
        w.osl,
        eff,
        point["layout"],
        w.nvlink_gpus,
    )
    assert rep is not None
    if anchored:
        rep = anchor(CAT, w, eff).on(rep)
    return rep.per_gpu(min(point["sequences_in_flight"], rep.max_batch))


@pytest.mark.parametrize("point", POINTS, ids=lambda p: p["id"])
def test_the_forward_model_at_a_published_batch_is_within_its_band(point: dict[str, Any]) -> None:
    """DeepSeek-R1 DEP8 on B200 at the 7,168 sequences TensorRT-LLM's recipe ran: the forward
    model's step gives its rate within the MoE band (11 % over)."""
    modelled = _at_the_published_batch(point, anchored=False)
    assert abs(modelled / point["tokens_per_s_per_gpu"] - 1) <= BANDS_MOE_PCT[1] / 100


@pytest.mark.xfail(
    strict=True, reason="DeepSeek-R1: a late-2025 table's stack against a mid-2025 recipe's"
)
@pytest.mark.parametrize("point", POINTS, ids=lambda p: p["id"])
def test_the_anchored_model_at_a_published_batch_is_within_the_anchored_band(
    point: dict[str, Any],
) -> None:
    """The same replica anchored to TensorRT-LLM's DEP4 table (perf overview, late 2025,
    attention-DP balancing on; its rows deliver 1.1-1.4 x the model's max throughput): 48 %
    over the mid-2025 recipe's measured rate (no attention-DP balancing), the stack's share of
    DEEPSEEK_MISS (test_server_runs.py) at a batch the publisher states."""
    modelled = _at_the_published_batch(point, anchored=True)
    assert abs(modelled / point["tokens_per_s_per_gpu"] - 1) <= BANDS_MOE_PCT[0] / 100
