"""`topology.conf`: the compute fabric as Slurm's tree topology (topology/tree), so the scheduler
places a job's nodes under the fewest switches.

Rules:
- the switches and nodes are the rack plan's, joined as `netbox_cables.csv` cables them (the
  compute fabric's node-leaf, leaf-spine and spine-core links);
- every compute node once: under the leaf its first compute port lands on (on a rail-optimized
  fabric every node of an SU reaches one leaf of each of its SU's rails, so the node stands under
  its first rail's leaf, the whole SU where a rail is one leaf: one hop apart, as the tree then
  says);
- each upper switch lists the switches below it it has a link to, of those the file defines (a
  tree names no switch it does not define);
- an increment on a standing installation (devices that already stand, `standing_names`) lists
  its new nodes under the switches they are cabled to, standing or new: the lines to merge into
  the installation's own topology.conf, whose standing nodes the design does not cable again;
- a design with no compute fabric (a server standing alone) puts each node under a switch name
  of its own (its NVLink domain), so every node is placed once and no job spans two;
- a rack-scale system (a GB200 or GB300 NVL72 rack: its compute trays share the rack's NVLink)
  is written for Slurm's block topology (topology/block) instead: one block per rack, its compute
  trays, so a job's trays stay in one NVLink domain. A tree placed the trays under the leaf their
  first port lands on, trays of two racks under one leaf as if they were close (and with no
  compute fabric, one NVL72 rack, it placed no tray at all).
"""

from __future__ import annotations

from clustergen.engine.model.design import Design
from clustergen.engine.model.inventory import NODE
from clustergen.engine.report.files.rackplan import (
    design_cables,
    names_by_group,
    rack_plan,
    standing_names,
)
from clustergen.engine.report.plain_text import cell_text

#: the compute fabric's switch-to-switch segments, lower tier first
_UP = ("leaf-spine", "spine-core")


def hostlist(names: list[str]) -> str:
    """Names as a Slurm hostlist: runs of one prefix with consecutive numbers bracketed
    ("node-[0001-0004,0009]"), in order."""
    by_prefix: dict[str, list[str]] = {}
    for name in names:
        prefix, _, number = name.rpartition("-")
        key = prefix if number.isdigit() else name
        by_prefix.setdefault(key, []).append(number if number.isdigit() else "")
    out = []
    for prefix, numbers in by_prefix.items():
        if numbers == [""]:
            out.append(prefix)
            continue
        runs: list[list[str]] = []
        for n in sorted(numbers, key=int):
            if runs and int(n) == int(runs[-1][-1]) + 1:
                runs[-1].append(n)
            else:
                runs.append([n])
        parts = [r[0] if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs]
        out.append(
            f"{prefix}-{parts[0]}" if parts == [runs[0][0]] else f"{prefix}-[{','.join(parts)}]"
        )
    return ",".join(out)


def _blocks(d: Design) -> str | None:
    """A rack-scale design's topology.conf in block form: one block per rack, its compute trays
    (None for any other design)."""
    if not d.platform.rack_scale or d.inventory is None:
        return None
    trays = {g.id for g in d.inventory.groups if g.tray == "compute"}
    by_rack: dict[str, list[str]] = {}
    for rack in rack_plan(d):
        for x in rack.devices:
            if x.group in trays:
                by_rack.setdefault(rack.name, []).append(x.name)
    if not by_rack:
        return None
    head = [
        "# Slurm topology.conf (TopologyPlugin=topology/block): one block per rack, its compute",
        "# trays sharing the rack's NVLink, so a job's trays stay in one NVLink domain; block",
        "# and node names as the racks and trays of rack_plan.csv",
    ]
    if standing_names(d):
        head.append("# the new racks only: merge these lines into the installation's topology.conf")
    lines = [
        f"BlockName={cell_text(rack)} Nodes={cell_text(hostlist(names))}"
        for rack, names in by_rack.items()
    ]
    return "\n".join([*head, *lines]) + "\n"


def topology_conf(d: Design) -> str:
    """Slurm's topology.conf of the design: tree form over its compute fabric, or block form
    over its racks for a rack-scale system."""
    blocks = _blocks(d)
    if blocks is not None:
        return blocks
    head = [
        "# Slurm topology.conf (TopologyPlugin=topology/tree) for the compute fabric;",
        "# switch and node names as in rack_plan.csv, links as in netbox_cables.csv",
    ]
    if standing_names(d):
        head += [
            "# the new nodes only, under the switches they are cabled to (standing or new):",
            "# merge these lines into the standing installation's topology.conf",
        ]
    cables = [(g, c) for g, c in design_cables(d) if g.fabric == "compute"]
    under: dict[str, list[str]] = {}
    placed: set[str] = set()
    for g, links in cables:
        if g.segment != "node-leaf":
            continue
        for node, _, leaf, _ in links:
            if node not in placed:
                placed.add(node)
                under.setdefault(leaf, []).append(node)
    if not under:
        # no compute fabric: each node is its own NVLink domain, under a switch of its own
        # name, so the file still places every node once and no job spans two of them
        nodes = names_by_group(rack_plan(d)).get(NODE, [])
        return (
            "\n".join(
                [
                    *head,
                    "# no compute fabric: each node stands alone (its GPUs share its NVLink), one",
                    "# switch name per node so no job is placed across nodes no fabric joins",
                    *(
                        f"SwitchName={cell_text(node)}-nvlink Nodes={cell_text(node)}"
                        for node in nodes
                    ),
                ]
            )
            + "\n"
        )
    lines = [
        f"SwitchName={cell_text(leaf)} Nodes={cell_text(hostlist(nodes))}"
        for leaf, nodes in sorted(under.items())
    ]
    defined = set(under)
    for segment in _UP:
        below: dict[str, list[str]] = {}
        for g, links in cables:
            if g.segment == segment:
                for lower, _, upper, _ in links:
                    # a switch a tree names is one it defines: a leaf with no node of its own
                    # (a rail-optimized SU's other rails) stands in its SU's first rail
                    if lower in defined and lower not in below.setdefault(upper, []):
                        below[upper].append(lower)
        below = {k: v for k, v in below.items() if v}
        defined |= set(below)
        lines += [
            f"SwitchName={cell_text(upper)} Switches={cell_text(hostlist(lowers))}"
            for upper, lowers in sorted(below.items())
        ]
    return "\n".join([*head, *lines]) + "\n"
