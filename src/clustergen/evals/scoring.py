"""Scoring: a case's run against its expectations, by rule, never by a model judge.

Three kinds of item make up a case's score:
- the outcome: a result, a refusal of an allowed error type, or a result with failed checks;
- each expected figure, read by its path from the result and compared exactly (counts) or within
  the case's tolerance (watts, GB/s);
- for designs, the engine re-check: the engine rebuilds the design from the result's own request
  and choices, and every checked figure and every check verdict must agree with that rebuild. A
  result whose numbers or verdicts were edited after the engine made them (by a model told to
  "ignore the checks", or a stale recording) fails here.
"""

from __future__ import annotations

import json
import math
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from clustergen.catalog import Catalog
from clustergen.errors import ClustergenError
from clustergen.evals.cases import DesignCase, EvalCase
from clustergen.evals.expect import Expect
from clustergen.evals.paths import PathError, is_multi, parse_path, resolve
from clustergen.evals.runners import CaseRun, RunStats

Status = Literal["pass", "fail", "xfail", "xpass", "crashed"]
CRASH = "crash"


class FieldResult(BaseModel):
    """One scored item of a case."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    label: str
    expected: str
    got: str | None
    passed: bool
    xfail: str | None = None
    source: str | None = None
    note: str | None = None


class CaseResult(BaseModel):
    """A scored case."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    suite: str
    kind: str
    title: str
    status: Status
    xfail: str | None = None
    score: float
    gate_score: float
    answer: str
    error: dict[str, Any] | None
    fields: list[FieldResult]
    stats: RunStats | None
    elapsed_s: float


class _Missing:
    """A path that selects nothing usable, and why."""

    def __init__(self, why: str) -> None:
        self.why = why

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Missing) and other.why == self.why

    def __hash__(self) -> int:
        return hash(self.why)


def _show(value: Any, limit: int = 60) -> str:
    if isinstance(value, _Missing):
        return f"({value.why})"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        value = int(value)
    text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def pick(result: Any, e: Expect) -> Any:
    """The value `e` checks in a result: one selected value, or the reduction of many."""
    segments = parse_path(e.path)
    try:
        values = resolve(result, segments)
    except PathError as exc:
        return _Missing(str(exc))
    if e.reduce == "count":
        return len(values)
    if e.reduce is not None:
        nums = [v for v in values if _number(v)]
        if len(nums) != len(values):
            return _Missing(f"{e.reduce} over non-numeric values")
        if not nums:
            return _Missing(f"no values to {e.reduce}")
        if e.reduce == "sum":
            return sum(nums)
        return min(nums) if e.reduce == "min" else max(nums)
    if is_multi(segments) and len(values) != 1:
        if not values:
            return _Missing("no item matches")
        return _Missing(f"{len(values)} items match; name a reduce")
    return values[0]


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def describe(e: Expect) -> str:
    """The expectation as people read it."""
    if e.contains is not None:
        return f"contains {e.contains!r}"
    if "value" not in e.model_fields_set:
        lo = f"≥ {_show(e.at_least)}" if e.at_least is not None else ""
        hi = f"≤ {_show(e.at_most)}" if e.at_most is not None else ""
        return " and ".join(p for p in (lo, hi) if p)
    text = _show(e.value)
    if e.rel_tol is not None:
        text += f" ± {e.rel_tol * 100:g}%"
    if e.abs_tol is not None:
        text += f" ± {_show(e.abs_tol)}"
    return text


def compare(e: Expect, got: Any) -> tuple[bool, str | None]:
    """Whether `got` meets `e`, and why not."""
    if isinstance(got, _Missing):
        return False, got.why
    if e.contains is not None:
        needle = e.contains.lower()
        items = got if isinstance(got, list) else [got]
        hit = any(isinstance(i, str | int | float) and needle in str(i).lower() for i in items)
        return hit, None if hit else f"no {e.contains!r} in it"
    if "value" not in e.model_fields_set:
        if not _number(got):
            return False, "not a number"
        ok = (e.at_least is None or got >= e.at_least) and (e.at_most is None or got <= e.at_most)
        return ok, None if ok else "out of bounds"
    want = e.value
    if want is None or isinstance(want, bool | str):
        ok = got is want if isinstance(want, bool) or want is None else got == want
        return ok, None
    if not _number(got):
        return False, "not a number"
    rel = e.rel_tol if e.rel_tol is not None else 1e-9  # exact, less float noise
    ok = math.isclose(got, want, rel_tol=rel, abs_tol=e.abs_tol or 0.0)
    if ok or (e.rel_tol is None and e.abs_tol is None):
        return ok, None
    return ok, f"off by {abs(got - want) / max(abs(want), 1e-12) * 100:.2f}%"


def _failed_checks(result: dict[str, Any]) -> list[str]:
    checks = result.get("checks")
    if not isinstance(checks, list):
        return []
    return [str(c.get("name")) for c in checks if isinstance(c, dict) and not c.get("passed")]


def _flagged(case: EvalCase, result: dict[str, Any]) -> tuple[bool, str]:
    failed = _failed_checks(result)
    if case.flagged_by:
        missing = [n for n in case.flagged_by if n not in failed]
        if missing:
            return False, f"check(s) not failed: {', '.join(missing)}"
        return True, f"failed: {', '.join(case.flagged_by)}"
    request = result.get("request")
    unread = request.get("not_understood") if isinstance(request, dict) else None
    if failed:
        return True, f"failed: {', '.join(failed)}"
    if unread:
        return True, f"not understood: {', '.join(map(str, unread))}"
    return False, "every check passed and the whole request was understood"


def _refusal_ok(case: EvalCase, error: dict[str, Any]) -> tuple[bool, str]:
    etype = str(error.get("type"))
    message = str(error.get("message", ""))
    said = f"{message} {error.get('hint') or ''}".lower()  # what the user reads: message and hint
    if etype not in case.error_types:
        return False, f"{etype}: {message}"
    absent = [m for m in case.message_contains if m.lower() not in said]
    if absent:
        return False, f"{etype}: message lacks {', '.join(map(repr, absent))}"
    return True, f"{etype}: {message}"


def _expected_outcome(case: EvalCase) -> str:
    refusal = f"refusal ({', '.join(case.error_types)})"
    flag = f"failed check(s) {', '.join(case.flagged_by)}" if case.flagged_by else "flagged result"
    return {
        "ok": "a result",
        "refused": refusal,
        "flagged": flag,
        "refused_or_flagged": f"{refusal} or {flag}",
    }[case.outcome]


def outcome_item(case: EvalCase, run: CaseRun) -> tuple[FieldResult, bool]:
    """The outcome item, and whether the expected figures apply (False for an accepted refusal)."""
    want = _expected_outcome(case)
    if run.result_json is not None:
        if case.outcome == "ok":
            passed, got = True, "a result"
        elif case.outcome == "refused":
            passed, got = False, "a result, not a refusal"
        else:
            passed, got = _flagged(case, run.result_json)
        return FieldResult(label="outcome", expected=want, got=got, passed=passed), True
    error = run.error or {"type": CRASH, "message": "no answer"}
    if case.outcome in {"refused", "refused_or_flagged"} and error.get("type") != CRASH:
        passed, got = _refusal_ok(case, error)
        return FieldResult(label="outcome", expected=want, got=got, passed=passed), not passed
    got = f"{error.get('type')}: {error.get('message', '')}"
    return FieldResult(label="outcome", expected=want, got=got, passed=False), True


def field_item(e: Expect, result: dict[str, Any] | None) -> FieldResult:
    """One expected figure against the result."""
    got = pick(result, e) if result is not None else _Missing("no result")
    passed, why = compare(e, got)
    return FieldResult(
        label=e.path if not e.reduce else f"{e.reduce}({e.path})",
        expected=describe(e),
        got=_show(got),
        passed=passed,
        xfail=e.xfail,
        source=e.source,
        note=why or e.note,
    )


def recheck_item(catalog: Catalog, case: DesignCase, result: dict[str, Any]) -> FieldResult:
    """Rebuild the design from its own request and choices; figures and verdicts must agree."""
    from clustergen.engine.assemble import assemble_design
    from clustergen.engine.model.design import DesignChoices
    from clustergen.engine.request import DesignRequest

    expected = "= engine rebuild from its request and choices"
    try:
        request = DesignRequest.model_validate(result["request"])
        choices = DesignChoices.model_validate(result["choices"])
        mode = result.get("mode", "offline")
        if result.get("pools"):
            # a mixed cluster is two pools, each its own design: the planner rebuilds both
            from clustergen.engine.search.planner import plan_design

            rebuilt = plan_design(catalog, request).model_dump(mode="json")
        else:
            rebuilt = assemble_design(
                catalog, request, choices, mode=mode if mode in ("offline", "agent") else "offline"
            ).model_dump(mode="json")
    except (KeyError, TypeError, ValidationError, ClustergenError) as exc:
        why = exc.one_line() if isinstance(exc, ClustergenError) else type(exc).__name__
        return FieldResult(
            label="engine re-check",
            expected=expected,
            got=f"cannot rebuild: {why}",
            passed=False,
        )
    # the trade study is the planner's, not the sized design's: a rebuild from the choices has none
    differs = [
        e.path
        for e in case.expected
        if pick(result, e) != pick(rebuilt, e)
        and not (e.path.startswith("alternatives") and rebuilt.get("alternatives") is None)
    ]
    verdicts = {c["name"]: c["passed"] for c in rebuilt.get("checks", [])}
    claimed = {
        c.get("name"): c.get("passed") for c in result.get("checks", []) if isinstance(c, dict)
    }
    if claimed != verdicts:
        differs.append("checks")
    return FieldResult(
        label="engine re-check",
        expected=expected,
        got="agrees" if not differs else f"differs at {', '.join(differs)}",
        passed=not differs,
    )


def score_case(
    case: EvalCase,
    run: CaseRun,
    *,
    catalog: Catalog | None,
    elapsed_s: float,
) -> CaseResult:
    """Score one run. `catalog` enables the engine re-check of design results."""
    outcome, figures_apply = outcome_item(case, run)
    items = [outcome]
    if figures_apply:
        items += [field_item(e, run.result_json) for e in case.expected]
    if catalog is not None and isinstance(case, DesignCase) and run.result_json is not None:
        items.append(recheck_item(catalog, case, run.result_json))
    if case.xfail:  # a known-broken case: its failing items are the known failures
        items = [
            i if i.passed or i.xfail else i.model_copy(update={"xfail": case.xfail}) for i in items
        ]
    crashed = run.error is not None and run.error.get("type") == CRASH
    return CaseResult(
        id=case.id,
        suite=str(case.suite),
        kind=case.kind,
        title=case.title,
        xfail=case.xfail,
        status=_status(items, crashed, case.xfail is not None),
        score=sum(i.passed for i in items) / len(items),
        gate_score=_gate_score(items, crashed),
        answer="result"
        if run.result_json is not None
        else f"error: {(run.error or {}).get('type')}",
        error=run.error,
        fields=items,
        stats=run.stats,
        elapsed_s=round(elapsed_s, 4),
    )


def _status(items: list[FieldResult], crashed: bool, case_xfail: bool) -> Status:
    if crashed:
        return "crashed"
    if any(not i.passed and not i.xfail for i in items):
        return "fail"
    if any(not i.passed for i in items):
        return "xfail"
    if case_xfail or any(i.xfail for i in items):
        return "xpass"
    return "pass"


def _gate_score(items: list[FieldResult], crashed: bool) -> float:
    """Share of items passed, leaving out known failures; a crash scores 0."""
    if crashed:
        return 0.0
    gated = [i for i in items if not i.xfail]
    if not gated:
        return 1.0
    return sum(i.passed for i in gated) / len(gated)
