"""References between catalog entries, declared on the field that holds one.

A field whose value is the id of another kind's entry says so in its type,
`Annotated[str, Ref("cdus")]` (inside `| None` or `list[...]` too), and `references` walks any
catalog model, nested ones included, yielding each reference with the field path a problem is
reported at. The loader checks every one of them against the loaded ids with one generic loop:
a new reference is one `Ref` on its field, and nothing else.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Annotated, Any, NamedTuple, get_args, get_origin

from pydantic import BaseModel


class Ref:
    """Marks a field holding the id of an entry of catalog kind `kind` (its file stem)."""

    __slots__ = ("kind",)

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def __repr__(self) -> str:
        return f"Ref({self.kind!r})"


class Reference(NamedTuple):
    """One id an entry names: at `field` (a dotted path), of kind `kind`, the id `target`."""

    field: str
    kind: str
    target: str


class _FieldRefs(NamedTuple):
    name: str
    kind: str | None  # the kind the field's ids are of, or None
    models: tuple[type[BaseModel], ...]  # the catalog models the field may hold, to walk into


def _ref_in(annotation: Any) -> str | None:
    """The kind a type's `Ref` names, looking through `X | None` and `list[X]`."""
    if get_origin(annotation) is Annotated:
        for meta in annotation.__metadata__:
            if isinstance(meta, Ref):
                return meta.kind
    for arg in get_args(annotation):
        found = _ref_in(arg)
        if found is not None:
            return found
    return None


def _models_in(annotation: Any) -> Iterator[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
    for arg in get_args(annotation):
        yield from _models_in(arg)


@cache
def _fields(model: type[BaseModel]) -> tuple[_FieldRefs, ...]:
    out = []
    for name, f in model.model_fields.items():
        own = next((m.kind for m in f.metadata if isinstance(m, Ref)), None)
        kind = own or _ref_in(f.annotation)
        models = tuple(_models_in(f.annotation))
        if kind is not None or models:
            out.append(_FieldRefs(name, kind, models))
    return tuple(out)


def references(value: BaseModel, path: str = "") -> Iterator[Reference]:
    """Every reference `value` and the models inside it make, in field order. A list of ids is
    reported at the list's field, the YAML key a user wrote."""
    for f in _fields(type(value)):
        held = getattr(value, f.name)
        items = held if isinstance(held, list | tuple) else [held]
        for item in items:
            if f.kind is not None and isinstance(item, str):
                yield Reference(f"{path}{f.name}", f.kind, item)
            elif isinstance(item, BaseModel):
                yield from references(item, f"{path}{f.name}.")


def referenced_kinds(model: type[BaseModel]) -> set[str]:
    """Every kind a model's fields, and its nested models' fields, may refer to."""
    kinds: set[str] = set()
    for f in _fields(model):
        if f.kind is not None:
            kinds.add(f.kind)
        for nested in f.models:
            kinds |= referenced_kinds(nested)
    return kinds
