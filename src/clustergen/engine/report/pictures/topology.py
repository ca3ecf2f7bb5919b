"""The topology picture as Mermaid: the compute fabric's tiers over its scalable units (each with
its rail leaves and nodes), the storage fabric and the storage system, and the management
networks and servers. Text that mermaid-cli renders to SVG or PNG, and Markdown viewers draw.

Every name from the catalog or the design goes through `safe_text.mermaid_label`: a system named
`x"]` followed by a `click` line stays a label."""

from __future__ import annotations

from clustergen.engine.model.design import Design, ManagementNetwork
from clustergen.engine.model.fabric import FabricDesign
from clustergen.engine.report.su_counts import su_counts
from clustergen.engine.report.words import (
    network_switches,
    storage_owner,
    su_offset,
    switch_count,
    value_words,
)
from clustergen.safe_text import mermaid_label as label
from clustergen.units import bandwidth, plural, ratio

#: scalable units drawn one by one; the rest are one box ("... N more")
SHOWN_SUS = 3


def model_name(part_id: str | None) -> str:
    """A switch's model as people write it (catalog ids are lower-case model numbers); plain text,
    escaped by whoever shows it."""
    return (part_id or "?").upper()


def tier_switch(d: Design, tier: str) -> str:
    """The model of a compute-fabric tier's switches. An increment's fabric may leave a tier's
    model unset where its switches are still ordered (an expansion of a DGX H100 SuperPOD drew
    '4 x ? spine switches standing, 4 added' while its BOM orders 4 QM9700 spines): the
    inventory's group of that tier names it then."""
    f = d.fabrics.compute
    part = (
        None
        if f is None
        else {"leaf": f.leaf_switch, "spine": f.spine_switch}.get(tier, f.core_switch)
    )
    if part is None and d.inventory is not None:
        part = next(
            (
                g.part
                for g in d.inventory.groups
                if g.network == "compute" and g.tier == tier and g.part
            ),
            None,
        )
    return model_name(part)


def tech_name(f: FabricDesign) -> str:
    """The fabric's technology as a customer names it."""
    return "InfiniBand" if f.technology == "infiniband" else "Ethernet"


def rail_words(f: FabricDesign, leaves: int) -> str:
    """How an SU's leaves (per plane) meet the rails the fabric records: one leaf per rail, a
    group of leaves per rail (the GB200 SuperPOD's 8 leaves on each of 4 rails), or several rails
    on a leaf. Empty where the fabric is not rail-optimized or records no rails."""
    rails = f.rails
    if not f.rail_optimized or not rails or leaves < 1 or (leaves == 1 and rails == 1):
        return ""
    if leaves == rails:
        return f", one per rail (rails 1-{rails})"
    if leaves > rails and leaves % rails == 0:
        return f", {leaves // rails} per rail (rails 1-{rails})"
    return f", {plural(rails, 'rail')} over {leaves} {'leaf' if leaves == 1 else 'leaves'}"


def _compute(d: Design) -> list[str]:
    f, p = d.fabrics.compute, d.platform
    if f is None:  # one node: its GPUs talk over the node's GPU link, no scale-out fabric
        return [
            f'  subgraph compute["Compute: one {"rack" if p.rack_scale else "node"}, no scale-out fabric"]',
            f'    nodes1["{d.compute.nodes} x {label(p.name)}<br/>{d.compute.gpus} GPUs on {d.platform.gpu_link}"]',
            "  end",
        ]
    planes = f" x {f.planes} planes" if f.planes > 1 else ""
    title = f"Compute fabric: {tech_name(f)}, {f.tiers}-tier, {ratio(f.oversubscription)}{planes}"
    out = [f'  subgraph compute["{title}"]', "    direction TB"]
    if f.tiers == 3:
        out.append(
            f'    core["{switch_count(d, f.core_switches, "core", label(tier_switch(d, "core")) + " core switches")}"]'
        )
    if f.tiers >= 2:
        out.append(
            f'    spine["{switch_count(d, f.spine_switches, "spine", label(tier_switch(d, "spine")) + " spine switches")}"]'
        )
    counts = su_counts(d, f)
    sizes = [c.nodes for c in counts]
    kind = "rail leaves" if f.rail_optimized else "leaves"
    for i, c in enumerate(counts[:SHOWN_SUS], start=1):
        n = c.nodes
        rail_text = rail_words(f, c.leaves)
        fm = (
            f" + {plural(c.fabric_manager_links, 'fabric-manager link')}"
            if c.fabric_manager_links
            else ""
        )
        what = f"{label(model_name(f.leaf_switch))} {kind}"
        # a scalable unit's leaves are its own; a pod with none is the standing one's
        leaves = (
            f"{c.leaves * f.planes} x {what}"
            if f.su_nodes
            else switch_count(d, c.leaves * f.planes, "leaf", what)
        )
        out += [
            f'    subgraph su{i}["{"Scalable unit " + str(i + su_offset(d)) if f.su_nodes else "Nodes"}"]',
            f'      leaf{i}["{leaves}{rail_text}"]',
            f'      nodes{i}["{n} x {label(p.name)}<br/>{n * p.gpus_per_node} GPUs"]',
            f"      leaf{i} ---|{c.node_links * f.planes if not f.plane_split else c.node_links} links, {f.port_speed_gbps:g} Gb/s{fm}| nodes{i}",
            "    end",
        ]
        if f.tiers >= 2:
            out.append(f"    spine ---|{c.uplinks * f.planes} links| leaf{i}")
    more = len(sizes) - SHOWN_SUS
    if more > 0:
        rest = sum(sizes[SHOWN_SUS:])
        out.append(
            f'    sumore["... {plural(more, "more scalable unit")}: {rest} nodes, '
            f'{rest * p.gpus_per_node} GPUs"]'
        )
        if f.tiers >= 2:
            up = sum(c.uplinks for c in counts[SHOWN_SUS:]) * f.planes
            out.append(f"    spine ---|{up} links| sumore")
    if f.tiers == 3:
        out.append(f"    core ---|{f.spine_core_links} links| spine")
    out.append("  end")
    return out


def _storage(d: Design) -> list[str]:
    s, st = d.fabrics.storage, d.storage
    system = (
        f"Storage: {label(storage_owner(d) or value_words(st.file_system.system))}<br/>"
        f"read {bandwidth(st.targets.read_gb_per_s)}, write {bandwidth(st.targets.write_gb_per_s)}"
    )
    out = [f'  storsys[("{system}")]']
    if s is None:
        out.append("  compute --- storsys")
        return out
    out += [
        f'  subgraph storage["Storage fabric: {tech_name(s)}"]',
        f'    sleaf["{s.leaf_switches} x {label(model_name(s.leaf_switch))} leaves'
        + (f", {plural(s.spine_switches, 'spine')}" if s.spine_switches else "")
        + '"]',
        "  end",
        f"  compute ---|{d.storage.storage_ports} storage ports| storage",
        "  storage --- storsys",
    ]
    return out


def _management(d: Design) -> list[str]:
    nets: list[ManagementNetwork] = [n for n in (d.fabrics.inband, d.fabrics.oob) if n]
    srv = d.servers
    if not nets and not (srv.management_servers or srv.fabric_managers):
        return []
    out = ['  subgraph mgmt["Management"]']
    for i, net in enumerate(nets):
        out.append(
            f'    net{i}["{label(net.name.capitalize())}: '
            f"{label(network_switches(d, net, model_name(net.switch)))}, "
            f'{net.port_speed_gbps:g} Gb/s"]'
        )
    if srv.management_servers:
        out.append(f'    heads["{srv.management_servers} management servers"]')
    if srv.fabric_managers:
        out.append(f'    ufm["{srv.fabric_managers} fabric managers"]')
    out += ["  end", "  compute --- mgmt"]
    return out


def mermaid_source(d: Design) -> str:
    """The topology as a Mermaid flowchart (no code fence): what `topology.mmd` holds."""
    lines = ["flowchart TB", *_compute(d), *_storage(d), *_management(d)]
    return "\n".join(lines) + "\n"


def mermaid(d: Design) -> str:
    """The topology as a fenced Mermaid block for Markdown."""
    return "```mermaid\n" + mermaid_source(d) + "```"
