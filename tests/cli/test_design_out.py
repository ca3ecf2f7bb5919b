"""`design --out DIR` writes every file or none, and only clustergen's own: an interrupt or a
failed write leaves DIR (and its parent) as they were; a directory clustergen did not write, a
symlink or a dangling link is refused before any work. (Every step's faults: test_bundle.py.)"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest

import clustergen.engine.report.bundle as report_bundle
from clustergen.cli.bundle import MANIFEST
from clustergen.engine.report.bundle import CONTENTS

from .conftest import Cli

REQUEST = ("design", "64 GPUs training", "--offline")


def snapshot(root: Path) -> dict[str, bytes | str | None]:
    """Every path under root with its bytes (a link's target; None for a directory)."""
    out: dict[str, bytes | str | None] = {}
    for p in sorted(root.rglob("*")):
        rel = str(p.relative_to(root))
        if p.is_symlink():
            out[rel] = os.readlink(p)
        else:
            out[rel] = None if p.is_dir() else p.read_bytes()
    return out


@pytest.fixture
def old_dir(cli: Cli, tmp_path: Path) -> Path:
    """A bundle clustergen wrote, with a file the user added."""
    out = tmp_path / "out"
    code, _, err = cli("design", "32 GPUs training", "--offline", "--out", str(out))
    assert code == 0, err
    (out / "notes.txt").write_text("kept by the user\n")
    return out


def _fail_on_call(
    monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, exc: BaseException
) -> None:
    def fail(*_a: Any, **_k: Any) -> Any:
        raise exc

    monkeypatch.setattr(owner, name, fail)


@pytest.mark.parametrize(
    ("fault", "code", "says"),
    [
        ("interrupt", 130, ""),
        ("disk full", 2, "Error: cannot write"),
    ],
)
@pytest.mark.parametrize("force", [False, True])
def test_a_failed_write_leaves_everything_as_it_was(
    cli: Cli,
    tmp_path: Path,
    old_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    fault: str,
    code: int,
    says: str,
    force: bool,
) -> None:
    out = old_dir if force else tmp_path / "new"
    before = snapshot(tmp_path)
    exc = (
        KeyboardInterrupt()
        if fault == "interrupt"
        else OSError(errno.ENOSPC, "No space left on device")
    )
    _fail_on_call(monkeypatch, os, "fsync", exc)
    got, _, err = cli(*REQUEST, "--out", str(out), *(["--force"] if force else []))
    assert got == code
    assert says in err
    assert "Traceback" not in err
    assert snapshot(tmp_path) == before


def test_an_interrupt_while_rendering_leaves_nothing(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(_: object) -> str:
        raise KeyboardInterrupt

    monkeypatch.setitem(report_bundle.RENDERERS, "memo.md", interrupted)
    code, _, _ = cli(*REQUEST, "--out", str(tmp_path / "out"))
    assert code == 130
    assert list(tmp_path.iterdir()) == []


def test_force_replaces_clustergens_files_and_keeps_the_users(cli: Cli, old_dir: Path) -> None:
    code, out, err = cli(*REQUEST, "--out", str(old_dir), "--force")
    assert code == 0, err
    assert sorted(p.name for p in old_dir.iterdir()) == sorted([MANIFEST, *CONTENTS, "notes.txt"])
    assert b'"gpus": 64' in (old_dir / "design.json").read_bytes()
    assert (old_dir / "notes.txt").read_text() == "kept by the user\n"
    assert f"wrote {', '.join(CONTENTS)} in {old_dir}" in out


def test_an_existing_bundle_without_force_is_refused_untouched(
    cli: Cli, tmp_path: Path, old_dir: Path
) -> None:
    before = snapshot(tmp_path)
    code, _, err = cli(*REQUEST, "--out", str(old_dir))
    assert code == 2
    assert "already exists; pass --force" in err
    assert snapshot(tmp_path) == before


def test_out_dot_force_in_a_project_touches_nothing(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The issue's example: `cd myproject && clustergen design "64 GPUs" --out . --force` deleted
    .git and the sources."""
    (tmp_path / ".git" / "objects").mkdir(parents=True)
    (tmp_path / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (tmp_path / "src.py").write_text("print('mine')\n")
    before = snapshot(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, out, err = cli("design", "64 GPUs", "--offline", "--out", ".", "--force")
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert "is not empty and holds no clustergen bundle" in err
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("dangling", [False, True])
def test_a_symlinked_out_is_refused_and_its_target_untouched(
    cli: Cli, tmp_path: Path, old_dir: Path, dangling: bool
) -> None:
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "nowhere" if dangling else old_dir)
    before = snapshot(tmp_path)
    code, _, err = cli(*REQUEST, "--out", str(link), "--force")
    assert code == 2
    assert "is a symbolic link" in err
    assert snapshot(tmp_path) == before
    assert not (tmp_path / "nowhere").exists()


def test_a_new_dir_has_the_users_normal_permissions(cli: Cli, tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        code, _, err = cli(*REQUEST, "--out", str(tmp_path / "out"))
    finally:
        os.umask(old)
    assert code == 0, err
    assert (tmp_path / "out").stat().st_mode & 0o777 == 0o755  # not 0700
    assert (tmp_path / "out" / "design.json").stat().st_mode & 0o777 == 0o644


def test_a_refused_out_fails_before_any_work(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "x").write_text("x")
    import clustergen.engine.search.planner as planner

    _fail_on_call(monkeypatch, planner, "plan_design", AssertionError("designed anyway"))
    code, _, err = cli(*REQUEST, "--out", str(tmp_path / "taken"))
    assert code == 2
    assert "holds no clustergen bundle" in err


def test_out_naming_a_file_is_refused_before_any_work(tmp_path: Path) -> None:
    """`--out proposal.xlsx` created a directory called proposal.xlsx: a name with a file's
    suffix is refused in one line, naming the directory to give instead."""
    from clustergen.cli.bundle import check_bundle_target
    from clustergen.errors import OutputError

    with pytest.raises(OutputError, match=r"--out proposal\.xlsx names a file") as err:
        check_bundle_target(tmp_path / "proposal.xlsx", force=False)
    assert "--out proposal" in (err.value.hint or "")
    assert not (tmp_path / "proposal.xlsx").exists()
    check_bundle_target(tmp_path / "proposal", force=False)  # a directory name is fine


def test_out_naming_a_file_is_one_line_through_the_cli(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The command itself: one `Error:` line, a non-zero exit, nothing created."""
    code, out, err = cli(*REQUEST, "--out", str(tmp_path / "proposal.xlsx"))
    assert code == 2
    assert err.startswith("Error: --out proposal.xlsx names a file")
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err
    assert not (tmp_path / "proposal.xlsx").exists()
    assert out == ""


def test_an_error_drawing_a_picture_is_one_line_and_leaves_nothing(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pictures are drawn by a worker process (Linux): its error is the same one line."""
    from clustergen.errors import OutputError

    def broken(_: object) -> bytes:
        raise OutputError("cannot draw the racks")

    monkeypatch.setitem(report_bundle.RENDERERS, "racks.png", broken)
    code, _, err = cli(*REQUEST, "--out", str(tmp_path / "out"))
    assert code == 2
    assert err.strip().splitlines()[0] == "Error: cannot draw the racks"
    assert list(tmp_path.iterdir()) == []
