"""The BOM as files a buyer opens: `bom.csv` (one row per line, every field) and `bom.xlsx` (a
summary sheet beside the lines, prices where a catalog layer gives them)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel, ConfigDict

from clustergen.engine.model.bom import BomLine
from clustergen.engine.model.design import Design
from clustergen.engine.report.words import verdict
from clustergen.safe_text import csv_cell, xlsx_row
from clustergen.units import watts

#: what the OPN column says where the catalog's sources publish no orderable part number
NO_OPN = "to confirm with the vendor"


def bom_csv(d: Design) -> str:
    """The BOM as CSV text: one row per line, every field of the line; no field a spreadsheet
    would evaluate (`safe_text.csv_cell`)."""
    buf = io.StringIO()
    fields = list(BomLine.model_fields)
    w = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    w.writeheader()
    for line in d.bom:
        w.writerow({k: csv_cell(v) for k, v in line.model_dump().items()})
    return buf.getvalue()


class CategoryTotal(BaseModel):
    """The BOM lines of one category, added up."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    category: str
    lines: int
    quantity: int
    power_w: float
    power_unknown_lines: int
    price_usd: float | None
    unpriced_lines: int
    placeholder_lines: int


def category_totals(d: Design) -> list[CategoryTotal]:
    """One row per BOM category, in the BOM's order: quantity, power and price added up, and how
    many lines have no power, no price or are placeholders (never counted as zero silently)."""
    order: dict[str, list[BomLine]] = {}
    for line in d.bom:
        order.setdefault(line.category, []).append(line)
    out = []
    for cat, lines in order.items():
        priced = [ln.total_price_usd for ln in lines if ln.total_price_usd is not None]
        out.append(
            CategoryTotal(
                category=cat,
                lines=len(lines),
                quantity=sum(ln.quantity for ln in lines),
                power_w=sum(ln.total_power_w or 0.0 for ln in lines),
                power_unknown_lines=sum(
                    1 for ln in lines if ln.total_power_w is None and ln.unit_power_w is None
                ),
                price_usd=sum(priced) if priced else None,
                unpriced_lines=len(lines) - len(priced),
                placeholder_lines=sum(ln.placeholder for ln in lines),
            )
        )
    return out


def bom_power_w(d: Design) -> float:
    """The BOM's power: every line whose power is known (equals the design's IT power)."""
    return sum(line.total_power_w or 0.0 for line in d.bom)


def _summary_rows(d: Design) -> Iterator[tuple[Any, ...]]:
    v = verdict(d)
    p, c, pw, t = d.platform, d.compute, d.power, d.bom_totals
    yield ("Design", f"{c.gpus} x {p.gpu_name} on {c.nodes} x {p.name}")
    yield ("Checks", f"{v.status}: {v.line}")
    yield ("IT power (design)", watts(pw.it_total_w))
    yield ("IT power (sum of BOM lines)", watts(bom_power_w(d)))
    yield ("Facility power", f"{watts(pw.facility_total_w)} at PUE {pw.pue:g}")
    total = "unpriced" if t.total_price_usd is None else f"${t.total_price_usd:,.0f}"
    yield ("Price total", f"{total} ({t.price_note})")
    yield ("Lines", f"{t.lines} ({sum(ln.placeholder for ln in d.bom)} placeholders to settle)")
    yield (
        "Made by",
        f"clustergen {d.provenance.engine_version}, catalog {d.provenance.catalog_hash}",
    )


def bom_xlsx(d: Design) -> bytes:
    """The BOM as an Excel workbook: a Summary sheet (the design, the verdict, power reconciled
    with the design, totals per category) and a BOM sheet (every line, OPNs, prices). Every cell
    is written as text or a number, never as a formula (`safe_text.xlsx_row`)."""
    from openpyxl import Workbook  # imported here: only a bundle needs it
    from openpyxl.styles import Font

    wb = Workbook()
    ws = wb.active
    ws.title = "Summary"
    bold = Font(bold=True)
    for row in _summary_rows(d):
        xlsx_row(ws, list(row))
        ws.cell(ws.max_row, 1).font = bold
    ws.append([])
    head = ["category", "lines", "quantity", "power (W)", "price (USD)", "placeholders"]
    xlsx_row(ws, head)
    for cell in ws[ws.max_row]:
        cell.font = bold
    for ct in category_totals(d):
        xlsx_row(
            ws,
            [
                ct.category,
                ct.lines,
                ct.quantity,
                ct.power_w,
                ct.price_usd,
                ct.placeholder_lines,
            ],
        )
    ws.column_dimensions["A"].width = 28
    ws.column_dimensions["B"].width = 70
    lines = wb.create_sheet("BOM")
    fields = list(BomLine.model_fields)
    xlsx_row(lines, fields)
    for cell in lines[1]:
        cell.font = bold
    for line in d.bom:
        values = line.model_dump()
        if values["opn"] is None and not line.placeholder:
            values["opn"] = NO_OPN
        xlsx_row(lines, [values[f] for f in fields])
    lines.freeze_panes = "A2"
    for col, width in zip(
        "ABCDEFGHIJKL", (16, 18, 22, 70, 9, 12, 13, 14, 15, 30, 60, 11), strict=False
    ):
        lines.column_dimensions[col].width = width
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()
