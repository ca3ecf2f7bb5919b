"""Free text (or a YAML file) in, a typed `DesignRequest` out.

The parser is deliberately plain: regular expressions over the text and the catalog's own names for
GPUs and systems. Whatever it reads is recorded with the words it came from; whatever it cannot
read is reported, never dropped.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Gpu, System, normalise_name
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
    power_cap_w: float | None = Field(default=None, gt=0)
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
    understood: list[str] = Field(default_factory=list, description="phrase -> field, as read")
    not_understood: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _pue_needs_facility(self) -> DesignRequest:
        if self.power_cap_w is None and self.power_cap_basis is not None:
            raise ValueError("power_cap_basis given without power_cap_w")
        return self


_NUM = r"(\d[\d,]*(?:\.\d+)?)\s*([km])?"
_MULT = {None: 1.0, "": 1.0, "k": 1e3, "m": 1e6}

_RULES: list[tuple[str, re.Pattern[str]]] = [
    ("pue", re.compile(r"\bpue\s*(?:of|=|:)?\s*(\d(?:\.\d+)?)")),
    (
        "rack",
        re.compile(
            r"(\d+(?:\.\d+)?)\s*kw\s*(?:/|per)?\s*racks?\b|racks?\s*(?:of|at|limited to|<=?|up to)?\s*(\d+(?:\.\d+)?)\s*kw"
        ),
    ),
    (
        "power",
        re.compile(
            r"(\d+(?:\.\d+)?)\s*(mw|megawatts?|kw|kilowatts?)\b(?:\s*(?:of\s+)?(it|critical|facility|total|utility|grid)(?:\s+power)?)?"
        ),
    ),
    ("ratio", re.compile(r"\b(\d+(?:\.\d+)?)\s*:\s*(\d+(?:\.\d+)?)\b(?:\s*oversubscri\w*)?")),
    ("nonblocking", re.compile(r"\bnon[- ]?blocking\b|\bfull[- ]?fat[- ]?tree\b")),
    ("tokens", re.compile(r"(\d+(?:\.\d+)?)\s*([tbm])\s*tokens?\b")),
    (
        "model",
        re.compile(
            r"(\d+(?:\.\d+)?)\s*([bt])\b(?:[- ]?param(?:eter)?s?)?(?:\s*(?:llm|model|moe))?"
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
        re.compile(r"\bliquid(?:[- ]cooled|[- ]cooling)?\b|\bdlc\b|\bdirect[- ]liquid\b"),
    ),
    ("cool_air", re.compile(r"\bair(?:[- ]cooled|[- ]cooling)?\b")),
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
}


def _num(text: str) -> float:
    return float(text.replace(",", ""))


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
    said: dict[str, str] = {}  # field -> the words it was read from
    used = [False] * len(low)

    def take(m: re.Match[str], note: str) -> None:
        for k in range(m.start(), m.end()):
            used[k] = True
        understood.append(f"{m.group(0).strip()!r} -> {note}")

    def set_once(key: str, value: object, m: re.Match[str], note: str) -> None:
        if key in fields and fields[key] != value:
            raise RequestError(
                f"the request gives two {key.replace('_', ' ')} values ({fields[key]} and {value})",
                hint="state it once",
            )
        fields[key] = value
        said[key] = m.group(0).strip()
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
        for k in range(s, e):
            used[k] = True
        understood.append(f"{low[s:e]!r} -> {'platform' if kind == 'system' else 'gpu'} {eid}")

    workloads: set[str] = set()
    fabrics: set[str] = set()
    coolings: set[str] = set()
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
                watts = float(m.group(1)) * (1e6 if m.group(2).startswith("m") else 1e3)
                basis = m.group(3)
                set_once("power_cap_w", watts, m, f"power cap {watts / 1e6:g} MW")
                if basis:
                    fields["power_cap_basis"] = "it" if basis in {"it", "critical"} else "facility"
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
            bare = re.search(r"(\d[\d,]*)\s*(?:x\s*)?$", low[:s])
            if bare:
                n = int(_num(bare.group(1)))
                said["nodes" if kind == "system" else "gpus"] = bare.group(0).strip()
                if kind == "system":
                    fields["nodes"] = n
                    understood.append(f"{bare.group(0).strip()!r} -> {n} {eid} nodes")
                else:
                    fields["gpus"] = n
                    understood.append(f"{bare.group(0).strip()!r} -> {n} GPUs")
                for k in range(bare.start(1), bare.end(1)):
                    used[k] = True
                break
    if len(fabrics) > 1:
        raise RequestError(
            "the request asks for both InfiniBand and Ethernet", hint="choose one compute fabric"
        )
    if len(coolings) > 1:
        raise RequestError("the request asks for both air and liquid cooling", hint="choose one")
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
    try:
        return DesignRequest.model_validate(fields)
    except ValidationError as exc:
        err = exc.errors()[0]
        key = str(err["loc"][0]) if err["loc"] else "request"
        words = f" in {said[key]!r}" if key in said else ""
        raise RequestError(
            f"{key.replace('_', ' ')}{words}: {err['msg'][0].lower()}{err['msg'][1:]}",
            hint='say e.g. "512 GPUs training, 5 MW"',
        ) from None
