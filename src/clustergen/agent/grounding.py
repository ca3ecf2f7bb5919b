"""Number grounding: every number a model writes is matched against the design and the request.

A number counts as matched when some figure of the design (or the request, or a catalog fact of the
parts the design uses) equals it within the rounding the writer used: "4.3 MW" matches 4,304,421 W
because 4.304 rounds to 4.3. Units decide which figures are candidates: watts are compared with `_w`,
`_kw` and `_mw` fields, GB/s with `gb_per_s` fields, a bare count with any figure. Numbers that are
part of names (H100, QM9700, NVL72, 2-8-9-400, ConnectX-7) and list markers are not figures.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from clustergen.engine.model.run import GroundedNumber

# unit as written -> (family, multiplier into the family's base unit)
_UNITS: dict[str, tuple[str, float]] = {
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
    "days": ("days", 1.0),
    "day": ("days", 1.0),
    "hours": ("days", 1 / 24),
    "hour": ("days", 1 / 24),
    "B": ("plain", 1.0),  # billions of parameters: model_params_b is stored in billions
    "T": ("plain", 1.0),  # trillions of tokens: training_tokens_t likewise
    "x": ("plain", 1.0),
    "U": ("plain", 1.0),
}
#: Multipliers written straight after the digits ("512k GPUs", "$1.2M"): (times, family kept).
_SUFFIXES = {"k": 1e3, "K": 1e3, "M": 1e6}
#: Endings that leave a count a count: ordinals ("4th rail") and a plural.
_ORDINALS = {"st", "nd", "rd", "th", "s"}  # and a plural ("the 1990s", "100s")
#: Count nouns and the field names a count of them may match: "512 GPUs" is a number of GPUs,
#: matched against GPU counts only, never against another figure that happens to be 512.
_COUNT_NOUNS: dict[str, tuple[str, ...]] = {
    "gpu": ("gpu",),
    "node": ("node", "server", "system"),
    "server": ("node", "server", "system"),
    "system": ("node", "server", "system"),
    "rack": ("rack",),
    "switch": ("switch", "switches", "spine", "leaf", "core"),
}
_NEXT_WORD = re.compile(r"[ \u00a0]+([A-Za-z]+)")
#: Currency signs the design has figures for (prices and costs are in US dollars).
_CURRENCIES = {"$": "usd", "US$": "usd"}
_UNIT_RE = "|".join(re.escape(u) for u in sorted(_UNITS, key=len, reverse=True))
#: What reads as a unit though the table above lacks it ("3 ZB/s", "7 EiB", "40 kWh", "5 PFLOPS"):
#: such a number is never matched, so it is flagged rather than passed as a bare count.
_UNIT_SHAPE = r"(?:[kKMGTPEZY]i?)?(?:B|b|bit|W|Wh|Hz|FLOPS|flops|OPS|bps)(?:/s|ps)?"
_NUMBER = re.compile(
    r"(?<![\w.$€£])(?<!\d-)(?<![A-Za-z]-)"
    r"(?P<cur>US\$|[$€£¥])?"
    r"(?P<num>\d+(?:\.\d+)?[eE][+-]?\d+|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?!\d)(?!\.\d)(?!-\d)(?!,\d)"
    r"(?P<ratio>:1(?!\d))?"
    rf"(?:[ \u00a0]?(?P<unit>{_UNIT_RE})(?![\w/])"
    rf"|(?P<suffix>[kKM])(?![\w/])"
    rf"|[ \u00a0]?(?P<odd>{_UNIT_SHAPE})(?![\w/])"
    r"|(?P<attached>[A-Za-z]\w*))?"
)
_LIST_MARKER = re.compile(r"^(\s*(?:#+\s*)?)(\d+)([.)]\s)", re.MULTILINE)


@dataclass(frozen=True)
class Figure:
    path: str
    value: float


def _flatten(data: Any, path: str = "") -> Iterator[Figure]:
    if isinstance(data, bool) or data is None:
        return
    if isinstance(data, int | float):
        if math.isfinite(data):
            yield Figure(path, float(data))
    elif isinstance(data, dict):
        for k, v in data.items():
            yield from _flatten(v, f"{path}.{k}" if path else str(k))
    elif isinstance(data, list | tuple):
        for i, v in enumerate(data):
            yield from _flatten(v, f"{path}[{i}]")


def _key(path: str) -> str:
    leaf = path.rsplit(".", 1)[-1]
    return re.sub(r"\[\d+\]$", "", leaf).lower()


@dataclass(frozen=True)
class _Reading:
    """Which design fields a number of one unit family may match, and how to bring such a field's
    value into the family's base unit (watts, Gb/s, GB/s, GB, percent, days)."""

    applies: Callable[[str, float], bool]  # (field key, value) -> is a candidate
    times: float = 1.0
    per: float = 1.0

    def base(self, value: float) -> float:
        return value * self.times / self.per


def _ends(*suffixes: str) -> Callable[[str, float], bool]:
    return lambda key, _: key.endswith(suffixes)


def _has(*parts: str) -> Callable[[str, float], bool]:
    return lambda key, _: any(p in key for p in parts)


#: unit family -> its readings, tried in order; a field is read by the first that applies.
_READINGS: dict[str, tuple[_Reading, ...]] = {
    "plain": (_Reading(lambda key, value: True),),
    "ratio": (_Reading(_has("oversubscription")),),
    "w": (
        _Reading(_ends("_mw"), times=1e6),
        _Reading(_ends("_kw"), times=1e3),
        _Reading(lambda key, value: key.endswith("_w") or key in {"w", "watts"}),
    ),
    "gbps": (_Reading(_has("gbps")),),
    "gb_per_s": (_Reading(_has("gb_per_s")), _Reading(_has("mb_per_s"), per=1e3)),
    "gb": (
        _Reading(_ends("_gb")),
        _Reading(_ends("_tb"), times=1e3),
        _Reading(_ends("_mb"), per=1e3),
    ),
    # A fraction (0..1) is a share written as a percentage; a field named so holds one already.
    "pct": (
        _Reading(lambda key, value: 0 <= value <= 1, times=100),
        _Reading(_has("percent", "pct")),
    ),
    "days": (_Reading(_has("days")), _Reading(_has("hours"), per=24)),
    "usd": (_Reading(_has("usd", "price", "cost", "budget")),),
}


def _candidates(family: str, figures: list[Figure]) -> Iterator[tuple[str, float]]:
    """(path, value in the family's base unit) for every figure a number of `family` may match."""
    readings = _READINGS.get(family, ())
    for f in figures:
        key = _key(f.path)
        reading = next((r for r in readings if r.applies(key, f.value)), None)
        if reading is not None:
            yield f.path, reading.base(f.value)


def _tolerance(written: str) -> float:
    """Half a unit of the last digit written: "4.3" covers 4.25..4.35, "512" covers 511.5..512.5,
    "3,600" covers 3,550..3,650 (trailing zeros of a longer whole number are read as rounding)."""
    digits = written.replace(",", "")
    if "." in digits:
        return 0.5 * 10.0 ** -len(digits.split(".", 1)[1]) * (1 + 1e-9)
    # Only numbers of three digits or more read trailing zeros as rounding ("40" stays exact).
    zeros = len(digits) - len(digits.rstrip("0")) if len(digits) >= 3 and digits.strip("0") else 0
    zeros = min(zeros, len(digits) - 2) if zeros else 0
    return 0.5 * 10.0**zeros * (1 + 1e-9)


@dataclass
class Grounder:
    """Matches numbers against a fixed set of reference figures."""

    figures: list[Figure]

    @classmethod
    def from_data(cls, **sources: Any) -> Grounder:
        figures: list[Figure] = []
        for name, data in sources.items():
            figures.extend(_flatten(data, name))
        return cls(figures)

    def numbers(self, text: str) -> list[tuple[str, float, str | None]]:
        """(as written, value, unit) for every figure-like number in `text`. The value carries
        any multiplier written with it ("512k" is 512,000; "1e6" a million); the unit is one of
        the table's, ":1" for a ratio, "$" for US dollars, None for a bare count, or "?" for a
        unit or suffix the checker does not know (such a number never matches)."""
        return [(w.text, w.value, w.unit) for w in self._written(text)]

    def _written(self, text: str) -> list[_Written]:
        cleaned = _LIST_MARKER.sub(lambda m: m.group(1) + " " * len(m.group(2)) + m.group(3), text)
        return [w for m in _NUMBER.finditer(cleaned) if (w := _read(m)) is not None]

    def match(self, written: str, value: float, unit: str | None) -> str | None:
        """The path of a figure this number matches, or None."""
        found = next(iter(self._written(written)), None)
        tol = found.tolerance if found is not None else _tolerance(str(value))
        return self._match(value, unit, tol, found.counts if found is not None else None)

    def _match(
        self, value: float, unit: str | None, tol: float, counts: tuple[str, ...] | None = None
    ) -> str | None:
        if unit == "?":
            return None  # a unit the checker cannot read: never taken as matching
        if unit == ":1":  # an oversubscription ratio
            family, scale = "ratio", 1.0
        elif unit == "$":
            family, scale = "usd", 1.0
        elif unit is None or unit in _SUFFIXES:
            family, scale = "plain", 1.0
        else:
            family, scale = _UNITS[unit]
        for path, ref in _candidates(family, self.figures):
            if counts is not None and not any(stem in _key(path) for stem in counts):
                continue
            if abs(value - ref / scale) <= tol:
                return path
        return None

    def check(self, text: str) -> list[GroundedNumber]:
        out = []
        for w in self._written(text):
            path = self._match(w.value, w.unit, w.tolerance, w.counts)
            out.append(
                GroundedNumber(
                    text=w.text,
                    value=w.value,
                    unit=None if w.unit in (":1", None) or w.unit in _SUFFIXES else w.unit,
                    matched=path is not None,
                    matched_path=path,
                )
            )
        return out


@dataclass(frozen=True)
class _Written:
    """One number as written: its text, its value (multipliers applied), its unit, and the
    rounding its digits allow (in the same scale as the value)."""

    text: str
    value: float
    unit: str | None
    tolerance: float
    #: field-name stems a count may match ("512 GPUs": fields about GPUs); None: any figure
    counts: tuple[str, ...] | None = None


def _read(m: re.Match[str]) -> _Written | None:
    num = m.group("num").replace(",", "")
    mantissa, _, exponent = num.lower().partition("e")
    try:
        times = 10.0 ** int(exponent) if exponent else 1.0
    except OverflowError:
        return _Written(m.group(0).strip(), 0.0, "?", 0.0)  # "1e999": nothing to match
    if m.group("ratio"):
        return _Written(m.group(0), float(num), ":1", _tolerance(mantissa))
    unit = m.group("unit")
    attached = m.group("attached")
    if m.group("cur"):
        if _CURRENCIES.get(m.group("cur")) != "usd" or unit or attached or m.group("odd"):
            unit = "?"
        else:
            unit = "$"
    if m.group("suffix"):
        times *= _SUFFIXES[m.group("suffix")]
        unit = unit or m.group("suffix")
    elif m.group("odd") or (attached and attached not in _ORDINALS):
        unit = "?"
    try:
        value = float(mantissa) * times
    except OverflowError:
        value = math.inf
    if not math.isfinite(value):
        return _Written(m.group(0).strip(), 0.0, "?", 0.0)  # "1e999": nothing to match
    # "1e6" is read as the whole number it names (1,000,000 to the nearest 100,000), not as one
    # digit of slack times a million, which a bare count would match against any figure; "8k"
    # covers 7,500..8,500 (8,192 tokens)
    whole = bool(exponent) and value >= 1
    tol = _tolerance(f"{value:.0f}") if whole else _tolerance(mantissa) * times
    return _Written(m.group(0).strip(), value, unit, tol, _counted(m, unit))


def _counted(m: re.Match[str], unit: str | None) -> tuple[str, ...] | None:
    """The stems of the fields a bare count may match, from the noun right after it."""
    if unit is not None and unit not in _SUFFIXES:
        return None
    word = _NEXT_WORD.match(m.string, m.end())
    if word is None:
        return None
    noun = word.group(1).lower()
    noun = noun[:-2] if noun.endswith("es") and noun[:-2] in _COUNT_NOUNS else noun.rstrip("s")
    return _COUNT_NOUNS.get(noun)


def flag_unmatched(text: str, checked: list[GroundedNumber]) -> str:
    """The memo with every unmatched number marked, so no unchecked figure reads as fact."""
    bad = {n.text for n in checked if not n.matched}
    if not bad:
        return text
    pattern = re.compile(
        r"(?<![\w.])("
        + "|".join(re.escape(b) for b in sorted(bad, key=len, reverse=True))
        + r")(?![\w])"
    )
    return pattern.sub(lambda m: f"{m.group(1)} [unverified]", text)
