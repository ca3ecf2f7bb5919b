"""The offline runner: the planner for a design, the tool its kind names for every other case."""

from __future__ import annotations

from typing import Any

import pytest

from clustergen.catalog import load_catalog
from clustergen.evals.cases import CaseBase, load_cases
from clustergen.evals.offline import OfflineRunner
from clustergen.tools import default_registry


@pytest.mark.parametrize(
    ("case_id", "key"),
    [
        ("h100-table4-1su", "fabrics"),
        ("h100-table3-4su", "fabric"),
        ("power-first-dgx-b200-1mw", "it_total_w"),
        ("ra-seed-128-training", "recommendation"),
        ("storage-best-4su", "read_gb_per_s"),
        ("seed-memo-5mw-config", "seed_comparison"),
    ],
)
def test_offline_runner_answers_every_kind(case_id: str, key: str) -> None:
    (case,) = load_cases(case_ids=[case_id])
    run = OfflineRunner(load_catalog()).run(case)
    assert run.error is None
    assert run.result_json is not None
    assert key in run.result_json
    assert run.stats is None


def test_offline_runner_returns_refusals_as_answers() -> None:
    (case,) = load_cases(case_ids=["adv-infiniband-and-ethernet"])
    run = OfflineRunner(load_catalog()).run(case)
    assert run.result_json is None
    assert run.error is not None
    assert run.error["type"] == "request_error"


def _kinds() -> list[type[CaseBase]]:
    """Every concrete case kind: the leaves below CaseBase (shared bases in between)."""
    leaves, todo = [], list(CaseBase.__subclasses__())
    while todo:
        k = todo.pop()
        below = k.__subclasses__()
        todo += below
        if not below:
            leaves.append(k)
    return sorted(leaves, key=lambda k: k.__name__)


@pytest.mark.parametrize("kind", _kinds(), ids=lambda k: k.__name__)
def test_every_kind_but_design_and_seed_config_names_a_tool_with_its_result(
    kind: type[CaseBase],
) -> None:
    if kind.__name__ in {"DesignCase", "SeedConfigCase"}:
        assert kind.tool is None
        return
    assert kind.tool is not None
    tool = default_registry().tools[kind.tool]
    assert tool.result is kind.result_model


def test_every_tool_answered_case_is_a_valid_call_of_its_tool() -> None:
    reg = default_registry()
    cases = [c for c in load_cases() if c.tool is not None]
    assert {c.kind for c in cases} == {
        "fabric",
        "power",
        "ra",
        "storage",
        "training_estimate",
        "inference_estimate",
        "budget_estimate",
    }
    for case in cases:
        assert case.tool is not None
        reg.parse_args(case.tool, case.tool_arguments())


def test_a_call_the_tool_refuses_is_a_request_error() -> None:
    (case,) = load_cases(case_ids=["h100-table3-4su"])
    bad: Any = case.model_copy(update={"call": case.call.model_copy(update={"nodes": 0})})
    run = OfflineRunner(load_catalog()).run(bad)
    assert run.error is not None
    assert run.error["type"] == "request_error"
    assert "size_fabric" in run.error["message"]
    assert "nodes" in run.error["message"]
