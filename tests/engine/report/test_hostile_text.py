"""Every file of a bundle with hostile text in every string of the design (names, part numbers,
sources, reasons, warnings, the request, the model's memo): no spreadsheet formula, no Mermaid
statement, no HTML, link or image, no escape sequence. The design is poisoned after the engine
built it, past catalog validation, so each sink is tested on its own."""

from __future__ import annotations

import csv
import io
import re

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.design import Design
from clustergen.engine.report.bundle import bundle_files
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design
from clustergen.safe_text import map_text

CATALOG = load_catalog()

PAYLOADS = {
    "hyperlink": '=HYPERLINK("https://evil.example","click")',
    "dde": "=cmd|' /C calc'!A0",
    "at": "@SUM(1+1)*cmd|' /C calc'!A0",
    "spaced": "  +1+cmd|' /C calc'!A0",
    "tab": "\t=1+1",
    "rich": "[link=https://evil.example]x[/] [/]",
    "osc8": "\x1b]8;;https://evil.example\x07click\x1b]8;;\x07",
    "sgr": "\x1b[31mred\x1b[0m\x00\x07",
    "html": "<script>alert(1)</script><img src=x onerror=alert(1)>",
    "md": "[m](javascript:alert(1)) ![i](https://evil.example/i.png) <https://evil.example>",
    "mermaid": 'x"] --> y; click X "javascript:alert(1)" %%{init: {"securityLevel": "loose"}}%%',
    "newline": 'x"]\nclick X "javascript:alert(1)"\n%%{init: {}}%%\n# heading\n<b>',
}
TRIGGERS = ("=", "+", "-", "@", "\t", "\r", "＝", "＋", "－", "＠")
#: the HTML a rendered memo may hold: its own headings, lists, tables, emphasis, code and pictures
MEMO_TAGS = {
    "h1", "h2", "h3", "p", "ul", "ol", "li", "table", "thead", "tbody", "tr", "th", "td",
    "strong", "em", "code", "pre", "img", "br", "hr",
}  # fmt: skip


@pytest.fixture(scope="module")
def design() -> Design:
    req = merge_request(CATALOG, "512 GPUs training, 5 MW", {"platform": "dgx-h100"})
    return plan_design(CATALOG, req).model_copy(update={"memo": "The model's notes."})


def _poisoned(d: Design, payload: str) -> Design:
    """Every string of the design with the payload before and after it."""
    return map_text(d, lambda s: f"{payload}{s}{payload}")


@pytest.fixture(scope="module", params=sorted(PAYLOADS))
def files(request: pytest.FixtureRequest, design: Design) -> dict[str, str | bytes]:
    return bundle_files(_poisoned(design, PAYLOADS[request.param]))


def _is_number(text: str) -> bool:
    return re.fullmatch(r"\s*[-+]?\d[\d,]*(\.\d*)?([eE][-+]?\d+)?\s*", text) is not None


def test_the_poison_reaches_the_files(files: dict[str, str | bytes]) -> None:
    """The test means something only if hostile text gets as far as each sink."""
    memo, bom = str(files["memo.md"]), str(files["bom.csv"])
    assert any(w in memo for w in ("HYPERLINK", "cmd", "link=", "click", "script", "javascript"))
    assert any(w in bom for w in ("HYPERLINK", "cmd", "link=", "click", "script", "javascript"))


def test_no_csv_field_starts_a_formula(files: dict[str, str | bytes]) -> None:
    rows = list(csv.reader(io.StringIO(str(files["bom.csv"]))))
    fields = [f for row in rows for f in row]
    bad = [f for f in fields if f.lstrip().startswith(TRIGGERS) and not _is_number(f)]
    assert not bad
    assert not [f for f in fields if f.startswith(("\t", "\r"))]


#: the workbook's own arithmetic: line totals and roll-ups, nothing that calls out
OWN_FUNCTIONS = {"SUM", "SUMIFS", "SUMPRODUCT", "SUBTOTAL", "IF", "ISNUMBER", "COUNT", "OR"}


def test_no_workbook_cell_is_a_formula_from_untrusted_text(files: dict[str, str | bytes]) -> None:
    from openpyxl import load_workbook

    data = files["bom.xlsx"]
    assert isinstance(data, bytes)
    wb = load_workbook(io.BytesIO(data))
    cells = [c for ws in wb.worksheets for row in ws.iter_rows() for c in row]
    formulas = [str(c.value) for c in cells if c.data_type == "f"]
    called = {f for text in formulas for f in re.findall(r"[A-Z][A-Z0-9.]*(?=\()", text)}
    assert called <= OWN_FUNCTIONS
    assert not [f for f in formulas if re.search(r"(?i)hyperlink|cmd|\||http|\[|<", f)]
    texts = [c for c in cells if isinstance(c.value, str)]
    assert any("cmd" in c.value or "HYPERLINK" in c.value or "link" in c.value for c in texts)


def test_topology_has_no_injected_statement(files: dict[str, str | bytes], design: Design) -> None:
    mmd = str(files["topology.mmd"])
    clean = str(bundle_files(design)["topology.mmd"])
    assert len(mmd.splitlines()) == len(clean.splitlines())  # no line added
    assert not re.search(r"(?m)^\s*(click|style|classDef|linkStyle|%%|#)", mmd)
    assert "%%" not in mmd
    assert 'javascript:alert(1)"' not in mmd  # no quote ends a label early
    for line in mmd.splitlines():
        assert line.count('"') % 2 == 0, line


def _html(markdown_text: str) -> str:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    return str(md.render(markdown_text))


def test_memo_renders_every_string_as_text(files: dict[str, str | bytes]) -> None:
    memo = str(files["memo.md"])
    assert "\x1b" not in memo
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", memo)
    html = _html(memo)
    tags = set(re.findall(r"<([a-z0-9]+)", html))
    assert tags <= MEMO_TAGS, tags - MEMO_TAGS
    assert set(re.findall(r'<img src="([^"]*)"', html)) <= {
        "power.png",
        "racks.png",
        "topology.png",
        "topology-page.png",
    }
    assert "<a " not in html
    assert not re.search(r"(?m)^#{1,6} heading", memo)  # no heading of the payload's own
    assert html.count("<h1>") == 1
    # the memo's own sections are all still there, in order
    heads = re.findall(r"(?m)^## (.*)$", memo)
    assert heads[0] == "Executive summary"
    assert any(h.startswith("Appendix E") for h in heads)


def test_no_file_holds_an_escape_sequence(files: dict[str, str | bytes]) -> None:
    for name, content in files.items():
        if isinstance(content, str):
            assert "\x1b" not in content, name
            assert "\x07" not in content or name == "design.json", name
