"""Every catalog gap says so: nulling, one at a time, any catalog field a design reads gives a
CatalogGapError naming that entry and field, or a design that says the fact is unknown (power
marked incomplete, a check UNKNOWN, a line without its figure); never a crash, never a zero.

The designs are the README's ("512 GPUs training, 5 MW", on the platform the planner chooses for
it), a DGX H100 SuperPOD and a GB200 NVL72 one. The fields are every nullable field (and nullable
field of a nested group, such as a system's port groups) of every entry the design names: the
system, its GPU and NICs, the switches, optics, servers, storage appliance and rack.
"""

from __future__ import annotations

import dataclasses
import json
from functools import cache
from typing import Any

import pytest
from pydantic import BaseModel

from clustergen.catalog import Catalog, load_catalog
from clustergen.catalog.models import Entry, Strict, System
from clustergen.engine.assemble import assemble_design
from clustergen.engine.model.design import Design, DesignChoices
from clustergen.engine.request import DesignRequest, parse_request
from clustergen.engine.search.planner import plan_design
from clustergen.errors import CatalogGapError

CATALOG = load_catalog()

#: fields that never reach a figure: names, provenance prose, prices (a BOM total is only stated
#: when every line is priced) and what only the catalog's own look-ups use
_NOT_FIGURES = {
    *("opn", "notes", "price_usd", "price_source", "cpu", "family", "architecture", "pdu_name"),
}

#: words a design uses when it says a fact is unknown
_UNKNOWN_WORDS = (
    "unknown",
    "not in the catalog",
    "no published",
    "at least",
    "incomplete",
    "to choose",
)


def _readme_platform() -> str:
    return plan_design(CATALOG, parse_request(CATALOG, "512 GPUs training, 5 MW")).platform.system


DESIGNS: dict[str, tuple[DesignRequest, str]] = {
    "readme": (
        DesignRequest(gpus=512, power_cap_w=5e6, workload="training"),
        _readme_platform(),
    ),
    "dgx-h100": (DesignRequest(nodes=127, workload="training"), "dgx-h100"),
    "gb200": (DesignRequest(gpus=576, workload="training"), "gb200-nvl72"),
}


def _design(catalog: Catalog, case: str) -> Design:
    request, platform = DESIGNS[case]
    return assemble_design(catalog, request, DesignChoices(platform=platform))


@cache
def _baseline(case: str) -> tuple[Design, str]:
    design = _design(CATALOG, case)
    return design, _dump(design)


def _dump(design: Design) -> str:
    # descriptions are words (a cable's "up to 50 m"), not figures
    data = _without_descriptions(design.model_dump(mode="json", exclude={"provenance", "memo"}))
    return json.dumps(data, sort_keys=True, indent=0)


def _without_descriptions(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _without_descriptions(v) for k, v in data.items() if k != "description"}
    if isinstance(data, list):
        return [_without_descriptions(v) for v in data]
    return data


def _entries_read(case: str) -> list[tuple[str, str]]:
    """(file stem, id) of every catalog entry the design names."""
    design, _ = _baseline(case)
    system = CATALOG.system(design.platform.system)
    ids = {p for p in (ln.part for ln in design.bom) if p}
    ids |= {system.id, system.gpu or ""}
    ids |= {
        g.nic for g in (system.compute, system.storage, system.inband, system.oob) if g and g.nic
    }
    found = []
    for stem, rows in CATALOG.entries.items():
        for eid in sorted(ids & set(rows)):
            found.append((stem, eid))
    return found


def _nullable(model: BaseModel, prefix: str = "") -> list[str]:
    """Paths of the set fields of `model` that may be null (one level into nested groups)."""
    paths = []
    for name, info in type(model).model_fields.items():
        value = getattr(model, name)
        if value is None or info.is_required() or name in _NOT_FIGURES:
            continue
        if info.default is None:
            paths.append(prefix + name)
        if isinstance(value, Strict) and not prefix:
            paths.extend(_nullable(value, f"{name}."))
    return paths


#: why a null at a field path is not yet said, for the cases below
_WHY = {
    "cage_gbps": "the optic look-up silently picks another part",
    "media": "the optic look-up silently picks another part",
    "total_gbps": "the optic look-up silently picks another part",
    "form_factor": "the link builder picks a transceiver without the form factor",
    "cage_form": "the link builder picks a host transceiver for an unknown cage",
    "nic": "the link builder and BOM take the port group's ports without its card",
    "nics": "the link builder and BOM take the port group's ports without its card",
    "compute": "a server with no compute port group is left out of the links",
    "inband": "a system with no in-band port group is left out of the in-band links",
    "port_speed_gbps": "the cable look-up picks a cable without its speed",
}

#: gaps this test found and the engine does not say yet (strict xfail: a fix makes the case pass,
#: and its id must then go from here)
KNOWN: set[str] = set()


def _cases() -> list[Any]:
    out = []
    for case in DESIGNS:
        for stem, eid in _entries_read(case):
            entry = CATALOG.entries[stem][eid]
            for path in _nullable(entry):
                name = f"{case}-{eid}-{path}"
                why = (_WHY.get(path) or _WHY[path.rpartition(".")[2]]) if name in KNOWN else None
                marks = [pytest.mark.xfail(strict=True, reason=why)] if why else []
                out.append(pytest.param(case, stem, eid, path, id=name, marks=marks))
    return out


def _nulled(stem: str, eid: str, path: str) -> Catalog:
    entries = {s: dict(rows) for s, rows in CATALOG.entries.items()}
    entry: Entry = entries[stem][eid]
    head, _, tail = path.partition(".")
    if tail:
        inner = getattr(entry, head).model_copy(update={tail: None})
        entries[stem][eid] = entry.model_copy(update={head: inner})
    else:
        entries[stem][eid] = entry.model_copy(update={head: None})
    return dataclasses.replace(CATALOG, entries=entries, hash=f"null-{eid}-{path}")


def _says_unknown(design: Design, baseline: str) -> bool:
    text = _dump(design)
    if text == baseline:
        return True  # the field does not reach this design's figures
    if not design.power.complete or any(c.unknown for c in design.checks):
        return True
    # a figure the design now states as null is one it says it does not know
    words = (*_UNKNOWN_WORDS, ": null")
    return any(text.count(w) > baseline.count(w) for w in words)


@pytest.mark.parametrize(("case", "stem", "eid", "path"), _cases())
def test_a_null_catalog_field_is_a_named_gap_or_an_unknown(
    case: str, stem: str, eid: str, path: str
) -> None:
    catalog = _nulled(stem, eid, path)
    _, baseline = _baseline(case)
    gap: CatalogGapError | None = None
    try:
        design = _design(catalog, case)
    except CatalogGapError as exc:
        gap = exc
    if gap is not None:
        assert gap.entry == eid, gap.one_line()
        assert path == gap.field or path.startswith(gap.field + "."), gap.one_line()
    else:
        assert _says_unknown(design, baseline), f"{eid}.{path} null: the design does not say so"


def test_every_design_reads_a_system_a_gpu_switches_and_optics() -> None:
    # the parametrisation above is only as good as the entries it finds
    for case in DESIGNS:
        stems = {stem for stem, _ in _entries_read(case)}
        assert {"systems", "gpus", "switches", "optics"} <= stems, case
        assert isinstance(CATALOG.system(DESIGNS[case][1]), System)
