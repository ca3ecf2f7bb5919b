"""The files a user names on the command line: one door in, one check out.

In: every file argument (a request, a config, an inventory, a design to re-render) is read by
`read_user_text` (regular files only, at most `MAX_FILE_BYTES`, UTF-8) and parsed by
`load_user_json` / `load_user_yaml` (finite numbers, nesting and alias limits), so each fails the
same way: one line naming the option and the file. A catalog directory's files go through the same
`untrusted.read_regular` in `catalog/reader.py`.

Out: every file a user names for output (`--trace`, `--plot`, `eval --report`) is checked by
`check_output_file` before any work, and every output directory (`eval --record`) by
`check_output_dir`: `/`, a device such as /dev/full, a FIFO or a missing parent is refused in one
line, never replaced or written half.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

from clustergen.errors import OutputError, RequestError
from clustergen.untrusted import (
    MAX_FILE_BYTES,
    DataError,
    file_kind,
    load_json,
    read_regular,
)


def read_user_text(path: Path, what: str, limit: int = MAX_FILE_BYTES) -> str:
    """The text of `path`, named `what` in an error (e.g. "--request")."""
    try:
        raw = read_regular(path, limit)
    except DataError as exc:
        raise RequestError(f"cannot read {what} {path}: {exc}") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RequestError(f"{what} {path} is not UTF-8 text") from None


def load_user_json(path: Path, what: str) -> Any:
    """The plain data of a JSON file argument (strict: finite numbers, nesting limited)."""
    text = read_user_text(path, what)
    try:
        return load_json(text)
    except DataError as exc:
        raise RequestError(f"{what} {path}: {exc}") from None


def load_user_yaml(path: Path, what: str) -> Any:
    """The plain data of a YAML file argument (safe: no repeated keys, aliases and nesting
    limited, finite numbers)."""
    from clustergen.untrusted.yaml_loader import (
        load_yaml,  # PyYAML only for a command given a YAML file
    )

    text = read_user_text(path, what)
    try:
        return load_yaml(text)
    except DataError as exc:
        raise RequestError(f"{what} {path}: {exc}") from None


def check_output_file(path: Path, what: str) -> None:
    """Fail before any work unless `path` can be written as a file: its parent is a directory,
    and it is missing or a regular file (never a directory, a device or a FIFO, which a write
    would hang on, fill, or replace)."""
    if path.name in ("", ".", ".."):
        raise OutputError(f"{what} {path} is a directory; give a file name")
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise OutputError(f"cannot write {what} {path}: {exc.strerror or exc}") from None
    if mode is not None and not stat.S_ISREG(mode):
        raise OutputError(f"cannot write {what} {path}: it is {file_kind(mode)}, not a file")
    _parent_is_a_directory(path, what)
    _can_create_in(path.absolute().parent, what, path)


def check_output_dir(path: Path, what: str, marker: str) -> None:
    """Fail before any work unless `path` can be made a directory under an existing one, or is
    an empty directory, or one clustergen wrote before (it holds `marker`): clustergen never
    scatters its files among someone else's. A symbolic link is refused, as `design --out`
    refuses one: a write through it would land wherever it points."""
    refuse_symlinked_dir(path, what)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        _parent_is_a_directory(path, what)
        _can_create_in(path.absolute().parent, what, path)
        return
    except OSError as exc:
        raise OutputError(f"cannot write {what} {path}: {exc.strerror or exc}") from None
    if not stat.S_ISDIR(mode):
        raise OutputError(f"cannot write {what} {path}: it is {file_kind(mode)}, not a directory")
    try:
        with os.scandir(path) as entries:
            empty = next(entries, None) is None
    except OSError as exc:
        raise OutputError(f"cannot write {what} {path}: {exc.strerror or exc}") from None
    if not empty and not os.path.lexists(path / marker):
        raise OutputError(
            f"cannot write {what} {path}: it is not empty and holds no earlier {marker}",
            hint="give a new or empty directory",
        )
    _can_create_in(path, what, path)


def refuse_symlinked_dir(path: Path, what: str) -> None:
    """Refuse `path` when it is a symbolic link (not followed: its target is never looked at)."""
    try:
        st = os.lstat(path)
    except OSError:
        return  # missing or unreadable: the callers' own checks word that
    if stat.S_ISLNK(st.st_mode):
        raise OutputError(
            f"{what} {path} is a symbolic link; clustergen never writes or deletes through one",
            hint="give the directory itself",
        )


def _can_create_in(directory: Path, what: str, path: Path) -> None:
    """Fail before any work unless a file can be created in `directory`: a read-only file system
    or a directory without write permission would otherwise fail only after all the work. A real
    file is made and removed: permission bits say nothing of a read-only mount (nor for root)."""
    try:
        fd, probe = tempfile.mkstemp(prefix=".clustergen-probe-", dir=directory)
    except OSError as exc:
        raise OutputError(f"cannot write {what} {path}: {exc.strerror or exc}") from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)


def _parent_is_a_directory(path: Path, what: str) -> None:
    parent = path.absolute().parent
    try:
        mode = os.stat(parent).st_mode
    except FileNotFoundError:
        raise OutputError(
            f"cannot write {what} {path}: directory {parent} does not exist"
        ) from None
    except OSError as exc:
        raise OutputError(
            f"cannot write {what} {path}: directory {parent}: {exc.strerror or exc}"
        ) from None
    if not stat.S_ISDIR(mode):
        raise OutputError(f"cannot write {what} {path}: {parent} is not a directory")
