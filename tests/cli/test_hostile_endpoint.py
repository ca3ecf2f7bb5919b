"""A hostile endpoint that echoes the request's credentials in its error bodies: the key reaches
no output (stdout, stderr, --json, --trace, eval reports, recordings), and a key bound for plain
http on another host is warned about. Every request goes through respx; nothing leaves."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
import respx

from support.nim_wire import BASE, CHAT, KEY

Cli = Callable[..., tuple[int, str, str]]
REQ = "512 GPUs training, 5 MW"


def echoing(status: int, shape: str) -> Callable[[httpx.Request], httpx.Response]:
    """An endpoint answering `status` with the request's headers in its body."""

    def reply(request: httpx.Request) -> httpx.Response:
        headers = dict(request.headers)
        said = f"bad request from {headers}; Authorization: {request.headers['authorization']}"
        if shape == "text":
            return httpx.Response(status, text=said)
        if shape == "detail":
            return httpx.Response(status, json={"detail": said, "headers": headers})
        return httpx.Response(status, json={"error": {"message": said, "headers": headers}})

    return reply


@pytest.fixture
def keyed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NVIDIA_API_KEY", KEY)
    monkeypatch.setenv("CLUSTERGEN_BASE_URL", BASE)
    monkeypatch.setenv("CLUSTERGEN_MAX_ATTEMPTS", "1")
    monkeypatch.setenv("CLUSTERGEN_RETRY_BUDGET_S", "0")


def _no_key_anywhere(*texts: str) -> None:
    for text in texts:
        assert KEY not in text
        assert KEY[6:] not in text  # nor the part after a "nvapi-" prefix


STATUSES = [400, 401, 403, 404, 422, 429, 500, 503]


@pytest.mark.usefixtures("keyed")
@pytest.mark.parametrize("status", STATUSES)
@pytest.mark.parametrize("shape", ["json", "detail", "text"])
@pytest.mark.parametrize("json_flag", [False, True])
def test_design_never_prints_or_traces_an_echoed_key(
    cli: Cli, tmp_path: Path, status: int, shape: str, json_flag: bool
) -> None:
    trace = tmp_path / "t.jsonl"
    with respx.mock(assert_all_mocked=True) as r:
        r.post(CHAT).mock(side_effect=echoing(status, shape))
        flags = ["--json"] if json_flag else []
        code, out, err = cli("design", REQ, "--llm", "--trace", str(trace), *flags)
    assert code == 4, (out, err)
    assert "Traceback" not in err
    _no_key_anywhere(out, err, trace.read_text())


@pytest.mark.usefixtures("keyed")
@pytest.mark.parametrize("status", [400, 500])
def test_auto_mode_fallback_warning_carries_no_key(cli: Cli, status: int) -> None:
    with respx.mock(assert_all_mocked=True) as r:
        r.post(CHAT).mock(side_effect=echoing(status, "json"))
        code, out, err = cli("design", REQ, "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["mode"] == "offline"
    assert any("agent failed (" in w and "offline planner" in w for w in d["warnings"])
    _no_key_anywhere(out, err)


@pytest.mark.usefixtures("keyed")
@pytest.mark.parametrize("status", [400, 401, 500])
def test_eval_reports_and_recordings_carry_no_key(cli: Cli, tmp_path: Path, status: int) -> None:
    record, report = tmp_path / "rec", tmp_path / "report.md"
    with respx.mock(assert_all_mocked=True) as r:
        r.post(CHAT).mock(side_effect=echoing(status, "json"))
        code, out, err = cli(
            "eval", "--mode", "llm", "--case", "product-card-512-gpus-5mw",
            "--record", str(record), "--report", str(report), "--json",
        )  # fmt: skip
    assert code == 1, err
    written = [p.read_text() for p in record.rglob("*.json")]
    assert any("recordings" in str(p) for p in record.rglob("*.json"))
    _no_key_anywhere(out, err, report.read_text(), *written)


@pytest.mark.usefixtures("keyed")
def test_gpu_spec_refusal_carries_no_key(cli: Cli) -> None:
    with respx.mock(assert_all_mocked=True) as r:
        r.post(CHAT).mock(side_effect=echoing(400, "json"))
        code, out, err = cli("gpu", "spec", "--gpu", "Example X9", "--llm")
    assert code == 4
    _no_key_anywhere(out, err)


@pytest.mark.parametrize("allowed", ["flag", "environment"])
def test_design_warns_on_stderr_before_sending_a_key_over_http_it_was_allowed(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, allowed: str
) -> None:
    monkeypatch.setenv("NVIDIA_API_KEY", KEY)
    monkeypatch.setenv("CLUSTERGEN_BASE_URL", "http://nim.example.com/v1")
    monkeypatch.setenv("CLUSTERGEN_MAX_ATTEMPTS", "1")
    flags = ["--allow-insecure-http"] if allowed == "flag" else []
    if allowed == "environment":
        monkeypatch.setenv("CLUSTERGEN_ALLOW_INSECURE_HTTP", "1")
    with respx.mock(assert_all_mocked=True) as r:
        route = r.post("http://nim.example.com/v1/chat/completions").mock(
            return_value=httpx.Response(503, json={"error": "down"})
        )
        code, out, err = cli("design", REQ, "--json", *flags)
    assert code == 0
    assert route.called
    assert err.startswith(
        "notice: NVIDIA_API_KEY will be sent in clear text over plain http to nim.example.com"
    )
    _no_key_anywhere(out, err)


def test_a_password_in_the_base_url_is_masked_too(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = "https://user:s3cret-password-42@nim.test/v1"
    monkeypatch.setenv("NVIDIA_API_KEY", KEY)
    monkeypatch.setenv("CLUSTERGEN_BASE_URL", base)
    monkeypatch.setenv("CLUSTERGEN_MAX_ATTEMPTS", "1")
    with respx.mock(assert_all_mocked=True) as r:
        r.post(CHAT).mock(return_value=httpx.Response(404, json={"error": "no such model"}))
        code, out, err = cli("design", REQ, "--llm")
    assert code == 4
    assert "s3cret-password-42" not in out + err
    assert "[REDACTED]" in err


@pytest.mark.usefixtures("keyed")
def test_a_key_the_model_echoes_into_its_memo_reaches_no_file(cli: Cli, tmp_path: Path) -> None:
    from clustergen.agent.scripted import scripted_reply
    from support.nim_wire import body

    def echo_in_memo(request: httpx.Request) -> httpx.Response:
        data = scripted_reply(body(request))
        for c in data["choices"][0]["message"].get("tool_calls") or []:
            if c["function"]["name"] == "submit_design":
                args = json.loads(c["function"]["arguments"])
                args["memo"] += f"\n\nconfigured with {KEY}"
                c["function"]["arguments"] = json.dumps(args)
        return httpx.Response(200, json=data)

    out_dir = tmp_path / "out"
    with respx.mock(assert_all_mocked=True) as r:
        r.post(CHAT).mock(side_effect=echo_in_memo)
        code, out, err = cli("design", REQ, "--llm", "--json", "--out", str(out_dir))
    assert code == 0, err
    _no_key_anywhere(out, err, *(_text_of(p) for p in out_dir.iterdir()))


def _text_of(path: Path) -> str:
    """Every byte of a bundle file as text, a workbook's members unzipped."""
    import zipfile

    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as z:
            return "".join(z.read(n).decode("utf-8", "replace") for n in z.namelist())
    return path.read_bytes().decode("utf-8", "replace")
