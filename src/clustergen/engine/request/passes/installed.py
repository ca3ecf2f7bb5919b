"""The passes that read an installation the request extends or replaces: "add 256 GPUs to our
existing 512 H100 SuperPOD", "we run 4 SUs of DGX H100 today and want to grow by 2 SUs", "our 64
DGX A100 draw 420 kW". They are passes, not rules: which of two counts is the installation and
which the increment depends on the words around both (an "existing"/"our ... cluster"/"today"
cue, a growth verb), and a count's unit on the catalog name beside it."""

from __future__ import annotations

import re
from typing import NamedTuple

from clustergen.engine.request.draft import Draft, Named
from clustergen.engine.request.rules.counts import WORD_COUNTS, count_before, gpus_per_server
from clustergen.errors import RequestError
from clustergen.units import plural

#: a growth word: the request adds to something
_GROW = re.compile(
    r"\b(?:add(?:s|ing)?|expand(?:s|ing)?|extend(?:s|ing)?|grow(?:s|ing)?|scal(?:e|es|ing)\s+"
    r"(?:out|up)|augment(?:s|ing)?|build(?:ing)?\s+out|another|more|additional|extra|further)\b"
)
#: a word that says an installation already stands
_EXISTING = re.compile(
    r"\b(?:(?:currently|already)\s+(?:running|operating|run|have|own)|existing|already|"
    r"currently|today|installed|in\s+production|in\s+place|"
    r"we\s+(?:already\s+|currently\s+)?(?:have|run|operate|own)|"
    r"our\s+(?:current\s+|present\s+)?(?:[\w,.-]+\s+){0,4}?(?:cluster|superpod|basepod|pod|"
    r"fabric|installation|deployment|fleet|estate|environment|farm|racks?|nodes|servers|systems|"
    r"gpus|boxes|machines))\b"
)
_WORDS = "|".join(sorted((re.escape(w) for w in WORD_COUNTS if w not in {"a", "an"}), key=len))
#: a number read whole ("1.5" is never "1" followed by ".5"): the lookahead stops a backtrack
_NUM = rf"(\d[\d,]*(?:\.\d+)?k?(?![\d.,]*\d)|{_WORDS})"
_UNIT = r"(gpus?|accelerators?|nodes?|systems?|servers?|boxes|sus?|scalable[- ]units?|racks?)"
#: the increment: "add 256 GPUs", "grow by 2 SUs", "by another 512", "with 32 more nodes"
_INCREMENT = (
    re.compile(
        r"\b(?:add(?:s|ing)?(?:\s+(?:another|an?\s+(?:additional|extra|further)))?|another|"
        r"(?:grow|expand|extend|scale)\w*\s+(?:(?:it|this|that|them|the\s+\w+|our\s+\w+)\s+)?"
        r"(?:out\s+)?by(?:\s+another|\s+an?\s+(?:additional|extra|further))?)\s+"
        rf"{_NUM}(?:\s+more\b)?(?:\s*-?\s*(?:more\s+|additional\s+|extra\s+|new\s+)?{_UNIT}\b)?"
    ),
    re.compile(
        rf"(?<![\w.]){_NUM}\s+(?:more|additional|extra|new|further)\s+(?:\w+\s+){{0,3}}?"
        rf"{_UNIT}\b"
    ),
    re.compile(rf"(?<![\w.]){_NUM}\s+(?:more|additional|extra|further)\b"),
    # "extend our existing DGX GB200 SuperPOD (4 SUs) by 2 SUs": "by" far from its verb
    re.compile(
        rf"\bby\s+(?:another\s+|an?\s+(?:additional|extra|further)\s+)?{_NUM}(?!\s*%)"
        rf"(?:\s*-?\s*{_UNIT}\b)?"
    ),
)
#: a count that may be the installation's: a number not of power, speed, bytes or time
_COUNT = re.compile(
    rf"(?<![\w.$]){_NUM}(?:\s*-\s*|\s+)?(?:{_UNIT}\b)?"
    r"(?!\s*(?:[kmg]w|w\b|g\b|gb\b|tb\b|pb\b|%|gbps|gb/s|tb/s|ms|tokens?|b\b|t\b|:|x\b|-?tier|"
    r"ports?|years?|months?|days?|hours?|kwh|usd|\$|percent|pue))"
)
_FABRIC = re.compile(
    r"\b(?:existing|our|current|installed)\s+(?:[\w-]+\s+){0,3}?"
    r"(infiniband|ib|ndr|xdr|quantum[- ]?\d?|ethernet|roce|spectrum[- ]?x)\b"
)
_FREE_PORTS = re.compile(
    rf"(?<![\w.]){_NUM}\s+(?:free|spare|unused|open|available)\s+(?:spine|core)"
    r"(?:[- ]switch)?\s+ports?\b|\b(?:spine|core)(?:\s+(?:tier|layer|switches))?\s+(?:has|have|"
    rf"with)\s+{_NUM}\s+(?:free|spare|unused|open|available)\s+ports?\b"
)
#: the installation's draw: "it draws 1.1 MW", "the existing pod uses 640 kW today"
_DRAW = re.compile(
    r"\b(?:draws?|drawing|uses?|using|consumes?|consuming|pulls?|pulling|runs?\s+at|burns?)\s+"
    r"(?:about\s+|roughly\s+|around\s+|~\s*)?(\d[\d,]*(?:\.\d+)?)\s*(kw|mw)\b"
)


class Found(NamedTuple):
    """A count read from the text: its value, unit word (None: the name's), and span."""

    value: int
    unit: str | None
    start: int
    end: int


def _value(words: str) -> int:
    words = words.strip()
    if words in WORD_COUNTS:
        return WORD_COUNTS[words]
    scale = 1000 if words.endswith("k") else 1
    return round(float(words.rstrip("k").replace(",", "")) * scale)


def _unit(word: str | None) -> str | None:
    """'gpus', 'nodes' or 'sus' for a unit word; None for none."""
    if not word:
        return None
    if word.startswith(("gpu", "accel")):
        return "gpus"
    if word.startswith(("su", "scalable")):
        return "sus"
    return "nodes"


#: a sentence's end; a decimal point ("1.5") is none
_STOP = re.compile(r"[;!?\n]|\.(?!\d)")


def _sentence(low: str, at: int) -> tuple[int, int]:
    """The span of the sentence (or clause run) holding position `at`."""
    start = max((m.end() for m in _STOP.finditer(low, 0, at)), default=0)
    end = next((m.start() for m in _STOP.finditer(low, at)), len(low))
    return start, end


#: "expand our 256 H100 cluster with 256 B200 GPUs": the increment after "with", far from
#: the growth verb that stands before it in its sentence
_WITH = re.compile(
    rf"\bwith\s+(?:another\s+|an?\s+(?:additional|extra|further)\s+)?{_NUM}\s+"
    rf"(?:[\w-]+\s+){{0,3}}?{_UNIT}\b"
)
_GROW_VERB = re.compile(r"\b(?:expand|extend|grow|augment|scal(?:e|es|ing)\s+(?:out|up))\w*\b")


def _increment(r: Draft) -> Found | None:
    for pattern in _INCREMENT:
        for m in pattern.finditer(r.low):
            if r.free(m):
                unit = m.group(2) if m.lastindex and m.lastindex >= 2 else None
                return Found(_value(m.group(1)), _unit(unit), m.start(), m.end())
    for m in _WITH.finditer(r.low):
        lo, _ = _sentence(r.low, m.start())
        if r.free(m) and _GROW_VERB.search(r.low, lo, m.start()):
            return Found(_value(m.group(1)), _unit(m.group(2)), m.start(), m.end())
    return None


#: "we have 64 DGX H100 and want to grow to 128": the installation's total after the growth
_GROW_TO = re.compile(
    r"\b(?:grow|expand|extend|scale(?:\s+(?:out|up))?|take|bring)\w*\s+(?:(?:it|this|that|them|"
    r"the\s+\w+|our\s+\w+)\s+)?(?:out\s+|up\s+)?to\s+(?:a\s+total\s+of\s+|about\s+)?"
    rf"{_NUM}(?:\s*-?\s*{_UNIT}\b)?(?:\s+in\s+(?:all|total))?"
)


def _grown_to(r: Draft) -> Found | None:
    """A growth to a total ("grow to 128"), beside a count of what stands in its own unit: the
    increment is the difference. None when no count of what stands is read, or the units
    differ (then the growth is room to grow, read by its rule)."""
    for m in _GROW_TO.finditer(r.low):
        if not r.free(m):
            continue
        total = Found(_value(m.group(1)), _unit(m.group(2)), m.start(), m.end())
        old = next(
            (f for c in _EXISTING.finditer(r.low) if (f := _existing(r, c, total)) is not None),
            None,
        )
        if old is None or (total.unit and old.unit and total.unit != old.unit):
            return None
        if total.value <= old.value:
            raise RequestError(
                f"{m.group(0).strip()!r} is no growth of the {old.value:,} that stand",
                hint="give the total after the growth, or the count to add",
            )
        return total._replace(value=total.value - old.value, unit=total.unit or old.unit)
    return None


def _existing(r: Draft, cue: re.Match[str], skip: Found) -> Found | None:
    """The count nearest the installation cue in its sentence, other than the increment's."""
    lo, hi = _sentence(r.low, cue.start())
    best: tuple[int, Found] | None = None
    for m in _COUNT.finditer(r.low, lo, hi):
        if (m.start() < skip.end and m.end() > skip.start) or not r.free(m):
            continue
        words = m.group(1)
        if words in WORD_COUNTS and not m.group(2):
            continue  # "one" alone is no installation's size
        inside = m.start() < cue.end() and m.end() > cue.start()
        distance = 0 if inside else min(abs(m.start() - cue.end()), abs(cue.start() - m.end()))
        found = Found(_value(words), _unit(m.group(2)), m.start(), m.end())
        if best is None or distance < best[0]:
            best = (distance, found)
    return best[1] if best else None


def _name_at(r: Draft, start: int, end: int) -> int | None:
    """The index of the platform name right after a count (within a few words), if any."""
    for i, ((s, e), (kind, _)) in enumerate(zip(r.spans, r.named, strict=True)):
        if kind != "model" and start <= s and e <= end:  # "256 more B200 GPUs": inside it
            return i
    for i, ((s, _), (kind, _)) in enumerate(zip(r.spans, r.named, strict=True)):
        if kind != "model" and end <= s <= end + 24 and re.fullmatch(r"[\s\w-]*", r.low[end:s]):
            return i
    for i, ((s, e), (kind, _)) in enumerate(zip(r.spans, r.named, strict=True)):
        # "4 SUs of DGX H100", "our 1,024-GPU B200 cluster": the name just before or after
        if kind != "model" and (0 <= s - end <= 12 or 0 <= start - e <= 3):
            return i
    return None


def _as_fields(r: Draft, found: Found, name: Named | None, prefix: str) -> Found:
    """Write a count as `<prefix>gpus`, `<prefix>nodes` or `<prefix>sus`; returns it with its
    unit as read (a system's name counts nodes, a GPU's GPUs)."""
    if name is not None and name in r.named:  # "128 H100 nodes": the unit word after the name
        found = _unit_after_gpu(r, found, r.named.index(name))
    unit = found.unit or ("nodes" if name and name[0] == "system" else "gpus")
    r.fields[f"{prefix}{unit}"] = found.value
    return found._replace(unit=unit)


def read_existing_installation(r: Draft) -> None:
    """An installation the request extends ("add 256 GPUs to our existing 512 H100 SuperPOD",
    "expand our 1,024-GPU B200 cluster by another 512"): the count beside the installation cue
    is what exists (`existing_gpus`, `existing_nodes` or `existing_sus`), the one beside the
    growth word is what the design adds (`gpus`, `nodes`, or SUs of the named system), a
    second platform name is the installation's own, and a stated draw or free spine ports are
    read as the installation's. A pass: which count is which depends on both."""
    grow, cue = _GROW.search(r.low), _EXISTING.search(r.low)
    if grow is None or cue is None or r.replaced is not None:
        return
    added = _increment(r) or _grown_to(r)
    if added is None:
        return
    # the first cue whose sentence holds a count ("We have 1.5 MW left; add 256 GPUs to our
    # existing 512 H100 cluster": the second sentence's)
    old = next(
        (f for c in _EXISTING.finditer(r.low) if (f := _existing(r, c, added)) is not None), None
    )
    new_name = _name_at(r, added.start, added.end)
    if new_name is not None:
        added = _unit_after_gpu(r, added, new_name)
    old_name = _name_at(r, old.start, old.end) if old else None
    if old is not None and old.unit is None and old_name is None and added.unit is not None:
        # "add 32 more H100 servers to the 64 we already run": a bare count is counted in the
        # increment's unit; a name beside it ("our 512 H100 SuperPOD") would count it instead
        old = old._replace(unit=added.unit)
    if old_name is None:
        old_name = next(
            (i for i, (s, _) in enumerate(r.spans) if r.named[i][0] != "model" and i != new_name),
            None,
        )
    name_of = {i: r.named[i] for i in (old_name, new_name) if i is not None}
    if old is not None:
        old = _as_fields(
            r, old, name_of.get(old_name) if old_name is not None else None, "existing_"
        )
        r.take(old.start, old.end, f"{r.low[old.start : old.end].strip()!r} -> what exists")
    if old_name is not None and new_name is not None and r.named[old_name] != r.named[new_name]:
        r.fields["existing_platform"] = r.named[old_name][1]
        s, e = r.spans[old_name]
        r.take(s, e, f"{r.low[s:e]!r} -> the existing installation's platform")
        r.named, r.spans = (
            r.named[:old_name] + r.named[old_name + 1 :],
            (r.spans[:old_name] + r.spans[old_name + 1 :]),
        )
        new_name = new_name - 1 if new_name > old_name else new_name
    elif old is None and old_name is not None and "existing_platform" not in r.fields:
        # "expand our H100 cluster by 128 GPUs": no size of what stands, but the cue and the one
        # name say an installation stands; the increment joins it (its size: not stated)
        r.fields["existing_platform"] = r.named[old_name][1]
    if not any(kind != "model" for kind, _ in r.named) and "existing_platform" not in r.fields:
        raise RequestError(
            "an increment on an existing installation needs the installation's platform: "
            "its nodes must match the fabric they join",
            hint='name it, e.g. "32 more DGX H100 nodes" or "our existing 512 H100 SuperPOD"',
        )
    _read_added(r, added, r.named[new_name] if new_name is not None else None, old)
    _take_cue(r)
    if grow.start() < added.start or grow.end() > added.end:
        r.take(grow.start(), grow.end(), f"{grow.group(0)!r} -> the design extends it")
    _read_details(r)


#: the cue's own words: taken, while a name or a pod word inside it is left to its own pass
_CUE_WORD = re.compile(
    r"\b(?:existing|already|currently|today|installed|in\s+production|in\s+place|we|have|run|"
    r"running|operating|"
    r"operate|own|our|current|present|cluster|pod|fabric|installation|deployment|fleet|estate|"
    r"environment|farm)\b"
)


def _take_cue(r: Draft) -> None:
    """Every installation cue's own words ("existing", "our ... cluster", "today")."""
    for cue in _EXISTING.finditer(r.low):
        words = [m for m in _CUE_WORD.finditer(r.low, cue.start(), cue.end()) if r.free(m)]
        for m in words:
            r.take(m.start(), m.end(), "")
        r.understood = [u for u in r.understood if u]
        if words:
            r.understood.append(f"{cue.group(0)!r} -> an existing installation")


def _unit_after_gpu(r: Draft, added: Found, at: int) -> Found:
    """'add 64 more B200 nodes', '128 H100 nodes': a unit word after the GPU's name counts the
    count in nodes."""
    if added.unit is not None or r.named[at][0] != "gpu":
        return added
    end = r.spans[at][1]
    after = re.match(r"\s*(nodes?|servers?|systems?|boxes)\b", r.low[end:])
    if after is None:
        return added
    r.take(end + after.start(1), end + after.end(1), f"{after.group(1)!r} -> nodes")
    return added._replace(unit="nodes")


def _read_added(r: Draft, added: Found, name: Named | None, old: Found | None) -> None:
    """The increment: a unitless count ("by another 512") counts what the installation was
    counted in; SUs are the named system's RA's, whole (the fabric manager's slot is in SU 1)."""
    unit = added.unit or (old.unit if old and old.unit else None)
    phrase = r.low[added.start : added.end].strip()
    if unit == "sus":
        system = name[1] if name and name[0] == "system" else r.fields.get("existing_platform")
        system = system if isinstance(system, str) else None
        system = system or next((eid for kind, eid in r.named if kind == "system"), None)
        arch = r.catalog.architecture_for(system) if system else None
        if arch is None:
            raise RequestError(
                f"{phrase!r} needs a system whose scalable unit it counts",
                hint='name the installation\'s system, e.g. "4 SUs of DGX H100"',
            )
        nodes = added.value * arch.su_nodes
        r.fields["nodes"], r.fields["su_architecture"] = nodes, arch.id
        r.members.setdefault("fabric", {arch.compute_fabric.technology})
        note = f"{plural(nodes, f'{system} node')} added: {added.value} SU of {arch.su_nodes}"
        r.take(added.start, added.end, f"{phrase!r} -> {note} ({arch.id})")
        return
    if unit is None:
        unit = "nodes" if name and name[0] == "system" else "gpus"
    r.fields[unit] = added.value
    r.take(added.start, added.end, f"{phrase!r} -> {added.value:,} {unit} added")


#: words in a cap's sentence that make it what is left for the increment ("1.5 MW left for the
#: new pods", "2 MW of headroom", "1 MW available for the expansion")
_CAP_LEFT = re.compile(
    r"\b(?:left(?:\s+over)?|remaining|spare|headroom|unused|to\s+spare|"
    r"(?:available\s+)?for\s+(?:the|this|that|our)\s+(?:new\s+\w+|expansion|increment|"
    r"addition|extension|growth|additional\s+\w+))\b"
)


def read_cap_scope(r: Draft) -> None:
    """A cap its sentence gives as what is left for an increment on an installation ("1.5 MW
    left for the new pods"): the increment's own, not the whole installation's. A pass: it reads
    the cap the power rule found, in a request the installation pass read as an expansion."""
    if not any(k.startswith("existing_") for k in r.fields):
        return
    phrase = r.phrases.get("power_cap_w")
    at = r.low.find(phrase) if phrase else -1
    if at < 0:
        return
    lo, hi = _sentence(r.low, at)
    words = [m for m in _CAP_LEFT.finditer(r.low, lo, hi) if r.free(m)]
    if not words:
        return
    r.fields["power_cap_scope"] = "increment"
    for m in words:
        r.take(m.start(), m.end(), "")
    r.understood = [u for u in r.understood if u]
    said = " ... ".join(m.group(0) for m in words)
    r.understood.append(f"{said!r} -> the power cap is the increment's own")


def _read_details(r: Draft) -> None:
    """The installation's fabric, free spine ports and draw, where the request states them."""
    if m := _FABRIC.search(r.low):
        word = m.group(1)
        tech = "ethernet" if word.startswith(("eth", "roce", "spectrum")) else "infiniband"
        r.fields["existing_fabric"] = tech
        r.members.setdefault("fabric", {tech})
    if (m := _FREE_PORTS.search(r.low)) and r.free(m):
        r.fields["existing_spine_free_ports"] = _value(m.group(1) or m.group(2))
        r.take(m.start(), m.end(), f"{m.group(0)!r} -> free ports on the existing spine")
    if (m := _DRAW.search(r.low)) and r.free(m):
        watts = float(m.group(1).replace(",", "")) * (1e6 if m.group(2) == "mw" else 1e3)
        r.fields["existing_power_w"] = watts
        r.take(m.start(), m.end(), f"{m.group(0)!r} -> the existing installation's IT power")


def read_replaced_details(r: Draft) -> None:
    """The fleet a request replaces, as fields: its platform, its GPUs (the count beside its
    name) and its draw when stated ("our 64 DGX A100 draw 420 kW"). A pass: it reads the name
    `read_replaced_fleet` found and the count and draw beside it."""
    if r.replaced is None:
        return
    (kind, eid), (s, e) = r.replaced
    r.fields["replaced_platform"] = eid
    count = count_before(r.low, s, e, None, articles=False)
    if count is not None and count.value > 0:
        per = r.catalog.system(eid).gpus_per_node if kind == "system" else 1
        unit = re.match(r"\s*(gpus?|accelerators?)\b", r.low[e:])
        nodes = re.match(r"\s*(nodes?|servers?|systems?|boxes|machines)\b", r.low[e:])
        if kind == "gpu" and nodes:  # "our 128 A100 nodes": nodes of the GPU's own servers
            per = gpus_per_server(r.catalog, eid)
        r.fields["replaced_gpus"] = count.value * (1 if unit else per or 1)
    elif (m := _FLEET_OF.match(r.low, e)) and r.free(m):
        _fleet_of(r, m, kind, eid)
    if (m := _DRAW.search(r.low)) and r.free(m):
        watts = float(m.group(1).replace(",", "")) * (1e6 if m.group(2) == "mw" else 1e3)
        r.fields["replaced_power_w"] = watts
        r.take(m.start(), m.end(), f"{m.group(0)!r} -> the replaced fleet's power")
    _same_compute(r, kind, eid)


#: the fleet's count after its name: "an aging V100 cluster of 64 nodes", "our A100 fleet of
#: 512 GPUs"
_FLEET_OF = re.compile(
    r"\s*(?:gpu\s+|dgx\s+)?(?:cluster|fleet|installation|pod|farm|estate|deployment|system)\s+"
    r"of\s+(?P<n>\d[\d,]*)\s+(?P<u>(?P<g>gpus?|accelerators?)|nodes?|servers?|systems?|boxes|"
    r"machines)\b"
)


def _fleet_of(r: Draft, m: re.Match[str], kind: str, eid: str) -> None:
    """The count of "<name> cluster of N nodes" is the replaced fleet's, not the design's."""
    n = int(m.group("n").replace(",", ""))
    if n <= 0:
        return
    per = 1
    if not m.group("g"):
        per = (
            r.catalog.system(eid).gpus_per_node
            if kind == "system"
            else gpus_per_server(r.catalog, eid)
        )
    r.fields["replaced_gpus"] = n * (per or 1)
    start = m.start("n")
    r.take(start, m.end(), f"{r.low[start : m.end()]!r} -> the fleet replaced")


#: the successor is to match the fleet ("same throughput", "like-for-like performance")
_SAME = re.compile(
    r"\b(?:(?:the\s+)?same|equal|equivalent|matching)\s+(?:dense\s+)?(?:throughput|compute|"
    r"performance|perf|capacity|flops)\b|\blike[- ]for[- ]like(?:\s+(?:throughput|compute|"
    r"performance|capacity))?\b"
    # "something 3x faster", "with 2.5x the compute", "twice as fast", "double the performance"
    r"|(?:(?<![\w.])(?P<k>\d+(?:\.\d+)?)\s*(?:x|×|times)|\b(?P<w>double|twice|triple|three\s+"
    r"times|four\s+times))\s+(?:faster|as\s+(?:fast|powerful|much\s+compute)|more\s+(?:compute|"
    r"performance|powerful|throughput|capacity)|(?:the\s+)?(?:dense\s+)?(?:compute|performance|"
    r"perf|throughput|capacity|flops))\b"
)
#: a multiple said in words
_TIMES = {"double": 2.0, "twice": 2.0, "triple": 3.0, "three times": 3.0, "four times": 4.0}


def _same_compute(r: Draft, kind: str, eid: str) -> None:
    """'move our 512 A100 workload to B200, same throughput': the successor delivers the
    fleet's dense BF16 compute, not as many GPUs again."""
    m = _SAME.search(r.low)
    gpus = r.fields.get("replaced_gpus")
    if m is None or not r.free(m) or not isinstance(gpus, int) or "compute_pflops" in r.fields:
        return
    system = r.catalog.system(eid) if kind == "system" else None
    gpu = r.catalog.gpu(system.gpu if system and system.gpu else eid)
    if not gpu.bf16_dense_tflops:
        return
    k = (
        float(m.group("k"))
        if m.group("k")
        else _TIMES.get(" ".join((m.group("w") or "").split()), 1.0)
    )
    if k <= 0:
        return
    pflops = k * gpus * gpu.bf16_dense_tflops / 1e3
    r.fields["compute_pflops"] = pflops
    r.take(
        m.start(),
        m.end(),
        f"{m.group(0).strip()!r} -> dense compute {pflops:,.0f} PFLOPS BF16, "
        + ("" if k == 1 else f"{k:g} x ")
        + f"the replaced {gpus:,} {gpu.id}'s",
    )
