"""Argument schemas every client can use: self-contained, small, and within what a server's
grammar engine can hold.

A self-hosted server (llama.cpp's, vLLM's guided decoding) turns each tool's parameters into a
grammar that constrains the model's output. Some schema features make that grammar explode or fail:
a string of `maxLength` 20000 becomes 20000 nested rules, a `$ref` into `$defs` is not followed by
every converter (and the MCP Inspector sends an object parameter typed only by `$ref` as a string).
So the schema a model or an MCP client reads is the argument model's JSON Schema with every `$ref`
inlined, lengths and patterns left to validation (the pydantic model still enforces them), optional
fields written as their type alone, and titles (which repeat the field name) dropped.

`described` gives engine models the field descriptions a model needs without touching the engine:
a tool's argument model is a subclass whose fields carry the tool's wording.
"""

from __future__ import annotations

import copy
import functools
import operator
import types
from collections.abc import Mapping
from typing import Any, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, create_model

M = TypeVar("M", bound=BaseModel)

#: Keywords a grammar builder may turn into one rule per unit of the bound, or not support:
#: validation enforces them, the published schema leaves them out.
VALIDATION_ONLY = frozenset(
    {"maxLength", "pattern", "maxItems", "uniqueItems", "format", "propertyNames", "maxProperties"}
)
_SUBSCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SUBSCHEMA = ("items", "additionalProperties", "not")


def compact_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON Schema, self-contained and grammar-safe (see the module docstring).

    Raises TypeError for a recursive model, which no self-contained schema can describe."""
    raw = model.model_json_schema()
    defs = raw.pop("$defs", {})
    inlined = _inline(raw, defs, ())
    cleaned: dict[str, Any] = _clean(inlined)
    return cleaned


def _inline(node: Any, defs: Mapping[str, Any], seen: tuple[str, ...]) -> Any:
    if isinstance(node, list):
        return [_inline(v, defs, seen) for v in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str):
        name = ref.rsplit("/", 1)[-1]
        if name in seen:
            raise TypeError(f"schema {name} refers to itself; a tool schema must be finite")
        # Keywords beside the $ref (a field's description, its default) describe this use of it.
        target = {**defs[name], **{k: v for k, v in node.items() if k != "$ref"}}
        return _inline(target, defs, (*seen, name))
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "properties":
            out[key] = {p: _inline(s, defs, seen) for p, s in value.items()}
        else:
            out[key] = _inline(value, defs, seen)
    return out


def _clean(schema: Any) -> Any:
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in VALIDATION_ONLY or key == "title" or (key == "default" and value is None):
            continue
        if key == "properties":
            out[key] = {p: _clean(s) for p, s in value.items()}
        elif key in _SUBSCHEMA_LISTS:
            out[key] = [_clean(s) for s in value]
        elif key in _SUBSCHEMA and isinstance(value, dict):
            out[key] = _clean(value)
        else:
            out[key] = value
    return _collapse(out)


def _collapse(schema: dict[str, Any]) -> dict[str, Any]:
    """`anyOf: [X, null]` (an optional field) as X; `allOf: [X]` as X. The field stays optional
    (it is not in `required`) and validation still accepts an explicit null."""
    for key in ("anyOf", "oneOf", "allOf"):
        branches = schema.get(key)
        if not isinstance(branches, list):
            continue
        kept = [b for b in branches if b != {"type": "null"}]
        if len(kept) == 1 and (key == "allOf" or len(kept) < len(branches)):
            rest = {k: v for k, v in schema.items() if k != key}
            return {**kept[0], **rest}
    return schema


# ---------------------------------------------------------------- descriptions for engine models


def described(
    model: type[M], help: Mapping[str, str], *, name: str | None = None, doc: str | None = None
) -> type[M]:
    """A subclass of `model` whose fields carry the descriptions in `help` (field name -> text;
    `"outer.inner"` reaches a field of a nested model, through lists, dicts and optionals).

    The subclass validates exactly as `model` does and its instances are `model`s, so the engine
    function a tool calls takes them as they are. Raises KeyError for a name `model` lacks."""
    own: dict[str, str] = {}
    nested: dict[str, dict[str, str]] = {}
    for key, text in help.items():
        head, _, rest = key.partition(".")
        if head not in model.model_fields:
            raise KeyError(f"{model.__name__} has no field {head!r}")
        if rest:
            nested.setdefault(head, {})[rest] = text
        else:
            own[head] = text
    fields: dict[str, Any] = {}
    for field_name in own.keys() | nested.keys():
        info = copy.copy(model.model_fields[field_name])
        annotation = info.annotation
        if field_name in nested:
            inner = model_in(annotation)
            if inner is None:
                raise KeyError(f"{model.__name__}.{field_name} holds no model to describe")
            annotation = _swap(annotation, inner, described(inner, nested[field_name]))
            info.annotation = annotation
        if field_name in own:
            info.description = own[field_name]
        fields[field_name] = (annotation, info)
    sub = create_model(
        name or model.__name__,
        __base__=model,
        __doc__=doc if doc is not None else model.__doc__,
        __module__=model.__module__,
        **fields,
    )
    result: type[M] = sub
    return result


def model_in(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation):
        found = model_in(arg)
        if found is not None:
            return found
    return None


def _swap(annotation: Any, old: type[BaseModel], new: type[BaseModel]) -> Any:
    """`annotation` with `old` replaced by `new` (in X, X | None, list[X], dict[str, X])."""
    if annotation is old:
        return new
    args = get_args(annotation)
    if not args or model_in(annotation) is None:  # e.g. a constrained dict key: nothing to swap
        return annotation
    swapped = tuple(_swap(a, old, new) for a in args)
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        return functools.reduce(operator.or_, swapped)
    if origin in (list, tuple, set, frozenset, dict):
        return origin[swapped]
    raise TypeError(f"cannot describe a model inside {annotation!r}")
