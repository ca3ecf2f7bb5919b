"""Free text (or a YAML file) in, a typed `DesignRequest` out.

The parser is deliberately plain: regular expressions over the text and the catalog's own names for
GPUs and systems. Whatever it reads is recorded with the words it came from; whatever it cannot
read is reported, never dropped.
"""

from __future__ import annotations

import itertools
import re

from clustergen.catalog.architectures import Architecture
from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Gpu, System, normalise_name
from clustergen.catalog.workload_models import LanguageModel
from clustergen.engine.cache import cached
from clustergen.engine.model.request import (
    MAX_REQUEST_CHARS,
    SIZE_FIELDS,
    DesignRequest,
    sizes_workload,
)
from clustergen.engine.request.counts import (
    count_before,
    racks_to_nodes,
    su_count,
    su_node_count,
)
from clustergen.engine.request.load import serving_defaults, to_tokens
from clustergen.engine.request.pods import pod_platform
from clustergen.engine.request.rules import RULES, Reading, Rule
from clustergen.engine.request.scope import (
    Found,
    cap_basis,
    cap_words,
    exclusions,
    rack_limits,
)
from clustergen.engine.request.storage_words import named_storage
from clustergen.engine.request.translate import validated
from clustergen.engine.request.versions import family_size_names
from clustergen.engine.request.words import CONFLICTS, FILLER, NAMES, UNIT_WORD
from clustergen.engine.request.workload_rules import MONEY_RULES
from clustergen.errors import NotFoundError, RequestError
from clustergen.units import plural

#: a two-character GPU name ("L4", "T4")
_SHORT_GPU = re.compile(r"^[a-z]\d$")
#: a bare size ("70B"): read by the model-size rule, then matched to the catalog's alias for it
_BARE_SIZE = re.compile(r"^\d+(?:\.\d+)?[bt]$")
#: a count of things named by a product-like word ("2048 H800 GPUs", "16 XE9680 servers"): the
#: word holds a digit, as GPU and server model names do ("512 NVIDIA GPUs" is not one)
_COUNTED_PRODUCT = re.compile(
    r"(?<![\w.])\d[\d,]*\s*(?:x(?=\s)\s*)?([a-z0-9.+-]*[a-z][a-z0-9.+-]*)\s+"
    r"(gpus?|accelerators?|nodes?|servers?|systems?)\b"
    # "2,048 H900s": a count right before a letter-led model word holding a digit
    r"|(?<![\w.$])\d[\d,]*(?:\s+|\s*x\s*)([a-z][a-z.+-]*\d[a-z0-9.+-]*?)s?(?![\w.+-])"
)


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
) -> tuple[list[tuple[str, str]], list[tuple[int, int]]]:
    """Catalog GPUs and systems named in the text (outside the `used` characters), with the
    character spans they used."""
    found: list[tuple[str, str]] = []
    spans: list[tuple[int, int]] = []
    # Candidate phrases: 1 to 4 consecutive words, normalised as catalog names are.
    words = [
        w
        for w in re.finditer(r"[a-z0-9][a-z0-9.+-]*", text)
        if used is None or not any(used[w.start() : w.end()])
    ]
    table: dict[str, tuple[str, str]] = {}
    for name, kind, eid in _platform_names(catalog):
        table.setdefault(name, (kind, eid))
    i = 0
    while i < len(words):
        hit = None
        for width in (4, 3, 2, 1):
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


class _Reading:
    """The text being read: which characters are taken, the fields found and the notes made."""

    def __init__(self, catalog: Catalog, text: str) -> None:
        self.catalog = catalog
        self.low = text.lower().replace("×", "x")
        self.used = [False] * len(self.low)
        self.fields: dict[str, object] = {"text": text.strip()}
        self.understood: list[str] = []
        self.phrases: dict[str, str] = {}
        self.members: dict[str, set[str]] = {}

    def free(self, m: re.Match[str]) -> bool:
        return not any(self.used[m.start() : m.end()])

    def take(self, start: int, end: int, note: str) -> None:
        for k in range(start, end):
            self.used[k] = True
        self.understood.append(note)

    def apply(self, m: re.Match[str], r: Reading) -> None:
        phrase = m.group(0).strip()
        if r.mode == "set":
            self.fields[r.field] = r.value
            return
        if r.mode == "member":
            self.members.setdefault(r.field, set()).add(str(r.value))
            self.take(m.start(), m.end(), f"{phrase!r} -> {r.note}")
            return
        start, low = m.start(), self.low
        if start and low[start - 1] == "-" and (start < 2 or not low[start - 2].isalnum()):
            raise RequestError(
                f"{'-' + phrase!r} is negative",
                hint=f"give a positive {NAMES.get(r.field, r.field)}",
            )
        if r.field in self.fields and self.fields[r.field] != r.value:
            raise RequestError(
                f"the request gives two {NAMES.get(r.field, r.field)} values "
                f"({self.phrases[r.field]!r} and {phrase!r})",
                hint="state it once",
            )
        self.fields[r.field] = r.value
        self.phrases[r.field] = phrase
        self.take(m.start(), m.end(), f"{phrase!r} -> {r.note}")

    def leftovers(self) -> list[str]:
        return [
            w.group(0)
            # a word does not end in the sentence's full stop ("a 5 MW hall." leaves "hall")
            for w in re.finditer(r"[a-z0-9](?:[a-z0-9.+-]*[a-z0-9+])?", self.low)
            if not any(self.used[w.start() : w.end()]) and w.group(0) not in FILLER
        ]


def _read_rule(r: _Reading, rule: Rule) -> None:
    """Every free match of the rule; a match over words already read is retried one character
    on, so "1024, output length 128" still finds "output length 128" after "1024" was taken.
    A rule whose words the request lacks cannot match: it is not compiled or searched."""
    if not rule.may_match(r.low):
        return
    pos = 0
    while m := rule.pattern.search(r.low, pos):
        if not r.free(m):
            pos = m.start() + 1
            continue
        for reading in rule.read(m):
            r.apply(m, reading)
        pos = max(m.end(), m.start() + 1)


def _with_priced_gpu(
    catalog: Catalog, r: _Reading, named: list[tuple[str, str]], spans: list[tuple[int, int]]
) -> tuple[list[tuple[str, str]], list[tuple[int, int]]]:
    """The GPU a price is quoted for ("$2 per H800 GPU-hour") is the GPU sized, as if named."""
    priced = r.fields.pop("price_names_gpu", None)
    if priced is None:
        return named, spans
    where = r.low.find(str(priced))
    span = (where, where + len(str(priced)))
    found, _ = _find_platform(catalog, str(priced))
    if len(found) != 1 or found[0][0] == "model":
        raise NotFoundError("GPU", str(priced), catalog.closest("gpus", str(priced)))
    return [*named, found[0]], [*spans, span]


#: a memory size or form factor written right after a GPU's name ("A100 40GB", "H100 with
#: 96 GB", "A100 PCIe", "H200 NVL")
_VARIANT = re.compile(r"\s*(?:with\s+|-)?(?:(\d+)\s*gb\b(?!\s*/\s*s|ps)|(pcie|nvl|sxm\d?)\b)")


def _refuse_other_variant(
    catalog: Catalog, low: str, named: list[tuple[str, str]], spans: list[tuple[int, int]]
) -> None:
    """A GPU named with a memory size or form factor its catalog entry lacks ("H100 96GB" when
    the catalog has the 80 GB part, "A100 PCIe" when it has the SXM one) is another part:
    refused, never sized as the part the name matched."""
    for (kind, eid), (start, end) in zip(named, spans, strict=True):
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


def _quoted(text: str, limit: int = 120) -> str:
    """The request as an error quotes it: one line, cut short."""
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 3] + "...")


def parse_request(catalog: Catalog, text: str) -> DesignRequest:
    """Read a free-text request. Raises RequestError when nothing usable or contradictory."""
    if not text or not text.strip():
        raise RequestError(
            "the request is empty", hint='say what you need, e.g. "512 GPUs training, 5 MW"'
        )
    if len(text) > MAX_REQUEST_CHARS:
        raise RequestError(
            f"the request is {len(text):,} characters, over the limit of {MAX_REQUEST_CHARS:,}",
            hint="say what you need in a paragraph; put structured fields in a request file",
            field="text",
            value=len(text),
            limit=MAX_REQUEST_CHARS,
        )
    r = _Reading(catalog, text)
    for rule in RULES[: len(MONEY_RULES)]:  # "$2 per H800 GPU-hour" holds a GPU's name
        _read_rule(r, rule)
    named, spans = _find_platform(catalog, r.low, r.used)
    named, spans = _with_priced_gpu(catalog, r, named, spans)
    _refuse_other_variant(catalog, r.low, named, spans)
    named, spans, old = _replaced(r, named, spans)
    _read_platforms(r, named, spans)
    _read_pod(r)
    _read_storage(r)
    _read_scoped(r, [*exclusions(r.low, r.used), *rack_limits(r.low, r.used)])
    for rule in RULES[len(MONEY_RULES) :]:
        _read_rule(r, rule)
    if "power_cap_w" in r.fields and "power_cap_basis" not in r.fields:
        basis = cap_basis(r.low, r.used, r.phrases["power_cap_w"])
        _read_scoped(r, [basis] if basis else [])
    if "power_cap_w" in r.fields:
        words = cap_words(r.low, r.used, r.phrases["power_cap_w"])
        if words:
            r.take(words.start, words.end, words.note)
    to_tokens(r.fields, r.phrases, serving_defaults(catalog))
    if "gpus" not in r.fields and "nodes" not in r.fields:
        _read_su_count(r, named)
    if "gpus" not in r.fields and "nodes" not in r.fields:
        platform = r.fields.get("platform")
        beside = _read_bare_count(
            r,
            named if old is None else [old[0], *named],
            spans if old is None else [old[1], *spans],
        )
        if old is not None and beside == old[0]:
            _one_for_one(r, old[0], platform)
    _resolve_members(r)
    _budget_meaning(r)
    _context_meaning(r)
    _data_meaning(r)
    r.fields["understood"] = r.understood
    r.fields["not_understood"] = r.leftovers()
    _refuse_unknown_model(catalog, r)
    _refuse_moe_without_active(r)
    _refuse_unknown_product(catalog, r)
    if not any(k in r.fields for k in SIZE_FIELDS) and not sizes_workload(r.fields):
        _refuse_pod_count(r)
        _refuse_unsized_job(r)
        raise RequestError(
            f"nothing to size in {_quoted(text)}: no GPU count, node count, power cap, capital "
            "budget or workload",
            hint='say e.g. "512 GPUs training, 5 MW" or "train a 70B model on 15T tokens in '
            '60 days"',
        )
    if r.fields.get("cooling") == "air":
        _refuse_air_for_liquid(catalog, r.fields)
    return validated(DesignRequest, r.fields, phrases=r.phrases)


def _read_scoped(r: _Reading, found: list[Found]) -> None:
    """Readings of the scope passes (`request.scope`): an exclusion, a rack limit, a cap's
    basis. Two different values for one field contradict, as two rule readings do."""
    for f in found:
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


def _refuse_unsized_job(r: _Reading) -> None:
    """A model to train or fine-tune and nothing else: the job's size is its tokens and time."""
    model = r.fields.get("model") or (
        f"a {r.fields['model_params_b']:g}B model" if r.fields.get("model_params_b") else None
    )
    job = r.fields.get("workload") or next(iter(r.members.get("workload", set())), None)
    if model is None or job not in {"training", "fine-tuning"}:
        return
    raise RequestError(
        f"{'training' if job == 'training' else 'fine-tuning'} {model} has no size: the "
        "request gives no token count and time, GPU count, power cap or budget",
        hint="add the tokens and days, e.g. 'on 1B tokens in 2 days', or a GPU count",
    )


#: "2 SuperPODs", "a BasePOD": a count of pods, which have no one size
_POD_COUNT = re.compile(
    r"(?<![\w.])(\d+|a|an|one|two|three|four|five|six|eight|ten)\s+(?:nvidia\s+)?(?:dgx\s+)?"
    r"(superpod|basepod)s?\b"
)


def _refuse_pod_count(r: _Reading) -> None:
    """A count of SuperPODs or BasePODs is the only size given: a pod is built from scalable
    units (a SuperPOD) or 2 to 16 nodes (a BasePOD), so it has no one size to multiply."""
    m = _POD_COUNT.search(r.low)
    if m is None:
        return
    platform = r.fields.get("platform") or "dgx-b200"
    if m.group(2) == "superpod":
        what, hint = "a DGX SuperPOD is built from scalable units", f"'4 SU of {platform}'"
    else:
        sizes = [
            (a.min_nodes, a.max_nodes)
            for a in r.catalog.all("architectures", Architecture)
            if "basepod" in a.id and a.max_nodes
        ]
        low, high = min(s[0] or 1 for s in sizes), max(s[1] or 0 for s in sizes)
        what = f"a DGX BasePOD holds {low} to {high} DGX systems"
        hint = f"'8 {platform} systems'"
    raise RequestError(f"{m.group(0)!r} has no one size: {what}", hint=f"say how many, e.g. {hint}")


def _serving(r: _Reading) -> bool:
    return r.fields.get("workload") == "inference" or "output_tokens_per_s" in r.fields


def _reread(r: _Reading, src: str, dst: str, words: str) -> None:
    """A reading whose field depends on the whole request moves to the field it turned out to
    be, and its note says what it was read as."""
    r.fields[dst] = r.fields.pop(src)
    phrase = r.phrases.pop(src)
    r.phrases.setdefault(dst, phrase)
    head = f"{phrase!r} ->"
    r.understood = [f"{head} {words}" if u.startswith(head) else u for u in r.understood]


def _data_meaning(r: _Reading) -> None:
    """The data the request names ("video", "ImageNet", "NLP") sets the storage tier NVIDIA's
    Table 5 gives it, unless the request states a tier: the stated one stands."""
    if "_data_tier" not in r.fields:
        return
    if "storage_tier" in r.fields:
        r.fields.pop("_data_tier")
        r.phrases.pop("_data_tier", None)
        return
    tier = r.fields["_data_tier"]
    _reread(r, "_data_tier", "storage_tier", f"{tier} storage tier (the data's, H100 RA Table 5)")


def _context_meaning(r: _Reading) -> None:
    """A context length ("8k context") is the training sequence, or for a serving request the
    prompt length it must hold (the output's share is unknown, so the whole context, the most)."""
    if "_context" not in r.fields:
        return
    n = r.fields["_context"]
    field, words = (
        ("isl_tokens", f"input length {n:,} tokens (a served context read as its prompt)")
        if _serving(r)
        else ("sequence_tokens", f"sequence {n} tokens")
    )
    if r.fields.get(field, n) != n:  # an explicit input or sequence length was given: it stands
        r.fields.pop("_context")
        return
    _reread(r, "_context", field, words)


#: an hourly price makes a budget one of GPU-hours; so does a model to train, not to serve
_HOURLY = ("price_per_gpu_hour", "price_per_node_hour")
_JOB = ("model", "model_params_b")


#: words that say the cluster is bought, not rented by the hour
_OWNED = re.compile(
    r"\bon[- ]?prem(?:ise|ises)?\b|\bcapex\b|\bpurchas(?:e|ing)\b|\bbuy(?:ing)?\b"
    r"|\bown(?:ed)?\s+(?:cluster|hardware|data\s*cent(?:er|re))\b"
)


def _budget_meaning(r: _Reading) -> None:
    """A bare budget ("$50M, 10 MW") with no job to spend GPU-hours on and no hourly price is
    a capital budget: the most the cluster's hardware may cost. A serving cluster runs without
    end, and a cluster the customer owns ("on-prem", "buy", "capex") is bought, so their
    budget buys hardware unless the request prices GPU-hours."""
    serving = _serving(r)
    owned = _OWNED.search(r.low) is not None
    job = any(k in r.fields for k in _JOB) and not serving and not owned
    if "budget_usd" not in r.fields or job or any(k in r.fields for k in _HOURLY):
        return
    usd = r.fields["budget_usd"]
    if r.fields.get("capital_budget_usd", usd) != usd:
        raise RequestError(
            f"the request gives two capital budgets ({r.phrases['capital_budget_usd']!r} and "
            f"{r.phrases['budget_usd']!r})",
            hint="state it once",
        )
    why = (
        "a serving cluster"
        if serving
        else "a cluster to own"
        if owned
        else "no model to buy GPU-hours for"
    )
    _reread(r, "budget_usd", "capital_budget_usd", f"capital budget ${usd:,.0f} ({why})")


#: "replace our 256 A100s with H200s", "upgrade 32 DGX A100 to DGX B200", "swap the H100s for
#: B200s": the verb before the first name, the word joining it to the second
_REPLACE_VERB = re.compile(
    r"\b(?:replac(?:e|es|ing)|swap(?:ping)?(?:\s+out)?|upgrad(?:e|es|ing)|migrat(?:e|es|ing)"
    r"|mov(?:e|es|ing)|refresh(?:es|ing)?)\b(?=[^.;!?]*$)"
)
_REPLACE_JOIN = re.compile(r"^[^.;!?]{0,40}?\b(?:with|by|to|for|into)\b[^.;!?]{0,20}$")


def _replaced(
    r: _Reading, named: list[tuple[str, str]], spans: list[tuple[int, int]]
) -> tuple[
    list[tuple[str, str]], list[tuple[int, int]], tuple[tuple[str, str], tuple[int, int]] | None
]:
    """A fleet replaced by another ("replace our 256 A100s with H200s"): the design is the new
    one and the old name is read as what it replaces; a count written with the old one counts
    GPUs replaced one for one (`_one_for_one`). Returns the names left to read as the platform,
    their spans, and the old name with its span (None when nothing is replaced)."""
    platforms = [i for i, (kind, _) in enumerate(named) if kind != "model"]
    for old, new in itertools.pairwise(platforms):
        (s_old, e_old), (s_new, _) = spans[old], spans[new]
        verb = _REPLACE_VERB.search(r.low[:s_old])
        if not verb or not _REPLACE_JOIN.match(r.low[e_old:s_new]) or named[old] == named[new]:
            continue
        eid = named[new][1]
        r.take(s_old, e_old, f"{r.low[s_old:e_old]!r} -> replaced by {eid} (the design is for it)")
        r.take(verb.start(), verb.end(), f"{verb.group(0)!r} -> the design replaces a fleet")
        keep = [i for i in range(len(named)) if i != old]
        return [named[i] for i in keep], [spans[i] for i in keep], (named[old], spans[old])
    return named, spans, None


def _one_for_one(r: _Reading, old: tuple[str, str], platform: object) -> None:
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
    if not isinstance(nodes, int) or not per_node:
        return  # GPUs counted, or nodes of a GPU named alone: as many of the new ones
    del r.fields["nodes"]
    r.fields["gpus"] = nodes * per_node
    r.understood.append(
        f"{plural(nodes, f'{system} node')} replaced one for one by GPU -> "
        f"{nodes * per_node:,} GPUs"
    )


def _read_platforms(
    r: _Reading, named: list[tuple[str, str]], spans: list[tuple[int, int]]
) -> None:
    """The catalog GPUs and systems the text names (one of each at most)."""
    for kind, eid in named:
        key = {"system": "platform", "gpu": "gpu", "model": "model"}[kind]
        if key in r.fields and r.fields[key] != eid:
            raise RequestError(
                f"the request names two {key}s ({r.fields[key]} and {eid})",
                hint="a design uses one GPU platform; run one request per platform",
            )
        r.fields[key] = eid
    for (s, e), (kind, eid) in zip(spans, named, strict=True):
        unit_word = UNIT_WORD.match(r.low, e) if kind == "system" else None
        if unit_word:  # "64 DGX B200 nodes": the word names what the count counts
            e = unit_word.end()
        note = f"{r.low[s:e]!r} -> {'platform' if kind == 'system' else kind} {eid}"
        if kind == "model":
            note += _family_size_reason(r, s, e)
        r.take(s, e, note)


def _read_pod(r: _Reading) -> None:
    """A GPU named with "SuperPOD" or "BasePOD" and no system: the DGX system those RAs use."""
    gpu = r.fields.get("gpu")
    if not isinstance(gpu, str) or "platform" in r.fields:
        return
    pod = pod_platform(r.catalog, r.low, r.used, gpu)
    if pod is not None:
        r.fields["platform"] = pod.system
        r.take(pod.start, pod.end, pod.note)


def _read_storage(r: _Reading) -> None:
    """The storage system named by class or product ("Lustre", "WEKA"): a word set, so two
    different ones contradict as two fabrics do (`_resolve_members`)."""
    for system, product, start, end in named_storage(r.catalog, r.low, r.used):
        r.members.setdefault("storage_system", set()).add(system)
        r.take(start, end, f"{r.low[start:end]!r} -> storage system {system} ({product})")


def _family_size_reason(r: _Reading, start: int, end: int) -> str:
    """The reason a model named by family and size alone ("llama 70b") reads as one version."""
    derived = family_size_names(r.catalog)
    hit = derived.get(normalise_name(r.low[start:end]))
    return f" ({hit[1]})" if hit else ""


def _read_bare_count(
    r: _Reading, named: list[tuple[str, str]], spans: list[tuple[int, int]]
) -> tuple[str, str] | None:
    """A bare count before a platform name: "512 H100s" (GPUs), "16 DGX B200" (nodes), "a single
    DGX H100", "one GB200 NVL72 rack" (a system's count in words or racks). Returns the name the
    count was read beside."""
    for (s, e), name in zip(spans, named, strict=True):
        kind, eid = name
        if kind == "model":
            continue
        unit = UNIT_WORD.match(r.low, e)
        # "a"/"an" is a count only when nothing else sizes the request
        articles = "power_cap_w" not in r.fields and not sizes_workload(r.fields)
        count = count_before(r.low, s, e, unit.group(0).strip() if unit else None, articles)
        if count is None or (kind != "system" and not re.search(r"\d", count.words)):
            continue
        n = count.value
        if kind == "system" and _GPU_WORD.match(r.low, e):  # "64 GB200 NVL72 GPUs": GPUs
            kind = "gpu"
        if kind == "system":
            words = (unit.group(0) if unit else r.low[s:e]).strip()
            if words.endswith(("rack", "racks")) or re.search(r"\bracks?\b", count.words):
                n, basis = racks_to_nodes(r.catalog, eid, n)
                note = f"{count.words!r} -> {plural(n, eid + ' node')}: {basis}"
            else:
                note = f"{count.words!r} -> {plural(n, eid + ' node')}"
            r.fields["nodes"] = n
        else:
            note = _gpu_count(r, eid, n, f"{count.words} {unit.group(0).strip() if unit else ''}")
        r.take(count.start, count.end if unit is None else max(count.end, unit.end()), note)
        return name
    return None


def _gpu_count(r: _Reading, gpu: str, n: int, words: str) -> str:
    """A count beside a GPU's name, by the unit its words give: GPUs ("512 H100s"), nodes ("16
    H100 servers", "4 nodes of H200"), or racks ("3 racks of GB200"), which count the nodes of
    the GPU's one rack-scale system; a rack of a GPU with no such system holds as many nodes as
    the system chosen makes it, so the request must name one."""
    unit = _UNITS_IN.search(words)
    if unit is None:
        r.fields["gpus"] = n
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
    return f"{words.strip()!r} -> {plural(n, racks[0] + ' node')}: {basis}"


#: the unit a count beside a GPU's name gives: none is GPUs
_UNITS_IN = re.compile(r"\b(?:nodes?|systems?|servers?|boxes|racks?)\b")


#: a GPU word right after a system's name: the count before it counts GPUs
_GPU_WORD = re.compile(r"\s*(?:gpus?|accelerators?)\b")


def _read_su_count(r: _Reading, named: list[tuple[str, str]]) -> None:
    """A count of scalable units of the named system ("DGX H100 4 SU"): its nodes as the RA
    builds that many SUs."""
    count = su_count(r.low)
    if count is None or any(r.used[count.start : count.end]):
        return
    system = next((eid for kind, eid in named if kind == "system"), r.fields.get("platform"))
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
    r.take(count.start, count.end, f"{count.words!r} -> {plural(nodes, system + ' node')}: {basis}")


def _model_words(catalog: Catalog) -> frozenset[str]:
    """The first word of every catalog model's family and names: a request using one of them
    that matched no model names a model the catalog lacks."""

    def build() -> frozenset[str]:
        words: set[str] = set()
        for m in catalog.all("models", LanguageModel):
            for name in (m.family, m.name):
                first = re.split(r"[\s_-]+", name.lower())[0]
                if len(first) >= 4 and not first[0].isdigit():
                    words.add(re.sub(r"\d+$", "", first))
        return frozenset(words)

    return cached(catalog, ("model-words",), build)


_MOE = re.compile(r"\bmoe\b|\bmixture[- ]of[- ]experts?\b")


def _refuse_moe_without_active(r: _Reading) -> None:
    """A mixture of experts given only its total size computes with its active parameters, which
    the text does not give: sized as dense it would be tens of times too big, so it is refused
    with what to add (a catalog MoE carries its own active count)."""
    if "model" in r.fields or "active_params_b" in r.fields or "model_params_b" not in r.fields:
        return
    if _MOE.search(r.low):
        total = r.fields["model_params_b"]
        raise RequestError(
            f"a {total:g}B mixture of experts is sized by the parameters active per token, and "
            "the request does not give them",
            hint=f'say e.g. "a {total:g}B MoE with 32B active", or name a catalog model',
            field="active_params_b",
        )


def _refuse_unknown_model(catalog: Catalog, r: _Reading) -> None:
    """A model family word the name finder left over ("llama 5 900b"): refuse it with the
    closest catalog models rather than size some other model."""
    if "model" in r.fields:
        return
    families = _model_words(catalog)
    for w in re.finditer(r"[a-z][a-z0-9.+-]*", r.low):
        if any(r.used[w.start() : w.end()]):
            continue
        if any(w.group(0).startswith(f) for f in families):
            phrase = _name_phrase(r.low[w.start() :])
            raise NotFoundError("model", phrase, catalog.closest("models", phrase))


def _name_phrase(text: str) -> str:
    """The words that name a model at the start of the text ("llama 5 900b, what ..." ->
    "llama 5 900b"): up to three, ending at punctuation or a common word."""
    kept: list[str] = []
    for word in text.split()[:3]:
        bare = word.strip(" ,.;:?!")
        if kept and (not bare or bare in FILLER):
            break
        kept.append(bare)
        if bare != word:
            break
    return " ".join(kept)


def _refuse_unknown_product(catalog: Catalog, r: _Reading) -> None:
    """A count of GPUs or servers of a model the catalog lacks ("2048 H800 GPUs"): refuse it with
    the closest catalog entries rather than drop the count and size some other platform."""
    for m in _COUNTED_PRODUCT.finditer(r.low):
        g = 1 if m.group(1) else 3
        word = m.group(g)
        if any(r.used[m.start(g) : m.end(g)]) or not any(c.isdigit() for c in word):
            continue
        if g == 3 or m.group(2).startswith(("gpu", "accel")):
            raise NotFoundError("GPU", word, catalog.closest("gpus", word))
        raise NotFoundError("platform", word, catalog.closest("systems", word))
    _refuse_unknown_named_gpu(catalog, r)


#: a GPU model's name after "on", "with", "using" ("on L4", "using MI250X", "with 4090s"):
#: a few letters, then digits
_NAMED_GPU = re.compile(
    r"\b(?:on|with|using|across|of)\s+(?:nvidia\s+|amd\s+|intel\s+)?"
    r"((?:[a-z]{1,4})?\d{1,4}[a-z]{0,3}?)s?(?![\w.+-])"
)


#: a word of a catalog name
_NAME_WORD = re.compile(r"[a-z0-9.+]+")


def _name_words(catalog: Catalog) -> frozenset[str]:
    """Every word of every catalog entry's names ("nvl72", "hgx", "b200", "sn5610", "cx7")."""

    def build() -> frozenset[str]:
        words: set[str] = set()
        for rows in catalog.entries.values():
            for e in rows.values():
                for name in (
                    getattr(e, "id", ""),
                    getattr(e, "name", ""),
                    *getattr(e, "aliases", []),
                ):
                    words.update(_NAME_WORD.findall(str(name).lower()))
        return frozenset(words)

    return cached(catalog, ("name-words",), build)


def _refuse_unknown_named_gpu(catalog: Catalog, r: _Reading) -> None:
    """A GPU named without a count that the catalog lacks ("serve 8B on L4") is refused with the
    closest entries: sizing the default GPU instead would answer another question."""
    for m in _NAMED_GPU.finditer(r.low):
        word = m.group(1)
        if any(r.used[m.start(1) : m.end(1)]) or word[0].isdigit():
            continue
        # the catalog's words are gathered only for a request that names such a word (~4 ms
        # of a first parse; most requests name none)
        if word in _name_words(catalog):
            continue
        raise NotFoundError("GPU", word, catalog.closest("gpus", word))


def _resolve_members(r: _Reading) -> None:
    """Word sets to fields: two fabrics, coolings or layouts contradict; several workloads are
    a mixed workload."""
    for field, (message, hint) in CONFLICTS.items():
        values = r.members.get(field, set())
        if len(values) > 1:
            raise RequestError(message.format(values=", ".join(sorted(values))), hint=hint)
    workloads = r.members.get("workload", set())
    if len(workloads) > 1:
        r.members["workload"] = {"mixed"}
    for field in (*CONFLICTS, "workload"):
        if r.members.get(field):
            r.fields[field] = r.members[field].pop()


def _refuse_air_for_liquid(catalog: Catalog, fields: dict[str, object]) -> None:
    """An air-cooled request naming a platform that only comes liquid-cooled contradicts itself."""
    if fields.get("platform"):
        systems = [catalog.system(str(fields["platform"]))]
    elif fields.get("gpu"):
        systems = [
            s for s in catalog.all("systems", System) if s.gpu == fields["gpu"] and s.gpus_per_node
        ]
    else:
        return
    if systems and all(s.cooling == "liquid" for s in systems):
        names = ", ".join(s.id for s in systems)
        raise RequestError(
            f"the request asks for air cooling but {names} is liquid-cooled only",
            hint="drop 'air-cooled' or pick an air-cooled platform (e.g. DGX B200)",
        )
