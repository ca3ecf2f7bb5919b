"""One answer for every request id: a second request with the id of one still in flight in the
same MCP session is answered at once with a JSON-RPC error, instead of taking over the first's
response stream (the SDK keys each session's streams by the id, so one of the two was never
answered). JSON-RPC asks ids to be unique among a client's requests in flight; a careless or
hostile client that repeats one now gets an answer for both: the first its result, the second
the error that says why.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

#: JSON-RPC's code for a request that is not a valid one
INVALID_REQUEST = -32600
_SESSION_HEADER = b"mcp-session-id"


class OneAnswerPerId:
    """ASGI middleware in front of the streamable HTTP transport (see the module docstring)."""

    def __init__(self, app: App) -> None:
        self.app = app
        self._in_flight: dict[bytes, set[str]] = {}
        self._lock = threading.Lock()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") != "http" or scope.get("method") != "POST":
            await self.app(scope, receive, send)
            return
        session = dict(scope.get("headers") or []).get(_SESSION_HEADER)
        body, more = await _read_body(receive)
        request_id = _request_id(body) if session and not more else None
        if request_id is None or session is None:
            await self.app(scope, _replay(body, more, receive), send)
            return
        with self._lock:
            taken = self._in_flight.setdefault(session, set())
            duplicate = request_id in taken
            if not duplicate:
                taken.add(request_id)
        if duplicate:
            await _refuse(send, request_id, json.loads(body).get("id"))
            return
        try:
            await self.app(scope, _replay(body, more, receive), send)
        finally:
            with self._lock:
                taken.discard(request_id)
                if not taken and self._in_flight.get(session) is taken:
                    del self._in_flight[session]


async def _read_body(receive: Receive) -> tuple[bytes, bool]:
    """The request's body; `more` when the client went away before sending all of it."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message.get("type") != "http.request":
            return b"".join(chunks), True
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks), False


def _replay(body: bytes, more: bool, receive: Receive) -> Receive:
    """A `receive` that gives the body already read, then whatever the client sends next."""
    sent = False

    async def again() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": more}
        return await receive()

    return again


def _request_id(body: bytes) -> str | None:
    """The id of a JSON-RPC request (as the SDK keys it: its text), or None for anything else
    (a notification, a response, a batch, a body that is not JSON: the transport answers it)."""
    try:
        message = json.loads(body)
    except ValueError:
        return None
    if not isinstance(message, dict) or "method" not in message or "id" not in message:
        return None
    found = message["id"]
    return str(found) if isinstance(found, str | int) and not isinstance(found, bool) else None


async def _refuse(send: Send, key: str, request_id: Any) -> None:
    error = {
        "jsonrpc": "2.0",
        "id": request_id,
        "error": {
            "code": INVALID_REQUEST,
            "message": f"request id {key} is already in use by a request in flight in this "
            "session; give each request its own id",
        },
    }
    payload = json.dumps(error).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload, "more_body": False})
