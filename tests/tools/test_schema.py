"""Tool schemas every client can use: self-contained, grammar-safe, described, one unit convention.

The checks walk every tool's published parameters schema, so a tool added later (in any module of
clustergen.tools) is held to the same rules."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any, Literal

import pytest
from pydantic import BaseModel, Field, ValidationError

from clustergen.tools import default_registry
from clustergen.tools.schema import compact_schema, described

TOOLS = default_registry()


def properties(schema: dict[str, Any], path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """(dotted path, schema) of every property, at any depth (objects, lists, maps)."""
    for name, prop in (schema.get("properties") or {}).items():
        where = f"{path}.{name}" if path else name
        yield where, prop
        yield from properties(prop, where)
        for key in ("items", "additionalProperties"):
            inner = prop.get(key)
            if isinstance(inner, dict):
                yield from properties(inner, f"{where}[]")
        for branch in prop.get("anyOf", []):
            yield from properties(branch, where)


def keys(node: Any) -> Iterator[str]:
    """Every key anywhere in a JSON value (property names included)."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield k
            yield from keys(v)
    elif isinstance(node, list):
        for v in node:
            yield from keys(v)


@pytest.mark.parametrize("name", TOOLS.names())
def test_parameters_are_self_contained_and_grammar_safe(name: str) -> None:
    schema = TOOLS.tools[name].parameters_schema()
    used = set(keys(schema)) - {
        p.rsplit(".", 1)[-1].removesuffix("[]") for p, _ in properties(schema)
    }
    assert not used & {"$ref", "$defs", "definitions"}, "inline every model"
    assert not used & {"maxLength", "pattern", "maxItems", "format"}, "leave these to validation"
    assert schema["type"] == "object"


@pytest.mark.parametrize("name", TOOLS.names())
def test_every_parameter_is_typed_inline_and_described(name: str) -> None:
    schema = TOOLS.tools[name].parameters_schema()
    for path, prop in properties(schema):
        assert prop.get("description"), f"{name}: {path} has no description"
        typed = "type" in prop or "enum" in prop or "anyOf" in prop
        assert typed, f"{name}: {path} has no type of its own"
        if prop.get("type") == "object" or "properties" in prop:
            assert prop.get("type") == "object", f"{name}: {path} is an object without its type"


# Quantities carry their unit in the name, and the same quantity the same unit in every tool.
_UNITS = re.compile(
    r"_(w|kw|gbps|gb|mb|tb|gb_per_s|mb_per_s|mb_per_s_per_gpu|per_s|per_s_per_gpu|s|minutes|"
    r"b|t|usd|days|tokens|ms|hour|per_kwh|years|pflops)$"
)
_COUNTS = {
    "gpus", "nodes", "su_nodes", "planes", "pue", "oversubscription", "metadata_servers",
    "workers_per_gpu", "prefetch_depth", "storage_targets", "gpus_per_node", "drives_per_node",
    "prefixes", "checkpoint_budget_fraction", "quota", "tiers", "fallback_tiers",
    "latency_percentile",  # a rank (p99 -> 99), no unit
    "schedule_reserve_share", "serving_share",  # shares of 1, no unit
    "existing_gpus", "existing_nodes", "existing_sus", "existing_spine_free_ports",
    "replaced_gpus", "spare_nodes",
    "compute_planes", "fabric_tiers", "max_racks", "growth_gpus", "tensor_parallel_gpus",  # counts
}  # fmt: skip


def test_every_quantity_names_its_unit_and_keeps_it_across_tools() -> None:
    seen: dict[str, set[str]] = {}
    for name in TOOLS.names():
        for path, prop in properties(TOOLS.tools[name].parameters_schema()):
            field = path.rsplit(".", 1)[-1].removesuffix("[]")
            if prop.get("type") not in ("number", "integer"):
                continue
            unit = _UNITS.search(field)
            assert unit or field in _COUNTS, f"{name}: {path} names no unit"
            if unit:
                seen.setdefault(field[: unit.start()], set()).add(unit.group(1))
    mixed = {stem: units for stem, units in seen.items() if len(units) > 1}
    assert not mixed, f"one quantity in several units: {mixed}"
    assert seen["power_cap"] == {"w"}


# ---------------------------------------------------------------- compact_schema and described


class _Inner(BaseModel):
    """An inner thing."""

    size_mb: float | None = Field(default=None, gt=0)
    kind: Literal["a", "b"] = "a"


class _Outer(BaseModel):
    note: str = Field(max_length=20_000, pattern=r"^\w+$", description="free text")
    inner: _Inner
    inners: list[_Inner] = Field(default_factory=list, max_length=50)
    maybe: _Inner | None = None


def test_compact_schema_inlines_collapses_and_drops_validation_only_keywords() -> None:
    schema = compact_schema(_Outer)
    assert "$defs" not in schema
    assert schema["properties"]["note"] == {"description": "free text", "type": "string"}
    inner = schema["properties"]["inner"]
    assert inner["type"] == "object"
    assert inner["description"] == "An inner thing."
    assert inner["properties"]["size_mb"] == {"exclusiveMinimum": 0, "type": "number"}
    assert schema["properties"]["inners"]["items"]["type"] == "object"
    assert schema["properties"]["maybe"]["type"] == "object"  # the null branch folded away
    assert "title" not in json.dumps(schema)
    # the model still enforces what the schema leaves out
    with pytest.raises(ValidationError):
        _Outer.model_validate({"note": "x" * 20_001, "inner": {}})


def test_a_recursive_model_cannot_be_inlined() -> None:
    class Node(BaseModel):
        children: list[Node] = []

    with pytest.raises(TypeError, match="refers to itself"):
        compact_schema(Node)


def test_described_fills_descriptions_through_nesting_and_validates_the_same() -> None:
    Described = described(
        _Outer,
        {"inner": "the inner part", "inner.kind": "which kind", "inners.size_mb": "size in MB"},
    )
    schema = compact_schema(Described)
    assert schema["properties"]["inner"]["description"] == "the inner part"
    assert schema["properties"]["inner"]["properties"]["kind"]["description"] == "which kind"
    items = schema["properties"]["inners"]["items"]
    assert items["properties"]["size_mb"]["description"] == "size in MB"
    value = Described.model_validate({"note": "ok", "inner": {"kind": "b"}})
    assert isinstance(value, _Outer)
    assert value.model_dump() == _Outer.model_validate(value.model_dump()).model_dump()
    with pytest.raises(ValidationError):
        Described.model_validate({"note": "not ok!", "inner": {}})


def test_described_refuses_a_field_the_model_lacks() -> None:
    with pytest.raises(KeyError, match="no field 'size'"):
        described(_Outer, {"size": "x"})
    with pytest.raises(KeyError, match="holds no model"):
        described(_Outer, {"note.length": "x"})
