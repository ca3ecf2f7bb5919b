"""The memo's appendix: method, assumptions with the documents they come from, the trade study
(and why the winner won), every check, and any design section the memo has no words for yet."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from clustergen.engine.model.design import Alternative, Design, TradeStudy
from clustergen.engine.report.words import (
    check_mark,
    document,
    field_words,
    value_words,
    watts,
)
from clustergen.units import plural, ratio

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
    """Text safe inside a Markdown table cell."""
    return " ".join(text.split()).replace("|", "/")


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


def _beaten_because(chosen: Alternative, other: Alternative, wanted: int | None) -> str:
    """Why a row that scores higher than the chosen one was not chosen."""
    if wanted is not None and other.gpus > wanted * 1.05:
        return f"it delivers {other.gpus:,} GPUs for the {wanted:,} asked"
    return "the chosen row follows the platform's published reference architecture"


def why_winner(study: TradeStudy, wanted_gpus: int | None = None) -> str:
    """One sentence: why the chosen row won, against the runner-up in the study's ranking, and
    what ruled the other rows out."""
    chosen = next((r for r in study.rows if r.chosen), None)
    if chosen is None:
        return "No alternative was chosen from the study."
    goal = study.objective.split(" (")[0]
    text = f"{chosen.platform} on {chosen.switch} ({ratio(chosen.oversubscription)}) was chosen"
    eligible = [r for r in study.rows if r.eligible and not r.chosen]
    higher = [
        r
        for r in eligible
        if r.objective is not None
        and chosen.objective is not None
        and r.objective > chosen.objective
    ]
    if higher:
        best = max(higher, key=lambda r: r.objective or 0.0)
        text += (
            f"; {best.platform} on {best.switch} scores higher on {goal} "
            f"({best.objective:,.1f} against {chosen.objective:,.1f}) but "
            f"{_beaten_because(chosen, best, wanted_gpus)}"
        )
    elif eligible and chosen.objective is not None and eligible[0].objective:
        runner = eligible[0]
        gain = chosen.objective / (runner.objective or 1.0) - 1
        text += (
            f": the highest {goal} of the eligible alternatives ({chosen.objective:,.1f}, "
            f"{gain:+.1%} against the runner-up, {runner.platform} on {runner.switch})"
        )
    ineligible = [r for r in study.rows if not r.eligible]
    if ineligible:
        reasons: dict[str, int] = {}
        for r in ineligible:
            why = r.why_not or "not eligible"
            reasons[why] = reasons.get(why, 0) + 1
        listed = "; ".join(f"{why} ({n})" for why, n in reasons.items())
        text += (
            f". {plural(len(ineligible), 'alternative')} "
            f"{'was' if len(ineligible) == 1 else 'were'} ruled out: {listed}"
        )
    return text + "."


def trade_study(d: Design) -> list[str]:
    """The trade study as a table, after the sentence that says why the winner won."""
    study = d.alternatives
    if study is None:
        return ["No trade study was run: the request named the platform and its choices."]
    out = [
        why_winner(study, d.request.gpus),
        "",
        f"Objective: {study.objective}.",
        "",
        "| platform | fabric | oversubscription | GPUs | IT power | switches | objective | eligible |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for alt in study.rows:
        mark = " **(chosen)**" if alt.chosen else ""
        elig = "yes" if alt.eligible else f"no: {alt.why_not}"
        obj = "unknown" if alt.objective is None else f"{alt.objective:,.1f}"
        out.append(
            f"| {alt.platform}{mark} | {alt.fabric} ({alt.switch}) | {ratio(alt.oversubscription)} "
            f"| {alt.gpus:,} | {watts(alt.it_power_w)} | {alt.switches} | {obj} | {elig} |"
        )
    for drop in study.dropped:
        out.append(f"\nNot sized: {drop.platform} ({drop.fabric or 'any fabric'}): {drop.why_not}")
    return out


def checks(d: Design) -> list[str]:
    """Every check the design was validated against, with its figure and what it means."""
    out = ["| result | check | figure | detail |", "|---|---|---|---|"]
    for ch in d.checks:
        out.append(
            f"| {check_mark(ch)} | {_cell(ch.name)} | {_cell(ch.figure)} | {_cell(ch.detail)} |"
        )
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
    return [f"- {prefix.rstrip('.')}: {value}"]


def other_sections(d: Design) -> list[str]:
    """Every section of the design the memo does not render in its own words."""
    out: list[str] = []
    for name in type(d).model_fields:
        if name in RENDERED:
            continue
        value = getattr(d, name)
        if value is None or value == []:
            continue
        out += [f"\n### {field_words(name).capitalize()}\n", *_flat(value)]
    return out
