"""Untrusted input: regular files only, strict JSON, safe YAML, and limits on size, nesting and
alias expansion; every refusal is one DataError line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from clustergen.untrusted import (
    MAX_DEPTH,
    DataError,
    check_shape,
    load_json,
    read_regular,
)
from clustergen.untrusted.yaml_loader import load_yaml


def test_a_regular_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_bytes(b"hello")
    assert read_regular(path) == b"hello"


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (lambda p: os.mkfifo(p), "named pipe (FIFO), not a regular file"),
        (lambda p: p.mkdir(), "a directory, not a regular file"),
        (lambda p: p.symlink_to("/dev/zero"), "character device, not a regular file"),
        (lambda p: p.symlink_to(p), "Too many levels of symbolic links"),
        (lambda p: None, "No such file or directory"),
        (lambda p: p.write_bytes(b"x" * 101), "101 bytes, over the limit of 100"),
    ],
    ids=["fifo", "directory", "dev-zero", "symlink-loop", "missing", "too-large"],
)
def test_anything_but_a_small_regular_file_is_refused_at_once(
    tmp_path: Path, make: object, says: str
) -> None:
    path = tmp_path / "x.yaml"
    make(path)  # type: ignore[operator]
    with pytest.raises(DataError) as err:
        read_regular(path, limit=100)  # a FIFO with no writer must not block
    assert says in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('{"a": Infinity}', "Infinity is not a number JSON allows"),
        ('{"a": -Infinity}', "-Infinity is not a number JSON allows"),
        ('{"a": NaN}', "NaN is not a number JSON allows"),
        ('{"a": 1e999}', "too large for a float"),
        ('{"a": 1' + "0" * 5000 + "}", "a number has more than 4,300 digits"),
        ("[" * 100_000 + "]" * 100_000, f"nested deeper than {MAX_DEPTH} levels"),
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), f"nested deeper than {MAX_DEPTH} levels"),
        ('{"a": ', "not valid JSON"),
    ],
    ids=["inf", "-inf", "nan", "1e999", "5000-digits", "deep", "just-too-deep", "truncated"],
)
def test_json_that_is_not_plain_finite_data_is_refused(text: str, says: str) -> None:
    with pytest.raises(DataError) as err:
        load_json(text)
    assert says in str(err.value)


def test_plain_json_is_read() -> None:
    assert load_json('{"a": [1, 2.5, "x", null, true]}') == {"a": [1, 2.5, "x", None, True]}
    nested = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert load_json(nested) is not None


BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
    for p, c in zip("abcdefgh", "bcdefghi", strict=True)
)


@pytest.mark.parametrize(
    ("text", "says", "line"),
    [
        ("a: 1\nb: 2\na: 3\n", "key 'a' appears twice (first at line 1)", 3),
        ("x: " + "[" * 5000, "nested deeper than", 1),
        (BOMB, "more than 200,000 values", None),
        ("a: &a [*a]\n", "refers to the value that contains it", None),
        ("a: .inf\n", "inf is not a finite number", None),
        ("a: .nan\n", "nan is not a finite number", None),
        ("a: 1" + "0" * 5000 + "\n", "Exceeds the limit", 1),
        ("a: [open\n", "malformed YAML", 2),
        ("a: \x07\n", "malformed YAML", 1),
    ],
    ids=["dup-key", "deep", "bomb", "self", "inf", "nan", "digits", "open", "control"],
)
def test_yaml_that_is_not_plain_finite_data_is_refused(
    text: str, says: str, line: int | None
) -> None:
    with pytest.raises(DataError) as err:
        load_yaml(text)
    assert says in str(err.value)
    assert err.value.line == line


def test_yaml_merge_keys_may_override() -> None:
    assert load_yaml("base: &b {x: 1, y: 2}\nuse: {<<: *b, y: 3}\n")["use"] == {"x": 1, "y": 3}


def test_check_shape_counts_shared_values_each_time_they_are_reached() -> None:
    shared = list(range(10))
    assert check_shape([shared, shared]) == 1 + 2 * 11
    with pytest.raises(DataError, match="more than 20"):
        check_shape([shared, shared], max_nodes=20)
