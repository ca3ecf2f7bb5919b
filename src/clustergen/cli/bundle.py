"""Writing a design's bundle (`design --out DIR`): every file or none, and only clustergen's files.

The rule: clustergen writes into a directory that is new, empty, or one it wrote before, and there
it replaces only the files of its own bundles. Each bundle leaves a manifest (`.clustergen-bundle`,
JSON: which files clustergen wrote); a non-empty directory without one belongs to someone else and
is refused, `--force` or not, so `--out .` in a project can never touch `.git` or a source file. A
file the user added to a bundle directory stays. Refusing rather than merging was chosen because a
name clash (the user's own `design.json`) cannot be told from clustergen's without the manifest,
and a design tool must never be the thing that deleted someone's work.

How a write stays all-or-none without a moment where DIR is missing:

- a new DIR is built as a hidden sibling (`.DIR.clustergen-staging.*`) and renamed into place;
- an existing DIR is never moved: the new files are written and synced in a hidden staging
  directory inside it, each old file is hard-linked into the staging directory's `old/`, then each
  new file is renamed over its old one (atomic per file); the manifest first names old and new
  files together, last the new ones. On any failure or interrupt every step is undone from `old/`.
- a run killed outright leaves its staging directory; the next run finds it (its process is gone),
  puts back the old files it kept unless it had finished, and removes it.

Symlinks are never followed to write or delete: DIR itself, any directory on the way to a file,
and the files replaced are taken as what they are (a link is replaced, never its target). Files
and directories are created with the user's umask, like any other program's.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import secrets
import shutil
import socket
import stat
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from clustergen import __version__
from clustergen.errors import OutputError
from clustergen.untrusted import file_kind

MANIFEST = ".clustergen-bundle"
#: suffixes that name a file, never a new bundle directory (the bundle's own and a proposal's)
FILE_SUFFIXES = frozenset(
    {".xlsx", ".xls", ".csv", ".json", ".md", ".pdf", ".docx", ".png", ".svg", ".yaml", ".txt"}
)
_STAGING = ".clustergen-staging"
_COMMITTED = "committed"
#: errors of a file system that cannot hard-link: the old file is copied instead
_NO_HARD_LINKS = {
    errno.EPERM,
    errno.EXDEV,
    errno.EMLINK,
    errno.ENOSYS,
    errno.ENOTSUP,
    errno.EOPNOTSUPP,
}
#: a staging directory of another host (a shared disk) is stale once this old
_FOREIGN_STALE_S = 24 * 3600


@dataclass
class _Target:
    """What is at DIR now: nothing (new), or a directory clustergen wrote (its bundle's files)."""

    out: Path
    new: bool
    old_files: list[str] = field(default_factory=list)


def check_bundle_target(out: Path, force: bool) -> None:
    """Refuse an --out DIR that write_bundle would refuse, before any work is done."""
    _target(out, force)


def write_bundle(files: Mapping[str, str | bytes], out: Path, force: bool) -> list[Path]:
    """Write a design's files into DIR: all or none, only clustergen's own files replaced, and
    DIR never missing. An existing bundle is replaced only with --force. Returns the paths."""
    names = [_safe_name(n) for n in files]
    if len(set(names)) != len(names):
        raise ValueError("a bundle names the same file twice")
    data = {name: _bytes(content) for name, content in files.items()}
    with _writer_lock(Path(os.path.abspath(out))):
        _clean_stale(Path(os.path.abspath(out)))
        target = _target(out, force)
        if target.new:
            _write_new(target.out, data)
        else:
            _replace(target, data)
    return [target.out / n for n in files]


@contextlib.contextmanager
def _writer_lock(out: Path) -> Iterator[None]:
    """One writer at a time in an existing DIR: two `--force` runs replacing the same bundle
    would otherwise interleave their renames and leave files of both. The lock is flock(2) on DIR
    itself (no lock file to leave behind, released by the kernel when a run dies, even by kill -9);
    the second writer is refused at once rather than made to wait. A new DIR needs none: it is
    renamed into place whole, and a second writer's rename then fails."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no flock; one writer is the user's care
        yield
        return
    try:
        fd = os.open(out, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:
        yield  # missing (a new DIR) or not a directory: _target says which, in one line
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise OutputError(
                f"another clustergen run is writing {out} right now; nothing was written",
                hint="wait for it to finish, or give another --out",
            ) from None
        except OSError:
            pass  # a file system without locks (some network mounts): write unlocked
        yield
    finally:
        os.close(fd)


# ---------------------------------------------------------------- what DIR is


def _target(out: Path, force: bool) -> _Target:
    # Absolute but not resolved: a symlink at DIR must be seen, not followed.
    out = Path(os.path.abspath(out))
    try:
        st = os.lstat(out)
    except FileNotFoundError:
        _need_parent_dir(out)
        if out.suffix.lower() in FILE_SUFFIXES:
            # `--out proposal.xlsx` meant a file: a directory of that name is not what was asked
            raise OutputError(
                f"--out {out.name} names a file, but --out takes a directory for the bundle "
                "(design.json, memo.md, bom.xlsx, ...)",
                hint=f"give a directory, e.g. --out {out.with_suffix('').name}",
            ) from None
        return _Target(out, new=True)
    except OSError as exc:
        raise OutputError(f"cannot use --out {out}: {exc.strerror or exc}") from None
    if stat.S_ISLNK(st.st_mode):
        raise OutputError(
            f"--out {out} is a symbolic link; clustergen never writes or deletes through one",
            hint="give the directory itself",
        )
    if not stat.S_ISDIR(st.st_mode):
        raise OutputError(f"--out {out} exists and is {file_kind(st.st_mode)}, not a directory")
    entries = [e for e in _listdir(out) if not e.startswith(_STAGING)]
    if not entries:
        return _Target(out, new=False)
    if MANIFEST not in entries:
        raise OutputError(
            f"--out {out} is not empty and holds no clustergen bundle; clustergen replaces only "
            "files it wrote",
            hint="give a new or empty directory",
        )
    old = _read_manifest(out)
    if not force:
        raise OutputError(
            f"{out} already exists", hint="pass --force to replace it, or pick another --out"
        )
    return _Target(out, new=False, old_files=old)


def _need_parent_dir(out: Path) -> None:
    try:
        mode = os.stat(out.parent).st_mode
    except FileNotFoundError:
        raise OutputError(f"parent directory {out.parent} does not exist") from None
    except OSError as exc:
        raise OutputError(f"cannot use {out.parent}: {exc.strerror or exc}") from None
    if not stat.S_ISDIR(mode):
        raise OutputError(f"{out.parent} is not a directory")


def _listdir(path: Path) -> list[str]:
    try:
        return os.listdir(path)
    except OSError as exc:
        raise OutputError(f"cannot read --out {path}: {exc.strerror or exc}") from None


def _read_manifest(out: Path) -> list[str]:
    """The files the bundle in `out` holds, from its manifest (a regular file of safe names)."""
    path = out / MANIFEST
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            raise ValueError("not a regular file")
        with open(path, "rb") as fh:
            data = json.loads(fh.read(1 << 20))
        names = data["files"]
        if not isinstance(names, list):
            raise ValueError("no list of files")
        return [_safe_name(n) for n in names]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise OutputError(
            f"{path} is damaged ({exc}); clustergen cannot tell which files are its own",
            hint="remove the directory yourself, or give another --out",
        ) from None


def _safe_name(name: object) -> str:
    """A bundle file name: a relative path inside DIR that is not clustergen's bookkeeping."""
    if not isinstance(name, str) or not name or "\\" in name or "\0" in name:
        raise ValueError(f"bad bundle file name {name!r}")
    parts = PurePosixPath(name).parts
    if (
        PurePosixPath(name).is_absolute()
        or any(p in ("", ".", "..") for p in parts)
        or parts[0].startswith((MANIFEST, _STAGING))
    ):
        raise ValueError(f"bad bundle file name {name!r}")
    return name


def _bytes(content: str | bytes) -> bytes:
    return content.encode("utf-8") if isinstance(content, str) else bytes(content)


# ---------------------------------------------------------------- stale staging


def _staging_name(prefix: str) -> str:
    host = socket.gethostname().replace(".", "_") or "host"
    return f"{prefix}{_STAGING}.{host}.{os.getpid()}.{secrets.token_hex(4)}"


def _stale(path: Path, name: str) -> bool:
    """Whether a staging directory's run is over: its process is gone (same host), or it is a
    day old (another host's, on a shared disk)."""
    try:
        host, pid, _ = name.rsplit(".", 3)[-3:]
        st = os.lstat(path)
    except (ValueError, OSError):
        return False
    if not stat.S_ISDIR(st.st_mode):
        return False
    if host != (socket.gethostname().replace(".", "_") or "host") or os.name == "nt":
        return time.time() - st.st_mtime > _FOREIGN_STALE_S
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except (OSError, ValueError):
        return False
    return False


def _clean_stale(out: Path) -> None:
    """Remove what killed runs left: sibling staging of a new DIR, and staging inside DIR (whose
    kept old files go back first, unless that run had finished)."""
    prefix = f".{out.name}{_STAGING}."
    with contextlib.suppress(OSError):
        for name in os.listdir(out.parent):
            if name.startswith(prefix) and _stale(out.parent / name, name):
                shutil.rmtree(out.parent / name, ignore_errors=True)
    if not os.path.isdir(out) or os.path.islink(out):
        return
    for name in _listdir(out):
        staging = out / name
        if name.startswith(_STAGING + ".") and _stale(staging, name):
            if not os.path.lexists(staging / _COMMITTED):
                _restore_kept(out, staging / "old")
            shutil.rmtree(staging, ignore_errors=True)


def _restore_kept(out: Path, old: Path) -> None:
    """Put back every file a killed run kept in `old/` (the run did not finish)."""
    for rel in _files_under(old):
        with contextlib.suppress(OSError, ValueError, OutputError):
            _safe_name(rel)
            _real_dirs(out, rel)
            os.replace(old / rel, out / rel)


def _files_under(root: Path) -> Iterator[str]:
    for dirpath, _dirs, files in os.walk(root):
        for f in files:
            yield Path(dirpath, f).relative_to(root).as_posix()


# ---------------------------------------------------------------- a new DIR


def _write_new(out: Path, data: dict[str, bytes]) -> None:
    parent = out.parent
    staging = parent / _staging_name(f".{out.name}")
    renamed = False
    try:
        os.mkdir(staging, 0o777)  # the umask decides: DIR gets the user's normal permissions
        _write_files(staging, {**data, MANIFEST: _manifest(list(data))})
        os.rename(staging, out)
        renamed = True
        _fsync_dir(parent)
    except BaseException as exc:
        # From what is on disk: an interrupt can land after the rename did its work.
        if renamed or (not os.path.lexists(staging) and os.path.isdir(out)):
            _remove_written(out, [*data, MANIFEST])
        else:
            shutil.rmtree(staging, ignore_errors=True)
        if isinstance(exc, OSError) and exc.errno in (errno.ENOTEMPTY, errno.EEXIST):
            raise OutputError(
                f"cannot write {out}: another run created it meanwhile; nothing was written",
                hint="run again with --force to replace it, or give another --out",
            ) from None
        if isinstance(exc, OSError):
            raise OutputError(f"cannot write {out}: {exc.strerror or exc}") from None
        raise


def _remove_written(out: Path, names: list[str]) -> None:
    """Undo a new DIR that was already in place: the files written, then the empty directories
    (anything someone else put there meanwhile stays)."""
    for name in names:
        with contextlib.suppress(OSError):
            os.unlink(out / name)
    dirs = sorted({str(PurePosixPath(n).parent) for n in names} - {"."}, key=len, reverse=True)
    for d in [*dirs, "."]:
        with contextlib.suppress(OSError):
            os.rmdir(out / d)


# ---------------------------------------------------------------- an existing DIR


@dataclass
class _Swap:
    """The steps done so far, to undo in reverse."""

    out: Path
    old: Path
    replaced: list[tuple[str, bool]] = field(default_factory=list)  # (name, had an old file)
    made_dirs: list[Path] = field(default_factory=list)

    def undo(self) -> None:
        for name, had_old in reversed(self.replaced):
            if had_old:
                os.replace(self.old / name, self.out / name)
            else:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(self.out / name)
        for d in reversed(self.made_dirs):
            with contextlib.suppress(OSError):
                os.rmdir(d)


def _replace(target: _Target, data: dict[str, bytes]) -> None:
    out = target.out
    stale = [n for n in target.old_files if n not in data]
    for name in [*data, *stale]:
        _real_dirs(out, name, may_be_missing=True)
    staging = out / _staging_name("")
    swap = _Swap(out, staging / "old")
    try:
        os.mkdir(staging, 0o700)
        os.mkdir(swap.old, 0o700)
        _write_files(staging / "new", data, mkdir=True)
        _write_files(
            staging / "union",
            {MANIFEST: _manifest([*data, *stale]), "final": _manifest(list(data))},
            mkdir=True,
        )
        # While files move, the manifest names old and new: whatever happens, every file of
        # clustergen's in DIR is listed, so a later run can replace it.
        _put(swap, MANIFEST, staging / "union" / MANIFEST)
        for name in data:
            _put(swap, name, staging / "new" / name)
        for name in stale:
            _drop(swap, name)
        os.replace(staging / "union" / "final", out / MANIFEST)
        _fsync_dir(out)
        _write_files(staging, {_COMMITTED: b""})
    except BaseException as exc:
        try:
            swap.undo()
        except OSError as undo:
            raise OutputError(
                f"cannot restore {out} after a failed write ({undo.strerror or undo}); the "
                f"previous files are in {swap.old}"
            ) from None
        shutil.rmtree(staging, ignore_errors=True)
        if isinstance(exc, OSError):
            raise OutputError(f"cannot write {out}: {exc.strerror or exc}") from None
        raise
    shutil.rmtree(staging, ignore_errors=True)


def _put(swap: _Swap, name: str, new: Path) -> None:
    """Rename `new` over DIR/name (atomic), keeping any old file in `old/` first."""
    target = swap.out / name
    for d in _missing_dirs(swap.out, name):
        swap.made_dirs.append(d)  # first: an interrupt may land after mkdir did its work
        os.mkdir(d, 0o777)
    had_old = _keep(target, swap.old / name)
    swap.replaced.append((name, had_old))  # before the rename: undo copes with either state
    os.replace(new, target)


def _drop(swap: _Swap, name: str) -> None:
    """Remove a file of the previous bundle the new one does not have, keeping it in `old/`."""
    target = swap.out / name
    if _keep(target, swap.old / name):
        swap.replaced.append((name, True))
        os.unlink(target)


def _keep(target: Path, backup: Path) -> bool:
    """Keep what is at `target` (a file or a symlink, never followed) at `backup`; False when
    there is nothing there."""
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        return False
    backup.parent.mkdir(parents=True, exist_ok=True)
    if stat.S_ISLNK(st.st_mode):
        os.symlink(os.readlink(target), backup)
    elif stat.S_ISREG(st.st_mode):
        try:
            os.link(target, backup, follow_symlinks=False)
        except OSError as exc:
            if exc.errno not in _NO_HARD_LINKS or os.path.lexists(backup):
                raise
            shutil.copy2(target, backup, follow_symlinks=False)  # a file system without them
    else:
        raise OutputError(
            f"{target} is {file_kind(st.st_mode)}, not a file clustergen wrote; "
            "clustergen will not replace it"
        )
    return True


def _real_dirs(out: Path, name: str, *, may_be_missing: bool = False) -> None:
    """Every directory between DIR and DIR/name is a real directory, not a symlink (which would
    send a write or a delete elsewhere)."""
    here = out
    for part in PurePosixPath(name).parts[:-1]:
        here = here / part
        try:
            st = os.lstat(here)
        except FileNotFoundError:
            if may_be_missing:
                return
            raise OutputError(f"{here} does not exist") from None
        if not stat.S_ISDIR(st.st_mode):
            raise OutputError(
                f"{here} is {'a symbolic link' if stat.S_ISLNK(st.st_mode) else 'not a directory'}"
                "; clustergen never writes or deletes through one"
            )


def _missing_dirs(out: Path, name: str) -> list[Path]:
    here, missing = out, []
    for part in PurePosixPath(name).parts[:-1]:
        here = here / part
        if not os.path.lexists(here):
            missing.append(here)
    return missing


# ---------------------------------------------------------------- files


def _manifest(names: list[str]) -> bytes:
    return (
        json.dumps(
            {"written_by": f"clustergen {__version__}", "files": sorted(names)}, indent=1
        ).encode()
        + b"\n"
    )


def _write_files(root: Path, data: Mapping[str, bytes], *, mkdir: bool = False) -> None:
    """Write and sync each file under `root` (made if asked), with the umask's permissions."""
    if mkdir:
        os.mkdir(root, 0o700)
    for name, content in data.items():
        path = root / name
        for d in _missing_dirs(root, name):
            os.mkdir(d, 0o777)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
        try:
            view = memoryview(content)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
    _fsync_dir(root)


def _fsync_dir(path: Path) -> None:
    """Make a directory's entries durable (a no-op where directories cannot be opened)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)
