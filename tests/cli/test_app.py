"""The entry point: a command that needs no model starts without the model client libraries, and
running one command builds only that command."""

from __future__ import annotations

import subprocess
import sys

import pytest
import typer

from clustergen.cli.app import _only, app

MODEL_CLIENTS = {"openai", "httpx"}


def _imported_by(*args: str) -> set[str]:
    """Every module a real `clustergen ARGS` process imports, read from `python -X importtime`."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "clustergen", *args],
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


@pytest.mark.slow
def test_a_design_from_the_cached_catalog_reads_no_yaml() -> None:
    args = ("design", "512 GPUs training, 5 MW", "--offline", "--json")
    first = _imported_by(*args)  # fills the parsed-catalog cache, where it was empty
    assert "clustergen.catalog.yaml_text" in first or "yaml" not in first
    imported = _imported_by(*args)
    assert "clustergen.engine.search.planner" in imported
    assert not any(m.split(".")[0] == "yaml" for m in imported)
