"""Freeze clustergen's outputs so a refactor can prove it changed no number.

Every eval case (golden and adversarial) through the offline runner, and every README and CLI
example through `clustergen ... --json`, is frozen in tests/frozen/ as its figures: every number,
yes/no and enum-like word of the output (an id, a verdict, a category: a string without spaces, or
one of the Design schema's enum values) as `path<TAB>value`, one line each, in the output's order
(`<name>.figures.tsv`). Free prose (a memo, a check's detail, a message) and nulls are not figures,
so a new field that is null everywhere, or a new section, rewrites no figure file, and a number
that moves shows as one changed line. The full JSON is kept only for the canonical designs (every
GPU system's own 512-GPU design and the README's first example, `canonical()`): they carry the
shape and the prose for review. `tests/test_frozen.py` recomputes every file and fails on any byte
that differs. A commit that changes an output on purpose regenerates the files with this script,
so the change shows up in its diff for review:

    uv run python scripts/freeze_outputs.py          # rewrite tests/frozen/
    uv run python scripts/freeze_outputs.py --check  # what the test does: list the differences

The files guard figures, not provenance. What changes with every catalog edit and says nothing about
a design is masked: the catalog hash and the inputs digest (they keep their own tests,
tests/cli/test_catalog_hash.py), and the catalog's provenance prose (`source`, `notes`, `as_of`,
`price_source`, `field_sources`), wherever a catalog text appears whole or embedded in a longer
string. A placeholder keeps the place in the JSON, so a figure that loses its source still shows;
a masked value is never a figure. INDEX.tsv beside the files lists the figures a reviewer reads
first, one line per frozen output.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FROZEN = ROOT / "tests" / "frozen"
EXAMPLES = ROOT / "examples"

_DESIGNS = [
    # README and help-text examples
    "512 GPUs training, 5 MW",
    "256 GPUs, 3 MW",
    "how many B200 fit in 10 MW",
    # the issues' examples
    "512 GPUs training, 1 MW",
    "max GPUs under 0.5 MW",
    "8 GPUs",
    "50 MW GB300",
    "8192 B200 GPUs training",
    "32 DGX H100 training",
    # parser coverage: every rule kind
    "1024 H100 GPUs inference, ethernet, 2:1",
    "64 DGX B200 nodes, liquid cooled, best storage",
    "5 MW facility at PUE 1.3",
    "IT load 4.2 MW, good storage tier",
    "train a 70B model on 15T tokens, 2048 GPUs",
    "128 GPUs fine-tuning, 40 kW racks, air cooled",
    "4096 GPUs training, 100 MB shards, 70B, 20 MW",
    "512 H200 GPUs, one file per sample, 150 KB images",
    "2 MW IT, mixed workloads, good storage",
    "72 GB200 NVL72 racks, InfiniBand",
    "100000 GPUs training",
    "16 DGX B300 systems, Spectrum-X",
    "256 GPUs, object store, 400 GB checkpoint",
    "1k GPUs, 4:1 oversubscription, inference",
    "3 MW, non-blocking, 60 kW per rack",
    "10 MW facility power, pue 1.25, training",
    # refusals
    "",
    "0 GPUs",
    "pue 9, 512 GPUs",
    "hello there",
    "512 GPUs, infiniband and ethernet",
    "100000 GPUs in 5 MW",
    # workload requests (issue 14): sized per platform from the workload
    "train a 70B model on 15T tokens in 60 days",
    "serve Llama 3.1 405B at 20,000 output tokens/s with TTFT under 2 s",
    "fine-tune 8B models on a $2M budget at $2.50 per GPU-hour",
    "we have 2,048 A100s: how long for 65B on 1.4T tokens?",
    "serve Llama 5 900B at 1,000 tokens/s",
    # DGX A100: the A100 SuperPOD and the BasePOD-sized layout derived for it
    "2048 A100 GPUs training",
    "8 DGX A100",
]


_COMMANDS: list[list[str]] = [
    ["fabric", "--platform", "dgx-h100", "--nodes", "127"],
    ["fabric", "--platform", "dgx-h100", "--nodes", "512"],
    ["fabric", "--platform", "dgx-h100", "--nodes", "31"],
    ["fabric", "--platform", "dgx-b300", "--nodes", "576"],
    ["fabric", "--platform", "dgx-b300", "--nodes", "1152", "--technology", "ethernet"],
    ["fabric", "--platform", "GB200 NVL72", "--nodes", "16"],
    ["fabric", "--platform", "dgx-h100", "--nodes", "64", "--oversubscription", "2:1"],
    ["fabric", "--platform", "dgx-h100", "--nodes", "12500", "--planes", "2"],
    ["fabric", "--platform", "hgx-h100", "--nodes", "16"],
    ["fabric", "--platform", "dgx-a100", "--nodes", "140"],
    ["power", "--platform", "dgx-h100", "--cap-mw", "100"],
    ["power", "--platform", "dgx-b200", "--cap-mw", "5", "--whole-su"],
    ["power", "--platform", "gb300-nvl72", "--cap-mw", "11", "--whole-su"],
    ["power", "--platform", "dgx-h100", "--cap-mw", "6.5", "--facility", "--pue", "1.3"],
    ["storage", "targets", "--tier", "better", "--nodes", "64"],
    ["storage", "targets", "--tier", "best", "--nodes", "127"],
    [
        "storage",
        "analyze",
        "--gpus",
        "128",
        "--samples-per-s",
        "1000",
        "--sample-mb",
        "0.15",
        "--layout",
        "one-file-per-sample",
        "--pattern",
        "random-small",
        "--read-gb-per-s",
        "672",
    ],
    [
        "storage",
        "analyze",
        "--gpus",
        "4096",
        "--workers",
        "8",
        "--ingest-mb-per-s",
        "150",
        "--sample-mb",
        "0.1",
        "--layout",
        "one-file-per-sample",
        "--checkpoint-gb",
        "1000",
        "--checkpoint-interval-s",
        "1800",
        "--read-gb-per-s",
        "2000",
    ],
    ["fleet", "plan", "--inventory", str(EXAMPLES / "fleet-inventory.yaml")],
    # issue 17: an SU far larger than the nodes, and numbers past the physical range
    ["storage", "targets", "--tier", "good", "--su-nodes", "100000", "--nodes", "1000"],
    [
        "storage",
        "analyze",
        "--gpus",
        "64",
        "--samples-per-s",
        "10",
        "--sample-mb",
        "5e-324",
        "--layout",
        "one-file-per-sample",
        "--targets",
        "24",
    ],
    ["power", "--platform", "dgx-h100", "--cap-mw", "nan"],
    ["fabric", "--platform", "dgx-h100", "--nodes", "100", "--port-speed", "nan"],
    ["ra", "recommend", "--gpus", "128", "--workload", "training"],
    ["ra", "list"],
    ["catalog", "show", "systems", "dgx-h100"],
    ["design", "--request", str(EXAMPLES / "request.yaml"), "--offline"],
    ["sensitivity", "5 MW training", "--platform", "dgx-h100"],
    ["sensitivity", "3 MW inference", "--platform", "gb200-nvl72"],
    ["estimate", "train a 70B model on 15T tokens in 60 days"],
    ["estimate", "serve Llama 3.1 405B at 20,000 output tokens/s with TTFT under 2 s"],
    ["estimate", "fine-tune 8B models on a $2M budget at $2.50 per GPU-hour"],
    ["estimate", "we have 2,048 A100s: how long for 65B on 1.4T tokens?"],
    ["estimate", "--model", "Qwen3 235B-A22B", "--tokens-per-s", "50000", "--tpot-ms", "50"],
    ["estimate", "--model", "DeepSeek-V3", "--tokens", "14.8T", "--gpus", "2048", "--seq", "4096"],
    ["estimate", "fine-tune 8B models on a $2M budget"],
    ["estimate", "serve Llama 3.1 405B with TTFT under 1 ms"],
    ["estimate", "--model", "70B", "--tokens", "15", "--days", "60"],
]


def gpu_platforms() -> list[str]:
    """Every catalog system with GPUs, in id order: each gets a frozen design of its own, so a new
    system adds its file by itself."""
    from clustergen.catalog import load_catalog
    from clustergen.catalog.models import System

    return [s.id for s in load_catalog().all(System) if s.gpu]


def invocations() -> Iterator[tuple[str, list[str]]]:
    """(name, argv after `clustergen`) of every frozen CLI example."""
    for text in _DESIGNS:
        yield _slug("design " + (text or "empty")), ["design", text, "--offline", "--json"]
    for p in gpu_platforms():
        argv = ["design", "512 GPUs training", "--platform", p, "--offline", "--json"]
        yield _slug(f"design 512 GPUs --platform {p}"), argv
    for argv in _COMMANDS:
        yield _slug(" ".join(a if "/" not in a else Path(a).name for a in argv)), [*argv, "--json"]


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:80]


# What a frozen file shows in place of a masked value.
CATALOG_HASH = "<catalog-hash>"
INPUTS_SHA256 = "<inputs-sha256>"
_PROSE = "<catalog text>"
_PROSE_KEYS = {"source": _PROSE, "price_source": _PROSE, "notes": _PROSE, "as_of": "<catalog date>"}
# A catalog text this long is masked wherever it appears, whole or inside a longer string; a shorter
# one (a date) only as the whole value of a provenance key, so it cannot eat an unrelated word.
_EMBEDDED_MIN_CHARS = 20
_SHA256 = re.compile(r"\b[0-9a-f]{64}\b")


@functools.cache
def _catalog_masks() -> tuple[str, dict[str, str]]:
    """The built-in catalog's hash, and its provenance texts -> their placeholder, longest first."""
    from clustergen.catalog import load_catalog

    catalog = load_catalog()
    texts: dict[str, str] = {}
    for rows in catalog.entries.values():
        for entry in rows.values():
            _collect_prose(entry.model_dump(mode="json"), texts)
    return catalog.hash, dict(sorted(texts.items(), key=lambda kv: (-len(kv[0]), kv[0])))


def _collect_prose(data: Any, texts: dict[str, str], key: str = "") -> None:
    if isinstance(data, dict) and key == "field_sources":
        # field_sources maps a field name to its kind and its source or basis: both are prose
        for v in data.values():
            texts.update({t: _PROSE for t in (v.get("source"), v.get("basis")) if t})
    elif isinstance(data, dict):
        for k, v in data.items():
            _collect_prose(v, texts, k)
    elif isinstance(data, list):
        for v in data:
            _collect_prose(v, texts, key)
    elif isinstance(data, str) and key in _PROSE_KEYS:
        texts[data] = _PROSE_KEYS[key]


@functools.cache
def _masked_text(text: str) -> str:
    catalog_hash, prose = _catalog_masks()
    if len(text) >= _EMBEDDED_MIN_CHARS:
        for t, mask in prose.items():
            if len(t) < _EMBEDDED_MIN_CHARS:
                break
            if t in text:
                text = text.replace(t, mask)
    return _SHA256.sub(INPUTS_SHA256, text.replace(catalog_hash, CATALOG_HASH))


def _normalised(data: Any) -> Any:
    # The catalog's absolute path differs between clones, and a sweep's wall time between runs;
    # the hashes and the provenance prose change with every catalog edit (see the docstring).
    if isinstance(data, dict):
        return {k: _normalised_value(k, v) for k, v in data.items()}
    if isinstance(data, list):
        return [_normalised(v) for v in data]
    if isinstance(data, str):
        return _masked_text(data)
    return data


def _normalised_value(key: str, value: Any) -> Any:
    if key == "catalog_directories":
        return ["<catalog>"]
    if key == "seconds":
        return "<seconds>"
    if isinstance(value, str) and key == "catalog_hash":
        return CATALOG_HASH
    if isinstance(value, str) and key == "inputs_sha256":
        return INPUTS_SHA256
    if isinstance(value, str) and key in _PROSE_KEYS:
        return _catalog_masks()[1].get(value) or _masked_text(value)
    return _normalised(value)


def _dump(data: Any) -> str:
    return json.dumps(_normalised(data), indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def run_cli(argv: list[str]) -> str:
    """`clustergen ARGV` in process: its exit code and JSON output, as frozen text."""
    from clustergen.cli.app import main

    out = io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        try:
            main(argv)
        except SystemExit as exc:
            code = int(exc.code or 0)
        except Exception as exc:  # a crash is an output too: frozen so its fix shows in a diff
            return _dump({"exit": None, "crash": f"{type(exc).__name__}: {exc}"})
    return _dump({"exit": code, "output": json.loads(out.getvalue())})


def run_case(case: Any, runner: Any) -> str:
    """An eval case through the offline runner, as frozen text."""
    r = runner.run(case)
    return _dump({"result": r.result_json, "error": r.error})


def outputs() -> Iterator[tuple[str, str]]:
    """(file name, frozen text) of every frozen file: each output's figures, the canonical
    designs' JSON, then INDEX.tsv listing the outputs."""
    from clustergen.evals.cases import load_cases
    from clustergen.evals.modes import make_runner

    runner = make_runner("offline")
    rows: list[list[str]] = []
    for case in load_cases():
        text = run_case(case, runner)
        rows.append(index_row(f"case-{case.id}{FIGURES}", text))
        yield from files_for(f"case-{case.id}", text)
    for name, argv in invocations():
        text = run_cli(argv)
        rows.append(index_row(f"cli-{name}{FIGURES}", text))
        yield from files_for(f"cli-{name}", text)
    yield INDEX, index_text(rows)


def files_for(stem: str, text: str) -> list[tuple[str, str]]:
    """The frozen files of one output: its figures, and its JSON when it is canonical."""
    files = [(stem + FIGURES, figures_text(text))]
    if stem in canonical():
        files.append((stem + ".json", text))
    return files


@functools.cache
def canonical() -> frozenset[str]:
    """Outputs whose full JSON is frozen: one design per GPU system (a new system adds its own)
    and the README's first example. The rest keep their figures only."""
    stems = {f"cli-{_slug(f'design 512 GPUs --platform {p}')}" for p in gpu_platforms()}
    return frozenset({*stems, f"cli-{_slug('design 512 GPUs training, 5 MW')}"})


# The figures file of an output: `path<TAB>value` per leaf, the value as JSON.
FIGURES = ".figures.tsv"
# A string figure is a word: an id, a verdict, a category (prose has spaces) ...
_WORD = re.compile(r"\S{1,64}")
# ... and never a masked value, nor the engine's version (it is not a figure of the design).
_MASK = re.compile(r"<[^<>]*>")
_NOT_FIGURES = frozenset({"engine_version"})
# A crash or a refusal is the outcome, whatever its words: a refusal's numbers are in its message.
_OUTCOME = re.compile(r"(^|\.)(crash|error\.message|error\.hint)$")


def figures_text(text: str) -> str:
    """Every figure of a frozen JSON text, one `path<TAB>value` line each, in document order."""
    lines: list[str] = []
    _leaves(json.loads(text), "", "", lines)
    return "".join(lines)


def _leaves(data: Any, path: str, key: str, lines: list[str]) -> None:
    if isinstance(data, dict):
        for k, v in data.items():
            name = json.dumps(k) if any(c in k for c in "\t\n\r") else k
            _leaves(v, f"{path}.{name}" if path else name, k, lines)
    elif isinstance(data, list):
        for i, v in enumerate(data):
            _leaves(v, f"{path}[{i}]", key, lines)
    elif _OUTCOME.search(path) or _is_figure(key, data):
        lines.append(f"{path}\t{json.dumps(data, ensure_ascii=False)}\n")


def _is_figure(key: str, value: Any) -> bool:
    if value is None or key in _NOT_FIGURES:
        return False
    if not isinstance(value, str):
        return True  # a number or a yes/no
    if _MASK.fullmatch(value):
        return False
    return bool(_WORD.fullmatch(value)) or value in _enum_values()


@functools.cache
def _enum_values() -> frozenset[str]:
    """The Design schema's enum values, some of which are several words ('adjacent rack')."""
    from clustergen.engine.model.design import Design

    found: set[str] = set()
    stack: list[Any] = [Design.model_json_schema()]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            found.update(v for v in node.get("enum", []) if isinstance(v, str))
            if isinstance(node.get("const"), str):
                found.add(node["const"])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return frozenset(found)


_STEP = re.compile(r"\[(\d+)\]|\.?([^.\[\]]+)")


def read_figures(text: str) -> Any:
    """A figures file back as nested dicts and lists (nulls and prose are not in it: a missing
    key reads as absent, a list item with no figure as None)."""
    root: dict[str, Any] = {}
    for line in text.splitlines():
        path, value = line.split("\t", 1)
        steps: list[str | int] = [int(m[1]) if m[1] else m[2] for m in _STEP.finditer(path)]
        node: Any = root
        for step, after in zip(steps, [*steps[1:], None], strict=True):
            if after is None:
                node[step] = json.loads(value)
            else:
                node = node.setdefault(step, {})
    return _as_lists(root)


def _as_lists(node: Any) -> Any:
    if not isinstance(node, dict):
        return node
    if node and all(isinstance(k, int) for k in node):
        return [_as_lists(node.get(i)) for i in range(max(node) + 1)]
    return {k: _as_lists(v) for k, v in node.items()}


# The figures a reviewer reads first, one line per frozen output: a catalog change shows here as a
# small table diff before the JSON. A column that does not fit an output is left blank.
INDEX = "INDEX.tsv"
INDEX_COLUMNS = ["file", "platform", "gpus", "nodes", "it_mw", "switches", "racks", "verdict"]


def index_text(rows: list[list[str]]) -> str:
    """The index as TSV, sorted by file name."""
    return "".join("\t".join(r) + "\n" for r in [INDEX_COLUMNS, *sorted(rows)])


def index_row(name: str, text: str) -> list[str]:
    """One index line from a frozen file's text."""
    frozen = json.loads(text)
    out = frozen.get("output", frozen.get("result"))
    if "crash" in frozen:
        figures = {"verdict": "crash"}
    elif isinstance(out, dict) and "error" in out:  # a CLI refusal
        figures = {"verdict": f"exit {frozen['exit']}: {out['error'].get('type', 'error')}"}
    elif frozen.get("error"):  # an eval case the runner refused
        figures = {"verdict": f"error: {frozen['error'].get('type', 'error')}"}
    elif isinstance(out, dict) and "schema_version" in out and "checks" in out:
        figures = _design_figures(out)
    elif isinstance(out, dict):
        figures = _other_figures(out)
    else:
        figures = {}
    return [name, *(_cell(figures.get(c)) for c in INDEX_COLUMNS[1:])]


def _design_figures(out: dict[str, Any]) -> dict[str, Any]:
    from clustergen.engine.model.design import Design
    from clustergen.engine.report.words import verdict

    d = Design.model_validate(out)
    v = verdict(d)
    fabrics = (d.fabrics.compute, d.fabrics.storage, d.fabrics.inband, d.fabrics.oob)
    return {
        "platform": d.platform.system,
        "gpus": d.compute.gpus,
        "nodes": d.compute.nodes,
        "it_mw": _mw(d.power.it_total_w),
        "switches": sum(f.total_switches for f in fabrics if f is not None),
        "racks": d.racks.total_racks,
        "verdict": f"{v.status} {v.passed}/{len(d.checks)}",
    }


def _other_figures(out: dict[str, Any]) -> dict[str, Any]:
    """What fits from a fabric, power, estimate or storage answer (a power or RA-table answer
    nests its fabric)."""
    feasible = out.get("feasible")
    fabric = out["fabric"] if isinstance(out.get("fabric"), dict) else {}
    return {
        "platform": out.get("platform"),
        "gpus": out.get("gpus", out.get("gpus_required")),
        "nodes": out.get("nodes", fabric.get("nodes")),
        "it_mw": _mw(out.get("it_total_w")),
        "switches": out.get("total_switches", fabric.get("total_switches")),
        "verdict": None if feasible is None else ("feasible" if feasible else "infeasible"),
    }


def _mw(watts: Any) -> str | None:
    return f"{watts / 1e6:.3f}" if isinstance(watts, int | float) else None


def _cell(value: Any) -> str:
    # Only scalars fit a cell (a fleet plan's `nodes` is a list); unknown stays blank, never 0.
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return ""
    return str(value)


def differences() -> list[str]:
    """Frozen files whose output changed, is new, or is gone."""
    return compare(outputs(), FROZEN)


def compare(files: Iterable[tuple[str, str]], frozen: Path) -> list[str]:
    """Names whose text differs by any byte from the file in `frozen`, is new, or is gone."""
    seen: set[str] = set()
    changed: list[str] = []
    for name, text in files:
        seen.add(name)
        path = frozen / name
        if not path.is_file() or path.read_bytes() != text.encode("utf-8"):
            changed.append(name)
    changed += sorted(p.name for p in _frozen_files(frozen) if p.name not in seen)
    return changed


def _frozen_files(frozen: Path) -> list[Path]:
    return [*frozen.glob("*.json"), *frozen.glob(f"*{FIGURES}"), *frozen.glob(INDEX)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="list differences, write nothing")
    args = ap.parse_args()
    if args.check:
        diff = differences()
        print("\n".join(diff) or "no differences")
        return 1 if diff else 0
    FROZEN.mkdir(parents=True, exist_ok=True)
    for old in _frozen_files(FROZEN):
        old.unlink()
    n = 0
    for name, text in outputs():
        (FROZEN / name).write_bytes(text.encode("utf-8"))
        n += 1
    print(f"wrote {n} files to {FROZEN.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
