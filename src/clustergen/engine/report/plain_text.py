"""Untrusted text (catalog names, sources, a user's layered catalog) on its way into a bundle
file, one helper per sink, each the project-wide output path's (`clustergen.safe_text`): the
bundle's writers call these and nothing else.

- a spreadsheet cell (CSV or XLSX): text a spreadsheet would run as a formula is neutralised;
- a matplotlib label (PNG or SVG): drawn literally (no mathtext, no control characters);
- XML (draw.io): markup characters escaped, control characters removed.
"""

from __future__ import annotations

from clustergen.safe_text import csv_cell, picture_text, plain


def cell_text(value: object) -> object:
    """A value for a CSV or XLSX cell: text that a spreadsheet would read as a formula is
    neutralised; numbers and None pass unchanged."""
    return csv_cell(value)


def plot_text(text: str, width: int | None = None) -> str:
    """Text for a matplotlib label, drawn literally: each of its own lines made safe, and with
    `width`, wrapped at words to lines of at most that many characters."""
    import textwrap

    lines = [picture_text(line) for line in text.split("\n")]
    if width:
        lines = [w for line in lines for w in (textwrap.wrap(line, width) or [""])]
    return "\n".join(lines)


def xml_text(text: str) -> str:
    """Text for an XML attribute or element."""
    # xml.sax.saxutils imports urllib.request, http.client and ssl: only drawings pay for them
    from xml.sax.saxutils import escape

    return escape(plain(text), {'"': "&quot;", "'": "&apos;", "\n": "&#10;"})
