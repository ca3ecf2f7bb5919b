"""`clustergen eval`: the JSON shape, exit codes, the report file, the agent modes' placeholder."""

from __future__ import annotations

import json
from pathlib import Path

from .conftest import Cli

BAD_CASE = """
- id: wrong-on-purpose
  title: a golden case that cannot pass
  text: "31 DGX H100"
  expected:
    - {path: fabrics.compute.leaf_switches, value: 9, source: "deliberately wrong"}
"""


def test_json_shape(cli: Cli) -> None:
    code, out, _ = cli("eval", "--case", "h100-table4-1su", "--case", "adv-zero-gpus", "--json")
    assert code == 0
    d = json.loads(out)
    assert set(d) >= {"mode", "model", "threshold", "passed", "totals", "cases"}
    assert d["mode"] == "offline"
    assert d["passed"] is True
    assert [c["id"] for c in d["cases"]] == ["adv-zero-gpus", "h100-table4-1su"]
    one = d["cases"][1]
    assert set(one) >= {"id", "suite", "kind", "status", "score", "gate_score", "fields", "stats"}
    leaf = next(f for f in one["fields"] if f["label"] == "fabrics.compute.leaf_switches")
    assert leaf == {
        "label": "fabrics.compute.leaf_switches",
        "expected": "8",
        "got": "8",
        "passed": True,
        "xfail": None,
        "source": "H100-RA Table 4, 1 SU row (leaf and spine columns only: two tiers)",
        "note": None,
    }
    assert d["totals"]["cases"] == 2
    assert d["totals"]["gate_score"] == 1.0


def test_the_whole_suite_passes_and_prints_a_table(cli: Cli) -> None:
    code, out, _ = cli("eval")
    assert code == 0
    assert "figures" in out
    assert "h100-table4-1su" in out
    assert "passed: gate score 1.000" in out


def test_exit_one_under_the_threshold(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "golden").mkdir()
    (tmp_path / "golden" / "bad.yaml").write_text(BAD_CASE)
    code, out, _ = cli("eval", "--cases", str(tmp_path), "--json")
    assert code == 1
    d = json.loads(out)
    assert d["passed"] is False
    assert d["cases"][0]["status"] == "fail"
    code, _, _ = cli("eval", "--cases", str(tmp_path), "--threshold", "0.5")
    assert code == 0  # outcome and re-check pass: 2 of 3 items


def test_report_file_is_written(cli: Cli, tmp_path: Path) -> None:
    report = tmp_path / "eval.md"
    code, out, _ = cli("eval", "--suite", "adversarial", "--report", str(report))
    assert code == 0
    assert report.read_text().startswith("# clustergen eval report")
    assert f"wrote {report}" in out
    assert [p.name for p in tmp_path.iterdir()] == ["eval.md"]  # no temporary file left behind
    code, _, err = cli("eval", "--suite", "adversarial", "--report", str(tmp_path / "no" / "r.md"))
    assert code == 2
    assert "does not exist" in err


def test_llm_mode_without_a_key_is_a_clear_config_error(cli: Cli, tmp_path: Path) -> None:
    code, _, err = cli("eval", "--mode", "llm", "--model", "meta/llama-3.3-70b-instruct")
    assert code == 2
    assert err.startswith("Error: --mode llm needs NVIDIA_API_KEY")
    code, out, _ = cli("eval", "--mode", "replay", "--recordings", str(tmp_path / "x"), "--json")
    assert code == 2
    assert json.loads(out)["error"]["type"] == "config_error"


def test_bad_case_files_and_selections_are_one_line_errors(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "golden").mkdir()
    (tmp_path / "golden" / "bad.yaml").write_text(BAD_CASE.replace("leaf_switches", "leaf_switchs"))
    code, _, err = cli("eval", "--cases", str(tmp_path))
    assert code == 2
    assert "golden/bad.yaml: case 'wrong-on-purpose'" in err
    assert "did you mean leaf_switches" in err
    assert err.count("\n") == 1
    code, out, _ = cli("eval", "--cases", str(tmp_path), "--json")
    assert json.loads(out)["error"]["type"] == "eval_case_error"
    code, _, err = cli("eval", "--suite", "gold")
    assert code == 2
    assert "no eval suite 'gold'" in err
    code, _, _ = cli("eval", "--concurrency", "0")
    assert code == 2


def test_concurrency_and_record(cli: Cli, tmp_path: Path) -> None:
    code, out, _ = cli(
        "eval", "--suite", "golden", "--concurrency", "4", "--record", str(tmp_path / "r"), "--json"
    )
    assert code == 0
    d = json.loads(out)
    assert (tmp_path / "r" / "report.json").is_file()
    assert len(list((tmp_path / "r").glob("*.json"))) == d["totals"]["cases"] + 1


def test_record_refuses_a_symlinked_directory(cli: Cli, tmp_path: Path) -> None:
    """As `design --out` does: a write through a link lands wherever it points."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "link").symlink_to(elsewhere, target_is_directory=True)
    code, out, err = cli(
        "eval", "--case", "h100-table4-1su", "--record", str(tmp_path / "link"), "--json"
    )
    assert code == 2
    assert "symbolic link" in json.loads(out)["error"]["message"]
    assert "Traceback" not in err
    code, _, err = cli("eval", "--case", "h100-table4-1su", "--record", str(tmp_path / "link"))
    assert code == 2
    assert "symbolic link" in err
    assert "Traceback" not in err
    assert list(elsewhere.iterdir()) == []
