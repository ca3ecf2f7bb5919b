"""The eval report as Markdown: totals, a row per case, a table per case with every figure's
source, and the known failures with their reasons (so fixing one is a visible, one-line change)."""

from __future__ import annotations

from clustergen.evals.harness import EvalReport
from clustergen.evals.scoring import CaseResult, FieldResult
from clustergen.safe_text import markdown, plain

_MARK = {
    "pass": "pass",
    "fail": "**FAIL**",
    "xfail": "xfail",
    "xpass": "**XPASS**",
    "crashed": "**CRASH**",
}


def _cell(text: object) -> str:
    """Text shown as text in a table cell or a sentence (case files and model answers are
    untrusted): `safe_text.markdown`."""
    return markdown(text)


def _code(text: object) -> str:
    """Text for inside a code span of a table cell: one line, no backtick to end the span, `|`
    escaped for the table (GitHub reads `\\|` inside a cell's code span as a pipe)."""
    return plain(text, newlines=False).replace("`", "'").replace("|", "\\|")


def field_mark(f: FieldResult) -> str:
    """pass / FAIL / xfail / XPASS for one item."""
    if f.passed:
        return "XPASS" if f.xfail else "pass"
    return "xfail" if f.xfail else "FAIL"


def _stats(r: CaseResult) -> str:
    if r.stats is None:
        return "—"
    s = r.stats
    return (
        f"{s.turns} turns, {s.tool_calls} tools, "
        f"{s.prompt_tokens}+{s.completion_tokens} tok, {s.latency_s:.1f} s"
    )


def to_markdown(report: EvalReport) -> str:
    """The whole report."""
    t = report.totals
    verdict = "passed" if report.passed else "FAILED"
    lines = [
        "# clustergen eval report",
        "",
        f"Mode `{report.mode}`"
        + (f", model `{_code(report.model)}`" if report.model else "")
        + f", clustergen {report.engine_version}"
        + (f", catalog {report.catalog_hash}" if report.catalog_hash else "")
        + f"; suites: {', '.join(report.suites)}.",
        "",
        f"**{verdict}**: gate score {t.gate_score:.3f} against threshold {report.threshold:g} "
        f"(score with known failures {t.score:.3f}).",
        "",
        "| cases | pass | fail | xfail | xpass | crashed | figures passed | wall time |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        f"| {t.cases} | {t.passed} | {t.failed} | {t.xfailed} | {t.xpassed} | {t.crashed} | "
        f"{t.fields_passed}/{t.fields} | {t.elapsed_s:.2f} s |",
    ]
    if t.turns or t.tool_calls or t.prompt_tokens:
        lines += [
            "",
            f"Model use: {t.turns} turns, {t.tool_calls} tool calls, {t.prompt_tokens} prompt + "
            f"{t.completion_tokens} completion tokens, {t.latency_s:.1f} s of model latency.",
        ]
    lines += [
        "",
        "## Cases",
        "",
        "| case | suite | kind | status | score | answer | model use |",
        "| --- | --- | --- | --- | ---: | --- | --- |",
    ]
    lines += [
        f"| `{_code(r.id)}` | {_cell(r.suite)} | {r.kind} | {_MARK[r.status]} | {r.score:.2f} | "
        f"{_cell(r.answer)} | {_stats(r)} |"
        for r in report.cases
    ]
    lines += _known_failures(report)
    for r in report.cases:
        lines += ["", f"## `{_code(r.id)}` — {_cell(r.title)}", ""]
        if r.error and r.status != "pass":
            lines += [f"Answer: {_cell(r.answer)}: {_cell(r.error.get('message', ''))}", ""]
        lines += [
            "| figure | expected | got | result | source |",
            "| --- | --- | --- | --- | --- |",
        ]
        lines += [
            f"| `{_code(f.label)}` | {_cell(f.expected)} | {_cell(f.got)} | {field_mark(f)}"
            + (f" ({_cell(f.note)})" if f.note and not f.passed else "")
            + f" | {_cell(f.source or '')} |"
            for f in r.fields
        ]
    return "\n".join(lines) + "\n"


def _known_failures(report: EvalReport) -> list[str]:
    """Known failures (xfail), whole cases first, each with its reason."""
    out: list[str] = []
    for r in report.cases:
        if r.xfail:
            failing = sum(not f.passed for f in r.fields)
            state = (
                "now PASSES: remove its xfail" if r.status == "xpass" else f"{failing} item(s) fail"
            )
            out.append(f"- `{_code(r.id)}` (whole case): {state} — {_cell(r.xfail)}")
        for f in r.fields:
            if f.xfail and f.xfail != r.xfail:
                state = "now PASSES: remove its xfail" if f.passed else "fails"
                out.append(f"- `{_code(r.id)}` `{_code(f.label)}`: {state} — {_cell(f.xfail)}")
    return ["", "## Known failures (xfail)", "", *out] if out else []
