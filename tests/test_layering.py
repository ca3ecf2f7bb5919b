"""Imports point one way, down: cli -> agent -> tools -> engine -> catalog.

The lower layers must stay pure: no model client, no network, no terminal, no MCP, and nothing from a
layer above. Every module is parsed (not imported), so a violation is found even in a branch that
never runs, such as an `if TYPE_CHECKING:` block. ruff's banned-api rule (pyproject.toml) flags most
of the same imports while editing.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "clustergen"

#: Third-party packages only the upper layers may import.
UPPER_LIBRARIES = ("openai", "httpx", "typer", "rich", "mcp")
_UPPER = ("clustergen.cli", "clustergen.agent", "clustergen.mcp")
_PURE = (*UPPER_LIBRARIES, *_UPPER)
# errors.py, units.py, resources.py, untrusted.py, redact.py and safe_text.py sit under every
# layer, so they import none of them.
_NO_LAYERS = (*_PURE, "clustergen.tools", "clustergen.engine", "clustergen.catalog")

#: Layer (a subpackage, or a shared top-level module) -> imports it must not make.
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "errors": _NO_LAYERS,
    "units": _NO_LAYERS,
    "resources": _NO_LAYERS,
    "untrusted": _NO_LAYERS,
    "redact": _NO_LAYERS,
    "safe_text": _NO_LAYERS,
    "catalog": (*_PURE, "clustergen.tools", "clustergen.engine"),
    "engine": (*_PURE, "clustergen.tools"),
    "tools": _PURE,
    "agent": ("clustergen.cli",),
    # The eval harness may drive the agent (agent_runners.py) but never prints or builds commands.
    "evals": ("typer", "rich", "mcp", "clustergen.cli", "clustergen.mcp"),
    # The MCP server serves the tools; it never asks a model or reaches into the CLI.
    "mcp": ("clustergen.cli", "clustergen.agent", "openai"),
}


def _layer_files(layer: str) -> list[Path]:
    package = PACKAGE / layer
    if package.is_dir():
        return sorted(package.rglob("*.py"))
    module = PACKAGE / f"{layer}.py"
    return [module] if module.exists() else []


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_names(source: str, module: str, is_package: bool = False) -> set[str]:
    """Every module name `source` imports, relative imports resolved against `module`.

    `from a import b` yields both `a` and `a.b`, since `b` may be a submodule. String literals given
    to `importlib.import_module` or `__import__` count too.
    """
    package = module if is_package else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
        elif (
            isinstance(node, ast.Call)
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and (
                (isinstance(node.func, ast.Name) and node.func.id == "__import__")
                or (isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
            )
        ):
            names.add(node.args[0].value)
    return names


def violations(names: set[str], forbidden: tuple[str, ...]) -> list[str]:
    """The names that are, or live under, a forbidden module."""
    return sorted({n for n in names for f in forbidden if n == f or n.startswith(f + ".")})


_CASES = [
    pytest.param(path, forbidden, id=str(path.relative_to(PACKAGE)))
    for layer, forbidden in FORBIDDEN.items()
    for path in _layer_files(layer)
]


@pytest.mark.parametrize(("path", "forbidden"), _CASES)
def test_module_imports_only_downward(path: Path, forbidden: tuple[str, ...]) -> None:
    names = imported_names(
        path.read_text(encoding="utf-8"), _module_name(path), path.name == "__init__.py"
    )
    bad = violations(names, forbidden)
    assert not bad, f"{path.relative_to(PACKAGE.parent)} imports {bad}: imports must point down"


def test_the_lower_layers_exist() -> None:
    # Guards against a rename that would leave the parametrised test above checking nothing.
    for layer in ("catalog", "engine", "tools"):
        assert (PACKAGE / layer / "__init__.py").is_file(), layer
    assert any(PACKAGE.joinpath("engine").glob("[!_]*.py"))


def test_checker_sees_every_import_form() -> None:
    source = """
import openai
import rich.console
from typing import TYPE_CHECKING
from ... import cli
from ...agent.loop import run
from . import fabric
import importlib
if TYPE_CHECKING:
    from typer import Typer
importlib.import_module("httpx")
"""
    names = imported_names(source, "clustergen.engine.sizing.power")
    assert violations(names, FORBIDDEN["engine"]) == [
        "clustergen.agent.loop",
        "clustergen.agent.loop.run",
        "clustergen.cli",
        "httpx",
        "openai",
        "rich.console",
        "typer",
        "typer.Typer",
    ]
    assert "clustergen.engine.sizing.fabric" in names
    assert not violations({"clustergen.client", "openai_like", "richer"}, FORBIDDEN["engine"])


def _modules_loaded_by(statement: str) -> set[str]:
    """The names in sys.modules after running `statement` in a fresh interpreter."""
    code = f"import json, sys\n{statement}\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.splitlines()[-1]))


@pytest.mark.slow
def test_importing_the_fabric_engine_loads_no_client_or_terminal_library() -> None:
    loaded = _modules_loaded_by("import clustergen.engine.sizing.fabric")
    assert "clustergen.engine.sizing.fabric" in loaded
    assert violations(loaded, _PURE) == []


@pytest.mark.slow
def test_importing_every_lower_module_loads_no_client_or_terminal_library() -> None:
    modules = sorted(
        {_module_name(p) for layer in ("catalog", "engine", "tools") for p in _layer_files(layer)}
    )
    loaded = _modules_loaded_by("\n".join(f"import {m}" for m in modules))
    assert set(modules) <= loaded
    assert violations(loaded, _PURE) == []


#: Inside the engine, the kinds of function in their order: data, then forward models, then
#: inverse solves, then the assembly of a design, then the search over designs. Each sub-package
#: may import itself and what it lists here, nothing above it.
ENGINE_BELOW: dict[str, frozenset[str]] = {
    "model": frozenset(),
    "request": frozenset({"model"}),
    "sizing": frozenset({"model"}),
    "solve": frozenset({"model", "sizing"}),
    "assemble": frozenset({"model", "sizing", "solve"}),
    "search": frozenset({"model", "request", "sizing", "solve", "assemble"}),
    "calculators": frozenset({"model", "request", "sizing", "solve"}),
    "report": frozenset({"model"}),
}


def _engine_part(module: str) -> str | None:
    parts = module.split(".")
    if parts[:2] != ["clustergen", "engine"] or len(parts) < 3:
        return None
    return parts[2]


_ENGINE_CASES = [
    pytest.param(path, id=str(path.relative_to(PACKAGE)))
    for path in sorted((PACKAGE / "engine").rglob("*.py"))
    if _engine_part(_module_name(path)) in ENGINE_BELOW
]


@pytest.mark.parametrize("path", _ENGINE_CASES)
def test_engine_modules_import_only_the_kinds_below_them(path: Path) -> None:
    module = _module_name(path)
    own = _engine_part(module)
    assert own is not None
    names = imported_names(path.read_text(encoding="utf-8"), module, path.name == "__init__.py")
    allowed = ENGINE_BELOW[own] | {own}
    bad = sorted(n for n in names if (part := _engine_part(n)) is not None and part not in allowed)
    assert not bad, f"{module} ({own}) imports {bad}; it may import only {sorted(allowed)}"


def test_every_engine_sub_package_has_a_place_in_the_order() -> None:
    parts = {
        p.name if p.is_dir() else p.stem
        for p in (PACKAGE / "engine").iterdir()
        if (p.is_dir() and (p / "__init__.py").exists()) or p.name == "assemble.py"
    }
    assert parts == set(ENGINE_BELOW)
