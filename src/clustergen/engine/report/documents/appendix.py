"""The memo's appendix: method, assumptions with the documents they come from, the trade study
(and why the winner won), every check, and any design section the memo has no words for yet."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from clustergen.engine.model.design import Design
from clustergen.engine.model.inventory import unfolded
from clustergen.engine.model.links import LinkEnd
from clustergen.engine.report.words import (
    document,
    field_words,
    value_words,
)
from clustergen.safe_text import markdown
from clustergen.units import plural

METHOD = (
    "Catalog facts, each with its published source, feed a rule-based engine: node power from "
    "the published maximum, Clos fat-tree fabrics (leaf uplinks spread evenly over the spines, "
    "the k²/2 two-tier limit, rail-optimized scalable units), a power-first solve against the "
    "cap, racks under their power limit, and storage targets from NVIDIA's DGX SuperPOD "
    "guidance, with the data path checked by a storage I/O model. Every figure in this memo "
    "comes from the engine; a figure the catalog does not know is shown as unknown and left "
    "out of the totals, never counted as zero."
)


def _cell(text: str) -> str:
    """A table cell on one line. The memo hands this module a design whose strings are already
    Markdown-escaped (`safe_text.markdown` escapes `|` too), so nothing more is escaped here."""
    return " ".join(text.split())


def derivations(d: Design) -> list[str]:
    """How the figures the memo's first pages state were derived, where a sentence says it."""
    st, fs = d.storage.targets, d.storage.file_system
    out = [
        "",
        "How the figures were derived:",
        "",
        f"- Storage targets ({st.tier} tier): {_cell(st.basis)}",
    ]
    if d.data_path_applies:
        out.append(f"- Storage system: {_cell(fs.basis)}")
    return out


def readings(d: Design) -> list[str]:
    """How each phrase of the request was read (preferences, ceilings, what was ruled out), so
    a reader can check the reading before the defaults below."""
    if not d.request.understood:
        return []
    out = ["How the request was read, phrase by phrase:", ""]
    out += [f"- {u}" for u in d.request.understood]
    if d.request.not_understood:
        out.append(f"- not understood (ignored): {', '.join(d.request.not_understood)}")
    return [*out, ""]


def assumptions(d: Design) -> list[str]:
    """The defaults the design assumed, each with why and the document it comes from."""
    if not d.assumptions:
        return ["The request stated everything the design needed; nothing was assumed."]
    out = ["| default | value | why | source |", "|---|---|---|---|"]
    for a in d.assumptions:
        src = document(a.source) if a.source else "clustergen engine rule"
        out.append(
            f"| {field_words(a.field)} | {_cell(value_words(a.value))} | {_cell(a.reason)} "
            f"| {_cell(src)} |"
        )
    return out


def sources(d: Design) -> list[str]:
    """Every document the design's parts and defaults cite, once each."""
    docs: list[str] = []
    cited = [a.source for a in d.assumptions] + [ln.source for ln in d.bom if ln.part]
    for text in cited:
        doc = document(text) if text else ""
        if doc and doc not in docs:
            docs.append(doc)
    return [f"{i}. {doc}" for i, doc in enumerate(docs, start=1)]


def _end(end: LinkEnd) -> str:
    optic = f" with {end.transceivers:,} x {end.transceiver}" if end.transceiver else ""
    supplied = "" if end.supply == "order" else f" ({end.supply})"
    return f"{end.device}, {end.port}{optic}{supplied}"


def links(d: Design) -> list[str]:
    """Every group of identical links with both ends and its cable: the cable schedule in brief
    (one row per cable is `cable_schedule.csv`). A list, not a table: each end names a device,
    a port and its optics, too long for table cells on a portrait page."""
    if not d.links:
        return ["The design has no links beyond the site's own (one node, no fabric)."]
    out = []
    for g in d.links:
        cables = -(-g.links // g.links_per_cable)
        cable = g.cable or "cable to choose"
        supplied = "" if g.cable_supply == "order" else f", {g.cable_supply}"
        out.append(
            _cell(
                f"- **{g.fabric}, {g.segment}:** {g.links:,} links at {g.speed_gbps:g} Gb/s, "
                f"from {_end(g.a)} to {_end(g.b)}; {cables:,} x {cable} "
                f"({g.media}, {g.length_class}{supplied})."
            )
        )
    return out


def checks(d: Design) -> list[str]:
    """Every check the design was validated against, with its figure and what it means."""
    out = ["| result | check | figure | detail |", "|---|---|---|---|"]
    for ch in d.checks:
        out.append(f"| {ch.status} | {_cell(ch.name)} | {_cell(ch.figure)} | {_cell(ch.detail)} |")
    return out


# Sections the memo writes in its own words; any other section of a Design (one added later)
# is listed generically in the appendix, so it reaches the reader without more work.
RENDERED = frozenset(
    {
        "schema_version",
        "mode",
        "request",
        "choices",
        "assumptions",
        "platform",
        "compute",
        "fabrics",
        "servers",
        "racks",
        "power",
        "storage",
        "training",
        "bom",
        "bom_totals",
        "checks",
        "alternatives",
        "warnings",
        "memo",
        "agent",
        "grounding",
        "provenance",
        "workload",
        "links",
        "cost",
        "notice",
        "scale",
    }
)


def _flat(value: Any, prefix: str = "") -> list[str]:
    """A model or value as 'field: value' bullets, nested fields joined by dots."""
    if isinstance(value, BaseModel):
        out: list[str] = []
        for name, v in value:
            out += _flat(v, f"{prefix}{field_words(name)}.")
        return out
    if isinstance(value, list) and value and isinstance(value[0], BaseModel):
        return [f"- {prefix.rstrip('.')}: {plural(len(value), 'item')}"]
    # Strings arrive escaped (the memo's copy of the design); a dict or list shows its keys too.
    shown = value if isinstance(value, str) else markdown(value)
    return [f"- {prefix.rstrip('.')}: {shown}"]


def other_sections(d: Design) -> list[str]:
    """Every section of the design the memo does not render in its own words."""
    out: list[str] = []
    for name in type(d).model_fields:
        if name in RENDERED:
            continue
        value = getattr(d, name)
        if value is None or value == []:
            continue
        if name == "inventory":
            out += inventory_section(d)
            continue
        out += [f"\n### {field_words(name).capitalize()}\n", *_flat(value)]
    return out


def inventory_section(d: Design) -> list[str]:
    """The inventory in words: how many devices of each role stand in how many racks, and
    where each is listed (the rack plan and NetBox files name every device and its U)."""
    inv = d.inventory
    if inv is None:
        return []
    roles: dict[str, int] = {}
    for g in inv.groups:
        roles[g.role] = roles.get(g.role, 0) + g.count
    devices = sum(roles.values())
    racks = len(unfolded(inv.racks))
    by_role = ", ".join(f"{n:,} {role}" for role, n in roles.items() if n)
    return [
        "\n### Inventory\n",
        f"{devices:,} devices in {plural(len(inv.groups), 'group')} ({by_role}), placed in "
        f"{plural(racks, 'rack')}: `rack_plan.csv` and the NetBox files name every device, its "
        "rack and its position, and `netbox_cables.csv` every cable's two ends.",
        f"\nPlacement: {inv.basis}.",
    ]
