"""What an edit of a design's request or choices did, in the figures a reader weighs first.

`clustergen render` of an edited design.json answers with one verdict line ("Edited design: 2
checks now FAIL; 16 more GPUs, +0.21 MW IT") and a before/after table of the headline figures,
not a diff of every figure the rebuild moved (the CLI still gives that on request).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from clustergen.engine.model.design import Design
from clustergen.engine.report.words import verdict
from clustergen.units import plural


class EditRow(BaseModel):
    """One headline figure before and after the edit, as the table shows it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    figure: str
    before: str
    after: str
    change: str = Field(description="the difference in words; empty when unchanged")


class EditSummary(BaseModel):
    """The verdict of an edit and its headline figures before and after."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    verdict: str
    rows: list[EditRow]


def _switches(d: Design) -> int:
    fabrics = (d.fabrics.compute, d.fabrics.storage, d.fabrics.inband, d.fabrics.oob)
    return sum(f.total_switches for f in fabrics if f is not None)


def _checks(d: Design) -> str:
    v = verdict(d)
    text = f"{v.passed} pass, {v.warned} warn, {v.failed} fail"
    return text + (f", {v.unknown} cannot tell" if v.unknown else "")


def _count_change(before: int, after: int) -> str:
    if after == before:
        return ""
    return f"{after - before:+,}"


def _mw_change(before: float, after: float) -> str:
    delta = (after - before) / 1e6
    return "" if abs(delta) < 5e-4 else f"{delta:+.3f} MW"


def _rows(before: Design, after: Design) -> list[EditRow]:
    counts = (
        ("GPUs", before.compute.gpus, after.compute.gpus),
        ("switches", _switches(before), _switches(after)),
        ("racks", before.racks.total_racks, after.racks.total_racks),
        ("BOM lines", len(before.bom), len(after.bom)),
    )
    power = (
        ("IT power", before.power.it_total_w, after.power.it_total_w),
        ("facility power", before.power.facility_total_w, after.power.facility_total_w),
    )
    rows = [
        EditRow(figure=name, before=f"{a:,}", after=f"{b:,}", change=_count_change(a, b))
        for name, a, b in counts[:1]
    ]
    rows += [
        EditRow(
            figure=name,
            before=f"{a / 1e6:.3f} MW",
            after=f"{b / 1e6:.3f} MW",
            change=_mw_change(a, b),
        )
        for name, a, b in power
    ]
    rows += [
        EditRow(figure=name, before=f"{a:,}", after=f"{b:,}", change=_count_change(a, b))
        for name, a, b in counts[1:]
    ]
    a, b = _checks(before), _checks(after)
    rows.append(EditRow(figure="checks", before=a, after=b, change="" if a == b else "changed"))
    if before.platform.system != after.platform.system:
        rows.insert(
            0,
            EditRow(
                figure="platform",
                before=before.platform.system,
                after=after.platform.system,
                change="changed",
            ),
        )
    return rows


def _checks_words(before: Design, after: Design) -> str:
    """What the edit did to the checks: those that now fail or warn, or that they all pass."""
    was = {c.name: c.status for c in before.checks}
    worse = {
        status: sum(1 for c in after.checks if c.status == status and was.get(c.name) != status)
        for status in ("FAIL", "WARN", "UNKNOWN")
    }
    said = [
        f"{plural(n, 'check')} now {status if status != 'UNKNOWN' else 'cannot tell'}"
        for status, n in worse.items()
        if n
    ]
    if said:
        return ", ".join(said)
    v = verdict(after)
    if v.status == "PASS":
        again = "still" if all(c.status in ("PASS", "INFO") for c in before.checks) else "now"
        return f"all {len(after.checks)} checks {again} pass"
    return f"no check newly fails or warns ({v.line})"


def _gpu_words(before: int, after: int) -> str:
    if after == before:
        return f"same {plural(after, 'GPU')}"
    more = after - before
    word = "more" if more > 0 else "fewer"
    return f"{abs(more):,} {word} GPUs ({after:,})"


def edit_summary(before: Design, after: Design) -> EditSummary:
    """The verdict line and the headline table of an edit: `before` is the design as the file
    held it (its figures as the engine last built them), `after` the design rebuilt from the
    edited request and choices."""
    it = (after.power.it_total_w - before.power.it_total_w) / 1e6
    parts = [_checks_words(before, after), _gpu_words(before.compute.gpus, after.compute.gpus)]
    line = f"Edited design: {parts[0]}; {parts[1]}, {it:+.2f} MW IT"
    if before.platform.system != after.platform.system:
        line += f"; platform {before.platform.system} -> {after.platform.system}"
    return EditSummary(verdict=line, rows=_rows(before, after))
