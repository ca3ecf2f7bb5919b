"""The terminal view of a design: a verdict line first, the key figures, the trade study with why
the winner won, every check, the agent's run, the assumptions and warnings (clean at 80 columns)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clustergen.cli.output import (
    fmt_w,
    kv_table,
    mark,
    say,
    stdout,
    table,
)
from clustergen.units import ratio

if TYPE_CHECKING:
    from rich.table import Table

    from clustergen.engine.model.common import Check
    from clustergen.engine.model.design import Design


def summary(d: Design) -> None:
    """The design in the terminal: the verdict line first, the headline and why, its figures, the
    trade study and why the winner won, the checks, then what the run adds and the footnotes."""
    from rich.text import Text

    from clustergen.engine.report.figures import design_rows
    from clustergen.engine.report.scale_words import what_text
    from clustergen.engine.report.words import verdict

    p = d.platform
    from clustergen.cli.workload_view import first_lines
    from clustergen.engine.sizing.workload import is_slow_first_token

    # a first token people wait tens of seconds for is said before the verdict
    first_lines(d.request, [w for w in d.warnings if is_slow_first_token(w)])
    v = verdict(d)
    line = Text()
    line.append_text(mark(v.status))
    what = f"two pools, {sum(p.gpus for p in d.pools):,} GPUs" if d.pools else what_text(d)
    line.append(f"  {what}: {v.line}")
    stdout.print(line, soft_wrap=False)
    if d.notice:  # what the answer does beyond or instead of the request comes first
        say(d.notice if d.pools else f"note: {d.notice}")
    why = p.reason
    if d.alternatives is not None:  # the one objective this kind of question is answered by
        objective = d.alternatives.objective
        say(f"objective: {objective}")
        # the reason opens with the objective just said: the line goes on from there
        for lead in ("named in the request; ", ""):
            if why.startswith(lead + objective):
                rest = why[len(lead + objective) :]
                comma = "," if rest.startswith(" ") and not rest.startswith(" (") else ""
                why = lead + "the objective above" + comma + rest
                break
    say(f"{d.mode} mode, catalog {d.provenance.catalog_hash}; why: {why}")
    basis = next((a for a in d.assumptions if a.field == "power_cap_basis"), None)
    if basis is not None:
        say(f"power cap basis not stated: {basis.reason}; checked both ways (see checks)")
    if d.scale and d.scale.caveat:
        say(f"scale: {d.scale.caveat}")
    stdout.print(kv_table("design", design_rows(d)))
    if d.alternatives:
        _trade_study(d)
    stdout.print(_checks(d.checks))
    _run_report(d)
    _footnotes(d)


#: trade-study rows shown in the terminal (the memo and --json have them all)
SHOWN_ROWS = 8


def _trade_study(d: Design) -> None:
    """The first rows of the trade study, the chosen one starred, and why the winner won; for a
    "most GPUs" study, the answer per platform first."""
    from clustergen.engine.report.documents.study import (
        capital_cell,
        figure,
        per_platform,
        priced,
        short_reason,
        why_winner,
    )

    study = d.alternatives
    assert study is not None
    if study.objective_unit == "GPUs":
        stdout.print(
            table(
                "the answer per platform",
                ("", "platform", "GPUs", "dense PFLOPS", "IT power", "facility power"),
                (
                    (
                        "*" if a.chosen else "",
                        a.platform,
                        f"{a.gpus:,}",
                        "—" if a.dense_pflops is None else f"{a.dense_pflops:,.1f}",
                        fmt_w(a.it_power_w),
                        fmt_w(a.facility_power_w),
                    )
                    for a in per_platform(study)
                ),
                no_wrap=("platform",),
            )
        )
    # With IT power or capital as the objective, the objective column would repeat its column.
    own_column = study.objective_unit not in {"W", "USD"}
    capital = priced(study)
    head = (
        "",
        "platform",
        "switch",
        "oversub",
        "GPUs",
        "IT power",
        *(("capital",) if capital else ()),
    )
    stdout.print(
        table(
            f"trade study: {study.objective}",
            (*head, "objective", "note") if own_column else (*head, "note"),
            (
                (
                    "*" if a.chosen else "",
                    a.platform,
                    a.switch,
                    ratio(a.oversubscription),
                    f"{a.gpus:,}",
                    ("" if a.power_complete else ">= ") + fmt_w(a.it_power_w),
                    *((capital_cell(a, ">= "),) if capital else ()),
                    *((figure(study, a),) if own_column else ()),
                    short_reason(a.why_not, study.objective_unit),
                )
                for a in study.rows[:SHOWN_ROWS]
            ),
            no_wrap=("platform", "switch"),
        )
    )
    more = len(study.rows) - SHOWN_ROWS
    if more > 0:
        say(f"({more} more rows in the memo and in --json)")
    if capital:
        say("capital: the priced BOM lines; >= where some lines are unpriced (unknown, not $0)")
    say(f"why: {why_winner(study)}")


def _checks(checks: list[Check]) -> Table:
    """Every check: PASS, WARN (a failed warning), FAIL or UNKNOWN, coloured, and its figure."""

    return table(
        "checks",
        ("result", "check", "figure"),
        ((mark(ch.status), ch.name, ch.figure) for ch in checks),
    )


def _run_report(d: Design) -> None:
    """What an agent run adds: its cost, how the memo's numbers matched the design, the memo."""
    if d.agent is not None:
        run = d.agent
        stdout.print(
            f"agent: {run.model} via {run.protocol} protocol, {run.turns} round trips, "
            f"{run.tool_calls} tool calls, {run.repairs} repairs, "
            f"{run.prompt_tokens:,}+{run.completion_tokens:,} tokens, {run.latency_s:.1f} s",
            markup=False,
        )
    if d.grounding is not None:
        g = d.grounding
        stdout.print(
            f"memo numbers checked against the design: {g.matched} of {g.numbers} matched"
            + (f"; unverified: {', '.join(g.unmatched)}" if g.unmatched else ""),
            markup=False,
        )
    if d.memo:
        stdout.print(
            "\nmodel's memo (numbers checked; [unverified] marks those that are not):",
            markup=False,
        )
        stdout.print(d.memo, markup=False)


def _footnotes(d: Design) -> None:
    """Assumptions, words not understood, and warnings (to stderr)."""
    from clustergen.engine.report.words import field_words, value_words
    from clustergen.engine.sizing.workload import is_slow_first_token

    for a in d.assumptions:
        say(f"assumed {field_words(a.field)} = {value_words(a.value)}: {a.reason}")
    for w in d.warnings:
        if not is_slow_first_token(w):  # said first, before the verdict
            say(f"warning: {w}", err=True)
