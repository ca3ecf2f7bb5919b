"""A fault in a catalog, located by file, entry and field, and how a line of a file is traced to
the entry it falls in."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a catalog, located by file, entry and field."""

    file: str
    entry: str
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}: entry {self.entry!r}"
        if self.field:
            where += f", field {self.field!r}"
        return f"{where}: {self.message}"


_ITEM = re.compile(r"^-(?:\s+|$)")
_ID = re.compile(r"""id:\s*["']?([^"'#\s]+)""")


def entry_near(text: str, line: int) -> str:
    """The entry a 1-based line of a catalog file falls in: its id, `#n` (the n-th item) when the
    id cannot be read, or `-` before the first item."""
    lines = text.splitlines()
    starts = [i for i, ln in enumerate(lines[:line]) if _ITEM.match(ln)]
    if not starts:
        return "-"
    first = lines[starts[-1]]
    head = _ITEM.match(first)
    column = head.end() if head and first[head.end() :].strip() else 2
    # The entry's own keys sit at one column; nested mappings (which may have an `id`) sit deeper.
    keys = [first[column:]]
    for ln in lines[starts[-1] + 1 :]:
        if _ITEM.match(ln):
            break
        if not ln[:column].strip() and not ln[column : column + 1].isspace():
            keys.append(ln[column:])
    for key in keys:
        found = _ID.match(key)
        if found:
            return found.group(1)
    return f"#{len(starts)}"
