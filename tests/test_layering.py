"""Imports point one way, down: cli -> agent -> tools -> engine -> catalog.

The lower layers must stay pure: no model client, no network, no terminal, no MCP, and nothing from a
layer above. Every module is parsed (not imported), so a violation is found even in a branch that
never runs, such as an `if TYPE_CHECKING:` block. ruff's banned-api rule (pyproject.toml) flags most
of the same imports while editing.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "clustergen"

#: Third-party packages only the upper layers may import.
UPPER_LIBRARIES = ("openai", "httpx", "typer", "rich", "mcp")
_UPPER = ("clustergen.cli", "clustergen.agent", "clustergen.mcp")
_PURE = (*UPPER_LIBRARIES, *_UPPER)
# errors.py, units.py, resources.py, untrusted.py, redact.py, safe_text.py and factories.py sit
# under every layer, so they import none of them.
_NO_LAYERS = (*_PURE, "clustergen.tools", "clustergen.engine", "clustergen.catalog")

#: Layer (a subpackage, or a shared top-level module) -> imports it must not make.
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "errors": _NO_LAYERS,
    "units": _NO_LAYERS,
    "resources": _NO_LAYERS,
    "untrusted": _NO_LAYERS,
    "redact": _NO_LAYERS,
    "safe_text": _NO_LAYERS,
    "factories": _NO_LAYERS,
    "catalog": (*_PURE, "clustergen.tools", "clustergen.engine"),
    "engine": (*_PURE, "clustergen.tools"),
    "tools": _PURE,
    "agent": ("clustergen.cli",),
    # The eval harness may drive the agent (agent_runners.py) but never prints or builds commands.
    "evals": ("typer", "rich", "mcp", "clustergen.cli", "clustergen.mcp"),
    # The MCP server serves the tools; it never asks a model or reaches into the CLI.
    "mcp": ("clustergen.cli", "clustergen.agent", "openai"),
    # The page (`clustergen serve`) sits under the CLI: it never prints to a terminal or builds
    # a command, and its agent runs through clustergen.agent, not a client of its own.
    "web": ("clustergen.cli", "typer", "rich", "openai", "httpx"),
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
    loaded = _modules_loaded_by("import clustergen.engine.sizing.fabric.network")
    assert "clustergen.engine.sizing.fabric.network" in loaded
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
    "cache": frozenset(),  # the engine's one cache: any kind may keep its answers there
    "model": frozenset({"cache"}),
    "request": frozenset({"cache", "model"}),
    "sizing": frozenset({"cache", "model"}),
    "cost": frozenset({"cache", "model"}),
    "solve": frozenset({"cache", "model", "sizing", "cost"}),
    "assemble": frozenset({"cache", "model", "sizing", "cost", "solve"}),
    "search": frozenset({"cache", "model", "request", "sizing", "cost", "solve", "assemble"}),
    "calculators": frozenset({"cache", "model", "request", "sizing", "cost", "solve"}),
    "report": frozenset({"cache", "model"}),
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
        if (p.is_dir() and (p / "__init__.py").exists()) or p.name in {"assemble.py", "cache.py"}
    }
    assert parts == set(ENGINE_BELOW)


def _src_modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imported_modules(source: str, module: str, is_package: bool, known: set[str]) -> set[str]:
    """The modules of `src/` that `source` imports. `from a import b` is an edge to `a.b` when
    that is a module, else to `a` (b is a name defined there)."""
    package = module if is_package else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for a in node.names:
                sub = f"{base}.{a.name}"
                if sub in known:
                    found.add(sub)
                elif base in known:
                    found.add(base)
    found.discard(module)
    return found


def _import_graph() -> dict[str, set[str]]:
    """Module -> the modules of `src/` it imports, `TYPE_CHECKING` blocks and lazy imports
    included (an import inside a function is still an edge a reader must follow)."""
    modules = _src_modules()
    known = set(modules)
    return {
        name: _imported_modules(
            path.read_text(encoding="utf-8"), name, path.name == "__init__.py", known
        )
        for name, path in modules.items()
    }


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of `graph` as a path that ends where it starts, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_cycle_finder_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_src_has_no_import_cycle() -> None:
    cycle = find_cycle(_import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


#: The parts of `engine/sizing/`: each top-level module, and each sub-package taken whole.
def _sizing_part(module: str) -> str | None:
    prefix = "clustergen.engine.sizing."
    if not module.startswith(prefix):
        return None
    return module[len(prefix) :].split(".")[0]


def test_sizing_parts_form_no_cycle() -> None:
    parts: dict[str, set[str]] = {}
    for module, targets in _import_graph().items():
        own = _sizing_part(module)
        if own is None:
            continue
        parts.setdefault(own, set()).update(
            p for t in targets if (p := _sizing_part(t)) is not None and p != own
        )
    cycle = find_cycle(parts)
    assert cycle is None, "engine/sizing parts import each other: " + " -> ".join(cycle or [])


def test_sizing_is_a_few_modules_and_three_noun_families() -> None:
    sizing = PACKAGE / "engine" / "sizing"
    modules = [p.stem for p in sizing.glob("*.py") if p.stem != "__init__"]
    packages = [p.name for p in sizing.iterdir() if (p / "__init__.py").is_file()]
    assert len(modules) <= 10, sorted(modules)
    assert sorted(packages) == ["fabric", "inventory", "links", "storage", "workload"]


def test_workload_is_shared_inputs_over_serving_and_training() -> None:
    """What serving and training share (the request read, the model catalog, the budget) at the
    top; each estimator's own modules in its package."""
    workload = PACKAGE / "engine" / "sizing" / "workload"
    modules = [p.stem for p in workload.glob("*.py") if p.stem != "__init__"]
    packages = [p.name for p in workload.iterdir() if (p / "__init__.py").is_file()]
    assert len(modules) <= 10, sorted(modules)
    assert sorted(packages) == ["serving", "training"]


def private_imports(source: str, module: str, modules: dict[str, Path]) -> list[str]:
    """`from X import _name` where X is another module than `module`, in its package or not: a
    name another module needs is public (`num`, `rule`), or it moves to the module using it."""
    package = module if module in modules and modules[module].name == "__init__.py" else None
    package = package or module.rpartition(".")[0]
    bad = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom):
            continue
        base = node.module or ""
        if node.level:
            anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
            base = ".".join([*anchor, *([base] if base else [])])
        if not base.startswith("clustergen") or base == module:
            continue
        bad += [
            f"{base}.{a.name}"
            for a in node.names
            if a.name.startswith("_") and not a.name.startswith("__")
        ]
    return bad


def test_private_imports_are_found() -> None:
    modules = _src_modules()
    source = "from clustergen.engine.sizing.fabric.plan import _x, fine\n"
    assert private_imports(source, "clustergen.engine.solve.power_first", modules) == [
        "clustergen.engine.sizing.fabric.plan._x"
    ]
    # within its own package too, and written relatively
    assert private_imports(source, "clustergen.engine.sizing.fabric.network", modules) == [
        "clustergen.engine.sizing.fabric.plan._x"
    ]
    relative = "from .phrases import _num, rule\nfrom . import _face\n"
    assert private_imports(relative, "clustergen.engine.request.rules.load", modules) == [
        "clustergen.engine.request.rules.phrases._num",
        "clustergen.engine.request.rules._face",
    ]
    assert private_imports("from __future__ import annotations\n", "clustergen.x", modules) == []


def test_no_private_name_is_imported_from_another_module() -> None:
    modules = _src_modules()
    bad = {
        name: found
        for name, path in modules.items()
        if (found := private_imports(path.read_text(encoding="utf-8"), name, modules))
    }
    assert not bad, bad


#: Most top-level modules an engine folder may hold: past that, its families become packages.
MAX_FOLDER_MODULES = 10
#: `model/` is the engine's vocabulary, one module per part of the Design, read as a glossary.
FOLDER_MODULES_EXEMPT = {"model"}


def _engine_folders() -> list[Path]:
    engine = PACKAGE / "engine"
    return [engine, *sorted(p for p in engine.rglob("*") if (p / "__init__.py").is_file())]


def test_the_folder_check_sees_the_engine() -> None:
    names = {str(p.relative_to(PACKAGE / "engine")) for p in _engine_folders()}
    assert {"request", "request/rules", "request/passes", "sizing", "search"} <= names
    # every exempt folder exists: a renamed one leaves no stale entry
    assert names >= FOLDER_MODULES_EXEMPT


@pytest.mark.parametrize(
    "folder",
    [
        pytest.param(p, id=str(p.relative_to(PACKAGE / "engine")))
        for p in _engine_folders()
        if str(p.relative_to(PACKAGE / "engine")) not in FOLDER_MODULES_EXEMPT
    ],
)
def test_an_engine_folder_holds_at_most_ten_modules(folder: Path) -> None:
    name = str(folder.relative_to(PACKAGE / "engine"))
    modules = sorted(p.stem for p in folder.glob("*.py") if p.stem != "__init__")
    assert len(modules) <= MAX_FOLDER_MODULES, f"engine/{name}: {modules}"


def test_sizing_sub_packages_are_entered_through_their_faces() -> None:
    """Outside a sizing sub-package, its names come from the package (pint's facets): the
    modules inside are its own business."""
    bad = []
    for module, targets in _import_graph().items():
        for t in targets:
            part = _sizing_part(t)
            inner = t.count(".") > 3  # clustergen.engine.sizing.<pkg>.<module>
            if part and inner and _sizing_part(module) != part:
                bad.append(f"{module} -> {t}")
    assert not bad, bad


def test_report_is_a_few_modules_per_family() -> None:
    """report/ by family: documents, pictures and data files, each a package, and no folder of
    it with more than 10 top-level modules (the rule sizing/ obeys)."""
    report = PACKAGE / "engine" / "report"
    packages = sorted(p.name for p in report.iterdir() if (p / "__init__.py").is_file())
    assert packages == ["documents", "files", "pictures"]
    for folder in [report, *(report / p for p in packages)]:
        modules = [p.stem for p in folder.glob("*.py") if p.stem != "__init__"]
        assert len(modules) <= 10, (folder.name, sorted(modules))


#: a command-line flag ("--fabric", "--cap-mw"): the CLI's word, not the engine's
_FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


def flags_named(source: str) -> list[str]:
    """The CLI flags a module's strings (docstrings and f-strings included) name."""
    return sorted(
        {
            flag
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            for flag in _FLAG.findall(node.value)
        }
    )


def test_flags_are_found() -> None:
    source = (
        '''"""Set with `--fabric ethernet`."""\nx = f"give {n} --cap-mw"\ny = "a -- b, |---|"\n'''
    )
    assert flags_named(source) == ["--cap-mw", "--fabric"]


def test_no_engine_string_names_a_cli_flag() -> None:
    """The engine serves the CLI, the tools and the MCP server alike: its messages name the
    request field ("fabric"), and the CLI says which flag sets it."""
    bad = {
        str(path.relative_to(PACKAGE)): found
        for path in sorted((PACKAGE / "engine").rglob("*.py"))
        if (found := flags_named(path.read_text(encoding="utf-8")))
    }
    assert not bad, bad
