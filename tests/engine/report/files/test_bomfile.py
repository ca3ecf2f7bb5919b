"""The BOM a buyer opens: CSV, XLSX with a summary sheet, power reconciled with the design."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from clustergen.catalog import load_catalog
from clustergen.catalog.models import System
from clustergen.engine.model.design import Design
from clustergen.engine.report.files import bomfile
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design

CATALOG = load_catalog()


@pytest.fixture(scope="module")
def h100() -> Design:
    """The issue's case: DGX H100, 512 GPUs under 5 MW (BOM 699.6 kW against 695.3 kW before)."""
    return plan_design(
        CATALOG, merge_request(CATALOG, "512 GPUs training, 5 MW", {"platform": "dgx-h100"})
    )


#: every GPU platform of the catalog, not a list that misses the next one
PLATFORMS = sorted(s.id for s in CATALOG.all("systems", System) if s.gpu)


@pytest.mark.parametrize("platform", [*PLATFORMS, None])
@pytest.mark.parametrize("text", ["512 GPUs training, 5 MW", "4096 GPUs training", "3 MW"])
def test_bom_power_equals_the_designs_it_power(platform: str | None, text: str) -> None:
    fields = {"platform": platform} if platform else {}
    d = plan_design(CATALOG, merge_request(CATALOG, text, fields))
    assert bomfile.bom_power_w(d) == pytest.approx(d.power.it_total_w, rel=1e-12, abs=1e-6)


def test_the_h100_design_counts_its_fabric_managers(h100: Design) -> None:
    ufm = next(ln for ln in h100.bom if ln.category == "fabric-manager")
    heads = next(ln for ln in h100.bom if ln.category == "management-server")
    assert ufm.total_power_w == 4 * 689.0
    assert h100.power.management_servers_w == (heads.total_power_w or 0.0) + ufm.total_power_w


def test_cables_have_a_part_a_type_and_a_length_class(h100: Design) -> None:
    cables = [ln for ln in h100.bom if ln.category == "cable"]
    fabric = [
        ln
        for ln in cables
        if ln.status == "order"
        and "fabric" in ln.description
        and "management" not in ln.description
    ]
    # the BCM servers' HDR200 ports are on splitter cables (H100 RA Table 8, "HDR 400 Gbps to
    # 2x200 Gbps"), whose OPN per length is not in the catalog; every other fabric cable is fiber
    splitters = [ln for ln in fabric if ln.part == "mfa7u10-h"]
    assert [ln.quantity for ln in splitters] == [4]
    assert "active optical" in splitters[0].description
    fabric = [ln for ln in fabric if ln not in splitters]
    # the storage fabric's UFM pair (H100 RA Tables 7 and 8) runs its NDR200 ports on 1:2
    # splitter fibers, as a compute fabric's UFM links do: 4 links, 2 a cable
    ufm = [ln for ln in fabric if ln.part == "fiber-mpo-mm-split"]
    assert [ln.quantity for ln in ufm] == [2]
    fabric = [ln for ln in fabric if ln not in ufm]
    assert fabric
    assert all(ln.part == "fiber-mpo-mm" and ln.opn for ln in fabric)
    assert all("passive fiber, up to 50 m" in ln.description for ln in fabric)
    ends = ("row", "in-rack", "row (2 links a cable)")
    assert all(ln.description.endswith(ends) for ln in cables if ln.part)
    storage_side = [ln for ln in cables if ln.status.startswith("supplied by the storage vendor")]
    assert storage_side
    assert all(ln.order_quantity is None and ln.part is None for ln in storage_side)
    oob = next(ln for ln in cables if "out-of-band management" in ln.description)
    assert oob.part == "cat5e-1g"
    assert oob.quantity == h100.fabrics.oob.host_ports  # type: ignore[union-attr]


def test_placeholders_are_orderable_lines_without_a_settled_part(h100: Design) -> None:
    for ln in h100.bom:
        settled = ln.part is not None and not CATALOG_PLACEHOLDER(ln.part)
        assert ln.placeholder == (ln.status == "order" and not settled), ln.description


def CATALOG_PLACEHOLDER(part: str) -> bool:
    for entries in CATALOG.entries.values():
        if part in entries:
            return entries[part].placeholder
    raise AssertionError(part)


def test_parts_inside_a_system_are_listed_not_ordered(h100: Design) -> None:
    inside = [ln for ln in h100.bom if ln.status.startswith("included in")]
    assert {ln.category for ln in inside} == {"gpu", "nic"}
    assert all(ln.order_quantity is None and ln.total_price_usd is None for ln in inside)
    cx7 = next(ln for ln in inside if ln.part == "cx7")
    assert cx7.quantity == 8 * h100.compute.nodes


def test_the_enterprise_ra_node_lists_its_north_south_dpu() -> None:
    """Enterprise RA 2-8-9-400: eight east-west NICs and a north-south DPU per node."""
    d = plan_design(CATALOG, merge_request(CATALOG, "512 GPUs training, 5 MW", {}))
    node = f"included in {d.platform.name}"
    nics = {ln.part: ln.quantity for ln in d.bom if ln.category == "nic" and node in ln.status}
    assert nics == {"cx7": 8 * d.compute.nodes, "bluefield-3-b3220": d.compute.nodes}


def test_csv_has_a_row_per_line(h100: Design) -> None:
    rows = list(csv.DictReader(io.StringIO(bomfile.bom_csv(h100))))
    assert len(rows) == len(h100.bom)
    assert rows[0]["category"] == "compute"


def test_the_workbook_opens_with_a_summary_beside_the_lines(h100: Design) -> None:
    from openpyxl import load_workbook

    wb = load_workbook(io.BytesIO(bomfile.bom_xlsx(h100)))
    assert wb.sheetnames == ["Summary", "BOM", "Quote", "Links", "Power", "Sources"]
    assert wb.properties.creator == "clustergen"
    summary = {r[0]: r[1] for r in wb["Summary"].iter_rows(values_only=True) if r and r[0]}
    assert summary["IT power, design (kW)"] == pytest.approx(h100.power.it_total_w / 1e3)
    assert str(summary["IT power, sum of BOM lines (kW)"]).startswith("=BOM!")
    assert summary["Checks"] == "PASS"
    assert summary["GPUs"] == h100.compute.gpus
    ws = wb["BOM"]
    lines = list(ws.iter_rows(values_only=True))
    assert lines[0][:3] == ("Category", "Part", "OPN")
    assert "BOM" in ws.tables
    assert ws.page_setup.orientation == "landscape"
    assert ws.page_setup.fitToWidth == 1
    assert ws.print_title_rows == "$1:$1"
    assert ws.freeze_panes == "A2"
    # a part with no published OPN has an empty OPN cell and says so in "To settle"
    head = lines[0]
    dgx = dict(zip(head, next(r for r in lines if r[1] == "dgx-h100"), strict=True))
    assert dgx["OPN"] is None
    assert "OPN to confirm" in dgx["To settle"]
    assert str(dgx["Line price (USD)"]).startswith("=IF(")
    # number columns hold numbers (or formulas, or blanks), never text
    for name in ("Quantity", "Order quantity", "Unit power (W)", "Unit price (USD)"):
        col = head.index(name)
        body = lines[1 : len(h100.bom) + 1]
        assert all(r[col] is None or isinstance(r[col], int | float) for r in body)


def test_workbook_text_cannot_start_a_formula() -> None:
    from clustergen.engine.report.plain_text import cell_text

    assert cell_text("=HYPERLINK(1)") == "'=HYPERLINK(1)"
    assert cell_text("@SUM(A1)") == "'@SUM(A1)"
    assert cell_text("NVIDIA") == "NVIDIA"
    assert cell_text(-3) == -3


def test_category_totals_add_up(h100: Design) -> None:
    totals = bomfile.category_totals(h100)
    assert sum(t.lines for t in totals) == len(h100.bom)
    assert sum(t.power_w for t in totals) == pytest.approx(h100.power.it_total_w)


def test_the_bom_sheet_lists_the_csv_lines(h100: Design) -> None:
    from openpyxl import load_workbook

    wb = load_workbook(io.BytesIO(bomfile.bom_xlsx(h100)))
    rows = list(wb["BOM"].iter_rows(values_only=True))
    head, body = rows[0], list(rows[1 : len(h100.bom) + 1])
    from_csv = list(csv.DictReader(io.StringIO(bomfile.bom_csv(h100))))
    assert len(body) == len(from_csv)
    for r, b in zip(body, from_csv, strict=True):
        row = dict(zip(head, r, strict=True))
        assert (row["Part"] or "") == b["part"]
        assert str(row["Quantity"]) == b["quantity"]


@pytest.mark.parametrize("platform", PLATFORMS)
def test_csv_workbook_and_design_agree_on_every_line_and_link(platform: str) -> None:
    """The same lines in bom.csv and the BOM sheet (part, OPN, quantity, status), and the same
    link groups on the Links sheet as in design.json (count, media, cable, transceivers)."""
    from openpyxl import load_workbook

    from clustergen.engine.search.proposal import request_from_fields

    d = plan_design(CATALOG, request_from_fields(CATALOG, {"platform": platform, "nodes": 64}))
    wb = load_workbook(io.BytesIO(bomfile.bom_xlsx(d)))
    rows = list(wb["BOM"].iter_rows(values_only=True))
    body = [dict(zip(rows[0], r, strict=True)) for r in rows[1 : len(d.bom) + 1]]
    from_csv = list(csv.DictReader(io.StringIO(bomfile.bom_csv(d))))
    assert len(body) == len(from_csv) == len(d.bom)
    for row, b in zip(body, from_csv, strict=True):
        got = (row["Part"] or "", row["OPN"] or "", str(row["Quantity"]), row["Status"])
        assert got == (b["part"], b["opn"], b["quantity"], b["status"])
    links = list(wb["Links"].iter_rows(values_only=True))
    sheet = [dict(zip(links[0], r, strict=True)) for r in links[1:] if r[0]]
    assert len(sheet) == len(d.links)
    for row, g in zip(sheet, d.links, strict=True):
        assert (row["Links"], row["Media"]) == (g.links, g.media)
        assert (row["End A transceivers"], row["End B transceivers"]) == (
            g.a.transceivers,
            g.b.transceivers,
        )


def test_an_example_price_layer_prices_the_systems() -> None:
    from pathlib import Path

    from clustergen.catalog import load_catalog as load

    layer = Path(__file__).resolve().parents[4] / "examples" / "prices" / "hardware"
    cat = load(layer)
    d = plan_design(cat, merge_request(cat, "512 GPUs training, 5 MW", {"platform": "dgx-h100"}))
    dgx = next(ln for ln in d.bom if ln.category == "compute")
    assert dgx.unit_price_usd == 199000
    assert dgx.price_source
    assert dgx.price_source.startswith("EXAMPLE figure")
    assert d.bom_totals.priced_lines == 1
    assert d.bom_totals.total_price_usd == 64 * 199000


def test_a_typed_price_updates_line_quote_and_totals_in_libreoffice(
    h100: Design, tmp_path: Path
) -> None:
    """Recalculated by LibreOffice (skips without it): a unit price typed on the BOM changes its
    line, the BOM total, the Summary and the Quote; no number cell holds text."""
    import shutil
    import subprocess

    from openpyxl import load_workbook

    office = shutil.which("soffice") or shutil.which("libreoffice")
    if office is None:
        pytest.skip("LibreOffice not installed (apt-get install libreoffice-calc)")
    out = tmp_path
    wb = load_workbook(io.BytesIO(bomfile.bom_xlsx(h100)))
    ws = wb["BOM"]
    head = [c.value for c in ws[1]]
    row = next(r for r in ws.iter_rows(min_row=2) if r[1].value == "dgx-h100")
    row[head.index("Unit price (USD)")].value = 1000
    wb.save(out / "priced.xlsx")
    subprocess.run(
        [
            office,
            f"-env:UserInstallation=file://{out / 'profile'}",
            "--headless",
            "--convert-to",
            "xlsx",
            "--outdir",
            str(out / "calc"),
            str(out / "priced.xlsx"),
        ],
        capture_output=True,
        timeout=180,
        check=True,
    )
    calc = load_workbook(out / "calc" / "priced.xlsx", data_only=True)
    nodes = h100.compute.nodes
    line = next(r for r in calc["BOM"].iter_rows(values_only=True) if r[1] == "dgx-h100")
    assert line[head.index("Line price (USD)")] == 1000 * nodes
    total = next(
        r for r in calc["BOM"].iter_rows(values_only=True) if str(r[0]).startswith("Total")
    )
    assert total[head.index("Line price (USD)")] == 1000 * nodes
    summary = {r[0]: r[1] for r in calc["Summary"].iter_rows(values_only=True) if r and r[0]}
    assert summary["Price of orderable lines (USD)"] == 1000 * nodes
    quote = next(r for r in calc["Quote"].iter_rows(values_only=True) if r[1] == "dgx-h100")
    assert quote[4:6] == (1000, 1000 * nodes)
    for sheet in calc.worksheets:
        for r in sheet.iter_rows():
            for c in r:
                assert not (c.number_format != "General" and isinstance(c.value, str) and c.value)
