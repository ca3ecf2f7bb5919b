"""Untrusted text never executes, end to end: a hostile catalog layer (`--catalog DIR`), a hostile
fleet inventory and a model that answers `gpu spec --llm` with markup and escape sequences. The
terminal shows each as text (no rich crash, no planted link, no escape byte); the bundle holds no
formula, Mermaid statement or HTML; `catalog validate` refuses what no catalog should hold and
says where."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import httpx
import pytest
import respx

from clustergen.cli.app import main
from support.nim_wire import BASE, CHAT, KEY, completion

Cli = Callable[..., tuple[int, str, str]]
REQ = "512 GPUs training, 5 MW on HGX B200"  # the layer poisons hgx-b200: build on it

# Text a catalog may hold (no control character, no formula at the start of a name or part
# number) that is still hostile to some viewer: rich markup, HTML, Markdown, Mermaid, and
# formulas in free text (sources, notes), which reach the BOM's source column.
NAME = (
    "HGX [link=https://evil.example]B200[/] [/] <script>alert(1)</script> "
    "[m](javascript:alert(1)) ![i](https://evil.example/i.png) "
    'x"] --> y; click X "javascript:alert(1)" %%{init: {"securityLevel": "loose"}}%% *b* `c` | d'
)
VALID_LAYER = {
    "systems.yaml": f"""\
- id: hgx-b200
  name: '{NAME.replace("'", "''")}'
  source: '=HYPERLINK("https://evil.example","click me")'
""",
    "switches.yaml": """\
- id: sn5610
  source: "=cmd|' /C calc'!A0"
  notes: "@SUM(1+1)*cmd|' /C calc'!A0 <b>bold</b>"
""",
}
# What `catalog validate` must refuse: (file, entry, field) -> YAML of the entry's field.
INVALID = {
    ("systems.yaml", "hgx-b200", "name"): 'name: "=HYPERLINK(\\"https://evil.example\\",\\"x\\")"',
    ("systems.yaml", "dgx-h100", "opn"): "opn: \"=cmd|' /C calc'!A0\"",
    ("systems.yaml", "dgx-b200", "aliases.0"): 'aliases: ["@SUM(1+1)"]',
    ("switches.yaml", "sn5610", "name"): 'name: "  -2+3+cmd|x"',
    ("switches.yaml", "qm9700", "name"): 'name: "QM9700 \\e[31mred"',
    ("switches.yaml", "sn2201", "notes"): 'notes: "a \\e]8;;https://evil.example\\aclick"',
    ("gpus.yaml", "h100-sxm", "name"): 'name: "H100\\nclick X \\"javascript:alert(1)\\""',
    ("gpus.yaml", "b200", "source"): 'source: "NVIDIA datasheet\\x00"',
}
TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def _layer(root: Path, files: dict[str, str]) -> Path:
    root.mkdir()
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def _invalid_layer(root: Path) -> Path:
    files: dict[str, dict[str, list[str]]] = {}
    for (file, entry, _), line in INVALID.items():
        files.setdefault(file, {}).setdefault(entry, []).append(line)
    return _layer(
        root,
        {
            file: "".join(
                f"- id: {entry}\n" + "".join(f"  {ln}\n" for ln in lines)
                for entry, lines in entries.items()
            )
            for file, entries in files.items()
        },
    )


def _no_escape(*texts: str) -> None:
    for text in texts:
        assert "\x1b" not in text
        assert "\x9b" not in text
        assert "\x07" not in text


# ---------------------------------------------------------------- catalog validate


def test_catalog_validate_refuses_formulas_and_control_characters_saying_where(
    cli: Cli, tmp_path: Path
) -> None:
    layer = _invalid_layer(tmp_path / "hostile")
    code, out, err = cli("catalog", "validate", "--catalog", str(layer))
    assert code != 0
    _no_escape(out, err)
    for file, entry, field in INVALID:
        assert re.search(rf"{re.escape(file)}: entry '{entry}', field '{field}'", err), (
            file,
            entry,
            field,
            err,
        )
    code, out, _ = cli("catalog", "validate", "--catalog", str(layer), "--json")
    assert code != 0
    found = {(p["file"], p["entry"], p["field"]) for p in json.loads(out)["problems"]}
    assert set(INVALID) <= found


def test_a_refused_layer_stops_every_command_with_one_line(cli: Cli, tmp_path: Path) -> None:
    layer = _invalid_layer(tmp_path / "hostile")
    code, out, err = cli("design", REQ, "--offline", "--catalog", str(layer))
    assert code != 0
    assert err.startswith("Error: catalog has")
    assert "Traceback" not in err
    _no_escape(out, err)


def test_catalog_validate_accepts_hostile_free_text(cli: Cli, tmp_path: Path) -> None:
    """Markup and formulas in descriptions and sources are text the sinks neutralise; only
    names and part numbers (what a buyer pastes) are held to the stricter rule."""
    layer = _layer(tmp_path / "valid", VALID_LAYER)
    code, out, err = cli("catalog", "validate", "--catalog", str(layer))
    assert code == 0, err
    assert out.startswith("catalog OK")


# ---------------------------------------------------------------- a design from a hostile layer


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str, str, Path]:
    root = tmp_path_factory.mktemp("hostile-design")
    layer = _layer(root / "layer", VALID_LAYER)
    out_dir = root / "out"
    stdout, stderr = io.StringIO(), io.StringIO()
    code = 0
    with redirect_stdout(stdout), redirect_stderr(stderr):
        try:
            main(["design", REQ, "--offline", "--catalog", str(layer), "--out", str(out_dir)])
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, stdout.getvalue(), stderr.getvalue(), out_dir


def test_terminal_shows_hostile_names_as_text(hostile_run: tuple[int, str, str, Path]) -> None:
    code, out, err, _ = hostile_run
    assert code == 0, err
    _no_escape(out, err)
    flat = " ".join(out.split())
    assert "[link=https://evil.example]B200[/] [/]" in flat  # shown, not applied


def test_bundle_from_a_hostile_layer_executes_nothing(
    hostile_run: tuple[int, str, str, Path],
) -> None:
    from markdown_it import MarkdownIt
    from openpyxl import load_workbook

    code, _, err, out_dir = hostile_run
    assert code == 0, err
    wb = load_workbook(out_dir / "bom.xlsx")
    cells = [c for ws in wb.worksheets for row in ws.iter_rows() for c in row]
    # the workbook's own arithmetic (line totals, roll-ups) is the only formula: no catalog text
    # becomes one, and no formula calls out (HYPERLINK, DDE, WEBSERVICE)
    formulas = [str(c.value) for c in cells if c.data_type == "f"]
    called = {f for text in formulas for f in re.findall(r"[A-Z][A-Z0-9.]*(?=\()", text)}
    assert called <= {"SUM", "SUMIFS", "SUMPRODUCT", "SUBTOTAL", "IF", "ISNUMBER", "COUNT", "OR"}
    assert not [f for f in formulas if re.search(r"(?i)hyperlink|cmd|\||http|evil", f)]
    assert any(isinstance(c.value, str) and "HYPERLINK" in c.value for c in cells)
    rows = list(csv.reader(io.StringIO((out_dir / "bom.csv").read_text(encoding="utf-8"))))
    fields = [f for row in rows for f in row]
    assert any("HYPERLINK" in f for f in fields)
    assert not [f for f in fields if f.lstrip().startswith(TRIGGERS)]
    mmd = (out_dir / "topology.mmd").read_text(encoding="utf-8")
    assert not re.search(r"(?m)^\s*(click|%%)", mmd)
    assert "%%{" not in mmd
    memo = (out_dir / "memo.md").read_text(encoding="utf-8")
    html = MarkdownIt("commonmark", {"html": True}).enable("table").render(memo)
    assert "<script" not in html
    assert "<a " not in html
    assert 'href="javascript' not in html
    assert set(re.findall(r'<img src="([^"]*)"', html)) <= {
        "power.png",
        "racks.png",
        "topology.png",
        "topology-page.png",
    }
    _no_escape(memo, mmd)


# ---------------------------------------------------------------- a hostile fleet inventory

INVENTORY = """\
name: "fleet [link=https://evil.example]x[/] \\e[31mred\\e]8;;http://e\\a <script>"
providers:
  "vast[/]": {ephemeral: true}
nodes:
  - {name: "n1 [link=https://x]click[/] \\e[2J\\e]0;title\\a", provider: "vast[/]",
     gpu: "H100 [bold]x[/]", gpus: 8, memory_gb: 80}
  - {name: "[/]", provider: "vast[/]", gpu: "RTX [/]4090 \\e[31m", gpus: 2, memory_gb: 24}
"""


@pytest.mark.parametrize("plot", [False, True])
def test_fleet_inventory_names_are_shown_as_text(cli: Cli, tmp_path: Path, plot: bool) -> None:
    inventory = tmp_path / "inventory.yaml"
    inventory.write_text(INVENTORY, encoding="utf-8")
    extra = ["--plot", str(tmp_path / "fleet.png")] if plot else []
    code, out, err = cli("fleet", "plan", "--inventory", str(inventory), *extra)
    assert code == 0, err
    _no_escape(out, err)
    flat = " ".join(out.split())
    assert "[link=https://evil.example]x[/]" in flat
    assert "n1 [link=https://x]click[/]" in flat
    code, out, _ = cli("fleet", "plan", "--inventory", str(inventory), "--json")
    assert code == 0
    assert json.loads(out)["inventory"].startswith("fleet [link=")  # JSON keeps the data


# ---------------------------------------------------------------- a model's GPU name


@pytest.fixture
def keyed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NVIDIA_API_KEY", KEY)
    monkeypatch.setenv("CLUSTERGEN_BASE_URL", BASE)
    monkeypatch.setenv("CLUSTERGEN_MAX_ATTEMPTS", "1")


@pytest.mark.usefixtures("keyed")
def test_gpu_spec_from_a_model_shows_its_markup_as_text(cli: Cli) -> None:
    answer = {
        "name": "X9 [/] [link=https://evil.example]click[/link] \x1b]8;;https://e\x07x\x1b[31m",
        "vendor": "[bold red]Evil[/] <script>",
        "memory_gb": 96,
        "tdp_w": 700,
    }
    reply = completion({"role": "assistant", "content": json.dumps(answer)}, finish="stop")
    with respx.mock(assert_all_mocked=True) as r:
        r.post(CHAT).mock(return_value=httpx.Response(200, json=reply))
        code, out, err = cli("gpu", "spec", "--gpu", "Example X9", "--llm")
    assert code == 0, err
    _no_escape(out, err)
    flat = " ".join(out.split())
    assert "[link=https://evil.example]click[/link]" in flat
    assert "[bold red]Evil[/]" in flat


# ---------------------------------------------------------------- every string of a design


@pytest.mark.parametrize(
    "payload",
    [
        "[/] [link=https://evil.example]x[/link] [bold]",
        "\x1b]8;;https://evil.example\x07x\x1b]8;;\x07 \x1b[31m\x1b[2J\x9b1m\x00\r",
        ":warning: \\[/] \\",
    ],
)
def test_design_view_shows_every_hostile_string_as_text(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, payload: str
) -> None:
    """The terminal view of a design whose every string (names, reasons, checks, warnings, the
    model's memo) carries the payload: no crash, no escape byte, markup shown as written."""
    import clustergen.cli.output as output
    from clustergen.catalog import load_catalog
    from clustergen.cli.design_view import summary
    from clustergen.engine.request import merge_request
    from clustergen.engine.search.planner import plan_design
    from clustergen.safe_text import map_text

    monkeypatch.setattr(output.stdout, "_console", None)
    monkeypatch.setattr(output.stderr, "_console", None)
    cat = load_catalog()
    design = plan_design(cat, merge_request(cat, REQ, {})).model_copy(update={"memo": "notes"})
    summary(map_text(design, lambda s: f"{s} {payload}"))
    out, err = capsys.readouterr()
    _no_escape(out, err)
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", out + err)
    if payload.startswith("[/]"):
        assert "[link=https://evil.example]x[/link]" in " ".join(out.split())
