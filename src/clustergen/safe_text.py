"""One way out for every string a person or a program sees: one function per sink.

Catalog layers, inventory files, requests and model replies are untrusted: a name may carry a
spreadsheet formula, rich markup, a terminal escape sequence, Markdown, HTML or a Mermaid statement.
Each sink makes such text inert for the viewer that will read it, and shows it as text:

- `terminal(text)`: text for the terminal, shown literally (a rich `Text`, or `markup=False`).
  `terminal_markup(text)` is the same, escaped for interpolation into a rich markup string.
- `markdown(text)`: one line of Markdown (a memo's sentence, a table cell) that renders as text;
  `markdown_block(text)` keeps the line breaks of several lines (the model's notes).
- `csv_cell(value)`: a CSV field that no spreadsheet evaluates (OWASP CSV-injection rules).
- `xlsx_cell(cell, value)` / `xlsx_row(sheet, values)`: workbook cells written as text or
  numbers, never as formulas.
- `mermaid_label(text)`: the inside of a quoted Mermaid label; nothing in it can end the label,
  start a statement (`click`, `style`), a directive (`%%{init}%%`) or HTML.
- `json_text(text)`: a JSON document; JSON escaping already makes control characters inert.
- `picture_text(text)`: a label matplotlib draws as written (no mathtext).

Redacting credentials (`clustergen.redact`) is the first step of every sink. `plain(text)` is that
step and the removal of control characters and escape sequences that every sink shares.
`map_text(obj, fn)` applies a sink to every string inside a pydantic model or plain data, for a
report that shows many fields of one object. Numbers, booleans and None pass through the cell
sinks unchanged. This module sits under every layer: it imports none of them.
"""

from __future__ import annotations

import re
from enum import Enum
from typing import Any

from pydantic import BaseModel

from clustergen.redact import redact, redact_data, redact_known

__all__ = [
    "csv_cell",
    "has_controls",
    "is_formula",
    "json_text",
    "map_text",
    "markdown",
    "markdown_block",
    "mermaid_label",
    "neutralise_formula",
    "picture_text",
    "plain",
    "terminal",
    "terminal_markup",
    "xlsx_cell",
    "xlsx_row",
]

# ---------------------------------------------------------------- shared: controls and escapes

# ANSI/ECMA-48 sequences, 7-bit and 8-bit: CSI (colours, cursor moves, screen clears), OSC
# (window titles, OSC 8 hyperlinks), DCS/SOS/PM/APC strings, and two-byte ESC sequences.
_ESCAPE_SEQUENCE = re.compile(
    r"""
      (?:\x1b\[|\x9b) [0-?]* [ -/]* [@-~]?                     # CSI
    | (?:\x1b[\]PX^_]|[\x9d\x90\x98\x9e\x9f]) [^\x07\x1b\x9c]*
      (?:\x07|\x9c|\x1b\\)?                                    # OSC, DCS, SOS, PM, APC
    | \x1b [ -/]* [0-~]?                                       # two-byte ESC and lone ESC
    """,
    re.VERBOSE,
)
# C0 and C1 controls (tab and newline are kept where a sink allows them), and the Unicode
# direction overrides that make text read differently from what it is ("Trojan source").
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def plain(value: object, *, newlines: bool = True) -> str:
    """`value` as text with credentials redacted, escape sequences and control characters removed.

    A tab becomes a space; CR LF and a lone CR become a newline, and every newline becomes a space
    unless `newlines`. Idempotent. Every sink starts here."""
    text = redact(str(value))
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _ESCAPE_SEQUENCE.sub("", text)
    text = _CONTROL.sub("", text).replace("\t", " ")
    if not newlines:
        text = text.replace("\n", " ")
    return text


def map_text(value: Any, sink: Any, *, skip: frozenset[str] = frozenset()) -> Any:
    """A copy of `value` (a pydantic model, list, tuple, dict or string) with `sink` applied to
    every string inside it; dict keys and enum members are left alone (code looks them up).
    `skip` names fields of the outer model to copy unchanged. Models are copied without
    validation: the copy is for showing, never for computing."""
    if isinstance(value, Enum):
        return value
    if isinstance(value, str):
        return sink(value)
    if isinstance(value, BaseModel):
        update = {
            name: map_text(getattr(value, name), sink)
            for name in type(value).model_fields
            if name not in skip
        }
        return value.model_copy(update=update)
    if isinstance(value, list):
        return [map_text(v, sink) for v in value]
    if isinstance(value, tuple):
        return tuple(map_text(v, sink) for v in value)
    if isinstance(value, dict):
        return {k: map_text(v, sink) for k, v in value.items()}
    return value


# ---------------------------------------------------------------- terminal

# rich reads `[` followed by a tag (`[bold]`, `[/]`, `[link=...]`, `[@click]`) as markup; see
# rich.markup.escape, whose rule this repeats without importing rich (the engine may call it).
_RICH_TAG = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")


def has_controls(text: str) -> bool:
    """Whether `text` holds a control character (an escape sequence starts with one) or a tab,
    which `plain` would remove or change; a newline does not count. A cheap test for text already
    rendered, such as a terminal's segments, and for input that should hold none."""
    return bool(_CONTROL.search(text) or "\t" in text)


def terminal(value: object) -> str:
    """Text for the terminal, shown literally (a rich `Text`, `markup=False`, plain stderr):
    redacted, no escape sequence (colours, cursor moves, OSC 8 links, title changes), no control
    character but the newline."""
    return plain(value)


def terminal_markup(value: object) -> str:
    """`terminal(value)` escaped for interpolation into a rich markup string: a tag in it
    (`[/]`, `[link=...]`) is shown, not applied."""
    text = _RICH_TAG.sub(lambda m: f"{m.group(1)}{m.group(1)}\\{m.group(2)}", terminal(value))
    if text.endswith("\\") and not text.endswith("\\\\"):
        text += "\\"  # a trailing backslash would escape the markup that follows it
    return text


# ---------------------------------------------------------------- Markdown

# Inline markup: code, emphasis, links and images, tables, escapes, and `$` (GitHub reads `$...$`
# as math). `_` and `~` only where they can open or close emphasis (at a word's edge): inside a
# word (`rack_power_kw`, a URL) they are text and stay readable.
_MD_ALWAYS = re.compile(r"([\\`*\[\]|$])")
_MD_EDGE = re.compile(r"(?<![A-Za-z0-9])([_~])|([_~])(?![A-Za-z0-9])")
# A character reference (`&lt;`, `&#60;`) would render as the character it names.
_MD_ENTITY = re.compile(r"&(?=#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|[A-Za-z][A-Za-z0-9]{1,31};)")
# What turns a line into a block: a heading (`#`, or a setext `===`/`---` under a line), a quote,
# a list item, a thematic break. (Fences and `*`, `_`, `~` runs are escaped already.)
_MD_BLOCK_START = re.compile(r"^(\s*)(#|>|[-+=](?=[\s\-+=]|$))")
_MD_ORDERED = re.compile(r"^(\s*\d{1,9})([.)])(?=\s|$)")


def _markdown_inline(text: str) -> str:
    text = _MD_ENTITY.sub("&amp;", text)
    text = text.replace("<", "&lt;")  # HTML, autolinks, comments: none opens without a `<`
    text = _MD_ALWAYS.sub(r"\\\1", text)
    text = _MD_EDGE.sub(lambda m: "\\" + (m.group(1) or m.group(2)), text)
    text = _MD_BLOCK_START.sub(lambda m: m.group(1) + "\\" + m.group(2), text)
    return _MD_ORDERED.sub(lambda m: m.group(1) + "\\" + m.group(2), text)


def markdown(value: object) -> str:
    """One line of Markdown that renders as the text it is: no HTML, link, image, emphasis, code,
    table cell break or block start survives, and newlines become spaces. For a value put into
    the memo's own formatting (a sentence, a list item, a table cell)."""
    return _markdown_inline(plain(value, newlines=False))


def markdown_block(value: object) -> str:
    """Several lines of Markdown that render as the text they are, one line per line (a hard
    break ends each), paragraphs kept: for prose a model wrote."""
    paragraphs = re.split(r"\n\s*\n", plain(value).strip())
    out = []
    for para in paragraphs:
        lines = [_markdown_inline(ln.strip()) for ln in para.splitlines() if ln.strip()]
        out.append("\\\n".join(lines))
    return "\n\n".join(p for p in out if p)


# ---------------------------------------------------------------- CSV and XLSX

# OWASP CSV injection: a field a spreadsheet may evaluate starts with = + - @ (after any
# spaces), or with a tab or carriage return. A plain number ("-12.5", "+3") stays a number.
_FORMULA_START = re.compile(r"^(?:[\t\r]|\s*[=+\-@＝＋－＠])")
_NUMBER = re.compile(r"^\s*[-+]?(?:\d[\d,]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?\s*$")


def is_formula(text: str) -> bool:
    """Whether a spreadsheet could read `text` as a formula or a DDE call (OWASP's rule: a first
    character, after spaces, of = + - @, or a tab or CR first), a plain number excepted."""
    return bool(_FORMULA_START.match(text)) and not _NUMBER.match(text)


def neutralise_formula(text: str) -> str:
    """`text` with a leading single quote when a spreadsheet could read it as a formula (or a
    DDE call): the quote shows it as text. A plain number is left as it is."""
    return "'" + text if is_formula(text) else text


def csv_cell(value: Any) -> Any:
    """A CSV field: text redacted, without control characters (newlines kept: the CSV writer
    quotes them), and neutralised when it could start a formula; numbers, booleans and None as
    they are."""
    if value is None or isinstance(value, bool | int | float):
        return value
    return neutralise_formula(plain(value))


def xlsx_cell(cell: Any, value: Any) -> Any:
    """Set an openpyxl `cell` to `value` as data, never as a formula: a string is a text cell
    (data_type 's', marked quote-prefixed so editing it keeps it text), without control
    characters (which openpyxl refuses); a number, boolean or None as it is. Returns the cell."""
    if value is None or isinstance(value, bool | int | float):
        cell.value = value
        return cell
    text = plain(value)
    cell.value = text
    cell.data_type = "s"  # openpyxl types a string that starts with '=' as a formula
    if is_formula(text):
        cell.quotePrefix = True
    return cell


def xlsx_row(sheet: Any, values: list[Any]) -> int:
    """Append `values` (an empty list appends a blank row) as a new row of an openpyxl
    worksheet, each through `xlsx_cell`. Returns the row's number."""
    sheet.append([None] * len(values))
    row: int = sheet.max_row
    for column, value in enumerate(values, start=1):
        xlsx_cell(sheet.cell(row=row, column=column), value)
    return row


# ---------------------------------------------------------------- Mermaid

# Inside `["..."]` Mermaid ends the label at `"`, reads `#...;` as an entity, HTML where labels
# are HTML, backticks as a Markdown string, and `%%` anywhere as a directive or comment: each
# becomes its numeric entity, so the label shows the character and never ends.
_MERMAID_ENTITIES = {c: f"#{ord(c)};" for c in '#"<>&`%'}
_MERMAID_SPECIAL = re.compile("[" + re.escape("".join(_MERMAID_ENTITIES)) + "]")


def mermaid_label(value: object) -> str:
    """Text for the inside of a quoted Mermaid label (`node["..."]`): one line, every character
    that could end the label, start a statement or directive, or be read as HTML written as a
    Mermaid entity. The caller adds the quotes (and any `<br/>` of its own)."""
    text = plain(value, newlines=False)
    return _MERMAID_SPECIAL.sub(lambda m: _MERMAID_ENTITIES[m.group(0)], text)


# ---------------------------------------------------------------- JSON and pictures


def json_text(text: str) -> str:
    """A JSON document as written: control characters are already escaped by the encoder;
    remembered credentials are masked in every form, and every string that holds a credential
    the patterns recognise (an NVIDIA key nobody remembered, `Authorization: ...`) is masked as
    the memo's Markdown masks it. A pattern sees one decoded string at a time, never the
    document's text, where a masked run could swallow an escaped quote and break the JSON; a
    document with nothing to mask is returned byte for byte."""
    text = redact_known(text)
    if redact(text) == text:
        return text
    import json

    try:
        data = json.loads(text)
    except ValueError:
        return redact(text)  # not JSON after all: masked as text
    return json.dumps(
        redact_data(data),
        indent=2 if "\n" in text else None,
        ensure_ascii=False,
        allow_nan=False,
    )


def picture_text(value: object) -> str:
    """A label for a matplotlib picture: one line, and `$` escaped, so a name is drawn as written
    instead of being parsed (or failing to parse) as mathtext."""
    return plain(value, newlines=False).replace("$", r"\$")
