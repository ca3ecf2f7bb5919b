"""MCP sessions over HTTP are bounded and expire: a client that opens sessions and walks away can
no longer lock others out (the SDK's defaults answered 503 to every newcomer for 30 minutes after
10,000 idle sessions). A real uvicorn server on loopback, with the limits made small."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import uvicorn

from clustergen.catalog import load_catalog
from clustergen.mcp.server import build_server, http_app
from clustergen.mcp.sessions import MAX_SESSIONS, SESSION_IDLE_S
from clustergen.tools import default_registry
from support.loopback import loopback_only

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    },
}
PING = {"jsonrpc": "2.0", "id": 2, "method": "ping"}


@pytest.fixture
def serve() -> Iterator[Callable[..., str]]:
    servers: list[tuple[uvicorn.Server, threading.Thread]] = []

    def start(**limits: Any) -> str:
        app = http_app(build_server(load_catalog(), default_registry()), "127.0.0.1", **limits)
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        sock.listen(64)
        config = uvicorn.Config(app, log_level="warning", lifespan="on", access_log=False)
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        servers.append((server, thread))
        deadline = time.monotonic() + 20
        while not server.started:
            assert time.monotonic() < deadline, "the MCP server did not start"
            time.sleep(0.02)
        return f"http://127.0.0.1:{sock.getsockname()[1]}/mcp"

    with loopback_only():
        yield start
        for server, thread in servers:
            server.should_exit = True
            thread.join(10)


def _open(client: httpx.Client, url: str) -> str:
    r = client.post(url, json=INIT, headers=HEADERS)
    assert r.status_code == 200, r.text
    return r.headers["mcp-session-id"]


def _ping(client: httpx.Client, url: str, session: str) -> int:
    return client.post(url, json=PING, headers={**HEADERS, "mcp-session-id": session}).status_code


def test_at_the_limit_the_idlest_session_is_closed_to_admit_a_new_client(
    serve: Callable[..., str],
) -> None:
    url = serve(max_sessions=3, session_idle_s=60)
    with httpx.Client(timeout=10) as client:
        sessions = [_open(client, url) for _ in range(3)]
        time.sleep(0.05)
        assert _ping(client, url, sessions[0]) == 200  # the first is now the most recently used
        newcomer = _open(client, url)  # the SDK's limit alone answered 503 here
        assert _ping(client, url, newcomer) == 200
        assert _ping(client, url, sessions[1]) == 404  # the idlest went
        assert _ping(client, url, sessions[0]) == 200
        assert _ping(client, url, sessions[2]) == 200
        # a flood of abandoned sessions never locks out the next client
        for _ in range(20):
            _open(client, url)
        assert _ping(client, url, _open(client, url)) == 200


def test_an_idle_session_expires(serve: Callable[..., str]) -> None:
    url = serve(max_sessions=10, session_idle_s=0.5)
    with httpx.Client(timeout=10) as client:
        session = _open(client, url)
        assert _ping(client, url, session) == 200
        time.sleep(1.5)
        assert _ping(client, url, session) == 404


def test_the_served_limits_are_the_ones_the_readme_states() -> None:
    from pathlib import Path

    readme = (Path(__file__).parents[2] / "README.md").read_text()
    assert f"at most {MAX_SESSIONS:,} sessions" in readme
    assert f"idle for {SESSION_IDLE_S / 60:g} minutes" in readme
    assert f"all {MAX_SESSIONS:,} are busy" in readme
