"""The request options design and estimate share: a flag for each field that declares one, --set
for every field, validated by the request model; the shape of the commands that take them."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from clustergen.cli.request_opts import (
    ESTIMATE_FLAGS,
    cli_spelling,
    field_rows,
    flagged,
    settable,
)
from clustergen.engine.model.request import REQUEST_FIELDS

from .conftest import Cli

CLI = Path(__file__).resolve().parents[2] / "src" / "clustergen" / "cli"


def _help_options(cli: Cli, *command: str) -> set[str]:
    code, out, _ = cli(*command, "--help")
    assert code == 0
    return set(re.findall(r"(--[a-z][a-z0-9-]*)", out))


def test_every_declared_flag_is_an_option_of_design(cli: Cli) -> None:
    options = _help_options(cli, "design")
    declared = {f"--{w.flag}" for w in REQUEST_FIELDS.values() if w.flag}
    assert declared <= options
    assert "--set" in options


def test_estimate_takes_its_flags_and_the_model_alias(cli: Cli) -> None:
    assert set(ESTIMATE_FLAGS) <= set(flagged())
    options = _help_options(cli, "estimate")
    assert {cli_spelling(f) for f in ESTIMATE_FLAGS} | {"--model", "--set"} <= options
    assert "--cap-mw" not in options


def test_cli_spelling_names_the_flag_or_set() -> None:
    assert cli_spelling("power_cap_w") == "--cap-mw"
    assert cli_spelling("rack_power_kw") == "--rack-kw"
    assert cli_spelling("pue") == "--set pue=..."


def test_set_gives_a_field_in_its_own_unit(cli: Cli) -> None:
    code, out, err = cli(
        "design", "512 GPUs training, 5 MW", "--offline", "--json",
        "--set", "pue=1.3", "--set", "power_cap_basis=facility", "--set", "cooling=liquid",
    )  # fmt: skip
    assert code == 0, err
    req = json.loads(out)["request"]
    assert (req["pue"], req["power_cap_basis"], req["cooling"]) == (1.3, "facility", "liquid")


def test_a_flag_gives_its_field_in_the_model_unit(cli: Cli) -> None:
    code, out, err = cli("design", "--gpus", "512", "--cap-mw", "5", "--offline", "--json")
    assert code == 0, err
    assert json.loads(out)["request"]["power_cap_w"] == 5e6


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--set", "pwer_cap_w=5e6"], "unknown field 'pwer_cap_w'; did you mean 'power_cap_w'?"),
        (["--set", "pue=0.5"], "'--set pue=0.5' does not work as the PUE: input should be"),
        (["--set", "cooling=water"], "input should be 'air' or 'liquid'"),
        (["--set", "gpus"], "is not FIELD=VALUE"),
        (["--set", "cap-mw=5"], "use --cap-mw 5"),
        (["--set", "text=hi"], "unknown field 'text'"),
        (["--gpus", "512", "--set", "gpus=256"], "both give gpus"),
        (["--gpus", "0"], "'--gpus 0' does not work as the GPU count"),
    ],
)
def test_a_bad_field_is_one_line_naming_it(cli: Cli, args: list[str], says: str) -> None:
    code, _, err = cli("design", "512 GPUs training", "--offline", *args)
    assert code == 2
    assert says in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_set_errors_are_strict_json_with_json(cli: Cli) -> None:
    code, out, _ = cli("estimate", "--set", "isl_tokens=lots", "--json")
    assert code == 2
    assert json.loads(out)["error"]["type"] == "request_error"


def test_schema_request_lists_every_field_with_its_option_and_unit(cli: Cli) -> None:
    code, out, _ = cli("schema", "request")
    assert code == 0
    for field, option, unit, _ in field_rows():
        head = f"{field}{f' ({unit})' if unit else ''}: {option or f'--set {field}=...'}"
        assert head in out
    assert "power_cap_w (W): --cap-mw (MW)" in out
    assert {r[0] for r in field_rows()} == {"text", *settable()}


def _function(path: Path, name: str) -> ast.FunctionDef:
    tree = ast.parse(path.read_text())
    return next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name)


def _param_count(f: ast.FunctionDef) -> int:
    a = f.args
    return len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs)


@pytest.mark.parametrize(
    ("module", "command", "most"),
    [("design_cmd.py", "design", 16), ("estimate_cmd.py", "estimate", 16),
     ("storage_cmd.py", "analyze", 16)],
)  # fmt: skip
def test_commands_take_fields_as_one_option_set(module: str, command: str, most: int) -> None:
    assert _param_count(_function(CLI / module, command)) <= most


def test_no_command_passes_its_locals() -> None:
    for path in CLI.glob("*.py"):
        assert "locals()" not in path.read_text(), path.name
