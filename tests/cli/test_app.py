"""The entry point: a command that needs no model starts without the model client libraries, and
running one command builds only that command."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer

from clustergen.cli import app as app_module
from clustergen.cli.app import _HOMES, _only, app

MODEL_CLIENTS = {"openai", "httpx"}


def _imported_by(*args: str) -> set[str]:
    """Every module a real `clustergen ARGS` process imports, read from `python -X importtime`."""
    return _imports_of("-m", "clustergen", *args)


def _imports_of(*args: str) -> set[str]:
    """Every module `python -X importtime ARGS` imports."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return {
        line.rsplit("|", 1)[1].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:") and line.count("|") == 2
    }


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "proof"),
    [
        (
            ("fabric", "--platform", "dgx-h100", "--nodes", "32", "--json"),
            "clustergen.engine.sizing.fabric.network",
        ),
        (
            ("design", "512 GPUs training, 5 MW", "--offline", "--json"),
            "clustergen.engine.search.planner",
        ),
        # no key configured: the default mode is the planner and must not load the model client
        (("design", "512 GPUs training, 5 MW", "--json"), "clustergen.engine.search.planner"),
        (
            ("power", "--platform", "dgx-h100", "--cap-mw", "5", "--json"),
            "clustergen.engine.solve.power_first",
        ),
        (
            ("sensitivity", "2 MW", "--platform", "dgx-h100", "--json"),
            "clustergen.engine.search.sensitivity",
        ),
    ],
)
def test_commands_without_a_model_import_no_model_client(args: tuple[str, ...], proof: str) -> None:
    imported = _imported_by(*args)
    assert proof in imported  # the import list is real, so its absences mean something
    clients = sorted(m for m in imported if m.split(".")[0] in MODEL_CLIENTS)
    assert clients == [], f"`clustergen {args[0]}` imports {clients}"
    # JSON output needs no terminal renderer either; rich costs ~40 ms of every start
    assert not any(m.split(".")[0] == "rich" for m in imported)
    # nor the plotting and workbook libraries, which only pictures and bundles need
    assert not any(m.split(".")[0] in {"matplotlib", "openpyxl"} for m in imported)


def test_only_the_invoked_command_is_built() -> None:
    full = typer.main.get_command(app)
    assert isinstance(full, typer.core.TyperGroup)
    assert {"fabric", "design", "catalog", "power"} <= set(full.commands)
    for name, command in full.commands.items():
        pruned = typer.main.get_command(_only(name))
        assert isinstance(pruned, typer.core.TyperGroup)
        assert list(pruned.commands) == [name]
        assert [p.name for p in pruned.commands[name].params] == [p.name for p in command.params]
    assert _only(None) is app
    assert _only("no-such-command") is app  # the full app then names the real ones


def test_every_command_module_and_name_has_a_home() -> None:
    # main imports only the module _HOMES names for a command: a command missing there would
    # exist in --help and fail when run
    here = Path(app_module.__file__).parent
    assert {p.stem for p in here.glob("*_cmd.py")} == {m for m, _ in _HOMES}
    full = typer.main.get_command(app)
    assert isinstance(full, typer.core.TyperGroup)
    assert set(full.commands) == {n for _, names in _HOMES for n in names}


@pytest.mark.slow
def test_a_design_from_the_cached_catalog_reads_no_yaml() -> None:
    args = ("design", "512 GPUs training, 5 MW", "--offline", "--json")
    first = _imported_by(*args)  # fills the parsed-catalog cache, where it was empty
    assert "clustergen.catalog.yaml_text" in first or "yaml" not in first
    imported = _imported_by(*args)
    assert "clustergen.engine.search.planner" in imported
    assert not any(m.split(".")[0] == "yaml" for m in imported)


#: what no command's start may import unless it uses it: the other commands' modules, and the
#: network and mail stack (xml.sax.saxutils brings urllib.request, http.client and ssl)
OTHER_COMMANDS = {
    f"clustergen.cli.{m}"
    for m in ("catalog_cmd", "ra_cmd", "storage_cmd", "fleet_cmd", "eval_cmd", "mcp_cmd")
}
NETWORK = {"http.client", "urllib.request", "ssl", "xml.sax.saxutils"}
DRAWING = {"matplotlib", "openpyxl", "rich"}
#: libraries only other commands use: the model client, the MCP and web servers, the page's
#: templates, the pictures and the workbook
HEAVY = {"openai", "httpx", "mcp", "starlette", "uvicorn", "jinja2", *DRAWING}


def _top(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


@pytest.mark.slow
def test_importing_the_app_imports_no_command() -> None:
    imported = _imports_of("-c", "import clustergen.cli.app")
    assert "typer" in imported  # the list is real
    assert not {
        m for m in imported if m.startswith("clustergen.cli.") and m != "clustergen.cli.app"
    }
    assert not {m for m in imported if m.startswith(("clustergen.catalog", "clustergen.engine"))}
    assert "pydantic" not in imported
    assert not (imported & NETWORK)
    assert not (_top(imported) & DRAWING)


@pytest.mark.slow
def test_design_help_builds_options_without_catalog_or_engine() -> None:
    imported = _imported_by("design", "--help")
    assert "clustergen.engine.model.request" in imported  # the options come from the request
    assert not {m for m in imported if m.startswith("clustergen.catalog")}
    engine_work = ("search", "sizing", "solve", "assemble", "report", "request.parse")
    assert not {
        m for m in imported if m.startswith(tuple(f"clustergen.engine.{w}" for w in engine_work))
    }
    assert not (imported & OTHER_COMMANDS)


@pytest.mark.slow
def test_design_json_imports_only_what_it_runs() -> None:
    imported = _imported_by("design", "512 GPUs training, 5 MW", "--offline", "--json")
    assert "clustergen.engine.search.planner" in imported
    assert not (imported & OTHER_COMMANDS)
    assert "clustergen.cli.bundle" not in imported  # no --out, no bundle writer
    assert not (imported & NETWORK)
    assert not (_top(imported) & HEAVY)
    # pydantic's plugins are off, so nor the entry-point scan's machinery (`_no_plugin_scan`)
    assert "importlib.metadata" not in imported


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ("fabric", "--platform", "dgx-h100", "--nodes", "32", "--json"),
        ("power", "--platform", "dgx-h100", "--cap-mw", "5", "--json"),
    ],
)
def test_sizing_a_platform_loads_no_request_parser_or_design_model(args: tuple[str, ...]) -> None:
    imported = _imported_by(*args)
    assert "clustergen.engine.sizing.fabric" in imported
    unused = {
        "clustergen.engine.request.parse",
        "clustergen.engine.request.rules",
        "clustergen.engine.model.design",
        "clustergen.engine.search.planner",
        "clustergen.cli.design_cmd",
    }
    assert not (imported & unused)
    assert not (imported & NETWORK)


def _process(*args: str, stdout: Any = subprocess.PIPE) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "clustergen", *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.slow
def test_the_quick_exit_flushes_the_whole_output_and_keeps_the_exit_code() -> None:
    done = _process("fabric", "--platform", "dgx-h100", "--nodes", "32", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["nodes"] == 32  # every byte arrived, not a buffer's worth
    refused = _process("fabric", "--platform", "dgx-h100", "--nodes", "0", "--json")
    assert refused.returncode == 2
    assert json.loads(refused.stdout)["error"]["type"] == "usage_error"
    unknown = _process("no-such-command")
    assert unknown.returncode == 2
    assert "No such command" in unknown.stderr


@pytest.mark.slow
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_the_quick_exit_reports_an_output_that_cannot_be_written() -> None:
    with Path("/dev/full").open("w") as full:
        done = _process("fabric", "--platform", "dgx-h100", "--nodes", "32", "--json", stdout=full)
    assert done.returncode == 2
    assert done.stderr.strip() == "Error: cannot write the output: No space left on device"


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ("design", "512 GPUs training, 5 MW", "--offline", "--json"),
        ("fabric", "--platform", "dgx-h100", "--nodes", "32", "--json"),
    ],
)
def test_a_short_command_ends_before_the_collectors_first_pass(args: tuple[str, ...]) -> None:
    # with the threshold `run` sets, a young pass over start-up's objects costs 10-15 ms and frees
    # almost nothing; a command that now allocates more than _GC_YOUNG pays it again: trim what
    # start-up builds, or weigh raising _GC_YOUNG (memory) in cli/app.py
    code = (
        "import contextlib, gc, io, sys\n"
        "from clustergen.cli import app\n"
        "gc.set_threshold(app._GC_YOUNG, 10, 10)\n"
        "passes = []\n"
        "gc.callbacks.append(lambda phase, info: passes.append(info) if phase == 'stop' else None)\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    app.main(sys.argv[1:])\n"
        "print(len(passes), gc.get_count()[0])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    passes, allocated = (int(n) for n in done.stdout.split())
    assert passes == 0, f"`clustergen {args[0]}` allocated past {app_module._GC_YOUNG:,}"
    assert allocated > 1_000  # the count is real


@pytest.mark.parametrize(("given", "seen"), [(None, "__all__"), ("", ""), ("logfire", "logfire")])
def test_the_console_script_turns_pydantic_plugins_off_unless_the_user_chose(
    given: str | None, seen: str
) -> None:
    # pydantic scans every installed distribution for plugins when it builds its first model;
    # clustergen uses none, so `run` defaults the variable, and a user's own setting stands
    env = {k: v for k, v in os.environ.items() if k != app_module.PLUGINS_ENV}
    if given is not None:
        env[app_module.PLUGINS_ENV] = given
    child = (
        "import os\n"
        "from clustergen.cli import app\n"
        "def main():\n"
        f"    print(repr(os.environ.get({app_module.PLUGINS_ENV!r})))\n"
        "    from pydantic.plugin._loader import get_plugins\n"
        "    import sys\n"
        "    print(list(get_plugins()), 'importlib.metadata' in sys.modules)\n"
        "app.main = main\n"
        "app.run()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", child], env=env, capture_output=True, text=True, check=True
    )
    setting, plugins = done.stdout.strip().splitlines()
    assert setting == repr(seen)
    # no plugin either way here; pydantic's own loader (and its entry-point scan) only when a
    # plugin may be on
    assert plugins == f"[] {seen != '__all__'}"


def test_pydantic_asks_its_plugin_loader_for_get_plugins_only() -> None:
    # `_no_plugin_scan` stands in for pydantic's loader with that one function: a pydantic that
    # imports anything else from it fails here, not in a user's process
    import pydantic

    root = Path(pydantic.__file__).parent
    asked = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            package = ".".join(path.relative_to(root.parent).with_suffix("").parts[: -node.level])
            full = f"{package}.{node.module}" if node.level else node.module
            if full == app_module.PLUGIN_LOADER:
                asked |= {a.name for a in node.names}
            elif full == "pydantic.plugin" and any(a.name == "_loader" for a in node.names):
                asked.add("the module itself")
    assert asked == {"get_plugins"}
