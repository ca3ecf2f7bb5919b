"""The phrases of a workload request: prices and budgets, serving targets and latency limits,
request shapes, durations, precision and sequence length, and tokens given in the wrong unit.

`MONEY_RULES` read first (a "$2M" budget is not a 2M-parameter model); `WORKLOAD_RULES` read
before token counts and model sizes; `TOKEN_UNIT_RULES` read right after token counts with a
unit, to refuse what is left: a bare "15 tokens" or a data size where tokens were meant.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from clustergen.engine.request.rules.phrases import Reading, Rule, num, rule, seconds_per
from clustergen.errors import RequestError
from clustergen.units import per_kwh

_AMOUNT = r"(\d[\d,]*(?:\.\d+)?)"
_SCALE = {
    "": 1.0,
    "k": 1e3,
    "m": 1e6,
    "mm": 1e6,
    "million": 1e6,
    "b": 1e9,
    "bn": 1e9,
    "billion": 1e9,
}
_PER = r"\s*(?:/|per|an?|each)\s*"


def _usd(m: re.Match[str]) -> float:
    amount = m.group(1) or m.group(3)
    scale = (m.group(2) or m.group(4) or "").strip()
    return num(amount) * _SCALE[scale]


Read = Callable[[re.Match[str]], list[Reading]]


def _price(field: str, what: str) -> Read:
    def read(m: re.Match[str]) -> list[Reading]:
        usd = num(m.group(1) or m.group(2))
        named = (m.group(3) if m.re.groups >= 3 else None) or ""
        out = [Reading(field, usd, f"${usd:g} per {named + ' ' if named else ''}{what}")]
        # "$2 per H800 GPU-hour" prices that GPU: its name is resolved against the catalog
        return out + ([Reading("price_names_gpu", named, "", "set")] if named else [])

    return read


def _hour_of_what(m: re.Match[str]) -> list[Reading]:
    raise RequestError(
        f"{m.group(0).strip()!r} does not say what the hour is of",
        hint="say '$2.49 per GPU-hour' or '$39 per node-hour'",
    )


def _budget(m: re.Match[str]) -> list[Reading]:
    usd = _usd(m)
    return [Reading("budget_usd", usd, f"budget ${usd:,.0f}")]


def _capital(m: re.Match[str]) -> list[Reading]:
    usd = _usd(m)
    return [Reading("capital_budget_usd", usd, f"capital budget ${usd:,.0f}")]


def _energy_price(m: re.Match[str]) -> list[Reading]:
    usd = num(m.group(1) or m.group(2))
    return [Reading("usd_per_kwh", usd, f"energy {per_kwh(usd)}"), *_paid_over(m)]


def _cents_per_kwh(m: re.Match[str]) -> list[Reading]:
    usd = num(m.group(1)) / 100
    return [Reading("usd_per_kwh", usd, f"energy {per_kwh(usd)}"), *_paid_over(m)]


#: "$0.09/kWh for 3 years": the term the price is paid over (it was read as a 3-year run)
_PAID_OVER = r"(?:\s+(?:for|over)\s+(?P<years>\d+(?:\.\d+)?)\s*(?:years?|yrs?)\b)?"


def _paid_over(m: re.Match[str]) -> list[Reading]:
    years = m.group("years")
    if not years:
        return []
    return [Reading("tco_years", float(years), f"cost-of-ownership term {float(years):g} years")]


def _term(m: re.Match[str]) -> list[Reading]:
    said = next(g for g in m.groups() if g)
    years = 1.0 if said in ("a", "one") else num(said)
    unit = "year" if years == 1 else "years"
    return [Reading("tco_years", years, f"cost-of-ownership term {years:g} {unit}")]


def _target(m: re.Match[str]) -> list[Reading]:
    per = seconds_per(m.group(3))  # "1M tokens per minute" is 16,667 a second
    scale = {None: 1.0, "k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6}
    scale |= {"b": 1e9, "bn": 1e9, "billion": 1e9}
    rate = num(m.group(1)) * scale[m.group(2)] / per
    note = f"serving {rate:,.0f} output tokens/s"
    if per == 86400:
        note += " (a day's volume at an even rate; peaks need more)"
    elif per != 1:
        note += f" ({m.group(0)})"
    return [Reading("output_tokens_per_s", rate, note)]


def _precision(m: re.Match[str]) -> list[Reading]:
    word = m.group(1)
    value = {"nvfp4": "fp4", "mxfp4": "fp4", "mxfp8": "fp8"}.get(word, word)
    return [Reading("precision", value, f"precision {value}")]


def _bare_tokens(m: re.Match[str]) -> list[Reading]:
    count = num(m.group(1))
    if count < 1e6:
        raise RequestError(
            f"{m.group(0).strip()!r} is too few tokens to train on, and says neither input nor output",
            hint="give the unit to train on, e.g. '15T tokens', or say which length it is, e.g. "
            "'2,000 input tokens' or 'answers of 500 tokens'",
        )
    return [Reading("training_tokens_t", count / 1e12, "training tokens")]


def _data_size(m: re.Match[str]) -> list[Reading]:
    raise RequestError(
        f"{m.group(0).strip()!r} is a data size, and training time depends on tokens",
        hint="give tokens, e.g. '15T tokens' (English text runs about 4 bytes per token)",
    )


def _sequence(m: re.Match[str]) -> list[Reading]:
    value, k = next((m.group(i), m.group(i + 1)) for i in (1, 3, 5) if m.group(i))
    n = round(num(value) * (1e3 if k else 1.0))
    return [Reading("sequence_tokens", n, f"sequence {n} tokens")]


def _context(m: re.Match[str]) -> int:
    value, k = m.group(1) or m.group(3), m.group(2) or m.group(4)
    return round(num(value) * (1e3 if k else 1.0))


_USD = (
    r"(?:\$\s*" + _AMOUNT + r"\s*(k|mm|m|million|bn|b|billion)?"
    r"|(?<![\w.])" + _AMOUNT + r"\s*(k|mm|m|million|bn|b|billion)?\s*(?:usd|dollars?))\b"
)
_PRICE = r"(?:\$\s*" + _AMOUNT + r"|(?<![\w.])" + _AMOUNT + r"\s*(?:usd|dollars?))"
_LEN = r"(\d[\d,]*)\s*(k)?"
#: a GPU's name inside a price ("H800", "A100 40GB"): a word with a digit, a memory size after
_GPU_NAME = r"[a-z][a-z0-9.+]*\d[a-z0-9.+]*(?:[- ](?!gpu)[a-z0-9.+]+)*?(?:\s+\d+\s*gb)?"

#: spending said to be no limit ("budget isn't a concern", "money is no object"): read so it
#: is not left not understood; it sets no field (no budget is the default)
_NO_SPEND_LIMIT = (
    # a negation is needed: "cost is the main concern" says the opposite
    r"\b(?:budget|costs?|price|money|spend(?:ing)?|capex|capital)\s+(?:(?:is|are|was)\s+(?:not|no)|"
    r"isn[’']?t|aren[’']?t|wasn[’']?t)\s+(?:really\s+|much\s+of\s+)*(?:an?\s+|the\s+)?(?:main\s+|"
    r"primary\s+|big\s+|major\s+)?(?:concern|issue|object|constraint|problem|limit(?:ation)?|"
    r"factor|priority)\b"
    r"|\bno\s+(?:hard\s+)?(?:budget|spend(?:ing)?|cost)\s+(?:limit|constraint|cap|ceiling)s?\b"
    r"|\b(?:regardless|irrespective)\s+of\s+(?:the\s+)?(?:cost|price|budget)\b"
)

#: an amount in another currency ("10 million euros", "€5M", "£2m", "500k EUR")
_OTHER_CURRENCY = (
    r"[€£¥]\s*" + _AMOUNT + r"\s*(?:k|mm|m|million|bn|b|billion)?\b"
    r"|(?<![\w.])" + _AMOUNT + r"\s*(?:k|mm|m|million|bn|b|billion)?\s*"
    r"(?:eur|euros?|gbp|pounds?(?:\s+sterling)?|jpy|yen|chf|swiss\s+francs?|cad|aud|inr|rupees?|"
    r"cny|rmb|yuan)\b"
)


def _other_currency(m: re.Match[str]) -> list[Reading]:
    raise RequestError(
        f"{m.group(0).strip()!r} is not in US dollars, and every price here is: no exchange rate "
        "is assumed",
        hint="give the amount in US dollars, e.g. '$11M capital budget'",
    )


#: power said to be no limit ("we are not limited on power", "power is not a constraint"): read
#: so it is not left not understood; it sets no field (no cap is the default)
_NO_POWER_LIMIT = (
    r"\b(?:power|energy|electricity)\s+(?:is\s+(?:not|no)|isn[’']?t)\s+(?:really\s+)?(?:an?\s+|the\s+)?"
    r"(?:concern|issue|constraint|problem|limit(?:ation)?|factor)\b"
    r"|\bnot\s+(?:limited|constrained)\s+(?:on|by|in)\s+power\b"
    r"|\bnot\s+power[- ](?:limited|constrained)\b"
    r"|\bno\s+power\s+(?:limit|constraint|cap)s?\b|\bunlimited\s+power\b"
)


def _running_cost(m: re.Match[str]) -> list[Reading]:
    raise RequestError(
        f"{m.group(0).strip()!r} is a running cost over a period, which no design is sized to",
        hint="give a capital budget ('$5M capital budget'), a price per GPU-hour to cost a job, "
        "or an energy price ('$0.08/kWh') for the cost of ownership",
    )


#: read before anything else
MONEY_RULES: tuple[Rule, ...] = (
    rule(
        "other_currency",
        _OTHER_CURRENCY,
        _other_currency,
        needs=(
            *("€", "£", "¥", "eur", "gbp", "pound", "jpy", "yen", "chf", "franc", "cad", "aud"),
            *("inr", "rupee", "cny", "rmb", "yuan", "swiss"),
        ),
    ),
    # "opex $50k per month", "$300k a month": a running cost over a period is no capital budget
    # and nothing here sizes to one, so it is refused saying what would work
    rule(
        "running_cost",
        r"\b(?:opex|operating\s+(?:costs?|expenses?|budget)|running\s+costs?|monthly\s+(?:costs?|"
        r"spend|budget|bill))\b[^.;$\d]{0,30}?"
        + _USD
        + r"|"
        + _USD
        + r"\s*(?:(?:per|a|an|/|each|every)\s*(?:month|mo|year|yr|week|quarter)\b|"
        r"monthly\b|annually\b|yearly\b|per\s+annum\b)",
        _running_cost,
        needs=(
            "opex",
            "operating",
            "running",
            "mo",
            "year",
            "yr",
            "annum",
            "annually",
            "week",
            "quarter",
        ),
    ),
    rule(
        "no_power_limit",
        _NO_POWER_LIMIT,
        lambda m: [Reading("_said", "no power limit", "no power limit", mode="member")],
        needs=("power", "energy", "electricity", "limited", "constrained"),
    ),
    rule(
        "no_spend_limit",
        _NO_SPEND_LIMIT,
        lambda m: [Reading("_said", "no spend limit", "no spending limit", mode="member")],
        needs=(
            "concern",
            "constraint",
            "factor",
            "irrespective",
            "issue",
            "limit",
            "object",
            "priority",
            "problem",
            "regardless",
            "budget",
            "cost",
            "spend",
        ),
    ),
    rule(
        "price_gpu_hour",
        _PRICE + _PER + r"(?:(" + _GPU_NAME + r")[- ]+(?:gpus?[- /]?)?|gpus?[- /]?)"
        r"(?:hours?|hrs?|h)\b",
        _price("price_per_gpu_hour", "GPU-hour"),
        needs=("h",),
    ),
    rule(
        "price_node_hour",
        _PRICE + _PER + r"(?:(?:node|server|system|instance|box)[- /]?(?:hours?|hrs?|h)\b|"
        r"(?:node|server|system|instance|box)\s*" + _PER + r"(?:hours?|hrs?|h)\b|"
        r"(?:hours?|hrs?|h)\s*" + _PER + r"(?:node|server|system|instance|box)\b)",
        _price("price_per_node_hour", "node-hour"),
        needs=("box", "instance", "node", "server", "system"),
    ),
    rule(
        "price_gpu_per_hour",
        _PRICE + _PER + r"(?:gpus?\s*(?:/|per|an?|each)\s*(?:hours?|hrs?|h)\b"
        r"|(?:hours?|hrs?|h)\s*(?:/|per|for\s+each|each|a)\s*gpus?\b)",
        _price("price_per_gpu_hour", "GPU-hour"),
        needs=("gpu",),
    ),
    rule("price_hour_of_what", _PRICE + _PER + r"(?:hours?|hrs?|h)\b", _hour_of_what, needs=("h",)),
    rule(
        "energy_price",
        # "energy at $0.10/kWh", "power costs $0.08 per kWh": the words before it said with it
        r"(?:\b(?:energy|electricity|power)(?:\s+(?:price|cost|costs|rate|tariff))?"
        r"(?:\s+(?:is|at|of|=|:))?\s*)?" + _PRICE + r"\s*(?:/|per|an?)\s*kwh\b" + _PAID_OVER,
        _energy_price,
        needs=("kwh",),
    ),
    rule(
        "energy_cents",
        r"(?:\b(?:energy|electricity|power)(?:\s+(?:price|cost|costs|rate|tariff))?"
        r"(?:\s+(?:is|at|of|=|:))?\s*)?"
        r"(?<![\w.])(\d+(?:\.\d+)?)\s*(?:cents?|c|¢)\s*(?:/|per|an?)\s*kwh\b" + _PAID_OVER,
        _cents_per_kwh,
        needs=("kwh",),
    ),
    rule(
        "capital_budget",
        r"\b(?:capex|capital(?:\s+budget)?|hardware\s+budget|purchase\s+budget)\s*"
        r"(?:of|:|=|is|up\s+to|under|below|within)?\s*" + _USD,
        _capital,
        needs=("capex", "capital", "hardware", "purchase"),
    ),
    rule(
        "capital_after",
        _USD + r"\s*(?:of\s+)?(?:capex|capital|hardware\s+budget)\b",
        _capital,
        needs=("capex", "capital", "hardware"),
    ),
    rule(
        "tco_term",
        r"(?<![\w.])(\d+(?:\.\d+)?)[- ]?(?:years?|yrs?)[- ](?:tco|term|total cost of ownership|"
        r"cost of ownership|(?:of\s+)?(?:support|warranty|maintenance|service\s+contract))\b"
        r"|\b(?:tco|total cost of ownership|cost of ownership)\s+(?:over|of|for)\s+"
        r"(\d+(?:\.\d+)?)\s*(?:years?|yrs?)\b"
        r"|\bover\s+(?:a\s+)?(\d+(?:\.\d+)?)[- ]?(?:years?|yrs?)\b"
        # what it costs to run for a term ("cost to run for a year", "costs over 2 years"): the
        # cost's term, not a training deadline
        r"|\bcosts?\b[^.;$\d]{0,30}?\bfor\s+(\d+(?:\.\d+)?|a|one)\s+(?:full\s+)?(?:years?|yrs?)\b",
        _term,
        needs=("cost", "over", "tco", "term", "support", "warranty", "maintenance", "contract"),
    ),
    rule("budget", _USD, _budget, needs=("$", "dollar", "usd")),
)


#: read before token counts and model sizes
def _examples(m: re.Match[str]) -> list[Reading]:
    """'100k examples of 2k tokens for 3 epochs': the tokens a fine-tune trains on, counted."""
    scale = {None: 1.0, "k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6}
    n = num(m.group("n")) * scale[m.group("nk")]
    length = num(m.group("len")) * (1e3 if m.group("lk") else 1.0)
    epochs = int(m.group("ep")) if m.group("ep") else 1
    tokens = n * length * epochs
    times = f" x {epochs} epochs" if epochs > 1 else ""
    note = f"training tokens {tokens:,.0f} ({n:,.0f} examples x {length:,.0f} tokens{times})"
    return [
        Reading("training_tokens_t", tokens / 1e12, note),
        # kept apart for a served model: the same words are a batch of prompts then
        Reading("_examples", (n, length, epochs), "", "set"),
    ]


WORKLOAD_RULES: tuple[Rule, ...] = (
    rule(
        "examples",
        r"(?<![\w.])(?P<n>\d[\d,]*(?:\.\d+)?)\s*(?P<nk>k|m|thousand|million)?\s+"
        r"(?:(?:training|preference|instruction|chat|labell?ed|synthetic|sft|dpo)\s+)?"
        r"(?:examples|samples|sequences|documents|conversations|dialogues|rows|records|pairs|"
        r"instructions)\s+(?:of|at|with|averaging)\s+(?:about\s+|~\s*|around\s+|roughly\s+)?"
        r"(?P<len>\d[\d,]*(?:\.\d+)?)(?:\s*(?P<lk>k)\b)?\s*tokens?(?:\s+each)?"
        r"(?:,?\s+(?:(?:for|over|x|×)\s+)?(?P<ep>\d+)\s+epochs?)?",
        _examples,
        needs=("token",),
    ),
    rule(
        "serving_target",
        r"(?<![\w.])" + _AMOUNT + r"\s*([kmb]|bn|million|thousand|billion)?\s*"
        r"(?:output\s+|generated\s+)?(?:tokens?|tok)"
        r"\s*(?:/\s*|(?:per|an?|each)\s+)(s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|d|days?)\b",
        _target,
        needs=("tok",),
    ),
    rule(
        "precision",
        r"\b(bf16|fp16|fp8|fp4|nvfp4|mxfp4|mxfp8)\b",
        _precision,
        needs=("bf16", "fp16", "fp4", "fp8"),
    ),
    rule(
        "sequence",
        # not "input sequence length" (a serving request's prompt length)
        r"(?<!input )(?<!output )\b(?:sequence|seq)(?:\s*length)?\s*(?:of|=|:)?\s*" + _LEN + r"\b"
        r"|(?<![\w.])" + _LEN + r"[- ]token\s+sequences?\b"
        # "4k seq", "8k sequence length", "2048 seq len"
        r"|(?<![\w.])" + _LEN + r"\s*(?:seq(?:uence)?s?)(?:\s*len(?:gth)?)?\b",
        _sequence,
        needs=("context", "seq"),
    ),
    # "8k context", "a 32k-token context window": the training sequence, or a served prompt's
    # length; which is settled once the whole request is read (parse.py `_context_meaning`)
    rule(
        "context",
        r"(?<![\w.])" + _LEN + r"(?:[- ]tokens?)?[- ](?:context|ctx)(?:\s+(?:window|length))?\b"
        r"|\bcontext(?:\s+(?:window|length))?\s*(?:of|=|:)?\s*" + _LEN + r"(?:\s*tokens?)?\b",
        lambda m: [Reading("_context", _context(m), f"context {_context(m):,} tokens")],
        needs=("context", "ctx"),
    ),
)

#: read right after token counts with a unit
TOKEN_UNIT_RULES: tuple[Rule, ...] = (
    rule(
        "data_size",
        r"(?<![\w.])\d+(?:\.\d+)?\s*(?:tb|pb|gb|terabytes?|petabytes?)\s*(?:of\s+)?"
        r"(?:text|tokens|training text|corpus)\b",
        _data_size,
        needs=("corpus", "text", "tokens"),
    ),
    rule(
        "bare_tokens",
        r"(?<![\w.$])(\d[\d,]*(?:\.\d+)?)\s*tokens?\b(?!\s*(?:/|per))",
        _bare_tokens,
        needs=("token",),
    ),
)


# ---- a cluster split between training and serving ("half for training, half for inference",
# "25% of them for serving"): each share becomes `serving_share` (the share of the GPUs that
# serves) and marks the workload mixed, so the planner builds two pools: training on a training
# platform with a non-blocking fabric, serving on its own terms.

#: shares written in words
_WORDS = {
    "half": 0.5,
    "one half": 0.5,
    "a half": 0.5,
    "a quarter": 0.25,
    "one quarter": 0.25,
    "a third": 1 / 3,
    "one third": 1 / 3,
    "two thirds": 2 / 3,
    "three quarters": 0.75,
}

_SHARE = (
    r"(?P<share>(?:one |a )?half|(?:a|one) quarter|(?:a|one) third|two[- ]thirds|"
    r"three[- ]quarters|(?<![\w.])\d+(?:\.\d+)?\s*%)"
)
_ROLE = r"(?P<role>inference|inferencing|serving|training|fine-tuning)"


def _share(m: re.Match[str]) -> list[Reading]:
    text = m.group("share").lower().replace("-", " ")
    share = num(text.rstrip("% ")) / 100 if text.endswith("%") else _WORDS[text]
    if not 0 < share < 1:
        raise RequestError(
            f"{m.group(0).strip()!r} is not a share of the cluster",
            hint="give a share between 0 and 100%, e.g. 'half for inference'",
        )
    role = m.group("role").lower()
    serving = share if role.startswith(("inferenc", "serv")) else 1 - share
    return [
        Reading("serving_share", round(serving, 6), f"{serving:.0%} of the GPUs serve"),
        Reading("workload", "mixed", "workload", "member"),
    ]


_ROLE_WORD = r"(inference|inferencing|serving|training|fine-tuning)"
_POOL = r"(?<![\w.])(\d[\d,]*)\s*(?:gpus?\s+)?(?:for|to|on|doing)\s+" + _ROLE_WORD + r"\b"


def _pool_counts(m: re.Match[str]) -> list[Reading]:
    """'256 for training, 64 for serving': the GPUs are the sum, the serving share theirs."""
    a, role_a, b, role_b = m.group(1), m.group(2), m.group(3), m.group(4)
    serves = [r.startswith(("inferenc", "serv")) for r in (role_a, role_b)]
    if serves[0] == serves[1]:
        return []  # two counts of one role: not a split
    n_a, n_b = int(num(a)), int(num(b))
    total = n_a + n_b
    serving = (n_a if serves[0] else n_b) / total
    return [
        Reading("gpus", total, f"{total:,} GPUs in two pools ({n_a:,} {role_a}, {n_b:,} {role_b})"),
        Reading("serving_share", round(serving, 6), f"{serving:.0%} of the GPUs serve"),
        Reading("workload", "mixed", "workload", "member"),
    ]


def _ratio_split(m: re.Match[str]) -> list[Reading]:
    """'training and inference, 60/40 split', 'a 70/30 split between serving and training':
    the two figures share the GPUs in the order the roles are named."""
    roles = [m.group(g) for g in ("r1", "r2", "r3", "r4") if m.group(g)]
    a, b = float(m.group("a") or m.group("a2")), float(m.group("b") or m.group("b2"))
    serves = [r.startswith(("inferenc", "serv")) for r in roles]
    if serves[0] == serves[1] or a <= 0 or b <= 0:
        return []
    serving = (a if serves[0] else b) / (a + b)
    return [
        Reading("serving_share", round(serving, 6), f"{serving:.0%} of the GPUs serve"),
        Reading("workload", "mixed", "workload", "member"),
    ]


_RATIO = r"(?<![\w.])(?P<{a}>\d{{1,3}})\s*[/:]\s*(?P<{b}>\d{{1,3}})(?![\w.])"
_ROLE2 = r"(?P<{g}>inference|inferencing|serving|training|fine-tuning)"


#: read before the workload words, which would otherwise take "training" and "inference"
POOL_RULES: tuple[Rule, ...] = (
    # "256 for training, 64 for serving", "512 GPUs for training and 128 for inference"
    rule(
        "pool_counts",
        _POOL + r"[\s,;]*(?:and|plus|\+|with)?\s*" + _POOL,
        _pool_counts,
        needs=("infer", "serving", "training", "fine-tuning"),
    ),
    # "half for inference", "25% of them for serving"; and a ratio of the two ("for both
    # training and inference, 60/40 split", "a 70/30 split between serving and training")
    rule(
        "pool_share",
        _SHARE + r"\s+(?:of\s+(?:them|it|those|the\s+(?:gpus|cluster|capacity))\s+)?"
        r"(?:(?:is|are|goes|go|will\s+be|reserved|dedicated|set\s+aside)\s+)*"
        r"(?:(?:for|to|on)\s+)?"
        + _ROLE
        + r"\b|"
        + _ROLE2.format(g="r1")
        + r"\s*(?:and|&|/|\+|vs\.?)\s*"
        + _ROLE2.format(g="r2")
        + r"[\s,;:(-]*(?:with\s+|at\s+|in\s+)?(?:an?\s+|the\s+)?"
        + _RATIO.format(a="a", b="b")
        + r"(?:\s*(?:split|ratio|share))?"
        + r"|(?:split\s+)?(?:an?\s+)?"
        + _RATIO.format(a="a2", b="b2")
        + r"\s*(?:split|ratio)?\s*(?:between|of|for|across)?\s*"
        + _ROLE2.format(g="r3")
        + r"\s*(?:and|&|/|\+|vs\.?)\s*"
        + _ROLE2.format(g="r4"),
        lambda m: _ratio_split(m) if m.group("a") or m.group("a2") else _share(m),
        needs=("infer", "serving", "training", "fine-tuning"),
    ),
    # "..., the rest training": the other pool of a split already stated
    rule(
        "pool_rest",
        r"\b(?:the\s+)?(?:rest|remainder)\s+(?:(?:is|are|goes|go|for|on|to|of\s+them)\s+)*"
        + _ROLE
        + r"\b",
        lambda m: [Reading("workload", "mixed", "workload", "member")],
        needs=("infer", "serving", "training", "fine-tuning"),
    ),
)
