"""The terminal view of a design: a verdict line first, the key figures, the trade study with why
the winner won, every check, the agent's run, the assumptions and warnings (clean at 80 columns)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from clustergen.cli.output import (
    fmt_w,
    kv_table,
    mark,
    say,
    stdout,
    table,
)
from clustergen.units import bandwidth, ratio

if TYPE_CHECKING:
    from rich.table import Table

    from clustergen.engine.model.common import Check
    from clustergen.engine.model.design import Design
    from clustergen.engine.model.fabric import FabricDesign


def summary(d: Design) -> None:
    """The design in the terminal: the verdict line first, the headline and why, its figures, the
    trade study and why the winner won, the checks, then what the run adds and the footnotes."""
    from rich.text import Text

    from clustergen.engine.report.scale_words import gpus_text, systems_text
    from clustergen.engine.report.words import verdict

    p = d.platform
    from clustergen.cli.workload_view import first_lines

    first_lines(d.request, [])
    v = verdict(d)
    line = Text()
    line.append_text(mark(v.status))
    line.append(f"  {gpus_text(d)} on {systems_text(d)}: {v.line}")
    stdout.print(line, soft_wrap=False)
    say(f"{d.mode} mode, catalog {d.provenance.catalog_hash}; why: {p.reason}")
    basis = next((a for a in d.assumptions if a.field == "power_cap_basis"), None)
    if basis is not None:
        say(f"power cap basis not stated: {basis.reason}; checked both ways (see checks)")
    if d.notice:
        say(f"note: {d.notice}")
    if d.scale and d.scale.caveat:
        say(f"scale: {d.scale.caveat}")
    stdout.print(kv_table("design", _figures(d)))
    if d.alternatives:
        _trade_study(d)
    stdout.print(_checks(d.checks))
    _run_report(d)
    _footnotes(d)


def _figures(d: Design) -> list[tuple[str, Any]]:
    """The design table's rows: compute, networks, servers and racks, storage, power, training."""
    from clustergen.engine.report.scale_words import nodes_text, units_text
    from clustergen.engine.report.words import compute_rack_words

    c, f = d.compute, d.fabrics.compute
    rows: list[tuple[str, Any]] = [
        (
            "nodes / GPUs / SUs",
            f"{nodes_text(d)} / {c.gpus:,} / {units_text(d) or '-'}",
        ),
        (
            "compute fabric",
            _compute_fabric(f) if f else f"none: {d.platform.lone_unit}",
        ),
    ]
    if f:
        links = [("node", f.node_links), ("leaf-spine", f.leaf_spine_links)]
        links.append(("spine-core", f.spine_core_links))
        rows.append(
            (
                "compute links",
                ", ".join(f"{n:,} {kind}" for kind, n in links if n or kind == "node"),
            )
        )
    if d.fabrics.storage:
        s = d.fabrics.storage
        rows.append(
            ("storage fabric", f"{_tiers(s.leaf_switches, s.spine_switches, 0)} {s.leaf_switch}")
        )
    for net in (d.fabrics.inband, d.fabrics.oob):
        if net:
            rows.append((net.name, f"{net.total_switches} x {net.switch}"))
    for role in d.fabrics.networks:
        if role.network in ("storage", "in-band management") and role.carried_by in (
            "compute",
            "storage",
        ):
            if role.network == "storage" and role.carried_by == "storage":
                continue
            # "storage network": the "storage" row below is the storage system's figures
            label = "storage network" if role.network == "storage" else role.network
            rows.append((label, f"on the {role.carried_by} fabric"))
    if d.servers.fabric_managers:
        rows.append(
            ("fabric managers", f"{d.servers.fabric_managers} x {d.servers.fabric_manager}")
        )
    servers = d.servers
    none_why = f" ({servers.basis})" if not servers.management_servers and servers.basis else ""
    rows.append(("management servers", f"{servers.management_servers}{none_why}"))
    rows.append(
        (
            "racks",
            f"{d.racks.compute.compute_racks:,} compute ({compute_rack_words(d)}) + "
            f"{d.racks.network_racks:,} network"
            + (" (switches and servers in a compute rack)" if not d.racks.network_racks else ""),
        )
    )
    from clustergen.engine.report.cooling import cooling_summary

    cooling = cooling_summary(d)
    if cooling:
        rows.append(("cooling", cooling))
    st = d.storage.targets
    site = d.storage.site_storage
    rows.append(
        (
            "storage",
            ("the site's storage (none of its own), " if site else "")
            + f"{st.tier}: read {bandwidth(st.read_gb_per_s)}, write {bandwidth(st.write_gb_per_s)}",
        )
    )
    rows.append(("storage data path", _data_path(d)))
    rows += _power_rows(d)
    return rows


def _power_rows(d: Design) -> list[tuple[str, Any]]:
    """The design table's last rows: power and headroom, the workload it was sized for, cost."""
    c, pw = d.compute, d.power
    rows: list[tuple[str, Any]] = []
    at_least = "" if pw.complete else "at least "
    rows.append(
        (
            "IT / facility power",
            f"{at_least}{fmt_w(pw.it_total_w)} / {at_least}{fmt_w(pw.facility_total_w)} "
            f"at PUE {pw.pue:g}",
        )
    )
    if pw.unknown:
        rows.append(("power not known", "; ".join(pw.unknown)))
    if pw.estimated:
        rows.append(("power estimates", "; ".join(pw.estimated)))
    if pw.headroom_w is not None:
        rows.append(("headroom", fmt_w(pw.headroom_w)))
    if c.max_gpus_under_cap is not None:
        rows.append(("most GPUs under the cap", str(c.max_gpus_under_cap)))
    if d.workload is not None:
        from clustergen.engine.report.workload import headline, interactivity_compact

        rows.append(("workload estimate", headline(d.workload)))
        if line := interactivity_compact(d.workload):
            rows.append(("interactivity", line))
    if d.cost is not None:
        from clustergen.engine.report.cost import cost_line

        rows.append(("cost", cost_line(d.cost)))
    return rows


def _compute_fabric(f: FabricDesign) -> str:
    """'infiniband 2-tier 1:1, 2 planes (...): 8 leaf, 4 spine qm9700'."""
    planes = ""
    if f.planes > 1:
        planes = f", {f.planes} planes"
        if f.plane_split:
            planes += f" ({f.port_speed_gbps:g}G split {f.planes} x {f.plane_port_speed_gbps:g}G)"
    pods = f", {f.pods:,} pods" if f.tiers == 3 and f.pods else ""
    return (
        f"{f.technology} {f.tiers}-tier {ratio(f.oversubscription)}{planes}{pods}"
        f": {_tiers(f.leaf_switches, f.spine_switches, f.core_switches)} {f.leaf_switch}"
    )


def _tiers(leaf: int, spine: int, core: int) -> str:
    """'8 leaf, 4 spine': the switches of each tier the fabric has."""
    counts = (("leaf", leaf), ("spine", spine), ("core", core))
    return ", ".join(f"{n:,} {tier}" for tier, n in counts if n or tier == "leaf")


def _data_path(d: Design) -> str:
    """How busy the storage keeps the GPUs, what binds, and the metadata and checkpoint load."""
    io = d.storage.io
    text = f"GPUs {io.gpu_utilisation:.0%} busy, binds: {io.binding_limit or 'nothing'}"
    if io.metadata_ops_per_s is not None and io.metadata_capacity_ops_per_s:
        text += f"; metadata {io.metadata_ops_per_s:,.0f} of {io.metadata_capacity_ops_per_s:,.0f} ops/s"
    if io.checkpoint_write_s is not None:
        text += f"; checkpoint {io.checkpoint_write_s:,.1f} s"
    return text + f"; layout: {d.storage.layout}"


#: trade-study rows shown in the terminal (the memo and --json have them all)
SHOWN_ROWS = 8


def _trade_study(d: Design) -> None:
    """The first rows of the trade study, the chosen one starred, and why the winner won; for a
    "most GPUs" study, the answer per platform first."""
    from clustergen.engine.report.study import (
        capital_cell,
        figure,
        per_platform,
        priced,
        short_reason,
        why_winner,
    )

    study = d.alternatives
    assert study is not None
    if study.objective_unit == "GPUs":
        stdout.print(
            table(
                "the answer per platform",
                ("", "platform", "GPUs", "dense PFLOPS", "IT power", "facility power"),
                (
                    (
                        "*" if a.chosen else "",
                        a.platform,
                        f"{a.gpus:,}",
                        "—" if a.dense_pflops is None else f"{a.dense_pflops:,.1f}",
                        fmt_w(a.it_power_w),
                        fmt_w(a.facility_power_w),
                    )
                    for a in per_platform(study)
                ),
                no_wrap=("platform",),
            )
        )
    # With IT power or capital as the objective, the objective column would repeat its column.
    own_column = study.objective_unit not in {"W", "USD"}
    capital = priced(study)
    head = (
        "",
        "platform",
        "switch",
        "oversub",
        "GPUs",
        "IT power",
        *(("capital",) if capital else ()),
    )
    stdout.print(
        table(
            f"trade study: {study.objective}",
            (*head, "objective", "note") if own_column else (*head, "note"),
            (
                (
                    "*" if a.chosen else "",
                    a.platform,
                    a.switch,
                    ratio(a.oversubscription),
                    f"{a.gpus:,}",
                    ("" if a.power_complete else ">= ") + fmt_w(a.it_power_w),
                    *((capital_cell(a, ">= "),) if capital else ()),
                    *((figure(study, a),) if own_column else ()),
                    short_reason(a.why_not),
                )
                for a in study.rows[:SHOWN_ROWS]
            ),
            no_wrap=("platform", "switch"),
        )
    )
    more = len(study.rows) - SHOWN_ROWS
    if more > 0:
        say(f"({more} more rows in the memo and in --json)")
    if capital:
        say("capital: the priced BOM lines; >= where some lines are unpriced (unknown, not $0)")
    say(f"why: {why_winner(study)}")


def _checks(checks: list[Check]) -> Table:
    """Every check: PASS, WARN (a failed warning), FAIL or UNKNOWN, coloured, and its figure."""

    return table(
        "checks",
        ("result", "check", "figure"),
        ((mark(ch.status), ch.name, ch.figure) for ch in checks),
    )


def _run_report(d: Design) -> None:
    """What an agent run adds: its cost, how the memo's numbers matched the design, the memo."""
    if d.agent is not None:
        run = d.agent
        stdout.print(
            f"agent: {run.model} via {run.protocol} protocol, {run.turns} round trips, "
            f"{run.tool_calls} tool calls, {run.repairs} repairs, "
            f"{run.prompt_tokens:,}+{run.completion_tokens:,} tokens, {run.latency_s:.1f} s",
            markup=False,
        )
    if d.grounding is not None:
        g = d.grounding
        stdout.print(
            f"memo numbers checked against the design: {g.matched} of {g.numbers} matched"
            + (f"; unverified: {', '.join(g.unmatched)}" if g.unmatched else ""),
            markup=False,
        )
    if d.memo:
        stdout.print(
            "\nmodel's memo (numbers checked; [unverified] marks those that are not):",
            markup=False,
        )
        stdout.print(d.memo, markup=False)


def _footnotes(d: Design) -> None:
    """Assumptions, words not understood, and warnings (to stderr)."""
    from clustergen.engine.report.words import field_words, value_words

    for a in d.assumptions:
        say(f"assumed {field_words(a.field)} = {value_words(a.value)}: {a.reason}")
    for w in d.warnings:
        say(f"warning: {w}", err=True)
