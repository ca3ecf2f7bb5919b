"""The two kinds of types `engine/model/__init__.py` names: contract types are pydantic models a
caller sees (the Design, the request, a tool's arguments and result, a file a user gives, JSON the
CLI prints); engine records are plain `__slots__` classes or NamedTuples."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import pkgutil
import typing
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel

import clustergen.engine
import clustergen.engine.model
from clustergen.engine.calculators.seedconfig import SeedConfig, SizeResult
from clustergen.engine.model.design import Design
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.report.documents.edit import EditSummary
from clustergen.engine.search.rebuild import FieldChange
from clustergen.tools.toolsets import default_registry

#: contracts no tool carries: a file a user gives (`clustergen size --config`'s seed config) and
#: JSON the CLI prints (`size --config`'s result, `render --json`'s changes and summary)
OTHER_CONTRACTS: tuple[type[BaseModel], ...] = (SeedConfig, SizeResult, FieldChange, EditSummary)


def _models_in(annotation: Any) -> Iterator[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
    for arg in typing.get_args(annotation):
        yield from _models_in(arg)


def contract_types() -> set[type[BaseModel]]:
    """Every model reachable from a contract root through its fields, and the models each of
    them extends (a tool's argument model extends the engine's, adding descriptions)."""
    roots: list[type[BaseModel]] = [Design, DesignRequest, *OTHER_CONTRACTS]
    for t in default_registry().tools.values():
        roots += [t.args, t.result]
    seen: set[type[BaseModel]] = set()
    while roots:
        model = roots.pop()
        if model in seen:
            continue
        seen.add(model)
        roots += [b for b in model.__mro__[1:] if issubclass(b, BaseModel) and b is not BaseModel]
        for f in model.model_fields.values():
            roots += _models_in(f.annotation)
    return seen


def _classes(package: Any) -> Iterator[type]:
    for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
        module = importlib.import_module(info.name)
        for obj in vars(module).values():
            if inspect.isclass(obj) and obj.__module__ == module.__name__:
                yield obj


def _name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def test_every_model_in_engine_model_is_a_contract_type() -> None:
    contracts = contract_types()
    stray = [
        _name(c)
        for c in _classes(clustergen.engine.model)
        if issubclass(c, BaseModel) and c not in contracts
    ]
    assert not stray, (
        f"pydantic models no Design, request or tool carries (make them records): {stray}"
    )


def test_no_engine_record_is_a_pydantic_model_or_a_dataclass() -> None:
    contracts = contract_types()
    found = [
        _name(c)
        for c in _classes(clustergen.engine)
        if (issubclass(c, BaseModel) and c not in contracts) or dataclasses.is_dataclass(c)
    ]
    assert not found, f"engine records are __slots__ classes or NamedTuples: {found}"


def test_the_check_sees_both_kinds() -> None:
    from clustergen.engine.model.fabric import FabricPlan
    from clustergen.engine.sizing.inputs import Notes

    contracts = contract_types()
    assert Design in contracts
    assert FabricPlan not in contracts
    assert issubclass(FabricPlan, tuple)
    assert hasattr(Notes, "__slots__")
    assert SeedConfig in contracts


def _future_annotations(module: Any) -> bool:
    return any(
        isinstance(node, ast.ImportFrom)
        and node.module == "__future__"
        and any(a.name == "annotations" for a in node.names)
        for node in ast.parse(inspect.getsource(module)).body
    )


def test_contract_modules_declare_their_annotations_eagerly() -> None:
    # pydantic evaluates a string annotation by compiling it (one `compile` per field): ~70 M
    # instructions, ~4% of a design process, paid again by every process for nothing
    import clustergen.catalog

    lazy = sorted(
        {
            c.__module__
            for package in (clustergen.catalog, clustergen.engine.model)
            for c in _classes(package)
            if issubclass(c, BaseModel)
            and _future_annotations(importlib.import_module(c.__module__))
        }
    )
    assert not lazy, f"pydantic models in modules with postponed annotations: {lazy}"
