"""The workload estimate in the terminal: its headline, then its method (wrapped)."""

from __future__ import annotations

from clustergen.cli.output import say, stdout
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.model.workload import WorkloadEstimate
from clustergen.engine.report.workload import workload_lines
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
    from clustergen.engine.request.durations import DEADLINE_NOTE

    if request.not_understood:
        say(f"not understood: {', '.join(request.not_understood)} (ignored; --strict refuses)")
    for note in request.understood:
        if f"-> {DEADLINE_NOTE} " in note:
            say(f"read {note}")
    for w in warnings:
        say(f"warning: {w}")


def print_workload(w: WorkloadEstimate) -> None:
    """Print the estimate's headline and method, plain text (no markup)."""
    head, method = workload_lines(w)
    stdout.print(f"workload: {head}", markup=False, highlight=False, soft_wrap=False)
    stdout.print(method, markup=False, highlight=False, style="dim", soft_wrap=False)
