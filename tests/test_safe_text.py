"""Each sink of `safe_text` against hostile text: what a viewer would execute stays text, what is
plain passes unchanged, and redaction comes first."""

from __future__ import annotations

import csv
import io
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clustergen import redact, safe_text

#: text a catalog, an inventory, a request or a model may carry, one attack (or accident) each
HOSTILE = [
    '=HYPERLINK("https://evil.example","click")',
    "=cmd|' /C calc'!A0",
    "+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "  =1+1",
    "\t=1+1",
    "\r=1+1",
    "＝1+1",
    "[link=https://evil.example]x[/link]",
    "[/]",
    "[bold]x",
    "\x1b]8;;https://evil.example\x07click\x1b]8;;\x07",
    "\x1b[31mred\x1b[0m",
    "\x1b[2J\x1b[H",
    "\x9b31m8-bit CSI",
    "a\x00b\x07c\x08d\x7fe",
    "\u202eevil\u202c",
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "<!-- hidden -->",
    "[m](javascript:alert(1)) ![i](https://evil.example/i.png)",
    "<https://evil.example>",
    "&lt;script&gt;",
    "# heading\n> quote\n- item\n1. first\n```\ncode\n```",
    "---",
    "title\n===",
    "title\n---\n- - -\n+ x\n~~~\ncode",
    "*em* _em_ **strong** ~~strike~~ `code`",
    "| a | b |",
    'x"]\nclick X "javascript:alert(1)"',
    'x"] --> y; click X "javascript:alert(1)"',
    '%%{init: {"securityLevel": "loose"}}%%',
    "name\nclick X call alert()",
]

FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "＝", "＋", "－", "＠")


def _is_plain_number(text: str) -> bool:
    return re.fullmatch(r"\s*[-+]?\d[\d,]*(\.\d*)?([eE][-+]?\d+)?\s*", text) is not None


# ---------------------------------------------------------------- shared


@pytest.mark.parametrize("text", HOSTILE)
def test_plain_leaves_no_control_character_or_escape(text: str) -> None:
    out = safe_text.plain(text)
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", out)
    assert safe_text.plain(out) == out  # idempotent
    assert "\n" not in safe_text.plain(text, newlines=False)


def test_plain_removes_whole_sequences_not_only_the_escape_byte() -> None:
    assert safe_text.plain("\x1b[31mred\x1b[0m") == "red"
    assert safe_text.plain("\x1b]8;;https://e\x07link\x1b]8;;\x07") == "link"
    assert safe_text.plain("\x1b]0;title\x1b\\after") == "after"


def test_every_sink_redacts_first() -> None:
    key = "nvapi-" + "s3cret-0123456789abcdef"
    redact.remember(key)
    try:
        text = f"=x {key} [/] <b>"
        assert key not in safe_text.terminal(text)
        assert key not in safe_text.terminal_markup(text)
        assert key not in safe_text.markdown(text)
        assert key not in safe_text.markdown_block(text)
        assert key not in str(safe_text.csv_cell(text))
        assert key not in safe_text.mermaid_label(text)
        assert key not in safe_text.json_text(f'{{"k": "{key}"}}')
        assert key not in safe_text.picture_text(text)
    finally:
        redact.forget()


def test_plain_text_passes_unchanged() -> None:
    for text in ("NVIDIA HGX B200 8-GPU server (OEM)", "980-9I693-00NS00", "rack_power_kw"):
        assert safe_text.terminal(text) == text
        assert safe_text.terminal_markup(text) == text
        assert safe_text.markdown(text) == text
        assert safe_text.csv_cell(text) == text
        assert safe_text.mermaid_label(text) == text


# ---------------------------------------------------------------- terminal


@pytest.mark.parametrize("text", [*HOSTILE, "ends in a backslash\\", "[x]\\[/]"])
def test_terminal_markup_is_shown_as_written_by_rich(text: str) -> None:
    from rich.console import Console
    from rich.text import Text

    console = Console(file=io.StringIO(), width=400, color_system=None)
    console.print(f"[bold]{safe_text.terminal_markup(text)}[/bold] end", soft_wrap=True)
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    expected = Console(file=io.StringIO(), width=400, color_system=None)
    expected.print(Text(safe_text.terminal(text) + " end"), soft_wrap=True)
    assert shown == expected.file.getvalue()  # type: ignore[attr-defined]
    assert "\x1b" not in shown


# ---------------------------------------------------------------- Markdown


def _rendered_html(markdown_text: str) -> str:
    markdown_it = pytest.importorskip("markdown_it")
    md = markdown_it.MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    return str(md.render(markdown_text))


@pytest.mark.parametrize("text", HOSTILE)
def test_markdown_renders_as_a_paragraph_of_text(text: str) -> None:
    line = safe_text.markdown(text)
    assert "<" not in line
    assert "\n" not in line
    html = _rendered_html(f"- item: {line}\n\n{line}\n")
    # the only markup is the list and paragraph the memo itself wrote
    tags = set(re.findall(r"</?([a-z0-9]+)", html))
    assert tags <= {"ul", "li", "p"}, (text, html)


def test_markdown_keeps_plain_words_and_urls_readable() -> None:
    assert safe_text.markdown("shards of >= 100 MB") == "shards of >= 100 MB"
    assert safe_text.markdown("https://docs.nvidia.com/a_b/c") == "https://docs.nvidia.com/a_b/c"
    assert safe_text.markdown("-5 W") == "-5 W"


def test_markdown_block_keeps_lines_and_paragraphs_as_text() -> None:
    block = safe_text.markdown_block(
        "first line\n- not a list\n===\n---\n\n<b>second</b> paragraph\n***\n"
    )
    html = _rendered_html(block)
    assert html.count("<p>") == 2
    assert "<ul>" not in html
    assert "<b>" not in html
    assert "<h1>" not in html
    assert "<h2>" not in html
    assert "<hr" not in html
    assert "- not a list" in html


# ---------------------------------------------------------------- CSV


@pytest.mark.parametrize("text", HOSTILE)
def test_csv_cell_never_starts_a_formula(text: str) -> None:
    cell = safe_text.csv_cell(text)
    assert isinstance(cell, str)
    assert not cell.lstrip().startswith(FORMULA_START) or _is_plain_number(cell)
    assert not cell.startswith(("\t", "\r"))


@pytest.mark.parametrize("number", ["-5", "-12.5", "+3", "-1e3", " -7 ", "1,234", "0"])
def test_csv_cell_leaves_plain_numbers_as_numbers(number: str) -> None:
    assert safe_text.csv_cell(number) == number


@pytest.mark.parametrize("value", [None, True, 0, -5, -2.5, 1e300])
def test_csv_cell_passes_non_text_through(value: object) -> None:
    assert safe_text.csv_cell(value) is value


@given(st.text())
def test_csv_cell_neutralises_any_text(text: str) -> None:
    cell = safe_text.csv_cell(text)
    rows = list(csv.reader(io.StringIO(_csv_line(cell))))
    first = rows[0][0] if rows and rows[0] else ""
    assert not first.lstrip().startswith(FORMULA_START) or _is_plain_number(first)
    assert not first.startswith(("\t", "\r"))


def _csv_line(cell: str) -> str:
    buf = io.StringIO()
    csv.writer(buf).writerow([cell])
    return buf.getvalue()


# ---------------------------------------------------------------- XLSX


def test_xlsx_cells_are_text_never_formulas() -> None:
    from openpyxl import Workbook, load_workbook

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    safe_text.xlsx_row(ws, [*HOSTILE, -5, 2.5, None, True])
    safe_text.xlsx_row(ws, [])
    safe_text.xlsx_row(ws, ["=1+1"])
    buf = io.BytesIO()
    wb.save(buf)  # openpyxl refuses control characters: none is left to refuse
    back = load_workbook(io.BytesIO(buf.getvalue())).active
    assert back is not None
    cells = [c for row in back.iter_rows() for c in row if c.value is not None]
    assert all(c.data_type != "f" for c in cells)
    first = [c.value for c in back[1]]
    assert first[: len(HOSTILE)] == [safe_text.plain(t) or None for t in HOSTILE]
    assert first[len(HOSTILE) : len(HOSTILE) + 4] == [-5, 2.5, None, True]
    assert back.cell(3, 1).value == "=1+1"
    assert back.cell(3, 1).quotePrefix


# ---------------------------------------------------------------- Mermaid


@pytest.mark.parametrize("text", HOSTILE)
def test_mermaid_label_stays_one_quoted_label(text: str) -> None:
    label = safe_text.mermaid_label(text)
    assert "\n" not in label
    assert not set('"<>`%') & set(label)
    source = f'flowchart TB\n  a["{label}"]\n'
    assert not re.search(r"(?m)^\s*(click|style|classDef|linkStyle|%%)", source)


# ---------------------------------------------------------------- map_text


def test_map_text_reaches_every_string_of_a_model_but_not_keys_or_enums() -> None:
    from enum import StrEnum

    from pydantic import BaseModel

    class Kind(StrEnum):
        a = "a"

    class Inner(BaseModel):
        name: str
        tags: list[str]
        by: dict[str, str]

    class Outer(BaseModel):
        kind: Kind
        inner: Inner
        memo: str
        n: int

    o = Outer(kind=Kind.a, inner=Inner(name="x", tags=["y"], by={"k": "v"}), memo="m", n=1)
    out = safe_text.map_text(o, lambda s: s.upper(), skip=frozenset({"memo"}))
    assert out.kind is Kind.a
    assert out.inner.name == "X"
    assert out.inner.tags == ["Y"]
    assert out.inner.by == {"k": "V"}
    assert out.memo == "m"
    assert out.n == 1
    assert o.inner.name == "x"  # the original is untouched


@pytest.mark.parametrize(
    "value",
    [
        'nvapi-Unremembered-0123456789 then a quote " and a backslash \\',
        'Authorization: Bearer abc\\"defghijkl',
        'api_key="x\\\\"y0123456789',
    ],
)
def test_json_text_masks_a_recognised_credential_and_stays_json(value: str) -> None:
    """The patterns the memo's Markdown applies, applied to each string of the document: a
    masked run cannot swallow an escaped quote and break the JSON."""
    import json

    doc = json.dumps({"memo": value, "n": 1.5, "list": ["ok", value]}, indent=2)
    out = safe_text.json_text(doc)
    data = json.loads(out)
    assert "[REDACTED]" in data["memo"]
    assert data["n"] == 1.5
    assert "0123456789" not in out or "nvapi" not in out.lower()


def test_json_text_without_a_credential_is_unchanged_byte_for_byte() -> None:
    doc = '{\n  "a": "capital api budget",\n  "b": 1e-05, "c": "\\u00e9"\n}'
    assert safe_text.json_text(doc) == doc
