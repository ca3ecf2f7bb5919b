"""`bom.xlsx` as it prints: a note beside a number reads apart from it."""

from __future__ import annotations

import io
from typing import Any

from clustergen.catalog import load_catalog
from clustergen.engine.report.files import bomfile
from clustergen.engine.search.planner import plan_design
from clustergen.engine.search.proposal import request_from_fields

CATALOG = load_catalog()


def test_a_note_beside_a_number_is_set_apart() -> None:
    """127 DGX H100, printed through LibreOffice: 'Scalable units 4' with its note '4 SUs of up
    to 32 nodes' read '44 SUs of up to 32 nodes' (a right-aligned number against a left-aligned
    note)."""
    from openpyxl import load_workbook

    d = plan_design(CATALOG, request_from_fields(CATALOG, {"platform": "dgx-h100", "nodes": 127}))
    wb = load_workbook(io.BytesIO(bomfile.bom_xlsx(d)))
    for sheet in ("Summary", "Power"):
        ws = wb[sheet]
        for row in ws.iter_rows(min_row=2):
            if len(row) < 3 or not isinstance(row[1].value, int | float):
                continue
            if isinstance(row[2].value, str) and not row[2].value.startswith("="):
                cell = row[2]
                assert cell.alignment.indent >= 1, (sheet, row[0].value, cell.value)
                assert cell.alignment.horizontal == "left"  # LibreOffice ignores a bare indent


def _heads(ws: Any, row: int = 1) -> dict[str, str | None]:
    return {c.value: c.alignment.horizontal for c in ws[row] if c.value is not None}


def test_a_header_over_figures_stands_over_them() -> None:
    """1 DGX B200, printed through LibreOffice: left-aligned headers over wide columns of
    right-aligned numbers read as the next column's ('Order quantity' 1 under 'Unit power (W)',
    the node's 14,300 W under 'Line power (W)', on the Summary its 14.3 kW under 'Line price')."""
    from openpyxl import load_workbook

    d = plan_design(CATALOG, request_from_fields(CATALOG, {"platform": "dgx-b200", "nodes": 1}))
    wb = load_workbook(io.BytesIO(bomfile.bom_xlsx(d)))
    bom = _heads(wb["BOM"])
    for head in ("Quantity", "Order quantity", "Unit power (W)", "Line power (W)"):
        assert bom[head] == "right", head
    # an unpriced BOM's price columns are still columns of figures
    assert bom["Unit price (USD)"] == "right"
    assert bom["Description"] != "right"
    summary = wb["Summary"]
    category = next(r[0].row for r in summary.iter_rows() if r[0].value == "Category")
    heads = _heads(summary, category)
    for head in ("Lines", "Order quantity", "Line power (kW)", "Line price (USD)"):
        assert heads[head] == "right", head
    # the first table's Value column holds words and numbers: left as it was
    assert _heads(summary)["Value"] != "right"
    assert _heads(wb["Quote"])["Order quantity"] == "right"
    assert _heads(wb["Power"])["Power (kW)"] == "right"
    assert _heads(wb["Links"])["Links"] == "right"


def test_the_links_sheet_wraps_its_names_and_its_header() -> None:
    """GB300 NVL72: the Links sheet cut its names at the next cell ('NVIDIA ConnectX-8 SuperNIC
    800Gb/s (OS') and its two-line header 'End A transceivers' printed over the first row."""
    from openpyxl import load_workbook

    d = plan_design(CATALOG, request_from_fields(CATALOG, {"platform": "gb300-nvl72", "nodes": 4}))
    ws = load_workbook(io.BytesIO(bomfile.bom_xlsx(d)))["Links"]
    assert ws.row_dimensions[1].height >= 30
    for row in ws.iter_rows(min_row=2):
        for cell in row:
            assert cell.alignment.wrap_text
    long = next(r for r in ws.iter_rows(min_row=2) if len(str(r[8].value or "")) > 40)
    assert ws.row_dimensions[long[0].row].height >= 30


def test_wrapped_lines_break_between_words() -> None:
    from clustergen.engine.report.files.workbook import _wrapped_lines

    assert _wrapped_lines("End A transceivers", 12) == 2
    assert _wrapped_lines("Links", 9) == 1
    assert _wrapped_lines("a b c", 40) == 1
    assert _wrapped_lines("x" * 30, 11) == 3
    assert (
        _wrapped_lines("aaaa bbbb cccc dddd", 10) == 2
    )  # a word past the column breaks inside itself


def test_the_quote_sheet_wraps_its_descriptions() -> None:
    """GB300 NVL72: the Quote sheet cut its descriptions at the quantity column ('NVIDIA
    twin-port 2x400G OSFP multimode transceiver, flat top (DGX system')."""
    from openpyxl import load_workbook

    d = plan_design(CATALOG, request_from_fields(CATALOG, {"platform": "gb300-nvl72", "nodes": 4}))
    ws = load_workbook(io.BytesIO(bomfile.bom_xlsx(d)))["Quote"]
    width = ws.column_dimensions["C"].width
    rows = [r for r in ws.iter_rows(min_row=2) if len(str(r[2].value or "")) > width]
    assert rows
    for row in rows:
        assert row[2].alignment.wrap_text
        assert ws.row_dimensions[row[0].row].height >= 30


def test_the_racks_in_all_say_what_they_are() -> None:
    """One DGX B200's single rack was noted 'compute, network, storage and management'."""
    from openpyxl import load_workbook

    def note(fields: dict[str, object]) -> str:
        d = plan_design(CATALOG, request_from_fields(CATALOG, fields))
        ws = load_workbook(io.BytesIO(bomfile.bom_xlsx(d)))["Summary"]
        row = next(r for r in ws.iter_rows() if r[0].value == "Racks in all")
        assert row[1].value == d.racks.total_racks
        return str(row[2].value)

    assert note({"platform": "dgx-b200", "nodes": 1}) == (
        "1 compute; switches and servers in a compute rack"
    )
    assert note({"platform": "dgx-h100", "nodes": 127}) == "32 compute + 5 network + 1 storage"
