"""The passes that read catalog names: GPUs, systems, language models, pods and storage products.

They run after the price rules and before the other rules: a name takes its words first, so the
model-size rule does not read "70B" out of "Llama 3.1 70B" as well. A name is a pass, not a rule,
because its words are the catalog's, not a pattern's, and because what it means depends on the
other names around it.
"""

from __future__ import annotations

import itertools
import re
from itertools import pairwise

from clustergen.catalog.architectures import Architecture
from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Gpu, System, normalise_name
from clustergen.catalog.workload_models import LanguageModel
from clustergen.engine.cache import cached
from clustergen.engine.request.draft import Draft, Named, Span
from clustergen.engine.request.negation import clause_of, negated, softened
from clustergen.engine.request.rules.pods import pod_platform
from clustergen.engine.request.rules.storage import named_storage
from clustergen.engine.request.versions import family_size_names
from clustergen.engine.request.words import UNIT_WORD
from clustergen.errors import NotFoundError, RequestError

#: a two-character GPU name ("L4", "T4")
_SHORT_GPU = re.compile(r"^[a-z]\d$")
#: a bare size ("70B"): read by the model-size rule, then matched to the catalog's alias for it
_BARE_SIZE = re.compile(r"^\d+(?:\.\d+)?[bt]$")


def _platform_names(catalog: Catalog) -> list[tuple[str, str, str]]:
    """(normalised name, kind, id) for systems, GPUs and language models, longest first so
    'gb200 nvl72' beats 'gb200'."""

    def build() -> list[tuple[str, str, str]]:
        names: list[tuple[str, str, str]] = []
        for s in catalog.all("systems", System):
            if s.gpus_per_node:
                names += [(n, "system", s.id) for n in s.names() if len(n) >= 3]
        for g in catalog.all("gpus", Gpu):
            # two characters only as a letter and a digit ("L4"): short names stay out otherwise
            names += [(n, "gpu", g.id) for n in g.names() if len(n) >= 3 or _SHORT_GPU.match(n)]
        for m in catalog.all("models", LanguageModel):
            names += [
                (n, "model", m.id) for n in m.names() if len(n) >= 3 and not _BARE_SIZE.match(n)
            ]
        # a name both a system and a GPU answer to ("GB200 NVL72") is the system: the GPU follows
        # from it; the order is fixed, never the set's hash order
        names += [(n, "model", eid) for n, (eid, _) in family_size_names(catalog).items()]
        rank = {"system": 0, "gpu": 1, "model": 2}
        return sorted(set(names), key=lambda t: (-len(t[0]), rank[t[1]], t[2]))

    return cached(catalog, ("request-names",), build)


def _find_platform(
    catalog: Catalog, text: str, used: list[bool] | None = None
) -> tuple[list[Named], list[Span]]:
    """Catalog GPUs and systems named in the text (outside the `used` characters), with the
    character spans they used."""
    found: list[Named] = []
    spans: list[Span] = []
    # Candidate phrases: 1 to 5 consecutive words, normalised as catalog names are ("DeepSeek R1
    # Distill Llama 70B" is five; four read it as two models, "DeepSeek R1" and "Llama 70B").
    words = [
        w
        for w in re.finditer(r"[a-z0-9][a-z0-9.+-]*", text)
        if used is None or not any(used[w.start() : w.end()])
    ]
    table: dict[str, Named] = {}
    for name, kind, eid in _platform_names(catalog):
        table.setdefault(name, (kind, eid))
    i = 0
    while i < len(words):
        hit = None
        for width in (5, 4, 3, 2, 1):
            if i + width > len(words):
                continue
            start, end = words[i].start(), words[i + width - 1].end()
            key = normalise_name(text[start:end])
            key = re.sub(r"s$", "", key) if key not in table else key  # "h100s"
            if key in table:
                hit = (width, start, end, table[key])
                break
        if hit:
            width, start, end, (kind, eid) = hit
            found.append((kind, eid))
            spans.append((start, end))
            i += width
        else:
            i += 1
    return found, spans


#: an Enterprise RA named by family only ("an Enterprise RA design"): any of its systems
_ENTERPRISE_RA = re.compile(r"\b(?:nvidia\s+)?enterprise\s+(?:ra|reference\s+architectures?)s?\b")
#: an Enterprise RA server configuration ("2-8-9-400": CPUs-GPUs-NICs-Gb/s)
_ERA_CONFIG = re.compile(r"(?<![\w-])(\d-\d-\d-\d{3})(?:\s+(?:architecture|config(?:uration)?))?\b")
#: what a clause says of an installation the customer has, not one to build ("our existing DGX
#: A100 SuperPOD"): its RA is not the design's
_INSTALLED = re.compile(r"\b(?:our|existing|installed|current|already|we\s+(?:have|run|own))\b")
#: pod words `read_pod` reads with a GPU: not read here as an architecture
_POD_WORDS = frozenset({"superpod", "basepod", "dgxsuperpod", "dgxbasepod"})


def read_architecture_names(r: Draft) -> None:
    """A reference architecture named ("ERA-00011-001", "Enterprise RA HGX", "BasePOD NDR200",
    "2-8-9-400", "an Enterprise RA design"): only its systems are weighed and, unless stated,
    its compute fabric is built; the design names the RA it follows. A pass: the names are
    the catalog's architectures', read before platform names so an alias's own words ("ERA HGX
    B300") name the RA, not a second platform."""
    found = _named_architecture(r)
    if found is None:
        return
    systems, fabric, (start, end), what = found
    others = [
        s.id for s in r.catalog.all("systems", System) if s.gpus_per_node and s.id not in systems
    ]
    out = r.fields.setdefault("platforms_excluded", [])
    assert isinstance(out, list)
    out += [i for i in others if i not in out]
    if fabric and "fabric" not in r.fields:
        r.members.setdefault("fabric", set()).add(fabric)
        r.member_spans.setdefault("fabric", []).append((fabric, start, end))
    r.take(start, end, f"{r.low[start:end].strip()!r} -> {what}: its systems only")
    for m in _ENTERPRISE_RA.finditer(r.low):  # "a 2-8-9-400 Enterprise RA design": the same RA
        if r.free(m):
            r.take(m.start(), m.end(), "")
    r.understood = [u for u in r.understood if u]


def _architecture_names(catalog: Catalog) -> dict[str, Architecture]:
    """Each architecture's id and aliases, normalised (the pod words left to `read_pod`)."""

    def build() -> dict[str, Architecture]:
        return {
            normalise_name(alias): a
            for a in catalog.all("architectures", Architecture)
            for alias in (a.id, *a.aliases)
            if normalise_name(alias) not in _POD_WORDS
        }

    return cached(catalog, ("architecture-names",), build)


def _named_architecture(
    r: Draft,
) -> tuple[set[str], str | None, Span, str] | None:
    """The systems, compute fabric, words and name of the first reference
    architecture the text names, or None."""
    archs = r.catalog.all("architectures", Architecture)
    names = _architecture_names(r.catalog)
    words = list(re.finditer(r"[a-z0-9][a-z0-9.+-]*", r.low))
    for i in range(len(words)):
        for width in (5, 4, 3, 2, 1):
            if i + width > len(words):
                continue
            start, end = words[i].start(), words[i + width - 1].end()
            if any(r.used[start:end]):
                continue
            key = normalise_name(r.low[start:end])
            arch = names.get(key)
            if arch is not None and not _INSTALLED.search(r.low, clause_of(r.low, start)[0], start):
                return set(arch.systems), arch.compute_fabric.technology, (start, end), arch.name
    config = next((m for m in _ERA_CONFIG.finditer(r.low) if r.free(m)), None)
    if config is not None:
        code = config.group(1)
        systems = {s.id for s in r.catalog.all("systems", System) if code in s.name}
        named = [a for a in archs if code in a.name]
        systems |= {sid for a in named for sid in a.systems}
        if systems:
            one = named[0] if len(named) == 1 else None
            what = one.name if one else f"the Enterprise RA {code} configuration"
            return systems, one.compute_fabric.technology if one else None, config.span(), what
    generic = next((m for m in _ENTERPRISE_RA.finditer(r.low) if r.free(m)), None)
    if generic is not None:
        era = {sid for a in archs if a.id.startswith("era-") for sid in a.systems}
        return era, None, generic.span(), "an NVIDIA Enterprise RA"
    return None


def find_names(r: Draft) -> None:
    """The catalog GPUs, systems and models the text names ("512 H100s", "GB200 NVL72", "Llama
    3.1 70B"), found but not yet taken. A pass: the words are the catalog's names, not a
    pattern's, and the passes after it read the names together (a price's GPU, a replaced
    fleet)."""
    r.named, r.spans = _find_platform(r.catalog, r.low, r.used)


def rule_out_names(r: Draft) -> None:
    """GPUs and systems the request rules out ("not interested in GB200", "no H100s", "anything
    but B300"): listed in `platforms_excluded` and no longer named, so the planner weighs the
    others. A pass: whether a name is asked for or ruled out is its clause's negation."""
    keep: list[int] = []
    for i, ((kind, eid), (start, end)) in enumerate(zip(r.named, r.spans, strict=True)):
        cs, ce = clause_of(r.low, start)
        span = None if kind == "model" else negated(r.low, cs, ce, start, end)
        if span is None:
            keep.append(i)
            continue
        word = re.sub(r"\s+(?:racks?|systems?)$", "", r.low[start:end].strip())
        if word in _SYSTEM_KINDS:  # "no NVL72 racks": every system of the kind, not one alias's
            _exclude(r, _kind_ids(r, word, True), span, f"{_kind_label(word)} systems")
            continue
        _exclude(r, [eid], span, eid)
    r.named, r.spans = [r.named[i] for i in keep], [r.spans[i] for i in keep]


def _exclude(r: Draft, ids: list[str], span: Span, what: str) -> None:
    # "we'd rather avoid GB200", "no H100 if possible": avoided, weighed only if nothing else is
    soft = softened(r.low, clause_of(r.low, span[0])[1], span)
    out = r.fields.setdefault("platforms_avoided" if soft else "platforms_excluded", [])
    assert isinstance(out, list)
    out += [i for i in ids if i not in out]
    phrase = r.low[span[0] : span[1]].strip()
    if soft:
        r.take(span[0], span[1], f"{phrase!r} -> {what} avoided where possible (a preference)")
        for a, b in soft:
            r.take(a, b, f"{r.low[a:b].strip()!r} -> a preference")
        return
    r.take(span[0], span[1], f"{phrase!r} -> {what} ruled out")


def read_gpu_architecture(r: Draft) -> None:
    """A GPU architecture named as the catalog names it ("512 Blackwell GPUs", "no Hopper"):
    only its systems are weighed, or, ruled out, none of them; a kind of system ruled out ("not
    DGX", "no NVL72 racks") rules out its systems. A pass: the words are the
    catalog's architectures, and a name that holds one ("RTX PRO 6000 Blackwell") keeps it."""
    _ruled_out_kinds(r)
    by_arch: dict[str, list[str]] = {}
    for g in r.catalog.all("gpus", Gpu):
        if g.architecture:
            by_arch.setdefault(g.architecture.casefold(), []).append(g.id)
    for arch, ids in by_arch.items():
        # a family holds its later variants ("Blackwell": B200 and Blackwell Ultra's B300),
        # and the variant's own name is read as the variant ("Blackwell Ultra")
        variants = [a for a in by_arch if a.startswith(arch + " ")]
        ids = [i for a in (arch, *variants) for i in by_arch[a]]
        longer = "".join(rf"(?!\s+{re.escape(a[len(arch) + 1 :])}\b)" for a in variants)
        for m in re.finditer(rf"\b{re.escape(arch)}\b{longer}", r.low):
            inside = any(s < m.end() and m.start() < e for s, e in r.spans)
            if inside or not r.free(m):
                continue
            bound = _generation_bound(r, m, arch, by_arch)
            if bound is not None:
                _exclude(r, *bound)
                continue
            cs, ce = clause_of(r.low, m.start())
            span = negated(r.low, cs, ce, m.start(), m.end())
            if span is not None:
                _exclude(r, ids, span, f"{arch.title()} GPUs")
                continue
            if r.fields.get("gpu_architecture") not in (None, arch.title()):
                raise RequestError(
                    f"the request names two GPU architectures "
                    f"({r.fields['gpu_architecture']} and {arch.title()})",
                    hint="name one, or rule the other out",
                )
            r.fields["gpu_architecture"] = next(
                g.architecture
                for g in r.catalog.all("gpus", Gpu)
                if g.architecture and g.architecture.casefold() == arch
            )
            r.take(m.start(), m.end(), f"{m.group(0)!r} -> {arch.title()} GPUs only")
            _count_around(r, m)


#: the year NVIDIA announced each data-centre architecture (GTC keynotes and launch releases:
#: A100/Ampere May 2020, H100/Hopper March 2022, L40/Ada Lovelace September 2022, B200/Blackwell
#: March 2024, B300/Blackwell Ultra March 2025): what "older than Hopper" compares
_ANNOUNCED = {"ampere": 2020, "hopper": 2022, "ada lovelace": 2022, "blackwell": 2024}
_ANNOUNCED["blackwell ultra"] = 2025
#: a generation bound around an architecture's name: "nothing older than Blackwell", "newer
#: than Hopper", "at least Hopper", "Hopper or newer"
_CMP_BEFORE = re.compile(
    r"(?P<neg>\b(?:no|not|nothing|none|never)\b[^.;,]{0,20}?)?\b(?P<cmp>older|earlier|previous|prior|"
    r"newer|later|more\s+recent|at\s+least)\s+(?:than\s+|to\s+)?(?:the\s+)?(?:nvidia\s+)?$"
)
_CMP_AFTER = re.compile(r"\s*(?:or|and)\s+(?:newer|later|above|up|more\s+recent)\b|\+")


def _generation_bound(
    r: Draft, m: re.Match[str], arch: str, by_arch: dict[str, list[str]]
) -> tuple[list[str], Span, str] | None:
    """The GPUs a generation bound on `arch` rules out, the words read and what they are, or
    None when no comparison stands around the name."""
    year = _ANNOUNCED.get(arch)
    if year is None:
        return None
    before = _CMP_BEFORE.search(r.low, max(0, m.start() - 40), m.start())
    after = _CMP_AFTER.match(r.low, m.end())
    if before is None and after is None:
        return None
    cmp = before.group("cmp") if before is not None else "newer"
    negated_cmp = before is not None and before.group("neg") is not None
    # the years kept, as a closed range: "or newer" and "at least" keep the year itself
    if after is not None or cmp == "at least":
        lo, hi = year, 9999
    elif cmp in ("older", "earlier", "previous", "prior"):
        lo, hi = (year, 9999) if negated_cmp else (0, year - 1)
    else:
        lo, hi = (0, year) if negated_cmp else (year + 1, 9999)
    known = {a: y for a, y in _ANNOUNCED.items() if a in by_arch}
    out = [i for a, y in known.items() if not lo <= y <= hi for i in by_arch[a]]
    start = before.start() if before is not None else m.start()
    end = after.end() if after is not None else m.end()
    kept = [a.title() for a, y in sorted(known.items(), key=lambda k: k[1]) if lo <= y <= hi]
    return out, (start, end), f"GPUs other than {', '.join(kept) or 'none'}"


#: words for a kind of system (catalog `kind`), read when a negation rules the kind out ("not
#: NVIDIA DGX", "no NVL72 racks", "nothing rack-scale")
_SYSTEM_KINDS: dict[str, frozenset[str]] = {
    "dgx": frozenset({"dgx"}),
    "hgx": frozenset({"hgx"}),
    "oem": frozenset({"hgx", "pcie-server"}),
    "nvl72": frozenset({"nvl-rack"}),
    "nvl-72": frozenset({"nvl-rack"}),
    "rack-scale": frozenset({"nvl-rack"}),
    "rack scale": frozenset({"nvl-rack"}),
    "pcie": frozenset({"pcie-server"}),
    # the host CPU ("no Grace", "x86 only", "no Arm CPUs"): a system's CPU is Grace (Arm) or,
    # with no Grace named, an x86 host
    "grace": frozenset({"cpu:grace"}),
    "arm": frozenset({"cpu:grace"}),
    "x86": frozenset({"cpu:x86"}),
}
#: how a kind is said in a reading, where its word upper-cased is not its name
_KIND_LABEL = {"grace": "Grace-CPU", "arm": "Arm-CPU (Grace)", "x86": "x86-host"}
#: what makes a kind's word a request for it ("DGX systems", "OEM servers", "DGX only", "only
#: NVL72"), not a passing mention ("PCIe Gen5 NICs")
_KIND_AFTER = re.compile(
    r"(?:[\s-]*(?:systems?|servers?|nodes?|boxes|racks?|only|based|platforms?|cpus?|hosts?|"
    r"processors?)\b)+"
)
_KIND_BEFORE = re.compile(r"\bonly\s+(?:(?:want|use|buy|consider)\s+)?(?:the\s+)?$")


def _kind_ids(r: Draft, word: str, among: bool) -> list[str]:
    """The systems a kind's word names (of its kinds, or with the word in their name: "DGX
    GB200" is a DGX), or (`among` False) every other system with GPUs."""
    kinds = _SYSTEM_KINDS[word]
    return [
        s.id
        for s in r.catalog.all("systems", System)
        if s.gpus_per_node
        and (
            bool(kinds & {s.kind, "cpu:grace" if "grace" in (s.cpu or "").lower() else "cpu:x86"})
            or word in re.findall(r"[a-z0-9-]+", s.name.lower())
        )
        == among
    ]


def _kind_label(word: str) -> str:
    return _KIND_LABEL.get(word, word.upper())


def _ruled_out_kinds(r: Draft) -> None:
    """A kind of system a negation rules out: its systems join `platforms_excluded`; a kind
    asked for ("DGX systems only", "on OEM servers") rules out every other kind."""
    for word in _SYSTEM_KINDS:
        for m in re.finditer(rf"\b{re.escape(word)}\b", r.low):
            inside = any(s < m.end() and m.start() < e for s, e in r.spans)
            if inside or not r.free(m):
                continue
            cs, ce = clause_of(r.low, m.start())
            span = negated(r.low, cs, ce, m.start(), m.end())
            after = _KIND_AFTER.match(r.low, m.end())
            if span is not None:
                if after and span[1] == m.end():  # "no Arm CPUs", "no DGX systems"
                    span = (span[0], after.end())
                _exclude(r, _kind_ids(r, word, True), span, f"{_kind_label(word)} systems")
                continue
            before = _KIND_BEFORE.search(r.low, max(0, m.start() - 30), m.start())
            if _SYSTEM_KINDS[word] == {"nvl-rack"} and word.startswith("nvl"):
                _rack_scale_asked(r, m, after)
                continue
            if after or before:
                start = before.start() if before else m.start()
                end = after.end() if after else m.end()
                others = _kind_ids(r, word, False)
                _exclude(r, others, (start, end), f"systems other than {_kind_label(word)}")


def _rack_scale_asked(r: Draft, m: re.Match[str], after: re.Match[str] | None) -> None:
    """'NVL72', '8 NVL72 racks': a rack-scale system of no generation named; the study weighs
    the current ones (GB200 and GB300 NVL72), and a count before it counts racks."""
    gpus = sorted(
        {
            s.gpu
            for s in r.catalog.all("systems", System)
            if s.kind == "nvl-rack" and s.gpu and s.lifecycle not in ("superseded", "end-of-sale")
        }
    )
    end = after.end() if after else m.end()
    named = any(kind != "model" for kind, _ in r.named)  # "GB200 GPUs in NVL72 racks"
    if not named and "gpus_weighed" not in r.fields:
        r.fields["gpus_weighed"] = gpus
    count = re.search(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)\s*(?:x\s*)?$", r.low[: m.start()])
    racks = after is not None and re.search(r"\bracks?\b", after.group(0))
    if count and racks and "nodes" not in r.fields and r.free(count):
        r.fields["nodes"] = int(count.group(1).replace(",", ""))
        r.take(
            count.start(), end, f"{r.low[count.start() : end]!r} -> {r.fields['nodes']} NVL72 racks"
        )
    what = "the named GPU's NVL72 rack" if named else f"{' or '.join(gpus)} NVL72 weighed"
    r.take(m.start(), end, f"{r.low[m.start() : end]!r} -> {what}")
    r.understood = [u for u in r.understood if u]


def _count_around(r: Draft, m: re.Match[str]) -> None:
    """'512 Blackwell GPUs': the count and unit around the architecture's word are GPUs."""
    unit = re.match(r"\s*(?:gpus?|accelerators?)\b", r.low[m.end() :])
    count = re.search(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)\s*$", r.low[: m.start()])
    if unit is None or count is None or "gpus" in r.fields:
        return
    end = m.end() + unit.end()
    if any(r.used[count.start() : m.start()]) or any(r.used[m.end() : end]):
        return
    r.fields["gpus"] = int(count.group(1).replace(",", ""))
    r.take(count.start(), end, f"{r.low[count.start() : end]!r} -> {r.fields['gpus']} GPUs")


def priced_gpu(r: Draft) -> None:
    """The GPU a price is quoted for ("$2 per H800 GPU-hour") is the GPU sized, as if named. A
    pass: the price rule read the words, and only the catalog says whether they name a GPU."""
    priced = r.fields.pop("price_names_gpu", None)
    if priced is None:
        return
    where = r.low.find(str(priced))
    span = (where, where + len(str(priced)))
    found, _ = _find_platform(r.catalog, str(priced))
    if len(found) != 1 or found[0][0] == "model":
        raise NotFoundError("GPU", str(priced), r.catalog.closest("gpus", str(priced)))
    r.named, r.spans = [*r.named, found[0]], [*r.spans, span]


#: a memory size or form factor written right after a GPU's name ("A100 40GB", "H100 with
#: 96 GB", "A100 PCIe", "H200 NVL")
_VARIANT = re.compile(r"\s*(?:with\s+|-)?(?:(\d+)\s*gb\b(?!\s*/\s*s|ps)|(pcie|nvl|sxm\d?)\b)")


def refuse_other_variant(r: Draft) -> None:
    """A GPU named with a memory size or form factor its catalog entry lacks ("H100 96GB" when
    the catalog has the 80 GB part, "A100 PCIe" when it has the SXM one) is another part:
    refused, never sized as the part the name matched. A pass: it compares the words after a
    name with that catalog entry."""
    catalog, low = r.catalog, r.low
    for (kind, eid), (start, end) in zip(r.named, r.spans, strict=True):
        m = _VARIANT.match(low, end)
        if kind != "gpu" or not m:
            continue
        gpu = catalog.gpu(eid)
        other_memory = m.group(1) and gpu.memory_gb and int(m.group(1)) != round(gpu.memory_gb)
        form = m.group(2)
        other_form = form and (
            (form == "pcie") != (gpu.form_factor == "pcie")
            or (form == "nvl" and "nvl" not in " ".join(gpu.names()))
        )
        if other_memory or other_form:
            phrase = low[start : m.end()].strip()
            raise NotFoundError("GPU", phrase, catalog.closest("gpus", phrase))


#: "replace our 256 A100s with H200s", "upgrade 32 DGX A100 to DGX B200", "swap the H100s for
#: B200s": the verb before the first name, the word joining it to the second
_REPLACE_VERB = re.compile(
    r"\b(?:replac(?:e|es|ing)|swap(?:ping)?(?:\s+out)?|upgrad(?:e|es|ing)|migrat(?:e|es|ing)"
    r"|mov(?:e|es|ing)|refresh(?:es|ing)?|instead\s+of)\b(?=[^.;!?]*$)"
)
#: a verb that retires what it names even with no successor named ("refresh of our A100
#: cluster", "replace our H100s"): the planner picks among current systems
_RETIRE_VERB = re.compile(
    r"\b(?:replac(?:e|es|ing|ement)|refresh(?:es|ing)?|upgrad(?:e|es|ing)|retir(?:e|es|ing)|"
    r"decommission(?:s|ing)?|sunset(?:s|ting)?|swap(?:ping)?\s+out)\b(?=[^.;!?]*$)"
)
#: "we run 32 A100 nodes and want to move to H200": the verb between the two names
_REPLACE_BETWEEN = re.compile(
    r"[^.;!?]{0,60}?\b(?P<v>mov(?:e|ing)|migrat(?:e|ing)|upgrad(?:e|ing)|switch(?:ing)?|"
    r"transition(?:ing)?|refresh(?:ing)?)\s+(?:them\s+|it\s+|everything\s+|all\s+of\s+it\s+)?"
    r"(?:over\s+)?(?:to|onto)\s+(?:the\s+|a\s+)?$"
)
#: "our 16 DGX-2 systems need replacing with H200", "our DGX-1s are to be replaced by B200",
#: "64 DGX-1 to H200": the verb (or a bare "to") after the first name, before the second
_REPLACE_AFTER = re.compile(
    r"[^.;!?]{0,60}?\b(?P<v>(?:needs?|want|wants|have|has)\s+(?:to\s+be\s+)?replac(?:ing|ed)|"
    r"(?:is|are)\s+(?:being\s+|to\s+be\s+|due\s+to\s+be\s+)?replaced|"
    r"replac(?:e|ing)\s+(?:it|them|those|these))\s+(?:with|by)\s+(?:the\s+|a\s+)?$"
    r"|(?:\s*(?:gpus?|nodes?|servers?|systems?|s))?\s*(?P<to>to|->|=>|\u2192)\s*$"
)
_UNIT_ONLY = re.compile(r"\s*(?:(?:gpus?|nodes?|servers?|systems?|boxes|machines|s)\b)?\s*")
_REPLACE_JOIN = re.compile(
    r"^[^.;!?]{0,40}?\b(?:with|by|to|for|into|(?:now\s+)?(?:want|need|would\s+like|go\s+with|"
    r"take))\b[^.;!?]{0,20}$"
)


#: "2x the compute of our current 256 A100 cluster", "three times the performance of our 32
#: DGX H100": a multiple of a fleet's dense compute, written before the fleet's count and name
_MULTIPLE_OF = re.compile(
    r"(?:(?<![\w.])(?P<k>\d+(?:\.\d+)?)\s*(?:x|times)|\b(?P<w>double|twice|triple|three\s+times|"
    r"four\s+times|(?:the\s+)?same|equal|equivalent))\s+(?:the\s+)?(?:(?:dense\s+)?(?:compute|"
    r"performance|perf|capacity|flops|"
    r"throughput)\s+)?(?:of|as|to)\s+(?:our|the|my|an?)?\s*(?:current|existing|old|present|"
    r"installed)?\s*(?:cluster\s+(?:of|with)\s+)?(?P<n>\d[\d,]*)\s*(?:x\s*)?$"
)
_TIMES_WORD = {
    "double": 2.0,
    "twice": 2.0,
    "triple": 3.0,
    "three times": 3.0,
    "four times": 4.0,
    # "the same compute as our 512 A100": the fleet's own
    "the same": 1.0,
    "same": 1.0,
    "equal": 1.0,
    "equivalent": 1.0,
}
_FLEET_WORD = re.compile(r"s?(?:\s+(?:gpus?|cluster|fleet|nodes?|servers?|systems?))?\b")


def read_compute_multiple(r: Draft) -> None:
    """A multiple of a fleet's compute ("2x the compute of our current 256 A100 cluster"): the
    target is that many times the fleet's dense BF16 PFLOPS, and the fleet's part is not the
    design's. A pass: the fleet's part is a catalog name, with its count before it."""
    for i, ((kind, eid), (start, end)) in enumerate(zip(r.named, r.spans, strict=True)):
        m = _MULTIPLE_OF.search(r.low, max(0, start - 90), start)
        if kind == "model" or m is None or not r.free(m) or "compute_pflops" in r.fields:
            continue
        k = float(m.group("k")) if m.group("k") else _TIMES_WORD[" ".join(m.group("w").split())]
        count = round(float(m.group("n").replace(",", "")))
        system = r.catalog.system(eid) if kind == "system" else None
        gpu = r.catalog.gpu(system.gpu if system and system.gpu else eid)
        gpus = count * (system.gpus_per_node or 1) if system else count
        if not gpu.bf16_dense_tflops or k <= 0:
            return
        pflops = k * gpus * gpu.bf16_dense_tflops / 1e3
        tail = _FLEET_WORD.match(r.low, end)
        stop = tail.end() if tail else end
        r.fields["compute_pflops"] = pflops
        r.take(
            m.start(),
            stop,
            f"{r.low[m.start() : stop].strip()!r} -> dense compute {pflops:,.0f} PFLOPS BF16 "
            f"({k:g} x {gpus:,} {gpu.id} at {gpu.bf16_dense_tflops:g} TFLOPS each)",
        )
        r.named, r.spans = r.named[:i] + r.named[i + 1 :], r.spans[:i] + r.spans[i + 1 :]
        return


def read_replaced_fleet(r: Draft) -> None:
    """A fleet replaced by another ("replace our 256 A100s with H200s"): the design is the new
    one and the old name is read as what it replaces (`Draft.replaced`); a count written with
    the old one counts GPUs replaced one for one (`counts.read_bare_count`). A pass: it reads
    two names and the verb between them."""
    named, spans = r.named, r.spans
    platforms = [i for i, (kind, _) in enumerate(named) if kind != "model"]
    for old, new in itertools.pairwise(platforms):
        (s_old, e_old), (s_new, _) = spans[old], spans[new]
        verb = _REPLACE_VERB.search(r.low[:s_old])
        v_start, v_end = verb.span() if verb else (0, 0)
        if not (verb and _REPLACE_JOIN.match(r.low[e_old:s_new])):
            verb = _REPLACE_BETWEEN.match(r.low, e_old, s_new)
            v_start, v_end = verb.span("v") if verb else (0, 0)
        if not verb and (after := _REPLACE_AFTER.match(r.low, e_old, s_new)):
            verb = after
            v_start, v_end = after.span("v") if after.group("v") else after.span("to")
            if _UNIT_ONLY.fullmatch(r.low, e_old, v_start):  # "16 DGX-2 systems need replacing"
                v_start = e_old + len(r.low[e_old:v_start]) - len(r.low[e_old:v_start].lstrip())
        if not verb or named[old] == named[new]:
            continue
        eid = named[new][1]
        r.take(s_old, e_old, f"{r.low[s_old:e_old]!r} -> replaced by {eid} (the design is for it)")
        r.take(v_start, v_end, f"{r.low[v_start:v_end]!r} -> the design replaces a fleet")
        # the old fleet named again ("A100 refresh: move our 512 A100 workload to B200") is
        # the same fleet, not a second GPU asked for
        again = [i for i in range(len(named)) if i != old and named[i] == named[old]]
        for i in again:
            a, b = spans[i]
            if r.free_span(a, b):
                r.take(a, b, f"{r.low[a:b]!r} -> the fleet replaced")
        keep = [i for i in range(len(named)) if i != old and i not in again]
        r.named, r.spans = [named[i] for i in keep], [spans[i] for i in keep]
        r.replaced = (named[old], spans[old])
        return
    _replaced_by_current(r)


#: a successor named by its generation, not by a part: "with current-generation systems"
_CURRENT_SUCCESSOR = re.compile(
    r"^[^.;!?]{0,40}?\b(?:with|by|to|for|into)\s+(?:the\s+)?(?:(?:current[- ]gen(?:eration)?|"
    r"latest|newest|newer|new|modern|next[- ]gen(?:eration)?|current)\s+(?:[a-z]+\s+)?"
    r"(?:systems?|gpus?|servers?|nodes?|hardware|parts?|platforms?|generation)|"
    # "with something current", "with something newer"
    r"something\s+(?:more\s+)?(?:current|newer|new|modern|recent|faster))\b"
)


#: a verb after the only name that retires it: "V100 cluster of 64 nodes and want to replace
#: it", "our 16 DGX-2 systems need replacing", "our DGX-1s are being retired"
_RETIRED_AFTER = re.compile(
    r"[^.;!?]{0,80}?\b(?P<v>(?:replac(?:e|ing)|retir(?:e|ing)|refresh(?:ing)?|upgrad(?:e|ing)|"
    r"decommission(?:ing)?|swap(?:ping)?\s+out)\s+(?:it|them|those|these|that|this)\b|"
    r"(?:needs?|due\s+for)\s+(?:to\s+be\s+)?(?:replac(?:ing|ed|ement)|retir(?:ing|ed|ement)|"
    r"refresh(?:ing|ed)?)\b|(?:is|are)\s+(?:being\s+|to\s+be\s+|due\s+to\s+be\s+)?"
    r"(?:replaced|retired|decommissioned)\b)"
)


def _replaced_by_current(r: Draft) -> None:
    """A fleet replaced by "current-generation systems", no part named: the old name is what
    is replaced (so its count counts GPUs one for one) and the planner picks among current
    systems, never the old one."""
    for i, (kind, eid) in enumerate(r.named):
        if kind == "model":
            continue
        s_old, e_old = r.spans[i]
        verb = _REPLACE_VERB.search(r.low[:s_old])
        succ = _CURRENT_SUCCESSOR.match(r.low[e_old:])
        # "refresh of our 1,024-GPU A100 cluster", "upgrade our A100s": the only name, after the
        # verb and not its object ("upgrade to B200" names the successor), is what is replaced
        retire = _RETIRE_VERB.search(r.low[:s_old])
        alone = (
            retire is not None
            and len([k for k, _ in r.named if k != "model"]) == 1
            and not re.search(r"\b(?:to|with|for|into|by)\b", r.low[retire.end() : s_old])
            and r.low[retire.end() : s_old].count(" ") <= 6
        )
        verb = retire if alone else verb
        # "an aging V100 cluster ... want to replace it", "our DGX-1s need replacing": the only
        # name, retired by a verb after it
        later = _RETIRED_AFTER.match(r.low, e_old)
        if (
            not (verb and (succ or alone))
            and later
            and len([k for k, _ in r.named if k != "model"]) == 1
        ):
            verb, alone = later, True
        if not verb or not (succ or alone):
            continue
        r.take(
            s_old, e_old, f"{r.low[s_old:e_old]!r} -> replaced (the design is for its successor)"
        )
        v_start, v_end = verb.span("v") if verb is later else verb.span()
        r.take(v_start, v_end, f"{r.low[v_start:v_end]!r} -> the design replaces a fleet")
        if succ:
            words = r.low[e_old + succ.start() : e_old + succ.end()].strip()
            r.take(e_old + succ.start(), e_old + succ.end(), f"{words!r} -> among current systems")
        r.replaced = ((kind, eid), (s_old, e_old))
        r.named, r.spans = r.named[:i] + r.named[i + 1 :], r.spans[:i] + r.spans[i + 1 :]
        return


#: words that set two GPUs side by side to be weighed ("B200 or GB200", "H200 vs B200",
#: "compare B200 and GB200")
_EITHER = re.compile(
    r"^[\s,]*(?:or|vs\.?|versus|against|and|compared\s+(?:to|with)|better\s+than|"
    # "is GB300 worth it over B300": a question that weighs the two
    r"(?:(?:really\s+)?worth\s+(?:it\s+|the\s+(?:premium|cost|extra|money)\s+)?)over)[\s,]*$"
)
_COMPARE = re.compile(r"\b(?:compare|comparing|comparison\s+of|either|weigh|choose\s+between)\b")


#: "B200 preferred but GB200 acceptable", "prefer B200, GB200 is fine too": the first is
#: wanted, the second weighed only when no design of the first meets the request
_PREFERRED = re.compile(
    r"^[\s,(]*(?:is\s+|are\s+)?(?:preferred|ideally|(?:our\s+)?first\s+choice)[\s,;]*"
    r"(?:but|though|although|yet|or)?[\s,]*(?:if\s+(?:needed|necessary)[\s,]*)?$"
)
_FALLBACK = re.compile(
    r"\s*(?:gpus?\s+)?(?:is\s+|are\s+|would\s+be\s+|also\s+)?(?:acceptable|ok(?:ay)?|fine|"
    r"an?\s+(?:option|alternative|fallback)|as\s+(?:a\s+)?(?:fallback|backup))\b(?:\s+too)?"
)
_PREFER = re.compile(r"\b(?:we\s+)?prefer(?:ably)?\s*$")


def _preferred_pair(r: Draft, s1: int, e1: int, s2: int, e2: int) -> tuple[int, int] | None:
    """The span of "B200 preferred but GB200 acceptable" (or "prefer B200, GB200 is fine"), when
    the two names are so related."""
    fallback = _FALLBACK.match(r.low, e2)
    if fallback is None:
        return None
    before = _PREFER.search(r.low, max(0, s1 - 20), s1)
    between = r.low[e1:s2]
    if _PREFERRED.match(between) or (before and re.fullmatch(r"[\s,;]*(?:but)?[\s,]*", between)):
        return (before.start() if before else s1), fallback.end()
    return None


def _weighed_gpus(r: Draft) -> None:
    """Two GPUs named side by side to be compared: the study weighs their systems alone (the
    second only as a fallback when the first is preferred)."""
    gpus = [(i, eid) for i, (kind, eid) in enumerate(r.named) if kind == "gpu"]
    if len(gpus) > 2 and "gpu" not in r.fields:
        _weighed_many(r, gpus)
        return
    if len(gpus) != 2 or gpus[0][1] == gpus[1][1] or "gpu" in r.fields:
        return
    (i, a), (j, b) = gpus
    (s1, e1), (s2, e2) = r.spans[i], r.spans[j]
    between = r.low[e1:s2]
    joint = _EITHER.match(between)
    preferred = _preferred_pair(r, s1, e1, s2, e2)
    if preferred is not None:
        r.fields["gpus_weighed"] = [a, b]
        avoided = r.fields.setdefault("platforms_avoided", [])
        if isinstance(avoided, list) and b not in avoided:
            avoided.append(b)
        r.take(
            *preferred,
            f"{r.low[preferred[0] : preferred[1]]!r} -> {a} preferred: {b} weighed only when no "
            f"{a} design meets the request",
        )
        r.named = [n for k, n in enumerate(r.named) if k not in (i, j)]
        r.spans = [sp for k, sp in enumerate(r.spans) if k not in (i, j)]
        return
    if joint is None or ("and" in between and not _COMPARE.search(r.low, max(0, s1 - 30), s1)):
        return
    r.fields["gpus_weighed"] = [a, b]
    cue = _COMPARE.search(r.low, max(0, s1 - 30), s1)
    start = cue.start() if cue else s1
    r.take(start, e2, f"{r.low[start:e2]!r} -> {a} and {b} weighed: the study picks one")
    # "1024 B200 or GB200 GPUs": the count before the pair counts GPUs
    count = re.search(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)\s*$", r.low[:start])
    unit = re.match(r"\s*(?:gpus?|accelerators?)\b", r.low[e2:])
    named_unit = re.search(r"\bgpus?$", r.low[s2:e2])  # the name's span holds it: "gb200 gpus"
    if count and (unit or named_unit) and "gpus" not in r.fields and r.free(count):
        r.fields["gpus"] = int(count.group(1).replace(",", ""))
        r.take(count.start(), count.end(), f"{count.group(0).strip()!r} -> {r.fields['gpus']} GPUs")
        if unit:
            r.take(e2, e2 + unit.end(), "")
            r.understood = [u for u in r.understood if u]
    r.named = [n for k, n in enumerate(r.named) if k not in (i, j)]
    r.spans = [sp for k, sp in enumerate(r.spans) if k not in (i, j)]


def _weighed_many(r: Draft, gpus: list[tuple[int, str]]) -> None:
    """ "H100 vs H200 vs B200 for serving ...": three or more GPUs, each joined to the next as
    choices, are weighed together (they were refused as two GPUs)."""
    ids = [eid for _, eid in gpus]
    if len(set(ids)) != len(ids):
        return
    spans = [r.spans[i] for i, _ in gpus]
    joints = [r.low[e:s] for (_, e), (s, _) in pairwise(spans)]
    # "H100, H200 or B200": commas list them, one choice word joins the last
    chosen = [j for j in joints if j.strip(" ,")]
    if not chosen or not all(_EITHER.match(j) and j.strip(" ,") != "and" for j in chosen):
        return
    start, end = spans[0][0], spans[-1][1]
    r.fields["gpus_weighed"] = ids
    r.take(start, end, f"{r.low[start:end]!r} -> {', '.join(ids)} weighed: the study picks one")
    drop = {i for i, _ in gpus}
    r.named = [n for k, n in enumerate(r.named) if k not in drop]
    r.spans = [sp for k, sp in enumerate(r.spans) if k not in drop]


def read_platforms(r: Draft) -> None:
    """The catalog GPUs and systems the text names (one of each at most), or two GPUs set side
    by side to be weighed. A pass: two names of one kind contradict only once every name is
    found."""
    _weighed_gpus(r)
    for kind, eid in r.named:
        key = {"system": "platform", "gpu": "gpu", "model": "model"}[kind]
        if key in r.fields and r.fields[key] != eid:
            raise RequestError(
                f"the request names two {key}s ({r.fields[key]} and {eid})",
                hint="a design uses one GPU platform; run one request per platform",
            )
        r.fields[key] = eid
    for (s, e), (kind, eid) in zip(r.spans, r.named, strict=True):
        unit_word = UNIT_WORD.match(r.low, e) if kind == "system" else None
        if unit_word:  # "64 DGX B200 nodes": the word names what the count counts
            e = unit_word.end()
        note = f"{r.low[s:e]!r} -> {'platform' if kind == 'system' else kind} {eid}"
        if kind == "model":
            note += _family_size_reason(r, s, e)
        r.take(s, e, note)


def read_pod(r: Draft) -> None:
    """A GPU named with "SuperPOD" or "BasePOD" and no system: the DGX system those RAs use. A
    pass: the pod's system depends on the GPU named beside it."""
    gpu = r.fields.get("gpu")
    if not isinstance(gpu, str) or "platform" in r.fields:
        return
    pod = pod_platform(r.catalog, r.low, r.used, gpu)
    if pod is not None:
        r.fields["platform"] = pod.system
        r.take(pod.start, pod.end, pod.note)


def read_storage(r: Draft) -> None:
    """The storage system named by class or product ("Lustre", "WEKA"): a word set, so two
    different ones contradict as two fabrics do (`meanings.resolve_members`). A pass: the
    products are the catalog's, so a product added there is read without a new rule."""
    for system, product, start, end in named_storage(r.catalog, r.low, r.used):
        r.members.setdefault("storage_system", set()).add(system)
        r.take(start, end, f"{r.low[start:end]!r} -> storage system {system} ({product})")


def _family_size_reason(r: Draft, start: int, end: int) -> str:
    """The reason a model named by family and size alone ("llama 70b") reads as one version."""
    derived = family_size_names(r.catalog)
    hit = derived.get(normalise_name(r.low[start:end]))
    return f" ({hit[1]})" if hit else ""
