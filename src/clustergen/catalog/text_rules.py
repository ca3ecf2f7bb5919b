"""What catalog text may hold: no control characters anywhere, and no spreadsheet formula at the
start of an id, a name, an alias or a part number.

A user's catalog layer (`--catalog DIR`) is untrusted. Its text reaches the BOM workbook, the CSV,
the memo, the topology diagram and the terminal; each of those sinks makes text inert
(`clustergen.safe_text`), and this check refuses the file before that, saying where, since a part
number that starts with `=` or a name with an escape sequence is a mistake or an attack, never a
fact.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from clustergen.catalog.problem import Problem
from clustergen.safe_text import has_controls, is_formula

#: fields whose text names a part: a buyer pastes them, spreadsheets sort and look them up
NAMING_FIELDS = frozenset({"id", "name", "aliases", "opn"})


def _strings(value: Any, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], str, bool]]:
    """(path, text, is_key) for every string in `value`, mapping keys included."""
    if isinstance(value, str):
        yield path, value, False
    elif isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str):
                yield (*path, key), key, True
            yield from _strings(item, (*path, str(key)))
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            yield from _strings(item, (*path, str(i)))


def _shown(text: str) -> str:
    """The offending text quoted, control characters visible as escapes, cut at 60 characters."""
    return repr(text if len(text) <= 60 else text[:57] + "...")


def text_problems(file: str, entry: str, row: dict[str, Any]) -> list[Problem]:
    """Every control character and formula-leading name in one entry's raw fields."""
    problems: list[Problem] = []
    for path, text, is_key in _strings(row, ()):
        where = ".".join(path)
        naming = bool(path) and (path[-1] in NAMING_FIELDS or path[-2:-1] == ("aliases",))
        if has_controls(text):
            what = "key" if is_key else "text"
            problems.append(
                Problem(
                    file,
                    entry,
                    where,
                    f"{what} {_shown(text)} holds a control character or escape sequence; "
                    "remove it (catalog text is plain)",
                )
            )
        elif (naming or is_key) and "\n" in text:
            problems.append(
                Problem(
                    file, entry, where, f"{_shown(text)} holds a line break; a name is one line"
                )
            )
        elif naming and not is_key and is_formula(text):
            problems.append(
                Problem(
                    file,
                    entry,
                    where,
                    f"{_shown(text)} starts with {text.lstrip()[:1]!r}, which a spreadsheet reads "
                    "as a formula; start a name or part number with a letter or digit",
                )
            )
    return problems
