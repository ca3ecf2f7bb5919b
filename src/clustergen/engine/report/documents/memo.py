"""The design memo, in the order a proposal reads: the answer and its key figures first, then the
configuration, topology, power, BOM, risks and next steps; method, assumptions with their
documents, the trade study and every check in the appendix. Generated, never typed; customer
words only (engine field names and catalog labels go through `words`).

Catalog, request and model text renders as text: `render_memo` shows a copy of the design whose
every string went through `safe_text.markdown` (the model's notes through `markdown_block`), so the
sections below interpolate fields as they are and keep the memo's own formatting."""

from __future__ import annotations

import re

from clustergen.engine.model.design import Design, ManagementNetwork, PowerSection
from clustergen.engine.model.fabric import FabricDesign
from clustergen.engine.model.request import LOAD_NOTE
from clustergen.engine.report.documents import appendix, study, workload
from clustergen.engine.report.documents.cooling import cooling_line, heat_lines
from clustergen.engine.report.documents.cost import cost_line, cost_section
from clustergen.engine.report.figures import (
    estimated_standing_w,
    headroom_words,
    support_racks_words,
    unknown_standing_draw,
)
from clustergen.engine.report.files.bomfile import (
    bom_csv,
    bom_power_w,
    category_totals,
)
from clustergen.engine.report.pictures.topology import model_name
from clustergen.engine.report.scale_words import (
    gpus_text,
    in_units,
    node_noun,
    nodes_text,
    systems_text,
    units_text,
    what_text,
)
from clustergen.engine.report.words import (
    compute_rack_words,
    field_words,
    network_switches,
    no_fabric_words,
    power_rows,
    value_words,
    verdict,
)
from clustergen.safe_text import map_text, markdown, markdown_block
from clustergen.units import bandwidth, plural, ratio, watts

__all__ = ["bom_csv", "render_memo", "storage_lines"]

#: the pictures a bundle holds beside the memo, by file name
PICTURES = {
    "topology.png": "Topology",
    "topology-page.png": "Topology",
    "power.png": "IT power by subsystem",
    "racks.png": "Rack elevations, one per rack type",
}


def _fabric_words(f: FabricDesign | None, unit: str) -> str:
    if f is None:
        return no_fabric_words(unit)
    tech = "InfiniBand" if f.technology == "infiniband" else "Ethernet"
    blocking = (
        "non-blocking" if f.oversubscription <= 1 else f"{ratio(f.oversubscription)} oversubscribed"
    )
    planes = f", {f.planes} planes" if f.planes > 1 else ""
    tiers = [f"{f.leaf_switches:,} leaf"]
    if f.spine_switches:
        tiers.append(f"{f.spine_switches:,} spine")
    if f.core_switches:
        tiers.append(f"{f.core_switches:,} core")
    return (
        f"{blocking} {f.tiers}-tier {tech} fabric{planes} ({', '.join(tiers)} "
        f"{model_name(f.leaf_switch)} switches, {f.port_speed_gbps:g} Gb/s links)"
    )


def _support_racks(d: Design) -> str:
    """The racks beside the compute racks as the summary table counts them ("4 network and 2
    storage racks"), never all of them as network racks."""
    *kinds, last = support_racks_words(d).split(" + ")
    if not kinds:
        return plural(d.racks.network_racks, "network rack")
    return f"{', '.join(kinds)} and {last} racks"


def _units(d: Design) -> str:
    return units_text(d) or "no scalable-unit layout (one block of nodes)"


def pools_headline(d: Design) -> str:
    """A mixed cluster's answer in one paragraph: each pool, what it was sized for, and what
    both draw together."""
    pw = d.power
    parts = [
        f"a {p.role} pool of {p.gpus:,} {p.gpu_name} GPUs on {p.nodes:,} x {p.platform_name} "
        f"({p.fabric}; {p.sized_for})"
        for p in d.pools
    ]
    least = "" if pw.complete else "at least "
    text = (
        f"We recommend a mixed cluster of two pools: {'; and '.join(parts)}. Together they "
        f"draw {least}{watts(pw.it_total_w)} of IT power ({least}{watts(pw.facility_total_w)} "
        f"at a facility PUE of {pw.pue:g}) in {d.racks.total_racks:,} racks"
    )
    if pw.cap_w is not None and pw.headroom_w is not None:
        text += _left_under_cap(pw)
    return text + "."


def _left_under_cap(pw: PowerSection, standing_w: float = 0.0) -> str:
    """', leaving 14.2 kW at the meter (9.1 kW of IT) under the 3.000 MW facility power cap': the
    headroom is IT power; under a facility cap it is said at the meter too. `standing_w` is an
    increment's standing draw the cap also holds."""
    assert pw.cap_w is not None
    assert pw.headroom_w is not None
    basis = "IT" if pw.cap_basis == "it" else "facility"
    room = pw.headroom_w - standing_w
    if room < 0:
        return f", {watts(-room)} of IT power over the {watts(pw.cap_w)} {basis} power cap"
    left = (
        f"{watts(room)}"
        if pw.cap_basis == "it"
        else f"{watts(room * pw.pue)} at the meter ({watts(room)} of IT)"
    )
    return f", leaving {left} under the {watts(pw.cap_w)} {basis} power cap"


def headline(d: Design) -> str:
    """The answer in one paragraph."""
    if d.pools:
        return pools_headline(d)
    p, c, pw = d.platform, d.compute, d.power
    su = in_units(d)
    what = systems_text(d)
    # a name that already ends in a note in parentheses is not followed by a second one
    gpus = f" with {gpus_text(d)}" if what.endswith(")") else f" ({gpus_text(d)})"
    on = (
        f" on a {_fabric_words(d.fabrics.compute, p.lone_unit)}"
        if d.fabrics.compute
        else f" {'and' if gpus.startswith(' with') else 'with'} no scale-out fabric "
        f"(its {c.gpus:,} GPUs share {p.gpu_link})"
    )
    text = (
        f"We recommend {what}{gpus}{su}{on}. The design draws "
        f"{'' if pw.complete else 'at least '}{watts(pw.it_total_w)} of IT power "
        f"({'' if pw.complete else 'at least '}{watts(pw.facility_total_w)} at a facility PUE "
        f"of {pw.pue:g})"
    )
    x = d.expansion
    # an increment's headroom under a cap that also holds what stands is known only with the
    # standing draw: without it the checks cannot tell, and neither can the headline
    unknown_standing = unknown_standing_draw(d)
    if pw.cap_w is not None and pw.headroom_w is not None and unknown_standing:
        text += (
            f"; what is left under the {watts(pw.cap_w)} cap depends on the existing "
            "installation's draw, which the request does not state"
        )
    elif pw.cap_w is not None and pw.headroom_w is not None:
        basis = "IT" if pw.cap_basis == "it" else "facility"
        standing = estimated_standing_w(d)
        text += _left_under_cap(pw, standing or 0.0)
        if standing:
            text += f" with the existing installation's draw estimated at {watts(standing)}"
        if any(a.field == "power_cap_basis" for a in d.assumptions):
            # an assumed basis is said where the cap is, not only in the appendix
            text += (
                f" (read as {basis} power: the request did not say IT or facility; "
                "the checks test it both ways)"
            )
    text += "."
    if x is not None:
        joined = f" ({x.total_gpus:,} GPUs in all)" if x.total_gpus is not None else ""
        had = f"{x.existing_gpus:,}-GPU " if x.existing_gpus is not None else ""
        text += (
            f" It is an expansion: these systems join the existing {had}{x.existing_platform} "
            f"installation{joined}, whose fabric managers, management servers and storage are "
            "reused and not quoted again."
        )
    if c.max_gpus_under_cap is not None and c.max_gpus_under_cap != c.gpus:
        text += f" At most {c.max_gpus_under_cap:,} GPUs of this platform fit under the cap."
    return text


def key_figures(d: Design) -> list[str]:
    """The figures a reader quotes, as a two-column table."""
    c, pw, r, st = d.compute, d.power, d.racks, d.storage.targets
    rows = [
        (f"GPUs / {node_noun(d)}s", f"{c.gpus:,} / {c.nodes:,}")
        if not d.pools
        else (
            "GPUs / nodes",
            "; ".join(f"{p.role} pool {p.gpus:,} / {p.nodes:,}" for p in d.pools),
        ),
        ("Scalable units", _units(d)),
        ("Compute fabric", _fabric_words(d.fabrics.compute, d.platform.lone_unit)),
        (
            "Racks",
            f"{r.total_racks} in all ("
            + ", ".join(f"{p.role} pool {p.racks}" for p in d.pools)
            + ")"
            if d.pools
            else f"{r.compute.compute_racks} compute + {support_racks_words(d)}"
            # '1 compute + 0 network' said why, as the terminal says it
            + (" (switches and servers in a compute rack)" if not r.network_racks else ""),
        ),
        ("IT power", watts(pw.it_total_w)),
        ("Facility power", f"{watts(pw.facility_total_w)} at PUE {pw.pue:g}"),
    ]
    if (left := headroom_words(d)) is not None:
        rows.append(("Headroom under the cap", left))
    rows.append(
        (
            "Storage",
            f"{st.tier} tier: read {bandwidth(st.read_gb_per_s)}, write {bandwidth(st.write_gb_per_s)}",
        )
    )
    if d.workload is not None and d.workload.days is not None:
        rows.append(
            (
                f"Workload ({d.workload.kind}, estimate)",
                f"{d.workload.days:,.1f} days, +/-{d.workload.band_pct:g}%",
            )
        )
    t = d.bom_totals
    rows.append(
        (
            "BOM",
            f"{t.lines} lines; "
            + (
                "unpriced"
                if t.total_price_usd is None
                else f"${t.total_price_usd:,.0f} ({t.priced_lines} of {t.lines} lines priced)"
            ),
        )
    )
    return ["| figure | value |", "|---|---|", *(f"| {k} | {v} |" for k, v in rows)]


def workload_lines(d: Design) -> list[str]:
    """The workload estimate the design was sized for, with its band and method."""
    if d.workload is None:
        return []
    head, method = workload.workload_lines(d.workload)
    out = ["\n### Workload estimate\n", head + "."]
    if both := workload.precision_line(d.workload):
        out += ["", both[0].upper() + both[1:] + "."]
    out += ["", method[0].upper() + method[1:].rstrip(".") + "."]
    if d.workload.cost_basis:
        out += ["", f"Cost at a GPU-hour price: {d.workload.cost_basis}."]
    table = workload.interactivity_memo(d.workload)
    if table:
        out += [
            "",
            f"Throughput against interactivity on {d.workload.gpu} (ISL/OSL as above; the "
            "design is sized at the TPOT stated in the headline):",
            "",
            *table,
        ]
    return out


def serving_load(d: Design) -> str | None:
    """What a serving design was sized for, in one sentence: the users, their activity and the
    concurrent streams as read, the output tokens/s and the requests/s they make."""
    w = d.workload
    rate = d.request.output_tokens_per_s
    if w is None or w.kind != "inference" or not rate:
        return None
    read = next((u for u in d.request.understood if u.startswith(LOAD_NOTE)), None)
    parts = [read.removeprefix(LOAD_NOTE).strip() if read else f"{rate:,.0f} output tokens/s"]
    osl = d.request.osl_tokens or next(
        (float(a.value) for a in d.assumptions if a.field == "osl-tokens"), None
    )
    if osl:
        parts.append(f"{rate / osl:,.1f} requests/s at {osl:,.0f} output tokens each")
    return "; ".join(parts)


def executive_summary(d: Design) -> list[str]:
    v = verdict(d)
    load = serving_load(d)
    out = [
        "## Executive summary\n",
        *([f"**Serving load sized for:** {load}.", ""] if load else []),
        headline(d),
        "",
        *([f"**Note:** {d.notice[0].upper()}{d.notice[1:]}.", ""] if d.notice else []),
        *(
            [f"**Scale:** {d.scale.caveat[0].upper()}{d.scale.caveat[1:]}.", ""]
            if d.scale and d.scale.caveat
            else []
        ),
        f"**Checks: {v.status}.** {v.line[0].upper()}{v.line[1:]}.",
    ]
    if v.failing:
        out.append("Needs attention: " + "; ".join(v.failing) + ".")
    if d.request.not_understood:
        # code spans: a backtick in a word (a --request file may set any) cannot close one
        words = ", ".join(f"`{w.replace(chr(96), chr(39))}`" for w in d.request.not_understood)
        out += ["", f"**Not understood in the request (ignored):** {words}."]
    if d.cost is not None:
        out += ["", f"**Cost:** {cost_line(d.cost)}."]
    out += ["", *key_figures(d)]
    if v.unknowns:
        out += ["", "What is not known yet (left out of the totals, not counted as zero):"]
        out += [f"- {u}" for u in v.unknowns]
    if d.power.estimated:
        out += ["", "Figures that rest on a labelled estimate (the basis is in the sources):"]
        out += [f"- {e}" for e in d.power.estimated]
    out += workload_lines(d)
    return out


def _storage_delivered(d: Design) -> str:
    """What the storage delivers: the appliances and their bandwidth where the design sizes them,
    against the tier's targets (their derivation is the appendix's)."""
    st, app = d.storage.targets, d.storage.appliances
    target = f"read {bandwidth(st.read_gb_per_s)}, write {bandwidth(st.write_gb_per_s)}"
    if app is None:
        return target
    write = (
        "write unknown" if app.write_gb_per_s is None else f"write {bandwidth(app.write_gb_per_s)}"
    )
    return (
        f"{app.count:,} x {app.name}, read {bandwidth(app.read_gb_per_s)}, {write} "
        f"(the tier's targets: {target})"
    )


def storage_lines(d: Design) -> list[str]:
    """The storage part: targets, the file system, and whether the data path keeps the GPUs fed."""
    st, fs, io = d.storage.targets, d.storage.file_system, d.storage.io
    # a single-node footprint builds no storage: the figures are what the site's must deliver
    site = any(r.network == "storage" and r.carried_by == "node" for r in d.fabrics.networks)
    whose = "the site's, not in this design; it must deliver, " if site else ""
    if d.storage.existing and not site:
        whose = "the customer's own, out of scope and not quoted; it must deliver, "
    elif d.expansion is not None and not site:
        whose = "the existing installation's, reused and not quoted; as sized for this increment, "
    out = [
        f"- Storage ({whose}{st.tier} tier): {_storage_delivered(d)}; "
        f"{d.storage.storage_ports} storage ports at {d.storage.port_speed_gbps:g} Gb/s "
        "(how the targets were derived: Appendix A)",
        "- Storage capacity: "
        + (
            f"{st.capacity_tb:,.0f} TB"
            if st.capacity_tb is not None
            else "not sized (no capacity guidance for this tier; size it with the storage "
            "partner from the datasets and checkpoints to keep)"
        ),
    ]
    if not d.data_path_applies:
        return out  # a serving node on the site's storage reads no training data set
    out += [
        f"- File system{' (for sizing the site storage)' if site else ''}: "
        f"{value_words(fs.system)}"
        + (
            ""
            if d.storage.appliances
            else f", read {bandwidth(fs.read_gb_per_s)}, write {bandwidth(fs.write_gb_per_s)}"
        ),
        f"- Data path: {io.demand_read_gb_per_s:,.1f} GB/s demand ({io.ingest_mb_per_s_per_gpu:,.1f} MB/s "
        f"per GPU) against {io.pattern_read_gb_per_s:,.1f} GB/s for {value_words(io.workload.read_pattern)}; "
        f"the GPUs can be busy {io.gpu_utilisation:.0%} of the time"
        + (f", bound by {io.binding_limit}" if io.binding_limit else ", nothing binds"),
    ]
    if io.metadata_ops_per_s is not None and io.metadata_capacity_ops_per_s:
        out.append(
            f"- Metadata: {io.metadata_ops_per_s:,.0f} operations/s against {io.metadata_capacity_ops_per_s:,.0f} "
            f"of {plural(io.workload.metadata_servers, 'metadata server')} "
            f"({io.metadata_ops_per_s / io.metadata_capacity_ops_per_s:.1%})"
        )
    if io.checkpoint_write_s is not None:
        out.append(
            f"- Checkpoint: {io.workload.checkpoint_gb:,.0f} GB written in {io.checkpoint_write_s:,.1f} s "
            f"every {(io.workload.checkpoint_interval_s or 0) / 60:,.0f} min, "
            f"{io.checkpoint_stall_fraction or 0:.2%} of the time"
        )
    out.append(f"- Dataset layout: {d.storage.layout}")
    for fix in io.fixes:
        after = (
            ""
            if fix.gpu_utilisation_after is None
            else f" (GPUs then {fix.gpu_utilisation_after:.0%} busy)"
        )
        out.append(f"  - to relieve {fix.limit}: {fix.action}{after}")
    return out


def _networks(d: Design) -> list[str]:
    """Every network the design has, whatever its kind."""
    out = []
    for name, net in d.fabrics:
        label = name.replace("_", " ")
        if isinstance(net, FabricDesign):
            out.append(
                f"- {label.capitalize()} fabric: {_fabric_words(net, d.platform.lone_unit)}; {net.node_links:,} node links, bisection {net.bisection_bandwidth_gbps / 1e3:,.1f} Tb/s"
            )
        elif isinstance(net, ManagementNetwork):
            out.append(
                f"- {net.name.capitalize()}: {network_switches(d, net, model_name(net.switch))} ({net.basis})"
            )
        elif isinstance(net, list) and name == "networks":
            out += _carried(d)
        elif net is not None:
            out += appendix._flat(net, f"{label}.")
    return out


_CARRIERS = {
    "compute": "the compute fabric",
    "storage": "the storage (north-south) fabric",
    "inband": "the in-band management network",
    "oob": "the out-of-band management network",
    "node": "no network of its own",
}


def _carried(d: Design) -> list[str]:
    """Networks that share another's switches (a converged or collapsed design), in words."""
    shared = [
        r
        for r in d.fabrics.networks
        if _CARRIERS.get(r.carried_by, "") and not _own(r.network, r.carried_by)
    ]
    return [
        # "Compute" alone would read as a second line about the nodes
        f"- {'Compute fabric' if r.network == 'compute' else r.network.capitalize()}: "
        + (
            r.detail  # a single node's own ports or NVLink: the detail says which
            if r.carried_by == "node"
            else f"carried by {_CARRIERS[r.carried_by]} ({r.detail})"
        )
        for r in shared
    ]


def _own(network: str, carrier: str) -> bool:
    """Whether a network runs on its own fabric (nothing to say about it beyond that fabric)."""
    return {
        "compute": "compute",
        "storage": "storage",
        "in-band management": "inband",
        "out-of-band management": "oob",
    }.get(network) == carrier


def configuration(d: Design) -> list[str]:
    p, c, s, r = d.platform, d.compute, d.servers, d.racks
    out = [
        "## 1. Recommended configuration\n",
        f"- Platform: {p.name}, {gpus_text(d, p.gpus_per_node)} per {node_noun(d)}. "
        f"Why: {p.reason}.",
    ]
    if p.architecture_name:
        out.append(f"- Follows: {p.architecture_name}")
    out.append(
        f"- Compute: {nodes_text(d)}, {c.gpus:,} GPUs, {_units(d)}; {watts(c.node_power.node_w)} per {node_noun(d)} ({c.node_power.basis} rating)"
    )
    out += _networks(d)
    if s.fabric_managers or s.management_servers:
        out.append(
            f"- Servers: {plural(s.management_servers, 'management server')}, "
            f"{plural(s.fabric_managers, 'fabric manager')} ({s.basis})"
        )
    elif s.management_rule:  # none, and why (a single-node footprint)
        out.append(f"- Servers: {s.management_rule}")
    out += storage_lines(d)
    out.append(
        f"- Racks: {plural(r.compute.compute_racks, 'compute rack')}, "
        f"{compute_rack_words(d)} ({r.compute.cooling} cooling, limited by {r.compute.limited_by}), "
        f"{_support_racks(d)}, {plural(r.pdus, 'PDU')}"
    )
    if (cooling := cooling_line(d)) is not None:
        out.append(cooling)
    if d.workload is not None:
        out.append(f"- Workload: {workload.headline(d.workload)}")
    return out


def power_section(d: Design) -> list[str]:
    pw = d.power
    out = ["## 3. Power\n", "| subsystem | power |", "|---|---|"]
    out += [f"| {r.label} | {r.text} |" for r in power_rows(d)]
    out.append(f"| **IT total** | **{watts(pw.it_total_w)}** |")
    out.append(f"| facility at PUE {pw.pue:g} | {watts(pw.facility_total_w)} |")
    if (left := headroom_words(d)) is not None:
        out.append(f"| headroom under the cap | {left} |")
    if pw.unknown:
        out.append(f"\nNot in the totals (unknown): {'; '.join(pw.unknown)}.")
    out += heat_lines(d)
    out.append(f"\n![{PICTURES['power.png']}](power.png)")
    return out


def bom_section(d: Design) -> list[str]:
    out = [
        "## 4. Bill of materials (summary)\n",
        f"The full list with part numbers is in `bom.csv` and `bom.xlsx`. Its power, {watts(bom_power_w(d))}, "
        "is the design's IT power: every line whose power is known, nothing else.\n",
        "| category | lines | quantity | power | price |",
        "|---|---|---|---|---|",
    ]
    for ct in category_totals(d):
        price = "unpriced" if ct.price_usd is None else f"${ct.price_usd:,.0f}"
        if ct.price_usd is not None and ct.unpriced_lines:
            price += f" ({plural(ct.unpriced_lines, 'line')} unpriced)"
        power = watts(ct.power_w) if ct.power_w else "-"
        out.append(f"| {ct.category} | {ct.lines} | {ct.quantity:,} | {power} | {price} |")
    out.append(f"\nPrices: {d.bom_totals.price_note}.")
    price_sources = sorted({ln.price_source for ln in d.bom if ln.price_source})
    out += [f"- price source: {src}" for src in price_sources]
    return out


def risks(d: Design) -> list[str]:
    v = verdict(d)
    out = ["## 5. Risks and open questions\n"]
    for ch in d.checks:
        mark = ch.status
        if mark != "PASS":
            # one sentence: the detail runs on in lower case ("left; the most loaded rack")
            why = f"; {ch.detail.rstrip('.')}" if ch.detail else ""
            out.append(f"- {mark} {ch.name}: {ch.figure}{why}.")
    out += [f"- Unknown: {u}." for u in v.unknowns]
    placeholders = [ln for ln in d.bom if ln.placeholder]
    if placeholders:
        out.append(
            f"- {plural(len(placeholders), 'BOM line')} "
            f"{'is a placeholder' if len(placeholders) == 1 else 'are placeholders'} "
            "to settle with vendors:"
        )
        # one sub-item each: a description holds semicolons of its own
        out += [f"  - {ln.description}" for ln in placeholders]
    no_opn = [ln for ln in d.bom if not ln.placeholder and ln.opn is None and ln.status == "order"]
    if no_opn:
        out.append(
            "- Part numbers to confirm with the vendor: "
            + "; ".join(sorted({ln.name for ln in no_opn}))
            + "."
        )
    out += [f"- {w}" for w in d.warnings]
    if d.assumptions:
        out.append(
            "- Confirm the defaults this design assumed (Appendix B): "
            + "; ".join(f"{field_words(a.field)} {value_words(a.value)}" for a in d.assumptions)
            + "."
        )
    return out


def next_steps(d: Design) -> list[str]:
    v = verdict(d)
    steps = []
    if v.status != "PASS":
        steps.append("Resolve the checks that do not pass (section 5), then re-run the design.")
    steps.append(
        "Confirm the assumed defaults with the customer (Appendix B) and re-run with them stated."
    )
    if v.unknowns:
        steps.append(
            "Obtain the missing power figures from the vendors and layer them into the catalog."
        )
    if any(ln.placeholder for ln in d.bom):
        steps.append(
            "Choose the placeholder parts (storage system, racks, PDUs, cables on the storage side) with the vendors."
        )
    steps.append(
        "Survey the site for rack positions and cable lengths; order cables by length class."
    )
    steps.append("Request quotes for the part numbers in `bom.xlsx`.")
    return ["## 6. Next steps\n", *(f"{i}. {s}" for i, s in enumerate(steps, start=1))]


def lists_set_apart(lines: list[str]) -> list[str]:
    """A blank line before every list that follows a paragraph line: pandoc, Word and PDF run a
    list straight after a paragraph into it (GitHub's renderer alone does not). Code fences are
    left as they are."""
    out: list[str] = []
    fenced = False
    for line in lines:
        if line.startswith("```"):
            fenced = not fenced
        prev = out[-1] if out else ""
        after_text = bool(prev.strip()) and not _LIST_LINE.match(prev) and not prev.startswith("|")
        if not fenced and _LIST_ITEM.match(line) and after_text:
            out.append("")
        out.append(line)
    return out


#: a list item at the start of a line; a line a list holds (an item or its indented text)
_LIST_ITEM = re.compile(r"(?:[-*]|\d+\.) ")
_LIST_LINE = re.compile(r"(?:\s*[-*] |\s*\d+\. |\s{2,}\S)")


def _title(d: Design) -> str:
    if d.pools:
        return " and ".join(f"{p.gpus:,} {p.gpu_name} GPUs for {p.role}" for p in d.pools)
    return what_text(d)


def render_memo(design: Design) -> str:
    """The memo as Markdown, in proposal order. Every string of the design is shown as text."""
    d: Design = map_text(design, markdown, skip=frozenset({"memo"}))
    out = [
        f"# GPU cluster proposal: {_title(d)}\n",
        f"_Prepared with clustergen {d.provenance.engine_version} ({d.mode} mode), catalog {d.provenance.catalog_hash}. "
        f"Request: '{d.request.text}'._\n"
        if d.request.text
        else f"_Prepared with clustergen {d.provenance.engine_version} ({d.mode} mode), catalog {d.provenance.catalog_hash}._\n",
        *executive_summary(d),
        "",
        *configuration(d),
        "\n## 2. Topology\n",
        f"![{PICTURES['topology-page.png']}](topology-page.png)\n",
        "Every scalable unit drawn one by one is in `topology.png`, `topology.svg` (scalable) "
        "and `topology.drawio` (editable in draw.io); every link with both ends and its cable is in `cable_schedule.csv`, every "
        "device in its rack in `rack_plan.csv`.\n",
        f"![{PICTURES['racks.png']}](racks.png)\n",
        *power_section(d),
        "",
        *bom_section(d),
        *cost_section(d),
        "",
        *risks(d),
        "",
        *next_steps(d),
    ]
    if d.memo:
        out += ["\n## Architect's notes (model-written, numbers checked)\n", markdown_block(d.memo)]
    out += [
        "\n## Appendix A. Method\n",
        appendix.METHOD,
        *appendix.derivations(d),
        "\n## Appendix B. The request as read, assumptions and their sources\n",
        *appendix.readings(d),
        *appendix.assumptions(d),
        "\n## Appendix C. Trade study\n",
        *study.study_table(d),
        "\n## Appendix D. All checks\n",
        *appendix.checks(d),
        "\n## Appendix E. Links, end to end\n",
        *appendix.links(d),
        "\n## Appendix F. Sources\n",
        *appendix.sources(d),
        *appendix.other_sections(d),
    ]
    return "\n".join(lists_set_apart("\n".join(out).split("\n"))) + "\n"
