"""A scripted stand-in for a model: it speaks the OpenAI chat-completions wire format and drives the
core tools the way a careful model would (compare, submit the best row, fix the memo's numbers when
told). Tests use it behind respx; the eval harness records its runs for offline replay.

It is deterministic: the same conversation always gets the same reply.
"""

from __future__ import annotations

import json
import re
from typing import Any

from clustergen.agent.jsontext import json_objects
from clustergen.units import ratio

_JSON_MARK = re.compile(r"(?:^|\n)TOOL RESULT ([A-Za-z_][A-Za-z0-9_]*): ")
_DECODER = json.JSONDecoder()


def _completion(message: dict[str, Any], finish: str, prompt_tokens: int) -> dict[str, Any]:
    completion = len(json.dumps(message)) // 4
    return {
        "id": f"chatcmpl-scripted-{prompt_tokens}",
        "object": "chat.completion",
        "created": 0,
        "model": "scripted",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion,
            "total_tokens": prompt_tokens + completion,
        },
    }


def _results(messages: list[dict[str, Any]]) -> list[tuple[str, Any]]:
    """(tool, parsed result) for every tool result so far, in order, in either protocol (the JSON
    protocol may hold several results, and a nudge, in one user message)."""
    names: dict[str, str] = {}
    out: list[tuple[str, Any]] = []
    for m in messages:
        if m.get("role") == "assistant":
            for c in m.get("tool_calls") or []:
                names[c["id"]] = c["function"]["name"]
        if m.get("role") == "tool":
            out.append(
                (names.get(m.get("tool_call_id", ""), m.get("name", "")), _parse(m["content"]))
            )
        elif m.get("role") == "user":
            content = str(m.get("content", ""))
            for match in _JSON_MARK.finditer(content):
                out.append((match.group(1), _parse_at(content, match.end())))
    return out


def _parse(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return {"error": text}


def _parse_at(text: str, start: int) -> Any:
    try:
        return _DECODER.raw_decode(text, start)[0]
    except json.JSONDecodeError:
        return {"error": text[start:]}


def _fmt_w(w: float) -> str:
    return f"{w / 1e6:.2f} MW" if w >= 1e6 else f"{w / 1e3:.1f} kW"


def memo_from_summary(s: dict[str, Any]) -> str:
    """A customer memo whose every number is one of the design's own figures."""
    f = s["compute_fabric"]
    fabric = (
        f"on a {f['tiers']}-tier {f['technology']} fabric of {f['leaf_switches']} leaf and "
        f"{f['spine_switches']} spine {f['leaf_switch']} switches at {f['port_speed_gbps']:g}G, "
        f"oversubscription {ratio(f['oversubscription'])}."
        if f
        else f"in one node: its GPUs share {s.get('gpu_link', 'NVLink')}, no scale-out fabric."
    )
    lines = [
        f"## Recommendation: {s['platform_name']}",
        "",
        f"{s['gpus']} GPUs in {s['nodes']} nodes ({s['scalable_units']} scalable units) {fabric}",
        "",
        f"- IT power {_fmt_w(s['it_total_w'])}; facility {_fmt_w(s['facility_total_w'])} at "
        f"PUE {s['pue']:g}.",
    ]
    if s.get("cap_w") is not None and s.get("headroom_w") is not None:
        lines.append(
            f"- Cap {_fmt_w(s['cap_w'])} ({s['cap_basis']}); headroom {_fmt_w(s['headroom_w'])}."
        )
    lines.append(
        f"- {s['compute_racks']} compute racks at up to {s['rack_power_limit_kw']:g} kW, "
        f"{s['total_racks']} racks in all."
    )
    lines.append(
        f"- Storage ({s['storage_tier']} tier): {s['storage_read_gb_per_s']:g} GB/s read, "
        f"{s['storage_write_gb_per_s']:g} GB/s write."
    )
    if s.get("training_days") is not None:
        lines.append(f"- Training time estimate: {s['training_days']:.1f} days.")
    return "\n".join(lines)


def memo_from_row(row: dict[str, Any], objective: str) -> str:
    """A first memo from the trade study's chosen row alone (the figures a model has after one
    tool call); the judge sends back any number the built design does not hold."""
    return "\n".join(
        [
            f"## Recommendation: {row['platform']}",
            "",
            f"{row['gpus']} GPUs in {row['nodes']} nodes on a {row['fabric']} fabric of "
            f"{row['switches']} {row['switch']} switches, oversubscription "
            f"{ratio(row['oversubscription'])}.",
            "",
            f"- IT power of compute and compute fabric: {_fmt_w(row['it_power_w'])}.",
            f"- Ranked first of the trade study by {objective}.",
        ]
    )


def _call(name: str, arguments: dict[str, Any], n: int, json_protocol: bool) -> dict[str, Any]:
    if json_protocol:
        return {"role": "assistant", "content": json.dumps({"tool": name, "arguments": arguments})}
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": f"call_{n}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments)},
            }
        ],
    }


def _figures(result: Any) -> dict[str, Any] | None:
    """The design's figures a grounding refusal lists beside the unmatched numbers."""
    if not isinstance(result, dict) or result.get("kind") != "ungrounded_numbers":
        return None
    found = [o for o in json_objects(str(result.get("error", ""))) if "compute_fabric" in o]
    return found[0] if found else None


def scripted_reply(body: dict[str, Any]) -> dict[str, Any]:
    """The scripted model's reply to one chat-completions request body: compare the alternatives
    for the request as read, submit the top eligible row with a memo of its figures, rewrite the
    memo from the design's figures if the judge asks, and try the next row if it is rejected."""
    messages: list[dict[str, Any]] = body.get("messages", [])
    json_protocol = "tools" not in body
    # A stand-in's estimate of what a tokenizer would count: the whole request, tools included.
    prompt_tokens = len(json.dumps(body, separators=(",", ":"))) // 4
    done = _results(messages)
    n = len(done)

    def call(name: str, args: dict[str, Any]) -> dict[str, Any]:
        return _completion(_call(name, args, n, json_protocol), "tool_calls", prompt_tokens)

    def say(text: str) -> dict[str, Any]:
        return _completion({"role": "assistant", "content": text}, "stop", prompt_tokens)

    studies = [r for name, r in done if name == "compare_alternatives"]
    if not studies:
        return call("compare_alternatives", {})
    study = studies[-1]
    rows = study.get("rows", []) if isinstance(study, dict) else []
    eligible = [r for r in rows if r.get("eligible")] or rows[:1]
    rejected = sum(1 for name, r in done if name == "submit_design" and r.get("kind") == "rejected")
    if rejected >= len(eligible):
        return say("No alternative fits this request.")
    best = eligible[rejected]
    choices = {
        "platform": best["platform"],
        "fabric": best["fabric"],
        "oversubscription": best["oversubscription"],
    }
    last_name, last = done[-1]
    figures = _figures(last) if last_name == "submit_design" else None
    memo = memo_from_summary(figures) if figures else memo_from_row(best, study["objective"])
    return call(
        "submit_design",
        {
            "choices": choices,
            "reason": f"top eligible row of the trade study ({study.get('objective', '')})",
            "memo": memo,
        },
    )


def serve(
    port: int, host: str = "127.0.0.1"
) -> None:  # pragma: no cover - exercised via subprocess
    """Serve the scripted model as an OpenAI-compatible endpoint on loopback, for demos and tests
    of CLUSTERGEN_BASE_URL: `python -m clustergen.agent.scripted 8000`."""
    server = make_server(port, host)
    print(f"scripted model on http://{host}:{server.server_address[1]}/v1", flush=True)
    server.serve_forever()


def make_server(port: int = 0, host: str = "127.0.0.1") -> Any:
    """A stdlib HTTP server answering POST /v1/chat/completions with the scripted model."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    if host not in {"127.0.0.1", "localhost", "::1"}:
        raise ValueError("the scripted model serves loopback only")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self.send_error(404)
                return
            length = int(self.headers.get("content-length", "0"))
            try:
                request = json.loads(self.rfile.read(length) or b"{}")
                payload = json.dumps(scripted_reply(request)).encode()
            except (json.JSONDecodeError, KeyError, TypeError):
                self.send_error(400)
                return
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return ThreadingHTTPServer((host, port), Handler)


if __name__ == "__main__":  # pragma: no cover
    import sys

    serve(int(sys.argv[1]) if len(sys.argv) > 1 else 8000)
