"""The harness: bounded concurrency in case order, crashes contained, totals, gate, records."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from clustergen.catalog import load_catalog
from clustergen.errors import InfeasibleDesignError, OutputError, RequestError
from clustergen.evals import evaluate, load_cases
from clustergen.evals.cases import EvalCase
from clustergen.evals.offline import OfflineRunner
from clustergen.evals.runners import CaseRun, RunStats


class FakeRunner:
    """Answers from a table; counts how many cases run at once."""

    mode = "fake"

    def __init__(self, answers: dict[str, CaseRun | Exception], delay_s: float = 0.0) -> None:
        self.answers = answers
        self.delay_s = delay_s
        self.active = 0
        self.peak = 0
        self.lock = threading.Lock()

    def run(self, case: EvalCase) -> CaseRun:
        with self.lock:
            self.active += 1
            self.peak = max(self.peak, self.active)
        try:
            time.sleep(self.delay_s)
            answer = self.answers[case.id]
            if isinstance(answer, Exception):
                raise answer
            return answer
        finally:
            with self.lock:
                self.active -= 1


STORAGE = ["storage-good-1su", "storage-good-4su", "storage-better-1su", "storage-better-4su"]


def _cases(ids: list[str]) -> list[EvalCase]:
    return load_cases(case_ids=ids)


def test_every_golden_and_adversarial_case_passes_offline() -> None:
    """The acceptance gate of issue 5: `clustergen eval` passes offline (known failures aside)."""
    catalog = load_catalog()
    report = evaluate(load_cases(), OfflineRunner(catalog), catalog=catalog, concurrency=2)
    failing = [
        (c.id, [f.label for f in c.fields if not f.passed])
        for c in report.cases
        if c.status in {"fail", "crashed"}
    ]
    assert failing == []
    assert report.passed
    assert report.totals.gate_score == 1.0
    assert report.totals.cases >= 40


def test_concurrency_is_bounded_and_order_kept() -> None:
    ok = CaseRun(result_json={"read_gb_per_s": 1})
    runner = FakeRunner(dict.fromkeys(STORAGE, ok), delay_s=0.05)
    report = evaluate(_cases(STORAGE), runner, concurrency=2, threshold=0.0)
    assert runner.peak == 2
    assert [c.id for c in report.cases] == STORAGE


def test_a_crash_fails_its_case_and_nothing_else() -> None:
    good = CaseRun(
        result_json={
            "read_gb_per_s": 15.0,
            "write_gb_per_s": 7.0,
            "node_read_gb_per_s": 4.0,
            "node_write_gb_per_s": 2.0,
        }
    )
    runner = FakeRunner(
        {
            "storage-good-1su": good,
            "storage-good-4su": KeyError("boom"),
            "storage-better-1su": InfeasibleDesignError("cannot"),
            "storage-better-4su": good,
        }
    )
    report = evaluate(_cases(STORAGE), runner, threshold=0.5)
    status = {c.id: c.status for c in report.cases}
    assert status == {
        "storage-good-1su": "pass",
        "storage-good-4su": "crashed",
        "storage-better-1su": "fail",
        "storage-better-4su": "fail",
    }
    crashed = report.cases[1]
    assert crashed.error == {"type": "crash", "message": "KeyError: 'boom'"}
    assert crashed.gate_score == 0.0
    assert report.cases[2].error is not None
    assert report.cases[2].error["type"] == "infeasible"
    t = report.totals
    assert (t.passed, t.failed, t.crashed) == (1, 2, 1)
    assert not report.passed


def test_threshold_gates_the_run() -> None:
    half = CaseRun(result_json={"read_gb_per_s": 60.0, "write_gb_per_s": 0.0})
    runner = FakeRunner({"storage-good-4su": half})
    cases = _cases(["storage-good-4su"])
    strict = evaluate(cases, runner)
    assert strict.totals.gate_score == pytest.approx(2 / 3)
    assert not strict.passed
    assert evaluate(cases, runner, threshold=0.6).passed
    with pytest.raises(RequestError, match="threshold"):
        evaluate(cases, runner, threshold=1.5)
    with pytest.raises(RequestError, match="concurrency"):
        evaluate(cases, runner, concurrency=0)


def test_model_stats_are_totalled() -> None:
    run = CaseRun(
        result_json={"read_gb_per_s": 60.0, "write_gb_per_s": 30.0},
        stats=RunStats(
            turns=3, tool_calls=4, prompt_tokens=100, completion_tokens=20, latency_s=1.5
        ),
    )
    report = evaluate(
        _cases(["storage-good-4su", "storage-better-4su"]),
        FakeRunner({"storage-good-4su": run, "storage-better-4su": run}),
        threshold=0,
    )
    t = report.totals
    assert (t.turns, t.tool_calls, t.prompt_tokens, t.completion_tokens) == (6, 8, 200, 40)
    assert t.latency_s == 3.0


def test_record_writes_every_run_and_the_report(tmp_path: Path) -> None:
    catalog = load_catalog()
    record = tmp_path / "rec"
    evaluate(
        _cases(["h100-table4-1su", "adv-zero-gpus"]),
        OfflineRunner(catalog),
        catalog=catalog,
        record_dir=record,
        model="m",
    )
    assert sorted(p.name for p in record.iterdir()) == [
        "adv-zero-gpus.json",
        "h100-table4-1su.json",
        "report.json",
    ]
    one = json.loads((record / "h100-table4-1su.json").read_text())
    assert one["mode"] == "offline"
    assert one["model"] == "m"
    assert one["run"]["result_json"]["fabrics"]["compute"]["leaf_switches"] == 8
    assert one["score"]["status"] == "pass"
    assert json.loads((record / "report.json").read_text())["totals"]["cases"] == 2


@pytest.mark.parametrize("where", ["", "recordings"])
def test_record_refuses_a_symlinked_directory(tmp_path: Path, where: str) -> None:
    """The harness refuses a link itself, the CLI's check aside (a link planted after it, or a
    recordings directory inside --record that points elsewhere)."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    record = tmp_path / "record"
    if where:
        record.mkdir()
        (record / where).symlink_to(elsewhere, target_is_directory=True)
    else:
        record.symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(OutputError, match="symbolic link"):
        evaluate([], OfflineRunner(load_catalog()), record_dir=record)
    assert list(elsewhere.iterdir()) == []
