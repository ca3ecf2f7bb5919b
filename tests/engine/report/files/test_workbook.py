"""`bom.xlsx` as it prints: a note beside a number reads apart from it."""

from __future__ import annotations

import io

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
