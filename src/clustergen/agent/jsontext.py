"""The JSON objects in a model's text, however it was wrapped: code fences, prose around them,
a reasoning block before them, or the tool-call tags some chat templates leave in the text."""

from __future__ import annotations

import html
import json
import re
from typing import Any

# Reasoning models (DeepSeek-R1, Qwen3, Nemotron with thinking on) write their thoughts first;
# braces in there are not the answer.
_THINKING = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.DOTALL | re.IGNORECASE)
# Tool-call markers of common chat templates (Hermes/Qwen <tool_call>, Llama 3.1 <|python_tag|>,
# Mistral [TOOL_CALLS]) when the server returns them as text instead of parsing them.
_MARKERS = re.compile(
    r"</?tool_calls?>|<\|python_tag\|>|<\|eom_id\|>|<\|eot_id\|>|\[TOOL_CALLS\]|```(?:json)?",
    re.IGNORECASE,
)
_DECODER = json.JSONDecoder()


def json_values(text: str | None) -> list[Any]:
    """Every top-level JSON object or array in `text`, in order. Text whose quotes arrive as
    HTML entities (a chat template that HTML-escapes messages, as llama.cpp's
    chatml-function-calling format does, teaches a model to write them) is read unescaped."""
    if not text:
        return []
    if "&#34;" in text or "&quot;" in text:
        unescaped = _json_values(html.unescape(html.unescape(text)))
        if unescaped:
            return unescaped
    return _json_values(text)


def _json_values(text: str) -> list[Any]:
    body = _THINKING.sub(" ", text)
    low = body.lower()
    if "</think>" in low:  # the template opened the block in the prompt: the answer follows it
        body = body[low.rindex("</think>") + len("</think>") :]
    elif "<think>" in low:  # cut off while thinking: only what came before can be an answer
        body = body[: low.index("<think>")]
    body = _MARKERS.sub(" ", body)
    values: list[Any] = []
    i = 0
    while True:
        starts = [p for p in (body.find("{", i), body.find("[", i)) if p != -1]
        if not starts:
            return values
        start = min(starts)
        try:
            value, end = _DECODER.raw_decode(body, start)
        except json.JSONDecodeError:
            i = start + 1
            continue
        except RecursionError:  # nested past any answer: nothing after it is read
            return values
        if isinstance(value, dict) or (
            isinstance(value, list) and value and all(isinstance(v, dict) for v in value)
        ):
            values.append(value)
            i = end
        else:
            i = start + 1  # "[1]" in prose is not an answer


def json_object(text: str | None) -> dict[str, Any] | None:
    """The first JSON object in `text` (the first of a list of them), or None."""
    return next(iter(json_objects(text)), None)


def json_objects(text: str | None) -> list[dict[str, Any]]:
    """Every JSON object in `text`, arrays of objects flattened, in order."""
    out: list[dict[str, Any]] = []
    for v in json_values(text):
        out.extend(v if isinstance(v, list) else [v])
    return out
