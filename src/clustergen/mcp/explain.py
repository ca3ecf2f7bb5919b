"""Where a figure of a design comes from: its value, and what the design itself records beside it
(basis, method, source, reason, labelled estimates) on the way down to it, the defaults assumed for
it and the checks that judge it. Nothing is computed here: every word is read from the design."""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from clustergen.errors import RequestError
from clustergen.mcp import designs
from clustergen.tools.registry import did_you_mean

#: keys whose text says where a neighbouring figure comes from
_WHY = re.compile(r"basis|source|method|reason|note|as_of|estimated|complete|band_pct|assum")
#: words too common in field names to tie a check or an assumption to a figure
_GENERIC = {"w", "kw", "mw", "gb", "tb", "s", "per", "total", "count", "the", "of"}
#: the most characters of a value shown (a whole section is one resource read away)
_VALUE_CHARS = 1500


class ExplainArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    design: str = Field(max_length=300, description="the design's id or any of its resource URIs")
    figure: str = Field(
        max_length=300,
        description="dotted path in design.json, e.g. power.it_total_w, compute.gpus, "
        "fabrics.compute.spine_switches",
    )


def _design_id(text: str) -> str:
    parsed = designs.parse_uri(text)
    return parsed[0] if parsed else text.strip()


def _walk(data: Any, path: list[str]) -> tuple[Any, list[dict[str, Any]]]:
    """The value at `path` and the objects passed on the way, innermost last."""
    node, seen = data, []
    for i, part in enumerate(path):
        if isinstance(node, dict):
            seen.append(node)
            if part not in node:
                where = ".".join(path[:i]) or "the design"
                raise RequestError(
                    f"no {part!r} in {where}{did_you_mean(part, node)}; it has: {', '.join(node)}"
                )
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            raise RequestError(f"{'.'.join(path[:i])} has no part {part!r}")
    return node, seen


def _words(path: list[str]) -> set[str]:
    tail = [w for p in path[-2:] for w in re.split(r"[_\W]+", p.lower()) if not w.isdigit()]
    return {w for w in tail if len(w) > 2 and w not in _GENERIC}


def explain(store: designs.DesignStore, a: ExplainArgs) -> str:
    """The explanation of one figure as JSON text."""
    design_id = _design_id(a.design)
    d = store.get(design_id)
    path = [p for p in a.figure.strip().split(".") if p]
    if not path:
        raise RequestError("figure is empty; name a path such as power.it_total_w")
    value, parents = _walk(d.model_dump(mode="json"), path)
    why: dict[str, Any] = {}
    for depth, obj in reversed(list(enumerate(parents))):
        prefix = ".".join(path[:depth])
        for key, v in obj.items():
            if _WHY.search(key) and v not in (None, [], {}) and not isinstance(v, dict):
                why.setdefault(f"{prefix}.{key}" if prefix else key, v)
    words = _words(path)
    assumed = [
        a.model_dump(mode="json")
        for a in d.assumptions
        if a.field in path or words & set(re.split(r"[_\W]+", a.field.lower()))
    ]
    checks = [
        c.model_dump(mode="json", include={"name", "passed", "figure", "detail", "severity"})
        for c in d.checks
        if words & set(re.split(r"[_\W]+", f"{c.name} {c.detail}".lower()))
    ]
    shown = value
    if len(json.dumps(value, default=str)) > _VALUE_CHARS:
        shown = {"keys": list(value)} if isinstance(value, dict) else f"{len(value)} items"
    out = {
        "design": design_id,
        "figure": ".".join(path),
        "value": shown,
        "recorded_beside_it": why,
        "assumed": assumed,
        "checks": checks,
        "whole_design": designs.uri(design_id, "design.json"),
    }
    return json.dumps(out, default=str)
