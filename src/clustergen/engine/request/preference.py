"""Soft words about a choice of two: "we'd prefer InfiniBand but are open to Spectrum-X",
"ideally liquid cooled, air is fine", "InfiniBand or Ethernet". Two values of one field are a
contradiction only when nothing says how they stand to each other: a preference picks one and
says the other was acceptable; an "or" between them leaves the choice to the trade study."""

from __future__ import annotations

import re
from typing import NamedTuple

#: a word that prefers the value after it (within a few words)
_PREFER = re.compile(
    r"\b(?:(?:we'?d|would)\s+(?:rather|like)|prefer(?:s|ably)?|(?:our\s+)?preferred\s+(?:is|would\s+be)|"
    r"preference\s+(?:is|for)|ideally|first\s+choice|leaning\s+towards?|favou?r(?:ed|ing)?)\b"
)
#: a word that prefers the value before it ("air cooling preferred", "RoCE if possible")
_PREFER_AFTER = re.compile(
    r"\b(?:(?:is\s+)?preferred|if\s+possible|where\s+possible|by\s+preference|"
    r"(?:is|as)\s+(?:our\s+)?(?:preference|first\s+choice))\b"
)
#: a word between or after two values that makes the second acceptable, not asked for
_OPEN = re.compile(
    r"\b(?:open\s+to|or|either|acceptable|(?:is|would\s+be|also)\s+(?:fine|ok|okay)|"
    r"(?:would|could)\s+consider|happy\s+with|works?\s+too|as\s+a\s+fallback|fallback|"
    r"alternatively|otherwise|else|rather\s+than|but|too|as\s+well)\b"
)
#: how far a preference word may stand before its value
_REACH = 30


class Member(NamedTuple):
    """A value of a word-set field and where its words stand."""

    value: str
    start: int
    end: int


class Settled(NamedTuple):
    """How two values of one field stand: `value` is the one to use (None: either, the study
    weighs both), `note` says so, `spans` are the soft words read."""

    value: str | None
    note: str
    spans: list[tuple[int, int]]


def settle(low: str, members: list[Member], words: str) -> Settled | None:
    """The preferred value, or either, when soft words relate two values; None when nothing
    does (the request contradicts itself)."""
    values = {m.value for m in members}
    if len(values) != 2:
        return None
    lo, hi = min(m.start for m in members), max(m.end for m in members)
    # a preference word prefers the first value after it ("prefer Ethernet over InfiniBand"),
    # a trailing one the last value before it ("air cooling preferred")
    preferred = set()
    soft = []
    for p in _PREFER_AFTER.finditer(low, lo, min(len(low), hi + _REACH)):
        before = max((m for m in members if m.end <= p.start()), key=lambda m: m.end, default=None)
        if before and p.start() - before.end <= 12:
            preferred.add(before.value)
            soft.append(p.span())
    for p in _PREFER.finditer(low, max(0, lo - _REACH), hi):
        if any(a <= p.start() < b for a, b in soft):
            continue
        after = min((m for m in members if m.start >= p.end()), key=lambda m: m.start, default=None)
        if (
            after
            and after.start - p.end() <= _REACH
            and re.fullmatch(r"[\s\w'-]*", low[p.end() : after.start])
        ):
            preferred.add(after.value)
    opening = list(_OPEN.finditer(low, max(0, lo - _REACH), min(len(low), hi + _REACH)))
    soft += [p.span() for p in _PREFER.finditer(low, max(0, lo - _REACH), hi)]
    if len(preferred) == 1 and (opening or soft):
        (chosen,) = preferred
        (other,) = values - preferred
        note = f"{chosen} preferred, {other} acceptable: the design uses {chosen}"
        return Settled(chosen, f"{words} -> {note}", soft + [o.span() for o in opening])
    if not preferred and any(lo < o.start() < hi for o in opening):
        note = f"either {' or '.join(sorted(values))}: the trade study weighs both"
        return Settled(None, f"{words} -> {note}", [o.span() for o in opening])
    return None
