"""Tool calls without native tool calling: calls a model wrote as text, and the prompted JSON
protocol the loop switches to when an endpoint refuses `tools` or silently ignores them.

In the JSON protocol a call is the model's whole reply, `{"tool": ..., "arguments": {...}}`, and a
result comes back as a user message. The conversation keeps strict user/assistant alternation (one
user message per turn), which the chat templates of many small models require.
"""

from __future__ import annotations

import json
import re
from typing import Any

import yaml

from clustergen.agent import prompts
from clustergen.agent.jsontext import json_objects
from clustergen.agent.reply import ToolCall

RESULT_MARK = "TOOL RESULT "
#: llama.cpp's chatml-function-calling format writes calls as `functions.<name>:` then the arguments.
_FUNCTIONS_PREFIX = re.compile(r"functions\.([A-Za-z_][A-Za-z0-9_]*):")


def calls_in_content(content: str | None, turn: int) -> list[ToolCall]:
    """Tool calls written as text: the JSON protocol's {"tool": ..., "arguments": ...}, or calls
    the endpoint failed to parse (Llama-family models write {"name": ..., "parameters": ...}, and
    NIM's docs note the call then arrives in `content`; Hermes-style templates wrap them in
    <tool_call> tags; some models write a list of calls; llama.cpp's chatml-function-calling
    format leaves `functions.<name>:` and the arguments)."""
    calls: list[ToolCall] = []
    if content and _FUNCTIONS_PREFIX.search(content):
        for match in _FUNCTIONS_PREFIX.finditer(content):
            rest = content[match.end() :]
            objects = json_objects(rest[: _next_prefix(rest)])
            calls.append(_call(match.group(1), objects[0] if objects else {}, turn, len(calls)))
        return calls
    for obj in json_objects(content):
        fn = obj.get("function")
        if isinstance(fn, dict):  # an OpenAI tool_calls entry written out whole
            obj = fn
        name = obj.get("name") or obj.get("tool")
        args = obj.get("parameters", obj.get("arguments", {}))
        if not isinstance(name, str) or not isinstance(args, dict | str):
            continue
        calls.append(_call(name, args, turn, len(calls)))
    return calls


def _next_prefix(text: str) -> int:
    nxt = _FUNCTIONS_PREFIX.search(text)
    return nxt.start() if nxt else len(text)


def _call(name: str, args: dict[str, Any] | str, turn: int, index: int) -> ToolCall:
    return ToolCall(
        id=f"content_{turn}" + (f"_{index}" if index else ""),
        name=name,
        arguments=args if isinstance(args, str) else json.dumps(args),
    )


def _loads(text: str) -> Any:
    try:
        return json.loads(text) if text else {}
    except (json.JSONDecodeError, RecursionError):
        return text


def result_message(name: str, content: str) -> str:
    """A tool result as the JSON protocol's user message."""
    return f"{RESULT_MARK}{name}: {content}"


def to_json_protocol(
    messages: list[dict[str, Any]], catalog: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The conversation so far, rewritten for the JSON protocol: native calls become the
    assistant's JSON text, tool results become user messages, and the system prompt gains the
    protocol and the tool catalog."""
    names = {
        c["id"]: c["function"]["name"]
        for m in messages
        if m["role"] == "assistant"
        for c in m.get("tool_calls") or []
    }
    converted: list[dict[str, Any]] = []
    for m in messages:
        if m["role"] == "assistant" and m.get("tool_calls"):
            for c in m["tool_calls"]:
                f = c["function"]
                text = json.dumps({"tool": f["name"], "arguments": _loads(f["arguments"])})
                converted.append({"role": "assistant", "content": text})
        elif m["role"] == "tool":
            converted.append(
                {
                    "role": "user",
                    "content": result_message(names.get(m["tool_call_id"], ""), m["content"]),
                }
            )
        else:
            converted.append({k: v for k, v in m.items() if k in ("role", "content")})
    converted[0] = {
        "role": "system",
        "content": converted[0]["content"]
        + "\n"
        + prompts.render("json_protocol", tool_catalog=catalog_text(catalog)),
    }
    return alternating(converted)


def catalog_text(catalog: list[dict[str, Any]]) -> str:
    """The tool catalog as the JSON protocol's prompt shows it: one tool a line, in YAML's flow
    style (JSON without the quotes). It reads as JSON does, in about as many tokens, and in half
    as many where a chat template HTML-escapes every quote (llama.cpp's chatml-function-calling)."""
    lines = [
        "- " + yaml.safe_dump(tool, sort_keys=False, default_flow_style=True, width=10**9).strip()
        for tool in catalog
    ]
    return "\n".join(lines)


def alternating(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Consecutive messages of the same role merged into one (two calls in one turn, a result and
    a nudge), so the roles alternate as strict chat templates require."""
    out: list[dict[str, Any]] = []
    for m in messages:
        if out and out[-1]["role"] == m["role"] and m["role"] in ("user", "assistant"):
            out[-1] = {"role": m["role"], "content": f"{out[-1]['content']}\n\n{m['content']}"}
        else:
            out.append(dict(m))
    return out
