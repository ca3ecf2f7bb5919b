"""Number grounding: every number a model writes is matched against the design and the request.

The text is read as a reader reads it (`clustergen.agent.written`: normalised, numbers in words,
multipliers, exponents, signs, ranges, ratios, units as symbols or words). A number counts as
matched when some figure of the design (or the request, or a catalog fact of the parts the design
uses) equals it within the rounding the writer used: "4.3 MW" matches 4,304,421 W because 4.304
rounds to 4.3. Two more rules keep a number from matching a figure by accident:

- A number with a unit is compared only with figures of the same dimension, converted: watts
  with `_w`, `_kw` and `_mw` fields, GB/s with `gb_per_s` fields, and so on. A bare number is
  compared only with figures of the kind named beside it ("512 GPUs": fields about GPUs; "PUE
  1.3": the PUE); with no kind named, it matches nothing.
- The rounding is the writer's, and never more than half the figure: "0 MW" does not match a
  node's 3 kW, nor "-4.3 MW" a headroom of +4.3 MW.

What matches nothing is marked [unverified].
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from clustergen.agent.written import UNITS, WORD_UNITS, Written, normalise, read_numbers
from clustergen.engine.model.run import GroundedNumber

__all__ = ["Figure", "Grounder", "flag_unmatched", "normalise"]


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
    value into the family's base unit (watts, Gb/s, GB/s, GB, percent, days, dollars, a count).
    `kind`: the field must also be of the kind named beside the number (a bare count, or a
    share any fraction of the design could hold)."""

    applies: Callable[[str, float], bool]  # (field key, value) -> is a candidate
    times: float = 1.0
    per: float = 1.0
    kind: bool = False

    def base(self, value: float) -> float:
        return value * self.times / self.per


def _ends(*suffixes: str) -> Callable[[str, float], bool]:
    return lambda key, _: key.endswith(suffixes)


def _has(*parts: str) -> Callable[[str, float], bool]:
    return lambda key, _: any(p in key for p in parts)


#: unit family -> its readings, tried in order; a field is read by the first that applies.
_READINGS: dict[str, tuple[_Reading, ...]] = {
    # a bare count: any figure of the kind named, read in the scale its name says
    "plain": (
        _Reading(_ends("_b"), times=1e9, kind=True),  # model_params_b: billions
        _Reading(_ends("_t"), times=1e12, kind=True),  # training_tokens_t: trillions
        _Reading(lambda key, value: True, kind=True),
    ),
    "billions": (_Reading(_ends("_b"), times=1e9),),
    "trillions": (_Reading(_ends("_t"), times=1e12),),
    "ratio": (_Reading(_has("oversubscription", "ratio", "factor", "speedup")),),
    "rack_units": (_Reading(lambda key, value: key.endswith("_u") or "rack_units" in key),),
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
    # A field named so holds a percentage; a fraction (0..1) of the kind named is one as a share.
    "pct": (
        _Reading(_has("percent", "pct")),
        _Reading(lambda key, value: 0 <= value <= 1, times=100, kind=True),
    ),
    "days": (_Reading(_has("days")), _Reading(_has("hours"), per=24)),
    "usd": (_Reading(_has("usd", "price", "cost", "budget")),),
}

#: words that name the same kind of figure as another ("128 servers" are the design's nodes)
_SYNONYMS = {
    "server": "node",
    "system": "node",
    "host": "node",
    "machine": "node",
    "accelerator": "gpu",
    "su": "scalable",
    "leave": "leaf",
    "utilisation": "mfu",
    "utilization": "mfu",
}
#: field names too general to name a kind alone ("racks.count"): their parent's name is read too
_GENERIC = {"count", "total", "quantity", "number", "value", "n", "qty"}


def _stem(word: str) -> str:
    word = word.lower()
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith(("ches", "shes", "sses", "xes")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith("ss") and len(word) > 2:
        word = word[:-1]
    return _SYNONYMS.get(word, word)


@lru_cache(maxsize=65536)
def _kinds(path: str) -> frozenset[str]:
    """The stems of the words of a field's name ("design.fabrics.compute.leaf_switches": leaf,
    switch); a generic leaf ("count") adds its parent's words."""
    parts = [re.sub(r"\[\d+\]", "", p) for p in path.split(".")]
    words = parts[-1].lower().split("_")
    if len(parts) > 1 and set(words) <= _GENERIC:
        words += parts[-2].lower().split("_")
    return frozenset(_stem(w) for w in words if w)


def _candidates(
    family: str, figures: list[Figure], kind: tuple[str, ...] | None = None
) -> Iterator[tuple[str, float]]:
    """(path, value in the family's base unit) for every figure a number of `family` may match;
    `kind` (words written beside the number), where given, limits the readings that need one."""
    readings = _READINGS.get(family, ())
    stems = {_stem(w) for w in kind} if kind is not None else None
    for f in figures:
        key = _key(f.path)
        reading = next((r for r in readings if r.applies(key, f.value)), None)
        if reading is None:
            continue
        if reading.kind and stems is not None and not (stems & _kinds(f.path)):
            continue
        yield f.path, reading.base(f.value)


def _family(unit: str | None) -> tuple[str, float]:
    """A written unit's family and its multiplier into the family's base unit."""
    if unit is None:
        return "plain", 1.0
    if unit == ":1":
        return "ratio", 1.0
    if unit == "$":
        return "usd", 1.0
    return UNITS.get(unit) or WORD_UNITS[unit]


def _close(value: float, ref: float, tol: float) -> bool:
    """Whether `value`, written to a rounding of `tol`, is the figure `ref`: within the rounding,
    and never further than half the figure (so 0 is never a non-zero figure, nor -x the figure
    x, however coarse the rounding)."""
    diff = abs(value - ref)
    return diff <= tol and diff <= 0.5 * abs(ref) + 1e-12 * max(1.0, abs(ref))


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
        """(as written, value, unit) for every figure-like number in `text` (normalised first).
        The value carries any multiplier written with it ("512k" is 512,000; "1e6" a million);
        the unit is the one written, ":1" for a ratio, "$" for US dollars, None for a bare count,
        or "?" for a unit or suffix the checker does not know (such a number never matches)."""
        return [(w.text, w.value, w.unit) for w in self._written(text)]

    def _written(self, text: str) -> list[Written]:
        return [w for w in read_numbers(normalise(text)) if not self._prose(w)]

    def _prose(self, w: Written) -> bool:
        """A small number in words ("one of the options", "two reasons") or a year ("in 2026")
        that names no kind of figure the design has is prose, not a figure; "two racks" and
        "2026 GPUs" are figures."""
        if w.unit is not None:
            return False
        year = w.text.isdigit() and len(w.text) == 4 and 1900 <= w.value <= 2100
        if not (year or (w.text[:1].isalpha() and abs(w.value) < 100)):
            return False
        stems = {_stem(k) for k in w.kind}
        return not any(stems & _kinds(f.path) for f in self.figures)

    def match(self, written: str, value: float, unit: str | None) -> str | None:
        """The path of a figure this number matches, or None."""
        found = next(iter(self._written(written)), None)
        if found is None:
            return None
        return self._match(found._replace(value=value, unit=unit))

    def _match(self, w: Written) -> str | None:
        if w.unit == "?":
            return None  # a unit the checker cannot read: never taken as matching
        family, scale = _family(w.unit)
        for path, ref in _candidates(family, self.figures, w.kind):
            if _close(w.value, ref / scale, w.tolerance):
                return path
        return None

    def check(self, text: str) -> list[GroundedNumber]:
        out = []
        for w in self._written(text):
            path = self._match(w)
            out.append(
                GroundedNumber(
                    text=w.text,
                    value=w.value,
                    unit=None if w.unit in (":1", None) else w.unit,
                    matched=path is not None,
                    matched_path=path,
                )
            )
        return out


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
