"""Customer words for a design: the verdict of its checks, watts for people, the names of the
defaults it assumed, and the document a catalog source cites.

Everything a memo, a BOM summary or the terminal says about a design goes through here, so they
agree on the verdict and never show an engine field name where a person reads.
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

from clustergen.engine.model.design import Design, ManagementNetwork
from clustergen.engine.model.inventory import PARTS
from clustergen.engine.model.request import REQUEST_FIELDS, said_as
from clustergen.units import plural, watts

Mark = Literal["PASS", "WARN", "FAIL", "UNKNOWN", "INFO"]


class Verdict(NamedTuple):
    """The design's checks in one word and one line, and what it does not know."""

    status: Literal["PASS", "WARN", "FAIL"]
    passed: int
    warned: int
    failed: int
    unknown: int
    line: str
    failing: list[str]
    unknowns: list[str]


def verdict(d: Design) -> Verdict:
    """FAIL when an error check fails; WARN when a warning fails or a check cannot tell; else
    PASS. Unknown facts (power the catalog lacks) are listed beside it, never counted as zero."""
    # an INFO check had nothing to compare against (counts derived by rule): said in the checks
    # table, neither a pass nor a concern, so the verdict counts the others
    marks = [(ch.status, ch) for ch in d.checks if ch.status != "INFO"]
    count = {m: sum(1 for k, _ in marks if k == m) for m in ("PASS", "WARN", "FAIL", "UNKNOWN")}
    failing = [f"{ch.name} ({ch.figure})" for m, ch in marks if m in {"FAIL", "WARN", "UNKNOWN"}]
    status: Literal["PASS", "WARN", "FAIL"] = "PASS"
    if count["FAIL"]:
        status = "FAIL"
    elif count["WARN"] or count["UNKNOWN"]:
        status = "WARN"
    total = len(marks)
    if status == "PASS":
        line = f"all {total} checks pass"
    else:
        parts = [f"{count['PASS']} of {total} checks pass"]
        parts += [
            f"{count[m]} {word}"
            for m, word in (("FAIL", "fail"), ("WARN", "warn"), ("UNKNOWN", "cannot tell"))
            if count[m]
        ]
        line = ", ".join(parts)
    unknowns = list(d.power.unknown)
    if unknowns:
        line += f"; {plural(len(unknowns), 'power figure')} unknown, left out of the totals"
    return Verdict(
        status=status,
        passed=count["PASS"],
        warned=count["WARN"],
        failed=count["FAIL"],
        unknown=count["UNKNOWN"],
        line=line,
        failing=failing,
        unknowns=unknowns,
    )


# Engine field names a person reads as these words. A field not here is spelled out by rule;
# a request field is called what its declaration says (`REQUEST_FIELDS`), with its unit.
_FIELD_WORDS = {
    **{field: said_as(field) for field in REQUEST_FIELDS},
    "switch": "compute-fabric switch",
    "su_nodes": "nodes per scalable unit",
    "planes": "compute-fabric planes",
    "ingest_mb_per_s_per_gpu": "data ingest per GPU (MB/s)",
    "read_pattern": "read pattern",
    "workers_per_gpu": "data-loader workers per GPU",
    "storage_system": "storage system",
    "metadata_servers": "metadata servers",
    "mfu": "model FLOPs utilisation (MFU)",
    "checkpoint_interval_s": "checkpoint interval (s)",
    "tco_load_share": "average load (share of the facility power)",
    "port_speed_gbps": "node port speed (Gb/s)",
}

_UNIT_SUFFIXES = (
    ("_mb_per_s", " (MB/s)"),
    ("_gb_per_s", " (GB/s)"),
    ("_gbps", " (Gb/s)"),
    ("_kw", " (kW)"),
    ("_w", " (W)"),
    ("_gb", " (GB)"),
    ("_tb", " (TB)"),
    ("_s", " (s)"),
)

# The storage model's own vocabulary (its Literal values), in words.
_VALUE_WORDS = {
    "parallel-fs": "parallel file system",
    "local-nvme": "local NVMe in each node",
    "object-store": "object store",
    "shards": "large sequential shards",
    "one-file-per-sample": "one file per sample",
    "prefetch": "prefetching data loaders",
    "sequential": "sequential reads",
    "random-small": "small random reads",
    "it": "IT power",
    "facility": "facility power",
}


def field_words(field: str) -> str:
    """An engine field name in a person's words: 'rack_power_kw' -> 'rack power limit (kW)'.
    A name some estimator spells with hyphens ('isl-tokens') is the same field."""
    field = field.replace("-", "_")
    if field in _FIELD_WORDS:
        return _FIELD_WORDS[field]
    for suffix, unit in _UNIT_SUFFIXES:
        if field.endswith(suffix):
            return field[: -len(suffix)].replace("_", " ") + unit
    return field.replace("_", " ")


def value_words(value: str) -> str:
    """A value of the engine's own vocabulary in words; a whole number with its thousands
    separated ('1000' -> '1,000', as every other figure prints); anything else as it is."""
    if value.isdigit():
        return f"{int(value):,}"
    return _VALUE_WORDS.get(value, value)


class PowerRow(NamedTuple):
    """One subsystem's power: the watts the catalog knows, and whether some of it is unknown."""

    label: str
    known_w: float | None
    partial: bool

    @property
    def text(self) -> str:
        """'12.3 kW', 'unknown', '12.3 kW + unknown' for a lower bound, 'none' for 0 W."""
        if self.known_w is None or (self.partial and not self.known_w):
            return "unknown"
        if not self.known_w:
            return "none"  # the design has no such subsystem
        return watts(self.known_w) + (" + unknown" if self.partial else "")


def _partial_fields(d: Design) -> set[str]:
    """Power fields of the design that are lower bounds: a part of them is not in the catalog."""
    partial = set()
    cf, sf = d.fabrics.compute, d.fabrics.storage
    if cf is not None and cf.power.switches_w is None:
        partial.add("compute_fabric_switches_w")
    if cf is not None and cf.power.optics_w is None:
        partial.add("compute_fabric_optics_w")
    if sf is not None and sf.power.total_w is None:
        partial.add("storage_fabric_w")
    if any(n is not None and n.switch_power_w is None for n in (d.fabrics.inband, d.fabrics.oob)):
        partial.add("management_network_w")
    if any(
        PARTS[ln.category].power_term == "management_servers_w" and ln.unit_power_w is None
        for ln in d.bom
    ):
        partial.add("management_servers_w")
    return partial


def power_rows(d: Design) -> list[PowerRow]:
    """Every power figure of the design's power section (fields ending in `_w`, less the
    totals, the cap and the headroom), each marked when it is unknown or a lower bound."""
    skip = {"it_total_w", "facility_total_w", "cap_w", "headroom_w"}
    partial = _partial_fields(d)
    rows = []
    for name, value in d.power:
        if name.endswith("_w") and name not in skip:
            known = float(value) if isinstance(value, int | float) else None
            rows.append(
                PowerRow(
                    label=name[: -len("_w")].replace("_", " "),
                    known_w=known,
                    partial=name in partial or known is None,
                )
            )
    return rows


def split_top(text: str, sep: str) -> list[str]:
    """`text` split at `sep` where it is outside brackets and quotes."""
    parts, depth, quoted, start, i = [], 0, False, 0, 0
    while i < len(text):
        ch = text[i]
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "([":
            depth += 1
        elif not quoted and ch in ")]":
            depth = max(0, depth - 1)
        elif not quoted and depth == 0 and text.startswith(sep, i):
            parts.append(text[start:i])
            start = i + len(sep)
            i = start
            continue
        i += 1
    parts.append(text[start:])
    return parts


# What a later '; '-separated part of a source must show to count as another document.
_DOCUMENT = re.compile(
    r"https?://|\bRA\b|Reference Architecture|Guide|manual|specification|datasheet|Table \d|"
    r"et al\.|Survey|release notes|documentation|\(\d{4}\)",
    re.IGNORECASE,
)

_ASIDE = re.compile(r",?\s*as (?:summarised|summarized|quoted) (?:by|in) [^:;()]*(?:\([^)]*\))?")


def document(source: str) -> str:
    """The documents a catalog source cites, without its quotations: the text before each
    top-level ': ' of each '; '-separated citation. A secondary summary it was read through
    stays named ('via ...'), since a reader should know the figure is second-hand."""
    docs: list[str] = []
    for n, part in enumerate(split_top(" ".join(source.split()), "; ")):
        head = split_top(part, ": ")[0].strip().rstrip(".,")
        if n and not _DOCUMENT.search(head):
            continue  # a later part that is a remark or a quotation, not another document
        aside = _ASIDE.search(head)
        if aside:
            via = aside.group(0).split(" by ", 1)[-1].split(" in ", 1)[-1]
            head = (head[: aside.start()] + head[aside.end() :]).strip(" ,") + f" (via {via})"
        if head and any(c.isalpha() for c in head) and head not in docs:
            docs.append(head)
    return "; ".join(docs)


def no_fabric_words(unit: str) -> str:
    """A single node's compute network: none, its GPUs talk over the node's own link (`unit`:
    the design's `platform.lone_unit`, e.g. 'one GB200 NVL72 rack, its 72 GPUs share NVLink
    through the rack's NVLink Switch trays')."""
    return f"{unit}, no scale-out fabric"


def compute_rack_words(d: Design) -> str:
    """A compute rack's load: nodes per rack at the full rack's power and a part-filled last
    rack's own, or, for a cluster smaller than one rack, the nodes it holds and their power
    beside the space the layout leaves."""
    r = d.racks.compute
    if d.platform.rack_scale:  # the node is the rack: say which rack, not "1 node per rack"
        rack = d.platform.name.split(" (")[0].removeprefix("NVIDIA ")
        each = "a" if r.compute_racks == 1 else "each a"
        return f"{each} {rack} at {r.rack_power_kw:.1f} kW"
    part = [g for g in r.rack_loads if g.nodes < r.nodes_per_rack]
    # the nodes' own load: a rack that also holds the switches and servers says so in the BOM
    nodes_kw = part[0].power_kw - part[0].support_kw if part else 0.0
    if r.compute_racks == 1 and part:
        return (
            f"{plural(part[0].nodes, 'node')} at {nodes_kw:.1f} kW, in a rack laid out "
            f"for {r.nodes_per_rack} at {r.rack_power_kw:.1f} kW"
        )
    full = f"{plural(r.nodes_per_rack, 'node')} per rack at {r.rack_power_kw:.1f} kW"
    if part:  # the last rack holds what is left
        full += f", the last rack {plural(part[0].nodes, 'node')} at {nodes_kw:.1f} kW"
    # an increment's nodes past its new racks' take the free slots of a standing rack
    racked = sum(g.racks * g.nodes for g in r.rack_loads)
    if d.expansion is not None and r.rack_loads and racked < d.compute.nodes:
        more = d.compute.nodes - racked
        full += f"; {more} more node{'s' if more != 1 else ''} in standing racks' free slots"
    return full


def switch_count(
    d: Design, count: int, tier: Literal["leaf", "spine", "core"], what: str, planes: int = 1
) -> str:
    """A compute-fabric tier's switches as a picture labels them ("2 x QM9700 leaves"): on an
    expansion, the standing installation's beside the ones added (drawn, not quoted)."""
    x = d.expansion
    standing = None
    if x is not None:
        standing = {
            "leaf": x.standing_leaf_switches,
            "spine": x.standing_spine_switches,
            "core": x.standing_core_switches,
        }[tier]
    if not standing:
        return f"{count:,} x {what}"
    return f"{standing // max(1, planes):,} x {what} standing, {count:,} added"


def network_switches(d: Design, net: ManagementNetwork, model: str) -> str:
    """A management network's switches ('2 x SN4600C'). On an increment, those that already
    stand apart from those it adds: an expansion said 'in-band management 2 x sn4600c' where
    both stand and its BOM orders none."""
    groups = []
    if d.expansion is not None and d.inventory is not None:
        # a group with a network is a switch group (`DeviceGroup.network`)
        groups = [g for g in d.inventory.groups if g.network == net.name and g.standing]
    if not groups:
        return f"{net.total_switches:,} x {model}"
    standing = sum(g.standing or 0 for g in groups)
    added = sum(g.count for g in groups)
    return f"{standing:,} x {model} standing, {f'{added:,}' if added else 'none'} added"


def storage_owner(d: Design) -> str | None:
    """Whose storage a picture draws when none of it is quoted: the customer's own, or the
    existing installation's an expansion reuses."""
    if d.storage.existing:
        return "the customer's own (not quoted)"
    if d.expansion is not None:
        return "the existing installation's (reused, not quoted)"
    return None


def su_offset(d: Design) -> int:
    """The scalable units an expansion's standing installation holds: the pictures number the
    increment's SUs after them (SU 3 on two standing SUs, not SU 1)."""
    x, su = d.expansion, d.compute.su_nodes
    if x is None or not x.existing_nodes or not su:
        return 0
    return -(-x.existing_nodes // su)
