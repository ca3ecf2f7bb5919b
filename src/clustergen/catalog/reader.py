"""Read one catalog YAML file into entry rows. Every fault (unreadable, not UTF-8, malformed YAML,
not a list, an entry without an id, an id twice, a control character or a formula in its text)
becomes a `Problem` located by file, entry and field, never an exception.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from clustergen.catalog import cache
from clustergen.catalog.problem import Problem, entry_near
from clustergen.catalog.text_rules import text_problems
from clustergen.untrusted import (
    MAX_FILE_BYTES,
    DataError,
    check_shape,
    read_regular,
)

#: most entries one catalog file of a user's layer may hold
MAX_ENTRIES_PER_FILE = 2_000

__all__ = ["MAX_ENTRIES_PER_FILE", "Problem", "entry_near", "read_rows"]


def _decode(path: Path, raw: bytes, problems: list[Problem]) -> str | None:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start].decode("utf-8", errors="replace")
        line = before.count("\n") + 1
        problems.append(
            Problem(
                path.name,
                entry_near(before, line),
                "",
                f"not UTF-8 text: byte 0x{raw[exc.start]:02x} at line {line}; save the file as UTF-8",
            )
        )
        return None


def read_rows(path: Path, problems: list[Problem], trusted: bool) -> list[dict[str, Any]]:
    """The entries of one catalog file, each a mapping with a string id; what is wrong goes to
    `problems`. A `trusted` file (the built-in catalog) is parsed by libyaml and cached. A user's
    file must be a regular file of at most MAX_FILE_BYTES with at most MAX_ENTRIES_PER_FILE
    entries: a FIFO, a device or a symlink loop is a problem, not a hang."""
    try:
        raw = read_regular(path, MAX_FILE_BYTES)
    except DataError as exc:
        problems.append(Problem(path.name, "-", "", f"cannot read: {exc}"))
        return []
    # Only the shipped catalog is cached: a user's layer is small, and may be anything (anchors
    # that refer to themselves, say) that a JSON cache cannot hold.
    digest = hashlib.sha256(raw).hexdigest()
    hit, data = cache.load(digest) if trusted else (False, None)
    if hit:
        # Only a file whose every row passed the checks below is stored, and an edit changes the
        # digest: what comes back was checked when it was stored.
        return _rows(path, data, problems, checked=True) if isinstance(data, list) else []
    text = _decode(path, raw, problems)
    if text is None:
        return []
    from clustergen.catalog.yaml_text import parse_yaml  # PyYAML only when a file is parsed

    ok, data = parse_yaml(path, text, problems, trusted)
    if not ok or data is None:
        return []
    if not isinstance(data, list):
        problems.append(Problem(path.name, "-", "", "top level must be a list of entries"))
        return []
    if not trusted and len(data) > MAX_ENTRIES_PER_FILE:
        problems.append(
            Problem(
                path.name,
                "-",
                "",
                f"{len(data):,} entries, over the limit of {MAX_ENTRIES_PER_FILE:,} per file",
            )
        )
        return []
    before = len(problems)
    rows = _rows(path, data, problems, checked=False)
    if trusted and len(problems) == before:
        cache.store(digest, data)
    return rows


def _rows(
    path: Path, data: list[Any], problems: list[Problem], checked: bool
) -> list[dict[str, Any]]:
    """The entries of a parsed file with a string id each, once per id. Unless `checked` (a cached
    parse that passed once already), every value's shape and every text is checked as well."""
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    counted = 0
    for i, row in enumerate(data):
        if not isinstance(row, dict) or not isinstance(row.get("id"), str):
            problems.append(Problem(path.name, f"#{i + 1}", "id", "each entry needs a string id"))
            continue
        # Anchors and aliases are YAML's; an alias that expands past the limits, or contains
        # itself, would make every later step (validation, hashing) explode.
        for key, value in () if checked else row.items():
            try:
                counted = check_shape(value, finite=False, counted=counted)
            except DataError as exc:
                problems.append(Problem(path.name, row["id"], str(key), str(exc)))
                return rows
        if row["id"] in seen:
            # Within one file a repeat is a slip, not an override: layering is across directories.
            problems.append(
                Problem(path.name, row["id"], "id", "the id appears more than once in this file")
            )
            continue
        seen.add(row["id"])
        # Kept as a row even when its text is refused: other entries may point at it, and the
        # catalog fails on the problem anyway.
        if not checked:
            problems.extend(text_problems(path.name, row["id"], row))
        rows.append(row)
    return rows
