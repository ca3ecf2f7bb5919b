"""Record a model run's HTTP exchanges and replay them offline.

A recording is a JSON file: the model id, and the list of exchanges (the shape of the request the
agent sent, the status and body the endpoint answered). Headers are not kept, so no key is ever
written; request bodies are reduced to their shape, which keeps recordings small.
Replaying serves the answers in order and checks each request asks for the same tools in the same
protocol as when recorded, so a change of prompt or tool schema that alters the conversation shows as
a replay failure instead of passing silently.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from clustergen.agent.wire import read_bounded
from clustergen.errors import ConfigError
from clustergen.redact import redact
from clustergen.untrusted import DataError, load_json, read_regular

FORMAT = 1


def _shape(body: dict[str, Any]) -> dict[str, Any]:
    """What must match between a recorded request and a replayed one: the protocol, the tools
    offered and the sequence of roles and tool calls so far (not the wording of each message)."""
    shape: list[str] = []
    for m in body.get("messages", []):
        role = m.get("role", "")
        calls = [c["function"]["name"] for c in m.get("tool_calls") or []]
        shape.append(role + (":" + ",".join(calls) if calls else ""))
    tools = sorted(t["function"]["name"] for t in body.get("tools", []))
    return {"tools": tools, "messages": shape}


class RecordingTransport(httpx.BaseTransport):
    """Passes requests to `inner` and keeps every exchange."""

    def __init__(self, inner: httpx.BaseTransport) -> None:
        self.inner = inner
        self.exchanges: list[dict[str, Any]] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        response.request = request
        # within the reply limits (size, inflated size, deadline) the chat client's guard sets:
        # this transport reads the body before the guard sees it
        content = read_bounded(response)
        # A server may echo the request's credentials in its body: none reaches the recording.
        text = redact(content.decode("utf-8", "replace"), _credentials(request))
        try:
            reply: Any = json.loads(text)
        except json.JSONDecodeError:
            reply = text
        self.exchanges.append(
            {
                "request": _shape(json.loads(request.content or b"{}")),
                "status": response.status_code,
                "response": reply,
            }
        )
        return httpx.Response(
            response.status_code,
            content=content,
            headers={"content-type": response.headers.get("content-type", "application/json")},
        )

    def save(self, path: Path, model: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(
            json.dumps({"format": FORMAT, "model": model, "exchanges": self.exchanges}, indent=1)
            + "\n",
            encoding="utf-8",
        )
        tmp.replace(path)


def _credentials(request: httpx.Request) -> list[str]:
    """The secret values a request carries in its headers (the token of `Bearer <token>` too)."""
    out: list[str] = []
    for name in ("authorization", "proxy-authorization", "api-key", "x-api-key"):
        value = request.headers.get(name)
        if value:
            out.append(value)
            scheme, _, token = value.partition(" ")
            if token and scheme.lower() in {"bearer", "basic", "token"}:
                out.append(token.strip())
    return out


class ReplayMismatch(Exception):
    """The replayed conversation left the recorded one."""


class ReplayTransport(httpx.BaseTransport):
    """Answers requests from a recording, in order."""

    def __init__(self, path: Path) -> None:
        try:
            data = load_json(read_regular(path).decode("utf-8"))
        except (DataError, UnicodeDecodeError) as exc:
            raise ConfigError(f"cannot read recording {path}: {exc}") from None
        if not isinstance(data, dict) or not isinstance(data.get("exchanges"), list):
            raise ConfigError(f"recording {path} is not a recording (no list of exchanges)")
        if data.get("format") != FORMAT:
            raise ConfigError(
                f"recording {path} has format {data.get('format')}, expected {FORMAT}"
            )
        self.path = path
        self.model: str = data.get("model", "")
        self.exchanges: list[dict[str, Any]] = data["exchanges"]
        self.position = 0
        self.mismatch: str | None = None

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if self.position >= len(self.exchanges):
            self.mismatch = f"the agent made more requests than the {len(self.exchanges)} recorded"
            raise ReplayMismatch(self.mismatch)
        ex = self.exchanges[self.position]
        self.position += 1
        sent = _shape(json.loads(request.content or b"{}"))
        recorded = ex["request"]
        if sent != recorded:
            self.mismatch = (
                f"request {self.position} differs from the recording "
                f"(sent {sent['messages'][-3:]}, recorded {recorded['messages'][-3:]})"
            )
            raise ReplayMismatch(self.mismatch)
        body = ex["response"]
        content = body.encode() if isinstance(body, str) else json.dumps(body).encode()
        return httpx.Response(
            ex["status"], content=content, headers={"content-type": "application/json"}
        )

    @property
    def finished(self) -> bool:
        return self.position == len(self.exchanges)


class FunctionTransport(httpx.BaseTransport):
    """An endpoint made of a function from request body to response body (the scripted model)."""

    def __init__(self, reply: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
        self.reply = reply

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=self.reply(json.loads(request.content or b"{}")))
