"""The runner seam: a registry of modes, the offline runner's answers, and placeholders for the agent."""

from __future__ import annotations

from pathlib import Path

import pytest

from clustergen.catalog import load_catalog
from clustergen.errors import ConfigError, RequestError
from clustergen.evals import runners
from clustergen.evals.cases import load_cases
from clustergen.evals.runners import (
    CaseRun,
    OfflineRunner,
    RunnerOptions,
    RunStats,
    make_runner,
    register_runner,
    runner_modes,
)


def test_modes_and_their_preconditions(tmp_path: Path) -> None:
    assert {"offline", "llm", "scripted", "replay"} <= set(runner_modes())
    assert isinstance(make_runner("offline"), OfflineRunner)
    with pytest.raises(ConfigError, match="--mode llm needs NVIDIA_API_KEY"):
        make_runner("llm", RunnerOptions(model="some/model"))
    with pytest.raises(ConfigError, match="no recordings at"):
        make_runner("replay", RunnerOptions(replay_dir=tmp_path / "none"))
    with pytest.raises(ConfigError, match="unknown eval mode 'oracle'"):
        make_runner("oracle")


def test_registering_a_runner_is_one_function(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runners, "_REGISTRY", dict(runners._REGISTRY))
    seen: list[RunnerOptions] = []

    class Echo:
        mode = "echo"

        def run(self, case: object) -> CaseRun:
            return CaseRun(result_json={"case": getattr(case, "id", None)})

    @register_runner("echo")
    def _echo(options: RunnerOptions) -> Echo:
        seen.append(options)
        return Echo()

    runner = make_runner("echo", RunnerOptions(model="m", concurrency=3))
    case = load_cases(case_ids=["h100-table4-1su"])[0]
    assert runner.run(case).result_json == {"case": "h100-table4-1su"}
    assert seen[0].model == "m"
    assert "echo" in runner_modes()


def test_case_run_carries_one_answer() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        CaseRun()
    with pytest.raises(ValueError, match="exactly one"):
        CaseRun(result_json={}, error={"type": "x"})
    with pytest.raises(ValueError, match="string 'type'"):
        CaseRun(error={"message": "no type"})
    run = CaseRun.from_error(RequestError("bad", hint="try this"), RunStats(turns=2))
    assert run.error == {"type": "request_error", "message": "bad", "hint": "try this"}
    assert run.stats is not None
    assert run.stats.turns == 2


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
