"""Serving load written as requests or people rather than tokens: "100 requests/s", "50 QPS",
"1,000 concurrent users". Each becomes the output-token rate the estimator sizes for, from the
request's own output length or speed per user; without them it is refused, never guessed."""

from __future__ import annotations

import re

from clustergen.engine.request.phrases import Reading, Rule, _num, _rule
from clustergen.errors import RequestError

_AMOUNT = r"(?<![\w.])(\d+(?:,\d{3})*(?:\.\d+)?)\s*(k)?"


def _amount(m: re.Match[str]) -> float:
    return _num(m.group(1)) * (1e3 if m.group(2) else 1.0)


#: read before token rates and lengths; the readings are turned into a token rate by `to_tokens`
LOAD_RULES: tuple[Rule, ...] = (
    _rule(
        "requests_rate",
        _AMOUNT + r"\s*(?:requests?|reqs?|queries|query|calls?|prompts?)\s*(?:/|per|a|each)\s*"
        r"(?:s|sec|second)\b|(?<![\w.])\d+(?:,\d{3})*(?:\.\d+)?\s*k?\s*(?:qps|rps)\b",
        lambda m: [Reading("_requests_per_s", _load(m), f"{_load(m):g} requests/s")],
    ),
    _rule(
        "concurrent_users",
        _AMOUNT + r"\s*(?:concurrent|simultaneous|parallel|active)\s+(?:users?|sessions?|"
        r"streams?|requests?|conversations?)\b",
        lambda m: [Reading("_concurrent", _amount(m), f"{_amount(m):g} concurrent streams")],
    ),
)


def _load(m: re.Match[str]) -> float:
    digits = re.search(r"(\d+(?:,\d{3})*(?:\.\d+)?)\s*(k)?", m.group(0))
    assert digits is not None  # the pattern holds one
    return _num(digits.group(1)) * (1e3 if digits.group(2) else 1.0)


def _number(value: object) -> float:
    assert isinstance(value, int | float)  # the rules read numbers into these fields
    return float(value)


def to_tokens(fields: dict[str, object], phrases: dict[str, str]) -> None:
    """Requests/s x output tokens per request, or concurrent streams x tokens/s per stream,
    as the output-token rate; refused when the request lacks the length or speed to convert."""
    for key, needs, what, example in (
        ("_requests_per_s", "osl_tokens", "the output tokens per request", "answers of 500 tokens"),
        ("_concurrent", "tpot_ms", "the speed each user gets", "30 tokens/s per user"),
    ):
        if key not in fields:
            continue
        load = _number(fields.pop(key))
        phrase = phrases.pop(key)
        per = fields.get(needs)
        if per is None:
            raise RequestError(
                f"{phrase!r} makes no token rate without {what}", hint=f"add e.g. '{example}'"
            )
        per_one = _number(per) if key == "_requests_per_s" else 1e3 / _number(per)
        rate = round(load * per_one, 6)
        given = fields.get("output_tokens_per_s")
        if given is not None and abs(_number(given) - rate) > 0.01 * rate:
            raise RequestError(
                f"{phrase!r} makes {rate:,.0f} output tokens/s and the request also says "
                f"{phrases['output_tokens_per_s']!r}",
                hint="state the load once",
            )
        fields["output_tokens_per_s"] = rate
        phrases["output_tokens_per_s"] = phrase
