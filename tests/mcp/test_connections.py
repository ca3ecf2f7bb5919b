"""MCP over HTTP survives idle and half-open connections, and keeps every session's designs and
every request's answer its own. A real uvicorn server on loopback with real sockets, the bounds
made small so the counts and the time stay small: a flood of idle and half-sent connections past
the bound never locks a new client out, each is closed once it has waited too long, a session
reads only the designs it made (unless the server shares them), and two requests with one id in
one session are both answered."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
import uvicorn

from clustergen.catalog import load_catalog
from clustergen.mcp.connections import FD_MARGIN, MAX_CONNECTIONS, connection_bound
from clustergen.mcp.server import build_server, http_app, http_config
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


class Served:
    def __init__(self, url: str, server: uvicorn.Server) -> None:
        self.url = url
        self.server = server
        self.port = int(url.split(":")[-1].split("/")[0])

    def open_connections(self) -> int:
        return sum(not c.transport.is_closing() for c in self.server.server_state.connections)


@pytest.fixture
def serve() -> Iterator[Callable[..., Served]]:
    servers: list[tuple[uvicorn.Server, threading.Thread]] = []

    def start(*, share_designs: bool = False, **limits: Any) -> Served:
        mcp = build_server(load_catalog(), default_registry(), share_designs=share_designs)
        config = http_config(http_app(mcp, "127.0.0.1"), **limits)
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        sock.listen(256)
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        servers.append((server, thread))
        deadline = time.monotonic() + 20
        while not server.started:
            assert time.monotonic() < deadline, "the MCP server did not start"
            time.sleep(0.02)
        return Served(f"http://127.0.0.1:{sock.getsockname()[1]}/mcp", server)

    with loopback_only():
        yield start
        for server, thread in servers:
            server.should_exit = True
            thread.join(10)


def _session(client: httpx.Client, url: str) -> str:
    r = client.post(url, json=INIT, headers=HEADERS)
    assert r.status_code == 200, r.text
    session = r.headers["mcp-session-id"]
    note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    client.post(url, json=note, headers={**HEADERS, "mcp-session-id": session})
    return session


def _rpc(client: httpx.Client, url: str, session: str, rid: Any, method: str, **params: Any) -> Any:
    body = {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}
    r = client.post(url, json=body, headers={**HEADERS, "mcp-session-id": session})
    assert r.status_code == 200, r.text
    text = r.text
    if r.headers.get("content-type", "").startswith("text/event-stream"):
        datas = [ln[5:].strip() for ln in text.splitlines() if ln.startswith("data:")]
        text = next(d for d in datas if d)
    return json.loads(text)


def _idle_and_half_open(port: int, n: int) -> list[socket.socket]:
    """`n` connections: half send nothing, half send part of a request's headers."""
    out = []
    for i in range(n):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        if i % 2:
            s.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le")
        out.append(s)
    return out


def _closed_by_server(s: socket.socket, within_s: float) -> bool:
    s.settimeout(within_s)
    try:
        return s.recv(1024) == b""
    except TimeoutError:
        return False
    except OSError:
        return True


def test_a_flood_of_idle_and_half_open_connections_never_locks_out_a_new_client(
    serve: Callable[..., Served],
) -> None:
    served = serve(max_connections=16, client_wait_s=30)
    flood = _idle_and_half_open(served.port, 60)  # far past the bound
    try:
        time.sleep(0.3)
        assert served.open_connections() <= 16 + 1
        started = time.monotonic()
        with httpx.Client(timeout=10) as client:
            session = _session(client, served.url)
            listed = _rpc(client, served.url, session, 2, "tools/list")
        assert listed["result"]["tools"]
        assert time.monotonic() - started < 10
        assert served.open_connections() <= 16 + 1
    finally:
        for s in flood:
            s.close()


def test_a_connection_that_waits_on_its_client_is_closed(serve: Callable[..., Served]) -> None:
    served = serve(max_connections=64, client_wait_s=1.0, idle_s=1.0)
    idle, half = _idle_and_half_open(served.port, 2)
    try:
        assert _closed_by_server(idle, within_s=5)
        assert _closed_by_server(half, within_s=5)
    finally:
        idle.close()
        half.close()
    with httpx.Client(timeout=10) as client:  # and the server still serves
        assert _session(client, served.url)


def test_a_trickled_body_is_closed_too(serve: Callable[..., Served]) -> None:
    served = serve(max_connections=64, client_wait_s=1.0)
    s = socket.create_connection(("127.0.0.1", served.port), timeout=5)
    try:
        s.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n{")
        deadline = time.monotonic() + 6
        closed = False
        while time.monotonic() < deadline and not closed:
            try:
                s.sendall(b" ")  # a byte now and then: never the whole body
            except OSError:
                closed = True
                break
            closed = _closed_by_server(s, within_s=0.3)
        assert closed
    finally:
        s.close()


@pytest.mark.parametrize(("limit", "bound"), [(1024, 1024 - FD_MARGIN), (256, 256 - FD_MARGIN)])
def test_the_bound_stays_below_the_file_limit(limit: int, bound: int) -> None:
    assert connection_bound(limit) == min(bound, MAX_CONNECTIONS)
    assert connection_bound(limit) < limit
    assert connection_bound(65536) == MAX_CONNECTIONS


def _design(client: httpx.Client, url: str, session: str, text: str) -> str:
    found = _rpc(
        client, url, session, 5, "tools/call", name="design_cluster", arguments={"text": text}
    )
    return str(found["result"]["structuredContent"]["id"])


def test_a_session_sees_only_its_own_designs(serve: Callable[..., Served]) -> None:
    served = serve()
    with httpx.Client(timeout=60) as client:
        mine, theirs = _session(client, served.url), _session(client, served.url)
        design_id = _design(client, served.url, mine, "64 GPUs training, secret project Zeta")
        listed = _rpc(client, served.url, theirs, 6, "resources/list")["result"]["resources"]
        assert not any(design_id in r["uri"] for r in listed)
        read = _rpc(
            client, served.url, theirs, 7, "resources/read",
            uri=f"clustergen://design/{design_id}/design.json",
        )  # fmt: skip
        assert "error" in read
        assert "Zeta" not in json.dumps(read)
        explained = _rpc(
            client, served.url, theirs, 8, "tools/call",
            name="explain_figure", arguments={"design": design_id, "figure": "compute.gpus"},
        )  # fmt: skip
        assert explained["result"]["isError"]
        own = _rpc(client, served.url, mine, 9, "resources/list")["result"]["resources"]
        assert any(design_id in r["uri"] for r in own)


def test_a_server_that_shares_designs_shows_them_to_every_session(
    serve: Callable[..., Served],
) -> None:
    served = serve(share_designs=True)
    with httpx.Client(timeout=60) as client:
        mine, theirs = _session(client, served.url), _session(client, served.url)
        design_id = _design(client, served.url, mine, "64 GPUs training")
        listed = _rpc(client, served.url, theirs, 6, "resources/list")["result"]["resources"]
        assert any(design_id in r["uri"] for r in listed)


def test_two_requests_with_one_id_in_one_session_are_both_answered(
    serve: Callable[..., Served],
) -> None:
    served = serve()
    with httpx.Client(timeout=30) as client:
        session = _session(client, served.url)

    def call(text: str) -> Any:
        with httpx.Client(timeout=15) as c:  # a request never answered fails, not hangs
            return _rpc(
                c, served.url, session, 7, "tools/call",
                name="design_cluster", arguments={"text": text},
            )  # fmt: skip

    started = time.monotonic()
    pool = ThreadPoolExecutor(4)
    try:
        answers = list(pool.map(call, ["64 GPUs training", "128 GPUs training"] * 2, timeout=40))
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
    assert time.monotonic() - started < 40
    assert len(answers) == 4
    for a in answers:
        assert a["id"] == 7
        assert ("result" in a) != ("error" in a)
    assert any("result" in a for a in answers)
    for a in answers:
        if "error" in a:
            assert "already in use" in a["error"]["message"]


def test_the_connection_limits_are_the_ones_the_readme_states() -> None:
    from pathlib import Path

    from clustergen.mcp.connections import CLIENT_WAIT_S

    readme = " ".join((Path(__file__).parents[2] / "README.md").read_text().split())
    assert f"at most {MAX_CONNECTIONS} open" in readme
    assert f"closed after {CLIENT_WAIT_S:g} seconds" in readme
    assert "--share-designs" in readme
