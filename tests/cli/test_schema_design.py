"""`clustergen schema design`: the JSON Schema of `design --json` is a contract (snapshotted), and
every design the CLI prints validates against it.

The snapshot is what moves when the Design's shape moves (a new request field, a new section):
regenerate it on purpose with CLUSTERGEN_UPDATE_SNAPSHOTS=1 uv run pytest tests/cli/test_schema_design.py.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from support.frozen import FROZEN, freeze

from .conftest import Cli

SNAPSHOT = Path(__file__).parent / "design.schema.snapshot.json"


def _schema(cli: Cli) -> dict[str, Any]:
    code, out, _ = cli("schema", "design")
    assert code == 0
    schema: dict[str, Any] = json.loads(out)
    return schema


def test_the_design_schema_matches_the_snapshot(cli: Cli) -> None:
    text = json.dumps(_schema(cli), indent=1, sort_keys=True) + "\n"
    if os.environ.get("CLUSTERGEN_UPDATE_SNAPSHOTS"):
        SNAPSHOT.write_text(text, encoding="utf-8")
    assert SNAPSHOT.read_text(encoding="utf-8") == text


@pytest.mark.parametrize("stem", sorted(freeze.canonical()))
def test_every_canonical_design_validates_against_the_schema(cli: Cli, stem: str) -> None:
    design = json.loads((FROZEN / f"{stem}.json").read_text(encoding="utf-8"))["output"]
    jsonschema.validate(design, _schema(cli))


@pytest.mark.parametrize(
    "text",
    ["512 GPUs training, 5 MW", "serve Llama 3.1 405B at 20,000 output tokens/s"],
)
def test_a_printed_design_validates_against_the_schema(cli: Cli, text: str) -> None:
    code, out, _ = cli("design", text, "--offline", "--json")
    assert code == 0
    jsonschema.validate(json.loads(out), _schema(cli))
