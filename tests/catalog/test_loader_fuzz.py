"""The catalog loader under hostile input: every malformed file or wrong value is reported as a
Problem naming its file and entry (and field, where there is one); nothing else escapes.

Mutations are written into a user layer (`--catalog DIR`) over the built-in catalog, which is how
a user's mistakes reach the loader.
"""

from __future__ import annotations

import copy
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clustergen.catalog import builtin_catalog_dir, load_catalog, validate_catalog
from clustergen.catalog.loader import FILES, Problem
from clustergen.errors import CatalogError

BUILTIN = builtin_catalog_dir()
STEMS = sorted(p.stem for p in BUILTIN.glob("*.yaml"))
TEXTS = {stem: (BUILTIN / f"{stem}.yaml").read_bytes() for stem in STEMS}
ROWS: dict[str, list[dict[str, Any]]] = {stem: yaml.safe_load(TEXTS[stem]) for stem in STEMS}

FUZZ = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@contextmanager
def layer(files: dict[str, bytes]) -> Iterator[Path]:
    """A fresh user catalog directory holding `files` (name -> bytes)."""
    with tempfile.TemporaryDirectory(prefix="catalog-fuzz-") as d:
        for name, data in files.items():
            (Path(d) / name).write_bytes(data)
        yield Path(d)


def problems_of(directory: Path) -> list[Problem]:
    """validate_catalog's problems, each checked to be located and one line long."""
    catalog, problems = validate_catalog(directory)
    assert (catalog is None) == bool(problems)
    for p in problems:
        assert p.file, p
        assert p.entry, p
        assert p.message, p
        assert "\n" not in str(p), p
    return problems


def located(problems: list[Problem], file: str, entry: str, field: str) -> bool:
    """Some problem names this file and entry, at `field` or inside it."""
    return any(
        p.file == file
        and p.entry == entry
        and (p.field == field or p.field.startswith(f"{field}."))
        for p in problems
    )


# ---------------------------------------------------------------- random edits of whole files

_PAYLOADS = st.sampled_from(
    [
        b":",
        b": ",
        b"- ",
        b"-",
        b"[",
        b"]",
        b"{",
        b"}",
        b"'",
        b'"',
        b"#",
        b"&a ",
        b"*a",
        b"*b",
        b"!!",
        b"!!python/object:os.system ",
        b"|",
        b">",
        b"\t",
        b"\n",
        b"\n  ",
        b"  ",
        b"? ",
        b"%YAML 1.1\n",
        b"---\n",
        b"...\n",
        b"@",
        b"`",
        b",",
        b"\x00",
        b"\x01",
        b"\xff",
        b"\xe9",
        b"\xef\xbb\xbf",
        b".inf",
        b".nan",
        b"-1",
        b"null",
        b"~",
        b"2026-13-45",
        b"1" * 5000,
        b"id: ",
        b"id: x\n",
        b"<<: *a\n",
        b"yes",
        b"0x1F",
    ]
)
_EDITS = st.lists(
    st.tuples(
        st.sampled_from(["insert", "delete", "replace", "truncate"]),
        st.floats(0, 1),
        _PAYLOADS,
        st.integers(1, 40),
    ),
    min_size=1,
    max_size=4,
)


def edit(data: bytes, edits: list[tuple[str, float, bytes, int]]) -> bytes:
    for kind, where, payload, span in edits:
        at = int(where * len(data))
        if kind == "insert":
            data = data[:at] + payload + data[at:]
        elif kind == "delete":
            data = data[:at] + data[at + span :]
        elif kind == "replace":
            data = data[:at] + payload + data[at + span :]
        else:
            data = data[:at]
    return data


@FUZZ
@given(stem=st.sampled_from(STEMS), edits=_EDITS)
def test_edited_files_are_reported_never_raised(
    stem: str, edits: list[tuple[str, float, bytes, int]]
) -> None:
    with layer({f"{stem}.yaml": edit(TEXTS[stem], edits)}) as d:
        problems = problems_of(d)
    # A problem is in the edited file, or in a file whose references the edit broke.
    for p in problems:
        assert p.file in {f"{s}.yaml" for s in FILES}, p


# ---------------------------------------------------------------- wrong types, field by field


def _fields() -> list[tuple[str, str, tuple[str, ...], Any]]:
    """(stem, entry id, field path, value) for every field and nested field of every entry."""
    out = []
    for stem, rows in ROWS.items():
        for row in rows:
            for key, value in row.items():
                if key == "id" or value is None:
                    continue
                out.append((stem, row["id"], (key,), value))
                if isinstance(value, dict):
                    out.extend(
                        (stem, row["id"], (key, k), v) for k, v in value.items() if v is not None
                    )
    return out


FIELDS = _fields()
_scalars = st.one_of(
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(alphabet="abcxyz -_:#", max_size=8),
    st.booleans(),
)
_mappings = st.dictionaries(st.text(alphabet="qwxz", min_size=1, max_size=5), _scalars, min_size=1, max_size=3)  # fmt: skip
_sequences = st.lists(_scalars, max_size=3)


@st.composite
def wrong_values(draw: st.DrawFn) -> tuple[str, str, tuple[str, ...], Any]:
    """A field and a value of another kind than its own: a container for a scalar, a scalar or
    the other container for a container, or a non-finite number for a number."""
    stem, entry, path, value = draw(st.sampled_from(FIELDS))
    if isinstance(value, dict) and path[0] == "field_sources":
        # a field's source may be written as plain text (a datasheet citation): text is no
        # wrong kind there
        bad = draw(st.one_of(_sequences, _scalars.filter(lambda v: not isinstance(v, str))))
    elif isinstance(value, dict):
        bad = draw(st.one_of(_sequences, _scalars))
    elif isinstance(value, list):
        bad = draw(st.one_of(_mappings, _scalars))
    elif isinstance(value, int | float) and not isinstance(value, bool):
        bad = draw(st.one_of(_mappings, _sequences, st.sampled_from([float("nan"), float("inf"), float("-inf")])))  # fmt: skip
    else:
        bad = draw(st.one_of(_mappings, _sequences))
    return stem, entry, path, bad


def override(stem: str, entry: str, path: tuple[str, ...], value: Any) -> bytes:
    """A one-entry layer that changes one field: layers merge top-level fields, so a nested
    change carries the rest of its parent unchanged."""
    row = next(r for r in ROWS[stem] if r["id"] == entry)
    top = copy.deepcopy(row[path[0]])
    if len(path) == 2:
        top[path[1]] = value
    else:
        top = value
    return yaml.safe_dump([{"id": entry, path[0]: top}], sort_keys=False).encode()


@FUZZ
@given(wrong_values())
def test_wrong_types_are_located_by_file_entry_and_field(
    case: tuple[str, str, tuple[str, ...], Any],
) -> None:
    stem, entry, path, value = case
    with layer({f"{stem}.yaml": override(stem, entry, path, value)}) as d:
        problems = problems_of(d)
    assert located(problems, f"{stem}.yaml", entry, ".".join(path)), (value, problems)


@FUZZ
@given(
    st.sampled_from([(s, r["id"]) for s, rows in ROWS.items() for r in rows]),
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=12),
    _scalars,
)
def test_unknown_fields_are_located(entry: tuple[str, str], key: str, value: Any) -> None:
    stem, entry_id = entry
    if key in FILES[stem].model_fields:
        return
    text = yaml.safe_dump([{"id": entry_id, key: value}]).encode()
    with layer({f"{stem}.yaml": text}) as d:
        problems = problems_of(d)
    assert located(problems, f"{stem}.yaml", entry_id, key), problems


# ---------------------------------------------------------------- malformed files, located

GPUS = b"""\
- id: a100-80gb
  tdp_w: 400
- id: h100-sxm
  name: NVIDIA H100 SXM5 80GB
BROKEN
  vendor: NVIDIA
- id: h200
  tdp_w: 700
"""


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (b"  notes: [unclosed", "malformed YAML at line 6"),
        (b"\tnotes: tab", "malformed YAML at line 5"),
        (b"  notes: 'unclosed", "malformed YAML at line"),
        (b"  notes: a: b", "malformed YAML at line 5"),
        (b"  notes: a\x01b", "control character U+0001"),
        (b"  notes: caf\xe9", "not UTF-8 text: byte 0xe9 at line 5"),
        (b"  notes: !!python/object:os.system x", "malformed YAML at line 5"),
        (b"  notes: 2026-13-45", "month must be in 1..12"),
        (b"  tdp_w: " + b"9" * 5000, "Exceeds the limit"),
        (b"  notes: " + b"{a: " * 2000 + b"x" + b"}" * 2000, "nested too deeply"),
        (b"  <<: *nowhere", "found undefined alias"),
    ],
)
def test_malformed_yaml_names_the_entry_and_line(broken: bytes, message: str) -> None:
    with layer({"gpus.yaml": GPUS.replace(b"BROKEN", broken)}) as d:
        problems = problems_of(d)
        with pytest.raises(CatalogError) as err:
            load_catalog(d)
    assert [(p.file, p.entry) for p in problems] == [("gpus.yaml", "h100-sxm")], problems
    assert message in problems[0].message
    assert "gpus.yaml: entry 'h100-sxm'" in err.value.one_line()
    assert "\n" not in err.value.one_line()


@pytest.mark.parametrize(
    ("text", "entry", "field", "message"),
    [
        (b"- id: h100-sxm\n  tdp_w: .inf\n", "h100-sxm", "tdp_w", "finite"),
        (b"- id: h100-sxm\n  memory_gb: .nan\n", "h100-sxm", "memory_gb", "finite"),
        (
            b"- id: h100-sxm\n  tdp_w: 1\n- id: h100-sxm\n  tdp_w: 2\n",
            "h100-sxm",
            "id",
            "more than once",
        ),
        (b"- id: null\n", "#1", "id", "string id"),
        (b"- [h100-sxm]\n", "#1", "id", "string id"),
        (b"- id: h100-sxm\n  aliases: &a [*a]\n", "h100-sxm", "aliases", ""),
        (b"- id: h100-sxm\n  7: x\n", "h100-sxm", "7", ""),
    ],
)
def test_odd_values_are_located(text: bytes, entry: str, field: str, message: str) -> None:
    with layer({"gpus.yaml": text}) as d:
        problems = problems_of(d)
    mine = [p for p in problems if p.file == "gpus.yaml"]
    assert any(p.entry == entry and p.field.startswith(field) for p in mine), problems
    assert any(message in p.message for p in mine), problems


def test_a_file_that_is_not_a_list_is_reported() -> None:
    with layer({"gpus.yaml": b"id: h100-sxm\n"}) as d:
        problems = problems_of(d)
    assert [(p.file, p.entry, p.message) for p in problems] == [
        ("gpus.yaml", "-", "top level must be a list of entries")
    ]
