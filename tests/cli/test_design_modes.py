"""`clustergen design` modes: offline, agent (a key), --llm, --offline, and the fallback warning.
The agent talks to respx, never to a network."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
import respx

from clustergen.agent.settings import DEFAULT_BASE_URL
from support.nim_wire import BASE, CHAT, KEY, completion, scripted

Cli = Callable[..., tuple[int, str, str]]

REQ = "512 GPUs training, 5 MW"


@pytest.fixture
def keyed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NVIDIA_API_KEY", KEY)
    monkeypatch.setenv("CLUSTERGEN_BASE_URL", BASE)
    monkeypatch.setenv("CLUSTERGEN_MAX_ATTEMPTS", "1")


def test_no_key_runs_offline_without_warning(cli: Cli) -> None:
    code, out, err = cli("design", REQ, "--json")
    assert code == 0
    assert json.loads(out)["mode"] == "offline"
    assert "warning: the NIM" not in err


def test_llm_without_key_is_a_clear_error(cli: Cli) -> None:
    code, out, err = cli("design", REQ, "--llm")
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert "NVIDIA_API_KEY" in err


def test_offline_and_llm_contradict(cli: Cli) -> None:
    code, _, err = cli("design", REQ, "--llm", "--offline")
    assert code == 2
    assert "pick one" in err


@pytest.mark.usefixtures("keyed")
def test_key_present_means_agent_mode(cli: Cli, tmp_path: Path) -> None:
    trace = tmp_path / "t.jsonl"
    out_dir = tmp_path / "out"
    with respx.mock(assert_all_mocked=True) as r:
        route = r.post(CHAT).mock(side_effect=scripted)
        code, out, err = cli("design", REQ, "--json", "--trace", str(trace), "--out", str(out_dir))
    assert code == 0, err
    d = json.loads(out)
    assert d["mode"] == "agent"
    assert d["agent"]["turns"] == route.call_count == 2  # compare, then submit
    assert d["grounding"]["unmatched"] == []
    memo = (out_dir / "memo.md").read_text()
    assert "Architect's notes" in memo
    for text in (out, err, trace.read_text(), memo, (out_dir / "design.json").read_text()):
        assert KEY not in text


@pytest.mark.usefixtures("keyed")
def test_failed_agent_falls_back_to_the_planner_with_a_warning(cli: Cli) -> None:
    with respx.mock(assert_all_mocked=True) as r:
        r.post(CHAT).mock(return_value=httpx.Response(503, json={"error": "down"}))
        code, out, _err = cli("design", REQ, "--json")
    assert code == 0
    d = json.loads(out)
    assert d["mode"] == "offline"
    assert d["warnings"][0].startswith(
        "the self-hosted agent failed (the model endpoint failed: HTTP 503"
    )


def test_failed_nim_agent_is_named_as_nim(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NVIDIA_API_KEY", KEY)
    monkeypatch.delenv("CLUSTERGEN_BASE_URL", raising=False)
    monkeypatch.setenv("CLUSTERGEN_MAX_ATTEMPTS", "1")
    with respx.mock(assert_all_mocked=True) as r:
        r.post(f"{DEFAULT_BASE_URL}/chat/completions").mock(return_value=httpx.Response(503))
        code, out, _err = cli("design", REQ, "--json")
    assert code == 0
    assert json.loads(out)["warnings"][0].startswith("the NIM agent failed (")


@pytest.mark.usefixtures("keyed")
def test_failed_agent_with_llm_is_an_error(cli: Cli) -> None:
    with respx.mock(assert_all_mocked=True) as r:
        r.post(CHAT).mock(return_value=httpx.Response(503, json={"error": "down"}))
        code, out, err = cli("design", REQ, "--llm")
    assert code == 4
    assert out == ""
    assert "HTTP 503" in err
    # the route of the key announced, then the one error line
    notice, error = err.splitlines()
    assert notice.startswith("notice: NVIDIA_API_KEY will be sent to nim.test, not ")
    assert error.startswith("Error: ")
    assert "Traceback" not in err


@pytest.mark.usefixtures("keyed")
def test_offline_flag_ignores_the_key(cli: Cli) -> None:
    with respx.mock(assert_all_mocked=True) as r:
        code, out, _ = cli("design", REQ, "--json", "--offline")
        assert not r.calls
    assert code == 0
    assert json.loads(out)["mode"] == "offline"


@pytest.mark.usefixtures("keyed")
def test_gpu_missing_from_catalog_is_asked_and_labelled_unverified(cli: Cli) -> None:
    answer = {
        "name": "Example X9",
        "vendor": "Example",
        "memory_gb": 192,
        "bf16_dense_tflops": 1200,
        "tdp_w": 99999,
    }
    with respx.mock(assert_all_mocked=True) as r:
        r.post(CHAT).mock(
            return_value=httpx.Response(
                200,
                json=completion({"role": "assistant", "content": json.dumps(answer)}, "stop"),
            )
        )
        code, out, err = cli("gpu", "spec", "--gpu", "Example X9", "--json")
    assert code == 0, err
    spec = json.loads(out)
    assert spec["provenance"] == "model-provided, unverified"
    assert spec["id"].startswith("unverified-")
    assert spec["memory_gb"] == 192
    assert spec["tdp_w"] is None  # implausible, dropped
    assert any("UNVERIFIED" in n for n in spec["notes"])
    # never written into the catalog
    code, _, err = cli("gpu", "spec", "--gpu", "Example X9", "--offline")
    assert code == 1
    assert "unknown GPU" in err


@pytest.mark.usefixtures("keyed")
def test_gpu_answer_that_is_not_json_is_never_shown(cli: Cli) -> None:
    with respx.mock(assert_all_mocked=True) as r:
        r.post(CHAT).mock(
            return_value=httpx.Response(
                200,
                json=completion({"role": "assistant", "content": "It has lots of memory"}, "stop"),
            )
        )
        code, out, err = cli("gpu", "spec", "--gpu", "Example X9")
    assert code == 4
    assert out == ""
    assert "not a JSON object" in err


def test_gpu_missing_without_key_lists_closest(cli: Cli) -> None:
    code, _, err = cli("gpu", "spec", "--gpu", "H1000")
    assert code == 1
    assert "closest" in err
