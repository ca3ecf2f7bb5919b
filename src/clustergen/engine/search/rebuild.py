"""Re-validate an edited design (`clustergen render`): the engine owns every figure, so a design is
rebuilt from its request and choices. An edit of those inputs is taken and what it changed is
reported; an edit of a derived figure alone (a power total typed over, a check turned to pass)
is refused, since the engine would silently undo it."""

from __future__ import annotations

from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict

from clustergen.catalog.loader import Catalog
from clustergen.engine.assemble import assemble_design, inputs_digest
from clustergen.engine.model.design import Design
from clustergen.engine.search.proposal import design_from_choices
from clustergen.errors import RequestError

#: parts of a design that are not the engine's figures: kept from the file as they are
KEPT = ("memo", "agent", "grounding")
#: parts that say how the design was made, not what it is
IGNORED = frozenset({"provenance", *KEPT})

#: changes listed in a refusal or a report before "... and N more"
SHOWN = 8


class FieldChange(BaseModel):
    """One figure the rebuild changed: its path in design.json, before and after."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    path: str
    before: Any
    after: Any


class Rebuilt(NamedTuple):
    """The design the engine rebuilt, and what differs from the file (an engine record: `render`
    prints its parts, the changes as `FieldChange`s)."""

    design: Design
    inputs_edited: bool
    changes: list[FieldChange]


def _leaves(value: Any, path: str, out: dict[str, Any]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _leaves(v, f"{path}.{k}" if path else str(k), out)
    elif isinstance(value, list) and value and isinstance(value[0], dict | list):
        for i, v in enumerate(value):
            _leaves(v, f"{path}[{i}]", out)
    else:
        out[path] = value


def changes(before: Design, after: Design) -> list[FieldChange]:
    """Every figure that differs between two designs, by its path (how the design was made and
    model-written text left out)."""
    a: dict[str, Any] = {}
    b: dict[str, Any] = {}
    _leaves(before.model_dump(mode="json", exclude=set(IGNORED)), "", a)
    _leaves(after.model_dump(mode="json", exclude=set(IGNORED)), "", b)
    return [
        FieldChange(path=p, before=a.get(p), after=b.get(p))
        for p in sorted(set(a) | set(b), key=lambda k: (k not in a, k))
        if a.get(p) != b.get(p)
    ]


#: the figures a reader looks for first, listed before the rest
KEY_PATHS = (
    "choices.",
    "request.",
    "platform.system",
    "compute.gpus",
    "compute.nodes",
    "power.it_total_w",
    "power.facility_total_w",
    "fabrics.compute.total_switches",
    "racks.total_racks",
    "bom_totals.",
)


def _rank(c: FieldChange) -> int:
    for i, key in enumerate(KEY_PATHS):
        if c.path == key or (key.endswith(".") and c.path.startswith(key)):
            return i
    return len(KEY_PATHS)


def listed(found: list[FieldChange]) -> str:
    """The first changes as 'path: before -> after' (inputs and headline figures first), and
    how many more."""
    found = sorted(found, key=_rank)
    text = "; ".join(f"{c.path}: {c.before!r} -> {c.after!r}" for c in found[:SHOWN])
    if len(found) > SHOWN:
        text += f"; and {len(found) - SHOWN} more"
    return text


def rebuild(catalog: Catalog, edited: Design) -> Rebuilt:
    """The engine's design for an edited design.json. Raises RequestError for an edit of derived
    figures alone, and the engine's own error when the edited inputs cannot be built."""
    digest = inputs_digest(edited.request, edited.choices, catalog.hash)
    inputs_edited = edited.provenance.inputs_sha256 != digest
    if inputs_edited:
        # new inputs: the trade study beside the design is re-run for them as well
        design = design_from_choices(
            catalog,
            edited.request,
            edited.choices,
            mode=edited.mode,
            reason="rebuilt from the edited request and choices",
        )
    else:
        design = assemble_design(
            catalog,
            edited.request,
            edited.choices,
            mode=edited.mode,
            assumptions=[a for a in edited.assumptions if a.field == "platform"],
            alternatives=edited.alternatives,
            platform_reason=edited.platform.reason,
        )
    design = design.model_copy(update={k: getattr(edited, k) for k in KEPT})
    found = changes(edited, design)
    if found and not inputs_edited:
        raise RequestError(
            "design.json was edited in figures the engine derives, not in its request or "
            f"choices: {listed(found)}",
            hint="edit `request` or `choices` instead (the engine rebuilds every figure from "
            "them), or start again from a new design bundle",
        )
    return Rebuilt(design=design, inputs_edited=inputs_edited, changes=found)
