"""How a design's size is worded, in one place for the terminal, the memo and the pictures: a
rack-scale system (an NVL72) is counted in racks, other systems in systems; fewer nodes than one
scalable unit are a part of one ("1 of the 8 racks of an SU"), never "1 SU of 8 nodes"."""

from __future__ import annotations

from clustergen.engine.model.design import Design
from clustergen.units import plural


def node_noun(d: Design) -> str:
    """What one node of the design is called: 'rack' for a rack-scale system, else 'node'."""
    return "rack" if d.platform.rack_scale else "node"


def nodes_text(d: Design, nodes: int | None = None) -> str:
    """'1 rack', '127 nodes', '66 nodes (2 spare)'."""
    if nodes is not None:
        return plural(nodes, node_noun(d))
    spare = f" ({d.compute.spare_nodes} spare)" if d.compute.spare_nodes else ""
    return plural(d.compute.nodes, node_noun(d)) + spare


def units_text(d: Design) -> str | None:
    """'4 SUs of 32 nodes', '4 SUs of up to 8 racks' (the last part-built), '1 of the 8 racks of
    an SU', or None when the design is not built in scalable units."""
    c = d.compute
    if not c.su_nodes:
        return None
    noun = node_noun(d)
    if c.nodes < c.su_nodes:
        return f"{c.nodes:,} of the {plural(c.su_nodes, noun)} of an SU"
    # 28 racks are not "4 SUs of 8 racks": the last SU is part-built
    up_to = "up to " if c.nodes % c.su_nodes else ""
    return f"{plural(c.scalable_units, 'SU')} of {up_to}{plural(c.su_nodes, noun)}"


def in_units(d: Design) -> str:
    """' in 4 scalable units' for the headline; '' when less than one or none."""
    c = d.compute
    if not c.su_nodes or c.nodes < c.su_nodes:
        return ""
    return f" in {plural(c.scalable_units, 'scalable unit')}"


def _split_note(name: str) -> tuple[str, str]:
    """'NVIDIA GB200 NVL72 rack (DGX GB200)' -> ('NVIDIA GB200 NVL72 rack', ' (DGX GB200)')."""
    base, sep, note = name.partition(" (")
    return base, (sep + note if sep else "")


def systems_text(d: Design) -> str:
    """'127 NVIDIA DGX H100 systems', '32 NVIDIA GB200 NVL72 racks (DGX GB200)': a rack-scale
    system's plural on its noun, never after the product name's note in parentheses."""
    p, n = d.platform, d.compute.nodes
    base, note = _split_note(p.name)
    if not p.rack_scale:
        # "64 NVIDIA HGX H100 8-GPU servers (OEM)", not "... server (OEM) systems"
        if base.endswith((" server", " system")):
            return plural(n, base) + note
        # a name that opens with a figure takes its count as 'N x' ("4 x 4-GPU PCIe server,
        # L40S (...)"): "4 4-GPU PCIe server, L40S (...) systems" read as one number
        if base[:1].isdigit():
            return f"{n:,} x {p.name}"
        return plural(n, f"{p.name} system")
    return plural(n, base if base.endswith(" rack") else f"{base} rack") + note


def gpus_text(d: Design, gpus: int | None = None) -> str:
    """'2,304 NVIDIA GB200 Blackwell GPUs': the GPU's product name without its note in
    parentheses ('(in GB200 NVL72)', '(HGX/DGX B200)') and without a second 'GPU'; the design's
    GPUs unless another count is given."""
    base, _ = _split_note(d.platform.gpu_name)
    n = d.compute.gpus if gpus is None else gpus
    return plural(n, f"{base.removesuffix(' GPU')} GPU")


def what_text(d: Design) -> str:
    """The design's size for a first line: '256 NVIDIA H100 GPUs on 32 NVIDIA DGX H100 systems',
    or for an expansion what it adds and to what ('... added to the existing 512 (768 in
    all)'), so an increment is never read as the whole cluster."""
    text = f"{gpus_text(d)} on {systems_text(d)}"
    x = d.expansion
    if d.compute.spare_nodes:
        text += f", {d.compute.spare_nodes} of them spare" + ("," if x is not None else "")
    if x is None:
        return text
    if x.existing_gpus is None or x.total_gpus is None:
        return f"{text} added to the existing {x.existing_platform} installation"
    return f"{text} added to the existing {x.existing_gpus:,} ({x.total_gpus:,} in all)"
