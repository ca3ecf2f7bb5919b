"""The BOM as files a buyer opens: `bom.csv` (one row per line, every field) and `bom.xlsx` (a
summary sheet beside the lines, prices where a catalog layer gives them)."""

from __future__ import annotations

import csv
import io
from typing import NamedTuple

from clustergen.engine.model.bom import BomLine
from clustergen.engine.model.design import Design
from clustergen.engine.report.plain_text import cell_text


def bom_csv(d: Design) -> str:
    """The BOM as CSV text: one row per line, every field of the line; no field a spreadsheet
    would evaluate (`safe_text.csv_cell`)."""
    buf = io.StringIO()
    fields = list(BomLine.model_fields)
    w = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    w.writeheader()
    for line in d.bom:
        w.writerow({k: cell_text(v) for k, v in line.model_dump().items()})
    return buf.getvalue()


class CategoryTotal(NamedTuple):
    """The BOM lines of one category, added up."""

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


def bom_xlsx(d: Design) -> bytes:
    """The BOM as an Excel workbook (engine/report/files/workbook.py)."""
    from clustergen.engine.report.files.workbook import bom_xlsx as workbook

    return workbook(d)
