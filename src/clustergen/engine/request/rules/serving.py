"""The phrases of a serving request: request shape (prompt and answer lengths), latency limits
with their percentile, speed per user, and whether people wait on the replies.

Lengths are read in the forms people write: "8k input", "prompts of about 9,400 tokens", "500
output tokens", "answers ~300 tokens", "9,400-token prompts", "8k/1k", "8k in / 1k out".
Latency: "TTFT 500 ms", "p99 TTFT 500ms", "30 ms per token", "50 tokens/s per user".
"""

from __future__ import annotations

import re

from clustergen.engine.request.rules.phrases import Reading, Rule, num, rule
from clustergen.errors import RequestError

#: a length: "9,400", "8k", "1.5k"
_LEN = r"(\d+(?:,\d{3})*(?:\.\d+)?)\s*(k)?"
#: words between a noun and its length: "prompts of about 9,400", "answers ~300", "inputs are 2k",
#: "prompts are long, about 9,400 tokens"
_ABOUT = (
    r"(?:\s*(?:of|are|is|=|:|~|≈|at|about|around|roughly|approximately|approx\.?|typically|"
    r"average|averaging|avg\.?|on\s+average|mean|median|up\s+to|under|max(?:imum)?|length|"
    r"lengths|size|tokens?|,|long|short|lengthy|fairly|quite|very|usually|often))*\s*"
)
_INPUT = (
    r"(?:input\s+sequence\s+length|inputs?|prompts?|isl|input\s+(?:length|size)|"
    r"prompt\s+(?:length|size)|queries)"
)
_OUTPUT = (
    r"(?:output\s+sequence\s+length|outputs?|answers?|responses?|completions?|generations?|"
    r"replies|osl|"
    # a reasoning model's thinking is generated: "reasoning traces of ~8k tokens"
    r"(?:reasoning|thinking)\s+(?:traces?|chains?|tokens?|outputs?)|"
    r"output\s+(?:length|size)|answer\s+length|response\s+length)"
)
_SECONDS = r"(ms|milliseconds?|s|secs?|seconds?)\b"
#: the limit inside a latency phrase: the first number with a unit of time
_LIMIT = re.compile(r"(\d+(?:\.\d+)?)\s*" + _SECONDS)
_PCT = r"(?:\bp(\d{2}(?:\.\d+)?)\b|\b(\d{2}(?:\.\d+)?)(?:th|st|nd|rd)?[- ]?percentile\b)"
#: not a rate: "500 output tokens" is a length, "500 output tokens/s" a target
_NOT_RATE = r"(?!\s*(?:tokens?\s*)?(?:/|per\b))"
#: how a looser limit is worded: "TPOT can be up to 200 ms", "TTFT may go to 3 s" (serving regimes)
_MAY = r"can|could|may|might|should|must|be|go|up\s+to|allowed(?:\s+to)?|ok|fine|stay|needs?\s+to"
#: words between a latency's name and its limit
_LINK = (
    r"(?:\s*(?:of|under|below|within|in|<=?|<|≤|at|most|less|than|:|=|max|maximum|limit|is|"
    + _MAY
    + r"|"
    + _PCT
    + r"))*\s*"
)


def _length(value: str, k: str | None, phrase: str) -> int:
    n = round(num(value) * (1e3 if k else 1.0))
    if n < 1:
        raise RequestError(f"{phrase!r} is no tokens", hint="give a length, e.g. 1000 tokens")
    return n


def _one_length(field: str, name: str):  # type: ignore[no-untyped-def]
    def read(m: re.Match[str]) -> list[Reading]:
        value = next(g for g in m.groups()[0::2] if g)
        k = next((g for g in m.groups()[1::2] if g), None)
        n = _length(value, k, m.group(0).strip())
        return [Reading(field, n, f"{n:,} {name}")]

    return read


def _shape(m: re.Match[str]) -> list[Reading]:
    """An input/output pair, from either form of the shape pattern."""
    phrase = m.group(0).strip()
    groups = m.groups()
    start = next(i for i in (0, 4, 8) if groups[i])
    a, ak, b, bk = groups[start : start + 4]
    isl, osl = _length(a, ak, phrase), _length(b, bk, phrase)
    return [
        Reading("isl_tokens", isl, f"{isl:,} input tokens"),
        Reading("osl_tokens", osl, f"{osl:,} output tokens"),
    ]


def _percentile(m: re.Match[str]) -> Reading | None:
    """The percentile a latency phrase names ("p99", "99th percentile"), if it names one."""
    found = re.search(_PCT, m.group(0))
    if not found:
        return None
    pct = float(found.group(1) or found.group(2))
    if not 50 <= pct < 100:
        raise RequestError(
            f"{found.group(0)!r} is not a latency percentile", hint="use p50, p90, p95 or p99"
        )
    return Reading("latency_percentile", pct, f"latency at p{pct:g}")


def _latency(field: str, name: str, said: str = ""):  # type: ignore[no-untyped-def]
    def read(m: re.Match[str]) -> list[Reading]:
        limit = _LIMIT.search(m.group(0))
        assert limit is not None  # the patterns hold one
        ms = float(limit.group(1)) * (1.0 if limit.group(2).startswith("m") else 1e3)
        pct = _percentile(m)
        return [Reading(field, ms, f"{name} {ms:g} ms{said}")] + ([pct] if pct else [])

    return read


def _end_to_end(m: re.Match[str]) -> list[Reading]:
    """An end-to-end limit binds the first token and every token after it together: kept whole
    here, split into the two limits the serving model takes once the answer's length and any
    stated TTFT are known (`passes.meanings.e2e_meaning`)."""
    limit = _LIMIT.search(m.group(0))
    assert limit is not None  # the patterns hold one
    ms = float(limit.group(1)) * (1.0 if limit.group(2).startswith("m") else 1e3)
    pct = _percentile(m)
    return [Reading("_e2e_ms", ms, f"end-to-end {ms:g} ms")] + ([pct] if pct else [])


def _per_user(m: re.Match[str]) -> list[Reading]:
    rate = num(next(g for g in m.groups() if g))
    if rate <= 0:
        raise RequestError(f"{m.group(0).strip()!r} is not a speed", hint="give tokens/s per user")
    return [
        Reading("tpot_ms", 1e3 / rate, f"TPOT {1e3 / rate:.3g} ms ({rate:g} tokens/s per user)")
    ]


def _lone_percentile(m: re.Match[str]) -> list[Reading]:
    pct = _percentile(m)
    return [pct] if pct else []


#: serving regimes: what else says no one waits on the reply (offline, maximum throughput):
#: "no latency limit", "latency doesn't matter", "batch mode", "in batch", a lone "batch" that is
#: not a batch size ("global batch 1024", "batch size 64", "micro-batch" are training's)
_OFFLINE_MORE = (
    r"|\bno\s+(?:latency|ttft|tpot|slo|interactivity)\s*(?:limits?|constraints?|requirements?|"
    r"targets?|slos?|bounds?)?\b|\blatency[- ](?:insensitive|tolerant|(?:is\s+)?not\s+a\s+concern)\b"
    r"|\blatency\s+(?:does\s*n[o']t|doesn't|won't)\s+matter\b|\bthroughput[- ]only\b"
    # "latency isn't critical", "latency is not a concern", "latency not important"
    r"|\blatency\s+(?:is\s*n[o’']?t|is\s+not|not)\s+(?:critical|important|a\s+(?:concern|"
    r"priority|factor|requirement)|an\s+issue|key)\b"
    r"|(?<![-\w])(?<!global\s)(?<!micro\s)(?<!mini\s)batch(?:ed)?\b(?:\s+mode\b)?"
    r"(?!\s*(?:sizes?|of\s+\d|=|:|\d|tokens?|\-?size))"
)

_RATE = r"(?:tokens?|tok|t)\s*(?:/|per)\s*(?:s|sec|second)\b|tps\b|tokens?\s+a\s+second\b"
_WHO = r"(?:users?|streams?|requests?|sessions?|sequences?|queries|query|conversations?|clients?)"

#: read before the aggregate serving target (a rate per user is not the total)
SERVING_RULES: tuple[Rule, ...] = (
    rule(
        "per_user",
        r"(?<![\w.])(\d[\d,]*(?:\.\d+)?)\s*(?:output\s+)?(?:" + _RATE + r")\s*"
        r"(?:/|per|for\s+each|for\s+every|each|every|a)\s*" + _WHO + r"\b"
        r"|\b(?:per|each|every)\s+" + _WHO + r"\s*(?:gets?|sees?|at|of|with|:|needs?|wants?)?\s*"
        r"(?:at\s+least\s+)?(\d[\d,]*(?:\.\d+)?)\s*(?:output\s+)?(?:" + _RATE + r")"
        r"|(?<![\w.])(\d[\d,]*(?:\.\d+)?)\s*(?:output\s+)?(?:" + _RATE + r")\s*each\b"
        # "50 concurrent users, each wants 30 tok/s"
        r"|\beach\s+(?:one\s+)?(?:gets?|sees?|needs?|wants?|expects?|requires?|should\s+(?:get|see))"
        r"\s*(?:at\s+least\s+)?(\d[\d,]*(?:\.\d+)?)\s*(?:output\s+)?(?:" + _RATE + r")",
        _per_user,
        needs=(
            "client",
            "conversation",
            "each",
            "queries",
            "query",
            "request",
            "sequence",
            "session",
            "stream",
            "user",
        ),
    ),
)

#: "sub-second", "under a second": a limit of one second written without a number
_A_SECOND = (
    r"(?:sub[- ]?second|(?:in\s+)?(?:under|below|within|less\s+than)\s+(?:a|one|1)\s+second)"
)
_FIRST_TOKEN = r"(?:ttft|time[- ]to[- ]first[- ]tokens?|first[- ]tokens?(?:\s+latency)?)"
#: "sub-second latency" or "responses": for a language model, the wait for the first token
_RESPONSE = (
    # "responses should start within 2 s", "the answer must begin streaming in 1 s", "first
    # words within a second": when the reply starts is its first token
    r"(?:(?:responses?|answers?|repl(?:y|ies)|outputs?|text|streaming)\s+"
    r"(?:(?:should|must|needs?\s+to|has\s+to|have\s+to|to|will|shall)\s+)?"
    r"(?:start|begin)(?:s|ing)?(?:\s+(?:streaming|appearing|to\s+(?:stream|appear)))?"
    r"|first\s+words?"
    r"|latency|responses?(?:\s+times?)?|response\s+times?|answers?|repl(?:y|ies))"
)


def _one_second(m: re.Match[str]) -> list[Reading]:
    named = re.search(_FIRST_TOKEN, m.group(0)) is not None
    note = "TTFT 1,000 ms" + ("" if named else " (latency read as time to first token)")
    return [Reading("ttft_ms", 1000.0, note)]


#: read right after the aggregate serving target
LATENCY_RULES: tuple[Rule, ...] = (
    rule(
        "ttft_one_second",
        r"\b" + _A_SECOND + r"\s+(?:" + _FIRST_TOKEN + r"|" + _RESPONSE + r")\b"
        r"|\b" + _FIRST_TOKEN + r"\s*(?:of|is|:|=)?\s*" + _A_SECOND + r"\b"
        # "responses should start within a second", "response time under one second"
        r"|\b"
        + _RESPONSE
        + r"\s+(?:(?:should|must|will|is|are|needs?\s+to|to)\s+)?(?:be\s+)?"
        + _A_SECOND
        + r"\b",
        _one_second,
        needs=("second",),
    ),
    rule(
        "ttft",
        r"(?:"
        + _PCT
        + r"\s*)?\b(?:ttft|time[- ]to[- ]first[- ]token|first[- ]token(?:\s+latency)?)"
        r"\b"
        + _LINK
        + r"(\d+(?:\.\d+)?)\s*"
        + _SECONDS
        + r"|(?<![\w.])(\d+(?:\.\d+)?)\s*"
        + _SECONDS
        + r"\s*(?:"
        + _PCT
        + r"\s*)?(?:ttft|time[- ]to[- ]first[- ]token|to\s+first\s+token)\b",
        _latency("ttft_ms", "TTFT"),
        needs=("first", "tft"),
    ),
    rule(
        "tpot",
        r"(?:"
        + _PCT
        + r"\s*)?\b(?:tpot|itl|inter[- ]token[- ]latency|time[- ]per[- ]output[- ]token"
        r"|token[- ]to[- ]token(?:\s+latency)?|(?:time|latency)\s+between\s+(?:output\s+)?tokens"
        r"|between[- ]token\s+latency)\b"
        + _LINK
        + r"(\d+(?:\.\d+)?)\s*"
        + _SECONDS
        + r"|(?<![\w.])(\d+(?:\.\d+)?)\s*"
        + _SECONDS
        + r"\s*(?:"
        + _PCT
        + r"\s*)?"
        r"(?:tpot|itl|inter[- ]token[- ]latency|(?:/|per|a|each|every|between)\s*(?:output\s+)?"
        r"(?:tokens?|tok)\b(?!\s*(?:/|per)))",
        _latency("tpot_ms", "TPOT"),
        needs=("between", "itl", "latency", "output", "tok", "tpot"),
    ),
    # an end-to-end limit binds first token and every token after it together: not one of the
    # two limits the serving model takes, so it is refused saying how to state it
    rule(
        "latency_e2e",
        r"\b(?:end[- ]to[- ]end|e2e|total|full[- ]response)\s+(?:latency|response\s+times?)\b"
        + _LINK
        + r"(\d+(?:\.\d+)?)\s*"
        + _SECONDS
        # "p95 latency 3s end to end": the words after the figure
        + r"|\b(?:latency|response\s+times?)\b"
        + _LINK
        + r"(\d+(?:\.\d+)?)\s*"
        + _SECONDS
        + r"\s*(?:,\s*)?(?:end[- ]to[- ]end|e2e|in\s+total|for\s+the\s+(?:full|whole)\s+"
        r"(?:response|answer))\b",
        _end_to_end,
        needs=("latency", "response"),
    ),
    # "p95 latency under 300 ms", "response time below 2 s": a latency not said to be per
    # token or end to end is, for a language model, the wait for the first token (said so)
    rule(
        "latency_as_ttft",
        r"(?:"
        + _PCT
        + r"\s*)?\b"
        + _RESPONSE
        + r"\b"
        + _LINK
        + r"(\d+(?:\.\d+)?)\s*"
        + _SECONDS
        + r"(?!\s*(?:/|per|a|each|every)\s*(?:output\s+)?(?:tokens?|tok)\b)",
        _latency("ttft_ms", "TTFT", " (latency read as time to first token)"),
        needs=("latency", "response", "answer", "repl", "first", "start", "begin"),
    ),
    rule(
        "shape",
        r"\b(?:isl\s*/\s*osl|in\s*/\s*out|input\s*/\s*output)\s*(?:of|=|:)?\s*"
        + _LEN
        + r"\s*/\s*"
        + _LEN
        + r"\b"
        # "8k/1k" alone: at least one side carries its k, so "24/7" or a date is not a shape
        + r"|(?<![\w./$])(?=\d[\d,.]*\s*k\b|\d[\d,.]*\s*k?\s*/\s*\d[\d,.]*\s*k\b)"
        + _LEN
        + r"\s*/\s*"
        + _LEN
        + r"\b(?!\s*[/:])"
        # "8k in / 1k out", "8k input, 1k output tokens"
        + r"|(?<![\w.])"
        + _LEN
        + r"(?:\s*tokens?)?\s*in(?:put)?\s*(?:/|,|and|\+)?\s*"
        + _LEN
        + r"(?:\s*tokens?)?\s*out(?:put)?\b(?:\s*tokens?)?",
        _shape,
        needs=("/", "osl", "out"),
    ),
    rule(
        "isl",
        r"(?<![\w.])" + _LEN + r"(?:[- ]tokens?)?[- ](?:input|prompt)s?\b(?:\s*tokens?)?"
        r"(?:\s+length)?"
        r"|\b" + _INPUT + _ABOUT + r"(?<![\w.])" + _LEN + r"(?:\s*tokens?)?\b"
        r"|(?<![\w.])" + _LEN + r"[- ]tokens?\s+(?:inputs?|prompts?|queries)\b",
        _one_length("isl_tokens", "input tokens"),
        needs=("input", "isl", "prompt", "queries", "sequence", "token"),
    ),
    rule(
        "osl_verb",
        r"\b(?:generat(?:e|es|ing)|produc(?:e|es|ing)|writ(?:e|es|ing)|return(?:s|ing)?)\s+"
        r"(?:about\s+|around\s+|~\s*|up\s+to\s+|roughly\s+)?(?<![\w.])"
        + _LEN
        + r"\s*(?:output\s+)?tokens?\b"
        + _NOT_RATE,
        _one_length("osl_tokens", "output tokens"),
        needs=("token",),
    ),
    rule(
        "osl",
        r"(?<![\w.])" + _LEN + r"(?:[- ]tokens?)?[- ](?:output|completion|generated|answer|"
        r"response)s?\b(?:\s*tokens?)?"
        + _NOT_RATE
        + r"|\b"
        + _OUTPUT
        + _ABOUT
        + r"(?<![\w.])"
        + _LEN
        + r"(?:\s*tokens?)?\b"
        + _NOT_RATE
        + r"|(?<![\w.])"
        + _LEN
        + r"[- ]tokens?\s+(?:outputs?|answers?|responses?|completions?|replies|summar(?:y|ies)|"
        r"out\b(?!\s+of))\b",
        _one_length("osl_tokens", "output tokens"),
        needs=(
            "answer",
            "completion",
            "generated",
            "generation",
            "osl",
            "out",
            "output",
            "token",
            "replies",
            "response",
            "sequence",
            "reasoning",
            "thinking",
        ),
    ),
    rule("percentile", _PCT, _lone_percentile, needs=("p",)),
    rule(
        "interactive",
        r"\binteractive(?:ly)?\b|\bchat(?:bots?)?\b|\breal[- ]?time\b|\blive\s+users?\b"
        # "latency-sensitive", "latency critical": people wait on it, at no stated limit
        r"|\blatency[- ](?:sensitive|critical|bound)\b|\blow[- ]latency\b"
        # an application a person waits on: "RAG assistant", "coding agents", "a copilot"
        r"|\b(?:(?:rag|ai|coding|code|support|customer[- ]service|research|virtual)\s+)?"
        r"(?:assistants?|copilots?|agents?|agentic(?:\s+workflows?)?)\b",
        lambda m: [Reading("interactive", True, "interactive serving")],
        needs=("agent", "assistant", "chat", "copilot", "interactive", "live", "real", "latency"),
    ),
    rule(
        "offline",
        r"\boffline\b|\bbatch\s+(?:inference|serving|jobs?|processing)\b" + _OFFLINE_MORE,
        lambda m: [Reading("interactive", False, "offline (batch) serving")],
        needs=("batch", "interactivity", "latency", "offline", "slo", "throughput", "tpot", "ttft"),
    ),
)


# --- serving engine, disaggregation and speculative decoding (issue 36) ---
_ENGINES = {
    "tensorrt": "tensorrt-llm",
    "trt": "tensorrt-llm",
    "vllm": "vllm",
    "sglang": "sglang",
    "dynamo": "dynamo",
}


def _engine(m: re.Match[str]) -> list[Reading]:
    word = m.group(1).lower()
    engine = next(v for k, v in _ENGINES.items() if k in word)
    return [Reading("serving_engine", engine, f"served with {engine}")]


#: the words of a serving stack a negation may rule out, item by item
_STACK = (
    r"dynamo|vllm|sglang|tensorrt[- ]?llm|trt[- ]?llm|(?:p/d\s+)?disaggregat(?:ed|ion)(?:\s+(?:prefill"
    r"(?:[- /](?:and\s+)?decode)?|serving|inference))?|separate\s+prefill|mtp|speculative\s+decoding"
    r"|multi[- ]token\s+prediction|eagle[- ]?3?"
)


def _stack_ruled_out(m: re.Match[str]) -> list[Reading]:
    out: list[Reading] = []
    for item in re.findall(_STACK, m.group(0)):
        if "disaggregat" in item or item.startswith("separate"):
            out.append(Reading("disaggregated", False, "prefill and decode on the same servers"))
        elif item.startswith(("mtp", "speculative", "multi", "eagle")):
            out.append(Reading("speculative_decoding", False, "no speculative decoding"))
        else:
            engine = next(v for k, v in _ENGINES.items() if k in item)
            out.append(Reading("_said", f"not {engine}", f"not served with {engine}", "member"))
    return out


#: read with the serving rules: the engine, prefill/decode on separate pools, MTP or EAGLE
STACK_RULES: tuple[Rule, ...] = (
    # "we don't want Dynamo or disaggregation", "no vLLM": a serving stack ruled out, every item
    # of the list (before the rules that read the words as asked for)
    rule(
        "stack_ruled_out",
        r"\b(?:no|not|without|avoid(?:ing)?|skip(?:ping)?|(?:do\s+not|don[’']?t)\s+(?:want|need|use)"
        r"|rather\s+not)"
        r"\s+(?:(?:using|use|any|a|the|nvidia)\s+)*(?:"
        + _STACK
        + r")(?:\s*(?:,|/|or|nor|and|,\s*or)\s*(?:"
        + _STACK
        + r"))*\b",
        _stack_ruled_out,
        needs=(
            "disaggregat",
            "dynamo",
            "eagle",
            "mtp",
            "sglang",
            "speculative",
            "trt",
            "tensorrt",
            "vllm",
            "prediction",
            "separate",
        ),
    ),
    rule(
        "serving_engine",
        r"\b(tensorrt[- ]?llm|trt[- ]?llm|vllm|sglang|(?:nvidia\s+)?dynamo)\b",
        _engine,
        needs=("dynamo", "llm", "sglang", "tensorrt", "trt"),
    ),
    # "aggregated serving", "MTP off": said not to be used without a negation word ("no
    # disaggregation", "without MTP" are the ruled-out stack's, above)
    rule(
        "not_disaggregated",
        r"(?<!dis)\baggregated\s+(?:serving|inference|prefill)\b"
        r"|\b(?:co-?located|colocated)\s+prefill(?:\s+and\s+decode)?\b",
        lambda m: [Reading("disaggregated", False, "prefill and decode on the same servers")],
        needs=("aggregat", "located"),
    ),
    rule(
        "no_speculative_decoding",
        r"\b(?:speculative\s+decoding|mtp|eagle[- ]?3?)\s+(?:off|disabled|turned\s+off)\b",
        lambda m: [Reading("speculative_decoding", False, "no speculative decoding")],
        needs=("eagle", "mtp", "speculative"),
    ),
    rule(
        "disaggregated",
        r"\bdisaggregat(?:ed|ion)(?:\s+(?:prefill(?:[- /](?:and\s+)?decode)?|serving|inference|"
        r"p/d|pd))?\b"
        r"|\b(?:prefill[- /]decode|p/d|pd)\s+(?:disaggregation|split|separation)\b",
        lambda m: [Reading("disaggregated", True, "prefill and decode on separate pools")],
        needs=("disaggregat", "split", "separation"),
    ),
    # "TP8", "TP=4", "tensor parallel 8", "8-way tensor parallelism": the width of a model copy
    rule(
        "tensor_parallel_gpus",
        r"\btp\s*[=:]?\s*(\d{1,3})\b|\btensor[- ]parallel(?:ism)?\s*(?:of|=|:)?\s*(\d{1,3})\b"
        r"|(?<![\w.])(\d{1,3})[- ]way\s+tensor[- ]parallel(?:ism)?\b"
        # "no TP", "each GPU its own replica", "one replica per GPU": a copy on every GPU
        r"|\b(?P<one>no\s+(?:tp|tensor[- ]parallel(?:ism)?)|(?:each|every)\s+gpu\s+(?:is\s+|runs\s+)?"
        r"(?:its\s+own|a|one)\s+(?:replica|copy|instance)|one\s+(?:replica|copy|instance)\s+per\s+gpu)\b",
        lambda m: [
            Reading(
                "tensor_parallel_gpus",
                n := 1 if m.group("one") else int(m.group(1) or m.group(2) or m.group(3)),
                f"a model copy over {n} GPU{'s' if n > 1 else ''} (tensor parallel)",
            )
        ],
        needs=("tp", "tensor", "parallel", "no", "each", "every", "replica", "copy", "instance"),
    ),
    rule(
        "speculative_decoding",
        r"\bspeculative\s+decoding\b|\bmtp\b|\bmulti[- ]token\s+prediction\b|\beagle[- ]?3?\b",
        lambda m: [Reading("speculative_decoding", True, "speculative decoding (MTP)")],
        needs=("eagle", "mtp", "prediction", "speculative"),
    ),
)
