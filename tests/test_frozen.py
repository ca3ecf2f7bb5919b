"""Frozen outputs: every eval case, README and CLI example gives the same figures, and the canonical
designs the same JSON, byte for byte.

A refactor must not change a number. A change that alters an output on purpose regenerates
tests/frozen/ with `uv run python scripts/freeze_outputs.py`, so its diff shows what moved: first
in tests/frozen/INDEX.tsv (the figures a reviewer reads), then in the `.figures.tsv` files (every
number and enum-like word, one per line), then in the canonical designs' JSON. Nulls and prose are
not figures, so a new field that is null everywhere or a new section rewrites only the canonical
JSON; what says nothing about a design (the catalog and inputs hashes, the catalog's provenance
prose) is masked, so a catalog edit of a source or a date rewrites no file.
"""

from __future__ import annotations

import csv
import difflib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from clustergen.catalog import load_catalog
from clustergen.catalog.models import System
from clustergen.engine.model.design import Design
from support.frozen import FROZEN, ROOT, freeze

FIGURES = freeze.FIGURES


def _diff(name: str, text: str, frozen: Path = FROZEN, limit: int = 40) -> str:
    """What changed in one frozen file, as a unified diff of at most `limit` lines."""
    path = frozen / name
    old = path.read_text(encoding="utf-8").splitlines() if path.is_file() else []
    lines = list(difflib.unified_diff(old, text.splitlines(), name, name, n=0, lineterm=""))
    more = [f"... {len(lines) - limit} more lines"] if len(lines) > limit else []
    return "\n".join([*lines[:limit], *more])


def test_every_output_is_frozen_and_unchanged() -> None:
    files = list(freeze.outputs())
    changed = freeze.compare(files, FROZEN)
    texts = dict(files)
    # the figures first: they say what moved; a canonical JSON's diff then says where
    first = sorted(changed, key=lambda n: (not n.endswith(FIGURES), n))[:4]
    shown = "\n\n".join(_diff(n, texts.get(n, "")) for n in first)
    assert not changed, (
        f"{len(changed)} frozen file(s) differ from tests/frozen/: {changed[:8]}; if the change "
        "is intended, run `uv run python scripts/freeze_outputs.py` and review the diff "
        f"(tests/frozen/INDEX.tsv first)\n\n{shown}"
    )


def test_the_frozen_set_covers_cases_and_commands() -> None:
    names = [p.name for p in FROZEN.glob(f"*{FIGURES}")]
    assert sum(n.startswith("case-") for n in names) >= 50
    assert sum(n.startswith("cli-design-") for n in names) >= 30
    assert any(n.startswith("cli-fabric-") for n in names)
    assert any(n.startswith("cli-power-") for n in names)


def test_every_gpu_system_in_the_catalog_has_a_frozen_design() -> None:
    systems = [s for s in load_catalog().all("systems", System) if s.gpu]
    assert len(systems) >= 15
    rows = _index()
    for s in systems:
        stem = f"cli-design-512-gpus-platform-{s.id}"
        assert (FROZEN / f"{stem}.json").is_file(), stem  # canonical: its full JSON is kept
        assert rows[stem + FIGURES]["platform"] == s.id  # the design is of the platform asked for


def test_only_the_canonical_designs_keep_their_json() -> None:
    """One design per GPU system and the README's first example: the shape and the prose are
    reviewed there; every other output keeps its figures only."""
    kept = {p.stem for p in FROZEN.glob("*.json")}
    assert kept == freeze.canonical()
    assert 15 <= len(kept) <= 25
    assert all((FROZEN / f"{stem}{FIGURES}").is_file() for stem in kept)


def _index() -> dict[str, dict[str, str]]:
    with (FROZEN / "INDEX.tsv").open(encoding="utf-8", newline="") as f:
        return {r["file"]: r for r in csv.DictReader(f, delimiter="\t")}


def test_the_index_lists_every_frozen_file_with_the_design_figures() -> None:
    rows = _index()
    assert sorted(rows) == sorted(p.name for p in FROZEN.glob(f"*{FIGURES}"))
    text = (FROZEN / "INDEX.tsv").read_text(encoding="utf-8").splitlines()
    assert text[0].split("\t") == freeze.INDEX_COLUMNS
    assert text[1:] == sorted(text[1:])
    row = rows["cli-design-512-gpus-training-5-mw" + FIGURES]
    design = json.loads((FROZEN / "cli-design-512-gpus-training-5-mw.json").read_text())["output"]
    assert row["platform"] == design["platform"]["system"]
    assert int(row["gpus"]) == design["compute"]["gpus"] == 512
    assert int(row["nodes"]) == design["compute"]["nodes"]
    assert float(row["it_mw"]) == pytest.approx(design["power"]["it_total_w"] / 1e6, abs=5e-4)
    assert int(row["racks"]) == design["racks"]["total_racks"]
    switches = sum(b["quantity"] for b in design["bom"] if b["category"] == "switch")
    assert int(row["switches"]) == switches  # every fabric's switches, as the BOM buys them
    assert row["verdict"].split()[0] in {"PASS", "WARN", "FAIL"}
    assert rows["cli-design-0-gpus" + FIGURES]["verdict"] == "exit 2: request_error"
    assert rows["cli-design-0-gpus" + FIGURES]["gpus"] == ""  # nothing fits: blank, never 0


@pytest.mark.parametrize("name", ["design-512-gpus-training-5-mw", "design-8-gpus"])
def test_a_frozen_file_is_what_the_cli_prints(name: str) -> None:
    argv = dict(freeze.invocations())[name]
    for file, text in freeze.files_for(f"cli-{name}", freeze.run_cli(argv)):
        assert (FROZEN / file).read_text(encoding="utf-8") == text, file


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
    for path in [*FROZEN.glob("*.json"), *FROZEN.glob(f"*{FIGURES}")]:
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
    files = freeze.files_for(f"cli-{name}", freeze.run_cli(argv[name]))
    same = all((freeze.FROZEN / f).read_text(encoding="utf-8") == text for f, text in files)
    print(name, "same" if same else "DIFFERS")
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


# What the figures hold, and what moves them. A frozen design's text, edited as a later commit
# would edit the output, is turned into its frozen files as the script does.
_README = "cli-design-512-gpus-training-5-mw"
_OTHER = "cli-design-8-gpus"


def _edited(stem: str, edit: Any) -> tuple[dict[str, str], dict[str, str]]:
    """The frozen files of a canonical design's text as a non-canonical and as a canonical output,
    before and after `edit` (a function of the JSON data)."""
    text = (FROZEN / f"{_README}.json").read_text(encoding="utf-8")
    data = json.loads(text)
    edit(data["output"])
    after = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    return dict(freeze.files_for(stem, text)), dict(freeze.files_for(stem, after))


def test_a_number_that_moves_is_one_changed_figure_line() -> None:
    def more_power(d: dict[str, Any]) -> None:
        d["power"]["it_total_w"] += 1

    before, after = _edited(_OTHER, more_power)
    old, new = before[_OTHER + FIGURES], after[_OTHER + FIGURES]
    diff = difflib.unified_diff(old.splitlines(), new.splitlines(), n=0, lineterm="")
    changed = [ln for ln in diff if ln[:1] in "+-" and ln[:3] not in {"---", "+++"}]
    watts = json.loads(old.split("output.power.it_total_w\t")[1].split()[0])
    assert changed == [
        f"-output.power.it_total_w\t{json.dumps(watts)}",
        f"+output.power.it_total_w\t{json.dumps(watts + 1)}",
    ]


def test_a_new_null_request_field_rewrites_no_figure_file() -> None:
    def new_field(d: dict[str, Any]) -> None:
        d["request"]["new_field_mw"] = None

    for stem in (_OTHER, _README):
        before, after = _edited(stem, new_field)
        assert before[stem + FIGURES] == after[stem + FIGURES]


def test_a_new_section_rewrites_only_the_canonical_json() -> None:
    """A section that is null, empty or prose in a design adds no figure; the canonical JSON
    shows the new shape. (A section with numbers adds its figure lines: they are new figures.)"""

    def new_sections(d: dict[str, Any]) -> None:
        d["new_section"] = None
        d["compute"]["new_part"] = {"note": "said in words", "unknown_w": None, "items": []}

    before, after = _edited(_OTHER, new_sections)
    assert before == after  # a non-canonical output keeps its figures only
    before, after = _edited(_README, new_sections)
    assert before[_README + FIGURES] == after[_README + FIGURES]
    assert before[_README + ".json"] != after[_README + ".json"]


def test_figures_are_numbers_yes_no_and_words_never_prose_nulls_or_masks() -> None:
    frozen = {
        "exit": 0,
        "output": {
            "gpus": 512,
            "pue": 1.3,
            "passed": False,
            "switch": "qm9700",
            "network": "in-band management",  # an enum value of the Design schema
            "detail": "4 spines, 8 leaves",
            "unknown": None,
            "as_of": "<catalog date>",
            "provenance": {"engine_version": "0.1.0"},
            "not_understood": ["hello", "there"],
        },
    }
    assert freeze.figures_text(json.dumps(frozen)).splitlines() == [
        "exit\t0",
        "output.gpus\t512",
        "output.pue\t1.3",
        "output.passed\tfalse",
        'output.switch\t"qm9700"',
        'output.network\t"in-band management"',
        'output.not_understood[0]\t"hello"',
        'output.not_understood[1]\t"there"',
    ]


def test_a_refusal_or_crash_keeps_its_words() -> None:
    refused = {
        "result": None,
        "error": {"type": "infeasible", "message": "5000 leaves", "hint": "x y"},
    }
    assert freeze.figures_text(json.dumps(refused)).splitlines() == [
        'error.type\t"infeasible"',
        'error.message\t"5000 leaves"',
        'error.hint\t"x y"',
    ]
    crashed = {"exit": None, "crash": "KeyError: 'gpus'"}
    assert freeze.figures_text(json.dumps(crashed)) == "crash\t\"KeyError: 'gpus'\"\n"


def test_figures_read_back_as_the_design_they_came_from() -> None:
    text = (FROZEN / f"{_README}.json").read_text(encoding="utf-8")
    figures = freeze.figures_text(text)
    back = freeze.read_figures(figures)
    assert freeze.figures_text(json.dumps(back)) == figures
    design = Design.model_validate(json.loads(text)["output"])
    assert back["output"]["compute"]["gpus"] == design.compute.gpus
    assert back["output"]["power"]["it_total_w"] == design.power.it_total_w
    assert isinstance(back["output"]["alternatives"]["rows"], list)


def test_a_changed_figure_shows_in_the_failure_message(tmp_path: Path) -> None:
    (tmp_path / "a.figures.tsv").write_text("output.gpus\t512\noutput.nodes\t64\n", "utf-8")
    shown = _diff("a.figures.tsv", "output.gpus\t512\noutput.nodes\t65\n", tmp_path)
    assert "-output.nodes\t64" in shown
    assert "+output.nodes\t65" in shown
    assert "output.gpus" not in shown
