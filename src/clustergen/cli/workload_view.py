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


def first_lines(not_understood: list[str], warnings: list[str]) -> None:
    """What was not understood and what is not modelled, before any figure."""
    if not_understood:
        say(f"not understood: {', '.join(not_understood)} (ignored; --strict refuses)")
    for w in warnings:
        say(f"warning: {w}")


def print_workload(w: WorkloadEstimate) -> None:
    """Print the estimate's headline and method, plain text (no markup)."""
    head, method = workload_lines(w)
    stdout.print(f"workload: {head}", markup=False, highlight=False, soft_wrap=False)
    stdout.print(method, markup=False, highlight=False, style="dim", soft_wrap=False)
