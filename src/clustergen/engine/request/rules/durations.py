"""How long a run may take, in the words people use: "in 60 days", "two weeks", "a month",
"in 12 hours", "in 1 year", "90 minutes", and deadlines ("by March", "by 2027-03-15") counted
from today's date. Vague spans ("a few weeks") are refused, never guessed.

Word numbers ("two", "twenty-one") are read by number-parser, imported only when a duration is
written in words: digits never pay for it.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re

from clustergen.engine.request.rules.phrases import Reading, Rule, num, rule
from clustergen.errors import RequestError

#: days in one of each unit (a month is a twelfth of a Gregorian year)
DAYS_PER = {
    "minute": 1 / 1440,
    "hour": 1 / 24,
    "day": 1.0,
    "week": 7.0,
    "month": 365.2425 / 12,
    "year": 365.2425,
}
_LONG_UNIT = r"minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|fortnights?|months?|mos?|years?|yrs?"
#: a single-letter unit ("12h", "90d") only right after digits: "and" is not "an d"; no "w",
#: which is a GPU's watts here ("700W each"), not weeks
_UNIT = (
    r"("
    + _LONG_UNIT
    + r"|h|d)(?![\w/])"
    + (
        # "8 hours per day" is a duty cycle, not a run length: left unread, so it is reported
        r"(?!\s*(?:/|per|a|an|each|every)\s*(?:day|week|month|year|night)\b)"
    )
)
_WORD_NUMBER = (
    r"(?:half\s+an?|a\s+half|a\s+couple\s+of|a\s+few|a|an|one|several|few|couple\s+of|"
    r"(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ][a-z]+)?|"
    r"two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
    r"sixteen|seventeen|eighteen|nineteen|a\s+hundred|one\s+hundred)"
)
_AND_A_HALF = r"(?:\s+and\s+a\s+half)?"
_VAGUE = frozenset({"a few", "few", "several"})
_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name} | {
    name.lower(): i for i, name in enumerate(calendar.month_abbr) if name
}


#: how a deadline's reading begins in `understood`: the terminal repeats these, since the day
#: count depends on today's date
DEADLINE_NOTE = "deadline"


def today() -> dt.date:
    """Today's date: deadlines are counted from it (tests replace it)."""
    return dt.date.today()


def _unit_days(unit: str) -> float:
    for prefix, name in (("mi", "minute"), ("mo", "month"), ("h", "hour"), ("d", "day")):
        if unit.startswith(prefix):
            return DAYS_PER[name]
    if unit.startswith("f"):
        return 2 * DAYS_PER["week"]
    return DAYS_PER["week" if unit.startswith("w") else "year"]


def word_number(words: str) -> float:
    """A count written in digits or words ("2", "two", "a", "twenty-one")."""
    flat = " ".join(words.split())
    if flat.endswith(" and a half"):  # "one and a half", "2 and a half"
        return word_number(flat.removesuffix(" and a half")) + 0.5
    if flat[0].isdigit():
        return num(flat)
    if flat in {"a", "an", "one"}:
        return 1.0
    if flat in {"a couple of", "couple of"}:
        return 2.0
    if flat in {"half a", "half an", "a half"}:
        return 0.5
    from number_parser import parse_number  # type: ignore[import-untyped]  # lazily: words only

    value = parse_number(flat.replace("-", " "))
    if value is None:
        raise RequestError(f"{words!r} is not a number I can read", hint="write it in digits")
    return float(value)


def _span(m: re.Match[str]) -> list[Reading]:
    count, unit = m.group(1) or m.group(3), m.group(2) or m.group(4)
    phrase = m.group(0).strip()
    if " ".join(count.split()) in _VAGUE:
        raise RequestError(
            f"{phrase!r} is not a length of time I can size for",
            hint="give a number, e.g. 'in 3 weeks' or 'in 20 days'",
        )
    days = word_number(count) * _unit_days(unit)
    if days <= 0:
        raise RequestError(f"{phrase!r} is no time at all", hint="give a duration, e.g. 30 days")
    return [Reading("training_days", days, f"{_say_days(days)}")]


def _say_days(days: float) -> str:
    if days < 1:
        hours = days * 24
        return f"{hours:.3g} hour{'' if hours == 1 else 's'} ({days:.3g} days)"
    return f"{days:.4g} days"


def _deadline(m: re.Match[str]) -> list[Reading]:
    phrase = m.group(0).strip()
    now = today()
    end_of = bool(m.group(1))
    if m.group(2):  # an ISO date
        try:
            when = dt.date.fromisoformat(m.group(2))
        except ValueError:
            raise RequestError(f"{phrase!r} is not a date", hint="write it as YYYY-MM-DD") from None
    else:
        when = _month_date(m.group(3), m.group(4), m.group(5), end_of, now)
    return _until(phrase, when)


def _until(phrase: str, when: dt.date) -> list[Reading]:
    now = today()
    days = (when - now).days
    if days <= 0:
        raise RequestError(
            f"{phrase!r} is {when.isoformat()}, not after today ({now.isoformat()})",
            hint="give a future date or a duration, e.g. 'in 60 days'",
        )
    note = f"{DEADLINE_NOTE} {when.isoformat()}, {days} days from {now.isoformat()}"
    return [Reading("training_days", float(days), note)]


def _quarter(m: re.Match[str]) -> list[Reading]:
    """'by Q2 2027': its first day (the safe side); 'by the end of Q2': its last."""
    now = today()
    quarter = int(m.group(2))
    year = int(m.group(3)) if m.group(3) else now.year
    first_month = 3 * quarter - 2
    if not m.group(3) and first_month + 2 < now.month:
        year += 1
    if m.group(1):
        last = first_month + 2
        when = dt.date(year, last, calendar.monthrange(year, last)[1])
    else:
        when = dt.date(year, first_month, 1)
    return _until(m.group(0).strip(), when)


def _year_end(m: re.Match[str]) -> list[Reading]:
    year = int(m.group(1)) if m.group(1) else today().year
    return _until(m.group(0).strip(), dt.date(year, 12, 31))


def _holiday(m: re.Match[str]) -> list[Reading]:
    """'before Christmas', 'before the holidays': Christmas Eve (the safe side);
    'by New Year': New Year's Eve. The next one, this year's when it is still ahead."""
    now = today()
    month, day = 12, 24 if m.group(1).startswith(("christmas", "xmas", "the holidays")) else 31
    year = int(m.group(2)) if m.group(2) else now.year
    if not m.group(2) and dt.date(year, month, day) <= now:
        year += 1
    return _until(m.group(0).strip(), dt.date(year, month, day))


def _month_date(
    month_word: str, day_word: str | None, year_word: str | None, end_of: bool, now: dt.date
) -> dt.date:
    month = _MONTHS[month_word]
    year = int(year_word) if year_word else now.year
    if not year_word and month < now.month:
        year += 1  # "by March" in November is next March
    if day_word:
        day = int(day_word)
        if not 1 <= day <= calendar.monthrange(year, month)[1]:
            raise RequestError(f"{month_word} {day} is not a date", hint="check the day")
    else:
        # "by March" is read as its first day (the safe side); "by the end of March" its last
        day = calendar.monthrange(year, month)[1] if end_of else 1
    return dt.date(year, month, day)


#: what a schedule's reserve is called: time held back for restarts and evaluation
_RESERVE = (
    r"(?:buffer|slack|contingency|float|(?:schedule|time)\s+(?:margin|reserve|buffer)|"
    r"margin\s+(?:for|of)\s+(?:restarts?|slips?|slippage|delays?|evaluations?|evals?)|"
    r"reserve\s+for\s+(?:restarts?|evaluations?|evals?))"
)
_SPAN = (
    r"(?:(?<![\w.])(?P<n>\d[\d,]*(?:\.\d+)?)\s*-?\s*(?P<u>"
    + _LONG_UNIT
    + r"|h|d|w)|\b(?P<wn>"
    + _WORD_NUMBER
    + r")[- ]+(?P<wu>"
    + _LONG_UNIT
    + r"))\b"
)


def _reserve_span(m: re.Match[str]) -> list[Reading]:
    """'two weeks of buffer': time held back from the deadline, not a second deadline."""
    count, unit = m.group("n") or m.group("wn"), m.group("u") or m.group("wu")
    if " ".join(count.split()) in _VAGUE:
        raise RequestError(
            f"{m.group(0).strip()!r} is not a reserve I can size for",
            hint="give a number, e.g. 'with 2 weeks of buffer'",
        )
    days = word_number(count) * _unit_days(unit)
    return [Reading("schedule_reserve_days", days, f"{_say_days(days)} held back as reserve")]


def _reserve_share(m: re.Match[str]) -> list[Reading]:
    """'leave 10% slack': a share of the time to the deadline held back."""
    share = num(m.group("pct") or m.group("pct2")) / 100
    if not 0 < share < 1:
        raise RequestError(
            f"{m.group(0).strip()!r} is not a share of the schedule", hint="give 1-99%"
        )
    return [Reading("schedule_reserve_share", share, f"{share:.0%} of the schedule held back")]


#: the verb or preposition a reserve is stated with, taken with it
_LEAD = (
    r"(?:\b(?:leave|leaving|keep|keeping|allow|allowing|with|plus|including)\s+(?:a\s+|an\s+)?)?"
)

_RESERVE_WORDS = ("buffer", "slack", "contingency", "float", "margin", "reserve")

#: read before the run lengths: "with two weeks of buffer" is a reserve, not a second duration
RESERVE_RULES: tuple[Rule, ...] = (
    rule(
        "reserve_span",
        _LEAD + _SPAN + r"\s+(?:of\s+|as\s+)?(?:a\s+)?" + _RESERVE,
        _reserve_span,
        needs=_RESERVE_WORDS,
    ),
    rule(
        "reserve_span_after",
        _LEAD + _RESERVE + r"\s+(?:of\s+)?" + _SPAN,
        _reserve_span,
        needs=_RESERVE_WORDS,
    ),
    rule(
        "reserve_share",
        _LEAD
        + r"(?<![\w.])(?P<pct>\d+(?:\.\d+)?)\s*%\s+(?:of\s+)?(?:the\s+)?(?:a\s+)?"
        + _RESERVE
        + r"|"
        + _LEAD
        + _RESERVE
        + r"\s+(?:of\s+)?(?P<pct2>\d+(?:\.\d+)?)\s*%",
        _reserve_share,
        needs=_RESERVE_WORDS,
    ),
)


_MONTH_WORD = "|".join(sorted(_MONTHS, key=len, reverse=True))


#: read before token counts and model sizes ("12h" is not a size)
def _cadence(m: re.Match[str]) -> list[Reading]:
    """'retrain every week', 'a weekly refresh': each run must end before the next starts, so the
    period is the run's time (said so)."""
    n = int(m.group(1)) if m.group(1) else 1
    unit = (m.group(2) or m.group(3)).lower()
    per = 14.0 if unit.startswith("fortnight") else DAYS_PER["week" if unit[0] == "w" else "month"]
    days = n * per
    # a bound the pass settles beside a deadline stated ("monthly retrain, must finish in 5
    # days": the tighter is the run's time)
    return [Reading("_cadence_days", days, f"{days:.3g} days: each run done before the next")]


DURATION_RULES: tuple[Rule, ...] = (
    *RESERVE_RULES,
    # "128 GPUs a month from now", "delivered in 6 weeks from today": when, not how long a run
    # takes; read so no deadline is made of it
    rule(
        "from_now",
        # ("done 6 weeks from now", "finished ... from today" is a deadline: the days rule's)
        r"(?<!done\s)(?<!finished\s)(?<!complete\s)(?<!completed\s)(?<!ready\s)(?<!trained\s)"
        r"\b(?:in\s+)?(?:a|an|one|\d+(?:\.\d+)?)\s+(?:days?|weeks?|months?|quarters?|years?)\s+"
        r"from\s+(?:now|today)\b",
        lambda m: [Reading("_said", "a date", "when, not how long a run takes", mode="member")],
        needs=("from",),
    ),
    rule(
        "cadence",
        r"\b(?:every|each|once\s+(?:a|per|every))\s+(?:(\d+)\s+)?(weeks?|months?|fortnights?)\b"
        r"|\b(weekly|monthly|fortnightly)\s+(?=(?:re-?train|refresh|fine-?tun|run|training))",
        _cadence,
        needs=("each", "every", "once", "weekly", "monthly", "fortnightly"),
    ),
    rule(
        "deadline",
        r"\b(?:by|before|until|no\s+later\s+than)\s+(?:the\s+)?(end\s+of\s+)?"
        r"(?:(\d{4}-\d{2}-\d{2})|(" + _MONTH_WORD + r")\.?(?:\s+(\d{1,2})(?:st|nd|rd|th)?)?"
        r"(?:,?\s+(\d{4}))?)\b",
        _deadline,
        needs=("before", "by", "later", "until"),
    ),
    rule(
        "deadline_quarter",
        r"\b(?:by|before|until|no\s+later\s+than|deadline(?:\s+(?:is|of))?:?|due(?:\s+by)?)\s+"
        r"(?:the\s+)?(end\s+of\s+)?q([1-4])(?:\s*,?\s*(\d{4}))?\b",
        _quarter,
        needs=("before", "by", "later", "until", "deadline", "due"),
    ),
    rule(
        "deadline_holiday",
        r"\b(?:by|before|until|ahead\s+of|in\s+time\s+for)\s+(?:the\s+)?"
        r"(christmas|xmas|(?:the\s+)?new\s+year(?:[’']s)?(?:\s+(?:eve|day))?|the\s+holidays)"
        r"(?:\s+(\d{4}))?\b",
        _holiday,
        needs=("christmas", "xmas", "year", "holidays"),
    ),
    rule(
        "deadline_year_end",
        r"\b(?:by|before|until)\s+(?:the\s+)?(?:end\s+of\s+(?:the\s+)?(?:year|(\d{4}))|"
        r"year[- ]end|eoy)\b",
        _year_end,
        needs=("end", "eoy", "year"),
    ),
    # spans people name without a number: read as the hours they usually mean, and said so
    rule(
        "named_span",
        r"\b(?:(?:in|within|over)\s+(?:a\s+|one\s+)?)?(?:overnight|over\s*night)\b"
        r"|\b(?:in|within|over)\s+(?:a|one|the)\s+weekend\b",
        lambda m: [
            Reading(
                "training_days",
                0.5 if "night" in m.group(0) else 2.0,
                "12 hours (0.5 days), 'overnight' read as 12 hours"
                if "night" in m.group(0)
                else "2 days, a weekend read as 48 hours",
            )
        ],
        needs=("night", "weekend"),
    ),
    rule(
        "days",
        r"(?<![\w.])(\d[\d,]*(?:\.\d+)?"
        + _AND_A_HALF
        + r")\s*-?\s*"
        + _UNIT
        + r"|\b("
        + _WORD_NUMBER
        + _AND_A_HALF
        + r")[- ]+("
        + _LONG_UNIT
        + r")\b",
        _span,
        needs=("d", "h", "min", "mo", "w", "year", "yr"),
    ),
)
