"""Dotted paths into a result's JSON: `fabrics.compute.spine_switches`, with list selectors.

Grammar (one path, segments split on dots outside brackets):

    path      := segment ("." segment)*
    segment   := name selector* | selector+
    selector  := "[" (index | "*" | key "=" value ("|" value)*) "]"

`[2]` picks one list item, `[*]` every item, `[location=leaf|spine]` the items whose `location` is
one of the values (compared as text; booleans as `true`/`false`). A path with `*` or a filter may
select many values; the case then names a reduction (`sum`, `count`, `min`, `max`) or the path must
select exactly one.

The same path is checked twice: at load time against the result's pydantic model (so a typo fails
when the case file is read, with the closest field names), and at score time against the JSON.
"""

from __future__ import annotations

import difflib
import functools
import re
import types
import typing
from dataclasses import dataclass
from typing import Any, Literal, Union

from pydantic import BaseModel

from clustergen.units import plural

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SELECTOR = re.compile(r"\[([^\[\]]+)\]")

Reduce = Literal["sum", "count", "min", "max"]


class PathError(ValueError):
    """A path that does not parse, or names a field the result model does not have."""


@dataclass(frozen=True)
class Selector:
    """One bracketed list selector."""

    index: int | None = None
    key: str | None = None
    values: tuple[str, ...] = ()

    @property
    def every(self) -> bool:
        """True for `[*]`."""
        return self.index is None and self.key is None


@dataclass(frozen=True)
class Segment:
    """A field name (possibly empty) and the selectors after it."""

    name: str | None
    selectors: tuple[Selector, ...]


def _split(path: str) -> list[str]:
    parts: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(path):
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth < 0:
                raise PathError(f"unbalanced ']' in {path!r}")
        elif ch == "." and depth == 0:
            parts.append(path[start:i])
            start = i + 1
    if depth:
        raise PathError(f"unbalanced '[' in {path!r}")
    parts.append(path[start:])
    return parts


def _selector(text: str, path: str) -> Selector:
    text = text.strip()
    if text == "*":
        return Selector()
    if re.fullmatch(r"-?\d+", text):
        return Selector(index=int(text))
    key, eq, values = text.partition("=")
    key = key.strip()
    if not eq or not _NAME.fullmatch(key) or not values.strip():
        raise PathError(f"selector [{text}] in {path!r} is not [N], [*] or [key=value|value]")
    return Selector(key=key, values=tuple(v.strip() for v in values.split("|")))


def parse_path(path: str) -> tuple[Segment, ...]:
    """Parse a path; PathError says what is wrong with it."""
    if not path or not path.strip():
        raise PathError("empty path")
    segments: list[Segment] = []
    for raw in _split(path.strip()):
        m = _NAME.match(raw)
        name = m.group(0) if m else None
        rest = raw[m.end() :] if m else raw
        selectors: list[Selector] = []
        pos = 0
        for sm in _SELECTOR.finditer(rest):
            if sm.start() != pos:
                break
            selectors.append(_selector(sm.group(1), path))
            pos = sm.end()
        if pos != len(rest) or (name is None and not selectors):
            raise PathError(f"segment {raw!r} of {path!r} is not name[selector]...")
        segments.append(Segment(name=name, selectors=tuple(selectors)))
    return tuple(segments)


def is_multi(segments: tuple[Segment, ...]) -> bool:
    """True when a path can select more than one value."""
    return any(s.index is None for seg in segments for s in seg.selectors)


def last_name(segments: tuple[Segment, ...]) -> str | None:
    """The last field name in the path (the one that says what the value is)."""
    for seg in reversed(segments):
        if seg.name:
            return seg.name
    return None


# ---------------------------------------------------------------- resolving against JSON


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _apply(selector: Selector, value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise PathError(f"{where} is not a list")
    if selector.index is not None:
        try:
            return [value[selector.index]]
        except IndexError:
            raise PathError(
                f"{where} has {plural(len(value), 'item')}, no [{selector.index}]"
            ) from None
    if selector.every:
        return list(value)
    return [
        item
        for item in value
        if isinstance(item, dict) and _text(item.get(selector.key)) in selector.values
    ]


@functools.cache
def _request_defaults() -> dict[str, Any]:
    """Each request field's default as JSON: what an echo that leaves the field out means."""
    from clustergen.engine.model.request import DesignRequest

    return DesignRequest().model_dump(mode="json")


def resolve(data: Any, segments: tuple[Segment, ...]) -> list[Any]:
    """Every value the path selects in `data` (JSON). PathError when a field is missing."""
    current = [data]
    where = "result"
    for seg in segments:
        nxt: list[Any] = []
        for value in current:
            if seg.name is not None:
                if not isinstance(value, dict):
                    raise PathError(f"{where} is not an object, so it has no {seg.name!r}")
                if seg.name in value:
                    value = value[seg.name]
                elif where == "result.request" and seg.name in _request_defaults():
                    # design.json's request echo leaves out what was not given: its default
                    value = _request_defaults()[seg.name]
                else:
                    raise PathError(f"{where} has no field {seg.name!r}")
            items = [value]
            for sel in seg.selectors:
                items = [out for item in items for out in _apply(sel, item, where)]
            nxt.extend(items)
        current = nxt
        where = f"{where}.{seg.name}" if seg.name else where
    return current


# ---------------------------------------------------------------- checking against a model


def _unwrap(annotation: Any) -> list[Any]:
    """The concrete types behind Optional/Union/Annotated."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _unwrap(typing.get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        return [t for arg in typing.get_args(annotation) for t in _unwrap(arg)]
    return [annotation]


def _item_types(candidates: list[Any]) -> list[Any]:
    out: list[Any] = []
    for t in candidates:
        if typing.get_origin(t) in (list, tuple):
            args = typing.get_args(t)
            out += [x for a in args if a is not Ellipsis for x in _unwrap(a)]
    return out


def _model_types(candidates: list[Any]) -> list[type[BaseModel]]:
    return [t for t in candidates if isinstance(t, type) and issubclass(t, BaseModel)]


def _is_mapping(candidates: list[Any]) -> bool:
    return any(typing.get_origin(t) is dict or t is dict or t is Any for t in candidates)


def check_path(model: type[BaseModel], path: str) -> None:
    """Raise PathError when `path` cannot exist in JSON dumped from `model` (names, list-ness)."""
    segments = parse_path(path)
    candidates: list[Any] = [model]
    for seg in segments:
        if seg.name is not None:
            if _is_mapping(candidates):
                candidates = [Any]
            else:
                models = _model_types(candidates)
                if not models:
                    raise PathError(f"{path!r}: {seg.name!r} is below a plain value")
                found = [
                    ann
                    for m in models
                    if seg.name in m.model_fields
                    for ann in _unwrap(m.model_fields[seg.name].annotation)
                ]
                if not found:
                    names = sorted({n for m in models for n in m.model_fields})
                    close = difflib.get_close_matches(seg.name, names, n=3)
                    hint = f"; did you mean {', '.join(close)}?" if close else ""
                    owner = "/".join(m.__name__ for m in models)
                    raise PathError(f"{path!r}: {owner} has no field {seg.name!r}{hint}")
                candidates = found
        for sel in seg.selectors:
            if Any in candidates:
                continue
            items = _item_types(candidates)
            if not items:
                raise PathError(
                    f"{path!r}: [{_describe(sel)}] applied to a value that is not a list"
                )
            if sel.key is not None:
                models = _model_types(items)
                if models and not any(sel.key in m.model_fields for m in models):
                    owner = "/".join(m.__name__ for m in models)
                    raise PathError(f"{path!r}: {owner} has no field {sel.key!r} to filter on")
            candidates = items


def _describe(sel: Selector) -> str:
    if sel.index is not None:
        return str(sel.index)
    if sel.key is None:
        return "*"
    return f"{sel.key}={'|'.join(sel.values)}"
