"""The passes that settle what the rules read once the whole request is read: word sets to fields,
a budget's kind, a context's length, the data's storage tier, and what was left unread. Each is a
pass, not a rule, because its field depends on words elsewhere in the request (a budget with an
hourly price buys GPU-hours; one without buys hardware)."""

from __future__ import annotations

import re

from clustergen.engine.request.draft import Draft
from clustergen.engine.request.preference import Member, settle
from clustergen.engine.request.words import CONFLICTS
from clustergen.errors import RequestError


def resolve_members(r: Draft) -> None:
    """Word sets to fields: two fabrics, coolings or layouts contradict; several workloads are
    a mixed workload. A pass: a contradiction is two words anywhere in the request."""
    for field, (message, hint) in CONFLICTS.items():
        values = r.members.get(field, set())
        if len(values) > 1 and not _soft_choice(r, field):
            raise RequestError(message.format(values=", ".join(sorted(values))), hint=hint)
    workloads = r.members.get("workload", set())
    if len(workloads) > 1:
        r.members["workload"] = {"mixed"}
    for field in (*CONFLICTS, "workload"):
        if r.members.get(field):
            r.fields[field] = r.members[field].pop()
    # "Llama 2 70B offline on 8 H200": an offline (batch) regime for a model is serving it
    # (it was sized as training, the default workload)
    named = r.fields.get("model") or r.fields.get("model_params_b")
    if named and "workload" not in r.fields:
        # "DeepSeek R1 on GB200 NVL72, disaggregated with Dynamo and MTP": words that only a
        # served model has (a serving engine, prefill/decode pools, drafted tokens, a latency
        # limit) say the workload as plainly as "serve"
        said = [
            words
            for field, words in _SERVING_ONLY.items()
            # offline is a regime too (interactive False), and "no disaggregation" or "without
            # MTP" are said of a served model as plainly
            if r.fields.get(field) is not None
        ]
        if said:
            first = said[0]
            if first == _SERVING_ONLY["interactive"] and r.fields["interactive"] is False:
                first = "offline (batch) regime"
            r.fields["workload"] = "inference"
            r.understood.append(f"{first} for a model -> workload inference")


#: request fields only a served model has, in the words a note gives them
_SERVING_ONLY = {
    "interactive": "a serving regime",
    "serving_engine": "a serving engine",
    "disaggregated": "a prefill/decode layout",
    "speculative_decoding": "speculative decoding",
    "tpot_ms": "a per-token latency limit",
    "ttft_ms": "a first-token limit",
    "output_tokens_per_s": "a serving load",
    "isl_tokens": "a prompt length",
    "osl_tokens": "an output length",
}

#: word-set fields whose two values soft words may relate ("prefer X, open to Y", "X or Y")
_SOFT = frozenset({"fabric", "cooling"})


def _soft_choice(r: Draft, field: str) -> bool:
    """Two values a preference or an "or" relates: the preferred one, or neither (the study
    weighs both), said in a note. False when nothing relates them."""
    if field not in _SOFT:
        return False
    members = sorted((Member(*m) for m in r.member_spans.get(field, [])), key=lambda m: m.start)
    words = "'" + " ... ".join(r.low[m.start : m.end] for m in members) + "'"
    settled = settle(r.low, members, words)
    if settled is None:
        return False
    for start, end in settled.spans:
        r.take(start, end, "")
    r.understood = [u for u in r.understood if u]
    r.understood.append(settled.note)
    r.members[field] = {settled.value} if settled.value else set()
    return True


def _serving(r: Draft) -> bool:
    return r.fields.get("workload") == "inference" or "output_tokens_per_s" in r.fields


def _reread(r: Draft, src: str, dst: str, words: str) -> None:
    """A reading whose field depends on the whole request moves to the field it turned out to
    be, and its note says what it was read as."""
    r.fields[dst] = r.fields.pop(src)
    phrase = r.phrases.pop(src)
    r.phrases.setdefault(dst, phrase)
    r.renote(phrase, words)


#: an hourly price makes a budget one of GPU-hours; so does a model to train, not to serve
_HOURLY = ("price_per_gpu_hour", "price_per_node_hour")
_JOB = ("model", "model_params_b")


#: words that say the cluster is bought, not rented by the hour
_OWNED = re.compile(
    r"\bon[- ]?prem(?:ise|ises)?\b|\bcapex\b|\bpurchas(?:e|ing)\b|\bbuy(?:ing)?\b"
    r"|\bown(?:ed)?\s+(?:cluster|hardware|data\s*cent(?:er|re))\b"
)


def budget_meaning(r: Draft) -> None:
    """A bare budget ("$50M, 10 MW") with no job to spend GPU-hours on and no hourly price is
    a capital budget: the most the cluster's hardware may cost. A serving cluster runs without
    end, and a cluster the customer owns ("on-prem", "buy", "capex") is bought, so their
    budget buys hardware unless the request prices GPU-hours. A pass: the budget rule cannot
    see the job, the price or the ownership words."""
    serving = _serving(r)
    owned = _OWNED.search(r.low) is not None
    # "train a 13B model on 2T tokens in 3 weeks, budget around $5M": the tokens and days size
    # the run, and with no hourly price the budget is what the cluster may cost (it was a
    # budget of GPU-hours with no price, refused)
    sized = "training_tokens_t" in r.fields and "training_days" in r.fields
    job = any(k in r.fields for k in _JOB) and not serving and not owned and not sized
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
        else "the run's tokens and days size it, and no hourly price is given"
        if sized and any(k in r.fields for k in _JOB)
        else "no model to buy GPU-hours for"
    )
    _reread(r, "budget_usd", "capital_budget_usd", f"capital budget ${usd:,.0f} ({why})")


def context_meaning(r: Draft) -> None:
    """A context length ("8k context") is the training sequence, or for a serving request the
    prompt length it must hold (the output's share is unknown, so the whole context, the most).
    A pass: whether the request serves is known only once every workload word is read."""
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


def data_meaning(r: Draft) -> None:
    """The data the request names ("video", "ImageNet", "NLP") sets the storage tier NVIDIA's
    Table 5 gives it, unless the request states a tier: the stated one stands. A pass: a tier
    stated anywhere in the request overrides the data's."""
    if "_data_tier" not in r.fields:
        return
    if "storage_tier" in r.fields:
        r.fields.pop("_data_tier")
        r.phrases.pop("_data_tier", None)
        return
    if r.fields.get("workload") == "inference":
        # Table 5 tiers training data by kind; a served model reads its weights, not the data
        # its prompts carry ("video inference" is no best-tier training set)
        tier = r.fields.pop("_data_tier")
        phrase = r.phrases.pop("_data_tier", "")
        r.renote(
            phrase, f"the data's storage tier ({tier}) is for training sets: not applied to serving"
        )
        return
    tier = r.fields["_data_tier"]
    _reread(r, "_data_tier", "storage_tier", f"{tier} storage tier (the data's, H100 RA Table 5)")


def racks_meaning(r: Draft) -> None:
    """A site's racks and their power ("space for 10 racks at 30 kW") bound its IT power: with no
    cap stated, their product is the IT cap (the racks hold the IT load; cooling is outside
    them), said as read from the racks. A pass: the cap may be stated anywhere in the request."""
    racks, kw = r.fields.get("max_racks"), r.fields.get("rack_power_kw")
    if isinstance(racks, int) and _rack_systems(r, racks):
        return
    if not isinstance(racks, int) or not isinstance(kw, float) or "power_cap_w" in r.fields:
        return
    r.fields["power_cap_w"] = racks * kw * 1e3
    r.fields.setdefault("power_cap_basis", "it")
    r.understood.append(
        f"IT power cap {racks * kw / 1e3:g} MW from the racks ({racks} x {kw:g} kW; "
        "state a cap to replace it)"
    )


def _rack_systems(r: Draft, racks: int) -> bool:
    """ "GB200 NVL72 SuperPOD, 8 racks": a bare count of racks beside a rack-scale system, with
    no other size, is that many of its racks, not room for them (it built 5 in 8 racks)."""
    phrase = r.phrases.get("max_racks", "")
    platform = r.fields.get("platform")
    if not re.fullmatch(r"\d+\s*racks?", phrase) or not isinstance(platform, str):
        return False
    if any(f in r.fields for f in ("gpus", "nodes", "rack_power_kw")):
        return False
    if r.catalog.system(platform).kind != "nvl-rack":
        return False
    del r.fields["max_racks"]
    r.fields["nodes"] = racks
    r.renote(phrase, f"{racks} {platform} racks (a rack-scale system counts in racks)")
    return True


def cadence_meaning(r: Draft) -> None:
    """ "500B tokens monthly retrain, must finish in 5 days": a cadence bounds each run by the
    next, and a deadline stated beside it is the run's time when tighter (the two were refused
    as two durations). A pass: the deadline may come anywhere."""
    days = r.fields.pop("_cadence_days", None)
    if days is None:
        return
    phrase = r.phrases.pop("_cadence_days", "")
    stated = r.fields.get("training_days")
    assert isinstance(days, float)  # the cadence rule reads days
    assert stated is None or isinstance(stated, float | int)
    if stated is None or stated > days:
        if stated is not None:
            r.understood.append(
                f"{r.phrases['training_days']!r} is longer than the cadence: each run must end "
                "before the next"
            )
        r.fields["training_days"] = days
        r.phrases["training_days"] = phrase
        return
    r.renote(phrase, f"a run each {days:.3g} days (the {stated:g} days stated are tighter)")


def e2e_meaning(r: Draft) -> None:
    """An end-to-end latency limit ("p95 latency 3 s end to end") as the two limits the serving
    model takes: TTFT as stated, else its planning share of the limit (`e2e-ttft-share`), and
    TPOT the rest over the answer's tokens (stated, else the default length). A pass: the
    answer's length and the TTFT may be stated anywhere in the request."""
    e2e = r.fields.pop("_e2e_ms", None)
    r.phrases.pop("_e2e_ms", None)
    if not isinstance(e2e, float):
        return
    said_osl = r.fields.get("osl_tokens")
    osl = int(said_osl) if isinstance(said_osl, int) else int(_value(r, "osl-tokens"))
    ttft = r.fields.get("ttft_ms")
    share = _value(r, "e2e-ttft-share")
    first = float(ttft) if isinstance(ttft, float) else e2e * share
    if first >= e2e:
        raise RequestError(
            f"a first token in {first:,g} ms leaves nothing of the {e2e:,g} ms end-to-end limit "
            "for the answer's tokens",
            hint="give a longer end-to-end limit or a shorter TTFT",
        )
    tpot = (e2e - first) / max(1, osl)
    stated = r.fields.get("tpot_ms")
    if isinstance(stated, float) and stated <= tpot:
        tpot = stated  # the stated per-token limit already holds the end-to-end one
    r.fields["ttft_ms"], r.fields["tpot_ms"] = first, tpot
    r.understood.append(
        f"end-to-end {e2e:,g} ms over {osl:,} output tokens"
        + ("" if said_osl else " (the default length)")
        + f" -> TTFT {first:,.0f} ms"
        + ("" if isinstance(ttft, float) else f" ({share:.0%} of it, e2e-ttft-share)")
        + f" + {osl:,} x TPOT {tpot:.3g} ms"
    )


def _value(r: Draft, assumption: str) -> float:
    return float(r.catalog.assumption(assumption).value)


def checkpoint_meaning(r: Draft) -> None:
    """A checkpoint's write window ("checkpoints of 2 TB must write in under 2 minutes") is the
    write bandwidth that holds it: size over window, unless a larger write rate is stated. A
    pass: the size may be stated anywhere in the request."""
    window = r.fields.pop("_checkpoint_write_s", None)
    r.phrases.pop("_checkpoint_write_s", None)
    if not isinstance(window, float) or window <= 0:
        return
    size = r.fields.get("checkpoint_gb")
    if not isinstance(size, float):
        raise RequestError(
            f"a checkpoint written within {window:,g} s needs the checkpoint's size",
            hint="say it, e.g. 'checkpoints of 2 TB', or state the write rate ('200 GB/s write')",
        )
    rate = size / window
    stated = r.fields.get("storage_write_gb_per_s")
    if isinstance(stated, float) and stated >= rate:
        return
    r.fields["storage_write_gb_per_s"] = rate
    r.understood.append(
        f"checkpoint {size:,g} GB within {window:,g} s -> storage write {rate:,.3g} GB/s"
    )


def cooling_included_meaning(r: Draft) -> None:
    """ "How much power would 1,000 H200s need including cooling?": with no power figure to
    qualify, the words ask for the facility's power, which every design states beside its IT
    power (IT x PUE). A pass: a cap's own "including cooling" is read with the cap first."""
    for m in _WITH_COOLING.finditer(r.low):
        if r.free(m) and "power_cap_w" not in r.fields:
            r.take(m.start(), m.end(), f"{m.group(0)!r} -> facility power: stated beside IT power")


_WITH_COOLING = re.compile(
    r"\b(?:including|incl\.?|inclusive\s+of|with|plus)\s+(?:the\s+)?(?:cooling|overheads?)"
    r"(?:\s+and\s+(?:cooling|overheads?|lighting|losses))?\b"
)


#: fields only a run to train has: a model named with none of them, on GPUs given or asked
#: what they serve, is served
_TRAINING_ONLY = (
    "training_tokens_t",
    "training_days",
    "training_method",
    "budget_usd",
    "price_per_gpu_hour",
    "price_per_node_hour",
    "sequence_tokens",
    "checkpoint_gb",
    "checkpoint_interval_s",
    "sample_mb",
    "dataset_layout",
    "schedule_reserve_days",
    "schedule_reserve_share",
)
#: the verbs of a capacity question ("can 16 B200 push", "can it handle"), read with it
_CAPACITY_VERBS = re.compile(
    r"\b(?:push|handle|sustain|support|deliver|achieve|generate|produce|output|manage|expect)\b"
)
#: a capacity question that counts streams: a bare tokens/s beside it is each one's speed
_COUNTS_STREAMS = re.compile(
    r"\bhow\s+many\s+(?:more\s+)?(?:\w+\s+)?(?:users|sessions|streams|people|employees|customers"
    r"|agents|chats|conversations)\b"
)
#: tokens/s beyond any one stream's speed (the fastest published decode speeds per user are a
#: few hundred to about a thousand tokens/s): such a rate is a total
_STREAM_MAX = 1000.0
_TOTAL_WORDS = re.compile(r"\b(?:total|aggregate|in\s+all|overall|combined)\b")


def capacity_meaning(r: Draft) -> None:
    """ "How many tokens per second can 16 B200 push for Llama 3.1 405B?", "Llama 3.1 405B on 16
    B200": a catalog model on GPUs given (or asked what it serves), with no run to train (no
    tokens, time, method or 'train'), is served, and the design says what the GPUs serve (it was sized as a training
    run, the old default, and refused: 405B does not train on 16 GPUs). "How many users at 30
    tokens/s" asks for streams at each one's speed, not for 30 tokens/s in all. A pass: the
    question, the count and the model may stand anywhere in the request."""
    asked = "the capacity asked" in r.members.get("_said", set())
    if asked:
        for m in _CAPACITY_VERBS.finditer(r.low):
            if r.free(m):
                r.take(m.start(), m.end(), f"{m.group(0)!r} -> the capacity asked")
        _rate_per_stream(r)
        _fill_bound(r)
    if "workload" in r.fields or not (r.fields.get("model") or r.fields.get("model_params_b")):
        return
    if any(f in r.fields for f in _TRAINING_ONLY):
        return
    given = ("gpus", "nodes", "platform", "gpu")
    # a released model by name is run; a bare size ("512 GPUs, 1.8T parameters") is one to build
    if not asked and not (r.fields.get("model") and any(r.fields.get(f) for f in given)):
        return
    r.fields["workload"] = "inference"
    r.understood.append(
        "a model "
        + ("asked what it serves" if asked else "on the GPUs given, with no run to train")
        + " -> workload inference (say 'train' and the tokens to size a training run)"
    )


def _fill_bound(r: Draft) -> None:
    """ "2 MW IT, inference, Llama 3.3 70B, how many tokens per second can we serve?": asked what
    a bound holds (a cap, a budget, racks) with no GPUs given, the answer fills it with the
    platform that serves the most (it built the smallest server)."""
    bounds = ("power_cap_w", "capital_budget_usd", "max_racks")
    if any(f in r.fields for f in ("gpus", "nodes", "objective", "output_tokens_per_s")):
        return
    if not any(f in r.fields for f in bounds):
        return
    r.fields["objective"] = "most-tokens"
    r.understood.append(
        "the capacity asked under a bound -> objective: the most output tokens/s it holds"
    )


def _rate_per_stream(r: Draft) -> None:
    rate = r.fields.get("output_tokens_per_s")
    phrase = r.phrases.get("output_tokens_per_s", "")
    if not isinstance(rate, float | int) or not _COUNTS_STREAMS.search(r.low):
        return
    if "_concurrent" in r.fields or "_requests_per_s" in r.fields or "tpot_ms" in r.fields:
        return
    at = r.low.find(phrase.lower())
    near = r.low[at : at + len(phrase) + 20] if at >= 0 else phrase
    # no one stream is read faster than _STREAM_MAX; a rate said in total is the total
    if float(rate) > _STREAM_MAX or _TOTAL_WORDS.search(near):
        return
    del r.fields["output_tokens_per_s"]
    r.phrases.pop("output_tokens_per_s", None)
    r.fields["tpot_ms"] = 1000.0 / float(rate)
    r.phrases["tpot_ms"] = phrase
    r.renote(
        phrase,
        f"each stream's speed, TPOT {1000.0 / float(rate):.3g} ms (the question counts streams)",
    )
    # the workload note named the load the figure no longer is
    r.understood = [
        u.replace("a serving load for a model", "a per-token latency limit for a model")
        for u in r.understood
    ]


def need_meaning(r: Draft) -> None:
    """ "Train Llama 3 405B on 15T tokens within 100 days, how many B200s?": a bare "how many"
    after a sized job asks what the job needs, not the most GPUs that fit (the rule reading it
    sees only the words after it). A pass: the job may be stated anywhere before the question,
    and a bound (a cap, a budget, racks) keeps the most-GPUs reading."""
    if r.fields.get("objective") != "most-gpus" or not _HOW_MANY.search(r.low):
        return
    if _MOST_WORDS.search(r.low):
        return  # "the most GPUs", "how many fit": the objective was said in its own words
    bounds = ("power_cap_w", "capital_budget_usd", "max_racks")
    if any(r.fields.get(f) is not None for f in bounds):
        return
    trained = r.fields.get("training_tokens_t") and r.fields.get("training_days")
    served = r.fields.get("output_tokens_per_s")
    if not (trained or served):
        return
    del r.fields["objective"]
    r.understood.append(
        f"'how many' -> the GPUs the {'run' if trained else 'serving load'} needs (nothing "
        "bounds a most-GPUs answer)"
    )


_HOW_MANY = re.compile(r"\bhow\s+many\b")
#: the words that ask for the most GPUs themselves (the most_gpus rule's other forms)
_MOST_WORDS = re.compile(r"\b(?:max(?:imum|imi[sz]e)?|most|as\s+many|fits?|fitting)\b")


def note_readings(r: Draft) -> None:
    """What was read, and the words no rule or pass read ("not understood"). A pass: it is the
    reading's record, made once every reading is done (the refusals after it add no field)."""
    r.fields["understood"] = r.understood
    r.fields["not_understood"] = r.leftovers()
