"""Free text (or a YAML file) in, a typed `DesignRequest` out.

The parser is deliberately plain: regular expressions over the text and the catalog's own names for
GPUs and systems. Whatever it reads is recorded with the words it came from; whatever it cannot
read is reported, never dropped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Gpu, System, normalise_name
from clustergen.engine.storage import Layout
from clustergen.errors import RequestError

Workload = Literal["training", "fine-tuning", "inference", "mixed"]
Fabric = Literal["infiniband", "ethernet"]
Cooling = Literal["air", "liquid"]
Tier = Literal["good", "better", "best"]


class DesignRequest(BaseModel):
    """What the customer asked for. Every field is optional; the planner fills and reports gaps."""

    model_config = ConfigDict(extra="forbid")

    text: str | None = Field(default=None, description="the request as written")
    gpus: int | None = Field(default=None, ge=1, le=10_000_000)
    nodes: int | None = Field(default=None, ge=1)
    power_cap_w: float | None = Field(
        default=None, gt=0, le=1e10, description="at most 10 GW: larger reads as a unit slip"
    )
    power_cap_basis: Literal["it", "facility"] | None = None
    pue: float | None = Field(default=None, ge=1.0, le=3.0)
    workload: Workload | None = None
    gpu: str | None = Field(default=None, description="GPU id")
    platform: str | None = Field(default=None, description="system id")
    fabric: Fabric | None = None
    oversubscription: float | None = Field(default=None, ge=1.0, le=16.0)
    rack_power_kw: float | None = Field(default=None, gt=0, le=1000)
    cooling: Cooling | None = None
    storage_tier: Tier | None = None
    model_params_b: float | None = Field(default=None, gt=0, description="billions of parameters")
    training_tokens_t: float | None = Field(default=None, gt=0, description="trillions of tokens")
    dataset_layout: Layout | None = Field(
        default=None, description="how the training data is stored"
    )
    sample_mb: float | None = Field(
        default=None, gt=0, le=1e6, description="one sample (one file) in MB, 1 GB = 1000 MB"
    )
    checkpoint_gb: float | None = Field(
        default=None, gt=0, le=1e7, description="one training checkpoint in GB"
    )
    understood: list[str] = Field(default_factory=list, description="phrase -> field, as read")
    not_understood: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _pue_needs_facility(self) -> DesignRequest:
        if self.power_cap_w is None and self.power_cap_basis is not None:
            raise ValueError("power_cap_basis given without power_cap_w")
        return self


_NUM = r"(?<![\w.])(\d[\d,]*(?:\.\d+)?)\s*([km])?"
_MULT = {None: 1.0, "": 1.0, "k": 1e3, "m": 1e6}

_RULES: list[tuple[str, re.Pattern[str]]] = [
    ("pue", re.compile(r"\bpue\s*(?:of|=|:|at)?\s*(\d+(?:\.\d+)?)")),
    (
        "rack",
        re.compile(
            r"(?<![\w.])(\d+(?:\.\d+)?)\s*kw\s*(?:/|per)?\s*racks?\b"
            r"|racks?\s*(?:of|at|limited to|<=?|up to)?\s*(\d+(?:\.\d+)?)\s*kw\b"
        ),
    ),
    (
        "power",
        re.compile(
            # "IT load 4.2 MW", "facility 6.5 MW", "5 MW IT", "10 MW of critical power"
            r"(?:\b(?:(it|critical)\s+(?:power|load)|(facility|total|utility|grid)(?:\s+(?:power|load))?)"
            r"\s*(?:cap|budget|limit|envelope)?\s*(?:of|:|=|is)?\s*)?"
            r"(?<![\w.])(\d+(?:\.\d+)?)\s*(gw|gigawatts?|mw|megawatts?|kw|kilowatts?)\b"
            r"(?:\s*(?:of\s+)?(it|critical|facility|total|utility|grid)(?:\s+(?:power|load))?)?"
        ),
    ),
    (
        "ratio",
        re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*:\s*(\d+(?:\.\d+)?)\b(?:\s*oversubscri\w*)?"),
    ),
    ("nonblocking", re.compile(r"\bnon[- ]?blocking\b|\bfull[- ]?fat[- ]?tree\b")),
    (
        "checkpoint",
        re.compile(
            r"(?<![\w.])(\d+(?:\.\d+)?)\s*(gb|tb)\s*(?:checkpoints?|ckpts?)\b"
            r"|\bcheckpoints?\s*(?:of|size|=|:)?\s*(\d+(?:\.\d+)?)\s*(gb|tb)\b"
        ),
    ),
    (
        "sample",
        re.compile(
            r"(?<![\w.])(\d+(?:\.\d+)?)\s*(kb|mb|gb)\s*(?:samples?|files?|images?|records?)\b"
            r"|\bsamples?\s*(?:of|size|=|:)?\s*(\d+(?:\.\d+)?)\s*(kb|mb|gb)\b"
        ),
    ),
    (
        "layout_files",
        re.compile(
            r"\bone\s+file\s+per\s+sample\b|\bfile[- ]per[- ]sample\b"
            r"|\b(?:individual|small|many)\s+files\b"
        ),
    ),
    ("layout_shards", re.compile(r"\bshard(?:s|ed)?\b|\bwebdataset\b|\btfrecords?\b")),
    ("layout_object", re.compile(r"\bobject\s*(?:store|storage)\b|\bs3\b")),
    ("tokens", re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*([tbm])\s*tokens?\b")),
    (
        "model",
        re.compile(
            r"(?<![\w.])(\d+(?:\.\d+)?)\s*([bt])\b(?:[- ]?param(?:eter)?s?)?(?:\s*(?:llm|model|moe))?"
        ),
    ),
    ("gpus", re.compile(_NUM + r"\s*(?:x\s*)?(?:gpus?|accelerators?)\b")),
    ("nodes", re.compile(_NUM + r"\s*(?:x\s*)?(?:nodes?|servers?|systems?)\b")),
    (
        "tier",
        re.compile(
            r"\b(good|better|best)\b(?:\s*(?:tier\s*)?storage|\s*tier)?|storage\s*(?:tier\s*)?(good|better|best)"
        ),
    ),
    (
        "fabric_ib",
        re.compile(r"\binfini\s*band\b|\bib\b|\bndr\b|\bxdr\b|\bquantum(?:-?x800|-?2)?\b"),
    ),
    ("fabric_eth", re.compile(r"\bspectrum[- ]?x\b|\bethernet\b|\broce\b")),
    (
        "cool_liquid",
        re.compile(r"\b(?:direct[- ])?liquid(?:[- ]cool(?:ed|ing))?\b|\bdlc\b"),
    ),
    ("cool_air", re.compile(r"\bair(?:[- ]cool(?:ed|ing))?\b")),
    ("w_train", re.compile(r"\b(?:pre-?)?train(?:ing|s)?\b")),
    ("w_ft", re.compile(r"\bfine[- ]?tun(?:e|ing)\b|\bsft\b|\blora\b")),
    ("w_inf", re.compile(r"\binferenc(?:e|ing)\b|\bserving\b|\binference[- ]heavy\b")),
    ("w_mixed", re.compile(r"\bmixed\b")),
]

_FILLER = {
    "a",
    "an",
    "the",
    "and",
    "or",
    "of",
    "for",
    "with",
    "to",
    "in",
    "on",
    "at",
    "by",
    "as",
    "is",
    "are",
    "be",
    "we",
    "need",
    "want",
    "wants",
    "needs",
    "cluster",
    "clusters",
    "gpu",
    "gpus",
    "design",
    "build",
    "please",
    "using",
    "use",
    "under",
    "within",
    "budget",
    "cap",
    "capped",
    "power",
    "racks",
    "rack",
    "storage",
    "tier",
    "fabric",
    "network",
    "networking",
    "workload",
    "workloads",
    "scale",
    "about",
    "around",
    "approximately",
    "roughly",
    "up",
    "max",
    "maximum",
    "total",
    "some",
    "new",
    "our",
    "my",
    "plus",
    "also",
    "that",
    "which",
    "only",
    "per",
    "it",
    "critical",
    "facility",
    "envelope",
    "datacenter",
    "data",
    "center",
    "hall",
    "site",
    "model",
    "models",
    "params",
    "parameters",
    "dense",
    "sparse",
    "oversubscribed",
    "oversubscription",
    "non",
    "blocking",
    "how",
    "many",
    "much",
    "fit",
    "fits",
    "can",
    "what",
    "load",
    "into",
    "most",
    "give",
    "me",
    "over",
    "dataset",
    "datasets",
}


#: what each field is called in an error message
_NAMES = {
    "gpus": "GPU count",
    "nodes": "node count",
    "power_cap_w": "power cap",
    "pue": "PUE",
    "rack_power_kw": "rack power limit",
    "oversubscription": "oversubscription",
    "model_params_b": "model size",
    "training_tokens_t": "token count",
    "storage_tier": "storage tier",
    "checkpoint_gb": "checkpoint size",
    "sample_mb": "sample size",
}

#: a word after a system's name that says the count before it counts systems
_UNIT_WORD = re.compile(r"\s*(?:nodes?|systems?|servers?|boxes|racks?)\b")


def _num(text: str) -> float:
    value = float(text.replace(",", ""))
    if not value < 1e15:  # also catches inf from a thousand-digit number
        raise RequestError(f"{text} is too large a number for a cluster")
    return value


def _platform_names(catalog: Catalog) -> list[tuple[str, str, str]]:
    """(normalised name, kind, id) for systems and GPUs, longest first so 'gb200 nvl72' beats 'gb200'."""
    names: list[tuple[str, str, str]] = []
    for s in catalog.all("systems", System):
        if s.gpus_per_node:
            names += [(n, "system", s.id) for n in s.names() if len(n) >= 3]
    for g in catalog.all("gpus", Gpu):
        names += [(n, "gpu", g.id) for n in g.names() if len(n) >= 3]
    return sorted(set(names), key=lambda t: -len(t[0]))


def _find_platform(
    catalog: Catalog, text: str
) -> tuple[list[tuple[str, str]], list[tuple[int, int]]]:
    """Catalog GPUs and systems named in the text, with the character spans they used."""
    found: list[tuple[str, str]] = []
    spans: list[tuple[int, int]] = []
    # Candidate phrases: 1 to 4 consecutive words, normalised as catalog names are.
    words = list(re.finditer(r"[a-z0-9][a-z0-9.+-]*", text))
    table = {n: (k, i) for n, k, i in _platform_names(catalog)}
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


def parse_request(catalog: Catalog, text: str) -> DesignRequest:
    """Read a free-text request. Raises RequestError when nothing usable or contradictory."""
    if not text or not text.strip():
        raise RequestError(
            "the request is empty", hint='say what you need, e.g. "512 GPUs training, 5 MW"'
        )
    low = text.lower().replace("×", "x")
    fields: dict[str, object] = {"text": text.strip()}
    understood: list[str] = []
    used = [False] * len(low)

    def take(m: re.Match[str], note: str) -> None:
        for k in range(m.start(), m.end()):
            used[k] = True
        understood.append(f"{m.group(0).strip()!r} -> {note}")

    phrases: dict[str, str] = {}

    def set_once(key: str, value: object, m: re.Match[str], note: str) -> None:
        phrase = m.group(0).strip()
        start = m.start()
        if start and low[start - 1] == "-" and (start < 2 or not low[start - 2].isalnum()):
            raise RequestError(
                f"{'-' + phrase!r} is negative", hint=f"give a positive {_NAMES.get(key, key)}"
            )
        if key in fields and fields[key] != value:
            raise RequestError(
                f"the request gives two {_NAMES.get(key, key)} values "
                f"({phrases[key]!r} and {phrase!r})",
                hint="state it once",
            )
        fields[key] = value
        phrases[key] = phrase
        take(m, note)

    named, spans = _find_platform(catalog, low)
    for kind, eid in named:
        key = "platform" if kind == "system" else "gpu"
        if key in fields and fields[key] != eid:
            raise RequestError(
                f"the request names two {key}s ({fields[key]} and {eid})",
                hint="a design uses one GPU platform; run one request per platform",
            )
        fields[key] = eid
    for (s, e), (kind, eid) in zip(spans, named, strict=True):
        unit_word = _UNIT_WORD.match(low, e) if kind == "system" else None
        if unit_word:  # "64 DGX B200 nodes": the word names what the count counts
            e = unit_word.end()
        for k in range(s, e):
            used[k] = True
        understood.append(f"{low[s:e]!r} -> {'platform' if kind == 'system' else 'gpu'} {eid}")

    workloads: set[str] = set()
    fabrics: set[str] = set()
    coolings: set[str] = set()
    layouts: set[str] = set()
    for rule, pattern in _RULES:
        for m in pattern.finditer(low):
            if any(used[m.start() : m.end()]):
                continue
            if rule == "pue":
                set_once("pue", float(m.group(1)), m, "pue")
            elif rule == "rack":
                kw = float(m.group(1) or m.group(2))
                set_once("rack_power_kw", kw, m, f"rack limit {kw:g} kW")
            elif rule == "power":
                unit = m.group(4)[0]
                watts = float(m.group(3)) * {"g": 1e9, "m": 1e6, "k": 1e3}[unit]
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
                set_once("power_cap_w", watts, m, f"power cap {watts / 1e6:g} MW")
                if bases:
                    fields["power_cap_basis"] = bases.pop()
            elif rule == "ratio":
                a, b = float(m.group(1)), float(m.group(2))
                if b == 0 or a / b < 1:
                    raise RequestError(
                        f"oversubscription {m.group(0)!r} is below 1:1", hint="use 1:1 or 2:1"
                    )
                set_once("oversubscription", a / b, m, f"oversubscription {a / b:g}:1")
            elif rule == "nonblocking":
                set_once("oversubscription", 1.0, m, "oversubscription 1:1")
            elif rule == "model":
                scale = 1.0 if m.group(2) == "b" else 1e3
                set_once("model_params_b", float(m.group(1)) * scale, m, "model size")
            elif rule == "checkpoint":
                size = float(m.group(1) or m.group(3))
                unit = m.group(2) or m.group(4)
                gb = size * (1000.0 if unit == "tb" else 1.0)
                set_once("checkpoint_gb", gb, m, f"checkpoint {gb:g} GB")
            elif rule == "sample":
                size = float(m.group(1) or m.group(3))
                unit = m.group(2) or m.group(4)
                mb = size * {"kb": 1e-3, "mb": 1.0, "gb": 1e3}[unit]
                set_once("sample_mb", mb, m, f"sample {mb:g} MB")
            elif rule.startswith("layout_"):
                layouts.add(
                    {
                        "layout_files": "one-file-per-sample",
                        "layout_shards": "shards",
                        "layout_object": "object-store",
                    }[rule]
                )
                take(m, "dataset layout")
            elif rule == "tokens":
                scale = {"t": 1.0, "b": 1e-3, "m": 1e-6}[m.group(2)]
                set_once("training_tokens_t", float(m.group(1)) * scale, m, "training tokens")
            elif rule == "gpus":
                n = _num(m.group(1)) * _MULT[m.group(2)]
                set_once("gpus", round(n), m, f"{round(n)} GPUs")
            elif rule == "nodes":
                n = _num(m.group(1)) * _MULT[m.group(2)]
                set_once("nodes", round(n), m, f"{round(n)} nodes")
            elif rule == "tier":
                set_once("storage_tier", m.group(1) or m.group(2), m, "storage tier")
            elif rule.startswith("fabric"):
                fabrics.add("infiniband" if rule == "fabric_ib" else "ethernet")
                take(m, "fabric")
            elif rule.startswith("cool"):
                coolings.add("liquid" if rule == "cool_liquid" else "air")
                take(m, "cooling")
            elif rule.startswith("w_"):
                workloads.add(
                    {
                        "w_train": "training",
                        "w_ft": "fine-tuning",
                        "w_inf": "inference",
                        "w_mixed": "mixed",
                    }[rule]
                )
                take(m, "workload")
    # A bare count before a platform name: "512 H100s", "16 DGX B200".
    if "gpus" not in fields and "nodes" not in fields:
        for (s, _e), (kind, eid) in zip(spans, named, strict=True):
            bare = re.search(r"(?<![\w.])(-?)(\d[\d,]*)\s*(?:x\s*)?$", low[:s])
            if bare:
                if bare.group(1) and (bare.start() == 0 or not low[bare.start() - 1].isalnum()):
                    raise RequestError(
                        f"{bare.group(0).strip()!r} is negative", hint="give a positive count"
                    )
                n = int(_num(bare.group(2)))
                if kind == "system":
                    fields["nodes"] = n
                    understood.append(f"{bare.group(0).strip()!r} -> {n} {eid} nodes")
                else:
                    fields["gpus"] = n
                    understood.append(f"{bare.group(0).strip()!r} -> {n} GPUs")
                for k in range(bare.start(2), bare.end()):
                    used[k] = True
                break
    if len(fabrics) > 1:
        raise RequestError(
            "the request asks for both InfiniBand and Ethernet", hint="choose one compute fabric"
        )
    if len(coolings) > 1:
        raise RequestError("the request asks for both air and liquid cooling", hint="choose one")
    if len(layouts) > 1:
        raise RequestError(
            f"the request names more than one dataset layout ({', '.join(sorted(layouts))})",
            hint="choose one: one file per sample, shards or an object store",
        )
    if layouts:
        fields["dataset_layout"] = layouts.pop()
    if len(workloads) > 1:
        workloads = {"mixed"}
    if fabrics:
        fields["fabric"] = fabrics.pop()
    if coolings:
        fields["cooling"] = coolings.pop()
    if workloads:
        fields["workload"] = workloads.pop()
    leftovers = [
        w.group(0)
        for w in re.finditer(r"[a-z0-9][a-z0-9.+-]*", low)
        if not any(used[w.start() : w.end()]) and w.group(0) not in _FILLER
    ]
    fields["understood"] = understood
    fields["not_understood"] = leftovers
    if not any(k in fields for k in ("gpus", "nodes", "power_cap_w")):
        raise RequestError(
            f"nothing to size in {text.strip()!r}: no GPU count, node count or power cap",
            hint='say e.g. "512 GPUs training, 5 MW" or "how many B200 fit in 10 MW"',
        )
    if fields.get("cooling") == "air":
        _refuse_air_for_liquid(catalog, fields)
    try:
        return DesignRequest.model_validate(fields)
    except ValidationError as exc:
        err = exc.errors()[0]
        key = str(err["loc"][0]) if err["loc"] else "request"
        said = phrases.get(key)
        raise RequestError(
            f"{said!r} does not work as the {_NAMES.get(key, key)}: {err['msg'].lower()}"
            if said
            else f"request field {key}: {err['msg'].lower()}",
            hint="check the number and its unit",
        ) from None


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


def _validated(fields: Mapping[str, object]) -> DesignRequest:
    """A DesignRequest, or a RequestError naming the first field out of bounds ("0 GPUs", "PUE 0.5")."""
    try:
        return DesignRequest.model_validate(dict(fields))
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "request"
        value = f" (got {err['input']!r})" if where != "request" and "input" in err else ""
        raise RequestError(f"request field {where}: {err['msg']}{value}") from None


def merge_request(catalog: Catalog, text: str | None, fields: Mapping[str, Any]) -> DesignRequest:
    """A request from free text and/or structured fields; a field given both ways takes the
    structured value. GPU and platform names resolve to catalog ids."""
    base: dict[str, Any] = parse_request(catalog, text).model_dump() if text else {}
    base.update({k: v for k, v in fields.items() if v is not None})
    if not any(base.get(k) for k in ("gpus", "nodes", "power_cap_w")):
        raise RequestError(
            "nothing to size: no GPU count, node count or power cap",
            hint='say e.g. "512 GPUs training, 5 MW", or pass --gpus / --cap-mw',
        )
    return resolve_fields(catalog, base)


def resolve_fields(catalog: Catalog, fields: Mapping[str, Any]) -> DesignRequest:
    """A DesignRequest from structured fields, GPU and platform names looked up forgivingly
    ("H100" finds h100-sxm) so a caller need not know catalog ids."""
    data = {k: v for k, v in fields.items() if v is not None}
    if data.get("gpu"):
        data["gpu"] = catalog.gpu(str(data["gpu"])).id
    if data.get("platform"):
        data["platform"] = catalog.system(str(data["platform"])).id
    return _validated(data)
