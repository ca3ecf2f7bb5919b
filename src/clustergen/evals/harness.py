"""The harness: run cases through a runner (a bounded thread pool), score them, total them.

A runner's clustergen error is an answer like any other; anything else it raises is a crash of that
case, recorded with its type and message and scored zero, so one broken case cannot hide the rest of
the suite (and a crash is never counted as a pass).
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from clustergen import __version__
from clustergen.catalog import Catalog
from clustergen.errors import ClustergenError, OutputError, RequestError
from clustergen.evals.cases import EvalCase
from clustergen.evals.runners import CaseRun, Runner, RunStats
from clustergen.evals.scoring import CRASH, CaseResult, score_case
from clustergen.redact import redact, redact_known

MAX_CONCURRENCY = 64


class Totals(BaseModel):
    """The run in numbers."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    cases: int
    passed: int
    failed: int
    xfailed: int = Field(description="failing only on known (xfail) items")
    xpassed: int = Field(description="xfail items that now pass: remove their xfail")
    crashed: int
    fields: int
    fields_passed: int
    score: float = Field(description="mean case score over every item, known failures included")
    gate_score: float = Field(description="mean case score leaving out known failures")
    turns: int
    tool_calls: int
    prompt_tokens: int
    completion_tokens: int
    latency_s: float = Field(description="summed runner latency (model runs)")
    elapsed_s: float = Field(description="wall time of the whole run")


class EvalReport(BaseModel):
    """A scored eval run: what `clustergen eval --json` prints."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    mode: str
    model: str | None
    engine_version: str
    catalog_hash: str | None
    suites: list[str]
    threshold: float
    passed: bool = Field(description="gate_score >= threshold")
    totals: Totals
    cases: list[CaseResult]


def run_case(runner: Runner, case: EvalCase) -> tuple[CaseRun, float]:
    """One case through the runner: its run and the wall time it took."""
    t0 = time.perf_counter()
    try:
        run = runner.run(case)
    except ClustergenError as err:
        run = CaseRun.from_error(err)
    except Exception as exc:  # a crash is a failing case, reported with its type, not a dead suite
        message = redact(f"{type(exc).__name__}: {exc}")
        run = CaseRun(error={"type": CRASH, "message": message})
    return run, time.perf_counter() - t0


def evaluate(
    cases: Sequence[EvalCase],
    runner: Runner,
    *,
    catalog: Catalog | None = None,
    concurrency: int = 1,
    threshold: float = 1.0,
    model: str | None = None,
    record_dir: Path | None = None,
    on_case: Callable[[CaseResult], None] | None = None,
) -> EvalReport:
    """Run and score every case; results keep the cases' order whatever the concurrency."""
    if not 1 <= concurrency <= MAX_CONCURRENCY:
        raise RequestError(f"concurrency must be 1 to {MAX_CONCURRENCY}, got {concurrency}")
    if not 0.0 <= threshold <= 1.0:
        raise RequestError(f"threshold must be between 0 and 1, got {threshold:g}")
    if record_dir is not None:
        _prepare(record_dir)
    started = time.perf_counter()

    def one(case: EvalCase) -> CaseResult:
        run, elapsed = run_case(runner, case)
        result = score_case(case, run, catalog=catalog, elapsed_s=elapsed)
        if record_dir is not None:
            _record(record_dir, case, run, result, runner.mode, model)
        if on_case is not None:
            on_case(result)
        return result

    with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="eval") as pool:
        results = list(pool.map(one, cases))
    report = EvalReport(
        mode=runner.mode,
        model=model,
        engine_version=__version__,
        catalog_hash=catalog.hash if catalog is not None else None,
        suites=sorted({str(c.suite) for c in cases}),
        threshold=threshold,
        passed=False,
        totals=totals(results, time.perf_counter() - started),
        cases=results,
    )
    report = report.model_copy(update={"passed": report.totals.gate_score >= threshold})
    if record_dir is not None:
        _write_json(record_dir / "report.json", report.model_dump(mode="json"))
    return report


def totals(results: Sequence[CaseResult], elapsed_s: float) -> Totals:
    """Sum up scored cases."""
    n = len(results)
    stats = [r.stats for r in results if r.stats is not None] or [RunStats()]
    count = {
        s: sum(r.status == s for r in results)
        for s in ("pass", "fail", "xfail", "xpass", "crashed")
    }
    return Totals(
        cases=n,
        passed=count["pass"],
        failed=count["fail"],
        xfailed=count["xfail"],
        xpassed=count["xpass"],
        crashed=count["crashed"],
        fields=sum(len(r.fields) for r in results),
        fields_passed=sum(f.passed for r in results for f in r.fields),
        # Unrounded: one failing figure among thousands must still fall below a threshold of 1.
        score=sum(r.score for r in results) / n if n else 0.0,
        gate_score=sum(r.gate_score for r in results) / n if n else 0.0,
        turns=sum(s.turns for s in stats),
        tool_calls=sum(s.tool_calls for s in stats),
        prompt_tokens=sum(s.prompt_tokens for s in stats),
        completion_tokens=sum(s.completion_tokens for s in stats),
        latency_s=round(sum(s.latency_s for s in stats), 3),
        elapsed_s=round(elapsed_s, 3),
    )


def _prepare(directory: Path) -> None:
    """Make the --record directory; refuse it, or the recordings directory in it, when it is a
    symbolic link (checked here too, not only by the CLI: a link planted between the CLI's check
    and the first write, or by another caller, must not send a case's run elsewhere)."""
    for path in (directory, directory / "recordings"):
        with contextlib.suppress(OSError):
            if stat.S_ISLNK(os.lstat(path).st_mode):
                raise OutputError(
                    f"--record {path} is a symbolic link; clustergen never writes or deletes "
                    "through one",
                    hint="give the directory itself",
                )
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create --record directory {directory}: {exc.strerror}") from None


def _record(
    directory: Path,
    case: EvalCase,
    run: CaseRun,
    result: CaseResult,
    mode: str,
    model: str | None,
) -> None:
    _write_json(
        directory / f"{case.id}.json",
        {
            "case": case.id,
            "mode": mode,
            "model": model,
            "run": run.model_dump(mode="json"),
            "score": result.model_dump(mode="json"),
        },
    )


def _write_json(path: Path, data: Any) -> None:
    write_atomic(path, json.dumps(data, indent=2, allow_nan=False) + "\n")


def write_atomic(path: Path, text: str) -> None:
    """Write a file so a reader sees the old content or the new, never half of it, with every
    remembered secret masked (a case's run holds what the model wrote, which may echo the key)."""
    text = redact_known(text)
    path = Path(path)
    if not path.parent.is_dir():
        raise OutputError(f"directory {path.parent} does not exist")
    try:
        mode = os.stat(path).st_mode
    except OSError:
        mode = stat.S_IFREG
    # A rename would replace a directory's entry or a device node (/dev/full, as root) outright.
    if path.name in ("", ".", "..") or not stat.S_ISREG(mode):
        raise OutputError(f"cannot write {path}: it is not a regular file")
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        # a read-only file system refuses even removing a file that is not there
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise OutputError(f"cannot write {path}: {exc.strerror}") from None
