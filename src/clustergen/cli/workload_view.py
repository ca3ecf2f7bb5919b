"""The workload estimate in the terminal: its headline, then its method (wrapped), its warnings,
the GPUs that meet what it does not, and for serving the throughput-vs-interactivity table."""

from __future__ import annotations

from clustergen.cli.output import stdout
from clustergen.engine.model.workload import WorkloadEstimate
from clustergen.engine.report.workload import advice_lines, interactivity_rows, workload_lines


def print_workload(w: WorkloadEstimate) -> None:
    """Print the estimate's headline and method, plain text (no markup), then its advice and
    its interactivity table."""
    head, method = workload_lines(w)
    stdout.print(f"workload: {head}", markup=False, highlight=False, soft_wrap=False)
    stdout.print(method, markup=False, highlight=False, style="dim", soft_wrap=False)
    for line in advice_lines(w):
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
