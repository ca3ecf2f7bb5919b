"""The workload estimate in the terminal: its headline, then its method (wrapped), its warnings,
the GPUs that meet what it does not, and for serving the throughput-vs-interactivity table."""

from __future__ import annotations

from clustergen.cli.output import say, stdout
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.model.workload import WorkloadEstimate
from clustergen.engine.report.documents.workload import (
    advice_lines,
    cost_lines,
    interactivity_rows,
    precision_line,
    workload_lines,
)
from clustergen.errors import RequestError


def refuse_unread(request: DesignRequest, strict: bool) -> None:
    """With --strict, a request with words not understood is refused before any sizing."""
    if strict and request.not_understood:
        raise RequestError(
            f"not understood: {', '.join(request.not_understood)}",
            hint="rephrase or drop those words, or leave out --strict to size what was read",
        )


def first_lines(request: DesignRequest, warnings: list[str]) -> None:
    """What was not understood, how a deadline was counted, and what is not modelled, before
    any figure."""
    from clustergen.engine.model.request import LOAD_NOTE
    from clustergen.engine.request.rules.durations import DEADLINE_NOTE
    from clustergen.engine.sizing.workload import is_slow_first_token

    # people waiting tens of seconds for a first token is the first thing said
    for w in warnings:
        if is_slow_first_token(w):
            say(f"warning: {w}")
    if request.not_understood:
        say(f"not understood: {', '.join(request.not_understood)} (ignored; --strict refuses)")
    for note in request.understood:
        if f"-> {DEADLINE_NOTE} " in note:
            say(f"read {note}")
        elif note.startswith(LOAD_NOTE):
            say(note)
    for w in warnings:
        if not is_slow_first_token(w):
            say(f"warning: {w}")


def print_workload(w: WorkloadEstimate) -> None:
    """Print the estimate's headline and method, plain text (no markup), then the GPUs that
    meet what it does not and its interactivity table. Its warnings are printed once, at the top
    (`first_lines`), not again here."""
    head, method = workload_lines(w)
    stdout.print(f"workload: {head}", markup=False, highlight=False, soft_wrap=False)
    if both := precision_line(w):
        stdout.print(both, markup=False, highlight=False, soft_wrap=False)
    stdout.print(method, markup=False, highlight=False, style="dim", soft_wrap=False)
    for line in [*cost_lines(w), *advice_lines(w.model_copy(update={"warnings": []}))]:
        stdout.print(line, markup=False, highlight=False, soft_wrap=False)
    print_interactivity(w)


def print_interactivity(w: WorkloadEstimate) -> None:
    """Output tokens/s per GPU against tokens/s per user, one column per GPU type."""
    header, rows = interactivity_rows(w)
    if not rows:
        return
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    stdout.print(
        f"output tokens/s per GPU by interactivity (ISL/OSL as above"
        f"{', TTFT limit held' if w.ttft_ms is not None else ''}):",
        markup=False,
        highlight=False,
    )
    for r in [header, *rows]:
        text = "  ".join(
            c.ljust(widths[i]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(r)
        )
        stdout.print("  " + text, markup=False, highlight=False, soft_wrap=False)
