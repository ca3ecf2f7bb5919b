"""Catalog text rules: control characters nowhere, no formula at the start of an id, a name, an
alias or a part number; each problem located by file, entry and field."""

from __future__ import annotations

from typing import Any

import pytest

from clustergen.catalog.text_rules import text_problems


def _fields(row: dict[str, Any]) -> list[str]:
    return [p.field for p in text_problems("systems.yaml", "x", row)]


@pytest.mark.parametrize(
    ("row", "field"),
    [
        ({"name": '=HYPERLINK("https://evil.example","x")'}, "name"),
        ({"opn": "=cmd|' /C calc'!A0"}, "opn"),
        ({"opn": "+1-cmd|x"}, "opn"),
        ({"opn": "  -2+3"}, "opn"),
        ({"aliases": ["ok", "@SUM(1)"]}, "aliases.1"),
        ({"name": "H100\nclick X"}, "name"),
        ({"name": "H100\tSXM"}, "name"),
        ({"name": "QM9700 \x1b[31m"}, "name"),
        ({"notes": "a \x1b]8;;https://e\x07b"}, "notes"),
        ({"source": "datasheet\x00"}, "source"),
        ({"compute": {"nic": "cx7\u202e"}}, "compute.nic"),
        ({"field_sources": {"tdp\x1b": "x"}}, "field_sources.tdp\x1b"),
    ],
)
def test_each_hostile_string_is_a_located_problem(row: dict[str, Any], field: str) -> None:
    problems = text_problems("systems.yaml", "x", row)
    assert [p.field for p in problems] == [field]
    shown = str(problems[0])
    assert shown.startswith(f"systems.yaml: entry 'x', field {field!r}: ")
    assert "\x1b" not in shown
    assert "\x00" not in shown


@pytest.mark.parametrize(
    "row",
    [
        {"name": "NVIDIA HGX B200 8-GPU server (OEM)", "opn": "980-9I693-00NS00"},
        {"opn": "-5"},  # a number is no formula
        {"name": "x", "notes": "=free text is neutralised where it is shown\nsecond line"},
        {"source": "@ a note, + b", "aliases": ["H100 SXM", "h100"]},
    ],
)
def test_plain_catalog_text_passes(row: dict[str, Any]) -> None:
    assert _fields(row) == []
