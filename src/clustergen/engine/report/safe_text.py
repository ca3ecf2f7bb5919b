"""Untrusted text (catalog names, sources, a user's layered catalog) on its way into a file, one
helper per sink. Every writer of the bundle passes such text through these and nothing else, so
one module can be swapped for the project-wide output sanitiser without touching the writers.

- a spreadsheet cell (CSV or XLSX): a leading = + - @ (or a tab or carriage return) would make
  Excel or LibreOffice run it as a formula, so such text is prefixed with an apostrophe;
- a matplotlib label (PNG or SVG): a dollar sign starts mathtext, so it is escaped;
- XML (draw.io): markup characters are escaped.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell_text(value: object) -> object:
    """A value for a CSV or XLSX cell: text that a spreadsheet would read as a formula is
    neutralised; numbers and None pass unchanged."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def plot_text(text: str) -> str:
    """Text for a matplotlib label, drawn literally (no mathtext)."""
    return text.replace("$", r"\$")


def xml_text(text: str) -> str:
    """Text for an XML attribute or element."""
    return escape(text, {'"': "&quot;", "'": "&apos;", "\n": "&#10;"})
