"""Frozen outputs: every eval case, README and CLI example gives the same JSON, byte for byte.

A refactor must not change a number. A change that alters an output on purpose regenerates
tests/frozen/ with `uv run python scripts/freeze_outputs.py`, so its diff shows what moved: first
in tests/frozen/INDEX.tsv (the figures a reviewer reads), then in the JSON. What says nothing about
a design (the catalog and inputs hashes, the catalog's provenance prose) is masked, so a catalog
edit of a source or a date rewrites no file.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from clustergen.catalog import load_catalog
from clustergen.catalog.models import System

ROOT = Path(__file__).resolve().parent.parent
FROZEN = ROOT / "tests" / "frozen"
_spec = importlib.util.spec_from_file_location(
    "freeze_outputs", ROOT / "scripts" / "freeze_outputs.py"
)
assert _spec
assert _spec.loader
freeze = importlib.util.module_from_spec(_spec)
sys.modules["freeze_outputs"] = freeze
_spec.loader.exec_module(freeze)


def test_every_output_is_frozen_and_unchanged() -> None:
    changed = freeze.differences()
    assert not changed, (
        f"{len(changed)} output(s) differ from tests/frozen/ (first: {changed[:5]}); if the change "
        "is intended, run `uv run python scripts/freeze_outputs.py` and review the diff "
        "(tests/frozen/INDEX.tsv first)"
    )


def test_the_frozen_set_covers_cases_and_commands() -> None:
    names = [p.name for p in FROZEN.glob("*.json")]
    assert sum(n.startswith("case-") for n in names) >= 50
    assert sum(n.startswith("cli-design-") for n in names) >= 30
    assert any(n.startswith("cli-fabric-") for n in names)
    assert any(n.startswith("cli-power-") for n in names)


def test_every_gpu_system_in_the_catalog_has_a_frozen_design() -> None:
    systems = [s for s in load_catalog().all("systems", System) if s.gpu]
    assert len(systems) >= 15
    rows = _index()
    for s in systems:
        name = f"cli-design-512-gpus-platform-{s.id}.json"
        assert (FROZEN / name).is_file(), name
        assert rows[name]["platform"] == s.id  # the design is of the platform asked for


def _index() -> dict[str, dict[str, str]]:
    with (FROZEN / "INDEX.tsv").open(encoding="utf-8", newline="") as f:
        return {r["file"]: r for r in csv.DictReader(f, delimiter="\t")}


def test_the_index_lists_every_frozen_file_with_the_design_figures() -> None:
    rows = _index()
    assert sorted(rows) == sorted(p.name for p in FROZEN.glob("*.json"))
    text = (FROZEN / "INDEX.tsv").read_text(encoding="utf-8").splitlines()
    assert text[0].split("\t") == freeze.INDEX_COLUMNS
    assert text[1:] == sorted(text[1:])
    row = rows["cli-design-512-gpus-training-5-mw.json"]
    design = json.loads((FROZEN / "cli-design-512-gpus-training-5-mw.json").read_text())["output"]
    assert row["platform"] == design["platform"]["system"]
    assert int(row["gpus"]) == design["compute"]["gpus"] == 512
    assert int(row["nodes"]) == design["compute"]["nodes"]
    assert float(row["it_mw"]) == pytest.approx(design["power"]["it_total_w"] / 1e6, abs=5e-4)
    assert int(row["racks"]) == design["racks"]["total_racks"]
    switches = sum(b["quantity"] for b in design["bom"] if b["category"] == "switch")
    assert int(row["switches"]) == switches  # every fabric's switches, as the BOM buys them
    assert row["verdict"].split()[0] in {"PASS", "WARN", "FAIL"}
    assert rows["cli-design-0-gpus.json"]["verdict"] == "exit 2: request_error"
    assert rows["cli-design-0-gpus.json"]["gpus"] == ""  # nothing fits: blank, never 0


@pytest.mark.parametrize("name", ["design-512-gpus-training-5-mw"])
def test_a_frozen_file_is_what_the_cli_prints(name: str) -> None:
    argv = dict(freeze.invocations())[name]
    assert (FROZEN / f"cli-{name}.json").read_text() == freeze.run_cli(argv)


def test_any_byte_that_differs_is_reported(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text('{"gpus": 512}\n', encoding="utf-8")
    (tmp_path / "b.json").write_text('{"gpus": 512}\n', encoding="utf-8")
    (tmp_path / "gone.json").write_text("{}\n", encoding="utf-8")
    (tmp_path / "INDEX.tsv").write_text("file\n", encoding="utf-8")
    files = [
        ("a.json", '{"gpus": 512}\n'),
        ("b.json", '{"gpus": 513}\n'),
        ("new.json", "{}\n"),
        ("INDEX.tsv", "file\r\n"),  # a line ending is a byte too
    ]
    assert freeze.compare(files, tmp_path) == ["b.json", "new.json", "INDEX.tsv", "gone.json"]


def test_hashes_and_catalog_prose_are_masked_and_figures_are_not() -> None:
    catalog = load_catalog()
    dgx = catalog.get("systems", System, "dgx-h100")
    digest = "ab" * 32
    frozen = freeze._normalised(
        {
            "provenance": {"catalog_hash": catalog.hash, "inputs_sha256": digest},
            "memo": f"_Prepared with clustergen 0.1.0, catalog {catalog.hash}, inputs {digest}._",
            "bom": [{"source": dgx.source, "as_of": dgx.as_of, "notes": dgx.notes}],
            "basis": f"3 per rack ({dgx.source})",
            "node_w": dgx.max_power_w,
            "name": dgx.name,
            "catalog_hash": None,
            "as_of": "2020-01",  # not a catalog date: a figure, kept
        }
    )
    assert frozen == {
        "provenance": {"catalog_hash": "<catalog-hash>", "inputs_sha256": "<inputs-sha256>"},
        "memo": "_Prepared with clustergen 0.1.0, catalog <catalog-hash>, inputs <inputs-sha256>._",
        "bom": [{"source": "<catalog text>", "as_of": "<catalog date>", "notes": "<catalog text>"}],
        "basis": "3 per rack (<catalog text>)",
        "node_w": dgx.max_power_w,
        "name": dgx.name,
        "catalog_hash": None,  # a missing hash stays visible
        "as_of": "2020-01",
    }


def test_no_frozen_file_holds_a_hash() -> None:
    catalog_hash = load_catalog().hash
    for path in FROZEN.glob("*.json"):
        text = path.read_text(encoding="utf-8")
        assert catalog_hash not in text, path.name
        assert freeze._SHA256.search(text) is None, path.name


# Runs in a child process: the built-in catalog is swapped for a copy whose every source, note and
# date is rewritten, so no cache of this process sees it.
_EDIT_PROSE = """
import copy, datetime, sys
from pathlib import Path
import yaml
import clustergen.catalog.loader as loader

src, dst = loader.builtin_catalog_dir(), Path(sys.argv[1])

def edited(value, key=""):
    if isinstance(value, dict):
        return {k: edited(v, "source" if key == "field_sources" else k) for k, v in value.items()}
    if isinstance(value, list):
        return [edited(v, key) for v in value]
    if key in ("source", "notes", "price_source") and isinstance(value, str):
        return value + " (reworded, second printing)"
    if key == "as_of":
        return "2031-02-03"
    return value

for path in src.glob("*.yaml"):
    rows = yaml.safe_load(path.read_text(encoding="utf-8"))
    (dst / path.name).write_text(yaml.safe_dump(edited(rows), sort_keys=False), encoding="utf-8")
loader.builtin_catalog_dir = lambda: dst
sys.path.insert(0, str(Path(sys.argv[2]).parent))
import freeze_outputs as freeze
names = sys.argv[3:]
argv = dict(freeze.invocations())
for name in names:
    frozen = (freeze.FROZEN / f"cli-{name}.json").read_text(encoding="utf-8")
    print(name, "same" if freeze.run_cli(argv[name]) == frozen else "DIFFERS")
"""


def test_rewording_every_catalog_source_note_and_date_changes_no_frozen_file(
    tmp_path: Path,
) -> None:
    names = [
        "design-512-gpus-training-5-mw",
        "design-512-gpus-platform-dgx-h100",
        "design-2048-a100-gpus-training",
        "catalog-show-systems-dgx-h100",
        "power-platform-dgx-b200-cap-mw-5-whole-su",
    ]
    script = ROOT / "scripts" / "freeze_outputs.py"
    env = {**os.environ, "CLUSTERGEN_NO_CACHE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", _EDIT_PROSE, str(tmp_path), str(script), *names],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == [w for n in names for w in (n, "same")]
