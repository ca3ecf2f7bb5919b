"""Whatever bytes a server sends (a body that is not UTF-8, not JSON, binary, a wrong charset, a
JSON whose strings hold lone surrogates or NULs) end in one line: with `--llm`, an error and exit
4; in the default (auto) mode, the planner's design with the fallback stated; never a traceback,
and `--json` still prints one JSON document. Every request goes through respx; nothing leaves."""

from __future__ import annotations

import json
from collections.abc import Callable

import httpx
import pytest
import respx

from support.nim_wire import BASE, CHAT, KEY

Cli = Callable[..., tuple[int, str, str]]
REQ = "512 GPUs training, 5 MW"

#: what a broken server may send: (status, headers, body)
BODIES: dict[str, tuple[int, dict[str, str], bytes]] = {
    "latin-1 error": (
        500,
        {"content-type": "text/plain"},
        "erreur: caf\xe9 \xff".encode("latin-1"),
    ),
    "binary 200": (200, {"content-type": "application/json"}, bytes(range(256)) * 4),
    "invalid utf-8 json 200": (
        200,
        {"content-type": "application/json"},
        b'{"choices": [{"message": {"role": "assistant", "content": "\xff\xfe\xc3"}}]}',
    ),
    "wrong charset": (
        200,
        {"content-type": "application/json; charset=utf-16"},
        b'{"id": "x", "choices": []}',
    ),
    "unknown charset": (400, {"content-type": "text/plain; charset=x-no-such"}, b"bad \xff"),
    "lone surrogate": (
        200,
        {"content-type": "application/json"},
        b'{"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", '
        b'"content": "\\ud800\\u0000 \\udfff"}}]}',
    ),
    "gzip lies": (200, {"content-type": "application/json", "content-encoding": "gzip"}, b"\xff"),
    "utf-8 bom": (200, {"content-type": "application/json"}, b"\xef\xbb\xbf{\xff}"),
}


@pytest.fixture
def keyed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NVIDIA_API_KEY", KEY)
    monkeypatch.setenv("CLUSTERGEN_BASE_URL", BASE)
    monkeypatch.setenv("CLUSTERGEN_MAX_ATTEMPTS", "1")
    monkeypatch.setenv("CLUSTERGEN_RETRY_BUDGET_S", "0")
    monkeypatch.setenv("CLUSTERGEN_MAX_REPAIRS", "0")


def _answer(name: str) -> httpx.Response:
    status, headers, content = BODIES[name]
    return httpx.Response(status, headers=headers, content=content)


@pytest.mark.usefixtures("keyed")
@pytest.mark.parametrize("name", list(BODIES))
@pytest.mark.parametrize("json_flag", [False, True])
def test_llm_mode_ends_in_one_line(cli: Cli, name: str, json_flag: bool) -> None:
    with respx.mock(assert_all_mocked=True) as r:
        r.post(CHAT).mock(return_value=_answer(name))
        flags = ["--json"] if json_flag else []
        code, out, err = cli("design", REQ, "--llm", *flags)
    assert "Traceback" not in err + out
    assert code == 4, (code, out, err)
    if json_flag:
        assert json.loads(out)["error"]["message"]
    else:
        lines = [ln for ln in err.strip().splitlines() if not ln.startswith("notice: ")]
        assert lines, err
        assert lines[0].startswith("Error: "), err
        assert len(lines) <= 2, err  # the error and at most a hint


@pytest.mark.usefixtures("keyed")
@pytest.mark.parametrize("name", list(BODIES))
def test_auto_mode_gives_the_planners_design_and_says_why(cli: Cli, name: str) -> None:
    with respx.mock(assert_all_mocked=True) as r:
        r.post(CHAT).mock(return_value=_answer(name))
        code, out, err = cli("design", REQ, "--json")
    assert "Traceback" not in err
    assert code == 0, (out, err)
    d = json.loads(out)
    assert d["mode"] == "offline"
    assert any("offline planner" in w for w in d["warnings"]), d["warnings"]


def _memo_with(extra: str) -> Callable[[httpx.Request], httpx.Response]:
    """The scripted model, its memo carrying `extra` (escaped in the JSON it sends)."""
    from clustergen.agent.scripted import scripted_reply
    from support.nim_wire import body

    def reply(request: httpx.Request) -> httpx.Response:
        data = scripted_reply(body(request))
        for c in data["choices"][0]["message"].get("tool_calls") or []:
            if c["function"]["name"] == "submit_design":
                args = json.loads(c["function"]["arguments"])
                args["memo"] += extra
                c["function"]["arguments"] = json.dumps(args)
        return httpx.Response(
            200, headers={"content-type": "application/json"}, content=json.dumps(data).encode()
        )

    return reply


@pytest.mark.usefixtures("keyed")
@pytest.mark.parametrize("extra", ["\ud800 lone", "nul \x00 and \udfff", "\ufeff\u2028\x1b[31m"])
def test_text_no_file_can_hold_still_ends_in_files_and_json(
    cli: Cli, tmp_path: pytest.TempPathFactory, extra: str
) -> None:
    """A lone surrogate cannot be written as UTF-8: what a model writes reaches every file, the
    trace and --json as text a file can hold, never as an encoding traceback."""
    out_dir, trace = tmp_path / "out", tmp_path / "t.jsonl"  # type: ignore[operator]
    with respx.mock(assert_all_mocked=True) as r:
        r.post(CHAT).mock(side_effect=_memo_with(extra))
        code, out, err = cli(
            "design", REQ, "--llm", "--json", "--out", str(out_dir), "--trace", str(trace)
        )
    assert "Traceback" not in err
    d = json.loads(out)
    if "\ud800" in extra or "\udfff" in extra:
        # no valid string: a submission to repair (none allowed here), one JSON error
        assert code == 4
        assert "memo" in d["error"]["message"]
        return
    assert code == 0, d
    assert d["memo"]
    json.loads((out_dir / "design.json").read_text(encoding="utf-8"))
    (out_dir / "memo.md").read_text(encoding="utf-8")
    trace.read_text(encoding="utf-8")
