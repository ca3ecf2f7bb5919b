"""Helpers for the eval tests: write case files into a temporary suite tree."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

WriteCases = Callable[[str, str], Path]


@pytest.fixture
def write_cases(tmp_path: Path) -> WriteCases:
    """`write_cases("golden/x.yaml", yaml_text)` -> the cases root directory."""

    def write(relpath: str, text: str) -> Path:
        path = tmp_path / "cases" / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return tmp_path / "cases"

    return write
