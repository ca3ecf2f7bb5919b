"""`clustergen eval`: run the golden and adversarial cases, show every figure, gate on a score."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from clustergen.cli.options import CatalogOpt, InsecureHttpOpt, JsonOpt
from clustergen.cli.output import print_json, stderr, stdout
from clustergen.safe_text import terminal

if TYPE_CHECKING:
    from rich.table import Table

    from clustergen.evals.harness import EvalReport
    from clustergen.evals.scoring import CaseResult


class Mode(StrEnum):
    """Who answers the cases."""

    offline = "offline"
    llm = "llm"
    scripted = "scripted"
    replay = "replay"


_STYLE = {"pass": "green", "xfail": "yellow", "xpass": "cyan", "fail": "red", "crashed": "red"}


_WIDTH_SHARE = {"figure": 4, "case": 3, "expected": 2, "got": 3, "answer": 2}


def _table(title: str, columns: tuple[str, ...]) -> Table:
    from rich.table import Table

    # expand: the width shares (ratios) apply only to a table that fills the terminal.
    t = Table(title=title, title_justify="left", show_edge=False, header_style="bold", expand=True)
    for c in columns:
        # Ids and paths have no spaces to wrap at: fold them rather than cut them short.
        share = _WIDTH_SHARE.get(c)
        t.add_column(c, overflow="fold", no_wrap=share is None, ratio=share)
    return t


def _fields_table(report: EvalReport) -> None:
    from rich.text import Text

    from clustergen.evals.report import field_mark

    t = _table("figures", ("case", "figure", "expected", "got", "result"))
    for r in report.cases:
        for i, f in enumerate(r.fields):
            mark = field_mark(f)
            style = {"pass": "green", "FAIL": "red", "xfail": "yellow", "XPASS": "cyan"}[mark]
            note = f" ({f.note})" if f.note and not f.passed else ""
            t.add_row(
                Text(terminal(r.id)) if i == 0 else "",
                Text(terminal(f.label)),
                Text(terminal(f.expected)),
                Text(terminal((f.got or "—") + note)),
                Text(mark, style=style),
                end_section=i == len(r.fields) - 1,
            )
    stdout.print(t)


def _cases_table(report: EvalReport) -> None:
    from rich.text import Text

    model_run = any(r.stats is not None for r in report.cases)
    last = ("turns", "tools", "tokens", "latency") if model_run else ("time",)
    t = _table("cases", ("case", "suite", "status", "score", "answer", *last))
    for r in report.cases:
        s = r.stats
        style = _STYLE[r.status]
        if not model_run:
            cost: tuple[str, ...] = (f"{r.elapsed_s:.3f} s",)
        elif s is None:
            cost = ("—", "—", "—", f"{r.elapsed_s:.1f} s")
        else:
            tokens = s.prompt_tokens + s.completion_tokens
            cost = (str(s.turns), str(s.tool_calls), str(tokens), f"{s.latency_s:.1f} s")
        t.add_row(
            Text(terminal(r.id)),
            Text(terminal(r.suite)),
            Text(r.status, style=style),
            f"{r.score:.2f}",
            Text(terminal(r.answer)),
            *cost,
        )
    stdout.print(t)


def _summary(report: EvalReport) -> None:
    t = report.totals
    verdict = "[green]passed[/green]" if report.passed else "[red]FAILED[/red]"
    stdout.print(
        f"{verdict}: gate score {t.gate_score:.3f} (threshold {report.threshold:g}); "
        f"{t.passed} pass, {t.failed} fail, {t.xfailed} xfail, {t.xpassed} xpass, "
        f"{t.crashed} crashed of {t.cases} cases; {t.fields_passed}/{t.fields} figures; "
        f"score with known failures {t.score:.3f}; {t.elapsed_s:.2f} s",
        markup=True,  # the verdict's colour; the rest is numbers
    )
    if t.turns or t.tool_calls:
        stdout.print(
            f"model use: {t.turns} turns, {t.tool_calls} tool calls, "
            f"{t.prompt_tokens}+{t.completion_tokens} tokens, {t.latency_s:.1f} s",
            markup=False,
        )
    if t.xpassed:
        stdout.print("xpass: a known failure now passes; remove its xfail", markup=False)


def _progress(total: int) -> Callable[[CaseResult], None]:
    done = [0]

    def show(r: CaseResult) -> None:
        done[0] += 1
        stderr.print(
            f"[{done[0]}/{total}] {terminal(r.id)}: {r.status}", markup=False, highlight=False
        )

    return show


def _before_work(
    mode: Mode,
    model: str | None,
    report: Path | None,
    record: Path | None,
    allow_insecure_http: bool = False,
) -> None:
    """Refuse outputs that cannot be written, and warn of a key about to travel in clear text,
    before any case runs."""
    from clustergen.cli.userfiles import check_output_dir, check_output_file

    if report is not None:
        check_output_file(report, "--report")
    if record is not None:
        check_output_dir(record, "--record", "report.json")
    if mode is Mode.llm:
        from clustergen.agent.settings import load_settings
        from clustergen.cli.output import announce_key_route

        announce_key_route(load_settings(model=model, allow_insecure_http=allow_insecure_http))


def eval_cmd(
    suite: Annotated[
        list[str] | None,
        typer.Option(
            "--suite",
            metavar="<name>",
            help="Only this suite (repeatable), e.g. golden, adversarial.",
        ),
    ] = None,
    case: Annotated[
        list[str] | None,
        typer.Option("--case", metavar="<id>", help="Only this case id (repeatable)."),
    ] = None,
    mode: Annotated[
        Mode,
        typer.Option(
            "--mode",
            help="offline: the deterministic planner; llm: a live model; scripted: the scripted "
            "stand-in model through the agent loop; replay: recorded model runs, offline.",
        ),
    ] = Mode.offline,
    model: Annotated[
        str | None, typer.Option("--model", help="Model id for llm and replay runs.")
    ] = None,
    concurrency: Annotated[
        int, typer.Option("--concurrency", min=1, max=64, help="Cases run at once.")
    ] = 1,
    threshold: Annotated[
        float,
        typer.Option(
            "--threshold", min=0.0, max=1.0, help="Exit 1 when the gate score is below this."
        ),
    ] = 1.0,
    record: Annotated[
        Path | None,
        typer.Option(
            "--record", help="Write every case's run and score here (and model recordings)."
        ),
    ] = None,
    report: Annotated[
        Path | None, typer.Option("--report", help="Write a Markdown report here (atomically).")
    ] = None,
    recordings: Annotated[
        Path | None,
        typer.Option(
            "--recordings",
            file_okay=False,
            help="Recordings to replay (default: evals/recordings, a scripted run of every case).",
        ),
    ] = None,
    cases_dir: Annotated[
        Path | None,
        typer.Option(
            "--cases", file_okay=False, help="Case suites to run instead of the built-in evals/."
        ),
    ] = None,
    allow_insecure_http: InsecureHttpOpt = False,
    catalog: CatalogOpt = None,
    json: JsonOpt = False,
) -> None:
    """Run the eval cases and score every figure against its published source (exit 1 below the threshold)."""
    from clustergen.catalog import load_catalog
    from clustergen.evals import RunnerOptions, evaluate, load_cases
    from clustergen.evals.harness import write_atomic
    from clustergen.evals.modes import make_runner
    from clustergen.evals.report import to_markdown

    _before_work(mode, model, report, record, allow_insecure_http)
    cases = load_cases(cases_dir, suites=suite or (), case_ids=case or ())
    runner = make_runner(
        mode.value,
        RunnerOptions(
            model=model,
            allow_insecure_http=allow_insecure_http,
            record_dir=record,
            catalog_dir=catalog,
            concurrency=concurrency,
            replay_dir=recordings,
        ),
    )
    result = evaluate(
        cases,
        runner,
        catalog=load_catalog(catalog),
        concurrency=concurrency,
        threshold=threshold,
        model=model,
        record_dir=record,
        on_case=_progress(len(cases)) if mode is not Mode.offline and not json else None,
    )
    if report is not None:
        write_atomic(report, to_markdown(result))
    _show(result, report, json)
    if not result.passed:
        raise typer.Exit(1)


def _show(result: EvalReport, report: Path | None, json: bool) -> None:
    if json:
        print_json(result)
        return
    _fields_table(result)
    _cases_table(result)
    _summary(result)
    if report is not None:
        stdout.print(f"wrote {report}", markup=False)


def register(app: typer.Typer) -> None:
    """Add `eval` to the root app."""
    app.command("eval")(eval_cmd)
