"""Reading with scope: the passes that rule out what a negation governs, read kW figures about
racks as rack limits, and give a power cap the basis its sentence states (what a negation
governs is `request/negation.py`'s, shared with the pass that rules out GPUs and systems).

These are passes, not rules: a negation's reach and a figure's subject are the clause's, not one
phrase's. `read_scope` runs before the rule tables (so no word set rule reads a ruled-out word
and no power rule reads a rack's kW); `read_cap_basis` after them (it needs the cap the power
rule read).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from clustergen.engine.request.draft import Draft
from clustergen.engine.request.negation import clauses, negated, softened
from clustergen.engine.request.rules.rules import RACK_CEILING
from clustergen.engine.request.words import NAMES
from clustergen.errors import RequestError


class Found(NamedTuple):
    """One reading: the characters it used, the field and value, and the note it leaves."""

    start: int
    end: int
    field: str
    value: object
    note: str


#: the words an exclusion governs, by field: the value each names
_GOVERNED: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    (
        "cooling",
        "liquid",
        re.compile(
            r"\b(?:direct[- ](?:to[- ]chip[- ])?)?(?:liquid|water)(?:[- ]cool(?:ed|ing))?\b"
            r"|\bdlc\b|\bimmersion\b"
        ),
    ),
    # "air-gapped" is a network with no outside link, not a cooling
    ("cooling", "air", re.compile(r"\bair(?![- ]?gap)(?:[- ]cool(?:ed|ing))?\b")),
    ("fabric", "infiniband", re.compile(r"\binfini\s*band\b|\bib\b|\bquantum(?:-?x800|-?2)?\b")),
    ("fabric", "ethernet", re.compile(r"\bspectrum[- ]?x\b|\bethernet\b|\broce\b")),
    # "we don't need storage", "storage is out of scope": the storage system, not its fabric
    (
        "storage",
        "",
        re.compile(
            r"\b(?:(?:new|additional|any|extra)\s+)?storage(?:\s+(?:system|array|appliances?))?\b"
            r"(?!\s*(?:fabric|network|tier|bandwidth|throughput|read|write|capacity|"
            r"performance|target|port|leaf|switch))"
        ),
    ),
)


def _free(used: list[bool], start: int, end: int) -> bool:
    return not any(used[start:end])


def _exclusions(low: str, used: list[bool]) -> list[Found]:
    """The coolings and fabrics a negation rules out, each with the words read (the negation
    through the word it governs)."""
    out: list[Found] = []
    for cs, ce in clauses(low):
        for field, value, pattern in _GOVERNED:
            for m in pattern.finditer(low, cs, ce):
                if not _free(used, m.start(), m.end()):
                    continue
                span = negated(low, cs, ce, m.start(), m.end())
                if span is None or (value and _NOT_NEEDED.match(low, m.end(), ce)):
                    continue  # "InfiniBand is not required" allows it: read_permissions
                phrase = low[span[0] : span[1]].strip()
                soft = softened(low, ce, span) if value else []
                if soft:
                    # a preference, not a rule: the other value is asked for, as "prefer X"
                    # asks for X, and the design says it was a preference
                    other = _OTHER[value]
                    note = f"{phrase!r} -> {value} avoided where possible (a preference): {other}"
                    out.append(Found(span[0], span[1], field, other, note))
                    out += [Found(a, b, "_soft", None, f"{low[a:b].strip()!r} -> a preference")
                            for a, b in soft]  # fmt: skip
                    continue
                note = (
                    f"{phrase!r} -> {field} {value} ruled out"
                    if value
                    else f"{phrase!r} -> {field} out of scope (the customer's own serves it)"
                )
                out.append(Found(span[0], span[1], f"{field}_excluded", value or True, note))
    return out


#: a cooling or fabric said not to be needed: allowed, not ruled out
_NOT_NEEDED = re.compile(
    r"\s*(?:is|are)?\s*not\s+(?:strictly\s+)?(?:required|needed|necessary|a\s+must|mandatory)\b"
)


#: the other value of a field with two
_OTHER = {"liquid": "air", "air": "liquid", "infiniband": "ethernet", "ethernet": "infiniband"}


#: a kW figure ("17 kW", "17kw") that is not a per-node or per-GPU power
_KW = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?)\s*(?:kw|kilowatts?)\b"
    r"(?!\s*(?:/|per|a|each)\s*(?:gpu|node|server|system|chassis)s?\b)"
)
_RACK_WORD = re.compile(r"\b(?:racks?|cabinets?|per[- ]rack)\b")
#: how far (characters) a rack word may stand from the kW figure it limits
_RACK_REACH = 45


def _rack_limits(low: str, used: list[bool]) -> list[Found]:
    """kW figures in a clause about racks ("racks max out at 17 kW", "17 kW max per cabinet"):
    a rack power limit, never a site cap. A count between the rack word and the figure ("500 kW
    for 10 racks") makes it a total instead, left to the power rule."""
    out: list[Found] = []
    for cs, ce in clauses(low):
        for m in _KW.finditer(low, cs, ce):
            if not _free(used, m.start(), m.end()):
                continue
            span = _rack_span(low, cs, ce, m)
            if span is None:
                continue
            kw = float(m.group(1))
            phrase = low[span[0] : span[1]].strip()
            out.append(
                Found(span[0], span[1], "rack_power_kw", kw, f"{phrase!r} -> rack limit {kw:g} kW")
            )
    # "4 GB300 NVL72 racks, liquid cooled, 132 kW each": each of the racks its sentence names
    for m in _KW_EACH.finditer(low):
        start = _sentence(low, m.start())[0]
        if _free(used, m.start(), m.end()) and _RACK_WORD.search(low, start, m.start()):
            kw = float(m.group(1))
            words = m.group(0).strip()
            out.append(
                Found(m.start(), m.end(), "rack_power_kw", kw, f"{words!r} -> rack limit {kw:g} kW")
            )
    return out


#: what puts counted racks into a figure: their total ("2 racks in 300 kW", "within 1 MW")
_INTO = re.compile(r"\s+(?:in|within|under|inside|into|on)\s+(?:a\s+|the\s+)?")

#: words joining counted racks to a second figure of the site, not to the racks' own power
_TOTAL_AFTER = re.compile(r"\b(?:and|plus|total(?:l?ing)?|combined|overall)\b")

_KW_EACH = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(?:kw|kilowatts?)\s+(?:each|apiece)\b")


def _rack_span(low: str, cs: int, ce: int, m: re.Match[str]) -> tuple[int, int] | None:
    before = list(_RACK_WORD.finditer(low, max(cs, m.start() - _RACK_REACH), m.start()))
    if before and not any(ch.isdigit() for ch in low[before[-1].end() : m.start()]):
        rack = before[-1]
        counted = re.search(r"\d", low[max(cs, rack.start() - _RACK_REACH) : rack.start()])
        if counted and (
            _INTO.match(low, rack.end(), m.start())
            or _TOTAL_AFTER.search(low, rack.end(), m.start())
        ):
            # "fit 2 GB300 NVL72 racks in 300 kW", "12 rack positions and 600 kW": the racks'
            # total, a cap
            return None
        return rack.start(), m.end()
    after = _RACK_WORD.search(low, m.end(), min(ce, m.end() + _RACK_REACH))
    if after and not any(ch.isdigit() for ch in low[m.end() : after.start()]):
        return m.start(), after.end()
    return None


#: words that put a power figure at the facility (meter, site, utility feed) or at the IT load
_FACILITY = re.compile(
    r"\b(?:facility|site|meter|utility|grid|building|substation|feed|transformers?|all[- ]in|gross|"
    r"(?:including|incl\.?|inclusive\s+of|with)\s+(?:the\s+)?(?:cooling|overhead|mechanical|pue)"
    r"(?:\s+included)?|"
    r"(?:cooling|overhead|pue)\s+(?:is\s+|are\s+)?included|total (?:power|load|draw))\b"
)
#: "(PUE 1.3 included)": the PUE figure is read by its own rule, the word after it says the
#: cap holds the overhead
_PUE_INCLUDED = re.compile(r"\bpue\s*(?:of\s*|=\s*|:\s*)?\d+(?:\.\d+)?\s+(included|inclusive)\b")
_IT = re.compile(
    r"\b(?:critical|it (?:load|power|capacity|cap|budget)|for it\b"
    # "2 MW of IT", not the pronoun: "half of it reserved", "40% of it is available"
    r"|(?<!half )(?<!all )(?<!most )(?<!some )(?<!part )(?<!much )(?<!%)(?<!% )of it\b"
    r"(?!\s+(?:is|are|was|will|would|reserved|available|usable|used|goes|go|set)\b))"
    r"|\(\s*it\s*\)"
    # "3 MW net IT", "3 MW net"
    r"|\bnet\s+it\b|(?<=mw )net\b|(?<=kw )net\b"
)


#: what ends a sentence (not the point of "3.2 MW")
#: (nor the point of an abbreviation: "incl. cooling", "approx. 3 MW", "vs. air")
_SENTENCE_END = re.compile(r"(?<!\bincl)(?<!\bexcl)(?<!\bapprox)(?<!\bvs)(?<!\bca)\.(?!\d)|[;!?\n]")


def _sentence(low: str, at: int) -> tuple[int, int]:
    """The sentence holding position `at`, as (start, end)."""
    start = max((m.end() for m in _SENTENCE_END.finditer(low, 0, at)), default=0)
    end = next((m.start() for m in _SENTENCE_END.finditer(low, at)), len(low))
    return start, end


#: how a cap is worded before its figure ("not to exceed 3 MW"): read with the basis
_CAP_WORDS = re.compile(
    r"(?:(?:shall|must|may|will|can|should|does|do)?\s*not (?:to )?exceed|no more than|"
    r"not more than|at most|must stay (?:under|below|within)|"
    r"up to|limited to|capped at|maximum of|max(?:imum)?)\s*(?:of\s+)?$"
)


def _cap_words(low: str, used: list[bool], phrase: str) -> Found | None:
    """The words that make a figure a cap ("not to exceed 3 MW"), read with it so they are not
    left as words not understood."""
    at = low.find(phrase)
    m = _CAP_WORDS.search(low[:at]) if at > 0 else None
    if m is None or not _free(used, m.start(), m.end()):
        return None
    words = low[m.start() : m.end()].strip()
    return Found(m.start(), m.end(), "_cap_words", words, f"{words!r} -> a cap")


def _cap_basis(low: str, used: list[bool], phrase: str) -> list[Found]:
    """The basis a power cap's sentence states, when the power rule read none: facility words
    ("3.2 MW at the meter", "total site power", "facility power not to exceed 3 MW") or IT
    words ("critical IT load"). Both, or neither: None (the design says the basis is unclear
    and checks both)."""
    at = low.find(phrase)
    if at < 0:
        return []
    start, end = _sentence(low, at)
    facility = [m.span() for m in _FACILITY.finditer(low, start, end) if _free(used, *m.span())]
    facility += [
        p.span(1) for p in _PUE_INCLUDED.finditer(low, start, end) if _free(used, *p.span(1))
    ]
    it = [m.span() for m in _IT.finditer(low, start, end) if _free(used, *m.span())]
    if bool(facility) == bool(it):
        return []
    basis = "facility" if facility else "it"
    # every word of the sentence that says so is read ("the utility meter"), not only the first
    return [
        Found(a, b, "power_cap_basis", basis, f"{low[a:b]!r} -> {basis} power cap")
        for a, b in facility or it
    ]


#: words before a figure that make it a ceiling, read with it ("without exceeding 2 MW",
#: "don't exceed 40 kW per rack", "we don't need more than 64 GPUs"): the figure's own
#: reading already is the limit, so these words only say so
_LIMIT_BEFORE = re.compile(
    r"(?:\b(?:without|never|not)\s+(?:exceeding|going\s+(?:over|above|beyond))|"
    r"\b(?:do\s+not|don[’']?t|does\s+not|doesn[’']?t|must\s+not|mustn[’']?t|shall\s+not|"
    r"should\s+not|shouldn[’']?t|can\s*not|can[’']?t|won[’']?t|will\s+not|may\s+not|never)\s+"
    r"(?:(?:need|use|draw|consume|pull)\s+(?:more|over)\s+than|exceed|go\s+(?:over|above|beyond)|"
    r"surpass)|"
    r"\b(?:no|not)\s+(?:more|over)\s+than|\bat\s+most|\bup\s+to|\bcapped\s+at|"
    r"\blimited\s+to|\bmax(?:imum)?(?:\s+of)?)\s*$"
)


#: words after a reading that make it a wish the design honours ("air-cooled if at all
#: possible", "InfiniBand where possible")
_WISH_AFTER = re.compile(
    r"[\s,]*(?:if\s+(?:at\s+all\s+)?(?:possible|feasible|practical)|where(?:ver)?\s+possible|"
    r"if\s+we\s+can|ideally|preferably|by\s+preference)\b"
)


def read_limit_words(r: Draft) -> None:
    """The words that make a figure read by a rule a ceiling ("without exceeding 2 MW") or a
    reading a wish ("air-cooled if at all possible"), read with it, so they are not left as
    words not understood. A wish asked for is built as asked, and the reading says so."""
    for phrase in list(r.phrases.values()):
        at = r.low.find(phrase)
        m = _LIMIT_BEFORE.search(r.low, max(0, at - 40), at) if at > 0 else None
        if m is not None and _free(r.used, m.start(), m.end()):
            words = m.group(0).strip()
            r.take(m.start(), m.end(), f"{words!r} -> a ceiling ({phrase!r})")
    # after any run of words read (a word set's are read only as a whole, so no phrase names
    # them); the runs found in one pass, as (start, end)
    runs, start = [], None
    for k, used in enumerate([*r.used, False]):
        if used and start is None:
            start = k
        elif not used and start is not None:
            runs.append((start, k))
            start = None
    for start, end in runs:
        wish = _WISH_AFTER.match(r.low, end)
        if wish is not None and _free(r.used, end, wish.end()):
            read = r.low[start:end].strip()
            words = wish.group(0).strip(" ,")
            r.take(end, wish.end(), f"{words!r} -> {read!r} is a wish, built as asked")


#: words after a cooling or fabric that allow it without asking for it ("liquid is fine",
#: "InfiniBand would be OK")
_PERMITTED = re.compile(
    r"^\s*(?:cooling\s+)?(?:is|are|would\s+be|is\s+also|also)?\s*(?:fine|ok(?:ay)?|acceptable|"
    r"allowed|possible|optional|an\s+option|on\s+the\s+table|not\s+a\s+problem|"
    # "liquid cooling available", "DLC capable", "liquid-ready": the site can take it
    r"available|supported|in\s+place|ready|capable|"
    r"not\s+out\s+of\s+the\s+question|not\s+ruled\s+out|not\s+excluded|"
    # "InfiniBand is not required": not asked for, not ruled out either
    r"not\s+(?:strictly\s+)?(?:required|needed|necessary|a\s+must|mandatory))\b"
)
#: "no preference on fabric", "no preference for cooling": both weighed
_NO_PREFERENCE = re.compile(
    r"\bno\s+(?:strong\s+)?preference\s+(?:on|for|about|regarding|between)\s+(?:the\s+)?"
    r"(?:compute\s+)?(fabric|network(?:ing)?|interconnect|cooling)\b"
)


#: words before a cooling that say the site can take it, not that it is asked for ("we can do
#: liquid cooling", "our facility has liquid cooling", "we support DLC")
_PERMITTING = re.compile(
    r"\b(?:(?:we|they|the\s+site|the\s+facility|our\s+(?:site|facility|data\s*cent(?:er|re)|dc))"
    r"\s+(?:can\s+(?:do|support|handle|accommodate|take|offer)|has|have|supports?|offers?)"
    r"|there\s+is)\s+(?:also\s+)?(?:direct[- ]to[- ]chip\s+)?$"
)


def read_permissions(r: Draft) -> None:
    """A cooling or fabric allowed, not asked for ("liquid is fine"), and "no preference on the
    fabric": the trade study weighs both, and the reading says so. A pass: it reads what a
    word set read, before the sets become fields."""
    for field in ("cooling", "fabric"):
        for value, start, end in list(r.member_spans.get(field, [])):
            ok = _PERMITTED.match(r.low[end:])
            # where the words allowing it begin and end: after the cooling or fabric, or before it
            first, last = start, end + ok.end() if ok else None
            before = _PERMITTING.search(r.low[:start]) if field == "cooling" else None
            if before is not None:
                # "our facility has liquid cooling": allowed even where another reading took
                # a word before it ("facility" as the power basis); only free words are read
                free = _free(r.used, before.start(), start)
                first, last = (before.start() if free else start), end
            if last is None or not _free(r.used, end, last):
                continue
            if len(r.member_spans[field]) > 1:
                continue  # named again, or beside another value: `preference.settle` relates them
            r.member_spans[field].remove((value, start, end))
            r.members.get(field, set()).discard(value)
            read = f"{r.low[start:end].strip()!r} -> "
            r.understood = [u for u in r.understood if not u.startswith(read)]
            words = r.low[first:last].strip()
            r.take(first, last, f"{words!r} -> {value} allowed, not required")
    for m in _NO_PREFERENCE.finditer(r.low):
        if _free(r.used, *m.span()):
            r.take(m.start(), m.end(), f"{m.group(0)!r} -> the trade study weighs every option")


def read_scope(r: Draft) -> None:
    """The coolings and fabrics a negation rules out, and kW figures about racks (rack limits).
    The site's rack ceiling is read first: its rack power ("10 racks at 30 kW") is the same
    phrase's, which the rack-limit reading would otherwise take alone."""
    r.read(RACK_CEILING)
    _apply(r, _undecided(r.low, r.used))
    _apply(r, _workloads_ruled_out(r.low, r.used))
    _apply(r, _storage_fabric_ruled_out(r.low, r.used))
    _apply(r, [*_exclusions(r.low, r.used), *_rack_limits(r.low, r.used)])


#: a fabric said of storage ("Ethernet storage"): ruled out, the other technology serves storage
_STORAGE_TECH = re.compile(
    r"\b(?P<tech>ethernet|roce|spectrum[- ]?x|infini\s*band|ib)(?:[- ]based)?\s+(?:for\s+(?:the\s+)?)?"
    r"storage\b(?!\s+(?:tier|capacity|of)\b)"
)


def _storage_fabric_ruled_out(low: str, used: list[bool]) -> list[Found]:
    """'avoid Ethernet storage', 'no RoCE for storage': the storage fabric is the other
    technology (it ruled Ethernet out for the compute fabric and the storage out of scope)."""
    out: list[Found] = []
    for cs, ce in clauses(low):
        for m in _STORAGE_TECH.finditer(low, cs, ce):
            span = negated(low, cs, ce, m.start(), m.end()) if _free(used, *m.span()) else None
            if span is None:
                continue
            ruled = "infiniband" if m.group("tech")[0] == "i" else "ethernet"
            other = _OTHER[ruled]
            words = low[span[0] : span[1]].strip()
            note = f"{words!r} -> storage fabric {other} ({ruled} ruled out for storage)"
            out.append(Found(span[0], span[1], "storage_fabric", other, note))
    return out


#: a workload's words, read when a negation rules it out ("we're not doing training, only
#: inference", "512 GPUs for training, no inference")
_WORKLOAD_WORD = re.compile(r"\b(?:(?:pre-?)?training|fine-?tuning|inference|serving)\b")


def _workloads_ruled_out(low: str, used: list[bool]) -> list[Found]:
    """The workloads a negation rules out: read (so the workload rules read only the one asked
    for), setting nothing."""
    out: list[Found] = []
    for cs, ce in clauses(low):
        for m in _WORKLOAD_WORD.finditer(low, cs, ce):
            span = negated(low, cs, ce, m.start(), m.end()) if _free(used, *m.span()) else None
            if span is not None:
                words = low[span[0] : span[1]].strip()
                out.append(Found(span[0], span[1], "_said", None, f"{words!r} -> not asked for"))
    return out


#: words that leave what follows open ("not sure if we need InfiniBand", "don't know whether
#: liquid cooling is needed", "undecided on InfiniBand vs Ethernet", "maybe liquid"): neither
#: asked for nor ruled out (a negation among them does not govern the option)
_OPEN_BEFORE = re.compile(
    r"\b(?:not\s+(?:yet\s+)?(?:sure|certain|decided)|unsure|uncertain|undecided|"
    r"(?:don[’']?t|do\s+not|doesn[’']?t)\s+(?:yet\s+)?know|(?:haven[’']?t|have\s+not)\s+"
    r"(?:yet\s+)?decided|tbd|to\s+be\s+decided|maybe|perhaps|possibly|debating|"
    r"(?:still\s+)?(?:deciding|weighing|evaluating)|whether\s+or\s+not)\b"
)
#: a field left open by name ("not sure about the fabric", "undecided on cooling")
_OPEN_FIELD = re.compile(
    r"\b(?:the\s+)?(?:compute\s+)?(fabric|network(?:ing)?|interconnect|cooling)\b"
)
#: at most this many words between the open words and the option they leave open
_OPEN_REACH = 6


def _undecided(low: str, used: list[bool]) -> list[Found]:
    """The coolings and fabrics a clause leaves open ("not sure if we need InfiniBand", "not
    sure about the fabric"): the words are read (so no rule asks for the option and no negation
    rules it out) and the trade study weighs both."""
    out: list[Found] = []
    for cs, ce in clauses(low):
        hedges = list(_OPEN_BEFORE.finditer(low, cs, ce))
        if not hedges:
            continue
        options = [
            (m, f"{field} {value}")
            for field, value, pattern in _GOVERNED
            if value
            for m in pattern.finditer(low, hedges[0].end(), ce)
        ]
        named = [m.span() for m, _ in options]
        options += [
            (m, m.group(1))
            for m in _OPEN_FIELD.finditer(low, hedges[0].end(), ce)
            if not any(a < m.end() and m.start() < b for a, b in named)  # "liquid cooling"
        ]
        for m, what in options:
            hedge = [h for h in hedges if h.end() <= m.start()][-1]
            between = low[hedge.end() : m.start()]
            if len(between.split()) > _OPEN_REACH or re.search(r"\d", between):
                continue
            if not _free(used, m.start(), m.end()):
                continue
            words = low[hedge.start() : m.end()].strip()
            note = f"{words!r} -> {what} left open: the trade study weighs every option"
            out.append(Found(hedge.start(), m.end(), "_open", None, note))
    return out


def read_cap_basis(r: Draft) -> None:
    """The basis of a cap the power rule read without one, from its sentence; and the words that
    make the figure a cap ("not to exceed")."""
    phrase = r.phrases.get("power_cap_w")
    if phrase is None:
        return
    if "power_cap_basis" not in r.fields:
        _apply(r, _cap_basis(r.low, r.used, phrase))
    else:
        # the power rule read the basis ("4 MW total"); the sentence's other words for it
        # ("... from the utility") are read as saying the same, not left not understood
        for f in _cap_basis(r.low, r.used, phrase):
            if f.value == r.fields["power_cap_basis"]:
                r.take(f.start, f.end, f.note)
    words = _cap_words(r.low, r.used, phrase)
    if words:
        r.take(words.start, words.end, words.note)


#: a cap given per room ("1.5 MW per hall"), and how many rooms the sentence counts
_ROOM = r"(?:data\s+)?(?:hall|room|suite|pod|building|site|cage|vault)"
_PER_ROOM = re.compile(
    rf"\s*(?:of\s+\w+\s+)?(?:(?:per|each|in\s+each|a|for\s+each)\s+({_ROOM})\b|(each|apiece)\b)"
)
#: the rooms counted ("across 2 halls"); spelled numbers are digits by now (`spelled.py`)
_ROOMS = re.compile(
    rf"(?:\b(?:across|in|over|x|times|for|with|on)\s+)?(?<![\w.])(\d+)\s+"
    rf"(?:identical\s+|separate\s+)?({_ROOM})s\b"
)


#: a count of rooms written before the cap ("2 x 1.2 MW halls")
_TIMES_ROOMS = re.compile(r"(?<![\w.])(\d+)\s*x\s*$")


def read_cap_per_room(r: Draft) -> None:
    """A cap given per room and a count of rooms in its sentence ("1.5 MW per hall across 2
    halls"): the cap is the rooms' sum, said as such. A pass: the count stands anywhere in the
    cap's sentence, after the power rule read the figure."""
    phrase, cap = r.phrases.get("power_cap_w"), r.fields.get("power_cap_w")
    if phrase is None or not isinstance(cap, float):
        return
    at = r.low.find(phrase)
    if at < 0:
        return
    times = _TIMES_ROOMS.search(r.low, 0, at)
    after = re.match(rf"\s*({_ROOM})s\b", r.low[at + len(phrase) :])
    if times is not None and after is not None and _free(r.used, *times.span()):
        # "2 x 1.2 MW halls": as many rooms, each with the cap
        n, end = int(times.group(1)), at + len(phrase) + after.end()
        r.fields["power_cap_w"] = cap * n
        words = r.low[times.start() : end].strip()
        r.take(
            times.start(),
            end,
            f"{words!r} -> power cap {cap * n / 1e6:g} MW ({n} x {cap / 1e6:g} MW)",
        )
        r.understood = [u for u in r.understood if not u.startswith(f"{phrase!r} ->")]
        return
    per = _PER_ROOM.match(r.low, at + len(phrase))
    if per is None or not _free(r.used, *per.span()):
        return
    start, end = _sentence(r.low, at)
    # "per hall": a count of halls; "20 MW each": a count of any room the sentence names
    noun = per.group(1).split()[-1] if per.group(1) else None
    rooms = next(
        (
            m
            for m in _ROOMS.finditer(r.low, start, end)
            if noun in (None, m.group(2).split()[-1]) and _free(r.used, *m.span())
        ),
        None,
    )
    if rooms is None:
        return
    n = int(rooms.group(1))
    if n < 1:
        return
    r.fields["power_cap_w"] = cap * n
    words = f"{phrase} {per.group(0).strip()} ... {rooms.group(0).strip()}"
    r.take(per.start(), per.end(), "")
    r.take(
        rooms.start(),
        rooms.end(),
        f"{words!r} -> power cap {cap * n / 1e6:g} MW ({n} x {cap / 1e6:g} MW)",
    )
    r.understood = [u for u in r.understood if u]


#: a share of the site's power others hold ("50% reserved for other IT", "30% of it is already
#: used by the existing halls") or the cluster's own ("40% of that is available for AI")
_SHARE_OF_CAP = re.compile(
    r"(?<![\w.])(?P<pct>\d+(?:\.\d+)?)\s*%\s+(?:of\s+(?:it|that|this|the\s+(?:site|power|"
    r"capacity))\s+)?(?:is\s+|are\s+|will\s+be\s+)?(?:already\s+)?"
    r"(?:(?P<held>reserved|taken|used|spoken\s+for|committed|in\s+use|allocated)\s+(?:for|by|to)\s+"
    r"(?:the\s+)?(?:other|existing|legacy|current|non[- ]ai|office|enterprise|cpu|general)\b"
    r"(?:\s+(?!for\b)[a-z][\w-]*){0,2}"
    r"|(?P<ours>available|usable|free|ours|allocated|dedicated|set\s+aside)\s+(?:for|to)\s+"
    r"(?:the\s+|our\s+|this\s+|a\s+|us\b)?(?:new\s+)?(?:ai|gpus?|ml|cluster|us)\b"
    r"(?:\s+(?:cluster|pod|project|deployment|build))?"
    # "a 1 MW hall, currently 50% used": held by what is already there
    r"|(?P<held2>used|taken|occupied|in\s+use|consumed|utili[sz]ed)\b(?!\s+(?:for|by|to)\b))"
)


#: "2 MW, of which 20% is for cooling": the figure is the facility's, its overhead a share of it
_COOLING_SHARE = re.compile(
    r"(?:\bof\s+which\s+)?(?<![\w.])(?P<pct>\d+(?:\.\d+)?)\s*%\s+(?:of\s+(?:it|that|this)\s+)?"
    r"(?:is\s+|are\s+|goes\s+|will\s+go\s+|gets\s+|is\s+needed\s+)?(?:for|to|on|into)\s+(?:the\s+)?"
    r"(?:cooling\s+and\s+[a-z]+|cooling|overhead|mechanical(?:\s+load)?|facility\s+overhead)\b"
)


def _cooling_share(r: Draft, start: int, end: int) -> None:
    """A share of the cap that goes to cooling makes the cap the facility's and its PUE
    1 / (1 - share), unless a PUE is stated."""
    m = next(
        (m for m in _COOLING_SHARE.finditer(r.low, start, end) if _free(r.used, *m.span())), None
    )
    if m is None:
        return
    pct = float(m.group("pct"))
    if not 0 < pct < 100:
        raise RequestError(f"{m.group(0).strip()!r} is not a share of the power", hint="say 1-99%")
    r.fields["power_cap_basis"] = "facility"
    note = "facility power cap"
    if "pue" not in r.fields:
        r.fields["pue"] = round(1 / (1 - pct / 100), 4)
        note += f", PUE {r.fields['pue']:g} (1 / (1 - {pct:g}%))"
    r.take(m.start(), m.end(), f"{m.group(0).strip()!r} -> {note}")


def read_cap_reserved(r: Draft) -> None:
    """A share of the capped power others hold ("4 MW, 50% reserved for other IT") or the
    cluster may use ("40% of it is available for AI"): the cap is the cluster's part. A pass:
    the share stands anywhere in the cap's sentence, after the power rule read the figure."""
    phrase, cap = r.phrases.get("power_cap_w"), r.fields.get("power_cap_w")
    if phrase is None or not isinstance(cap, float):
        return
    at = r.low.find(phrase)
    if at < 0:
        return
    start, end = _sentence(r.low, at)
    _cooling_share(r, 0, len(r.low))  # "...; 25% goes to cooling": said of the power anywhere
    m = next(
        (m for m in _SHARE_OF_CAP.finditer(r.low, start, end) if _free(r.used, *m.span())), None
    )
    if m is None:
        return
    pct = float(m.group("pct"))
    if not 0 < pct < 100:
        raise RequestError(
            f"{m.group(0).strip()!r} is not a share of the site's power", hint="say 1-99%"
        )
    part = pct / 100 if m.group("ours") else 1 - pct / 100
    r.fields["power_cap_w"] = cap * part
    r.take(
        m.start(),
        m.end(),
        f"{m.group(0).strip()!r} -> power cap {cap * part / 1e6:g} MW, the cluster's "
        f"{part:.0%} of {cap / 1e6:g} MW",
    )


def _apply(r: Draft, found: list[Found]) -> None:
    """Each reading into the draft; two different values for one field contradict, as two rule
    readings do."""
    for f in found:
        if f.field.startswith("_"):  # words that qualify a reading, read with it
            r.take(f.start, f.end, f.note)
            continue
        if f.field in r.fields and r.fields[f.field] != f.value:
            raise RequestError(
                f"the request gives two {NAMES.get(f.field, f.field)} values "
                f"({r.phrases.get(f.field, r.fields[f.field])!r} and "
                f"{r.low[f.start : f.end].strip()!r})",
                hint="state it once",
            )
        r.fields[f.field] = f.value
        r.phrases.setdefault(f.field, r.low[f.start : f.end].strip())
        r.take(f.start, f.end, f.note)
