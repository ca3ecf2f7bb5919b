"""Limits hold inside one reply, against a real HTTP server on loopback: a reply trickled a byte at
a time ends at the run's deadline (and at the reply's own), a gzip bomb stops at the inflated cap,
an oversized body at the wire cap, thousands of tool calls in one reply at the call cap; and a
malformed reply (null message, null tool name, JSON nested past any parser) ends in one line, which
the default mode turns into the planner's design. None retries, none leaks the key."""

from __future__ import annotations

import contextlib
import gzip
import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
import respx

from clustergen.agent.trace import Trace
from clustergen.agent.wire import MAX_REPLY_BYTES, ReplyLimitError, inflate
from clustergen.cli.app import main
from support.loopback import loopback_only
from support.nim_wire import KEY, completion

REQ = "512 GPUs training, 5 MW"
Send = Callable[[BaseHTTPRequestHandler], None]


class _Server:
    """A threaded HTTP server on 127.0.0.1 answering every POST with `send`; it counts requests."""

    def __init__(self, send: Send) -> None:
        outer = self
        self.requests = 0

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                outer.requests += 1
                self.rfile.read(int(self.headers.get("content-length", 0)))
                # the client gives up on a reply it should not wait for
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    send(self)

            def log_message(self, *_args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def serve(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[Send], _Server]]:
    servers: list[_Server] = []

    def start(send: Send) -> _Server:
        server = _Server(send)
        servers.append(server)
        monkeypatch.setenv("CLUSTERGEN_BASE_URL", server.url)
        return server

    monkeypatch.setenv("NVIDIA_API_KEY", KEY)
    monkeypatch.setenv("CLUSTERGEN_MAX_ATTEMPTS", "3")
    with loopback_only():
        yield start
    for s in servers:
        s.close()


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str, float]:
    started = time.monotonic()
    code = 0
    try:
        main(list(args))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err, time.monotonic() - started


def _headers(h: BaseHTTPRequestHandler, length: int, encoding: str | None = None) -> None:
    h.send_response(200)
    h.send_header("content-type", "application/json")
    h.send_header("content-length", str(length))
    if encoding:
        h.send_header("content-encoding", encoding)
    h.end_headers()


def _trickle(h: BaseHTTPRequestHandler) -> None:
    body = json.dumps(completion({"role": "assistant", "content": "x" * 5000}, "stop")).encode()
    _headers(h, len(body))
    for byte in body:  # a byte every 20 ms: 100+ s for the whole reply
        h.wfile.write(bytes([byte]))
        h.wfile.flush()
        time.sleep(0.02)


@pytest.mark.parametrize(
    ("limits", "says"),
    [
        ({"CLUSTERGEN_WALL_S": "1.5", "CLUSTERGEN_TIMEOUT_S": "30"}, "at its deadline"),
        ({"CLUSTERGEN_WALL_S": "300", "CLUSTERGEN_TIMEOUT_S": "1.5"}, "at its deadline"),
    ],
)
def test_a_trickled_reply_ends_at_the_deadline_not_at_its_last_byte(
    serve: Callable[[Send], _Server],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    limits: dict[str, str],
    says: str,
) -> None:
    for name, value in limits.items():
        monkeypatch.setenv(name, value)
    server = serve(_trickle)
    code, out, err, took = _run(capsys, "design", REQ, "--llm")
    assert code == 4, err
    assert took < 30  # the trickle alone would take 100+ s
    assert server.requests == 1  # never retried
    assert err.splitlines()[-1].startswith(
        "Error: the model endpoint's reply broke a limit: the reply was still arriving at its "
        "deadline"
    )
    assert KEY not in out + err


def test_a_trickled_reply_in_the_default_mode_gives_the_planners_design(
    serve: Callable[[Send], _Server],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CLUSTERGEN_WALL_S", "1")
    serve(_trickle)
    code, out, err, took = _run(capsys, "design", REQ, "--json")
    assert code == 0, err
    assert took < 30  # the trickle alone would take 100+ s
    d = json.loads(out)
    assert d["mode"] == "offline"
    assert "reply broke a limit" in d["warnings"][0]


def _gzip_bomb(h: BaseHTTPRequestHandler) -> None:
    head = b'{"choices": [{"index": 0, "message": {"role": "assistant", "content": "'
    body = gzip.compress(head + b" " * (64 << 20), compresslevel=9)  # ~64 kB on the wire
    _headers(h, len(body), "gzip")
    h.wfile.write(body)


def _huge(h: BaseHTTPRequestHandler) -> None:
    body = json.dumps(
        completion({"role": "assistant", "content": "y" * (MAX_REPLY_BYTES + 10)}, "stop")
    ).encode()
    _headers(h, len(body))
    h.wfile.write(body)


def _brotli_claimed(h: BaseHTTPRequestHandler) -> None:
    body = b"not really brotli"
    _headers(h, len(body), "br")
    h.wfile.write(body)


@pytest.mark.parametrize(
    ("send", "says"),
    [
        (_gzip_bomb, f"the reply inflates to more than {MAX_REPLY_BYTES:,} bytes"),
        (_huge, f"the reply is larger than {MAX_REPLY_BYTES:,} bytes"),
        (_brotli_claimed, "the reply is encoded as 'br', which was not asked for"),
    ],
)
def test_a_reply_too_large_on_the_wire_or_inflated_is_one_line(
    serve: Callable[[Send], _Server],
    capsys: pytest.CaptureFixture[str],
    send: Send,
    says: str,
) -> None:
    server = serve(send)
    code, _out, err, took = _run(capsys, "design", REQ, "--llm")
    assert code == 4, err
    assert server.requests == 1
    assert err.splitlines()[-1].startswith(
        f"Error: the model endpoint's reply broke a limit: {says}"
    )
    assert took < 30


def test_inflate_never_holds_more_than_the_cap() -> None:
    import tracemalloc

    bomb = gzip.compress(b"\0" * (32 << 20), compresslevel=1)
    tracemalloc.start()
    with pytest.raises(ReplyLimitError, match="inflates to more than 1,048,576 bytes"):
        inflate(bomb, "gzip", max_bytes=1 << 20)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 8 << 20
    assert inflate(gzip.compress(b"hello"), "gzip") == b"hello"
    assert inflate(gzip.compress(gzip.compress(b"twice")), "gzip, gzip") == b"twice"
    import zlib

    raw = zlib.compressobj(wbits=-zlib.MAX_WBITS)
    assert inflate(raw.compress(b"raw") + raw.flush(), "deflate") == b"raw"
    assert inflate(zlib.compress(b"zlib"), "deflate") == b"zlib"
    with pytest.raises(ReplyLimitError, match="corrupt"):
        inflate(b"not gzip at all", "gzip")


# ---------------------------------------------------------------- malformed replies (respx)

CHAT = "https://nim.test/v1/chat/completions"


def _calls(n: int) -> dict[str, Any]:
    call = {"id": "c", "type": "function", "function": {"name": "size_fabric", "arguments": "{}"}}
    return completion({"role": "assistant", "content": None, "tool_calls": [call] * n})


MALFORMED = {
    "null message": (
        {"choices": [{"index": 0, "message": None, "finish_reason": "stop"}]},
        "a null message",
    ),
    "null tool name": (
        completion(
            {
                "role": "assistant",
                "tool_calls": [{"id": "1", "type": "function", "function": {"name": None}}],
            }
        ),
        "tool call 1 has no name",
    ),
    "numeric tool name": (
        completion(
            {
                "role": "assistant",
                "tool_calls": [
                    {"id": "1", "type": "function", "function": {"name": 7, "arguments": "{}"}}
                ],
            }
        ),
        "tool call 1 has a non-text name",
    ),
    "tool calls not a list": (
        completion({"role": "assistant", "tool_calls": {"a": 1}}),
        "tool_calls of type dict",
    ),
    "content not text": (
        completion({"role": "assistant", "content": {"nested": True}}, "stop"),
        "message content of type dict",
    ),
    "choices not a list": ({"choices": "everything"}, "no choices"),
    "thousands of tool calls": (
        _calls(5000),
        "5,000 tool calls in one reply; at most 64 are taken",
    ),
}


@pytest.fixture
def keyed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NVIDIA_API_KEY", KEY)
    monkeypatch.setenv("CLUSTERGEN_BASE_URL", "https://nim.test/v1")
    monkeypatch.setenv("CLUSTERGEN_MAX_ATTEMPTS", "2")
    monkeypatch.setenv("CLUSTERGEN_RETRY_BUDGET_S", "0")


@pytest.mark.usefixtures("keyed")
@pytest.mark.parametrize("case", MALFORMED)
def test_a_malformed_reply_is_one_line_and_the_planner_answers_by_default(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, case: str
) -> None:
    reply, says = MALFORMED[case]
    trace = tmp_path / "t.jsonl"
    with respx.mock(assert_all_mocked=True) as r:
        r.post(CHAT).mock(return_value=httpx.Response(200, json=reply))
        code, out, err, took = _run(capsys, "design", REQ, "--llm", "--trace", str(trace))
        assert code == 4, err
        assert err.splitlines()[-1] == f"Error: the model endpoint sent a malformed reply ({says})"
        code, out, err, _ = _run(capsys, "design", REQ, "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["mode"] == "offline"
    assert f"malformed reply ({says})" in d["warnings"][0]
    assert took < 30
    assert trace.stat().st_size < 1 << 20


@pytest.mark.usefixtures("keyed")
@pytest.mark.parametrize("where", ["body", "arguments", "content"])
def test_json_nested_past_any_parser_is_one_line(
    capsys: pytest.CaptureFixture[str], where: str
) -> None:
    deep = "[" * 200_000 + "]" * 200_000
    if where == "body":
        response = httpx.Response(
            200, content=deep.encode(), headers={"content-type": "application/json"}
        )
    elif where == "arguments":
        response = httpx.Response(
            200,
            json=completion(
                {
                    "role": "assistant",
                    "tool_calls": [
                        {
                            "id": "1",
                            "type": "function",
                            "function": {"name": "submit_design", "arguments": deep},
                        }
                    ],
                }
            ),
        )
    else:
        response = httpx.Response(
            200, json=completion({"role": "assistant", "content": deep[:120_000]}, "stop")
        )
    with respx.mock(assert_all_mocked=True) as r:
        r.post(CHAT).mock(return_value=response)
        code, _out, err, took = _run(capsys, "design", REQ, "--llm")
    assert code == 4, err
    assert "Traceback" not in err
    assert err.splitlines()[-1].startswith("Error: ")
    assert took < 30


def test_the_trace_stops_at_its_cap_with_one_line_saying_so(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    trace = Trace(path, max_bytes=10_000)
    for i in range(1000):
        trace.event("model_reply", content="z" * 100, turn=i)
    trace.close()
    lines = path.read_text().splitlines()
    assert path.stat().st_size <= 10_000 + 200
    last = json.loads(lines[-1])
    assert last["event"] == "trace_truncated"
    assert last["limit_bytes"] == 10_000
    assert all(json.loads(line)["event"] == "model_reply" for line in lines[:-1])
