"""The one JSON object in a model's text, however it was wrapped (code fences, prose around it)."""

from __future__ import annotations

import json
import re
from typing import Any

_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.MULTILINE)


def json_object(text: str | None) -> dict[str, Any] | None:
    """The outermost {...} in `text` parsed, or None when there is no JSON object."""
    if not text:
        return None
    body = _FENCE.sub("", text.strip())
    start, end = body.find("{"), body.rfind("}")
    if start == -1 or end <= start:
        return None
    try:
        obj = json.loads(body[start : end + 1])
    except json.JSONDecodeError:
        return None
    return obj if isinstance(obj, dict) else None
