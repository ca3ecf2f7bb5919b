"""`bom.xlsx`: the workbook a buyer quotes from.

Sheets: Summary (figures as numbers, units in the headers), BOM (an Excel table with a filter;
line power and price are formulas of quantity and unit figures, so a price typed in updates its
line and every total), Quote (one row per orderable part, quantities and prices as formulas over
the BOM), Links (every link group with both ends and its cable), Power, Sources. Every sheet has
a frozen header and prints landscape, fit to the page width, its header repeated on each page.
A figure that is not known is a blank cell with a flag beside it, never a 0; a part with no
published OPN has an empty OPN cell and a status that says so.

openpyxl was kept over XlsxWriter: it is already a dependency, and it writes tables, formulas,
number formats, print titles and document properties, which is all this workbook needs.
"""

from __future__ import annotations

import io
from collections import Counter
from typing import Any, NamedTuple

from clustergen.engine.model.bom import BomLine
from clustergen.engine.model.design import Design
from clustergen.engine.model.inventory import PARTS
from clustergen.engine.report.plain_text import cell_text
from clustergen.engine.report.scale_words import node_noun, units_text
from clustergen.engine.report.words import power_rows, verdict
from clustergen.safe_text import plain, xlsx_cell

QTY = "#,##0"
WATTS = "#,##0"
KW = "#,##0.0"
USD = '"$"#,##0.00'

#: BOM sheet columns: header, width, number format
BOM_COLUMNS: list[tuple[str, int, str | None]] = [
    ("Category", 14, None),
    ("Part", 18, None),
    ("OPN", 20, None),
    ("Description", 70, None),
    ("Status", 26, None),
    ("Quantity", 10, QTY),
    ("Order quantity", 10, QTY),
    ("Unit power (W)", 11, WATTS),
    ("Line power (W)", 12, WATTS),
    ("Unit price (USD)", 13, USD),
    ("Line price (USD)", 15, USD),
    ("To settle", 30, None),
    ("Source", 60, None),
    ("Price source", 30, None),
]
#: BOM columns on the printed page (the sources print on their own sheet)
_PRINTED = [c[0] for c in BOM_COLUMNS].index("To settle") + 1


class Formula(str):
    """A formula this module writes (arithmetic over the workbook's own cells): the only text
    written as a formula. Everything else, a design's strings included, is written as data."""


def _append(ws: Any, values: list[Any]) -> None:
    """Append a row: our formulas as formulas, every other string as a text cell
    (`safe_text.xlsx_cell`), numbers and blanks as they are."""
    ws.append([None] * len(values))
    row = ws.max_row
    for column, value in enumerate(values, start=1):
        cell = ws.cell(row=row, column=column)
        if isinstance(value, Formula):
            cell.value = str(value)
        else:
            xlsx_cell(cell, value)


def _col(name: str) -> str:
    """The column letter of a BOM sheet column."""
    from openpyxl.utils import get_column_letter

    return str(get_column_letter(next(i for i, c in enumerate(BOM_COLUMNS, 1) if c[0] == name)))


def to_settle(line: BomLine) -> str:
    """What a buyer must settle on a line before it can be quoted (empty when nothing)."""
    if line.status != "order":
        return ""
    flags = []
    if line.placeholder:
        flags.append("part to choose" if line.part is None else "catalog values assumed")
    if line.opn is None and line.part is not None:
        flags.append("OPN to confirm with the vendor")
    if line.unit_price_usd is None:
        flags.append("price to quote")
    if line.unit_power_w is None and PARTS[line.category].powered:
        flags.append("power not counted")
    return "; ".join(flags)


class _Bom(NamedTuple):
    """Where the BOM sheet's figures are, for the formulas of the other sheets."""

    first: int
    last: int
    total_row: int


def _style_header(ws: Any, row: int = 1) -> None:
    from openpyxl.styles import Alignment, Font, PatternFill

    for cell in ws[row]:
        cell.font = Font(bold=True)
        cell.fill = PatternFill("solid", fgColor="DDEBF7")
        cell.alignment = Alignment(wrap_text=True, vertical="top")
    _number_heads(ws, row)
    _fit_height(ws, row)


def _number_heads(ws: Any, head: int, last: int | None = None) -> None:
    """A header over a column of figures stands right-aligned, over its figures. Left-aligned
    above a wide column's right-aligned numbers it read as the next column's header: the BOM
    printed 'Order quantity' 1 under 'Unit power (W)' and the node's 14,300 W under 'Line power'.
    A column is of figures when each filled cell below the header is a number or a formula, or,
    with none filled (an unpriced BOM's prices), when its cells carry a number format."""
    from openpyxl.styles import Alignment

    last = ws.max_row if last is None else last
    for cell in ws[head]:
        if cell.value is None:
            continue
        below = [ws.cell(r, cell.column) for r in range(head + 1, last + 1)]
        filled = [c for c in below if c.value is not None and c.value != ""]
        figures = all(
            c.data_type == "f" or (isinstance(c.value, int | float) and c.data_type == "n")
            for c in filled
        )
        formatted = any(c.number_format != "General" for c in below)
        if (filled and figures) or (not filled and formatted):
            cell.alignment = Alignment(wrap_text=True, vertical="top", horizontal="right")


def _set_apart(cell: Any) -> None:
    """A note beside a right-aligned number, indented so the two do not read as one ('4' and
    '4 SUs of up to 32 nodes' printed as '44 SUs ...')."""
    from openpyxl.styles import Alignment

    cell.alignment = Alignment(horizontal="left", indent=1)  # LibreOffice ignores a bare indent


def _print_setup(ws: Any, header_row: int = 1) -> None:
    """Landscape, fit to one page wide, the header repeated, the header frozen."""
    ws.page_setup.orientation = "landscape"
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.print_title_rows = f"{header_row}:{header_row}"
    ws.freeze_panes = ws.cell(header_row + 1, 1).coordinate
    ws.print_options.gridLines = False


def _bom_sheet(wb: Any, d: Design) -> _Bom:
    from openpyxl.styles import Alignment, Font
    from openpyxl.worksheet.table import Table, TableStyleInfo

    ws = wb.create_sheet("BOM")
    _append(ws, [c[0] for c in BOM_COLUMNS])
    q, oq, up, lp, pr, lt = (
        _col("Quantity"),
        _col("Order quantity"),
        _col("Unit power (W)"),
        _col("Line power (W)"),
        _col("Unit price (USD)"),
        _col("Line price (USD)"),
    )
    for r, ln in enumerate(d.bom, start=2):
        _append(
            ws,
            [
                cell_text(ln.category),
                cell_text(ln.part),
                cell_text(ln.opn),
                cell_text(ln.description),
                cell_text(ln.status),
                ln.quantity,
                ln.order_quantity,
                ln.unit_power_w,
                Formula(f'=IF({up}{r}="","",{q}{r}*{up}{r})'),
                ln.unit_price_usd,
                Formula(f'=IF(OR({oq}{r}="",{pr}{r}=""),"",{oq}{r}*{pr}{r})'),
                cell_text(to_settle(ln)),
                cell_text(ln.source),
                cell_text(ln.price_source),
            ],
        )
    last = max(2, len(d.bom) + 1)
    table = Table(displayName="BOM", ref=f"A1:{_col('Price source')}{last}")
    table.tableStyleInfo = TableStyleInfo(name="TableStyleLight9", showRowStripes=True)
    ws.add_table(table)
    total = last + 2
    ws.cell(total, 1, "Total (orderable lines; filtered rows left out)").font = Font(bold=True)
    for col in (oq, lp, lt):
        c = ws[f"{col}{total}"]
        # blank, not 0, while no line has the figure (an unpriced BOM has no total)
        rng = f"{col}2:{col}{last}"
        c.value = Formula(f'=IF(COUNT({rng})=0,"",SUBTOTAL(109,{rng}))')
        c.font = Font(bold=True)
    for i, (_, width, fmt) in enumerate(BOM_COLUMNS, 1):
        letter = ws.cell(1, i).column_letter
        ws.column_dimensions[letter].width = width
        if fmt:
            for row in ws.iter_rows(min_row=2, max_row=total, min_col=i, max_col=i):
                row[0].number_format = fmt
    wrap = Alignment(wrap_text=True, vertical="top")
    for row in ws.iter_rows(min_row=2, max_row=last):
        for cell in row:
            cell.alignment = wrap
        _fit_height(ws, row[0].row, _PRINTED)
    _style_header(ws)
    _print_setup(ws)
    _fit_height(ws, 1)
    # the sources print on their own sheet; the BOM page keeps to what a buyer reads
    ws.print_area = f"A1:{_col('To settle')}{total}"
    return _Bom(first=2, last=last, total_row=total)


def _fit_height(ws: Any, row: int, last_col: int = 1000) -> None:
    """A row tall enough for its wrapped text (spreadsheets do not grow rows a file sets none
    for when they print): the most lines any cell needs at its column's width."""
    lines = 1
    for cell in ws[row][:last_col]:
        if isinstance(cell.value, str) and cell.data_type != "f":
            width = ws.column_dimensions[cell.column_letter].width or 10
            lines = max(lines, _wrapped_lines(cell.value, int(width)))
    ws.row_dimensions[row].height = 15 * min(lines, 12)


def _wrapped_lines(text: str, width: int) -> int:
    """The lines a text wraps to in a column `width` characters wide, broken between words as a
    spreadsheet breaks them (a header's 'End A transceivers' is 2 lines at width 12, which a
    count of characters said was 1; its second line then printed over the first row)."""
    room = max(1, width * 10 // 11)
    lines, used = 1, 0
    for word in text.split():
        n = len(word)
        if used and used + 1 + n <= room:
            used += 1 + n
            continue
        if used:
            lines += 1
        # a word no wider than the column stands on its own line; a longer one breaks inside
        inside = (n - 1) // width if n > width else 0
        lines += inside
        used = n - inside * width
    return lines


def _racks_note(d: Design) -> str:
    """What the racks in all are, as the terminal and the memo count them ('29 compute + 5
    network + 1 management'); one DGX's single rack read 'compute, network, storage and
    management', four kinds of rack where one stands."""
    from clustergen.engine.report.figures import support_racks_words

    r = d.racks
    if r.total_racks != r.compute.compute_racks + r.network_racks:
        return "compute, network, storage and management"
    if not r.network_racks:
        return f"{r.compute.compute_racks:,} compute; switches and servers in a compute rack"
    return f"{r.compute.compute_racks:,} compute + {support_racks_words(d)}"


def _scalable_units(d: Design) -> tuple[float | None, str, str]:
    """The SU count, its format and its note: part of one SU is a fraction ('2 of the 8 racks
    of an SU' is 0.25), never rounded up to a whole SU the design does not build."""
    c = d.compute
    if not c.su_nodes:
        return None, QTY, ""
    if c.nodes < c.su_nodes:
        return round(c.nodes / c.su_nodes, 3), "0.00#", units_text(d) or ""
    return c.scalable_units, QTY, units_text(d) or ""


def _summary_sheet(ws: Any, d: Design, bom: _Bom) -> None:
    from openpyxl.styles import Alignment, Font

    v, p, c, pw = verdict(d), d.platform, d.compute, d.power
    lp, lt = _col("Line power (W)"), _col("Line price (USD)")
    rows: list[tuple[str, Any, str | None, Any]] = [
        ("Platform", cell_text(p.name), None, ""),
        ("GPUs", c.gpus, QTY, cell_text(p.gpu_name)),
        (
            # a rack-scale system's node is a rack: "Compute racks", apart from the racks in all
            "Compute racks" if node_noun(d) == "rack" else node_noun(d).capitalize() + "s",
            c.nodes,
            QTY,
            f"{c.spare_nodes} of them spare, asked beyond the size" if c.spare_nodes else "",
        ),
        # a rack-scale system's node is a rack: the racks of every kind are a figure apart
        ("Racks in all", d.racks.total_racks, QTY, _racks_note(d)),
        ("Scalable units", *_scalable_units(d)),
        ("IT power, design (kW)", pw.it_total_w / 1e3, KW, ""),
        ("IT power, sum of BOM lines (kW)", Formula(f"=BOM!{lp}{bom.total_row}/1000"), KW, ""),
        ("Facility power (kW)", pw.facility_total_w / 1e3, KW, f"at PUE {pw.pue:g}"),
        (
            "Price of orderable lines (USD)",
            Formula(f"=BOM!{lt}{bom.total_row}"),
            USD,
            "type prices on BOM",
        ),
        ("BOM lines", len(d.bom), QTY, ""),
        ("Lines to settle", sum(1 for ln in d.bom if to_settle(ln)), QTY, "see BOM 'To settle'"),
        ("Checks", cell_text(v.status), None, cell_text(v.line)),
        ("Made by", f"clustergen {d.provenance.engine_version}", None, d.provenance.catalog_hash),
    ]
    e = d.expansion
    if e is not None:
        # the BOM is the increment's: a buyer reads that before any figure
        had = "size not stated" if e.existing_gpus is None else f"{e.existing_gpus:,} GPUs"
        rows.insert(
            0,
            (
                "Expansion of",
                cell_text(f"the existing {e.existing_platform} installation ({had})"),
                None,
                cell_text(
                    "figures and BOM are the increment only; what it adds and reuses is the "
                    "memo's note"
                ),
            ),
        )
    _append(ws, ["Figure", "Value", "Note"])
    for label, value, fmt, note in rows:
        _append(ws, [label, value, note or None])
        _set_apart(ws.cell(ws.max_row, 3))
        # a long note (an expansion's) wraps in its column: left to overflow, it widened the
        # printed page until every figure on it was too small to read
        for at in (2, 3):
            cell = ws.cell(ws.max_row, at)
            if isinstance(cell.value, str) and len(cell.value) > 40:
                indent = 1 if at == 3 else 0  # the note keeps its set-apart indent
                cell.alignment = Alignment(
                    wrap_text=True, vertical="top", horizontal="left", indent=indent
                )
                # LibreOffice keeps a row's height as written: room for the wrapped lines
                wrapped = -(-len(cell.value) // (20 if at == 2 else 38))
                height = ws.row_dimensions[ws.max_row].height or 15
                ws.row_dimensions[ws.max_row].height = max(height, 15 * wrapped)
                ws.cell(ws.max_row, 1).alignment = Alignment(vertical="top")
        if fmt:
            ws.cell(ws.max_row, 2).number_format = fmt
        if value is None:
            ws.cell(ws.max_row, 3).value = "not applicable"
    _append(ws, [])
    _append(ws, ["Category", "Lines", "Order quantity", "Line power (kW)", "Line price (USD)"])
    head = ws.max_row
    for cell in ws[head]:
        cell.font = Font(bold=True)
    oq = _col("Order quantity")
    lines = Counter(ln.category for ln in d.bom)  # in the BOM's order
    for cat, count in lines.items():
        r = ws.max_row + 1
        _append(
            ws,
            [
                cell_text(cat),
                count,
                _sum_if(oq, bom, r),
                _sum_if(lp, bom, r, "/1000"),
                _sum_if(lt, bom, r),
            ],
        )
        for col, fmt in (("B", QTY), ("C", QTY), ("D", KW), ("E", USD)):
            ws[f"{col}{r}"].number_format = fmt
    for col, width in zip("ABCDE", (34, 22, 40, 16, 18), strict=True):
        ws.column_dimensions[col].width = width
    _number_heads(ws, head)
    _style_header(ws)
    _print_setup(ws)


def _sum_if(col: str, bom: _Bom, r: int, scale: str = "") -> str:
    """The category's sum of a BOM column, blank (never 0) when no line of it has a number."""
    cats = f"BOM!$A${bom.first}:$A${bom.last}"
    vals = f"BOM!${col}${bom.first}:${col}${bom.last}"
    return Formula(
        f'=IF(SUMPRODUCT(({cats}=A{r})*ISNUMBER({vals}))=0,"",SUMIFS({vals},{cats},A{r}){scale})'
    )


def _quote_sheet(wb: Any, d: Design, bom: _Bom) -> None:
    """One row per orderable part (by catalog part, or by description for a generic line)."""
    from openpyxl.styles import Alignment

    ws = wb.create_sheet("Quote")
    _append(
        ws, ["OPN", "Part", "Description", "Order quantity", "Unit price (USD)", "Line price (USD)"]
    )
    pr = _col("Unit price (USD)")
    rows: dict[str, tuple[int, BomLine, int]] = {}  # key -> (first BOM row, line, quantity)
    for r, ln in enumerate(d.bom, start=bom.first):
        if ln.status != "order":
            continue
        key = ln.part or ln.description
        first, was, qty = rows.get(key, (r, ln, 0))
        rows[key] = (first, was, qty + (ln.order_quantity or 0))
    for r, (key, (first, ln, qty)) in enumerate(rows.items(), start=2):
        # the price is the BOM's (typed there, it updates here); the quantity is the design's
        _append(
            ws,
            [
                cell_text(ln.opn),
                cell_text(ln.part or ""),
                cell_text(ln.name if ln.part else key),
                qty,
                Formula(f'=IF(BOM!{pr}{first}="","",BOM!{pr}{first})'),
                Formula(f'=IF(E{r}="","",D{r}*E{r})'),
            ],
        )
    last = ws.max_row
    _append(ws, [])
    total = Formula(f'=IF(COUNT(F2:F{last})=0,"",SUM(F2:F{last}))')
    _append(ws, ["Total", None, None, Formula(f"=SUM(D2:D{last})"), None, total])
    for col, fmt in (("D", QTY), ("E", USD), ("F", USD)):
        for row in ws.iter_rows(min_row=2, max_row=ws.max_row):
            row[ord(col) - 65].number_format = fmt
    for col, width in zip("ABCDEF", (22, 40, 60, 14, 16, 18), strict=True):
        ws.column_dimensions[col].width = width
    # a long description wraps in its column: left to run on, it was cut at the quantity
    # ('NVIDIA twin-port 2x400G OSFP multimode transceiver, flat top (DGX system')
    wrap = Alignment(wrap_text=True, vertical="top")
    for row in ws.iter_rows(min_row=2, max_row=last):
        for cell in row:
            cell.alignment = wrap
        _fit_height(ws, row[0].row)
    _style_header(ws)
    _print_setup(ws)


def _links_sheet(wb: Any, d: Design) -> None:
    from openpyxl.styles import Alignment

    ws = wb.create_sheet("Links")
    _append(
        ws,
        [
            "Fabric",
            "Segment",
            "Links",
            "Speed (Gb/s)",
            "Media",
            "Cable",
            "Length class",
            "End A",
            "End A port",
            "End A transceiver",
            "End A transceivers",
            "End B",
            "End B transceiver",
            "End B transceivers",
        ],
    )
    for g in d.links:
        _append(
            ws,
            [
                cell_text(g.fabric),
                g.segment,
                g.links,
                g.speed_gbps,
                cell_text(g.media),
                cell_text(g.cable or ("storage vendor" if g.cable_supply != "order" else "")),
                g.length_class,
                cell_text(g.a.device),
                cell_text(g.a.port),
                cell_text(g.a.transceiver),
                g.a.transceivers,
                cell_text(g.b.device),
                cell_text(g.b.transceiver),
                g.b.transceivers,
            ],
        )
        for col in (3, 11, 14):
            ws.cell(ws.max_row, col).number_format = QTY
    for i, width in enumerate((22, 14, 9, 9, 28, 16, 10, 34, 34, 18, 13, 24, 18, 13), 1):
        ws.column_dimensions[ws.cell(1, i).column_letter].width = width
    # a long device, port or media name wraps in its column: left to run on, it was cut at
    # the next filled cell ('NVIDIA ConnectX-8 SuperNIC 800Gb/s (OS')
    wrap = Alignment(wrap_text=True, vertical="top")
    # a name right of a right-aligned count is set apart from it ('288SN5610 leaf')
    apart = Alignment(wrap_text=True, vertical="top", horizontal="left", indent=1)
    for row in ws.iter_rows(min_row=1, max_row=ws.max_row):
        for cell in row:
            cell.alignment = apart if cell.column in (5, 12) else wrap
        _fit_height(ws, row[0].row)
    _style_header(ws)
    for col in (5, 12):
        ws.cell(1, col).alignment = apart
    _print_setup(ws)


def _power_sheet(wb: Any, d: Design) -> None:
    ws = wb.create_sheet("Power")
    _append(ws, ["Subsystem", "Power (kW)", "Note"])
    for row in power_rows(d):
        note = "unknown" if row.known_w is None else ("lower bound" if row.partial else None)
        _append(ws, [row.label, None if row.known_w is None else row.known_w / 1e3, note])
        ws.cell(ws.max_row, 2).number_format = KW
    pw = d.power
    _append(ws, ["IT total", pw.it_total_w / 1e3, None if pw.complete else "at least"])
    ws.cell(ws.max_row, 2).number_format = KW
    _append(ws, ["Facility total", pw.facility_total_w / 1e3, f"at PUE {pw.pue:g}"])
    ws.cell(ws.max_row, 2).number_format = KW
    for r in range(2, ws.max_row + 1):
        _set_apart(ws.cell(r, 3))
    for col, width in zip("ABC", (40, 14, 20), strict=True):
        ws.column_dimensions[col].width = width
    _style_header(ws)
    _print_setup(ws)


def _sources_sheet(wb: Any, d: Design) -> None:
    from openpyxl.styles import Alignment

    ws = wb.create_sheet("Sources")
    _append(ws, ["Part", "Source", "Price source"])
    seen: set[tuple[str | None, str]] = set()
    for ln in d.bom:
        key = (ln.part, ln.source)
        if key in seen:
            continue
        seen.add(key)
        _append(
            ws,
            [
                cell_text(ln.part or ln.description),
                cell_text(ln.source),
                cell_text(ln.price_source),
            ],
        )
        for cell in ws[ws.max_row]:
            cell.alignment = Alignment(wrap_text=True, vertical="top")
    for col, width in zip("ABC", (30, 110, 40), strict=True):
        ws.column_dimensions[col].width = width
    for r in range(1, ws.max_row + 1):
        _fit_height(ws, r)
    _style_header(ws)
    _print_setup(ws)


def bom_xlsx(d: Design) -> bytes:
    """The BOM as an Excel workbook (see the module's docstring)."""
    from openpyxl import Workbook

    wb = Workbook()
    summary = wb.active
    summary.title = "Summary"
    bom = _bom_sheet(wb, d)
    _summary_sheet(summary, d, bom)
    _quote_sheet(wb, d, bom)
    _links_sheet(wb, d)
    _power_sheet(wb, d)
    _sources_sheet(wb, d)
    props = wb.properties
    props.creator = "clustergen"
    props.lastModifiedBy = "clustergen"
    props.title = plain(f"Bill of materials: {d.compute.gpus:,} GPUs on {d.platform.name}")
    props.subject = "GPU cluster reference design, draft bill of materials"
    props.keywords = "clustergen, BOM"
    props.description = plain(
        f"clustergen {d.provenance.engine_version}, catalog {d.provenance.catalog_hash}"
    )
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()
