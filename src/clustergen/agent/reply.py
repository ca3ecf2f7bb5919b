"""A chat completion as the loop sees it: the SDK's reply, checked field by field.

The SDK builds its reply objects without validation, so a hostile or broken server can send a null
message, a tool call without a name, thousands of calls or megabytes of text; each is caught here
and named in one line (`Malformed`), never an AttributeError deep in the loop.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass
class ToolCall:
    id: str
    name: str
    arguments: str


@dataclass
class ChatReply:
    """One model turn, SDK-free."""

    content: str | None
    tool_calls: list[ToolCall]
    finish_reason: str | None
    prompt_tokens: int
    completion_tokens: int
    latency_s: float
    attempts: int


#: Tool calls one reply may hold. Models call a handful at a time; thousands in one reply are an
#: endpoint gone wrong (or hostile), and each would cost a tool run and a trace line.
MAX_TOOL_CALLS_PER_REPLY = 64
#: Characters of text one reply may hold (calls written in the text are searched for in it): a
#: reply of 4,096 tokens is about 16,000; a self-hosted server without a token cap writes more.
MAX_CONTENT_CHARS = 256_000


class Malformed(Exception):
    """What is wrong with a reply that is not a chat completion."""


def tool_calls(raw: Any) -> list[ToolCall]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise Malformed(f"tool_calls of type {type(raw).__name__}")
    if len(raw) > MAX_TOOL_CALLS_PER_REPLY:
        raise Malformed(
            f"{len(raw):,} tool calls in one reply; at most {MAX_TOOL_CALLS_PER_REPLY} are taken"
        )
    calls = []
    for i, c in enumerate(raw):
        fn = getattr(c, "function", None)
        if fn is None:
            continue
        name = getattr(fn, "name", None)
        if not isinstance(name, str) or not name:
            raise Malformed(f"tool call {i + 1} has {'no' if name is None else 'a non-text'} name")
        call_id = getattr(c, "id", None)
        calls.append(
            ToolCall(
                id=call_id if isinstance(call_id, str) and call_id else f"call_{i}",
                name=name,
                # some servers send the arguments as an object, not a JSON string
                arguments=as_json(getattr(fn, "arguments", None)),
            )
        )
    return calls


def count(value: Any) -> int:
    """A token count as the server reported it; anything not a sane count is 0."""
    return value if isinstance(value, int) and 0 <= value < 1 << 40 else 0


def as_json(arguments: Any) -> str:
    if arguments is None or isinstance(arguments, str):
        return arguments or ""
    try:
        return json.dumps(arguments)
    except (TypeError, ValueError, RecursionError):
        raise Malformed("tool call arguments that are not JSON") from None
