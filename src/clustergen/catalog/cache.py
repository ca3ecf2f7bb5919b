"""A cache of parsed catalog files, keyed by the file's content.

Parsing the catalog's YAML is the largest single cost of a command's start after importing the
libraries (tens of milliseconds); reading the same data back as JSON takes about one. Entries are
named by the SHA-256 of the file's bytes, so an edited file simply misses: the cache can never
serve stale data, and it needs no invalidation. The reader stores only a file whose rows passed
its shape and text checks, so a hit skips them and a faulty file is checked (and reported) on
every load. Anything that goes wrong with the cache (no home directory, a read-only disk, a
damaged entry) falls back to parsing the YAML.

`CLUSTERGEN_CACHE_DIR` moves the cache; `CLUSTERGEN_NO_CACHE=1` turns it off.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path
from typing import Any

#: bump when the stored form or its meaning changes, so old entries are never read as the new form
#: (v2: a file is stored only once its rows have passed the reader's checks)
_FORMAT = "catalog-v2"
_DATE = "$date"


class _Uncacheable(Exception):
    """The parsed YAML holds something JSON cannot give back exactly."""


def cache_dir() -> Path | None:
    """Where parsed catalog files are kept, or None when the cache is off."""
    if os.environ.get("CLUSTERGEN_NO_CACHE", "") not in ("", "0"):
        return None
    explicit = os.environ.get("CLUSTERGEN_CACHE_DIR")
    if explicit:
        return Path(explicit) / _FORMAT
    base = os.environ.get("XDG_CACHE_HOME")
    if base:
        return Path(base) / "clustergen" / _FORMAT
    try:
        return Path.home() / ".cache" / "clustergen" / _FORMAT
    except RuntimeError:  # no home directory to be found
        return None


def _encode(value: Any) -> Any:
    # YAML gives dates (an unquoted as_of) that JSON lacks; they travel tagged. Anything else that
    # would not come back identical (non-string keys, sets, datetimes, bytes) is not cached.
    if isinstance(value, dict):
        if _DATE in value or not all(isinstance(k, str) for k in value):
            raise _Uncacheable
        return {k: _encode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, dt.datetime):
        raise _Uncacheable
    if isinstance(value, dt.date):
        return {_DATE: value.isoformat()}
    if value is None or isinstance(value, str | bool | int | float):
        return value
    raise _Uncacheable


def _decode_object(obj: dict[str, Any]) -> Any:
    if len(obj) == 1 and _DATE in obj:
        return dt.date.fromisoformat(obj[_DATE])
    return obj


def load(digest: str) -> tuple[bool, Any]:
    """(True, data) for a cached parse of the file with this SHA-256, else (False, None)."""
    directory = cache_dir()
    if directory is None:
        return False, None
    try:
        text = (directory / f"{digest}.json").read_text(encoding="utf-8")
        return True, json.loads(text, object_hook=_decode_object)
    except (OSError, ValueError):  # missing or damaged: parse the YAML instead
        return False, None


def store(digest: str, data: Any) -> None:
    """Keep the parse of the file with this SHA-256; silently skip what cannot be kept."""
    directory = cache_dir()
    if directory is None:
        return
    try:
        text = json.dumps(_encode(data), separators=(",", ":"))
    except _Uncacheable:
        return
    import tempfile  # only a miss writes; a hit should not pay for importing it

    try:
        directory.mkdir(parents=True, exist_ok=True)
        # write then rename, so a reader never sees half an entry
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
            os.replace(tmp, directory / f"{digest}.json")
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        return
