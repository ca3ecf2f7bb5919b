"""`clustergen storage analyze|targets`: the seed stories through the CLI, errors, --plot."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from clustergen.cli.app import main

STORY1 = [
    "storage", "analyze", "--gpus", "128", "--ingest-mb-per-s", "80", "--sample-mb", "0.2",
    "--workers", "1", "--pattern", "random-small", "--layout", "one-file-per-sample",
    "--system", "parallel-fs", "--targets", "24",
]  # fmt: skip
STORY2 = [
    "storage", "analyze", "--gpus", "4096", "--ingest-mb-per-s", "80", "--sample-mb", "0.2",
    "--workers", "8", "--pattern", "sequential", "--layout", "one-file-per-sample",
    "--targets", "48", "--metadata-servers", "1",
]  # fmt: skip


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = 0
    try:
        main(list(args))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_story1_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *STORY1, "--json")
    d = json.loads(out)
    assert code == 0
    assert d["io_bound"] is True
    assert d["gpu_utilisation"] == pytest.approx(0.125)
    assert d["binding_limit"] == "data_loader"
    assert d["supply_read_gb_per_s"] == pytest.approx(672)
    assert d["storage_busy_fraction"] < 0.01
    assert any("shards" in f["action"] for f in d["fixes"])


def test_story2_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *STORY2)
    assert code == 0
    assert "metadata" in out
    assert "4,915,200" in out
    assert "add 98 metadata servers" in out
    assert "pack into >= 100 MB shards" in out


def test_story2_fixed_by_shards(capsys: pytest.CaptureFixture[str]) -> None:
    args = [a if a != "one-file-per-sample" else "shards" for a in STORY2]
    code, out, _ = run(capsys, *args, "--json")
    d = json.loads(out)
    assert code == 0
    assert d["binding_limit"] is None
    assert d["gpu_utilisation"] == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--gpus", "-4", "--ingest-mb-per-s", "80", "--targets", "4"], "gpus"),
        (["--gpus", "8", "--ingest-mb-per-s", "80", "--targets", "-1"], "storage_targets"),
        (["--gpus", "8", "--ingest-mb-per-s", "80", "--workers", "0", "--targets", "2"], "workers"),
        (["--gpus", "8", "--targets", "4"], "ingest is unknown"),
        (["--gpus", "8", "--ingest-mb-per-s", "80"], "storage targets"),
        (
            ["--gpus", "8", "--ingest-mb-per-s", "80", "--targets", "2", "--system", "tape"],
            "system",
        ),
    ],
)
def test_bad_inputs_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run(capsys, "storage", "analyze", *args)
    assert code == 2
    assert out == ""
    assert err.startswith("Error: ")
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_bad_input_with_json_is_a_json_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "storage", "analyze", "--gpus", "0", "--targets", "2", "--json")
    assert code == 2
    assert json.loads(out)["error"]["type"] == "request_error"


def test_plot_without_matplotlib_says_how_to_get_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, _, err = run(capsys, *STORY1, "--plot", str(tmp_path / "s.png"))
    assert code == 2
    assert "uv sync --extra plot" in err


def test_plot_into_a_missing_directory(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, *STORY1, "--plot", str(tmp_path / "nope" / "s.png"))
    assert code == 2
    assert "does not exist" in err


def test_plot_draws_demand_and_supply(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "storage.png"
    code, out, _ = run(capsys, *STORY2, "--plot", str(target), "--json")
    assert code == 0
    assert json.loads(out)["plot"] == str(target)
    assert target.stat().st_size > 1000


def test_targets_reproduce_table6(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "storage",
        "targets",
        "--tier",
        "best",
        "--nodes",
        "128",
        "--su-nodes",
        "32",
        "--json",
    )
    d = json.loads(out)
    assert code == 0
    assert (d["read_gb_per_s"], d["write_gb_per_s"]) == (500, 250)


def test_targets_unknown_tier(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "storage", "targets", "--tier", "platinum", "--nodes", "8")
    assert code != 0
    assert "unknown storage tier 'platinum'" in err
