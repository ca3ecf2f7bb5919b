"""The CLI's surfaces under fuzzed input: flags, request and config files, inventories, catalog
layers. Whatever comes in, a command ends with its answer or one clear error: it fails this test
on any exception escaping (a traceback), any command running past `HANG_S` (a hang), and any
exit 0 whose output holds a NaN or an infinity.

Examples are drawn repeatably (tests/conftest.py's `repeatable` profile, so CI sees the same
ones every run); `HYPOTHESIS_PROFILE=explore` searches afresh, and `CLUSTERGEN_FUZZ_SCALE=10`
runs ten times as many. Each command runs in process, so hundreds take well under a minute.
"""

from __future__ import annotations

import io
import itertools
import json
import os
import re
import signal
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clustergen.cli.app import main

HANG_S = 20
SCALE = float(os.environ.get("CLUSTERGEN_FUZZ_SCALE", "1"))
NON_FINITE = re.compile(r"(?i)(?<![\w.])[-+]?(nan|inf|infinity)(?![\w])")
_TMP = Path(tempfile.mkdtemp(prefix="clustergen-fuzz-"))
_SERIAL = itertools.count()


def fuzz(examples: int) -> Any:
    return settings(
        max_examples=max(1, int(examples * SCALE)),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


class Hang(BaseException):
    """A command ran past HANG_S (a BaseException, so no handler in clustergen can swallow it)."""


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    def expire(_signum: int, _frame: Any) -> None:
        raise Hang(f"the command ran for more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run(args: list[str]) -> tuple[int, str, str]:
    """`clustergen ARGS` in process: (exit code, stdout, stderr). Any exception but SystemExit
    escapes and fails the test, as a traceback would fail a user."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with redirect_stdout(out), redirect_stderr(err), _time_limit(HANG_S):
        try:
            main(args)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return code, out.getvalue(), err.getvalue()


#: bytes no output may hold, whatever the input: an escape sequence or a control character
#: reaches the terminal only if some sink let it through
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def check(args: list[str]) -> None:
    code, out, err = run(args)
    shown = " ".join(repr(a) if " " in a or not a else a for a in args)[:300]
    assert "Traceback" not in out + err, f"clustergen {shown}\n{err[-2000:]}"
    assert not CONTROL.search(out + err), f"clustergen {shown} wrote a control character"
    if code == 0:
        found = NON_FINITE.search(out)
        assert found is None, f"clustergen {shown} exited 0 with {found.group(0)!r} in its output"
    else:
        assert "Error" in err or '"error"' in out, f"clustergen {shown}: exit {code}, {err!r}"


def _file(text: str, suffix: str) -> str:
    path = _TMP / f"f{next(_SERIAL)}{suffix}"
    path.write_text(text, encoding="utf-8")
    return str(path)


# ---------------------------------------------------------------- values

HOSTILE = [
    "0", "-0", "-1", "1", "2", "8", "64", "0.5", "3.5", "65536", "1e6", "1e20", "1e308",
    "1.7976931348623157e308", "1e-300", "5e-324", "1e400", "nan", "NaN", "-nan", "inf", "-inf",
    "Infinity", "1" + "0" * 400, "99999999999999999999", "", " ", "abc", "0x10", "1_000",
    "2:1", "1:0", "0:0",
]  # fmt: skip
#: the values that broke clustergen once each: a subnormal, a near-overflow, an overflow, NaN, ...
EXTREMES = ["5e-324", "1e-300", "1e308", "1e400", "nan", "-inf", "-1", "0", "1" + "0" * 400]
numbers = st.one_of(
    st.sampled_from(EXTREMES),
    st.sampled_from(HOSTILE),
    st.integers(min_value=-(10**12), max_value=10**12).map(str),
    st.floats().map(repr),
    # positive and finite, down to the subnormals and up to the largest float: the values a
    # model accepts that arithmetic does not
    st.floats(min_value=0, exclude_min=True, allow_infinity=False).map(repr),
)
# A number as it may appear in JSON or YAML text (NaN and Infinity included, as hostile files do).
literals = st.one_of(
    st.sampled_from(
        [
            "0",
            "-1",
            "1e308",
            "1e-300",
            "5e-324",
            "1e400",
            "NaN",
            "Infinity",
            "-Infinity",
            "1" + "0" * 5000,
            "true",
            "null",
            '"8"',
            "[]",
            "{}",
        ]
    ),
    st.integers(min_value=-(10**20), max_value=10**20).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
)
yaml_literals = st.one_of(
    st.sampled_from(
        [
            ".inf",
            "-.inf",
            ".nan",
            "1e308",
            "1.0e+308",
            "1.0e-300",
            "5e-324",
            "0",
            "-1",
            "1" + "0" * 5000,
            "~",
            "[]",
            "{}",
            "'8'",
            "*nope",
            "&a [*a]",
        ]
    ),
    st.integers(min_value=-(10**20), max_value=10**20).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
)
words = st.sampled_from(
    [
        "H100",
        "dgx-h100",
        "dgx-b300",
        "GB200 NVL72",
        "B200",
        "qm9700",
        "nope",
        "",
        "training",
        "inference",
        "good",
        "best",
        "infiniband",
        "ethernet",
        "x" * 300,
    ]
)


def flags(
    options: dict[str, Any], base: dict[str, str | None] | None = None
) -> st.SearchStrategy[list[str]]:
    """A command's flags: a valid `base` set with one to three flags changed (drawn from
    `options`: flag -> strategy of its value, or None for a switch), or dropped. Bugs hide behind
    inputs that are valid but for one value, so most examples start valid."""
    names = sorted(options)
    start = base or {}

    @st.composite
    def draw(d: st.DrawFn) -> list[str]:
        chosen: dict[str, str | None] = dict(start)
        for name in d(st.lists(st.sampled_from(names), unique=True, max_size=3)):
            if name in chosen and d(st.booleans()) and d(st.booleans()):
                del chosen[name]
            else:
                chosen[name] = None if options[name] is None else d(options[name])
        out: list[str] = []
        for name, value in chosen.items():
            out += [name] if value is None else [name, value]
        return out

    return draw()


# ---------------------------------------------------------------- surfaces

FABRIC = {
    "--su-nodes": numbers,
    "--planes": numbers,
    "--port-speed": numbers,
    "--oversubscription": numbers,
    "--switch": words,
    "--technology": words,
    "--no-fabric-manager": None,
}


@fuzz(40)
@given(
    rest=flags(
        {**FABRIC, "--platform": words, "--nodes": numbers},
        {"--platform": "dgx-h100", "--nodes": "127"},
    )
)
def test_fabric(rest: list[str]) -> None:
    check(["fabric", *rest, "--json"])


POWER = {**FABRIC, "--platform": words, "--cap-mw": numbers, "--pue": numbers}


@fuzz(40)
@given(
    rest=flags(
        {**POWER, "--facility": None, "--whole-su": None},
        {"--platform": "dgx-b200", "--cap-mw": "5", "--facility": None, "--pue": "1.3"},
    ),
    as_json=st.booleans(),
)
def test_power(rest: list[str], as_json: bool) -> None:
    check(["power", *rest, *(["--json"] * as_json)])


DESIGN = {
    "--gpus": numbers,
    "--cap-mw": numbers,
    "--rack-kw": numbers,
    "--oversubscription": numbers,
    "--fabric": words,
    "--workload": words,
    "--storage-tier": words,
    "--platform": words,
    "--gpu": words,
    "--set": st.sampled_from(
        ["nodes", "pue", "cooling", "power_cap_basis", "model_params_b", "sample_mb", "pwer_cap_w"]
    ).flatmap(lambda f: st.one_of(numbers, words).map(lambda v: f"{f}={v}")),
}
TEXTS = st.one_of(
    st.sampled_from(
        [
            "512 GPUs training, 5 MW",
            "5e-324 GPUs",
            "1e400 MW",
            "nan GPUs in inf MW",
            "64 GPUs, PUE 0",
            "100000000000000000000 GPUs",
            "8 GPUs at 0 kW per rack",
            "x" * 30_000,
        ]
    ),
    st.builds(
        lambda n, u: f"{n} {u}",
        numbers,
        st.sampled_from(["GPUs", "MW", "kW racks", "nodes", "B params", "T tokens"]),
    ),
)


@fuzz(40)
@given(
    text=TEXTS,
    rest=flags(DESIGN, {"--gpus": "512", "--cap-mw": "5"}),
    as_json=st.booleans(),
    out=st.booleans(),
)
def test_design(text: str, rest: list[str], as_json: bool, out: bool) -> None:
    bundle = ["--out", str(_TMP / f"out{next(_SERIAL)}")] if out else []
    check(["design", text, *rest, "--offline", *bundle, *(["--json"] * as_json)])


REQUEST_FIELDS = [
    "gpus", "nodes", "power_cap_w", "pue", "oversubscription", "rack_power_kw", "model_params_b",
    "training_tokens_t", "sample_mb", "checkpoint_gb",
]  # fmt: skip


#: characters that mean something to a terminal, rich, Markdown, HTML, Mermaid or a spreadsheet
MARKUP = st.sampled_from(
    [
        "\x1b[31m", "\x1b]8;;https://evil.example\x07", "\x1b]0;title\x07", "\x1b[2J", "\x9b1m",
        "\x00", "\x07", "\x08", "\r", "\n", "\t", "\u202e", "[/]", "[link=https://x]", "[bold]",
        "\\", "<script>", "](javascript:x)", "![i](x)", "`", "*", "_", "|", "#", "%%{init: {}}%%",
        '"]', "click X call alert()", "=HYPERLINK(1)", "=cmd|' /C calc'!A0", "@", "+", "-", ":smile:",
    ]
)  # fmt: skip
# No letter n: every spelling of nan and inf has one, and the request is echoed in the output.
HOSTILE_TEXT = st.lists(
    st.one_of(
        MARKUP,
        st.text(st.characters(exclude_characters="nN"), max_size=8),
        st.sampled_from(["512 GPUs", "8 GPUs", "5 MW"]),
    ),
    max_size=12,
).map("".join)


@fuzz(40)
@given(
    text=HOSTILE_TEXT,
    as_json=st.booleans(),
    out=st.booleans(),
)
def test_design_request_text_with_control_and_markup(text: str, as_json: bool, out: bool) -> None:
    """Request text as typed, pasted or generated: control characters, escape sequences, rich
    markup, Markdown, HTML, Mermaid and formulas. No traceback, no control character out, and
    none in the bundle's text files."""
    where = _TMP / f"out{next(_SERIAL)}"
    bundle = ["--out", str(where)] if out else []
    check(["design", f"512 GPUs training {text}", "--offline", *bundle, *(["--json"] * as_json)])
    for name in ("memo.md", "topology.mmd", "bom.csv"):
        if (where / name).exists():
            assert not CONTROL.search((where / name).read_text(encoding="utf-8")), name


@fuzz(30)
@given(
    command=st.sampled_from(
        [
            ["gpu", "spec", "--offline", "--gpu"],
            ["catalog", "show", "gpus"],
            ["fabric", "--nodes", "16", "--platform"],
            ["estimate", "train a 70B model on 15T tokens in 60 days", "--model"],
        ]
    ),
    text=HOSTILE_TEXT,
    as_json=st.booleans(),
)
def test_names_with_control_and_markup(command: list[str], text: str, as_json: bool) -> None:
    """A name the catalog lacks is quoted back in the error: as text, never as markup."""
    check([*command, text, *(["--json"] * as_json)])


@fuzz(25)
@given(fields=st.dictionaries(st.sampled_from(REQUEST_FIELDS), yaml_literals, min_size=1))
def test_design_request_file(fields: dict[str, str]) -> None:
    text = "".join(f"{k}: {v}\n" for k, v in fields.items())
    check(["design", "--request", _file(text, ".yaml"), "--offline", "--json"])


STORAGE = {
    "--ingest-mb-per-s": numbers,
    "--samples-per-s": numbers,
    "--sample-mb": numbers,
    "--workers": numbers,
    "--pattern": st.sampled_from(["sequential", "random-small", "prefetch", "x"]),
    "--layout": st.sampled_from(["one-file-per-sample", "shards", "object-store", "x"]),
    "--system": st.sampled_from(["local-nvme", "parallel-fs", "object-store", "x"]),
    "--targets": numbers,
    "--read-gb-per-s": numbers,
    "--write-gb-per-s": numbers,
    "--metadata-servers": numbers,
    "--checkpoint-gb": numbers,
    "--checkpoint-interval-s": numbers,
    "--set": st.sampled_from(
        [
            "prefetch_depth", "shard_mb", "target_read_gb_per_s", "mds_ops_per_s",
            "gpus_per_node", "drives_per_node", "prefixes", "storage_network_gb_per_s",
            "checkpoint_budget_fraction", "no_such_field",
        ]
    ).flatmap(lambda f: numbers.map(lambda n: f"{f}={n}")),
}  # fmt: skip


STORY = {
    "--gpus": "128",
    "--samples-per-s": "400",
    "--sample-mb": "0.2",
    "--workers": "2",
    "--layout": "one-file-per-sample",
    "--targets": "24",
    "--checkpoint-gb": "1000",
    "--checkpoint-interval-s": "3600",
}
STORIES = [
    STORY,
    {**STORY, "--system": "local-nvme", "--layout": "shards", "--pattern": "random-small"},
    {
        **STORY,
        "--system": "object-store",
        "--layout": "object-store",
        "--set": "prefixes=4",
        "--read-gb-per-s": "100",
    },
    {
        "--gpus": "4096",
        "--ingest-mb-per-s": "80",
        "--read-gb-per-s": "500",
        "--pattern": "prefetch",
    },
]


@fuzz(80)
@given(
    rest=st.sampled_from(STORIES).flatmap(lambda base: flags({**STORAGE, "--gpus": numbers}, base)),
    as_json=st.booleans(),
)
def test_storage_analyze(rest: list[str], as_json: bool) -> None:
    check(["storage", "analyze", *rest, *(["--json"] * as_json)])


@fuzz(40)
@given(
    rest=flags(
        {"--tier": words, "--nodes": numbers, "--su-nodes": numbers},
        {"--tier": "good", "--nodes": "1000", "--su-nodes": "32"},
    ),
    as_json=st.booleans(),
)
def test_storage_targets(rest: list[str], as_json: bool) -> None:
    check(["storage", "targets", *rest, *(["--json"] * as_json)])


@fuzz(25)
@given(gpus=numbers, workload=words, as_json=st.booleans())
def test_ra_recommend(gpus: str, workload: str, as_json: bool) -> None:
    check(["ra", "recommend", "--gpus", gpus, "--workload", workload, *(["--json"] * as_json)])


SEED = {
    "it_cap_mw": 5,
    "min_nodes": 1,
    "node": {"name": "n", "gpus_per_node": 8, "gpu_w": 700, "cpu_w": 400, "nics_per_node": 8, "nic_w": 25, "node_aux_w": 300, "ports_per_nic_to_fabric": 1},
    "fabric": {
        "name": "f",
        "leaf": {"name": "l", "ports": 64, "switch_w": 1500},
        "spine": {"name": "s", "ports": 64, "switch_w": 1500},
        "leaf_host_ports": 32,
        "leaf_uplink_ports": 32,
        "optic_w_per_link_end": 15,
    },
}  # fmt: skip
SEED_NUMBERS = [
    ("it_cap_mw",), ("min_nodes",), ("node", "gpus_per_node"), ("node", "gpu_w"), ("node", "cpu_w"),
    ("node", "nics_per_node"), ("node", "nic_w"), ("node", "ports_per_nic_to_fabric"),
    ("fabric", "leaf", "ports"), ("fabric", "spine", "ports"), ("fabric", "leaf", "switch_w"),
    ("fabric", "leaf_host_ports"), ("fabric", "leaf_uplink_ports"), ("fabric", "optic_w_per_link_end"),
]  # fmt: skip


@fuzz(40)
@given(
    changes=st.dictionaries(st.sampled_from(SEED_NUMBERS), literals, min_size=1, max_size=4),
    as_json=st.booleans(),
)
def test_size_config(changes: dict[tuple[str, ...], str], as_json: bool) -> None:
    config = json.loads(json.dumps(SEED))
    marks: dict[str, str] = {}
    for n, (path, literal) in enumerate(changes.items()):
        *parents, leaf = path
        here = config
        for p in parents:
            here = here[p]
        here[leaf] = f"@@{n}@@"
        marks[f'"@@{n}@@"'] = literal
    text = json.dumps(config)
    for mark, literal in marks.items():
        text = text.replace(mark, literal)
    check(["size", "--config", _file(text, ".json"), *(["--json"] * as_json)])


NODE_FIELDS = ["gpus", "memory_gb", "hourly_usd"]


@fuzz(30)
@given(
    nodes=st.lists(
        st.dictionaries(st.sampled_from(NODE_FIELDS), yaml_literals, max_size=3),
        min_size=1,
        max_size=4,
    ),
    tiers=st.one_of(st.none(), st.lists(numbers, min_size=1, max_size=4).map(",".join)),
    as_json=st.booleans(),
)
def test_fleet_plan(nodes: list[dict[str, str]], tiers: str | None, as_json: bool) -> None:
    rows = "".join(
        f"  - {{name: n{i}, provider: p, gpu: {'H100' if i % 2 else 'RTX 4090'}"
        + "".join(f", {k}: {v}" for k, v in {"memory_gb": "24", **node}.items())
        + "}\n"
        for i, node in enumerate(nodes)
    )
    args = ["fleet", "plan", "--inventory", _file("nodes:\n" + rows, ".yaml")]
    check([*args, *(["--tiers", tiers] if tiers is not None else []), *(["--json"] * as_json)])


CATALOG_FIELDS = [
    ("systems", "dgx-h100", "max_power_w"), ("systems", "dgx-h100", "gpus_per_node"),
    ("systems", "dgx-b300", "max_power_w"), ("gpus", "h100-sxm", "tdp_w"),
    ("gpus", "h100-sxm", "bf16_dense_tflops"), ("switches", "qm9700", "ports"),
    ("switches", "qm9700", "max_power_w"), ("switches", "qm9700", "port_speed_gbps"),
    ("racks", "air-52u-b200", "power_limit_kw"), ("architectures", "dgx-superpod-h100", "su_nodes"),
    ("storage_tiers", "better", "su_read_gb_per_s"), ("storage_models", "lustre-mds", "ops_per_s"),
    ("storage_models", "pattern-prefetch", "efficiency"), ("assumptions", "pue", "value"),
    ("assumptions", "mfu", "value"), ("optics", "mma4z00-ns", "power_w"),
]  # fmt: skip


@fuzz(20)
@given(
    changes=st.dictionaries(st.sampled_from(CATALOG_FIELDS), yaml_literals, min_size=1, max_size=3),
    command=st.sampled_from(
        [["catalog", "validate"], ["design", "512 GPUs training, 5 MW", "--offline", "--json"]]
    ),
)
def test_catalog_layer(changes: dict[tuple[str, str, str], str], command: list[str]) -> None:
    layer = _TMP / f"catalog{next(_SERIAL)}"
    layer.mkdir()
    files: dict[str, dict[str, list[str]]] = {}
    for (stem, entry, field), value in changes.items():
        files.setdefault(stem, {}).setdefault(entry, []).append(f"  {field}: {value}\n")
    for stem, entries in files.items():
        text = "".join(f"- id: {entry}\n" + "".join(lines) for entry, lines in entries.items())
        (layer / f"{stem}.yaml").write_text(text, encoding="utf-8")
    check([*command, "--catalog", str(layer)])


# ---------------------------------------------------------------- every flag at every extreme

SWEEP: list[tuple[list[str], dict[str, str | None], list[str]]] = [
    (["storage", "analyze"], STORY, sorted(STORAGE)),
    (["storage", "analyze"], STORIES[3], ["--gpus", "--ingest-mb-per-s", "--read-gb-per-s"]),
    (["storage", "targets"], {"--tier": "good", "--nodes": "1000"}, ["--nodes", "--su-nodes"]),
    (["fabric"], {"--platform": "dgx-h100", "--nodes": "127"}, ["--nodes", "--su-nodes", "--planes", "--port-speed", "--oversubscription"]),
    (["power"], {"--platform": "dgx-b200", "--cap-mw": "5", "--facility": None, "--pue": "1.3"}, ["--cap-mw", "--pue", "--su-nodes", "--planes", "--port-speed", "--oversubscription"]),
    (["design", "512 GPUs training"], {"--offline": None}, ["--gpus", "--cap-mw", "--rack-kw", "--oversubscription"]),
    (["ra", "recommend"], {"--workload": "training"}, ["--gpus"]),
    (["eval", "--case", "storage-good-1su"], {}, ["--threshold", "--concurrency"]),
]  # fmt: skip


def _sweep() -> Iterator[Any]:
    for command, base, numeric in SWEEP:
        for flag in numeric:
            for value in EXTREMES:
                args = [*command]
                for name, v in {**base, flag: value}.items():
                    args += [name] if v is None else [name, v]
                yield pytest.param(
                    [*args, "--json"], id=f"{' '.join(command[:2])} {flag} {value[:8]}"
                )


@pytest.mark.parametrize("args", list(_sweep()))
def test_every_numeric_flag_at_every_extreme(args: list[str]) -> None:
    """A valid command but for one number: subnormal, huge, infinite, NaN, negative, zero."""
    check(args)


@pytest.mark.parametrize(
    "args",
    [
        ["design", "64 GPUs", "--offline", "--trace", "/"],
        ["eval", "--case", "storage-good-1su", "--report", "/"],
        ["eval", "--case", "storage-good-1su", "--threshold", "nan"],
        ["gpu", "spec", "--gpu", "x" * 5000, "--offline"],
        ["catalog", "show", "gpus", "\x00"],
    ],
)
def test_fixed_hostile_invocations(args: list[str]) -> None:
    check(args)
