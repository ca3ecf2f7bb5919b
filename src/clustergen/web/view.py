"""A design as the page shows it: the terminal's first lines, then each table as plain rows of
text. Every string goes to a template that escapes it; nothing here builds HTML."""

from __future__ import annotations

from typing import Any, NamedTuple

from clustergen.engine.model.design import Design
from clustergen.engine.report.documents.study import (
    capital_cell,
    figure,
    priced,
    short_reason,
    why_winner,
)
from clustergen.engine.report.documents.workload import (
    advice_lines,
    cost_lines,
    interactivity_rows,
    precision_line,
    workload_lines,
)
from clustergen.engine.report.figures import design_rows, headroom_words
from clustergen.engine.report.scale_words import what_text
from clustergen.engine.report.words import field_words, power_rows, value_words, verdict
from clustergen.units import dollars, plural, ratio, watts


class Table(NamedTuple):
    """A table to show: its caption, header and rows of cells (each cell text, and for the BOM
    a number to sort by)."""

    caption: str
    header: list[str]
    rows: list[list[str]]
    numeric: list[bool]  # which columns sort as numbers
    sort_keys: tuple[tuple[str, ...], ...] = ()  # per row, each number to sort by ("" unknown)
    wrap: int = -1  # the one column of long text, wrapped (the others keep to one line)


def answer(d: Design) -> dict[str, Any]:
    """Everything the answer shows, as text: first lines, tables, notes."""
    v = verdict(d)
    return {
        "status": v.status,
        "headline": f"{what_text(d)}: {v.line}",
        "gpus": d.compute.gpus,
        "platform": d.platform.name,
        "mode": f"{d.mode} mode, catalog {d.provenance.catalog_hash}",
        "why": d.platform.reason,
        "notes": first_notes(d),
        "sized_for": sized_for(d),
        "figures": design_rows(d),
        "study": study_table(d),
        "why_winner": why_winner(d.alternatives) if d.alternatives else None,
        "checks": [(ch.status, ch.name, ch.figure, ch.detail) for ch in d.checks],
        "workload": workload_text(d),
        "interactivity": interactivity_table(d),
        "power": power_table(d),
        "bom": bom_table(d),
        "assumed": [
            f"assumed {field_words(a.field)} = {value_words(a.value)}: {a.reason}"
            for a in d.assumptions
        ],
        "warnings": list(d.warnings),
        "memo": d.memo,
    }


def first_notes(d: Design) -> list[str]:
    """What the terminal says before the figures: words not understood, how a deadline was
    read, a notice, the scale caveat."""
    from clustergen.engine.request.rules.durations import DEADLINE_NOTE

    notes = []
    if d.request.not_understood:
        notes.append(f"not understood: {', '.join(d.request.not_understood)} (ignored)")
    notes += [f"read {n}" for n in d.request.understood if f"-> {DEADLINE_NOTE} " in n]
    if d.notice:
        notes.append(f"note: {d.notice}")
    if d.scale and d.scale.caveat:
        notes.append(f"scale: {d.scale.caveat}")
    return notes


def sized_for(d: Design) -> str:
    """The load the design was sized for, as the request gave it (and the workload's estimate)."""
    r = d.request
    parts = []
    if r.gpus:
        parts.append(plural(r.gpus, "GPU"))
    if r.nodes:
        parts.append(plural(r.nodes, "node"))
    if r.spare_nodes:
        parts.append(f"{plural(r.spare_nodes, 'spare node')} beside them")
    # the estimate's headline opens with the workload ('inference; workload: inference ...')
    if r.workload and d.workload is None:
        parts.append(r.workload)
    if r.power_cap_w:
        basis = f" ({value_words(r.power_cap_basis)})" if r.power_cap_basis else ""
        parts.append(f"{watts(r.power_cap_w)} cap{basis}")
    if r.capital_budget_usd:
        parts.append(f"{dollars(r.capital_budget_usd)} capital")
    if d.workload is not None:
        parts.append(f"workload: {workload_lines(d.workload)[0]}")
    return "; ".join(parts) or "the request's defaults"


def study_table(d: Design) -> Table | None:
    """The trade study, every row, the chosen one starred."""
    study = d.alternatives
    if study is None:
        return None
    capital = priced(study)
    # with IT power or capital as the objective, its column would repeat that column (the
    # terminal leaves it out so too)
    own_column = study.objective_unit not in {"W", "USD"}
    header = ["", "platform", "switch", "oversub", "GPUs", "IT power"]
    header += ["capital"] if capital else []
    header += ["objective", "note"] if own_column else ["note"]
    rows = [
        [
            "*" if a.chosen else "",
            a.platform,
            a.switch,
            ratio(a.oversubscription),
            f"{a.gpus:,}",
            ("" if a.power_complete else ">= ") + watts(a.it_power_w),
            *([capital_cell(a, ">= ")] if capital else []),
            *([figure(study, a)] if own_column else []),
            short_reason(a.why_not, study.objective_unit),
        ]
        for a in study.rows
    ]
    numeric = [h in ("GPUs", "IT power", "capital", "objective") for h in header]
    return Table(f"trade study: {study.objective}", header, rows, numeric, wrap=len(header) - 1)


def workload_text(d: Design) -> list[str]:
    """The workload estimate's headline, method, cost and advice lines."""
    w = d.workload
    if w is None:
        return []
    head, method = workload_lines(w)
    both = precision_line(w)
    return [
        head,
        *([both] if both else []),
        method,
        *cost_lines(w),
        *advice_lines(w.model_copy(update={"warnings": []})),
    ]


def interactivity_table(d: Design) -> Table | None:
    """Output tokens/s per GPU against tokens/s per user (serving)."""
    if d.workload is None:
        return None
    header, rows = interactivity_rows(d.workload)
    if not rows:
        return None
    return Table("output tokens/s per GPU by interactivity", header, rows, [False] * len(header))


def power_table(d: Design) -> Table:
    """Each subsystem's power, then the totals, the cap and the headroom."""
    p = d.power
    at_least = "" if p.complete else "at least "
    rows = [[r.label, r.text] for r in power_rows(d)]
    rows.append(["IT total", at_least + watts(p.it_total_w)])
    rows.append([f"facility total (PUE {p.pue:g})", at_least + watts(p.facility_total_w)])
    if p.cap_w is not None:
        # the basis in words: the engine's 'it' read as a pronoun ('cap (it)')
        rows.append([f"cap ({value_words(p.cap_basis or 'it')})", watts(p.cap_w)])
    if (left := headroom_words(d)) is not None:
        rows.append(["headroom", left])
    return Table("power", ["subsystem", "power"], rows, [False, False])


def _key(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


def bom_table(d: Design) -> Table:
    """The bill of materials, one row per line; unknown power or price said, never zero."""
    rows, keys = [], []
    for ln in d.bom:
        rows.append(
            [
                ln.category,
                ln.part or "",
                ln.description,
                f"{ln.quantity:,}",
                "unknown" if ln.total_power_w is None else watts(ln.total_power_w),
                "unknown" if ln.unit_price_usd is None else dollars(ln.unit_price_usd),
                "unknown" if ln.total_price_usd is None else dollars(ln.total_price_usd),
            ]
        )
        numbers = (ln.quantity, ln.total_power_w, ln.unit_price_usd, ln.total_price_usd)
        keys.append(("", "", "", *(_key(n) for n in numbers)))
    header = ["category", "part", "description", "qty", "power", "unit price", "price"]
    numeric = [False, False, False, True, True, True, True]
    return Table("bill of materials", header, rows, numeric, tuple(keys), wrap=2)


class Figures(NamedTuple):
    """The figures a control's before/after compares."""

    platform: str
    gpus: int
    it_mw: float
    facility_mw: float
    switches: int
    racks: int
    checks: str


def figures(d: Design) -> Figures:
    f = d.fabrics
    switches = sum(x.total_switches for x in (f.compute, f.storage, f.inband, f.oob) if x)
    return Figures(
        platform=d.platform.system,
        gpus=d.compute.gpus,
        it_mw=d.power.it_total_w / 1e6,
        facility_mw=d.power.facility_total_w / 1e6,
        switches=switches,
        racks=d.racks.total_racks,
        checks=verdict(d).line,
    )


_LABELS = {
    "platform": "platform",
    "gpus": "GPUs",
    "it_mw": "IT MW",
    "facility_mw": "facility MW",
    "switches": "switches",
    "racks": "racks",
    "checks": "checks",
}


def _shown(value: object) -> str:
    if isinstance(value, float):
        return f"{value:,.3f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def changes(before: Design, after: Design) -> list[tuple[str, str, str, bool]]:
    """Before and after of each compared figure: (label, before, after, changed)."""
    old, new = figures(before), figures(after)
    return [
        (_LABELS[name], _shown(a), _shown(b), _shown(a) != _shown(b))
        for name, a, b in zip(Figures._fields, old, new, strict=True)
    ]
