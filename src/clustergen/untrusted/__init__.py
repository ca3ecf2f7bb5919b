"""Reading untrusted input (a user's file, a model's tool arguments) into plain data, within limits.

Everything a user or a model hands clustergen goes through here before any model sees it:

- `read_regular(path, limit)`: the bytes of a regular file, at most `limit` of them. A FIFO, a
  device (/dev/zero), a directory or a symlink loop is refused at once instead of hanging, eating
  memory or raising; a FIFO is opened without blocking, so no writer is waited for.
- `load_json(text)`: strict JSON: no NaN or Infinity, no number too large for a float, no integer
  of thousands of digits, nesting at most `MAX_DEPTH` deep.
- `check_shape(data)`: the depth, size and finiteness limits, for data parsed elsewhere (YAML, in
  `untrusted.yaml_loader`, which imports PyYAML only where YAML is read).

Every fault is a `DataError`: one line, with the line of the text where that is known. Callers turn
it into their own error (a RequestError for a command's argument, a located Problem for a catalog).
"""

from __future__ import annotations

import json
import math
import os
import stat
import sys
from pathlib import Path
from typing import Any

#: deepest nesting of lists and mappings a document may have (catalog entries nest about 4 deep)
MAX_DEPTH = 64
#: most values a document may hold once YAML aliases are expanded (a billion-laughs guard)
MAX_NODES = 200_000
#: the largest file a user may hand clustergen (a request, a config, an inventory, a catalog file)
MAX_FILE_BYTES = 4 * 1024 * 1024


class DataError(ValueError):
    """Untrusted input that clustergen refuses to read; `line` is 1-based where known."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column

    def __str__(self) -> str:
        if self.line is None:
            return self.message
        where = f"line {self.line}" + (f", column {self.column}" if self.column else "")
        return f"{self.message} at {where}"


_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def file_kind(mode: int) -> str:
    """What a stat mode names, in words ("a regular file", "a directory", "a FIFO", ...)."""
    for test, words in _KINDS:
        if test(mode):
            return words
    return "a regular file" if stat.S_ISREG(mode) else "not a regular file"


def read_regular(path: Path | str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file at `path` (symlinks followed), at most `limit` of them.

    Raises DataError for anything else: a missing or unreadable file, a symlink loop, a directory,
    a FIFO, a device, a socket, or a file larger than `limit`."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise DataError(exc.strerror or str(exc)) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise DataError(f"is {file_kind(st.st_mode)}, not a regular file")
        if st.st_size > limit:
            raise DataError(f"is {st.st_size:,} bytes, over the limit of {limit:,}")
        chunks: list[bytes] = []
        size = 0
        while True:  # the file may grow while it is read: never take more than the limit
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise DataError(f"grew past the limit of {limit:,} bytes while being read")
        return b"".join(chunks)
    except OSError as exc:
        raise DataError(exc.strerror or str(exc)) from None
    finally:
        os.close(fd)


# ---------------------------------------------------------------- JSON


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise DataError(f"number {text[:40]} is too large for a float")
    return value


def _no_constant(name: str) -> Any:
    raise DataError(f"{name} is not a number JSON allows; give a finite number")


def load_json(text: str) -> Any:
    """Strict JSON to plain data. DataError for malformed JSON, NaN/Infinity, a number too large,
    an integer of thousands of digits, or nesting deeper than MAX_DEPTH."""
    try:
        data = json.loads(text, parse_float=_finite_float, parse_constant=_no_constant)
    except DataError:
        raise
    except json.JSONDecodeError as exc:
        raise DataError(f"not valid JSON: {exc.msg}", exc.lineno) from None
    except RecursionError:
        raise DataError(f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError:  # an integer past Python's digit limit for int()
        raise DataError(f"a number has more than {sys.get_int_max_str_digits():,} digits") from None
    check_shape(data)
    return data


# ---------------------------------------------------------------- shape


def check_shape(
    data: Any,
    *,
    max_depth: int = MAX_DEPTH,
    max_nodes: int = MAX_NODES,
    finite: bool = True,
    counted: int = 0,
) -> int:
    """Refuse data nested deeper than `max_depth`, holding more than `max_nodes` values (shared
    references counted each time they are reached, as a reader would expand them), containing
    itself, or (when `finite`) holding a NaN or infinite float. Iterative: no recursion limit.
    `counted` values seen already (in earlier parts of one document) count towards the limit.
    Returns the number of values counted, those included."""
    count = counted
    # (value, depth, ids of the containers above it)
    stack: list[tuple[Any, int, frozenset[int]]] = [(data, 1, frozenset())]
    while stack:
        value, depth, above = stack.pop()
        count += 1
        if count > max_nodes:
            raise DataError(f"holds more than {max_nodes:,} values (aliases expanded)")
        if isinstance(value, float) and finite and not math.isfinite(value):
            raise DataError(f"{value} is not a finite number")
        if not isinstance(value, dict | list | tuple):
            continue
        if depth > max_depth:
            raise DataError(f"nested deeper than {max_depth} levels")
        if id(value) in above:
            raise DataError("an alias refers to the value that contains it")
        inner = above | {id(value)}
        items = [*value.keys(), *value.values()] if isinstance(value, dict) else list(value)
        stack.extend((v, depth + 1, inner) for v in items)
    return count
