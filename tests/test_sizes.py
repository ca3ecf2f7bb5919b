"""Size limits: no function over 100 lines, so each can be read at once; ruff's C90 rule
(max-complexity 15, enabled in pyproject.toml) over the whole package; and a family of modules is
a package, not a file-name prefix (a module grows or splits by its noun, not by a line count)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "clustergen"
MAX_FUNCTION_LINES = 100


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_the_check_sees_the_package() -> None:
    assert len(_modules()) > 30


#: The CLI keeps one module per command (`<command>_cmd`) and, where it has one, the command's
#: terminal view beside it: the prefix there names a command, not a family of engine nouns.
PREFIX_FREE_EXEMPT = {"cli"}


def shared_prefixes(stems: list[str]) -> list[str]:
    """Name prefixes (the part before the first '_') that two modules of one folder share."""
    prefixes = [s.split("_")[0] for s in stems if "_" in s]
    return sorted({p for p in prefixes if prefixes.count(p) + stems.count(p) > 1})


def test_shared_prefixes_are_found() -> None:
    assert shared_prefixes(["storage", "storage_io", "fabric"]) == ["storage"]
    assert shared_prefixes(["storage_io", "storage_plan"]) == ["storage"]
    assert shared_prefixes(["rules", "workload_rules", "parse"]) == []


def test_a_family_of_modules_is_a_package() -> None:
    folders = [PACKAGE, *(p for p in PACKAGE.rglob("*") if p.is_dir() and p.name != "__pycache__")]
    shared = {
        str(folder.relative_to(PACKAGE)): found
        for folder in folders
        if folder.name not in PREFIX_FREE_EXEMPT
        and (
            found := shared_prefixes([p.stem for p in folder.glob("*.py") if p.stem != "__init__"])
        )
    }
    assert not shared, f"modules sharing a name prefix belong in a package: {shared}"


def test_no_function_is_too_long() -> None:
    long: dict[str, int] = {}
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno:
                n = node.end_lineno - node.lineno + 1
                if n > MAX_FUNCTION_LINES:
                    long[f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name}"] = n
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines: {long}"


@pytest.mark.slow
def test_no_function_is_too_complex() -> None:
    """ruff's mccabe check (C90) at pydantic-ai's max-complexity of 15."""
    done = subprocess.run(
        [
            *(
                sys.executable,
                "-m",
                "ruff",
                "check",
                "--select",
                "C90",
                "--output-format",
                "concise",
            ),
            *("--config", "lint.mccabe.max-complexity=15"),
            str(PACKAGE.relative_to(ROOT)),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
