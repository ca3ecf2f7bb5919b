"""The design table: a design's key figures as (label, text) rows, the same words in the terminal
(`clustergen design`) and on the page (`clustergen serve`)."""

from __future__ import annotations

from clustergen.engine.model.design import Design
from clustergen.engine.model.fabric import FabricDesign
from clustergen.units import bandwidth, ratio, watts


def design_rows(d: Design) -> list[tuple[str, str]]:
    """The design table's rows (label, text), as the terminal and the page show them: compute, networks, servers and racks, storage, power, training."""
    from clustergen.engine.report.scale_words import nodes_text, units_text
    from clustergen.engine.report.words import compute_rack_words, network_switches

    c, f = d.compute, d.fabrics.compute
    rows: list[tuple[str, str]] = [
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
        # each count named by the segment it joins, as the cable schedule names it: a bare
        # '16 node' read as sixteen nodes on a 2-node design
        links = [("node-leaf", f.node_links), ("leaf-spine", f.leaf_spine_links)]
        links.append(("spine-core", f.spine_core_links))
        rows.append(
            (
                "compute links",
                ", ".join(f"{n:,} {kind}" for kind, n in links if n or kind == "node-leaf"),
            )
        )
    if d.fabrics.storage:
        s = d.fabrics.storage
        rows.append(
            ("storage fabric", f"{_tiers(s.leaf_switches, s.spine_switches, 0)} {s.leaf_switch}")
        )
    for net in (d.fabrics.inband, d.fabrics.oob):
        if net:
            rows.append((net.name, network_switches(d, net, net.switch)))
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
            f"{support_racks_words(d)}"
            + (" (switches and servers in a compute rack)" if not d.racks.network_racks else ""),
        )
    )
    from clustergen.engine.report.documents.cooling import cooling_summary

    cooling = cooling_summary(d)
    if cooling:
        rows.append(("cooling", cooling))
    st = d.storage.targets
    site = d.storage.site_storage
    rows.append(
        (
            "storage",
            ("the site's storage (none of its own), " if site else "")
            + ("the customer's own (not quoted), " if d.storage.existing and not site else "")
            # 'better tier', as the memo says it: a bare 'better:' read as a judgement
            + f"{st.tier} tier: read {bandwidth(st.read_gb_per_s)}, "
            f"write {bandwidth(st.write_gb_per_s)}",
        )
    )
    if d.data_path_applies:
        rows.append(("storage data path", _data_path(d)))
    rows += _power_rows(d)
    return rows


def _power_rows(d: Design) -> list[tuple[str, str]]:
    """The design table's last rows: power and headroom, the workload it was sized for, cost."""
    c, pw = d.compute, d.power
    rows: list[tuple[str, str]] = []
    at_least = "" if pw.complete else "at least "
    chosen = next((r for r in d.alternatives.rows if r.chosen), None) if d.alternatives else None
    if chosen is not None and chosen.dense_pflops and chosen.gpus == c.gpus:
        # peak, not sustained: "what's the total FP4 compute?" (a workload's MFU is lower)
        precision = d.alternatives.dense_precision.upper() if d.alternatives else "BF16"
        rows.append(
            ("dense compute", f"{chosen.dense_pflops:,.1f} PFLOPS {precision} peak (not sustained)")
        )
    rows.append(
        (
            "IT / facility power",
            f"{at_least}{watts(pw.it_total_w)} / {at_least}{watts(pw.facility_total_w)} "
            f"at PUE {pw.pue:g}",
        )
    )
    if pw.unknown:
        rows.append(("power not known", "; ".join(pw.unknown)))
    if pw.estimated:
        rows.append(("power estimates", "; ".join(_estimate_words(e) for e in pw.estimated)))
    if (left := headroom_words(d)) is not None:
        rows.append(("headroom", left))
    if c.max_gpus_under_cap is not None:
        rows.append(("most GPUs under the cap", f"{c.max_gpus_under_cap:,}"))
    if d.workload is not None:
        from clustergen.engine.report.documents.workload import headline, interactivity_compact

        rows.append(("workload estimate", headline(d.workload)))
        if line := interactivity_compact(d.workload):
            rows.append(("interactivity", line))
    if d.cost is not None:
        from clustergen.engine.report.documents.cost import cost_line

        rows.append(("cost", cost_line(d.cost)))
    return rows


def _estimate_words(item: str) -> str:
    """'BCM management server (...): maximum power' as the figure it is: 'maximum power of BCM
    management server (...)' (the row read 'X: maximum power; Y: power', a figure's name after
    its part's)."""
    part, sep, figure = item.rpartition(": ")
    return f"{figure} of {part}" if sep and part else item


def unknown_standing_draw(d: Design) -> bool:
    """An increment under a cap that also holds what stands, whose draw is neither stated nor
    estimated: what is left under the cap is unknown."""
    x = d.expansion
    return x is not None and x.existing_it_w is None and not d.request.power_cap_scope


def estimated_standing_w(d: Design) -> float | None:
    """An increment's standing draw estimated from its size, which the cap also holds and its
    headroom does not yet count (a stated draw was set aside when the increment was sized);
    None otherwise."""
    x = d.expansion
    if x is None or not x.existing_it_estimated or d.request.power_cap_scope:
        return None
    return x.existing_it_w


def headroom_words(d: Design) -> str | None:
    """The IT headroom under the cap, or unknown for an increment whose standing draw is not
    stated (the cap less the increment alone is no headroom: what stands draws from it too, as
    the memo's headline and the 'power under cap' check say); None without a cap."""
    if d.power.headroom_w is None:
        return None
    if unknown_standing_draw(d):
        return "unknown: depends on the existing installation's draw"
    standing = estimated_standing_w(d)
    if standing is not None:
        left = d.power.headroom_w - standing
        words = watts(left) if left >= 0 else f"none: {watts(-left)} over the cap"
        return words + f" (the existing draw estimated at {watts(standing)})"
    return watts(d.power.headroom_w)


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


def support_racks_words(d: Design) -> str:
    """The racks beside the compute racks by what the rack plan puts in them ("5 network + 1
    storage"), or "N network" when the plan names them no other way."""
    from collections import Counter

    from clustergen.engine.model.inventory import PARTS
    from clustergen.engine.report.files.rackplan import rack_plan

    n = d.racks.network_racks
    row = {spec.role for spec in PARTS.values() if spec.stands == "row"}  # in-row CDUs
    roles: Counter[str] = Counter(
        str(r.role) for r in rack_plan(d) if r.role != "compute" and r.role not in row
    )
    if not n or sum(roles.values()) != n or set(roles) <= {"network"}:
        return f"{n:,} network"
    order = ("network", "storage", "management")
    return " + ".join(
        f"{roles[k]:,} {k}" for k in (*order, *sorted(set(roles) - set(order))) if roles[k]
    )
