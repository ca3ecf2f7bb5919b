"""The phrases a request is read from: one small rule per kind of phrase.

A rule has a pattern and reads each match into `Reading`s: a value for a field that may be given
once (a count, a power cap), a value set outright (the cap's basis), or one member of a word set
(the fabrics, coolings, workloads and layouts named). Each rule's pattern, units and error message
sit together (pint's one class per definition kind); `parse_request` only applies them in order.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from clustergen.engine.request.rules.durations import DURATION_RULES
from clustergen.engine.request.rules.load import LOAD_RULES
from clustergen.engine.request.rules.model import MODEL_RULES
from clustergen.engine.request.rules.phrases import Reading, Rule, num, rule
from clustergen.engine.request.rules.serving import LATENCY_RULES, SERVING_RULES, STACK_RULES
from clustergen.engine.request.rules.workload import (
    MONEY_RULES,
    POOL_RULES,
    TOKEN_UNIT_RULES,
    WORKLOAD_RULES,
)
from clustergen.errors import RequestError

__all__ = ["RACK_CEILING", "RULES"]

_NUM = r"(?<![\w.])(\d[\d,]*(?:\.\d+)?)\s*([km])?"
_MULT = {None: 1.0, "": 1.0, "k": 1e3, "m": 1e6}


def _count(field: str, unit: str) -> Callable[[re.Match[str]], list[Reading]]:
    def read(m: re.Match[str]) -> list[Reading]:
        n = round(num(m.group(1)) * _MULT[m.group(2)])
        return [Reading(field, n, f"{n} {unit}")]

    return read


def _count_instead(m: re.Match[str]) -> list[Reading]:
    unit = m.group("unit2") or m.group("unit")
    if unit is None:
        return []
    n = round(num(m.group("yes")))
    field = "gpus" if unit.startswith(("gpu", "acc")) else "nodes"
    note = f"{n} {'GPUs' if field == 'gpus' else 'nodes'} (not {m.group('no')})"
    return [Reading(field, n, note)]


def _nodes_of_gpus(m: re.Match[str]) -> list[Reading]:
    per = int(m.group("g"))
    out = [Reading("_gpus_per_node", per, f"{per} GPUs per node")]
    count = m.group("n") or m.group("n2") or m.group("n3")
    if count or m.group("one"):
        n = round(num(count)) if count else 1
        out.append(Reading("nodes", n, f"{n} node{'s' if n != 1 else ''} of {per} GPUs"))
    return out


def _gpu_range(m: re.Match[str]) -> list[Reading]:
    low, high = round(num(m.group(1) or m.group(2))), round(num(m.group(3)))
    if low >= high:
        raise RequestError(
            f"{m.group(0).strip()!r} is not a range of GPU counts",
            hint="give the smaller count first, e.g. '256-512 GPUs', or one count",
        )
    note = f"{high} GPUs (the top of {low:,}-{high:,}; ask for {low:,} to size the bottom)"
    return [Reading("gpus", high, note)]


def _pue(m: re.Match[str]) -> list[Reading]:
    return [Reading("pue", float(m.group(1) or m.group(2)), "pue")]


def _rack(m: re.Match[str]) -> list[Reading]:
    kw = float(m.group(1) or m.group(2))
    return [Reading("rack_power_kw", kw, f"rack limit {kw:g} kW")]


def _racks(m: re.Match[str]) -> list[Reading]:
    if m.group("rows"):  # "2 rows of 10 racks": every row's racks
        rows, per_row = int(m.group("rows")), int(m.group("n3"))
        n = rows * per_row
        note = f"room for {n} racks ({rows} row{'s' if rows != 1 else ''} of {per_row})"
        out = [Reading("max_racks", n, note)]
    else:
        said = m.group("n") or m.group("n2") or "1"  # "single rack, max GPUs": one
        n = int(said) if said.isdigit() else 1  # "fits in one rack", "in a single rack"
        out = [Reading("max_racks", n, f"room for {n} rack{'s' if n != 1 else ''}")]
    kw = m.group("kw") or m.group("kw2") or m.group("kw3") or m.group("kw4")
    if kw:
        out.append(Reading("rack_power_kw", float(kw), f"rack limit {float(kw):g} kW"))
    return out


#: words that make a rack count the site's ceiling, not the count to build: "no more than 2
#: racks", "space for 10 racks", "fit in 4 racks"
_RACK_CEILING = (
    r"(?:no|not)\s+more\s+than|at\s+most|max(?:imum)?(?:\s+of)?|up\s+to|within|limited\s+to|only|"
    # "we don't want more than 12 racks", "can't go over 8 racks"
    r"(?:do\s*n[’']?t|do\s+not|won[’']?t|will\s+not|can[’']?t|cannot)\s+(?:want|need|have|use|take|"
    r"go|fit|get)\s+(?:more\s+than|over|beyond)|"
    r"(?:not|never)\s+(?:to\s+)?exceed|fewer\s+than|less\s+than|under|"
    r"just|fit(?:s|ting)?\s+(?:in(?:to)?|within)|(?:space|room)\s+for|in|into|across|for|"
    r"(?:we\s+)?have"
)


#: a rack's power after its count: "10 racks at 30 kW", "6 racks, 40 kW each", "racks of 40kW"
def _rack_kw(group: str) -> str:
    return (
        rf"(?:\s*(?:,|at|of|@|with|x)\s*(?P<{group}>\d+(?:\.\d+)?)\s*kw\b"
        r"(?:\s*(?:each|apiece|per\s+rack|/\s*rack|a\s+rack))?)"
    )


#: one in words, as a count of spare or failing nodes is written
_ONE = r"one|a\s+single|single|an?"


#: words of the facility's own redundancy ("N+1 UPS", "power with N+1")
_FACILITY = re.compile(
    r"\b(?:power|cooling|ups|psus?|supplies|generators?|feeds?|chillers?|cdus?|pdus?|crah|crac)\b"
)


def _spare_nodes(m: re.Match[str]) -> list[Reading]:
    if m.group("b"):
        clause = re.split(r"[,.;:!?]", m.string[: m.start()])[-1]
        if _FACILITY.search(clause):
            note = f"{m.group(0).strip()!r} of the facility's power or cooling: not quoted"
            return [Reading("_said", "facility redundancy", note, "member")]
    said = next(g for g in (m.group(x) for x in "nkbfg") if g)
    n = int(said) if said.isdigit() else 1
    return [Reading("spare_nodes", n, f"{n} spare node{'s' if n != 1 else ''} beyond the size")]


def _growth(m: re.Match[str]) -> list[Reading]:
    n = round(num(m.group(1)) * _MULT[m.group(2)])
    return [Reading("growth_gpus", n, f"room to grow to {n:,} GPUs")]


def _growth_from(m: re.Match[str]) -> list[Reading]:
    """'scale from 256 GPUs this year to 1,024 next year': today's count is built, the later
    one is the growth its fabric and floor leave room for."""
    if m.group("unit"):
        raise RequestError(
            f"{m.group(0).strip()!r} grows in {m.group('unit')}, and growth room is sized in GPUs "
            "(a node's GPUs depend on the platform chosen)",
            hint=f"say it in GPUs, e.g. 'scale from 64 to 256 GPUs', or '{m.group('now')} "
            f"{m.group('unit')}' alone",
        )
    now = round(num(m.group("now")) * _MULT[m.group("nk")])
    later = round(num(m.group("later")) * _MULT[m.group("lk")])
    if later <= now:
        raise RequestError(
            f"{m.group(0).strip()!r} grows to no more GPUs than it starts with",
            hint="say the count to build now and the larger one to grow to",
        )
    return [Reading("gpus", now, f"{now} GPUs"), *_growth_to(later)]


def _growth_to(n: int) -> list[Reading]:
    return [Reading("growth_gpus", n, f"room to grow to {n:,} GPUs")]


#: when a count is meant: "this year", "in 2027", "next quarter", "in phase 2"
_WHEN = (
    r"(?:\s+(?:this|next|the\s+following)\s+(?:year|quarter|half)|\s+(?:in|by)\s+(?:\d{4}|"
    r"phase\s+\d|year\s+\d|h[12](?:\s+\d{4})?|q[1-4](?:\s+\d{4})?)|\s+(?:initially|now|today|"
    r"later|eventually))?"
)


def _power(m: re.Match[str]) -> list[Reading]:
    watts = num(m.group(3)) * {"g": 1e9, "m": 1e6, "k": 1e3}[m.group(4)[0]]
    bases = {
        "it" if b in {"it", "critical"} else "facility"
        for b in (m.group(1), m.group(2), m.group(5))
        if b
    }
    if len(bases) > 1:
        raise RequestError(
            f"{m.group(0).strip()!r} says both IT and facility power",
            hint='say "5 MW IT" or "5 MW facility at PUE 1.3"',
        )
    said = f"{watts / 1e3:g} kW" if watts < 1e6 else f"{watts / 1e6:g} MW"
    out = [Reading("power_cap_w", watts, f"power cap {said}")]
    return out + [Reading("power_cap_basis", b, "", "set") for b in bases]


def _cap_pair(m: re.Match[str]) -> list[Reading]:
    """'15 MW total, of which 12 MW IT': the IT figure is the cap, the pair gives the PUE."""
    unit = {"g": 1e9, "m": 1e6, "k": 1e3}
    total = float(m.group(1)) * unit[m.group(2)[0]]
    it = float(m.group(3)) * unit[m.group(4)[0]]
    if not 0 < it <= total:
        raise RequestError(
            f"{m.group(0).strip()!r} gives more IT power than the total",
            hint="give the IT load as a part of the total",
        )
    pue = round(total / it, 4)
    return [
        Reading("power_cap_w", it, f"power cap {it / 1e6:g} MW IT (of {total / 1e6:g} MW total)"),
        Reading("power_cap_basis", "it", "", "set"),
        Reading("pue", pue, f"PUE {pue:g}, the total over the IT part"),
    ]


def _cap_now_later(m: re.Match[str]) -> list[Reading]:
    unit = {"g": 1e9, "m": 1e6, "k": 1e3}
    now = float(m.group("now")) * unit[m.group("nu")[0]]
    later = float(m.group("later")) * unit[m.group("lu")[0]]
    note = (
        f"power cap {now / 1e6:g} MW, today's ({later / 1e6:g} MW later: a later phase is "
        "its own request)"
    )
    return [Reading("power_cap_w", now, note)]


def _cap_share(m: re.Match[str]) -> list[Reading]:
    """'4 MW but only 2 MW is available for the cluster': the share the cluster may use is the
    cap; the site's whole figure is context."""
    g = m.groupdict()
    unit = {"g": 1e9, "m": 1e6, "k": 1e3}
    whole = float(g["whole"]) * unit[g["wu"][0]]
    share = float(g["s1"] or g["s2"] or g["s3"]) * unit[(g["su1"] or g["su2"] or g["su3"])[0]]
    if share > whole:
        raise RequestError(
            f"{m.group(0).strip()!r} makes the cluster's share larger than the whole",
            hint="give the share the cluster may use as a part of the site's power",
        )
    return [
        Reading(
            "power_cap_w",
            share,
            f"power cap {share / 1e6:g} MW, the cluster's share (of the site's {whole / 1e6:g} MW)",
        )
    ]


_MW = r"\s*(?:gw|mw|megawatts?|kw)\b"
_FREE = r"(?:available|usable|free|spare|allocated|dedicated|set\s+aside|ours)"
#: "4 MW but only 2 MW is available for the AI cluster", "6 MW site, 3 MW of it free for us"
_CAP_SHARE = (
    rf"(?<![\w.])(?P<whole>\d+(?:\.\d+)?)\s*(?P<wu>gw|mw|megawatts?|kw)\b[^.;\d]{{0,40}}?"
    rf"(?:\bonly\s+(?P<s1>\d+(?:\.\d+)?)\s*(?P<su1>gw|mw|megawatts?|kw)\b"
    rf"(?:\s+(?:of\s+it\s+)?(?:is\s+|are\s+|will\s+be\s+|can\s+be\s+)?{_FREE})?"
    rf"|(?<![\w.])(?P<s2>\d+(?:\.\d+)?)\s*(?P<su2>gw|mw|megawatts?|kw)\b\s+(?:of\s+(?:it|that)\s+)?"
    rf"(?:is\s+|are\s+|will\s+be\s+|can\s+be\s+)?{_FREE}"
    # "a 1 GW campus, phase 1 is 100 MW": the phase being built is the cluster's share
    rf"|(?:phase\s*(?:1|one|i)|first\s+phase|initial\s+phase|day[- ]one)\s*(?:is|of|at|=|:|"
    rf"will\s+be|with)?\s*(?P<s3>\d+(?:\.\d+)?)\s*(?P<su3>gw|mw|megawatts?|kw)\b)"
    r"(?:\s+(?:for|to)\s+(?:the|our|this|a|us)?\s*(?:new\s+)?(?:ai|gpus?|ml)?\s*"
    r"(?:cluster|project|deployment|build|us|this|it)?)?"
)


#: real power per volt-ampere of a feed given in kVA/MVA: an estimate, the low end of what
#: active-PFC server power supplies hold (0.95-0.99 at load; 80 PLUS asks at least 0.9 at half
#: load), so the cap is not overstated
POWER_FACTOR = 0.95


def _apparent(m: re.Match[str]) -> list[Reading]:
    """'800 kVA', '2.5 MVA': a feed's apparent power, as real power at an assumed power factor."""
    va = float(m.group(1)) * {"k": 1e3, "m": 1e6}[m.group(2)[0]]
    watts = va * POWER_FACTOR
    note = (
        f"power cap {watts / 1e6:g} MW ({m.group(1)} {m.group(2)[0]}VA at an assumed power factor of "
        f"{POWER_FACTOR:g}, an estimate: 0.95-0.99 for server supplies)"
    )
    return [Reading("power_cap_w", watts, note)]


def _planes(m: re.Match[str]) -> list[Reading]:
    n = 1 if m.group(1) in ("single", "one", "1") else 2
    return [Reading("compute_planes", n, f"compute fabric of {n} plane{'s' if n > 1 else ''}")]


def _ratio(m: re.Match[str]) -> list[Reading]:
    a, b = float(m.group(1)), float(m.group(2))
    if b == 0 or a / b < 1:
        raise RequestError(f"oversubscription {m.group(0)!r} is below 1:1", hint="use 1:1 or 2:1")
    return [Reading("oversubscription", a / b, f"oversubscription {a / b:g}:1")]


def _tiers(m: re.Match[str]) -> list[Reading]:
    word = m.group(1) or "3"  # "leaf-spine-core": three tiers
    n = {"two": 2, "three": 3}.get(word) or int(word)
    return [Reading("fabric_tiers", n, f"compute fabric of {n} tiers asked")]


def _nonblocking(m: re.Match[str]) -> list[Reading]:
    return [Reading("oversubscription", 1.0, "oversubscription 1:1")]


def _checkpoint(m: re.Match[str]) -> list[Reading]:
    size, unit = float(m.group(1) or m.group(3)), m.group(2) or m.group(4)
    gb = size * (1000.0 if unit == "tb" else 1.0)
    return [Reading("checkpoint_gb", gb, f"checkpoint {gb:g} GB")]


def _sample(m: re.Match[str]) -> list[Reading]:
    size, unit = float(m.group(1) or m.group(3)), m.group(2) or m.group(4)
    mb = size * {"kb": 1e-3, "mb": 1.0, "gb": 1e3}[unit]
    return [Reading("sample_mb", mb, f"sample {mb:g} MB")]


def _tokens(m: re.Match[str]) -> list[Reading]:
    scale = {"t": 1.0, "b": 1e-3, "m": 1e-6}[m.group(2)[0]]
    return [Reading("training_tokens_t", float(m.group(1)) * scale, "training tokens")]


def _model(m: re.Match[str]) -> list[Reading]:
    scale = 1.0 if m.group(2) == "b" else 1e3
    return [Reading("model_params_b", float(m.group(1)) * scale, "model size")]


def _tier(m: re.Match[str]) -> list[Reading]:
    return [Reading("storage_tier", m.group(1) or m.group(2), "storage tier")]


def _member(field: str, value: str, note: str) -> Callable[[re.Match[str]], list[Reading]]:
    def read(m: re.Match[str]) -> list[Reading]:
        return [Reading(field, value, note, "member")]

    return read


#: Storage needs as the customer states them: usable capacity, read/write bandwidth and how often
#: checkpoints are written (issue 35). Each a figure with its unit and the storage word it is
#: said of: "5 PB usable", "200 GB/s checkpoint write", "checkpoint every 30 minutes" (an
#: interval, never a deadline: read before the duration rules take "30 minutes").

_TB = {
    "pb": 1000.0,
    "petabyte": 1000.0,
    "petabytes": 1000.0,
    "tb": 1.0,
    "terabyte": 1.0,
    "terabytes": 1.0,
}


def _capacity(m: re.Match[str]) -> list[Reading]:
    said = m.groups()[:-1]  # (figure, unit) pairs, one per form; the last group is "per node"
    size, unit = next((v, u) for v, u in zip(said[0::2], said[1::2], strict=True) if v)
    tb = num(size) * _TB[unit]
    per = m.group("cap_per")
    if per is None:
        return [Reading("storage_capacity_tb", tb, f"usable storage {tb:,g} TB")]
    host = "gpu" if per.startswith("gpu") else "node"
    return [
        Reading("storage_capacity_tb", tb, f"usable storage {tb:,g} TB per {host}"),
        Reading("storage_capacity_per", host, "", "set"),
    ]


def _bandwidth(m: re.Match[str]) -> list[Reading]:
    g = m.groupdict()
    value = num(g["n1"] or g["n2"])
    scale = 1000.0 if (g["u1"] or g["u2"] or "").startswith("t") else 1.0
    words = " ".join(w for w in (g["w1"], g["w2"]) if w)
    field = (
        "storage_write_gb_per_s"
        if ("write" in words or "checkpoint" in words)
        else ("storage_read_gb_per_s")
    )
    kind = "write" if field == "storage_write_gb_per_s" else "read"
    per = g["p1"] or g["p2"] or g["p3"]
    if per is None:
        return [Reading(field, value * scale, f"storage {kind} {value * scale:,g} GB/s")]
    unit = "gpu" if per.startswith("gpu") else "node"
    return [
        Reading(field, value * scale, f"storage {kind} {value * scale:,g} GB/s per {unit}"),
        Reading("storage_bandwidth_per", unit, "", "set"),
    ]


def _per(group: str) -> str:
    """ "per node", "/GPU", "each server": a bandwidth stated for one host or GPU."""
    return (
        rf"(?:\s*(?:/|per|a|an|for\s+each|each|for\s+every)\s*"
        rf"(?P<{group}>nodes?|servers?|hosts?|systems?|gpus?|trays?)\b)?"
    )


_SECONDS = {"s": 1.0, "m": 60.0, "h": 3600.0}


def _interval(m: re.Match[str]) -> list[Reading]:
    g = m.groupdict()
    size = []
    if g["size"]:  # "checkpoints of 2 TB every hour": the size said inside the phrase
        gb = float(g["size"]) * (1000.0 if g["su"] == "tb" else 1.0)
        size = [Reading("checkpoint_gb", gb, f"checkpoint {gb:g} GB")]
    if g["hourly"]:  # "hourly checkpoints"
        return [Reading("checkpoint_interval_s", 3600.0, "checkpoint every 3,600 s")]
    said = g["every"]
    count = num(said) if said and said[0].isdigit() else 1.0  # "every hour", "once an hour"
    seconds = count * _SECONDS[g["unit"][0]]
    return [Reading("checkpoint_interval_s", seconds, f"checkpoint every {seconds:,g} s"), *size]


def _write_window(m: re.Match[str]) -> list[Reading]:
    seconds = float(m.group(1)) * _SECONDS[m.group(2)[0]]
    return [Reading("_checkpoint_write_s", seconds, f"checkpoint written within {seconds:,g} s")]


_BW_UNIT = r"(?:tb/s|gb/s|gbytes/s|tbytes/s|gigabytes?\s*(?:/|per)\s*s(?:ec(?:ond)?)?)"
_BW_WORDS = (
    r"(?:(?:aggregate|sustained|peak|total)\s+)?(?:storage\s+)?(?:checkpoint(?:ing)?\s+)?"
    r"(?:reads?|writes?|checkpoint(?:ing)?|storage)(?:\s+(?:bandwidth|throughput|speed|performance))?"
)

#: the customer's own storage serves the cluster: "we'll use our existing Lustre", "BYO storage"
_OWN_STORAGE = (
    r"\b(?:use|reuse|re-use|keep|leverage|connect\s+to|attach\s+to|plug\s+into|hook\s+into|"
    r"mount)\s+(?:our|the)\s+(?:existing|current|own|in-house|on-prem)\b"
    r"(?=\s+(?:[\w-]+\s+){0,2}?(?:storage|lustre|weka|vast|gpfs|spectrum\s+scale|ddn|netapp|"
    r"ceph|file\s*system|filesystem|nas|array|flashblade|powerscale|beegfs|exascaler)\b)"
    r"|\bbyo\s+storage\b|\bbring\s+(?:our|your)\s+own\s+storage\b"
    # "we'll bring our own NetApp", "BYO VAST": the customer's own product
    r"|\b(?:bring\s+(?:our|your)\s+own|byo)\b(?=\s+(?:[\w-]+\s+){0,1}?(?:lustre|weka|vast|gpfs|"
    r"spectrum\s+scale|ddn|netapp|ceph|nas|flashblade|powerscale|beegfs|exascaler)\b)"
)

# a ceiling on racks, with the rack's power when it follows: "no more than 2 racks", "space
# for 10 racks at 30 kW", "max 6 racks, 40 kW each", "12 rack positions", "a 4-rack limit";
# a bare count with a rack power ("10 racks at 30 kW") is what the site has too
RACK_CEILING = rule(
    "max_racks",
    # "2 rows of 10 racks at 35 kW each", "3 rows, 8 racks each": the site holds rows x racks
    rf"\b(?P<rows>\d+)\s+rows?\s*(?:of|,|with|x)\s*(?P<n3>\d+)\s+racks?(?:\s+(?:each|per\s+row))?"
    rf"{_rack_kw('kw4')}?|"
    rf"\b(?:{_RACK_CEILING})\s+(?P<n>\d+|one|(?:a\s+)?single|a)\s+racks?\b"
    rf"(?:\s+(?:positions|spaces|slots|locations))?{_rack_kw('kw')}?"
    rf"|(?<![\w.])(?P<n2>\d+)(?:\s+|-)racks?(?:\s+(?:positions|spaces|slots|locations|"
    rf"footprint|max(?:imum)?|limit|ceiling)\b{_rack_kw('kw2')}?|{_rack_kw('kw3')}"
    # "10 racks in a 400 kW room": the racks a room of that power holds
    r"|(?=\s+(?:in|within|inside)\s+(?:a|an|the|our|one)?\s*\d[\d,.]*\s*(?:kw|mw)\b)"
    # "I have 1.2 MW and 30 racks.", "512 GPUs, 30 racks": a bare count of racks that ends its
    # clause is the site's room, as a power beside it is the site's cap
    r"|(?=\s*(?:[.,;!?)]|\band\b|$)))"
    # "single rack, max GPUs, 50 kW": a request that opens with the one rack it has
    r"|^\s*(?:a\s+)?single[- ]rack\b",
    _racks,
    needs=("rack", "single"),
)


def _node_link(m: re.Match[str]) -> list[Reading]:
    """'3.2T networking per node': a node's scale-out bandwidth, read as the port speed of the
    eight compute NICs an 8-GPU node carries (one per GPU), said so."""
    per_node = float(m.group(1)) * 1000
    port = round(per_node / 8)
    if port not in (100, 200, 400, 800, 1600):
        raise RequestError(
            f"{m.group(0).strip()!r} is no per-GPU port speed over 8 GPUs ({port} Gb/s)",
            hint="give the port speed, e.g. '400G per GPU'",
        )
    note = f"{port} Gb/s ports ({per_node / 1000:g} Tb/s per node over 8 GPUs, one NIC each)"
    return [Reading("compute_link_gbps", port, note)]


NEED_RULES: tuple[Rule, ...] = (
    rule(
        "node_link",
        r"(?<![\w.])(\d+(?:\.\d+)?)\s*(?:t|tb/s|tbps|tbit/s|terabits?(?:/s)?)\s+(?:of\s+)?"
        r"(?:(?:scale[- ]out|east[- ]west|compute|backend|back[- ]end)\s+)?(?:networking|network|"
        r"bandwidth|connectivity|fabric)?\s*(?:per|/|a|each)\s*(?:node|server|system|box)\b",
        _node_link,
        needs=("node", "server", "system", "box"),
    ),
    rule(
        "own_storage",
        _OWN_STORAGE,
        lambda m: [Reading("storage_excluded", True, "storage: the customer's own, not quoted")],
        needs=("our", "storage", "the", "bring", "byo"),
    ),
    # "3,000 QPS of embeddings plus a chat model": an embedding or reranking load is not a
    # generation load the serving model sizes; said, and the chat load is sized alone
    rule(
        "embedding_load",
        r"(?<![\w.])\d[\d,]*(?:\.\d+)?\s*k?\s*(?:qps|rps|requests?\s*(?:/|per)\s*s(?:ec(?:ond)?)?|"
        r"queries\s*(?:/|per)\s*s(?:ec(?:ond)?)?)\s+(?:of\s+|for\s+)?(?:the\s+)?(?:embeddings?|"
        r"embedding\s+(?:model|calls|requests)|rerank(?:ing|er)?|retrieval|vector\s+search)\b",
        _member(
            "_said",
            "embedding load",
            "an embedding or reranking load: not sized (the serving model sizes generation; "
            "ask for it as its own request)",
        ),
        needs=("embed", "rerank", "retrieval", "vector"),
    ),
    # "plus 5 PB capacity tier", "2 PB of archive": a second, colder tier beside the one the
    # design sizes (its appliances hold the fast tier); said, not quoted
    rule(
        "second_tier",
        r"(?<![\w.])(\d[\d,]*(?:\.\d+)?)\s*(pb|tb|petabytes?|terabytes?)\b\s*(?:of\s+)?"
        r"(?:(?:(?:capacity|archive|archival|cold|nearline|backup|bulk|object|hdd|disk)\s+)+"
        r"(?:storage\s+)?tier\b|(?:archive|archival|cold|nearline|backup)(?:\s+(?:storage|tier|store))?"
        r"\b)",
        lambda m: [
            Reading(
                "_said",
                "second tier",
                f"a second storage tier of {num(m.group(1)) * _TB[m.group(2)]:,g} TB: said, not "
                "quoted (the design sizes the fast tier; ask for it as its own storage)",
                "member",
            )
        ],
        needs=("tier", "archiv", "cold", "nearline", "backup"),
    ),
    rule(
        "storage_capacity",
        # "2 PB (of) Lustre", "4 PB parallel file system": a storage system's name, read by its
        # own pass, follows the figure and is not taken again (tried first: the name is taken)
        r"(?:(?<![\w.])(\d[\d,]*(?:\.\d+)?)\s*(pb|tb|petabytes?|terabytes?)\b(?:\s+(?:of|on|in))?"
        r"(?=\s+(?:[\w-]+\s+){0,2}?(?:parallel\s+file\s*systems?|lustre|weka|vast|gpfs|"
        r"spectrum\s+scale|ddn|ceph|object\s+stor(?:e|age)|nas|flashblade|netapp|powerscale|"
        r"beegfs|exascaler)\b)|"
        r"(?<![\w.])(\d[\d,]*(?:\.\d+)?)\s*(pb|tb|petabytes?|terabytes?)\b\s*(?:of\s+)?"
        # what customers put between: "1.2 PB of fast storage", "500 TB scratch"
        r"(?:(?:fast|high[- ]performance|high[- ]speed|shared|parallel|all[- ]flash|nvme|flash|"
        r"hot|performant|network(?:ed)?|usable)\s+){0,3}"
        r"(?:usable\s+(?:storage|capacity)|usable|storage(?:\s+capacity)?|capacity|scratch"
        r"(?:\s+space)?|file\s*system|filesystem)\b"
        r"|\b(?:usable\s+)?(?:storage\s+)?capacity\s*(?:of|:|=|is)?\s*"
        r"(\d[\d,]*(?:\.\d+)?)\s*(pb|tb|petabytes?|terabytes?)\b"
        # "storage: 3 PB"
        r"|\bstorage\s*(?::|=|-)\s*(\d[\d,]*(?:\.\d+)?)\s*(pb|tb|petabytes?|terabytes?)\b"
        # a bare "5 PB" (tried last): in a cluster request only storage holds petabytes
        r"|(?<![\w.])(\d[\d,]*(?:\.\d+)?)\s*(pb|petabytes?)\b(?!\s*(?:/|per\b|ps\b))"
        # "20 TB of storage per node": a capacity for each host or GPU, not the total
        r")" + _per("cap_per"),
        _capacity,
        needs=(
            "capacity",
            "file",
            "scratch",
            "storage",
            "system",
            "usable",
            *("ceph", "ddn", "gpfs", "lustre", "nas", "object", "parallel", "spectrum"),
            *("vast", "weka", "flashblade", "netapp", "powerscale", "beegfs", "exascaler"),
            *("pb", "petabyte"),
        ),
    ),
    rule(
        "storage_bandwidth",
        r"(?<![\w.])(?P<n1>\d[\d,]*(?:\.\d+)?)\s*(?P<u1>"
        + _BW_UNIT
        + r")"
        + _per("p1")
        + r"\s*(?:of\s+)?(?P<w1>"
        + _BW_WORDS
        + r")\b"
        + _per("p2")
        + r"|\b(?P<w2>"
        + _BW_WORDS
        + r")\s*(?:of|:|=|at|is)?\s*(?:(?:at\s+least|minimum(?:\s+of)?|min\.?|>=?|≥|above|over)\s*)?"
        r"(?P<n2>\d[\d,]*(?:\.\d+)?)\s*(?P<u2>" + _BW_UNIT + r")" + _per("p3"),
        _bandwidth,
        needs=("checkpoint", "read", "storage", "write"),
    ),
    rule(
        "checkpoint_interval",
        r"\b(?:checkpoint(?:s|ing)?|ckpts?|saves?)\b"
        r"(?:\s+(?:of\s+)?(?P<size>\d+(?:\.\d+)?)\s*(?P<su>gb|tb)\b)?(?:\s+\w+){0,3}?\s+"
        r"(?:every|each|once\s+an?)\s+"
        r"(?P<every>\d+(?:\.\d+)?|an?|one)?\s*(?P<unit>seconds?|secs?|s|minutes?|mins?|m|hours?|"
        r"hrs?|h)\b"
        r"|\b(?P<hourly>hourly)\s+(?:checkpoint(?:s|ing)?|ckpts?|saves?)\b",
        _interval,
        needs=("checkpoint", "ckpt", "save", "hourly"),
    ),
    # "(checkpoints) must write in under 2 minutes": the time a checkpoint may take to write,
    # never the run's deadline (read before the durations)
    rule(
        "checkpoint_write_window",
        r"\b(?:must\s+|should\s+|has\s+to\s+|have\s+to\s+|needs?\s+to\s+)?(?:be\s+)?"
        r"(?:writ(?:e|ten)|sav(?:e|ed)|flush(?:ed)?|persist(?:ed)?)\s+(?:in|within)\s+"
        r"(?:under\s+|less\s+than\s+|at\s+most\s+)?(\d+(?:\.\d+)?)\s*(seconds?|secs?|s|minutes?|"
        r"mins?|m)\b",
        _write_window,
        needs=("writ", "sav", "flush", "persist"),
    ),
)


#: Every rule, in the order they read: earlier rules take their words first.
RULES: tuple[Rule, ...] = (
    *MONEY_RULES,  # first: "$2M" and "$2.50 per GPU-hour" are not model sizes or counts
    *NEED_RULES,  # before the durations: "checkpoint every 30 minutes" is not a deadline
    # "PUE 1.3", "PUE of 1.3", "runs at PUE around 1.35", "PUE is ~1.4", "1.25 PUE"
    rule(
        "pue",
        r"\bpue\s*(?:of|=|:|at|is|was|runs at)?\s*(?:(?:about|around|approx(?:imately|\.)?|"
        r"roughly|near|~|≈|of)\s*)*(\d+(?:\.\d+)?)|\b(\d\.\d+)\s+pue\b",
        _pue,
        needs=("pue",),
    ),
    # "512 GPUs, not 5 MW", "3 MW rather than 5 MW": a power figure said not to be the limit is
    # no cap (before the cap rules take it); "not more than 5 MW" is one (no figure follows "not")
    rule(
        "power_ruled_out",
        r"\b(?:not|rather\s+than|instead\s+of|(?:don'?t|do\s+not|doesn'?t|does\s+not|won'?t|will\s+not)"
        r"\s+(?:have|get))\s+(?:a\s+|the\s+)?(\d[\d,]*(?:\.\d+)?\s*"
        r"(?:mw|kw|gw|megawatts?|kilowatts?|gigawatts?))\b(?!\s*(?:or|and)\s+(?:more|less|over|under))",
        lambda m: [
            Reading("_said", "not a power limit", f"not a power limit ({m.group(1)})", "member")
        ],
        needs=("not", "rather", "instead", "have", "get"),
    ),
    RACK_CEILING,
    # the size the cluster must grow to later: "room to grow to 1024 GPUs", "expandable to 2k
    # GPUs", "scaling to 4096 later", "a path to 1,024 GPUs" (a count of GPUs, not of nodes)
    rule(
        "growth_from",
        r"\b(?:scal(?:e|ing)|grow(?:ing)?|go(?:ing)?|expand(?:ing)?|ramp(?:ing)?(?:\s+up)?)\s+from\s+"
        r"(?<![\w.])(?P<now>\d[\d,]*(?:\.\d+)?)(?:\s*(?P<nk>k)\b)?(?:\s*(?:gpus?|accelerators))?"
        + _WHEN
        + r",?\s+(?:up\s+)?to\s+(?P<later>\d[\d,]*(?:\.\d+)?)(?:\s*(?P<lk>k)\b)?"
        r"(?:\s*(?:gpus?|accelerators|(?P<unit>nodes?|servers?|systems?)))?\b"
        r"(?!\s*(?:racks?|mw|kw|%|users?))" + _WHEN,
        _growth_from,
        needs=("from",),
    ),
    rule(
        "growth",
        r"\b(?:(?:room|headroom|space|ability|able|designed|built)\s+to\s+grow|grow(?:s|ing)?|"
        r"(?:expand|extend|scal)(?:able|ing|e)|upgradeable|(?:future\s+)?(?:expansion|growth)|"
        r"(?:a\s+)?path)\s+(?:later\s+|eventually\s+|up\s+)?to\s+(?:about\s+|~)?"
        rf"{_NUM}(?:\s*(?:gpus?|accelerators))?\b(?!\s*(?:nodes?|servers?|systems?|racks?|mw|kw|"
        r"tb|pb|gb|%|percent|users?|tokens?))(?:\s*(?:later|eventually|in\s+(?:phase|year)\s+\d"
        # "expandable to 512 within 2 years": when the growth comes, not a run's deadline
        r"|(?:within|in|over|by)\s+(?:the\s+next\s+)?(?:\d+(?:\.\d+)?|a|one|two|three|five)\s+"
        r"(?:years?|months?|quarters?)))?",
        _growth,
        needs=("grow", "expan", "scal", "upgrad", "path", "exten"),
    ),
    rule(
        "rack",
        # "40 kW racks", "40kW/rack", "40 kW rack density", "racks of 40 kW", "rack density 40kW
        # max", "rack power limit of 40 kW"
        r"(?<![\w.])(\d+(?:\.\d+)?)\s*kw\s*(?:/|per)?\s*racks?\b(?:\s+(?:density|power|limit))?"
        r"|racks?\s*(?:density|power|power\s+density|limit|power\s+limit)?\s*"
        r"(?:of|at|is|limited to|<=?|up to|:|=)?\s*(\d+(?:\.\d+)?)\s*kw\b(?:\s*max(?:imum)?)?",
        _rack,
        needs=("rack",),
    ),
    rule(
        "apparent_power",
        r"(?<![\w.])(\d+(?:\.\d+)?)\s*(kva|mva)\b",
        _apparent,
        needs=("kva", "mva"),
    ),
    rule(
        "cap_share",
        _CAP_SHARE,
        _cap_share,
        needs=(
            "only",
            "available",
            "usable",
            "free",
            "spare",
            "allocated",
            "dedicated",
            "aside",
            "ours",
            "phase",
            "day",
            "first",
            "initial",
        ),
    ),
    # "2 MW today and 5 MW next year": the cap to build under is today's; the later figure is
    # a later phase's, said so
    rule(
        "cap_now_later",
        r"(?<![\w.])(?P<now>\d+(?:\.\d+)?)\s*(?P<nu>gw|mw|megawatts?|kw)\b\s*(?:available\s+)?"
        r"(?:today|now|currently|initially|at\s+first|to\s+start)\b[^.;\d]{0,40}?"
        r"(?<![\w.])(?P<later>\d+(?:\.\d+)?)\s*(?P<lu>gw|mw|megawatts?|kw)\b\s*"
        r"(?:(?:next|in\s+a)\s+year|later|eventually|in\s+(?:\d{4}|phase\s+\d|a\s+later\s+phase)|"
        r"by\s+\d{4}|after\s+(?:the\s+)?(?:upgrade|expansion))\b",
        _cap_now_later,
        needs=("today", "now", "currently", "initially", "first", "start"),
    ),
    rule(
        "cap_pair",
        # "15 MW total, of which 12 MW IT", "10 MW at the meter incl. 8 MW critical load"
        r"(?<![\w.])(\d+(?:\.\d+)?)\s*(gw|mw|megawatts?|kw)\b(?:\s+(?:total|facility|site|"
        r"at\s+the\s+meter))?[\s,;(]*(?:of\s+which|whereof|with|incl(?:uding|\.)?)\s+"
        r"(\d+(?:\.\d+)?)\s*(gw|mw|megawatts?|kw)\s+(?:is\s+|are\s+)?(?:for\s+)?(?:it|critical)"
        r"(?:\s+(?:load|power))?\b",
        _cap_pair,
        needs=("which", "whereof", "with", "incl"),
    ),
    rule(
        "power",
        # "IT load 4.2 MW", "facility 6.5 MW", "5 MW IT", "10 MW of critical power"
        r"(?:\b(?:(it|critical)\s+(?:power|load)|(facility|total|utility|grid)(?:\s+(?:power|load))?)"
        r"\s*(?:cap|budget|limit|envelope)?\s*(?:of|:|=|is)?\s*)?"
        r"(?<![\w.,])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*(gw|gigawatts?|mw|megawatts?|kw|"
        r"kilowatts?)\b"
        # a figure per part is no cap: "14.3 kW per server", "132 kW each" (a rack's: scope)
        r"(?!\s*(?:/|per|a|each)\s*(?:gpu|node|server|system|chassis|box|tray)s?\b)"
        r"(?!(?:(?<=kw)|(?<=kilowatt)|(?<=kilowatts))\s+(?:each|apiece)\b)"
        r"(?:\s*(?:of\s+)?(it|critical|facility|total|utility|grid)(?:\s+(?:power|load))?)?",
        _power,
        needs=("gigawatt", "gw", "kilowatt", "kw", "megawatt", "mw"),
    ),
    rule(
        "ratio",
        r"(?<![\w.])(\d+(?:\.\d+)?)\s*:\s*(\d+(?:\.\d+)?)\b"
        # a ratio said of another network is not the compute fabric's ("1:1 storage network")
        r"(?!\s*(?:storage|in-?band|management|out[- ]of[- ]band|oob|front[- ]?end)\b)"
        # nor is a split of the cluster ("50:50 training/inference", "a 60:40 split")
        r"(?!\s*(?:split|between|training|inference|inferencing|serving|fine-tuning)\b)"
        r"(?:\s*oversubscri\w*|\s+(?:tapered\s+)?fat[- ]?tree\b)?",
        _ratio,
        needs=(":",),
    ),
    # "4:1 storage", "1:1 in-band": a ratio said of another network than the compute fabric is
    # not one the design takes: said, not applied (those fabrics follow their RA's)
    rule(
        "ratio_other_network",
        r"(?<![\w.])\d+(?:\.\d+)?\s*:\s*\d+(?:\.\d+)?\s*(?:over[- ]?subscri\w*\s+)?(?:for\s+(?:the\s+)?)?"
        r"(?:storage|in-?band|management|out[- ]of[- ]band|oob|front[- ]?end)\b"
        r"(?:\s+(?:fabric|network|networking))?",
        lambda m: [
            Reading(
                "_said",
                "another network's ratio",
                "a ratio for another network than the compute fabric: not applied (it follows "
                "its RA's)",
                "member",
            )
        ],
        needs=("band", "front", "management", "oob", "storage"),
    ),
    # "in H2 2027", "installed in Q3": when the cluster goes in, not how long a run takes
    rule(
        "install_date",
        r"\b(?:h[12]|q[1-4]|first\s+half|second\s+half)(?:\s+(?:of\s+)?(?:20\d{2}|fy\s?\d{2,4}))?\b",
        lambda m: (
            [Reading("_said", "a date", "when, not how long a run takes", "member")]
            if re.search(r"\b(?:in|during|for|from)\s+(?:the\s+)?$", m.string[: m.start()])
            else []
        ),
        needs=("h", "q", "first", "second"),
    ),
    # "20% oversubscription", "50% oversubscribed": the share of downlink bandwidth above the
    # uplinks (1.2:1, 1.5:1); 0% is non-blocking
    rule(
        "ratio_percent",
        r"(?<![\w.])(\d+(?:\.\d+)?)\s*%\s*(?:over[- ]?subscri(?:ption|bed)|taper(?:ed)?)\b"
        r"(?!\s*(?:on\s+|of\s+)?(?:the\s+)?(?:storage|in-?band|management|oob|front[- ]?end)\b)",
        lambda m: [
            Reading(
                "oversubscription",
                1 + float(m.group(1)) / 100,
                f"oversubscription {1 + float(m.group(1)) / 100:g}:1 ({m.group(1)}% over the uplinks)",
            )
        ],
        needs=("subscri", "taper"),
    ),
    # "single-plane 400G", "a dual-plane fabric", "two planes"
    rule(
        "planes",
        r"\b(single|one|1|dual|two|2)[- ]planes?\b(?:\s+(?:fabric|network|design|topology))?",
        _planes,
        needs=("plane",),
    ),
    # "a 3-tier fat tree", "two-tier leaf-spine", "leaf-spine-core": the tiers asked for
    rule(
        "fabric_tiers",
        r"(?:\b([23]|two|three)[- ]?(?:tier|layer|level)(?:ed)?|\bleaf[- ]spine[- ]"
        r"(?:super[- ]?spine|core))\b(?:\s+(?:fat[- ]?tree|clos|leaf[- ]spine(?:[- ]core)?|"
        r"non[- ]?blocking|fabric|network|topology))?",
        _tiers,
        needs=("tier", "layer", "level", "core", "spine"),
    ),
    rule(
        "nonblocking",
        # a fat tree is full-bisection unless a taper is stated ("a 2:1 tapered fat tree")
        r"\bnon[- ]?blocking\b|(?<!tapered )(?<!:1 )\b(?:full[- ]?)?fat[- ]?tree\b"
        r"|\b(?:no|zero|without(?:\s+any)?)\s+oversubscription\b|\bnot\s+oversubscribed\b",
        _nonblocking,
        needs=("blocking", "tree", "oversubscri"),
    ),
    rule(
        "checkpoint",
        r"(?<![\w.])(\d+(?:\.\d+)?)\s*(gb|tb)\s*(?:checkpoints?|ckpts?)\b"
        r"|\bcheckpoints?\s*(?:of|size|=|:)?\s*(\d+(?:\.\d+)?)\s*(gb|tb)\b",
        _checkpoint,
        needs=("checkpoint", "ckpt"),
    ),
    rule(
        "sample",
        r"(?<![\w.])(\d+(?:\.\d+)?)\s*(kb|mb|gb)\s*(?:samples?|files?|images?|records?)\b"
        r"|\bsamples?\s*(?:of|size|=|:)?\s*(\d+(?:\.\d+)?)\s*(kb|mb|gb)\b",
        _sample,
        needs=("file", "image", "record", "sample"),
    ),
    rule(
        "layout_files",
        r"\bone\s+file\s+per\s+sample\b|\bfile[- ]per[- ]sample\b"
        r"|\b(?:individual|small|many)\s+files\b",
        _member("dataset_layout", "one-file-per-sample", "dataset layout"),
        needs=("files", "sample"),
    ),
    rule(
        "layout_shards",
        r"\bshard(?:s|ed)?\b|\bwebdataset\b|\btfrecords?\b",
        _member("dataset_layout", "shards", "dataset layout"),
        needs=("shard", "tfrecord", "webdataset"),
    ),
    rule(
        "layout_object",
        r"\bobject\s*(?:store|storage)\b|\bs3\b",
        _member("dataset_layout", "object-store", "dataset layout"),
        needs=("object", "s3"),
    ),
    *POOL_RULES,  # "half for inference": before the workload words take "inference"
    *LOAD_RULES,  # requests/s and concurrent users: turned into a token rate after reading
    *SERVING_RULES,  # a rate per user before the total rate
    *WORKLOAD_RULES,
    *LATENCY_RULES,
    *STACK_RULES,
    *DURATION_RULES,
    *MODEL_RULES,  # "37B active" before model sizes
    rule(
        "tokens",
        # one word may say which tokens: "500B new tokens", "2T high-quality tokens"
        r"(?<![\w.])(\d+(?:\.\d+)?)\s*(t|b|m|trillion|billion|million)\s*(?:(?:new|fresh|more|"
        r"additional|extra|unique|high[- ]quality|domain|curated|clean|code|text|multilingual|"
        r"synthetic|web|training)\s+)?tokens?\b",
        _tokens,
        needs=("token",),
    ),
    *TOKEN_UNIT_RULES,
    # "7B-13B models", "7 to 13B": a range of sizes is sized for its largest, said so
    rule(
        "model_range",
        r"(?<![\w.])(\d+(?:\.\d+)?)\s*b?\s*(?:-|–|to)\s*(\d+(?:\.\d+)?)\s*b\b(?!\s*tokens?)"
        r"(?:[- ]?param(?:eter)?s?)?(?:\s*(?:llms?|models?))?",
        lambda m: [
            Reading(
                "model_params_b",
                max(float(m.group(1)), float(m.group(2))),
                f"model size: the largest of {m.group(0).strip()!r}, {max(float(m.group(1)), float(m.group(2))):g}B",
            )
        ],
        needs=("b",),
    ),
    rule(
        "model",
        r"(?<![\w.])(\d+(?:\.\d+)?)\s*([bt])(?:illion|rillion)?\b(?:[- ]?param(?:eter)?s?)?"
        r"(?:\s*(?:llm|model|moe))?",
        _model,
        needs=("b", "t"),
    ),
    # "512 H200, how many days": the question is the run's time, which the estimate answers,
    # not the most GPUs that fit (read before that rule takes "how many")
    rule(
        "asks_time",
        r"\bhow\s+many\s+(?:days|weeks|hours|months|gpu[- ]?hours|gpu[- ]?days)\b",
        lambda m: [
            Reading("_said", "the time asked", "asks the run's time (the estimate)", "member")
        ],
        needs=("many",),
    ),
    # "how many tokens per second can 16 B200 push", "how many users can it handle", "what's the
    # throughput": what GPUs already given serve, which the serving estimate answers; not the
    # most GPUs that fit (read before that rule takes "how many")
    rule(
        "asks_capacity",
        r"\bhow\s+many\s+(?:output\s+|total\s+)?(?:tokens?|tok)\b"
        r"(?:\s*(?:(?:per|a|/)\s*(?:second|sec|s)\b))?"
        r"|\bhow\s+many\s+(?:more\s+)?(?:concurrent\s+|simultaneous\s+|parallel\s+|active\s+)?"
        r"(?:users|requests|queries|sessions|streams|people|employees|customers|agents|chats"
        r"|conversations)\b"
        r"|\bwhat(?:'s|\s+is|\s+would\s+be|\s+will\s+be)?\s+(?:the\s+|our\s+|its\s+)?"
        r"(?:(?:kind|sort)\s+of\s+)?(?:max(?:imum)?\s+|total\s+|aggregate\s+|expected\s+)?"
        r"(?:throughput|tokens?\s*(?:per\s+second|/\s*s))\b"
        r"|\bhow\s+much\s+(?:throughput|traffic|load)\b"
        # "requests per second at 1k input / 200 output?": a rate asked, not one stated
        r"|(?<![\d,.])(?<![\d,.]\s)(?<!\bk\s)\b(?:how\s+many\s+|what\s+)?(?:requests?|queries|req|qps|rps)"
        r"\s*(?:per\s+(?:second|sec|minute|min|hour)|/\s*(?:s|sec|min|h|hr))?\b"
        r"(?=(?:[^.!;?]|\.\d)*\?)",
        lambda m: [Reading("_said", "the capacity asked", "asks what the GPUs serve", "member")],
        needs=(
            *("many", "much", "throughput", "token", "agents", "chats", "conversations"),
            *("customers", "employees", "people", "queries", "requests", "sessions", "streams"),
            *("users", "req", "qps", "rps"),
        ),
    ),
    # "what's the total FP4 compute and power draw?", "the power consumption?", "total compute
    # in PFLOPS?": figures every design states (its power section and dense compute)
    rule(
        "asks_figures",
        r"\b(?:power|energy)\s+(?:draw|consumption|usage|use|needs?|requirements?)\b"
        r"|\b(?:in|as)\s+(?:peta|exa|tera|p|e|t)?flops\b"
        # "how much power and cooling do 16 racks need?", "what do I need to buy?": the design's
        # power, cooling and bill of materials answer them
        r"|\b(?:power|energy)\s+and\s+cooling\b|\bcooling\s+(?:needs?|requirements?|load)\b"
        r"|\bwhat\s+(?:do|would|should|must)\s+(?:i|we)\s+(?:need\s+to\s+)?(?:buy|order|purchase)\b",
        lambda m: [Reading("_said", "the figures asked", "a figure the design states", "member")],
        needs=("power", "energy", "flops", "cooling", "what"),
    ),
    rule(
        "most_gpus",
        # "max GPUs under 0.5 MW", "the most GPUs", "how many fit": the count is the objective.
        # "How many B200s do I need to train ...", "how many H100s to pretrain a 7B model" ask
        # for the need, not the most that fit
        r"\b(?:max(?:imum)?|most)\s+(?:number\s+of\s+)?(?:gpus?|accelerators?)\b"
        r"|\bas\s+many\s+(?:gpus?|accelerators?)\s+as\b"
        r"|\bmaximi[sz]e\s+(?:the\s+)?(?:number\s+of\s+)?(?:gpus?\b|accelerators?\b|\S+\s+count\b)"
        r"|\bhow\s+(?:many|big|large)\b(?=[^.?!;]{0,40}\b(?:fits?|will\s+fit|can\s+(?:we|i)\s+"
        r"(?:get|put|power|build))\b)"
        r"|\bhow\s+many\b(?![^.?!;]{0,60}\b(?:need|needed|required?|requires|takes?|it\s+take"
        r"|to\s+(?:pre-?train|train|fine-?tune|serve|run|host|deploy)"
        r"|for\s+(?:pre-?training|training|fine-?tuning|serving|inference))\b)",
        lambda m: [Reading("objective", "most-gpus", "objective: most GPUs", "set")],
        needs=("how", "many", "max", "most"),  # "maximize" holds "max"
    ),
    # "maximize throughput", "the most tokens per second within 20 MW": for a served model the
    # most GPUs the bound holds (each serves at the limits asked)
    rule(
        "most_throughput",
        r"\b(?:maximi[sz]e|maximum|max|most|highest|best|greatest)\s+(?:the\s+|total\s+|output\s+"
        r"|aggregate\s+)*(?:throughput|tokens?\s*(?:per\s+second|/\s*s(?:ec)?|per\s+sec))\b"
        # "the most users we can serve", "max concurrent users": as many streams as the cap holds
        r"|\b(?:maximi[sz]e\s+(?:the\s+)?(?:number\s+of\s+)?|(?:the\s+)?(?:most|max(?:imum)?)\s+"
        r"(?:number\s+of\s+)?)(?:concurrent\s+)?(?:users|sessions|streams)\b",
        lambda m: [Reading("objective", "most-tokens", "objective: the most output tokens/s")],
        needs=("throughput", "token", "users", "sessions", "streams"),
    ),
    # "with Slurm and Kubernetes", "BCM", "NVIDIA AI Enterprise": the software the cluster runs,
    # said and not quoted (the management servers are where the scheduler and BCM run)
    rule(
        "software",
        r"\b(?:slurm|kubernetes|k8s|run:?ai|base\s+command(?:\s+manager)?|bcm|nvaie|"
        r"(?:nvidia\s+)?ai\s+enterprise|mission\s+control|openshift)\b",
        lambda m: [
            Reading(
                "_said",
                "software",
                "software the cluster runs: not quoted (it runs on the management servers and nodes)",
                "member",
            )
        ],
        needs=(
            "slurm",
            "kube",
            "k8s",
            "run",
            "command",
            "bcm",
            "nvaie",
            "enterprise",
            "mission",
            "openshift",
        ),
    ),
    # "the cheapest way", "lowest cost per token", "most cost-effective": the study ranks by
    # capital wherever every line is priced, by least IT power otherwise; said, no field
    rule(
        "least_cost",
        r"\b(?:cheapest|cheaper|least\s+expensive|lowest[- ]cost|lowest\s+price|most\s+cost[- ]"
        r"effective|cost[- ]optimi[sz]ed|best\s+value)\b",
        lambda m: [
            Reading(
                "_said",
                "least cost",
                "least cost: ranked by capital where every line is priced, else least IT power",
                "member",
            )
        ],
        needs=("cheap", "expensive", "cost", "price", "value", "effective", "lowest", "optimi"),
    ),
    rule(
        "perf_per_watt",
        # "best performance per watt", "most energy-efficient", "max PFLOPS per MW", "perf/W"
        r"\b(?:perf(?:ormance)?|flops|pflops|tflops|compute)\s*(?:per|/)\s*(?:watt|w|mw|kw)\b"
        r"|\b(?:most|best|max(?:imum)?|highest)\s+(?:energy[- ]|power[- ])?efficien(?:t|cy)\b"
        r"|\benergy[- ]efficien(?:t|cy)\b",
        lambda m: [Reading("objective", "perf-per-watt", "objective: most PFLOPS per MW")],
        needs=("compute", "efficien", "flops", "perf"),
    ),
    # "which gives more PFLOPS", "the most compute": under a cap the study ranks by dense compute
    rule(
        "most_compute",
        r"\b(?:more|most|highest|max(?:imum)?|greatest)\s+(?:dense\s+)?(?:[ptez]?flops|compute|"
        r"performance)\b",
        lambda m: [
            Reading(
                "_said",
                "most compute",
                "the most dense compute: the study ranks by it under a cap, by it per MW for a count",
                "member",
            )
        ],
        needs=("flops", "compute", "performance"),
    ),
    # "whichever uses less power", "the lowest power draw": the study's own ranking for a sized
    # request (least IT power), said
    rule(
        "least_power",
        r"\b(?:(?:uses?|using|draws?|needs?|consumes?)\s+(?:the\s+)?(?:less|least)\s+power"
        r"|(?:least|lowest|less)\s+(?:it\s+)?power(?:\s+(?:draw|use|usage|consumption))?)\b",
        lambda m: [
            Reading("_said", "least power", "least IT power: the study's ranking", "member")
        ],
        needs=("power",),
    ),
    rule(
        "biggest",
        # "the biggest H200 cluster we can build", "the largest possible cluster"
        # "fill it with B200", "fill the hall": as many as the cap holds
        r"\b(?:biggest|largest)(?:\s+possible)?\b|\bfill\s+(?:it|(?:the|our)\s+(?:hall|room|site|"
        r"space|data\s*cent(?:er|re)|building|capacity|power))(?:\s+up)?\b",
        lambda m: [Reading("objective", "most-gpus", "objective: most GPUs")],
        needs=("biggest", "largest", "fill"),
    ),
    # "the most B200 we can fit", "the most GB200 that will fit in 2 MW": the tail of a count
    # objective whose GPU name between was read by the names pass
    rule(
        "most_we_can_fit",
        r"\b(?:(?:we|i|you)\s+(?:can|could)\s+(?:fit|get|put\s+in|power|squeeze\s+in|house)"
        r"|that\s+(?:will\s+|would\s+)?fits?|(?:will|would)\s+fit)\b",
        lambda m: (
            [Reading("objective", "most-gpus", "objective: most GPUs")]
            if re.search(r"\b(?:the\s+)?most\b[^.,;]{0,40}$", m.string[: m.start()])
            else []
        ),
        needs=("can", "could", "that", "will", "would"),
    ),
    rule(
        "most_gpus_tail",
        # the tail of "as many B200 as possible" / "as many as will fit": the platform's name in
        # between is read by then, so the tail is read alone when "as many" comes before it
        r"\bas\s+(?:possible|(?:will|can|we\s+can)\s+fit|fits?)\b",
        lambda m: (
            [Reading("objective", "most-gpus", "objective: most GPUs")]
            if re.search(r"\bas\s+many\b[^.,;]{0,40}$", m.string[: m.start()])
            else []
        ),
        needs=("fit", "possible"),
    ),
    rule(
        # "16 servers, each with 8 GPUs", "8 GPUs per node", "8 GPUs each": GPUs of one node,
        # which the per-node pass multiplies by the nodes counted (never the cluster's GPUs)
        "gpus_per_node",
        r"\b(?:each|every\s+(?:one|node|server|system|box|machine))\s+(?:with|having|has|holding|"
        r"containing|of)\s+(\d{1,2})\s*(?:x\s*)?(?:nvidia\s+)?gpus?\b"
        r"|(?<![\w.])(\d{1,2})\s*(?:x\s*)?(?:nvidia\s+)?gpus?\s+(?:each|apiece|a\s+piece|"
        r"per\s+(?:node|server|system|box|machine|host))\b"
        # "64 nodes of 8 GPUs", "32 servers x 8 GPUs", "16 boxes with 8 GPUs": right after the
        # nodes' word (the count before it is read by the node rule)
        r"|(?:(?<=nodes)|(?<=node)|(?<=servers)|(?<=server)|(?<=systems)|(?<=boxes)|(?<=hosts)"
        r"|(?<=machines))\s*(?:of|with|x|\*|\u00d7)\s*(\d{1,2})\s*(?:x\s*)?(?:nvidia\s+)?gpus?\b"
        r"(?!\s+(?:each|apiece|a\s+piece|per)\b)",
        lambda m: [
            Reading(
                "_gpus_per_node",
                int(m.group(1) or m.group(2) or m.group(3)),
                f"{m.group(1) or m.group(2) or m.group(3)} GPUs per node",
            )
        ],
        needs=("each", "every", "gpu", "node", "server", "system", "box", "host", "machine"),
    ),
    # "8 racks per SU", "SUs of 32 nodes": the size of a scalable unit, not a count of the
    # cluster (the counts pass holds it to the RA's SU)
    rule(
        "su_size",
        r"(?:(?<![\w.])(?P<n>\d+)\s+(?P<unit>racks?|nodes?|systems?|servers?)\s+(?:per|a|an|each|in\s+"
        r"(?:an?|each|one))\s+(?:su|scalable\s+unit)\b"
        r"|\b(?:sus?|scalable\s+units?)\s+of\s+(?P<n2>\d+)\s+(?P<unit2>racks?|nodes?|systems?|"
        r"servers?)\b)"
        # "4 racks per SU isn't required": said not to be wanted, read and not held to
        r"(?P<no>\s+(?:is\s*n[o’']?t|is\s+not|are\s+not|aren[’']?t)\s+(?:required|needed|"
        r"necessary|a\s+must))?",
        lambda m: [
            Reading("_said", "no SU size", "an SU size said not to be needed", "member")
            if m.group("no")
            else Reading(
                "_su_size",
                (
                    int(m.group("n") or m.group("n2")),
                    "racks"
                    if (m.group("unit") or m.group("unit2")).startswith("rack")
                    else "nodes",
                ),
                "an SU size",
            )
        ],
        needs=("node", "rack", "server", "system"),
    ),
    # "we don't need 512 GPUs, 256 is plenty", "not 128 but 256 GPUs": a count said not to be
    # wanted is not the count; the one said to do is
    rule(
        "count_instead",
        r"\b(?:(?:do\s+not|don[’']?t|doesn[’']?t|won[’']?t)\s+(?:need|want|require)|not|no\s+need\s+for)"
        r"\s+(?:all\s+|the\s+full\s+)?(?P<no>\d[\d,]*)\s*(?:x\s*)?(?:nvidia\s+)?"
        r"(?P<unit>gpus?|accelerators?|nodes?|servers?)?\s*[,;]?\s*(?:but\s+|just\s+|only\s+)*"
        r"(?P<yes>\d[\d,]*)\s*(?:x\s*)?(?:nvidia\s+)?(?P<unit2>gpus?|accelerators?|nodes?|servers?)?"
        r"(?:\s+(?:is|are|will|would|should|shall)\s+(?:be\s+)?(?:plenty|enough|sufficient|fine|do|"
        r"suffice|ok(?:ay)?))?\b",
        _count_instead,
        needs=("not", "need", "require", "want"),
    ),
    # spares beyond the size: "2 hot spare nodes", "plus one spare", "N+1 nodes", "tolerate one
    # node failure", "survive the loss of 2 servers" (a count of nodes that fail is no size)
    rule(
        "spare_nodes",
        rf"(?<![\w.])(?P<n>\d{{1,3}}|{_ONE})\s+(?:hot[- ]|cold[- ]|extra\s+)?spares?\b"
        # "a spare PSU" is no spare node: only a node's word or the clause's end may follow
        r"(?:\s+(?:nodes?|servers?|systems?))?(?=\s*(?:$|[,.;:!?)]|(?:and|for|in|on|to|with|at|"
        r"per|as)\b))"
        r"|\bn\+(?P<k>\d)\s*(?:(?:node|server|compute)\s+(?:redundancy|spares?)|"
        r"(?:compute\s+)?(?:nodes?|servers?))\b"
        # a bare "N+1" closing a clause: of the nodes, unless the clause speaks of the facility
        r"|\bn\+(?P<b>\d)(?:\s+redundan(?:cy|t))?(?=\s*(?:$|[,.;:!?)]))"
        r"|\b(?:(?:tolerat(?:e|es|ing)|surviv(?:e|es|ing)|withstand(?:s|ing)?|rid(?:e|es|ing)\s+"
        r"through|handl(?:e|es|ing)|lose|losing)(?:\s+(?:the\s+)?(?:loss|failure)\s+of)?"
        r"|(?:loss|failure)\s+of)\s+(?:up\s+to\s+|at\s+least\s+)?"
        rf"(?P<f>\d{{1,3}}|{_ONE})(?:\s+|-)(?:nodes?|servers?|systems?)\b"
        r"(?:\s+(?:failures?|failing|down|outages?|loss(?:es)?|going\s+down))?"
        rf"|(?<![\w.])(?P<g>\d{{1,3}}|{_ONE})(?:\s+|-)(?:nodes?|servers?)\s+(?:failures?|outages?)\b",
        _spare_nodes,
        needs=("spare", "node", "server", "system", "redundan", "failure", "outage", "n+"),
    ),
    # "16 8-GPU servers", "a single 8-GPU server", "4-GPU servers x 8", "8-GPU nodes, 16 of
    # them": a count of nodes of so many GPUs each (the per-node pass multiplies them)
    rule(
        "nodes_of_gpus",
        r"(?:(?<![\w.,])(?P<n>\d[\d,]*)\s*(?:x\s+)?|\b(?P<one>a\s+single|one|single|an?)\s+)?"
        r"(?<![\w.])(?P<g>\d{1,2})[- ]gpus?\s+(?:nodes?|servers?|systems?|boxes|machines|hosts)\b"
        r"(?:\s*(?:x\s*(?P<n2>\d[\d,]*)|,?\s+(?P<n3>\d[\d,]*)\s+of\s+them)\b)?",
        _nodes_of_gpus,
        needs=("node", "server", "system", "box", "machine", "host"),
    ),
    # "between 256 and 512 GPUs", "256-512 GPUs": a range is built at its upper end, said so
    rule(
        "gpu_range",
        r"(?:\bbetween\s+(?<![\w.])(\d[\d,]*)\s+and\s+|(?<![\w.,])(\d[\d,]*)\s*(?:-|–|to)\s*)"
        r"(\d[\d,]*)\s*(?:nvidia\s+)?(?:gpus?|accelerators?)\b",
        _gpu_range,
        needs=("accelerator", "gpu"),
    ),
    rule(
        "gpus",
        # "512 of the newest GPUs", "512 latest-generation GPUs": words of age between
        _NUM + r"(?:\s*x\s*|\s*-\s*|\s*)(?:of\s+the\s+)?(?:(?:newest|latest|most\s+recent|"
        r"current|latest[- ]gen(?:eration)?|current[- ]gen(?:eration)?|next[- ]gen(?:eration)?|"
        r"top[- ]of[- ]the[- ]line|fastest|best)\s+)?(?:nvidia\s+)?(?:gpus?|accelerators?)\b",
        _count("gpus", "GPUs"),
        needs=("accelerator", "gpu"),
    ),
    rule(
        "nodes",
        # "32 nodes", "16x servers", "a 32-node cluster"
        _NUM + r"(?:\s*x\s*|\s*-\s*|\s*)(?:nodes?|servers?|systems?)\b",
        _count("nodes", "nodes"),
        needs=("node", "server", "system"),
    ),
    # "one node is plenty", "on a single server", "a single-node fine-tune" ("one" is left in
    # words: "no one", "a one-off")
    rule(
        "one_node",
        r"\b(?:one|a\s+single|single)(?:\s*-\s*|\s+)(?:node|server|system|box)\b",
        lambda m: [Reading("nodes", 1, "1 node")],
        needs=("one", "single"),
    ),
    rule(
        "tier",
        # only beside "storage" or "tier": "the best GB300 config" asks for no storage tier
        r"\b(good|better|best)\b(?:\s*(?:tier\s*)?storage|\s*tier)"
        r"|storage\s*(?:tier\s*)?(?:[:=]\s*|of\s+|is\s+)?(good|better|best)\b",
        _tier,
        needs=("storage", "tier"),
    ),
    # The data a cluster trains on, as NVIDIA's storage guidance sorts it (DGX SuperPOD H100 RA
    # Table 5): best for 1080p/4K/uncompressed images, video and ETL; better
    # for compressed images (ImageNet); good for NLP. A tier the request states still wins
    # (parse.py `_data_meaning`), so these are read aside
    rule(
        "data_best",
        # "4k" is video unless a length follows it ("4k seq", "4k context", "4k tokens")
        r"\b(?:videos?|4k(?!\s*(?:seq|sequences?|context|ctx|tokens?|input|output|prompts?))|"
        r"1080p|uncompressed\s+images?|etl)\b",
        lambda m: [Reading("_data_tier", "best", f"{m.group(0)}: best storage tier (Table 5)")],
        needs=("1080p", "4k", "etl", "uncompressed", "video"),
    ),
    rule(
        "data_better",
        r"\b(?:images?|imagenet|computer\s+vision)\b",
        lambda m: [Reading("_data_tier", "better", f"{m.group(0)}: better storage tier (Table 5)")],
        needs=("computer", "image"),
    ),
    rule(
        "data_good",
        r"\bnlp\b|\btext\s+(?:data(?:sets?)?|corpus|corpora)\b",
        lambda m: [Reading("_data_tier", "good", f"{m.group(0)}: good storage tier (Table 5)")],
        needs=("nlp", "text"),
    ),
    # "Ethernet storage", "storage over RoCE", "an InfiniBand storage fabric": the storage
    # fabric's technology, said apart from the compute fabric's (before the fabric rules)
    rule(
        "storage_fabric",
        r"\b(?P<t1>ethernet|roce|spectrum[- ]?x?|infini\s*band|ib|ndr|xdr)(?:[- ]based)?\s+"
        r"(?:for\s+(?:the\s+)?)?storage\b(?!\s+(?:tier|capacity|of)\b)"
        r"|\bstorage\s+(?:fabric|network(?:ing)?)?\s*(?:over|on|via|using|:|=|is|in)\s+(?:an?\s+)?"
        r"(?P<t2>ethernet|roce|spectrum[- ]?x?|infini\s*band|ib|ndr|xdr)\b",
        lambda m: [
            Reading(
                "storage_fabric",
                t := ("ethernet" if (m.group("t1") or m.group("t2"))[0] in "ers" else "infiniband"),
                f"storage fabric {t}",
            )
        ],
        needs=("storage",),
    ),
    # "NDR400", "NDR200", "XDR 800": InfiniBand at that port speed (DGX BasePOD's two designs)
    rule(
        "ib_speed",
        r"\b(?:ndr|xdr|hdr)[- ]?(200|400|800|1600)\b(?!\s*(?:ethernet\s+)?(?:storage|in-?band))",
        lambda m: [
            Reading("fabric", "infiniband", "fabric", "member"),
            Reading("compute_link_gbps", int(m.group(1)), f"{m.group(1)} Gb/s ports"),
        ],
        needs=("ndr", "xdr", "hdr"),
    ),
    rule(
        "fabric_ib",
        r"\binfini\s*band\b|\bib\b|\bndr\b|\bxdr\b|\bquantum(?:-?x800|-?2)?\b",
        _member("fabric", "infiniband", "fabric"),
        needs=("ib", "infini", "ndr", "quantum", "xdr"),
    ),
    # "1 exaflop of FP8", "100 PFLOPS", "2.5 EF": dense compute to deliver; the precision is
    # read by its own rule ("of FP8"), BF16 when none is named
    rule(
        "compute_flops",
        r"(?<![\w.])(\d+(?:\.\d+)?)\s*(exa|peta|e|p)[- ]?(?:flops?|flop/s|f)\b(?!\s*(?:/|per)\s*(?:mw|w))",
        lambda m: [
            Reading(
                "compute_pflops",
                float(m.group(1)) * (1e3 if m.group(2).startswith("e") else 1.0),
                f"dense compute {float(m.group(1)) * (1e3 if m.group(2).startswith('e') else 1.0):,g} PFLOPS",
            )
        ],
        needs=("f",),
    ),
    # "400G RoCE", "800GbE", "800 Gb/s InfiniBand": the compute port speed. Not "GB/s" (a
    # storage or memory bandwidth) and not a speed said of the storage or management network
    rule(
        "link_speed",
        r"(?<![\w.])(100|200|400|800|1600)\s*(?:g|gbe|gbps|gbit(?:/s)?|gigabit)\b"
        r"(?!\s*(?:ethernet\s+|infiniband\s+)?(?:storage|in-?band|management|north|front))"
        r"(?:\s+(?:ports?|links?|nics?)\b)?"
        # "400Gb/s per GPU": a bandwidth per GPU or NIC is a port speed (a storage figure in
        # GB/s is said per node or in total, never per NIC)
        r"|(?<![\w.])(100|200|400|800|1600)\s*gb/s\s*(?:per|/|for\s+each|each)\s*"
        r"(?:gpu|nic|port|hca)s?\b",
        lambda m: [
            Reading("compute_link_gbps", int(g := m.group(1) or m.group(2)), f"{g} Gb/s ports")
        ],
        needs=("100", "200", "400", "600", "800", "gb/s"),
    ),
    rule(
        "fabric_eth",
        r"\bspectrum[- ]?x\b|\bethernet\b|\broce\b",
        _member("fabric", "ethernet", "fabric"),
        needs=("ethernet", "roce", "spectrum"),
    ),
    rule(
        "cool_liquid",
        r"\b(?:direct[- ])?liquid(?:[- ]cool(?:ed|ing))?\b|\bdlc\b",
        _member("cooling", "liquid", "cooling"),
        needs=("dlc", "liquid"),
    ),
    rule(
        "cool_air",
        # not "air-gapped" (a network with no outside link)
        r"\bair(?![- ]?gap)(?:[- ]cool(?:ed|ing))?\b",
        _member("cooling", "air", "cooling"),
        needs=("air",),
    ),
    # "DC busbar", "busbar power", "power shelves": racks fed by DC power shelves on a busbar;
    # "AC power", "rack PDUs": the AC-fed racks
    rule(
        "power_busbar",
        r"\b(?:dc[- ])?bus[- ]?bars?\b|\bdc[- ]power(?:ed)?\b|\bpower[- ]shel(?:f|ves)\b",
        lambda m: [Reading("rack_power", "busbar", "rack power: DC busbar")],
        needs=("bus", "dc", "power"),
    ),
    rule(
        "power_ac",
        r"\bac[- ]power(?:ed)?\b|\brack[- ]pdus?\b",
        lambda m: [Reading("rack_power", "ac", "rack power: AC PDUs")],
        needs=("power", "rack"),
    ),
    rule(
        "w_train",
        # "RL post-training", "reinforcement learning training": a training job at scale
        r"\b(?:(?:rl|reinforcement[- ]learning)\s+)?(?:(?:pre|post|re)[- ]?)?train(?:ing|s)?\b",
        _member("workload", "training", "workload"),
        needs=("train",),
    ),
    rule(
        "w_ft",
        r"\bfine[- ]?tun(?:e|ed|ing)\b|\bsft\b|\bfinetun(?:e|ed|ing)\b"
        r"|\binstruction[- ]tun(?:e|ed|ing)\b|\bdpo\b|\brlhf\b",
        _member("workload", "fine-tuning", "workload"),
        needs=("dpo", "fine", "instruction", "rlhf", "sft"),
    ),
    rule(
        "w_inf",
        r"\binferenc(?:e|ing)\b|\bserv(?:e|es|ed|ing)\b|\binference[- ]heavy\b"
        # work a served model does: "summarize 5 million documents a day"
        r"|\bsummari[sz](?:e|es|ed|ing|ation)\b"
        # "host Llama 3.3 70B", "self-hosting a model": not a host's parts ("host memory")
        r"|\b(?:self[- ])?host(?:s|ed|ing)?\b(?!\s+(?:nodes?|memory|cpus?|servers?|machines?|names?|"
        r"ports?|channel|adapters?|side))",
        _member("workload", "inference", "workload"),
        needs=("host", "inference", "inferencing", "serve", "serving", "summari"),
    ),
    rule("w_mixed", r"\bmixed\b", _member("workload", "mixed", "workload"), needs=("mixed",)),
    # "in our Frankfurt data center", "at the Ashburn site", "located in Texas": where it stands
    # is said; the design rests on the site's power, cooling and racks the request states
    rule(
        "site",
        r"\b(?:in|at)\s+(?:our|the|a|an|their|your)\s+(?!(?:new|main|primary|same|other|"
        r"second|first|largest|smaller?|bigger|larger)\b)[a-z][a-z.'-]*"
        r"(?:\s+[a-z][a-z.'-]*)?\s+(?:data\s*cent(?:er|re)s?|datacent(?:er|re)s?|site|campus|"
        r"facility|region|colo(?:cation)?|hall)\b"
        r"|\b(?:located|based|sited|hosted|housed)\s+in\s+(?:the\s+)?[a-z][a-z.'-]*"
        r"(?:\s+(?!(?:with|and|for|at|on|in|under|using)\b)[a-z][a-z.'-]*)?(?:,\s*[a-z]{2}\b)?",
        _member(
            "_said",
            "site",
            "where the cluster stands: said (sized by the power, cooling and racks stated)",
        ),
        needs=(
            *("cent", "site", "campus", "facility", "region", "colo", "hall"),
            *("located", "based", "sited", "hosted", "housed"),
        ),
    ),
    # "move to H200 with the same node count": a fleet replaced one for one, as its count is read
    rule(
        "same_count",
        r"\b(?:the\s+)?same\s+(?:(?:node|gpu|system|server)\s+count|number\s+of\s+(?:nodes|gpus|"
        r"systems|servers|boxes))\b|\bone[- ]for[- ]one\b",
        lambda m: [
            Reading("replaced_one_for_one", True, "the replaced fleet's count kept, one for one")
        ],
        needs=("count", "number", "one"),
    ),
    # "protein folding and LLM fine-tuning", "a pharma company", "chilled water in the hall":
    # what the cluster is for and what the hall offers, said (the workload and limits stated
    # size it; liquid-cooled racks are weighed unless air is asked for)
    rule(
        "domain",
        r"\b(?:protein[- ]folding|drug[- ]discovery|genomics|bioinformatics|molecular[- ]dynamics|"
        r"computer[- ]vision|recommend(?:er|ation)[- ](?:systems?|models?)|scientific[- ]computing|"
        r"weather|climate|cfd|pharma(?:ceutical)?|biotech|life[- ]sciences|clinical(?:\s+notes?)?|"
        r"healthcare|medical)\b",
        lambda m: [
            Reading(
                "_said", "domain", "the field it serves: said (the workload sizes it)", "member"
            )
        ],
        needs=(
            *("protein", "drug", "genomics", "bioinfo", "molecular", "vision", "recommend"),
            *("scientific", "weather", "climate", "cfd", "pharma", "biotech", "life"),
            *("computer", "discovery", "sciences", "clinical", "health", "medical"),
        ),
    ),
    rule(
        "facility_water",
        r"\b(?:chilled|facility|warm|cooling)[- ]water(?:\s+(?:loop|supply|available))?\b"
        r"|\b(?:tcs|fws)\s+loop\b",
        _member(
            "_said",
            "facility water",
            "facility water: said (liquid-cooled racks and their CDUs can be fed)",
        ),
        needs=("water", "loop"),
    ),
    # "NVIDIA's latest and greatest", "state-of-the-art GPUs": the study weighs current systems
    # only unless one is named, so the newest parts are what it weighs already; said
    rule(
        "newest",
        r"\b(?:latest(?:\s+and\s+greatest)?|newest|most\s+recent|state[- ]of[- ]the[- ]art|"
        r"cutting[- ]edge|bleeding[- ]edge|current[- ]gen(?:eration)?|latest[- ]gen(?:eration)?)\b",
        _member(
            "_said",
            "newest",
            "the newest parts: the study weighs current systems only (a superseded one only "
            "when named)",
        ),
        needs=("latest", "newest", "recent", "state", "cutting", "bleeding", "current"),
    ),
    # "HIPAA, no cloud", "air-gapped", "GDPR": where the data may live; the design is the
    # customer's own cluster already, so said
    rule(
        "compliance",
        r"\b(?:hipaa|gdpr|soc\s*2|fedramp|iso\s*27001|pci(?:[- ]dss)?|itar|air[- ]gapped|"
        r"no\s+(?:public\s+)?cloud|on[- ]prem(?:ises|ise)?|sovereign(?:ty)?|data\s+residency)\b",
        _member(
            "_said",
            "compliance",
            "where the data may live: said (the design is an on-premises cluster)",
        ),
        needs=(
            *("hipaa", "gdpr", "soc", "fedramp", "27001", "pci", "itar", "gapped", "cloud"),
            *("prem", "sovereign", "residency"),
        ),
    ),
    # "208V power", "415 V three-phase": the site's supply voltage, said (the rack PDUs that take
    # it are a line to choose; no figure of the design moves with it)
    rule(
        "voltage",
        r"(?<![\w.])(?:1[012]\d|2[0-4]\d|3[4-9]\d|4[0-8]\d)\s*(?:/\s*\d{3}\s*)?(?:v|vac|volts?)\b"
        r"(?:\s+(?:ac|dc|three[- ]phase|3[- ]phase|single[- ]phase|power|feeds?|circuits?))*",
        _member(
            "_said",
            "voltage",
            "supply voltage: said (the rack PDUs are to choose for it; no figure moves with it)",
        ),
        needs=("v",),
    ),
    # "99.9% uptime", "high availability": said; the design's redundancy is the RA's (switch
    # pairs, spines spread, N+N power shelves), not sized to a service level
    rule(
        "availability",
        r"(?<![\w.])\d{2}(?:\.\d+)?\s*%\s*(?:uptime|availability|available|sla)\b"
        r"|\b(?:high[- ]availability|highly[- ]available)\b",
        _member(
            "_said",
            "availability",
            "availability: said, not sized (the redundancy is the reference architecture's)",
        ),
        needs=("uptime", "availab", "sla"),
    ),
    # "separate in-band and out-of-band networks", "a dedicated storage network": every design
    # has its storage, in-band and out-of-band networks apart from the compute fabric
    rule(
        "own_networks",
        r"\b(?:separate|dedicated|isolated|distinct|own|independent)\s+(?:(?:in-?band|out-of-band|"
        r"oob|management|storage|north[- ]south|front[- ]?end|and|,)\s*)+(?:networks?|fabrics?)\b"
        r"|\b(?:in-?band|out-of-band|oob)\s+(?:and\s+(?:in-?band|out-of-band|oob)\s+)?"
        r"(?:management\s+)?(?:networks?|fabrics?)\b",
        _member(
            "_said",
            "own networks",
            "storage, in-band and out-of-band networks: each designed apart from the compute "
            "fabric",
        ),
        needs=("network", "fabric"),
    ),
)
