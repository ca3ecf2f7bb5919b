"""The passes that read a count beside a catalog name: "512 H100s", "16 DGX B200", "DGX H100 4
SU", "3 racks of GB200". A count is a pass, not a rule, because what it counts (GPUs, nodes,
racks, scalable units) depends on the name it stands beside and on that name's catalog entry.
Both run only when no rule has read a GPU or node count."""

from __future__ import annotations

import re

from clustergen.catalog.models import System
from clustergen.engine.model.request import sizes_workload
from clustergen.engine.request.draft import Draft, Named, Span
from clustergen.engine.request.rules.counts import (
    count_before,
    gpus_per_server,
    racks_to_nodes,
    su_count,
    su_node_count,
)
from clustergen.engine.request.words import UNIT_WORD
from clustergen.errors import RequestError
from clustergen.units import plural


def _counted(r: Draft) -> bool:
    return "gpus" in r.fields or "nodes" in r.fields


def _units(r: Draft, system: str, nodes: int) -> str:
    """Nodes of a system as a reader counts them: a rack-scale system's node is its rack."""
    kind = r.catalog.system(system).kind
    return plural(nodes, f"{system} {'rack' if kind == 'nvl-rack' else 'node'}")


def _su_system(r: Draft) -> str | None:
    """The system whose scalable unit a GPU's name counts ("4 SUs of GB200"): of the GPU's
    systems with a reference architecture, one a DGX SuperPOD RA builds, else the first."""
    gpu = next((eid for kind, eid in r.named if kind == "gpu"), r.fields.get("gpu"))
    with_ra = [
        (arch.id, s.id)
        for s in r.catalog.all("systems", System)
        if s.gpu == gpu and s.gpus_per_node
        and (arch := r.catalog.architecture_for(s.id)) is not None
    ]  # fmt: skip
    superpod = [sid for aid, sid in with_ra if "superpod" in aid]
    found = superpod or [sid for _, sid in with_ra]
    return found[0] if found else None


def read_su_count(r: Draft) -> None:
    """A count of scalable units of the named system ("DGX H100 4 SU"): its nodes as the RA
    builds that many SUs. A pass: the nodes are the named system's RA's, on the fabric the
    request names."""
    if _counted(r):
        return
    count = su_count(r.low)
    # the number and the unit word free: a pod's name between was read by its own pass
    if count is None or r.used[count.start] or r.used[count.end - 1]:
        return
    system = next((eid for kind, eid in r.named if kind == "system"), r.fields.get("platform"))
    if not isinstance(system, str) and isinstance(system := _su_system(r), str):
        r.fields["platform"] = system  # the SU counted is this system's
    if not isinstance(system, str):
        raise RequestError(
            f"{count.words!r} needs a system whose scalable unit it counts",
            hint='name one, e.g. "DGX H100 4 SU" or "2 SU of GB200 NVL72"',
        )
    fabric = next(iter(r.members.get("fabric", set())), None)
    nodes, basis, arch = su_node_count(r.catalog, system, fabric, count.value)
    r.fields["nodes"] = nodes
    r.fields["su_architecture"] = arch.id
    if fabric is None:  # the count named the RA, so its fabric: see `su_node_count`
        r.members["fabric"] = {arch.compute_fabric.technology}
        basis += f", on its {arch.compute_fabric.technology} compute fabric"
    r.take(count.start, count.end, f"{count.words!r} -> {_units(r, system, nodes)}: {basis}")


def _ra_su_sizes(r: Draft, unit: str) -> list[tuple[str, int, str]]:
    """(RA id, its SU size in `unit`, the unit's word) for the named system, or for each system
    of the named GPU with a reference architecture."""
    platform = r.fields.get("platform")
    gpu = next((eid for kind, eid in r.named if kind == "gpu"), r.fields.get("gpu"))
    systems = (
        [platform]
        if isinstance(platform, str)
        else [s.id for s in r.catalog.all("systems", System) if s.gpu == gpu and s.gpus_per_node]
    )
    fabric = next(iter(r.members.get("fabric", set())), None)
    out = []
    for system in systems:
        arch = r.catalog.architecture_for(system, fabric)
        if arch is None:
            continue
        rack_scale = r.catalog.system(system).kind == "nvl-rack"
        per_rack = 1 if rack_scale else arch.nodes_per_rack
        if unit == "racks" and per_rack:
            out.append((arch.id, -(-arch.su_nodes // per_rack), "racks"))
        elif unit != "racks":
            out.append((arch.id, arch.su_nodes, "racks" if rack_scale else "nodes"))
    return out


def read_su_size(r: Draft) -> None:
    """The size of a scalable unit a request states ("2048 GB200 on XDR, 8 racks per SU", read
    by its rule): an RA's own SU for the named system (or the named GPU's systems) is read as
    such; another is refused, since an RA builds only its own. A pass: the SU is an RA's."""
    size = r.fields.pop("_su_size", None)
    phrase = r.phrases.pop("_su_size", "")
    if not isinstance(size, tuple):
        return
    n, unit = size
    sizes = _ra_su_sizes(r, unit)
    same = [(aid, k, what) for aid, k, what in sizes if k == n]
    if sizes and not same:
        built = "; ".join(sorted({f"{aid}: {k} {what}" for aid, k, what in sizes}))
        raise RequestError(
            f"{phrase!r} is no scalable unit a reference architecture here builds ({built})",
            hint="ask for the GPU or node count, or for a count of its SUs",
        )
    r.renote(
        phrase,
        f"the {same[0][0]} SU of {n} {same[0][2]}"
        if same
        else "an SU size, with no RA here to hold it to: not applied",
    )


#: "36 GB200 superchips", "18 GB200 compute trays": a count of a rack-scale system's parts
_PART_COUNT = re.compile(
    r"(?<![\w.])(\d[\d,]*)\s+(?:nvidia\s+)?(g[bh]\d{3})\s+(?P<part>superchips?|"
    r"(?:compute\s+)?trays?)\b"
)


def read_part_count(r: Draft) -> None:
    """A count of superchips or compute trays is that many times their GPUs: a superchip is one
    Grace CPU with its GPUs (the system's GPUs over its CPU sockets), a compute tray the system's
    GPUs over its compute trays. A pass: the parts are the catalog system's."""
    for m in _PART_COUNT.finditer(r.low):
        if not r.free_span(m.start(1), m.end(1)) or "gpus" in r.fields:
            continue
        gpu = next((eid for kind, eid in r.named if kind == "gpu" and eid == m.group(2)), None)
        system = next(
            (s for s in r.catalog.all("systems", System) if gpu and s.gpu == gpu and s.cpu_sockets),
            None,
        )
        if system is None or not system.gpus_per_node or not system.cpu_sockets:
            continue
        if m.group("part").startswith("superchip"):
            each = system.gpus_per_node // system.cpu_sockets
        else:
            trays = sum(p.count for p in system.included if p.tray == "compute")
            each = system.gpus_per_node // trays if trays else 0
        if each < 1:
            continue
        n = int(m.group(1).replace(",", ""))
        r.fields["gpus"] = n * each
        word = m.group("part")
        r.take(m.start(1), m.end(1), f"{m.group(1)!r} -> {n * each:,} GPUs ({n} {word} x {each})")
        part = m.start("part")
        r.take(part, m.end("part"), "")
        r.understood = [u for u in r.understood if u]
        return


def read_bare_count(r: Draft) -> None:
    """A bare count before a platform name: "512 H100s" (GPUs), "16 DGX B200" (nodes), "a single
    DGX H100", "one GB200 NVL72 rack" (a system's count in words or racks); a count beside a
    replaced fleet's name counts the GPUs replaced one for one. A pass: the unit of the count
    is the name's (a GPU or a system) and the words after it."""
    if _counted(r):
        return
    platform, old = r.fields.get("platform"), r.replaced
    if old is not None and "compute_pflops" in r.fields:
        # the successor matches the fleet's compute ("same throughput"): a count beside the
        # fleet's name counts the fleet, not the design
        _fleet_count(r, *old[1])
        return
    # the successor's own count first ("replace our 256 A100s with 128 B200s": 128 B200s);
    # without one, the replaced fleet's, one for one
    beside = _bare_count(
        r,
        r.named if old is None else [*r.named, old[0]],
        r.spans if old is None else [*r.spans, old[1]],
    )
    if old is not None and beside == old[0]:
        _one_for_one(r, old[0], platform)
    elif old is not None:  # the successor counted: the replaced fleet's count is its own
        _fleet_count(r, *old[1])


def _fleet_count(r: Draft, s: int, e: int) -> None:
    """The count before the replaced fleet's name, read as the fleet's."""
    count = count_before(r.low, s, e, None, articles=False)
    if count is not None and r.free_span(count.start, count.end):
        r.take(count.start, count.end, f"{count.words!r} -> the fleet replaced")


def _one_for_one(r: Draft, old: Named, platform: object) -> None:
    """A count read beside the replaced fleet's name counts the GPUs the design replaces:
    "64 DGX H100" replaced by GB200 NVL72 racks is 512 GPUs, not 64 racks. A platform the
    count named (racks of the old GPU) was the old fleet's, so the design's own stands."""
    counted = r.fields.get("platform")
    if counted != platform:
        r.fields.pop("platform")
        if platform is not None:
            r.fields["platform"] = platform
    system = counted if counted != platform else old[1] if old[0] == "system" else None
    nodes = r.fields.get("nodes")
    per_node = r.catalog.system(str(system)).gpus_per_node if system else None
    if per_node is None and old[0] == "gpu":
        # "replace 64 V100 nodes with something that fits": nodes of the old GPU's own servers
        # (the fleet's size, not the design's)
        system, per_node = old[1], gpus_per_server(r.catalog, old[1])
    if not isinstance(nodes, int) or not per_node:
        return  # GPUs counted
    del r.fields["nodes"]
    r.fields["gpus"] = nodes * per_node
    r.understood.append(
        f"{plural(nodes, f'{system} node')} replaced one for one by GPU -> "
        f"{nodes * per_node:,} GPUs"
    )


def _bare_count(r: Draft, named: list[Named], spans: list[Span]) -> Named | None:
    """The count before the first of the names that has one (see `read_bare_count`). Returns
    the name the count was read beside."""
    for (s, e), name in zip(spans, named, strict=True):
        kind, eid = name
        if kind == "model":
            continue
        unit = UNIT_WORD.match(r.low, e)
        # "a"/"an" is a count only when nothing else sizes the request
        articles = "power_cap_w" not in r.fields and not sizes_workload(r.fields)
        count = count_before(r.low, s, e, unit.group(0).strip() if unit else None, articles)
        # a count in words before a GPU's name counts only its nodes ("one H100 node", "a
        # single H100 server"; "an" as a system's: when nothing else sizes the request): "an
        # H100 cluster" is no count of GPUs
        worded = count is not None and not re.search(r"\d", count.words)
        if count is None or (kind != "system" and worded and not _node_unit(unit)):
            continue
        n = count.value
        if kind == "system" and _GPU_WORD.match(r.low, e):  # "64 GB200 NVL72 GPUs": GPUs
            kind = "gpu"
        # "256 B300 HGX": a figure before the GPU said first counts GPUs, in that system ("a
        # single H200 DGX", "H100 DGX x 4" count systems)
        if (
            kind == "system"
            and unit is None
            and count.end <= s
            and re.search(r"\d", count.words)
            and _gpu_first(r, eid, r.low[s:e])
        ):
            kind = "gpu"

        if kind == "system":
            words = (unit.group(0) if unit else r.low[s:e]).strip()
            if words.endswith(("rack", "racks")) or re.search(r"\bracks?\b", count.words):
                racks = n
                n, basis = racks_to_nodes(r.catalog, eid, n)
                note = f"{count.words!r} -> {_units(r, eid, n)}" + (
                    f": {basis}" if n != racks else ""
                )
            else:
                note = f"{count.words!r} -> {_units(r, eid, n)}"
            r.fields["nodes"] = n
        else:
            # the words as written, the name between: "'one h100 node'", "'2 h100 servers'"
            said = r.low[count.start : unit.end()] if unit and count.end <= s else count.words
            note = _gpu_count(r, eid, n, " ".join(said.split()))
        r.take(count.start, count.end if unit is None else max(count.end, unit.end()), note)
        return name
    return None


def _node_unit(unit: re.Match[str] | None) -> bool:
    """Whether the unit word after a name counts nodes (not racks)."""
    return unit is not None and not unit.group(0).strip().startswith("rack")


def _gpu_first(r: Draft, system_id: str, words: str) -> bool:
    """Whether a DGX or HGX system's name as written starts with its GPU's ("B300 HGX", "H200
    DGX")."""
    system = r.catalog.system(system_id)
    gpu = system.gpu
    if system.kind not in ("dgx", "hgx"):
        return False  # a rack-scale system's name leads with its GPU's ("GB300 NVL72")
    if re.search(r"\b(?:servers?|systems?|nodes?|boxes)\b", words):
        return False  # "4 H100 HGX servers": the name's own unit counts servers
    return bool(gpu) and words.startswith(str(gpu).split("-")[0])


def _gpu_count(r: Draft, gpu: str, n: int, words: str) -> str:
    """A count beside a GPU's name, by the unit its words give: GPUs ("512 H100s"), nodes ("16
    H100 servers", "4 nodes of H200"), or racks ("3 racks of GB200"), which count the nodes of
    the GPU's one rack-scale system; a rack of a GPU with no such system holds as many nodes as
    the system chosen makes it, so the request must name one."""
    unit = _UNITS_IN.search(words)
    if unit is None:
        r.fields["gpus"] = n
        if gpu in r.catalog.entries.get("systems", {}):  # "256 B300 HGX": GPUs in the system
            return f"{words.strip()!r} -> {n} GPUs (say '{n} ... servers' to count servers)"
        return f"{words.strip()!r} -> {n} GPUs"
    if not unit.group(0).startswith("rack"):
        r.fields["nodes"] = n
        return f"{words.strip()!r} -> {plural(n, gpu + ' node')}"
    systems = [s for s in r.catalog.all("systems", System) if s.gpu == gpu]
    racks = sorted(s.id for s in systems if s.kind == "nvl-rack" and s.lifecycle != "superseded")
    if len(racks) != 1:
        named = racks or sorted(s.id for s in systems)
        raise RequestError(
            f"{plural(n, 'rack')} of {gpu} hold as many GPUs as the system in them",
            hint=f'name the system, e.g. "{plural(n, "rack")} of {named[0]}"'
            + (f" (the {gpu} systems: {', '.join(named)})" if len(named) > 1 else ""),
        )
    r.fields["platform"] = racks[0]
    r.fields["nodes"], basis = racks_to_nodes(r.catalog, racks[0], n)
    nodes = r.fields["nodes"]
    assert isinstance(nodes, int)
    return f"{words.strip()!r} -> {_units(r, racks[0], nodes)}" + (
        f": {basis}" if nodes != n else ""
    )


#: the unit a count beside a GPU's name gives: none is GPUs
_UNITS_IN = re.compile(r"\b(?:nodes?|systems?|servers?|boxes|racks?)\b")


#: a GPU word right after a system's name: the count before it counts GPUs
_GPU_WORD = re.compile(r"\s*(?:gpus?|accelerators?)\b")
