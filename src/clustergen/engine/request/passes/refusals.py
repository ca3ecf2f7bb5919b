"""The passes that refuse a request rather than size another question: a model or GPU the catalog
lacks, a mixture of experts with no active size, a request with nothing to size, air cooling for a
liquid-only platform. A refusal is a pass, not a rule, because it reads what the whole reading
left: the words no name or rule took, or the fields found together."""

from __future__ import annotations

import re

from clustergen.catalog.architectures import Architecture
from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import System
from clustergen.catalog.workload_models import LanguageModel
from clustergen.engine.cache import cached
from clustergen.engine.model.request import SIZE_FIELDS, sizes_workload
from clustergen.engine.request.draft import Draft
from clustergen.engine.request.words import FILLER
from clustergen.errors import NotFoundError, RequestError


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


def refuse_unknown_model(r: Draft) -> None:
    """A model family word the name finder left over ("llama 5 900b"): refuse it with the
    closest catalog models rather than size some other model. A pass: the family words are the
    catalog's, and only a word no name took is unknown."""
    if "model" in r.fields:
        return
    families = _model_words(r.catalog)
    for w in re.finditer(r"[a-z][a-z0-9.+-]*", r.low):
        if any(r.used[w.start() : w.end()]):
            continue
        if any(w.group(0).startswith(f) for f in families):
            if _named_beside_size(r, w.start()):
                continue
            phrase = _name_phrase(r.low[w.start() :])
            raise NotFoundError("model", phrase, r.catalog.closest("models", phrase))


def _named_beside_size(r: Draft, at: int) -> bool:
    """A name in brackets beside the size it is sized by ("a 67B model (DeepSeek LLM 67B)"):
    the size is what the design needs, so the name is read as that model's, not refused. The
    bracket's words are taken with a note saying the catalog does not hold the model."""
    size = r.phrases.get("model_params_b")
    opened, closed = r.low.rfind("(", 0, at), r.low.find(")", at)
    if size is None or opened < 0 or closed < 0 or ")" in r.low[opened:at]:
        return False
    inside, before = r.low[opened + 1 : closed], r.low[max(0, opened - 40) : opened]
    if size not in inside and size not in before:
        return False
    r.take(
        opened,
        closed + 1,
        f"{r.low[opened : closed + 1]!r} -> the {size} model's name (not in the catalog: "
        "sized from its stated size)",
    )
    r.fields["not_understood"] = r.leftovers()  # the record was made before this reading
    return True


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


#: a model-like name after a verb of the work ("train GPT-5", "serve Gemini-2 Pro"): a word
#: that starts with letters and holds a digit, as model names do
_WORKED_NAME = re.compile(
    r"\b(?:(?:pre-?)?train(?:ing)?|serv(?:e|ing)|host(?:ing)?|fine[- ]?tun(?:e|ing)|"
    r"deploy(?:ing)?|run(?:ning)?|replicat(?:e|ing))\s+(?:(?:a|an|the|our|my|your)\s+)?"
    r"([a-z]+[- ]?\d[a-z0-9.+-]*)"
)


def refuse_unnamed_model(r: Draft) -> None:
    """A model-like name after "train", "serve" or "fine-tune" that no catalog name took ("train
    GPT-5 in one afternoon"): the work names a model the catalog lacks, so it is refused with the
    closest catalog models, never sized as a bare GPU count. A pass: only a word every rule and
    name left over is unknown."""
    if "model" in r.fields or "model_params_b" in r.fields:
        return
    for m in _WORKED_NAME.finditer(r.low):
        if any(r.used[m.start(1) : m.end(1)]):
            continue
        phrase = _name_phrase(r.low[m.start(1) :])
        raise NotFoundError("model", phrase, r.catalog.closest("models", phrase))


_MOE = re.compile(r"\bmoe\b|\bmixture[- ]of[- ]experts?\b")


def refuse_two_model_sizes(r: Draft) -> None:
    """A named model beside a size that is not its own ("Llama 3.1 8B and 70B"): two models,
    of which a design sizes one. A pass: it compares the name's catalog size with the size
    read apart from it."""
    name, size = r.fields.get("model"), r.fields.get("model_params_b")
    if not isinstance(name, str) or not isinstance(size, int | float):
        return
    own = r.catalog.model(name).params_b
    if own and abs(own - size) > 0.15 * max(own, size):
        raise RequestError(
            f"the request names two models ({name} and a {size:g}B model): a design sizes one",
            hint="run one request per model",
        )


def refuse_moe_without_active(r: Draft) -> None:
    """A mixture of experts given only its total size computes with its active parameters, which
    the text does not give: sized as dense it would be tens of times too big, so it is refused
    with what to add (a catalog MoE carries its own active count). A pass: it reads a word
    ("MoE") against the fields the model rules found, or did not."""
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


#: a count of things named by a product-like word ("2048 H800 GPUs", "16 XE9680 servers"): the
#: word holds a digit, as GPU and server model names do ("512 NVIDIA GPUs" is not one)
_COUNTED_PRODUCT = re.compile(
    r"(?<![\w.])\d[\d,]*\s*(?:x(?=\s)\s*)?([a-z0-9.+-]*[a-z][a-z0-9.+-]*)\s+"
    r"(gpus?|accelerators?|nodes?|servers?|systems?)\b"
    # "2,048 H900s": a count right before a letter-led model word holding a digit
    r"|(?<![\w.$])\d[\d,]*(?:\s+|\s*x\s*)([a-z][a-z.+-]*\d[a-z0-9.+-]*?)s?(?![\w.+-])"
)


def refuse_unknown_product(r: Draft) -> None:
    """A count of GPUs or servers of a model the catalog lacks ("2048 H800 GPUs"): refuse it with
    the closest catalog entries rather than drop the count and size some other platform. A
    pass: only words no catalog name took can name an unknown product."""
    for m in _COUNTED_PRODUCT.finditer(r.low):
        g = 1 if m.group(1) else 3
        word = m.group(g)
        if any(r.used[m.start(g) : m.end(g)]) or not any(c.isdigit() for c in word):
            continue
        if g == 3 or m.group(2).startswith(("gpu", "accel")):
            raise NotFoundError("GPU", word, r.catalog.closest("gpus", word))
        raise NotFoundError("platform", word, r.catalog.closest("systems", word))


#: a GPU model's name after "on", "with", "using" ("on L4", "using MI250X", "with 4090s"):
#: a few letters, then digits
_NAMED_GPU = re.compile(
    r"\b(?:on|with|using|across|of)\s+(?:nvidia\s+|amd\s+|intel\s+)?"
    # not a quarter, a half or a fiscal year ("end of Q1", "in H2", "of FY26")
    r"(?!(?:q[1-4]|h[12]|fy\d{2,4}|cy\d{2,4})\b)"
    r"((?:[a-z]{1,4})?\d{1,4}[a-z]{0,3}?)s?(?![\w.+-])"
)


#: accelerator families named by a word alone, none of them in the catalog as shipped (a
#: catalog layer that adds one makes its word a catalog name, and it is read as such)
_FAMILY = re.compile(
    r"\b(?:rubin|feynman|gaudi\s*\d?|trainium\s*\d?|inferentia\s*\d?|tpu\s*v?\d*[a-z]?|"
    r"cerebras|groq|volta|pascal)\b"
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


def refuse_unknown_named_gpu(r: Draft) -> None:
    """A GPU named without a count that the catalog lacks ("serve 8B on L4") is refused with the
    closest entries: sizing the default GPU instead would answer another question. A pass: a
    word is unknown only against every word of the catalog's names."""
    for m in _FAMILY.finditer(r.low):
        # "512 next-gen Rubin GPUs": a family the catalog holds no part of, named without digits
        if not any(r.used[m.start() : m.end()]) and m.group(0) not in _name_words(r.catalog):
            raise NotFoundError("GPU", m.group(0), r.catalog.closest("gpus", m.group(0)))
    for m in _NAMED_GPU.finditer(r.low):
        word = m.group(1)
        if any(r.used[m.start(1) : m.end(1)]) or word[0].isdigit():
            continue
        # the catalog's words are gathered only for a request that names such a word (~4 ms
        # of a first parse; most requests name none)
        if word in _name_words(r.catalog):
            continue
        raise NotFoundError("GPU", word, r.catalog.closest("gpus", word))


def _sized(r: Draft) -> bool:
    """The request gives a size (GPUs, nodes, power, budget) or a workload that has one."""
    return any(k in r.fields for k in SIZE_FIELDS) or sizes_workload(r.fields)


#: "2 SuperPODs", "a BasePOD": a count of pods, which have no one size
_POD_COUNT = re.compile(
    r"(?<![\w.])(\d+|a|an|one|two|three|four|five|six|eight|ten)\s+(?:nvidia\s+)?(?:dgx\s+)?"
    r"(superpod|basepod)s?\b"
)


def refuse_pod_count(r: Draft) -> None:
    """A count of SuperPODs or BasePODs is the only size given: a pod is built from scalable
    units (a SuperPOD) or 2 to 16 nodes (a BasePOD), so it has no one size to multiply. A pass:
    it says why an unsized request is unsized, which only the whole reading knows."""
    if _sized(r):
        return
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


def refuse_unsized_job(r: Draft) -> None:
    """A model to train or fine-tune and nothing else: the job's size is its tokens and time.
    A pass: it reads the model and the job together, once nothing else sized the request. A
    time with no tokens ("train Llama 3 405B in under 90 days") sizes nothing either: the
    tokens are what the time is for."""
    model = r.fields.get("model") or (
        f"a {r.fields['model_params_b']:g}B model" if r.fields.get("model_params_b") else None
    )
    job = r.fields.get("workload") or next(iter(r.members.get("workload", set())), None)
    if model is None or job not in {"training", "fine-tuning"}:
        return
    days, tokens = r.fields.get("training_days"), r.fields.get("training_tokens_t")
    other = any(k in r.fields for k in SIZE_FIELDS) or r.fields.get("budget_usd")
    if days and not tokens and not other:
        raise RequestError(
            f"{'training' if job == 'training' else 'fine-tuning'} {model} in {days:g} days has "
            "no size: the request gives no token count",
            hint="add the tokens, e.g. 'on 15T tokens', or a GPU count",
        )
    if _sized(r):
        return
    raise RequestError(
        f"{'training' if job == 'training' else 'fine-tuning'} {model} has no size: the "
        "request gives no token count and time, GPU count, power cap or budget",
        hint="add the tokens and days, e.g. 'on 1B tokens in 2 days', or a GPU count",
    )


def _quoted(text: str, limit: int = 120) -> str:
    """The request as an error quotes it: one line, cut short."""
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 3] + "...")


#: "the smallest GB200 configuration", "an entry-level H100 cluster", "minimum setup"
_SMALLEST = re.compile(
    r"\b(?:smallest|minimum|minimal|entry[- ]level|starter)\s+(?:possible\s+)?"
    r"(?:[\w-]+\s+){0,3}?(?:config(?:uration)?s?|clusters?|setups?|systems?|deployments?|"
    r"footprints?|building\s+blocks?|installations?|pods?)\b"
)


def refuse_nothing_to_size(r: Draft) -> None:
    """No GPU count, node count, power cap, budget or workload anywhere in the request. A pass:
    no one phrase is missing, the whole request is."""
    smallest = _SMALLEST.search(r.low)
    if _sized(r):
        if smallest and r.free_span(smallest.start(), smallest.start() + 1):
            # "the smallest B200 config that can serve Llama 3.1 405B": what the count, load
            # or run sizes is already the least that meets it (the default objective); the
            # words between may be a name already read (taking them again changes nothing)
            r.take(
                smallest.start(),
                smallest.end(),
                f"{smallest.group(0)!r} -> the least that meets the request (the default objective)",
            )
            r.fields["understood"] = r.understood
            r.fields["not_understood"] = r.leftovers()
        return
    if smallest and (r.fields.get("platform") or r.fields.get("gpu")):
        # "the smallest GB200 configuration you can offer": one node (a rack-scale system's
        # rack) of what is named, the unit it is built in
        r.fields["nodes"] = 1
        r.take(
            smallest.start(),
            smallest.end(),
            f"{smallest.group(0)!r} -> 1 node (the smallest unit the platform is built in)",
        )
        r.fields["understood"] = r.understood
        r.fields["not_understood"] = r.leftovers()
        return
    serving = ("output_tokens_per_s", "isl_tokens", "osl_tokens", "ttft_ms", "tpot_ms")
    if any(r.fields.get(f) for f in serving):
        # a serving load with no model: what it lacks is the model, not a workload
        raise RequestError(
            f"{_quoted(str(r.fields['text']))} gives a serving load but not the model it serves",
            hint="name the model, e.g. 'Llama 3.1 70B' or 'a 70B model'",
            field="model",
        )
    raise RequestError(
        f"nothing to size in {_quoted(str(r.fields['text']))}: no GPU count, node count, power "
        "cap, capital budget, rack count or workload",
        hint='say e.g. "512 GPUs training, 5 MW" or "train a 70B model on 15T tokens in 60 days"',
    )


def refuse_air_for_liquid(r: Draft) -> None:
    """An air-cooled request naming a platform that only comes liquid-cooled contradicts itself.
    A pass: the cooling word and the platform's name are read apart, and the catalog joins them."""
    fields, catalog = r.fields, r.catalog
    if fields.get("cooling") != "air":
        return
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
