"""Serving load written as requests or people rather than tokens: "100 requests/s", "50 QPS",
"1,000 concurrent users". Each becomes the output-token rate the estimator sizes for, from the
request's own output length or speed per user; without them, from the same catalog defaults the
estimator then states as assumptions (output tokens per request, TPOT), so the rate and the
latency it is sized at agree and the user sees what was assumed."""

from __future__ import annotations

import re

from clustergen.catalog.loader import Catalog
from clustergen.engine.model.request import LOAD_NOTE
from clustergen.engine.request.rules.phrases import Reading, Rule, num, rule, seconds_per
from clustergen.errors import RequestError

_AMOUNT = r"(?<![\w.])(\d+(?:,\d{3})*(?:\.\d+)?)\s*(k|m(?=\s)|thousand|million)?"
_SCALE = {None: 1.0, "k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6}


def _amount(m: re.Match[str]) -> float:
    if m.groupdict().get("after"):
        return num(m.group("after")) * (1e3 if m.group("after_k") else 1.0)
    return num(m.group(1)) * _SCALE[m.group(2)]


def _user_base(m: re.Match[str]) -> list[Reading]:
    raise RequestError(
        f"{m.group(0).strip()!r} is a user base, not a load: how many of them use it at once is "
        "not in the request",
        hint="say the peak load, e.g. '500 concurrent users' or '20 requests/s'",
    )


def _share(m: re.Match[str]) -> list[Reading]:
    share = num(m.group(1)) / 100
    if not 0 < share <= 1:
        raise RequestError(f"{m.group(0).strip()!r} is not a share of users", hint="say 1-100%")
    return [Reading("_active_share", share, f"{share:.0%} of the users active at once")]


#: who the users are, written between the count and "users": "500 internal users"
_WHOSE = (
    r"(?:(?:internal|external|enterprise|corporate|company|total|registered|named|expected|"
    r"peak|paying|business|beta|end)[- ]?\s*)?"
)

#: who a serving load counts
_PEOPLE = (
    r"(?:users?|seats?|employees|staff|people|customers|agents|developers|devs|engineers|analysts|"
    r"researchers|scientists|students|clinicians|lawyers)\b"
)

#: read before token rates and lengths; the readings are turned into a token rate by `to_tokens`
#: "2,000 req/min peak", "20 requests/s at peak": the rate is the peak, as a load is read
_AT_PEAK = r"(?:\s+(?:at\s+)?(?:the\s+)?peak(?:\s+(?:load|hours?|times?))?\b)?"

LOAD_RULES: tuple[Rule, ...] = (
    rule(
        # "10,000 daily active users", "50k MAU": how many use it in a day or a month says
        # nothing of how many at once, so it is refused rather than read as concurrency
        "user_base",
        _AMOUNT
        + r"\s*(?:(?:daily|weekly|monthly)\s+(?:active\s+)?(?:users?|people)|dau|wau|mau)\b",
        _user_base,
        needs=("daily", "dau", "mau", "monthly", "wau", "weekly"),
    ),
    rule(
        "requests_rate",
        # one word may say what kind: "2 million support tickets a day", "500 API calls a minute"
        # the length of each may stand before the word or after it ("3,000-token documents",
        # "documents of 3,000 tokens each"): the prompt each brings
        _AMOUNT + r"\s*(?:(?P<len1>\d[\d,]*(?:\.\d+)?\s*k?)[- ]tokens?\s+)?(?:[a-z][\w-]*\s+)?"
        r"(?:requests?|reqs?|queries|query|calls?|prompts?|documents?|docs?|files?|"
        r"pages?|tickets?|emails?|transcripts?|records?|conversations?|chats?|summaries|"
        r"articles?|reports?|contracts?|notes?|messages?|claims?|invoices?|forms?|questions?|"
        r"images?|items?|jobs?|cases?)"
        r"(?:\s+of\s+(?:~|about\s+|around\s+|roughly\s+)?(?P<len2>\d[\d,]*(?:\.\d+)?\s*k?)\s*"
        r"tokens?(?:\s+each)?)?"
        r"(?:\s*(?:/|per|a|an|each|every)\s*"
        r"(?P<per>s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|months?|mo|night)\b"
        r"|\s+(?:(?:in\s+)?(?:a|one)\s+)?(?P<per2>overnight|over\s*night|nightly|night)\b)"
        + _AT_PEAK
        + r"|(?<![\w.])\d+(?:,\d{3})*(?:\.\d+)?\s*k?\s*(?P<abbr>qps|rps|rpm|qpm)\b"
        + _AT_PEAK,
        lambda m: _requests(m),
        needs=(
            *(
                "call",
                "prompt",
                "qps",
                "queries",
                "query",
                "req",
                "rps",
                "rpm",
                "qpm",
                "doc",
                "file",
            ),
            *("page", "ticket", "email", "transcript", "record", "conversation", "chat"),
            *("summaries", "article", "report", "contract", "note", "message", "claim"),
            *("invoice", "form", "question", "image", "item", "job", "case"),
        ),
    ),
    # "5,000 users (about 10% active at peak)": the share of a user base using it at once
    rule(
        "active_share",
        r"(?<![\w.])(\d+(?:\.\d+)?)\s*%\s*(?:of\s+(?:them|those|users|whom|these)\s+)?"
        r"(?:are\s+|will\s+be\s+|being\s+)?"
        r"(?:(?:concurrently|simultaneously)\s+active|active|concurrent|online|simultaneous|"
        r"in\s+use)"
        r"(?:\s+(?:at|during)\s+(?:the\s+)?(?:peak|busiest\s+hour|once|any\s+(?:given\s+)?time))?"
        r"(?:\s+at\s+once)?",
        _share,
        needs=("active", "concurrent", "online", "simultaneous", "use"),
    ),
    rule(
        "concurrent_users",
        _AMOUNT + r"\s*(?:concurrent|simultaneous|parallel|active)\s+(?:(?:chat|user|agent|"
        r"client|api|inference)\s+)?(?:users?|sessions?|streams?|requests?|conversations?|calls?|"
        r"callers?|chats?|connections?|agents?)\b",
        lambda m: [Reading("_concurrent", _amount(m), f"{_amount(m):g} concurrent streams")],
        needs=("active", "concurrent", "parallel", "simultaneous"),
    ),
    # "serve ... 1000 concurrent, TTFT 2 s": the noun left out
    rule(
        "concurrent_bare",
        _AMOUNT + r"\s*(?:concurrent|simultaneous)\b"
        r"(?:\s+(?:at\s+(?:the\s+)?(?:peak|busiest\s+hour|once)|during\s+(?:the\s+)?peak))?"
        r"(?=\s*(?:[,;.)]|$|and\b|with\b|at\b))",
        lambda m: [Reading("_concurrent", _amount(m), f"{_amount(m):g} concurrent streams")],
        needs=("concurrent", "simultaneous"),
    ),
    # "to 500 users": how customers write a serving load. Read as all of them at once (the most
    # it can be); the note says so, since a user base is often larger than its peak concurrency
    rule(
        "users",
        _AMOUNT
        + r"\s*"
        + _WHOSE
        + _PEOPLE
        + r"(?!\s*(?:/|per\b))"
        # "for our developers, about 150 of them": the count after the people it counts
        + r"|\b"
        + _PEOPLE
        + r",?\s*(?:about|around|roughly|approximately|some|~)?\s*"
        r"(?P<after>\d+(?:,\d{3})*)\s*(?P<after_k>k)?\s+of\s+them\b",
        lambda m: [
            Reading(
                "_user_base",
                _amount(m),
                f"{_amount(m):g} users, read as concurrent streams (give concurrent users or "
                "requests/s if fewer are active at once)",
            )
        ],
        needs=(
            *("agent", "analyst", "clinician", "customer", "dev", "employee", "engineer"),
            *("lawyer", "people", "researcher", "scientist", "seat", "staff", "student", "user"),
            "them",
        ),
    ),
)


def _period_s(m: re.Match[str]) -> float:
    return seconds_per(m.groupdict().get("per") or m.groupdict().get("per2") or m.group("abbr"))


def _requests(m: re.Match[str]) -> list[Reading]:
    out = [Reading("_requests_per_s", _load(m), _load_words(m))]
    length = m.groupdict().get("len1") or m.groupdict().get("len2")
    if length:
        k = length.strip().endswith("k")
        tokens = round(num(length.rstrip(" k")) * (1e3 if k else 1.0))
        out.append(Reading("isl_tokens", tokens, f"input length {tokens:,} tokens (each one's)"))
    return out


def _load(m: re.Match[str]) -> float:
    digits = re.search(r"(\d+(?:,\d{3})*(?:\.\d+)?)\s*(k|m(?=\s)|thousand|million)?", m.group(0))
    assert digits is not None  # the pattern holds one
    return num(digits.group(1)) * _SCALE[digits.group(2)] / _period_s(m)


def _load_words(m: re.Match[str]) -> str:
    """'16.7 requests/s', and the rate as written when it was per minute or hour."""
    rate = _load(m)
    number = f"{rate:,.0f}" if rate >= 100 or rate.is_integer() else f"{rate:.3g}"
    shown = f"{number} {'request' if rate == 1 else 'requests'}/s"
    if _period_s(m) == 12 * 3600:  # a night's batch: done in the window at an even rate
        return f"{shown} ({m.group(0).strip()}: in a 12-hour window at an even rate)"
    if _period_s(m) >= 86400:  # a volume over a day or more: its average, the plant's floor
        return f"{shown} ({m.group(0).strip()} at an even rate; peaks need more)"
    return shown if _period_s(m) == 1.0 else f"{shown} ({m.group(0).strip()})"


#: a volume stated per day or longer ("5M requests/day", "2 million tickets a month")
_PER_LONG = re.compile(r"(?:/|\bper\b|\ba\b|\beach\b|\bevery\b)\s*(?:day|week|month|year)")


def _number(value: object) -> float:
    assert isinstance(value, int | float)  # the rules read numbers into these fields
    return float(value)


def serving_defaults(catalog: Catalog) -> dict[str, float]:
    """The catalog's serving assumptions a load in requests or users is converted with: the same
    ones the workload estimate states when the request gives no length or speed."""
    return {
        "osl_tokens": float(catalog.assumption("osl-tokens").value),
        "tpot_ms": float(catalog.assumption("tpot-ms").value),
    }


def to_tokens(
    fields: dict[str, object], phrases: dict[str, str], defaults: dict[str, float]
) -> list[str]:
    """Requests/s x output tokens per request, or concurrent streams (users x the share active
    at once, when stated) x tokens/s per stream, as the output-token rate. A missing length or
    speed takes `defaults` (the catalog's serving assumptions, keyed by field), and the phrase
    says so. Returns the load as sized, one line per load phrase ("'800 employees' ... = 16,000
    output tokens/s")."""
    sized: list[str] = []
    whole_base = False  # a user base read as all of it at once
    if "_user_base" in fields:
        base, said = _number(fields.pop("_user_base")), phrases.pop("_user_base")
        if "_concurrent" in fields:
            # "2,000 employees, about 300 concurrent at peak": the stated peak is the load
            sized.append(
                f"{said!r} -> a user base of {base:,g}; the load is the "
                f"{phrases['_concurrent']!r} stated"
            )
        else:
            fields["_concurrent"], phrases["_concurrent"] = base, said
            whole_base = "_active_share" not in fields
    if "_active_share" in fields and "_concurrent" not in fields:
        raise RequestError(
            f"{phrases['_active_share']!r} is a share of users, but the request gives no user "
            "count",
            hint="say how many users, e.g. '5,000 users, 10% active at peak'",
        )
    given = fields.get("output_tokens_per_s")
    streams = fields.get("_concurrent")
    # "2,000 concurrent users ... and 30 tokens/s": as a total, each stream would get under one
    # token a second, which no chat is; the figure is each user's speed
    if (
        given is not None
        and streams is not None
        and "tpot_ms" not in fields
        and _number(given) < _number(streams)
    ):
        fields["tpot_ms"] = 1e3 / _number(given)
        said = phrases.pop("output_tokens_per_s")
        del fields["output_tokens_per_s"]
        sized.append(
            f"{said!r} -> {_number(given):g} tokens/s per user, TPOT {1e3 / _number(given):.3g}"
            f" ms (as a total it would leave each of {_number(streams):,g} streams under one "
            "token/s)"
        )
    for key, needs, what in (
        ("_requests_per_s", "osl_tokens", "output tokens per request"),
        ("_concurrent", "tpot_ms", "TPOT"),
    ):
        if key not in fields:
            continue
        load = _number(fields.pop(key))
        phrase = phrases.pop(key)
        if key == "_concurrent" and "_active_share" in fields:
            share = _number(fields.pop("_active_share"))
            phrases.pop("_active_share", None)
            phrase = f"{phrase} x {share:.0%} active at once = {load * share:,.0f} streams"
            load *= share
        per = fields.get(needs)
        shown = phrase
        if per is None:
            per = defaults[needs]
            shown = f"{phrase} at the assumed {per:g}{' ms' if needs == 'tpot_ms' else ''} {what}"
        per_one = _number(per) if key == "_requests_per_s" else 1e3 / _number(per)
        rate = round(load * per_one, 6)
        given = fields.get("output_tokens_per_s")
        if given is not None and abs(_number(given) - rate) > 0.01 * rate:
            raise RequestError(
                f"{shown!r} makes {rate:,.0f} output tokens/s and the request also says "
                f"{phrases['output_tokens_per_s']!r}",
                hint="state the load once",
            )
        fields["output_tokens_per_s"] = rate
        phrases["output_tokens_per_s"] = shown
        # a volume over a day or longer is its average: said where the load is, not only
        # beside the phrase (the summary and the first lines quote this line)
        even = "; an even rate, a peak needs more" if _PER_LONG.search(phrase) else ""
        if key == "_concurrent" and whole_base:
            # "about 2,000 staff": every one of them generating at once, said where it is sized
            even = "; all of them at once, an upper bound (say how many are active at peak)"
        sized.append(f"{LOAD_NOTE} {shown!r} = {rate:,.0f} output tokens/s{even}")
    return sized
