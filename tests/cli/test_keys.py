"""Keys go only where the user sent them and show nowhere: a key the model echoes (in any case,
reversed, hex or base64) reaches no terminal view, file or recording; a base URL from a .env the
user did not name, or any host other than hosted NIM, is announced before the key is sent; plain
http to another host is refused without --allow-insecure-http; a key that cannot go in a header is
one line in every mode. Every request goes through respx; nothing leaves the machine."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
import respx

from support.nim_wire import BASE, CHAT, KEY, body, completion

Cli = Callable[..., tuple[int, str, str]]
REQ = "512 GPUs training, 5 MW"

#: what a hostile model writes back: the key as sent and in the forms a redaction of the plain
#: string alone would let through
ECHOES = {
    "plain": KEY,
    "upper": KEY.upper(),
    "reversed": KEY[::-1],
    "base64": base64.b64encode(KEY.encode()).decode(),
    "base64 urlsafe unpadded": base64.urlsafe_b64encode(b"k=" + KEY.encode()).decode().rstrip("="),
    "hex": KEY.encode().hex(),
}


def _clean(*texts: str) -> None:
    for text in texts:
        for form, copy in ECHOES.items():
            assert copy not in text, form
        assert KEY[6:].lower() not in text.lower()


@pytest.fixture
def keyed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NVIDIA_API_KEY", KEY)
    monkeypatch.setenv("CLUSTERGEN_BASE_URL", BASE)
    monkeypatch.setenv("CLUSTERGEN_MAX_ATTEMPTS", "1")
    monkeypatch.setenv("CLUSTERGEN_RETRY_BUDGET_S", "0")


def _echo_in_memo(request: httpx.Request) -> httpx.Response:
    from clustergen.agent.scripted import scripted_reply

    data = scripted_reply(body(request))
    for c in data["choices"][0]["message"].get("tool_calls") or []:
        if c["function"]["name"] == "submit_design":
            args = json.loads(c["function"]["arguments"])
            args["memo"] += "\n\n" + "\n".join(f"{k}: {v}" for k, v in ECHOES.items())
            c["function"]["arguments"] = json.dumps(args)
    return httpx.Response(200, json=data)


@pytest.mark.usefixtures("keyed")
def test_design_terminal_view_never_prints_an_echoed_key(cli: Cli, tmp_path: Path) -> None:
    out_dir = tmp_path / "out"
    with respx.mock(assert_all_mocked=True) as r:
        r.post(CHAT).mock(side_effect=_echo_in_memo)
        code, out, err = cli("design", REQ, "--llm", "--out", str(out_dir))
    assert code == 0, err
    assert "[REDACTED]" in out
    _clean(out, err, *(p.read_bytes().decode("utf-8", "replace") for p in out_dir.iterdir()))


@pytest.mark.usefixtures("keyed")
@pytest.mark.parametrize("json_flag", [False, True])
def test_gpu_spec_never_prints_an_echoed_key(cli: Cli, json_flag: bool) -> None:
    answer = {
        "name": f"Example X9 {ECHOES['upper']}",
        "vendor": ECHOES["reversed"],
        "memory_gb": 96,
        "form_factor": f"{ECHOES['base64']} {ECHOES['hex']} {KEY}",
    }
    reply = completion({"role": "assistant", "content": json.dumps(answer)}, finish="stop")
    with respx.mock(assert_all_mocked=True) as r:
        r.post(CHAT).mock(return_value=httpx.Response(200, json=reply))
        flags = ["--json"] if json_flag else []
        code, out, err = cli("gpu", "spec", "--gpu", "Example X9", "--llm", *flags)
    assert code == 0, err
    assert "[REDACTED]" in out
    _clean(out, err)


@pytest.mark.usefixtures("keyed")
def test_eval_record_case_files_and_recordings_hold_no_echoed_key(cli: Cli, tmp_path: Path) -> None:
    record = tmp_path / "rec"
    report = tmp_path / "report.md"
    with respx.mock(assert_all_mocked=True) as r:
        r.post(CHAT).mock(side_effect=_echo_in_memo)
        code, out, err = cli(
            "eval", "--mode", "llm", "--case", "a100-superpod-design-networks", "--record", str(record),
            "--report", str(report), "--threshold", "0",
        )  # fmt: skip
    assert code == 0, err
    files = [p for p in record.rglob("*") if p.is_file()]
    assert any(p.parent.name == "recordings" for p in files)
    texts = [p.read_text() for p in files]
    assert any("[REDACTED]" in t for t in texts)
    _clean(out, err, report.read_text(), *texts)


def test_a_base_url_from_an_unnamed_dotenv_is_announced_before_the_key_goes(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NVIDIA_API_KEY", KEY)  # the user's own, exported
    monkeypatch.setenv("CLUSTERGEN_MAX_ATTEMPTS", "1")
    (tmp_path / ".env").write_text("CLUSTERGEN_BASE_URL=https://collector.test/v1\n")
    seen: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request.headers["authorization"])
        return httpx.Response(503, json={"error": "down"})

    with respx.mock(assert_all_mocked=True) as r:
        r.post("https://collector.test/v1/chat/completions").mock(side_effect=answer)
        code, out, err = cli("design", REQ, "--json")
    assert code == 0  # the default mode: the planner answers after the agent failed
    assert seen  # the key went, and the user was told first:
    notice = err.splitlines()[0]
    assert notice == (
        "notice: NVIDIA_API_KEY will be sent to collector.test, not integrate.api.nvidia.com "
        f"(CLUSTERGEN_BASE_URL from {tmp_path / '.env'}); --offline sends nothing"
    )
    _clean(out, err)


@pytest.mark.parametrize("where", ["dotenv", "environment"])
@pytest.mark.parametrize(
    "args",
    [
        ("design", REQ),
        ("design", REQ, "--llm"),
        ("gpu", "spec", "--gpu", "Example X9"),
        ("eval", "--mode", "llm", "--case", "a100-superpod-design-networks"),
    ],
)
def test_plain_http_to_another_host_is_refused_before_anything_is_sent(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str, args: tuple[str, ...]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NVIDIA_API_KEY", KEY)
    url = "http://collector.test/v1"
    if where == "dotenv":
        (tmp_path / ".env").write_text(f"CLUSTERGEN_BASE_URL={url}\n")
    else:
        monkeypatch.setenv("CLUSTERGEN_BASE_URL", url)
    with respx.mock(assert_all_mocked=True, assert_all_called=False) as r:
        route = r.post(f"{url}/chat/completions").mock(return_value=httpx.Response(503))
        code, out, err = cli(*args)
    assert code == 2, (out, err)
    assert not route.called
    assert err.startswith(
        "Error: refusing to send NVIDIA_API_KEY in clear text over plain http to collector.test"
    )
    assert "--allow-insecure-http" in err
    assert err.count("\n") == 1
    _clean(out, err)


def test_a_dotenv_cannot_allow_plain_http_itself(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NVIDIA_API_KEY", KEY)
    (tmp_path / ".env").write_text(
        "CLUSTERGEN_BASE_URL=http://collector.test/v1\nCLUSTERGEN_ALLOW_INSECURE_HTTP=1\n"
    )
    code, _, err = cli("design", REQ, "--llm")
    assert code == 2
    assert "refusing to send NVIDIA_API_KEY in clear text" in err


@pytest.mark.parametrize(
    ("key", "says"),
    [
        ("nvapi-abc\u201cdef0123456789", "U+201C (left double quotation mark) at character 10"),
        (
            "nvapi-abc\u00e9def0123456789",
            "U+00E9 (latin small letter e with acute) at character 10",
        ),
        ("nvapi-abc def0123456789", "a space at character 10"),
        ("nvapi-abc\r\ndef0123456789", "a carriage return at character 10"),
        ("nvapi-abc\x7fdef0123456789", "U+007F at character 10"),
        ("nvapi-abc\tdef0123456789", "a tab at character 10"),
    ],
)
@pytest.mark.parametrize(
    "args",
    [
        ("design", REQ),
        ("design", REQ, "--llm"),
        ("design", REQ, "--llm", "--json"),
        ("gpu", "spec", "--gpu", "Example X9"),
        ("eval", "--mode", "llm", "--case", "a100-superpod-design-networks"),
    ],
)
def test_a_key_no_header_can_carry_is_one_line_in_every_mode(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, key: str, says: str, args: tuple[str, ...]
) -> None:
    monkeypatch.setenv("NVIDIA_API_KEY", key)
    with respx.mock(assert_all_mocked=True, assert_all_called=False):
        code, out, err = cli(*args)
    assert code == 2, (out, err)
    said = out if "--json" in args else err
    assert f"NVIDIA_API_KEY has {says}" in said
    assert "Traceback" not in err
    assert key.strip() not in out + err
    # --offline never reads the key
    if args[0] == "design":
        assert cli("design", REQ, "--offline")[0] == 0


def _bundle_texts(out_dir: Path) -> list[str]:
    """Every file of a bundle as text, a workbook's parts unzipped (its strings are deflated)."""
    import zipfile

    texts = []
    for p in out_dir.rglob("*"):
        if p.suffix == ".xlsx":
            with zipfile.ZipFile(p) as z:
                texts += [z.read(n).decode("utf-8", "replace") for n in z.namelist()]
        elif p.is_file():
            texts.append(p.read_bytes().decode("utf-8", "replace"))
    return texts


@pytest.mark.parametrize("where", ["environment", ".env", "nowhere"])
def test_render_masks_the_users_key_in_every_file_design_json_included(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """A design that holds the key (an earlier run's memo echoed it; a user pasted it) is written
    masked by every command: design.json as memo.md. A key the user configured is masked in all
    its forms whatever it looks like; one nobody configured, by its NVIDIA prefix."""
    key = KEY if where == "nowhere" else "sk-local-Very-Secret-0123456789"
    monkeypatch.delenv("NVIDIA_API_KEY", raising=False)
    monkeypatch.chdir(tmp_path)
    if where == "environment":
        monkeypatch.setenv("NVIDIA_API_KEY", key)
    elif where == ".env":
        (tmp_path / ".env").write_text(f'export NVIDIA_API_KEY="{key}"\n')
    first = tmp_path / "a"
    code, _, err = cli("design", "64 GPUs training", "--offline", "--out", str(first))
    assert code == 0, err
    data = json.loads((first / "design.json").read_text())
    forms = [key, key[::-1], base64.b64encode(key.encode()).decode(), key.encode().hex()]
    data["memo"] = "64 GPUs. The key: " + " ".join(forms) + '\nquote " and \\ kept'
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data))
    code, out, err = cli("render", str(edited), "--out", str(tmp_path / "b"))
    assert code == 0, err
    texts = _bundle_texts(tmp_path / "b")
    design = json.loads((tmp_path / "b" / "design.json").read_text())  # still JSON
    assert "[REDACTED]" in design["memo"]
    assert 'quote " and \\ kept' in design["memo"]
    for text in [out, err, *texts]:
        assert key.lower()[7:] not in text.lower()
        assert forms[2] not in text
        if where != "nowhere":  # a key nobody configured is found by its prefix, not every form
            assert forms[3] not in text
