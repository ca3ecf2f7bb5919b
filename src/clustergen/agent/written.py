"""Numbers as people write them, read out of a model's text for the number check (grounding).

The text is normalised first (`normalise`), and that text is the one kept: markup comments
removed (`2<!-- -->512` is the 2512 a reader sees), superscript exponents made plain (`10⁶` is
`10^6`, not the 106 that Unicode NFKC would make of it), NFKC applied (fullwidth digits, ligatures),
and invisible characters (joiners, zero-width spaces, the word joiner, soft hyphens, byte-order
marks, direction marks: Unicode's format class) removed, so `1<U+2060>512` reads as 1512.

`read_numbers` then finds every figure-like number with what is written beside it:

- digits with thousands separators, a sign (`-4.3 MW`), scientific forms (`1e6`, `10^6`,
  `1.2 x 10^6`), multiplier suffixes and words (`1.2k`, `5 million`), number words
  (`five thousand`, read by number-parser);
- a unit (`MW`, `megawatts`, `GB/s`, `%`, `percent`, `days`), a currency sign, or a ratio
  (`3:1`, `3 to 1`);
- ranges (`512-99,999 GPUs`, `8 to 16 nodes`): both ends, each with the unit or noun after the
  range;
- the words beside a bare number (`512 H100 GPUs`, `PUE 1.3`), which say what kind of figure it is.

Numbers that are parts of names (H100, QM9700, NVL72, 2-8-9-400, ConnectX-7), dates (2026-11-22)
and list markers are not figures.
"""

from __future__ import annotations

import math
import re
import unicodedata
from typing import NamedTuple

from clustergen.spelled import SPELLED, spelled_value

#: unit as written (lower case for words) -> (family, multiplier into the family's base unit)
UNITS: dict[str, tuple[str, float]] = {
    "GW": ("w", 1e9),
    "MW": ("w", 1e6),
    "kW": ("w", 1e3),
    "KW": ("w", 1e3),
    "W": ("w", 1.0),
    "Tb/s": ("gbps", 1e3),
    "Tbps": ("gbps", 1e3),
    "Gb/s": ("gbps", 1.0),
    "Gbps": ("gbps", 1.0),
    "Gbit/s": ("gbps", 1.0),
    "G": ("gbps", 1.0),
    "Mb/s": ("gbps", 1e-3),
    "Mbps": ("gbps", 1e-3),
    "Pb/s": ("gbps", 1e6),
    "PB/s": ("gb_per_s", 1e6),
    "TB/s": ("gb_per_s", 1e3),
    "GB/s": ("gb_per_s", 1.0),
    "MB/s": ("gb_per_s", 1e-3),
    "kB/s": ("gb_per_s", 1e-6),
    "EB": ("gb", 1e9),
    "PB": ("gb", 1e6),
    "TB": ("gb", 1e3),
    "GB": ("gb", 1.0),
    "MB": ("gb", 1e-3),
    "PiB": ("gb", 2**50 / 1e9),
    "TiB": ("gb", 2**40 / 1e9),
    "GiB": ("gb", 2**30 / 1e9),
    "%": ("pct", 1.0),
    "B": ("billions", 1e9),  # "70B": billions of parameters
    "T": ("trillions", 1e12),  # "15T tokens"
    "x": ("ratio", 1.0),
    "U": ("rack_units", 1.0),
}
#: units written as words, in lower case ("64 megawatts", "40 percent", "31 days")
WORD_UNITS: dict[str, tuple[str, float]] = {
    "gigawatts": ("w", 1e9),
    "gigawatt": ("w", 1e9),
    "megawatts": ("w", 1e6),
    "megawatt": ("w", 1e6),
    "kilowatts": ("w", 1e3),
    "kilowatt": ("w", 1e3),
    "watts": ("w", 1.0),
    "watt": ("w", 1.0),
    "exabytes": ("gb", 1e9),
    "petabytes": ("gb", 1e6),
    "terabytes": ("gb", 1e3),
    "gigabytes": ("gb", 1.0),
    "megabytes": ("gb", 1e-3),
    "percent": ("pct", 1.0),
    "per cent": ("pct", 1.0),
    "days": ("days", 1.0),
    "day": ("days", 1.0),
    "hours": ("days", 1 / 24),
    "hour": ("days", 1 / 24),
    "weeks": ("days", 7.0),
    "week": ("days", 7.0),
    "terabits per second": ("gbps", 1e3),
    "gigabits per second": ("gbps", 1.0),
    "terabytes per second": ("gb_per_s", 1e3),
    "gigabytes per second": ("gb_per_s", 1.0),
}
#: multiplier words after digits ("5 million GPUs") and suffixes straight after them ("1.2k")
SCALE_WORDS = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_SUFFIXES = {"k": 1e3, "K": 1e3, "M": 1e6}
#: Endings that leave a count a count: ordinals ("4th rail") and a plural ("the 1990s").
_ORDINALS = {"st", "nd", "rd", "th", "s"}
_CURRENCIES = {"$": "usd", "US$": "usd"}

# Superscript digits and signs, read as an exponent before NFKC would make "10⁶" into "106".
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SUPERSCRIPT_RUN = re.compile(r"(?<=[\d)])\s?([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)")
_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)|<!>|<![^>]*>|<\?.*?(?:\?>|\Z)", re.S)
_MINUS = str.maketrans({"\u2212": "-", "\u2012": "-", "\u2013": "-", "\u2010": "-", "\u2011": "-"})


def normalise(text: str) -> str:
    """The text a reader sees, as plain characters: markup comments removed, superscript
    exponents written with `^`, NFKC, no invisible (format) characters, minus signs and dashes
    between digits as `-`."""
    text = _COMMENT.sub("", text)
    text = _SUPERSCRIPT_RUN.sub(lambda m: "^" + m.group(1).translate(_SUPERSCRIPTS), text)
    text = unicodedata.normalize("NFKC", text)
    text = "".join(c for c in text if unicodedata.category(c) != "Cf" or c in "\n\t")
    return text.translate(_MINUS)


class Written(NamedTuple):
    """One number as written: its text, its value (multipliers applied), its unit, the rounding
    its digits allow (in the value's scale), and the words beside it naming its kind."""

    text: str
    value: float
    unit: str | None  # a UNITS key, a WORD_UNITS key, "$", ":1", or "?" (unreadable)
    tolerance: float
    kind: tuple[str, ...] = ()  # words after (then before) a bare number: "GPUs", "PUE"


_WORD_UNIT_RE = "|".join(re.escape(u) for u in sorted(WORD_UNITS, key=len, reverse=True))
_UNIT_RE = "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True))
#: What reads as a unit though the tables lack it ("3 ZB/s", "7 EiB", "40 kWh", "5 PFLOPS"):
#: such a number is never matched, so it is flagged rather than passed as a bare count.
_UNIT_SHAPE = r"(?:[kKMGTPEZY]i?)?(?:B|b|bit|W|Wh|Hz|FLOPS|flops|OPS|bps)(?:/s|ps)?"
_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+"
_NUMBER = re.compile(
    r"(?<![\w.$€£^])(?<!\d,)(?<![A-Za-z]-)(?<!\d-)"
    r"(?P<sign>-(?=[\d.]))?"
    r"(?P<cur>US\$|[$€£¥])?"
    rf"(?P<num>{_NUM})"
    r"(?P<exp>[eE][+-]?\d+|\^[+-]?\d+|\*\*[+-]?\d+"
    r"|[ \u00a0]?[x×*][ \u00a0]?10(?:\^|\*\*|[eE])[+-]?\d+)?"
    r"(?!\d)(?!\.\d)(?!,\d)"
    r"(?:(?P<ratio>[ \u00a0]?:[ \u00a0]?(?P<den>\d+(?:\.\d+)?)|[ \u00a0-]to[ \u00a0-]1)(?![\d:]|[.,]\d))?"
    r"(?:(?P<range>[ \u00a0]?(?:-|to)[ \u00a0]?)(?P<end>-?(?:" + _NUM + r"))(?![\d.,]\d|-\d))?"
    r"(?(end)|(?!-\d))"
    r"(?:[ \u00a0]?(?P<scale>thousand|million|billion|trillion)\b)?"
    rf"(?:[ \u00a0]?(?P<unit>{_UNIT_RE})(?![\w/])"
    rf"|[ \u00a0-]?(?P<wunit>{_WORD_UNIT_RE})\b"
    rf"|(?P<suffix>[kKM])(?![\w/])"
    rf"|[ \u00a0]?(?P<odd>{_UNIT_SHAPE})(?![\w/])"
    r"|(?P<attached>[A-Za-z]\w*))?"
)
_LIST_MARKER = re.compile(r"^(\s*(?:#+\s*)?)(\d+)([.)]\s)", re.MULTILINE)
_DATE = re.compile(r"(?<![\w.])(?:19|20)\d\d-[01]\d(?:-[0-3]\d)?(?![\w-])")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
#: words that are no kind (filler between a number and its noun, or too common to name one)
_FILLER = {"the", "a", "an", "of", "and", "or", "in", "at", "on", "for", "to", "with", "by", "is"}


def _tolerance(written: str) -> float:
    """Half a unit of the last digit written: "4.3" covers 4.25..4.35, "512" covers 511.5..512.5,
    "3,600" covers 3,550..3,650 (trailing zeros of a longer whole number are read as rounding)."""
    digits = written.replace(",", "").lstrip("-")
    if "." in digits:
        return 0.5 * 10.0 ** -len(digits.split(".", 1)[1]) * (1 + 1e-9)
    # Only numbers of three digits or more read trailing zeros as rounding ("40" stays exact).
    zeros = len(digits) - len(digits.rstrip("0")) if len(digits) >= 3 and digits.strip("0") else 0
    zeros = min(zeros, len(digits) - 2) if zeros else 0
    return 0.5 * 10.0**zeros * (1 + 1e-9)


def _times(num: str, exp: str | None) -> float:
    """What the written exponent multiplies the digits by: `1.2e6` and `1.2 x 10^6` scale the
    digits by 10^6; `10^6` and `10**6` raise them (10 to the 6th is 10^5 times the 10 written)."""
    if not exp:
        return 1.0
    n = int(re.split(r"[eE^]|\*\*", exp.replace(" ", ""))[-1])
    if exp.startswith(("^", "**")):
        base = float(num)
        return float(base ** (n - 1)) if base else 0.0
    return 10.0**n


def _kind(text: str, start: int, end: int) -> tuple[str, ...]:
    """Words naming what a bare number counts: up to three after it (skipping names with digits,
    such as H100), then up to three before it, within its clause."""
    after = re.split(r"[.;:,()\n]", text[end : end + 60], maxsplit=1)[0]
    before = re.split(r"[.;,()\n]", text[max(0, start - 60) : start])[-1]  # "GPUs: 512"
    words = [w for w in _WORD.findall(after)[:4] if not any(c.isdigit() for c in w)][:3]
    words += [w for w in _WORD.findall(before)[-3:] if not any(c.isdigit() for c in w)]
    return tuple(w.lower() for w in words if w.lower() not in _FILLER)


def read_numbers(text: str) -> list[Written]:
    """Every figure-like number of `text` (normalise it first), in the order written."""
    cleaned = _LIST_MARKER.sub(lambda m: m.group(1) + " " * len(m.group(2)) + m.group(3), text)
    cleaned = _DATE.sub(lambda m: " " * len(m.group(0)), cleaned)
    found: list[tuple[int, Written]] = []
    taken: list[tuple[int, int]] = []
    for m in SPELLED.finditer(cleaned):
        w = _spelled(m, cleaned)
        if w is not None:
            found.append((m.start(), w))
            taken.append((m.start(), m.end()))
    for m in _NUMBER.finditer(cleaned):
        if any(a <= m.start() < b for a, b in taken):
            continue
        found.extend((m.start(), w) for w in _read(m, cleaned))
    return [w for _, w in sorted(found, key=lambda x: x[0])]


def _spelled(m: re.Match[str], text: str) -> Written | None:
    """A number written in words ("five thousand", "twenty-four"), with its unit or kind."""
    words = m.group(0)
    value = spelled_value(words)
    if value is None:
        return None
    after = re.match(rf"[ \u00a0]*({_WORD_UNIT_RE}|{_UNIT_RE})(?![\w/])", text[m.end() :])
    kind = _kind(text, m.start(), m.end())
    if after is not None:
        unit = after.group(1)
        unit = unit if unit in UNITS else unit.lower()
        shown = text[m.start() : m.end() + after.end()]
        return Written(shown, float(value), unit, _tolerance(str(value)), kind)
    return Written(words, float(value), None, _tolerance(str(value)), kind)


def _read(m: re.Match[str], text: str) -> list[Written]:
    """The number (or the two ends of a range) one match of `_NUMBER` holds."""
    raw = m.group(0).rstrip()
    num = m.group("num").replace(",", "")
    sign = -1.0 if m.group("sign") else 1.0
    try:
        times = _times(num, m.group("exp"))
    except (OverflowError, ZeroDivisionError):
        return [Written(raw, 0.0, "?", 0.0)]
    unit: str | None = m.group("unit") or m.group("wunit")
    if unit is not None and unit not in UNITS:
        unit = unit.lower()
    if m.group("cur"):
        ok = _CURRENCIES.get(m.group("cur")) == "usd" and not (unit or m.group("attached"))
        unit = "$" if ok and not m.group("odd") else "?"
    if m.group("ratio"):
        den = float(m.group("den") or 1)
        if den == 0:
            return [Written(raw, 0.0, "?", 0.0)]
        return [Written(raw, float(num) / den, ":1", _tolerance(num) / den)]
    if m.group("scale"):
        times *= SCALE_WORDS[m.group("scale")]
    if m.group("attached") in _ORDINALS and not (unit or m.group("cur")):
        return []  # a position ("the 2nd tier", "4th rail") or a decade ("1990s"), no quantity
    if m.group("suffix"):
        times *= _SUFFIXES[m.group("suffix")]
    elif m.group("odd") or m.group("attached"):
        unit = "?"
    kind = _kind(text, m.start(), m.end())
    ends = [(m.group("sign") or "") + m.group("num"), m.group("end")] if m.group("end") else None
    if ends is None:
        return [_one(raw, sign * float(num), times, unit, num, m.group("exp"), kind)]
    return [
        _one(end, float(end.replace(",", "")), times, unit, end.replace(",", ""), None, kind)
        for end in ends
    ]


def _one(
    text: str,
    mantissa: float,
    times: float,
    unit: str | None,
    digits: str,
    exp: str | None,
    kind: tuple[str, ...],
) -> Written:
    try:
        value = mantissa * times
    except OverflowError:
        value = math.inf
    if not math.isfinite(value):
        return Written(text, 0.0, "?", 0.0)  # "1e999": nothing to match
    # "1e6" is read as the whole number it names (1,000,000 to the nearest 100,000), not as one
    # digit of slack times a million; "8k" covers 7,500..8,500 (8,192 tokens)
    tol = _tolerance(digits) * times
    if exp and abs(value) >= 1:  # the finer of the two: "5.121e2" is 512.1 to a tenth
        tol = min(tol, _tolerance(f"{value:.0f}"))
    return Written(text, value, unit, tol, kind)
