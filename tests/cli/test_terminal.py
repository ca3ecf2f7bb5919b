"""The terminal as a person reads it at 80 columns: the verdict first, no empty header rows, no
line past the edge, no word broken; whole catalog ids; -h; request-file errors that say where."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

import clustergen.cli.output as output

Cli = Callable[..., tuple[int, str, str]]
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "request.yaml"


@pytest.fixture
def cli80(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> Cli:
    """The CLI on a fresh 80-column console."""
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(output.stdout, "_console", None)
    monkeypatch.setattr(output.stderr, "_console", None)
    return cli


def test_design_summary_reads_at_80_columns(cli80: Cli) -> None:
    code, out, _ = cli80("design", "512 GPUs training, 5 MW", "--offline")
    assert code == 0
    lines = out.splitlines()
    assert re.match(r"(PASS|WARN|FAIL)  512 NVIDIA \S.* GPUs on 64 ", lines[0])
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    # no header row of empty cells (the key/value tables have none)
    assert not [ln for ln in lines if set(ln.strip()) <= {"┃", " "} and "┃" in ln]
    assert any(re.match(r"why: \S+ on \S+ \(1:1\) was chosen", ln) for ln in lines)
    assert "non-blocki…" not in out
    # words are wrapped whole: the platform's reason appears unbroken, whatever wins
    _, js, _ = cli80("design", "512 GPUs training, 5 MW", "--offline", "--json")
    reason = json.loads(js)["platform"]["reason"]
    assert reason.split("; follows ")[-1] in " ".join(out.split())


@pytest.mark.parametrize(
    "args",
    [
        ("512 GPUs training, 5 MW",),  # the README's: an Enterprise RA fabric, no SUs
        ("1024 GPUs training", "--platform", "dgx-h100"),  # SuperPOD SUs, two tiers
        ("16384 GPUs training", "--platform", "dgx-h100"),  # three tiers
    ],
)
def test_design_table_names_only_the_tiers_a_fabric_has(cli80: Cli, args: tuple[str, ...]) -> None:
    code, out, _ = cli80("design", *args, "--offline")
    _, js, _ = cli80("design", *args, "--offline", "--json")
    assert code == 0
    f = json.loads(js)["fabrics"]["compute"]
    lines = out.splitlines()
    at = next(i for i, ln in enumerate(lines) if "compute links" in ln)
    # the row and the lines it wraps onto (their label cell blank)
    more = lines[at + 1 :]
    wrapped = next((i for i, ln in enumerate(more) if not ln.startswith(" " * 10)), len(more))
    row = " ".join([lines[at], *more[:wrapped]])
    assert f"{f['node_links']:,} node" in row
    assert ("spine-core" in row) == (f["tiers"] == 3)
    assert " 0 core" not in out
    assert " 0 spine" not in out
    c = json.loads(js)["compute"]
    units = f"{c['scalable_units']} SU" if c["su_nodes"] else "/ -"
    assert units in next(ln for ln in out.splitlines() if "nodes / GPUs / SUs" in ln)


def test_sensitivity_reads_at_80_columns(cli80: Cli) -> None:
    code, out, _ = cli80("sensitivity", "5 MW training")
    assert code == 0
    assert all(len(line) <= 80 for line in out.splitlines())
    assert "GPUs lost at 5 MW as GPU power rises" in out
    assert "best option as optics power scales" in out


def test_sensitivity_json(cli: Cli) -> None:
    code, out, _ = cli("sensitivity", "2 MW", "--platform", "dgx-h100", "--json")
    assert code == 0
    data = json.loads(out)
    assert {o["option"] for o in data["options"]} >= {"dgx-h100 IB 1:1", "dgx-h100 Ethernet 1:1"}
    assert data["cap_w"] == 2e6


def test_catalog_list_shows_whole_ids(cli80: Cli) -> None:
    code, out, _ = cli80("catalog", "list", "storage_models")
    assert code == 0
    assert "layout-one-file-per-sample" in out
    assert "workers-default" in out


def test_short_help_flag(cli: Cli) -> None:
    code, out, _ = cli("design", "-h")
    assert code == 0
    assert "Usage: clustergen design" in out


def test_request_file_unknown_key_says_where_and_suggests(cli: Cli, tmp_path: Path) -> None:
    f = tmp_path / "r.yaml"
    f.write_text("text: 512 GPUs\npowr_cap_w: 5000000\n")
    code, _, err = cli("design", "--request", str(f))
    assert code != 0
    assert "unknown field 'powr_cap_w' at line 2, column 1; did you mean 'power_cap_w'?" in err


def test_request_file_yaml_error_says_line_and_column(cli: Cli, tmp_path: Path) -> None:
    f = tmp_path / "r.yaml"
    f.write_text("text: 512 GPUs\ngpus: [1,\n")
    code, _, err = cli("design", "--request", str(f))
    assert code != 0
    assert "malformed YAML" in err
    assert "at line 3, column 1" in err


def test_the_example_request_file_designs(cli: Cli) -> None:
    code, out, err = cli("design", "--request", str(EXAMPLE), "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["request"]["fabric"] == "infiniband"
    assert d["compute"]["gpus"] == 512


def test_schema_request_lists_the_file_fields(cli: Cli) -> None:
    code, out, _ = cli("schema", "request", "--json")
    assert code == 0
    schema = json.loads(out)
    assert {"text", "gpus", "power_cap_w", "workload"} <= set(schema["properties"])
    assert schema["additionalProperties"] is False
    assert "understood" not in schema["properties"]


@pytest.mark.parametrize(
    ("request_text", "cooled"), [("GB300 NVL72 2 SU", True), ("DGX H100 4 SU", False)]
)
def test_liquid_racks_show_their_cdus_in_the_design_table(
    cli80: Cli, request_text: str, cooled: bool
) -> None:
    code, out, _ = cli80("design", request_text, "--offline")
    assert code == 0
    rows = [ln for ln in out.splitlines() if ln.startswith(" cooling ")]
    assert bool(rows) == cooled
    if cooled:
        assert re.search(r"\d+ CDUs? \(", rows[0])


class _Tty:
    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_an_error_breaks_between_words_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """'Fine-tune Llama 3.1 405B with LoRA in under a week' printed its error as one line that
    an 80-column terminal broke mid-word ('the request gives no to' / 'ken count')."""
    import os

    line = (
        "Error: fine-tuning llama-3.1-405b in 7 days has no size: the request gives no token "
        "count; add the tokens, e.g. 'on 15T tokens', or a GPU count"
    )
    monkeypatch.setattr("shutil.get_terminal_size", lambda *_: os.terminal_size((80, 24)))
    wrapped = output.at_words(line, _Tty(True))  # type: ignore[arg-type]
    assert all(len(part) <= 80 for part in wrapped.splitlines())
    assert wrapped.replace("\n", " ") == line
    for a, b in zip(wrapped.splitlines(), wrapped.splitlines()[1:], strict=False):
        assert f"{a.split()[-1]} {b.split()[0]}" in line  # every break falls between words
    # piped: one line, as a script reads it
    assert output.at_words(line, _Tty(False)) == line  # type: ignore[arg-type]
