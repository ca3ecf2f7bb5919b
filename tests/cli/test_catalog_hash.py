"""The catalog hash names the exact catalog a design was made from. Frozen outputs mask it
(tests/test_frozen.py), so it is tested here: `--version`, `catalog validate` and a design's
provenance report the same hash, it moves when any catalog value moves (a source too: a design
cites them), and restating a value elsewhere or in another YAML spelling does not move it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from clustergen import __version__
from clustergen.catalog import load_catalog
from clustergen.catalog.models import System

Cli = Callable[..., tuple[int, str, str]]

OVERLAY = "- id: {system}\n  max_power_w: {watts}\n"


def _overlay(directory: Path, text: str) -> str:
    directory.mkdir()
    (directory / "systems.yaml").write_text(text, encoding="utf-8")
    return str(directory)


def _hash(cli: Cli, catalog: str | None = None) -> str:
    """The hash as each command reports it; they must agree."""
    extra = ["--catalog", catalog] if catalog else []
    code, out, _ = cli("catalog", "validate", *extra, "--json")
    assert code == 0
    validated = json.loads(out)["catalog_hash"]
    code, out, _ = cli("design", "8 GPUs", "--platform", "dgx-h100", "--offline", "--json", *extra)
    assert code == 0
    assert json.loads(out)["provenance"]["catalog_hash"] == validated
    return str(validated)


def test_every_command_reports_the_catalog_hash(cli: Cli) -> None:
    found = _hash(cli)
    assert found == load_catalog().hash
    assert len(found) == 12
    assert int(found, 16) >= 0  # hex
    code, out, _ = cli("--version")
    assert code == 0
    assert out == f"clustergen {__version__} (catalog {found})\n"
    code, out, _ = cli("catalog", "validate")
    assert code == 0
    assert out.endswith(f", hash {found}\n")


def test_a_changed_value_changes_the_hash(cli: Cli, tmp_path: Path) -> None:
    watts = load_catalog().get("systems", System, "dgx-h100").max_power_w
    base = _hash(cli)
    changed = _overlay(tmp_path / "changed", OVERLAY.format(system="dgx-h100", watts=watts + 100))
    assert _hash(cli, changed) != base


def test_a_changed_source_changes_the_hash(tmp_path: Path) -> None:
    # A design cites its sources: the hash names the catalog they came from too.
    text = "- id: dgx-h100\n  source: a second printing of the DGX H100 user guide\n"
    assert load_catalog(_overlay(tmp_path / "reworded", text)).hash != load_catalog().hash


def test_nothing_but_a_value_moves_the_hash(cli: Cli, tmp_path: Path) -> None:
    watts = load_catalog().get("systems", System, "dgx-h100").max_power_w
    base = _hash(cli)
    # the same value restated, in another directory, formatted differently, with a comment
    same = _overlay(tmp_path / "same", OVERLAY.format(system="dgx-h100", watts=watts))
    assert _hash(cli, same) == base
    spelled = f"# restated\n- {{max_power_w: {int(watts)}.0, id: dgx-h100}}\n"
    assert _hash(cli, _overlay(tmp_path / "elsewhere", spelled)) == base


def test_a_designs_inputs_digest_follows_its_request_and_catalog(cli: Cli, tmp_path: Path) -> None:
    """`inputs_sha256` (masked in frozen outputs too) is what `render` uses to tell an edit of the
    inputs from an edit of derived figures: the same request on the same catalog gives the same
    digest, another request or another catalog another one."""

    def digest(text: str, *extra: str) -> str:
        code, out, _ = cli("design", text, "--offline", "--json", *extra)
        assert code == 0
        return str(json.loads(out)["provenance"]["inputs_sha256"])

    first = digest("8 GPUs")
    assert len(first) == 64
    assert digest("8 GPUs") == first
    assert digest("16 GPUs") != first
    watts = load_catalog().get("systems", System, "dgx-b200").max_power_w
    moved = _overlay(tmp_path / "moved", OVERLAY.format(system="dgx-b200", watts=watts + 1))
    assert digest("8 GPUs", "--catalog", moved) != first
