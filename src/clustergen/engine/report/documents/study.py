"""The trade study in words: each row's objective figure, why the chosen row won, the
per-platform answer of a "most GPUs" study, and the study as a Markdown table. The memo's
appendix and the terminal say the same things from here."""

from __future__ import annotations

from clustergen.engine.model.design import Alternative, Design, TradeStudy
from clustergen.units import dollars, plural, ratio, watts

#: short labels for why a row was not chosen, by the phrase its reason carries
_REASONS = (
    ("non-blocking", "blocking fabric"),
    ("over the", "over the cap"),
    ("workload not met", "workload not met"),
    ("IT power incomplete", "power unknown"),
    ("Enterprise RA pattern", "RA pattern misfit"),
    ("reference architecture", "off its RA"),
    ("ties the chosen row", "tie"),
    ("no row met", "closest only"),
    # "dgx-h100 has no price in the catalog, so its capital against the $12.0M budget is
    # unknown": never a lower score (the row may be the chosen one)
    ("no price in the catalog", "capital unknown"),
    # "capital at least $6.4M (37 of 38 orderable lines unpriced), so whether it fits the
    # $12.0M capital budget is unknown": eight lines of the terminal's note column
    ("capital budget is unknown", "capital unknown"),
)


#: what the capital column holds, said once above the table
CAPITAL_NOTE = (
    "Capital is each row's priced BOM lines: 'at least' where some orderable lines have no "
    "price (unknown, not zero), 'unpriced' where none has."
)


def figure(study: TradeStudy, row: Alternative) -> str:
    """A row's objective in its unit."""
    if row.objective is None:
        return "unknown"
    if study.objective_unit == "W":
        return watts(row.objective)
    if study.objective_unit == "USD":
        return dollars(row.objective)
    if study.objective_unit == "GPUs":
        return f"{row.objective:,.0f} GPUs"
    if study.objective_unit == "PFLOPS/MW":
        return f"{row.objective:,.1f} PFLOPS/MW"
    if study.objective_unit == "tokens/s":
        return f"{row.objective:,.0f} tokens/s"
    return f"{row.objective:,.1f} PFLOPS"


def priced(study: TradeStudy) -> bool:
    """Whether any row has a price: then the study shows each row's capital."""
    return any(r.capital_usd is not None for r in study.rows)


def capital_cell(row: Alternative, at_least: str = "at least ") -> str:
    """A row's capital for a table: the total, a lower bound when lines are unpriced, or
    'unpriced' (unknown, never $0)."""
    if row.capital_usd is None:
        return "unpriced"
    return ("" if row.capital_complete else at_least) + dollars(row.capital_usd)


#: what a row that scores worse has, by the objective's unit ('lower score' on a row of more
#: IT power read as the row drawing less); a GPU count objective breaks ties on compute, so
#: its rows keep the general word
_WORSE = {
    "W": "more IT power",
    "USD": "more capital",
    "PFLOPS": "less compute",
    "PFLOPS/MW": "less compute per MW",
    "tokens/s": "fewer tokens/s",
}


def short_reason(why_not: str | None, unit: str | None = None) -> str:
    """A reason short enough for a table column; the whole reason is in the memo and JSON.
    With the study's objective unit, a row that scores worse says what it has more or less of."""
    if why_not is None:
        return ""
    for phrase, label in _REASONS:
        if phrase in why_not:
            return label
    if " against " in why_not:
        return _WORSE.get(unit or "", "lower score")
    return why_not


def built_on(row: Alternative) -> str:
    """'hgx-h100 on sn5610 (1:1)', or what a design without a compute fabric is built as."""
    if row.switch == "none":
        if row.rack_scale:  # the node is the rack: '1 rack of 72 GPUs', never '1 node'
            return f"{row.platform} ({plural(row.nodes, 'rack')} of {row.gpus:,} GPUs, no compute fabric)"
        return f"{row.platform} ({plural(row.nodes, 'node')}, no compute fabric)"
    return f"{row.platform} on {row.switch} ({ratio(row.oversubscription)})"


def why_winner(study: TradeStudy) -> str:
    """One sentence: why the chosen row won, against the runner-up, and what ruled the others
    out."""
    chosen = next((r for r in study.rows if r.chosen), None)
    if chosen is None:
        return "No alternative was chosen from the study."
    text = f"{built_on(chosen)} was chosen by {study.objective} ({figure(study, chosen)})"
    eligible = [r for r in study.rows if r.eligible and not r.chosen]
    if eligible:
        runner = eligible[0]
        text += f"; the runner-up, {built_on(runner)}, {runner_up_words(runner.why_not)}"
    ruled = [r for r in study.rows if not r.eligible and not r.chosen]  # the closest is chosen
    if ruled:
        counts: dict[str, int] = {}
        for r in ruled:
            label = short_reason(r.why_not)
            counts[label] = counts.get(label, 0) + 1
        listed = ", ".join(f"{label} ({n})" for label, n in counts.items())
        text += f". Ruled out: {listed}"
    return text + "."


def runner_up_words(why_not: str | None) -> str:
    """Why the runner-up lost, as the rest of a sentence. A bare comparison ('359.5 kW IT
    against 350.8 kW IT') reads with its verb; one whose figures agree as printed ('103.1 kW IT
    against 103.1 kW IT') says the two only part past the figure shown."""
    if why_not is None:
        return "ranks below it"
    ours, sep, theirs = why_not.partition(" against ")
    if not sep or ours.startswith(("scores ", "ties ", "IT power ", "no row ")):
        return why_not
    best, _, more = theirs.partition("; ")
    if ours == best:
        return f"scores {ours} too (the two differ only past the digits shown)" + (
            f"; {more}" if more else ""
        )
    return f"scores {why_not}"


def per_platform(study: TradeStudy) -> list[Alternative]:
    """The best eligible row of each platform, in the study's order: the answer table of a
    "how many GPUs fit" study."""
    seen: set[str] = set()
    out = []
    for r in study.rows:
        if r.eligible and r.platform not in seen:
            seen.add(r.platform)
            out.append(r)
    return out


def answer_table(study: TradeStudy) -> list[str]:
    """Markdown: per platform, GPUs, dense PFLOPS, IT and facility power."""
    out = [
        "| platform | GPUs | dense PFLOPS | IT power | facility power |",
        "|---|---:|---:|---:|---:|",
    ]
    for r in per_platform(study):
        mark = " **(chosen)**" if r.chosen else ""
        pf = "unknown" if r.dense_pflops is None else f"{r.dense_pflops:,.1f}"
        out.append(
            f"| {r.platform}{mark} | {r.gpus:,} | {pf} | {watts(r.it_power_w)} "
            f"| {watts(r.facility_power_w)} |"
        )
    return out


def _fabric_cell(r: Alternative) -> str:
    """'infiniband (qm9700) 1:1'; a row with no compute fabric (one node, one NVL72 rack) says
    'none', not the technology it does not build ('infiniband (none) 1:1')."""
    if r.switch == "none":
        return "none"
    return f"{r.fabric} ({r.switch}) {ratio(r.oversubscription)}"


def study_table(d: Design) -> list[str]:
    """The trade study as Markdown: why the winner won, the ranking rule once, every row."""
    study = d.alternatives
    if study is None:
        return ["No trade study was run: the request named the platform and its choices."]
    out = [why_winner(study), "", f"Objective: {study.objective}."]
    if study.ranking:
        out += ["", f"Ranking: {study.ranking}."]
    if study.objective_unit == "GPUs":
        out += ["", "The answer per platform:", "", *answer_table(study)]
    capital = priced(study)
    if capital:
        out += ["", CAPITAL_NOTE]
    # a page's width: the fabric and its ratio share a column, the GPUs a row needs stand beside
    # its GPUs where they differ, and why a row lost is a list under the table (eleven columns
    # ran off a printed page)
    out += [
        "",
        "| # | platform | fabric | GPUs (needed) | IT power | switches | racks | RA "
        f"|{' capital |' if capital else ''} objective |",
        f"|---:|---|---|---:|---:|---:|---:|---|{'---:|' if capital else ''}---:|",
    ]
    lost = []
    for i, r in enumerate(study.rows, 1):
        mark = " **(chosen)**" if r.chosen else ""
        more = r.needed_gpus is not None and r.needed_gpus != r.gpus
        gpus = f"{r.gpus:,}" + (f" ({r.needed_gpus:,})" if more else "")
        bound = "" if r.power_complete else "at least "
        cap = f" {capital_cell(r)} |" if capital else ""
        out.append(
            f"| {i} | {r.platform}{mark} | {_fabric_cell(r)} "
            f"| {gpus} | {bound}{watts(r.it_power_w)} | {r.switches:,} "
            f"| {'' if r.racks is None else f'{r.racks:,}'} | {'yes' if r.follows_ra else 'no'} "
            f"|{cap} {figure(study, r)} |"
        )
        if r.why_not:
            fabric = "no compute fabric" if r.switch == "none" else f"{r.fabric}, {r.switch}"
            lost.append(f"- row {i}, {r.platform} ({fabric}): {r.why_not}")
    if lost:
        out += ["", "Not chosen because:", "", *lost]
    for drop in study.dropped:
        out.append(f"\nNot sized: {drop.platform} ({drop.fabric or 'any fabric'}): {drop.why_not}")
    return out
