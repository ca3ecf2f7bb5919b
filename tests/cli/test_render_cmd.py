"""`clustergen render`: an untouched bundle re-renders byte for byte; a bad file is one line."""

from __future__ import annotations

import json
from pathlib import Path


def test_render_round_trips_a_bundle(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    first, second = tmp_path / "a", tmp_path / "b"
    code, _, err = cli("design", "64 GPUs training", "--offline", "--out", str(first))
    assert code == 0, err
    code, out, err = cli("render", str(first / "design.json"), "--out", str(second))
    assert code == 0, err
    assert "is as the engine built it" in out
    for name in ("design.json", "memo.md", "bom.csv", "topology.mmd"):
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


def test_render_refuses_an_edited_total_and_writes_nothing(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bundle = tmp_path / "a"
    cli("design", "64 GPUs training", "--offline", "--out", str(bundle))
    data = json.loads((bundle / "design.json").read_text())
    data["compute"]["gpus"] = 9999
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data))
    code, _, err = cli("render", str(edited), "--out", str(tmp_path / "b"))
    assert code != 0
    assert "compute.gpus: 9999 -> 64" in err
    assert not (tmp_path / "b").exists()


def test_render_of_a_file_that_is_not_a_design(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "x.json"
    bad.write_text('{"hello": 1}')
    code, _, err = cli("render", str(bad), "--out", str(tmp_path / "b"))
    assert code != 0
    assert err.startswith("Error: ")
    assert "is not a clustergen design" in err
    assert "Traceback" not in err


def _agent_bundle(cli, tmp_path: Path, monkeypatch) -> Path:  # type: ignore[no-untyped-def]
    import respx

    from support.nim_wire import BASE, CHAT, KEY, scripted

    monkeypatch.setenv("NVIDIA_API_KEY", KEY)
    monkeypatch.setenv("CLUSTERGEN_BASE_URL", BASE)
    bundle = tmp_path / "agent"
    with respx.mock(assert_all_mocked=True) as r:
        r.post(CHAT).mock(side_effect=scripted)
        code, _, err = cli("design", "512 GPUs training, 5 MW", "--llm", "--out", str(bundle))
    assert code == 0, err
    return bundle


def test_render_after_an_edited_request_rechecks_the_models_memo(
    cli, tmp_path: Path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    bundle = _agent_bundle(cli, tmp_path, monkeypatch)
    data = json.loads((bundle / "design.json").read_text())
    assert data["grounding"]["unmatched"] == []
    assert "512" in data["memo"]
    data["request"]["gpus"] = 1024
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data))
    code, out, err = cli("render", str(edited), "--out", str(tmp_path / "b"))
    assert code == 0, err
    assert "the model's memo was written for other inputs; its numbers were checked again" in out
    after = json.loads((tmp_path / "b" / "design.json").read_text())
    assert after["compute"]["gpus"] == 1024
    assert "512" in after["grounding"]["unmatched"]
    assert "512 [unverified]" in after["memo"]
    assert any("checked again" in w for w in after["warnings"])
    memo_md = (tmp_path / "b" / "memo.md").read_text()
    notes = memo_md.split("Architect's notes (model-written, numbers checked)")[1]
    assert "512 \\[unverified\\]" in notes  # the memo escapes Markdown; it renders as [unverified]
    # --json says so too
    code, out, _ = cli("render", str(edited), "--out", str(tmp_path / "c"), "--json")
    assert code == 0
    assert "no longer match" in json.loads(out)["memo_rechecked"]


def test_render_of_an_untouched_agent_bundle_keeps_its_memo_byte_for_byte(
    cli, tmp_path: Path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    bundle = _agent_bundle(cli, tmp_path, monkeypatch)
    code, out, err = cli("render", str(bundle / "design.json"), "--out", str(tmp_path / "b"))
    assert code == 0, err
    assert "checked again" not in out
    for name in ("design.json", "memo.md"):
        assert (bundle / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


def test_render_rechecks_a_memo_whose_numbers_were_edited_by_hand(
    cli, tmp_path: Path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    bundle = _agent_bundle(cli, tmp_path, monkeypatch)
    data = json.loads((bundle / "design.json").read_text())
    data["memo"] += "\n\nThe cluster needs 9.7 MW and 40 PB/s."
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data))
    code, _out, err = cli("render", str(edited), "--out", str(tmp_path / "b"))
    assert code == 0, err
    after = json.loads((tmp_path / "b" / "design.json").read_text())
    assert after["grounding"]["unmatched"] == ["9.7 MW", "40 PB/s"]
    assert "9.7 MW [unverified] and 40 PB/s [unverified]." in after["memo"]


def _edited_bundle(cli, tmp_path: Path, text: str, **edits: dict[str, object]) -> Path:  # type: ignore[no-untyped-def]
    bundle = tmp_path / "a"
    code, _, err = cli("design", text, "--offline", "--out", str(bundle))
    assert code == 0, err
    data = json.loads((bundle / "design.json").read_text())
    for part, fields in edits.items():
        data[part].update(fields)
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data))
    return edited


def test_render_of_an_edit_answers_with_a_verdict_and_a_before_after_table(
    cli, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """An edit is answered by a first-line verdict and the headline figures before and after,
    not by a diff of hundreds of figures (which --changes and --json still give)."""
    edited = _edited_bundle(
        cli,
        tmp_path,
        "512 GPUs training",
        request={"gpus": 1024},
        choices={"oversubscription": 2.0},
    )
    code, out, err = cli("render", str(edited), "--out", str(tmp_path / "b"))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("Edited design: 1 check now WARN; 512 more GPUs (1,024), +0.")
    assert lines[0].endswith(" MW IT")
    table = "\n".join(lines[1:12])
    for figure in ("GPUs", "IT power", "facility power", "switches", "racks", "BOM lines"):
        assert figure in table, figure
    gpus = next(ln for ln in lines if ln.split("│")[0].strip() == "GPUs")
    assert [c.strip() for c in gpus.split("│")] == ["GPUs", "512", "1,024", "+512"]
    checks = next(ln for ln in lines if ln.split("│")[0].strip() == "checks")
    assert "1 warn, 0 fail" in checks.split("│")[2]
    assert "0 warn, 0 fail" in checks.split("│")[1]
    assert "figures changed in all (--changes lists them" in out
    assert "compute.gpus: 512 -> 1024" not in out  # the full diff only on request
    code, out, _ = cli("render", str(edited), "--out", str(tmp_path / "c"), "--changes")
    assert code == 0
    assert "  compute.gpus: 512 -> 1024" in out
    code, out, _ = cli("render", str(edited), "--out", str(tmp_path / "d"), "--json")
    assert code == 0
    answer = json.loads(out)
    assert answer["summary"]["verdict"] == lines[0]
    rows = {r["figure"]: r for r in answer["summary"]["rows"]}
    assert rows["GPUs"] == {"figure": "GPUs", "before": "512", "after": "1,024", "change": "+512"}
    assert {"path": "compute.gpus", "before": 512, "after": 1024} in answer["changes"]


def test_render_of_an_edit_that_keeps_every_check_says_they_still_pass(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    edited = _edited_bundle(cli, tmp_path, "64 GPUs training", request={"gpus": 32})
    code, out, err = cli("render", str(edited), "--out", str(tmp_path / "b"))
    assert code == 0, err
    first = out.splitlines()[0]
    assert first.startswith("Edited design: all ")
    assert " checks still pass; 32 fewer GPUs (32), -0." in first
