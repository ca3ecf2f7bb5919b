"""`clustergen storage analyze|targets`: the seed stories through the CLI, errors, --plot."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

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


def test_story1_json(cli: Callable[..., tuple[int, str, str]]) -> None:
    code, out, _ = cli(*STORY1, "--json")
    d = json.loads(out)
    assert code == 0
    assert d["io_bound"] is True
    assert d["gpu_utilisation"] == pytest.approx(0.125)
    assert d["binding_limit"] == "data_loader"
    assert d["supply_read_gb_per_s"] == pytest.approx(672)
    assert d["storage_busy_fraction"] < 0.01
    assert any("shards" in f["action"] for f in d["fixes"])


def test_story2_table(cli: Callable[..., tuple[int, str, str]]) -> None:
    code, out, _ = cli(*STORY2)
    assert code == 0
    assert "metadata" in out
    assert "4,915,200" in out
    assert "add 98 metadata servers" in out
    assert "pack into >= 100 MB shards" in out


def test_story2_fixed_by_shards(cli: Callable[..., tuple[int, str, str]]) -> None:
    args = [a if a != "one-file-per-sample" else "shards" for a in STORY2]
    code, out, _ = cli(*args, "--json")
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
    cli: Callable[..., tuple[int, str, str]], args: list[str], message: str
) -> None:
    code, out, err = cli("storage", "analyze", *args)
    assert code == 2
    assert out == ""
    assert err.startswith("Error: ")
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_bad_input_with_json_is_a_json_error(cli: Callable[..., tuple[int, str, str]]) -> None:
    code, out, _ = cli("storage", "analyze", "--gpus", "0", "--targets", "2", "--json")
    assert code == 2
    assert json.loads(out)["error"]["type"] == "request_error"


def test_plot_without_matplotlib_says_how_to_get_it(
    cli: Callable[..., tuple[int, str, str]], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, _, err = cli(*STORY1, "--plot", str(tmp_path / "s.png"))
    assert code == 2
    assert "uv sync" in err


def test_plot_into_a_missing_directory(
    cli: Callable[..., tuple[int, str, str]], tmp_path: Path
) -> None:
    code, _, err = cli(*STORY1, "--plot", str(tmp_path / "nope" / "s.png"))
    assert code == 2
    assert "does not exist" in err


def test_plot_draws_demand_and_supply(
    cli: Callable[..., tuple[int, str, str]], tmp_path: Path
) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "storage.png"
    code, out, _ = cli(*STORY2, "--plot", str(target), "--json")
    assert code == 0
    assert json.loads(out)["plot"] == str(target)
    assert target.stat().st_size > 1000


def test_targets_reproduce_table6(cli: Callable[..., tuple[int, str, str]]) -> None:
    code, out, _ = cli(
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


def test_targets_unknown_tier(cli: Callable[..., tuple[int, str, str]]) -> None:
    code, _, err = cli("storage", "targets", "--tier", "platinum", "--nodes", "8")
    assert code != 0
    assert "unknown storage tier 'platinum'" in err


@pytest.mark.parametrize(
    ("flag", "value"),
    [
        ("--sample-mb", "5e-324"),
        ("--sample-mb", "nan"),
        ("--samples-per-s", "inf"),
        ("--read-gb-per-s", "1e308"),
        ("--checkpoint-gb", "-1"),
    ],
)
def test_analyze_refuses_numbers_past_the_physical_range_in_one_line(
    cli: Callable[..., tuple[int, str, str]], flag: str, value: str
) -> None:
    """The issue's example: --sample-mb 5e-324 raised OverflowError."""
    args = ["storage", "analyze", "--gpus", "64", "--samples-per-s", "10", "--targets", "24"]
    code, out, err = cli(*args, "--layout", "one-file-per-sample", flag, value)
    assert code == 2, (out, err)
    assert "Traceback" not in err
    assert err.count("\n") == 1
    assert flag.strip("-").replace("-", "_").split("_")[0] in err


def test_targets_with_an_su_far_larger_than_the_fleet(
    cli: Callable[..., tuple[int, str, str]],
) -> None:
    """The issue's example: --su-nodes 100000 --nodes 1000 answered 4.11 GB/s, ~100x too low."""
    code, out, err = cli(
        "storage", "targets", "--tier", "good", "--su-nodes", "100000", "--nodes", "1000", "--json"
    )
    assert code == 0, err
    assert json.loads(out)["read_gb_per_s"] == 468.75


def test_set_gives_any_workload_field_and_an_option_left_out_keeps_the_model_default(
    cli: Callable[..., tuple[int, str, str]],
) -> None:
    base = ["storage", "analyze", "--gpus", "64", "--samples-per-s", "10", "--sample-mb", "1"]
    base += ["--targets", "4"]
    code, out, err = cli(*base, "--set", "workers_per_gpu=8", "--set", "prefixes=64", "--json")
    assert code == 0, err
    w = json.loads(out)["workload"]
    assert (w["workers_per_gpu"], w["prefixes"], w["metadata_servers"]) == (8, 64, 1)
    code, _, err = cli(*base, "--workers", "2", "--set", "workers_per_gpu=8")
    assert code == 2
    assert "both give workers_per_gpu" in err
    code, _, err = cli(*base, "--set", "prefix=64")
    assert code == 2
    assert "did you mean 'prefixes'?" in err
