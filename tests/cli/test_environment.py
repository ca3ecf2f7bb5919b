"""A hostile environment ends in one line and a non-zero exit, never a traceback or a mixed
bundle: a PUE that is not a finite number, a standard output on a full disk, an output directory on
a read-only file system (checked before the work), and two writers replacing one bundle at once."""

from __future__ import annotations

import errno
import os
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest

import clustergen.cli.bundle as bundle
from clustergen.cli.bundle import MANIFEST, write_bundle
from clustergen.errors import OutputError

from .conftest import Cli


@pytest.mark.parametrize("pue", ["nan", "inf", "-inf", "1e400", "0.5", "4"])
@pytest.mark.parametrize("facility", [False, True])
@pytest.mark.parametrize("json_flag", [False, True])
def test_power_refuses_a_pue_that_is_not_a_finite_plausible_number(
    cli: Cli, pue: str, facility: bool, json_flag: bool
) -> None:
    flags = [*(["--facility"] if facility else []), *(["--json"] if json_flag else [])]
    code, out, err = cli("power", "--platform", "dgx-h100", "--cap-mw", "5", "--pue", pue, *flags)
    assert code == 2, (out, err)
    assert "Traceback" not in err
    said = out if json_flag else err
    assert "PUE must be a finite number at least 1 and at most 3" in said


class _FullDisk:
    """A standard stream on a full disk: every write fails with ENOSPC (as `> /dev/full` does)."""

    encoding = "utf-8"

    def write(self, _text: str) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def flush(self) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def isatty(self) -> bool:
        return False


@pytest.mark.parametrize(
    "args",
    [
        ("design", "64 GPUs training", "--offline"),
        ("design", "64 GPUs training", "--offline", "--json"),
        ("fabric", "--platform", "dgx-h100", "--nodes", "32"),
        ("ra", "list", "--json"),
    ],
)
def test_standard_output_on_a_full_disk_is_one_line(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...]
) -> None:
    monkeypatch.setattr("sys.stdout", _FullDisk())
    code, _, err = cli(*args)
    assert code == 2
    assert err.strip().splitlines() == ["Error: cannot write the output: No space left on device"]


def test_a_full_disk_on_both_streams_still_exits_quietly(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdout", _FullDisk())
    monkeypatch.setattr("sys.stderr", _FullDisk())
    code, _, _ = cli("ra", "list")
    assert code == 2


@pytest.fixture
def read_only(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A directory on what acts as a read-only file system: creating any file in it fails with
    EROFS (root ignores permission bits, so a chmod would prove nothing)."""
    ro = tmp_path / "ro"
    ro.mkdir()
    real = tempfile.mkstemp

    def mkstemp(*args: Any, **kwargs: Any) -> tuple[int, str]:
        if Path(str(kwargs.get("dir", ""))).absolute().is_relative_to(ro):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS))
        return real(*args, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    return ro


@pytest.mark.parametrize(
    ("flag", "name"), [("--report", "r.md"), ("--record", "rec"), ("--record", ".")]
)
def test_eval_outputs_on_a_read_only_file_system_fail_before_the_work(
    cli: Cli, read_only: Path, monkeypatch: pytest.MonkeyPatch, flag: str, name: str
) -> None:
    import clustergen.evals as evals

    def no_work(*_a: Any, **_k: Any) -> Any:
        raise AssertionError("the cases ran before the output was checked")

    monkeypatch.setattr(evals, "evaluate", no_work)
    code, out, err = cli("eval", "--case", "storage-good-1su", flag, str(read_only / name))
    assert code == 2, (out, err)
    assert err.startswith(f"Error: cannot write {flag} ")
    assert "Read-only file system" in err
    assert "Traceback" not in err


def test_design_trace_on_a_read_only_file_system_fails_before_the_work(
    cli: Cli, read_only: Path
) -> None:
    code, _, err = cli("design", "64 GPUs", "--offline", "--trace", str(read_only / "t.jsonl"))
    assert code == 2
    assert err == f"Error: cannot write --trace {read_only / 't.jsonl'}: Read-only file system\n"


def test_eval_report_that_fails_to_write_after_the_work_is_one_line(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file system turns read-only during the run: the report's write, and removing its
    temporary file (EROFS even for a file that is not there), fail: one line, no traceback."""
    import pathlib

    real_open = open

    def refuse(path: Any, *args: Any, **kwargs: Any) -> Any:
        if str(path).endswith(".tmp"):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS))
        return real_open(path, *args, **kwargs)

    def unlink(self: Path, missing_ok: bool = False) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr("builtins.open", refuse)
    monkeypatch.setattr(pathlib.Path, "unlink", unlink)
    code, _, err = cli("eval", "--case", "storage-good-1su", "--report", str(tmp_path / "r.md"))
    assert code == 2
    assert "Error: cannot write" in err
    assert "Traceback" not in err


def _files(n: int) -> dict[str, str | bytes]:
    return {"design.json": f'{{"run": {n}}}\n', "memo.md": f"run {n}\n", "bom.csv": f"{n}\n"}


def test_a_second_writer_of_one_bundle_is_refused_while_the_first_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Writer 1 stops between two of its renames; writer 2 (--force, same DIR) is refused in one
    line and writes nothing; writer 1 then finishes: every file is writer 1's."""
    out = tmp_path / "out"
    write_bundle(_files(0), out, force=False)
    halfway, go_on = threading.Event(), threading.Event()
    real_put = bundle._put
    mine = threading.get_ident

    first: list[int] = []

    def slow_put(swap: Any, name: str, new: Path) -> None:
        real_put(swap, name, new)
        if name == "design.json" and first and first[0] == mine():
            halfway.set()
            assert go_on.wait(10)

    monkeypatch.setattr(bundle, "_put", slow_put)
    errors: list[BaseException] = []

    def writer_one() -> None:
        first.append(mine())
        try:
            write_bundle(_files(1), out, force=True)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    t = threading.Thread(target=writer_one)
    t.start()
    assert halfway.wait(10)
    with pytest.raises(OutputError, match="another clustergen run is writing"):
        write_bundle(_files(2), out, force=True)
    go_on.set()
    t.join(10)
    assert not errors
    assert {p.name: p.read_text() for p in out.iterdir() if p.name != MANIFEST} == {
        k: str(v) for k, v in _files(1).items()
    }


def test_design_refuses_a_bundle_another_process_is_writing(cli: Cli, tmp_path: Path) -> None:
    import fcntl

    out = tmp_path / "out"
    assert cli("design", "32 GPUs", "--offline", "--out", str(out))[0] == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    fd = os.open(out, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a running writer holds it
        code, _, err = cli("design", "64 GPUs", "--offline", "--out", str(out), "--force")
    finally:
        os.close(fd)
    assert code == 2
    assert err.startswith(f"Error: another clustergen run is writing {out} right now")
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    code, _, err = cli("design", "64 GPUs", "--offline", "--out", str(out), "--force")
    assert code == 0, err


def test_a_new_bundle_created_meanwhile_by_another_run_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    real_rename = os.rename

    raced: list[bool] = []

    def racing_rename(src: Any, dst: Any) -> None:
        if Path(dst) == out and not raced:
            raced.append(True)
            write_bundle(_files(9), out, force=False)  # the other run gets there first
        real_rename(src, dst)

    monkeypatch.setattr(os, "rename", racing_rename)
    with pytest.raises(OutputError, match="another run created it meanwhile"):
        write_bundle(_files(1), out, force=False)
    assert (out / "memo.md").read_text() == "run 9\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
