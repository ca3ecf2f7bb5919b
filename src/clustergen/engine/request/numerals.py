"""Numbers written in words, as figures, before any rule reads the request.

Customers write "roughly two thousand GPUs", "a dozen DGX nodes", "half a megawatt" and "1.5
thousand GPUs"; every rule reads figures. Spelled-out numbers go through text2num's
`alpha2digit` (a maintained parser of English number words, with its own care for "one" used as
a pronoun); what it leaves (a dozen, a couple, half a unit, a figure times a scale word) is read
here. The library is imported only when the text holds a number word: most requests hold none.
"""

from __future__ import annotations

import re

#: a word only a spelled-out number uses; cheap to search before importing the parser
_NUMBER_WORD = re.compile(
    r"\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    r"fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|"
    r"eighty|ninety|hundred|thousand|million|dozen|couple|half|one)\b"
)
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000}
#: "1.5 thousand", "2 hundred": a figure times a scale word the parser leaves apart
_FIGURE_SCALE = re.compile(r"\b(\d+(?:\.\d+)?)\s+(hundred|thousand|million)\b")
#: "a thousand", "a hundred": the article as one
_A_SCALE = re.compile(r"\ba\s+(hundred|thousand|million)\b")
#: "a dozen", "two dozen", "a couple of"
_DOZEN = re.compile(r"\b(?:(a|\d+)\s+)?dozens?(?:\s+of)?\b")
_COUPLE = re.compile(r"\ba\s+couple\s+of\b")
#: "half a megawatt", "one and a half MW", "2 and a half"
_HALF_A = re.compile(r"\bhalf\s+an?\s+(?=[a-z])")
_AND_A_HALF = re.compile(r"\b(\d+|one)\s+and\s+a\s+half\b")
#: the parser leaves numbers under three as words (its guard for "one" as a pronoun and
#: "second" as a unit of time); "two" has no other meaning
_TWO = re.compile(r"\btwo\b")


def _figure(value: float) -> str:
    """A figure as a rule reads it: digits, never an exponent ("36000000", "1500", "2.5")."""
    return str(int(value)) if value.is_integer() else f"{value:f}".rstrip("0")


def figures(low: str) -> str:
    """`low` (a lower-cased request) with its spelled-out numbers written as figures; the same
    text when it holds none."""
    if not _NUMBER_WORD.search(low):
        return low
    from text_to_num import alpha2digit  # only a request with number words pays the import

    # a figure or "a" before a scale word first: the parser would read "thousand" on its own
    text = _A_SCALE.sub(lambda m: str(_SCALES[m.group(1)]), low)
    text = _FIGURE_SCALE.sub(lambda m: _figure(float(m.group(1)) * _SCALES[m.group(2)]), text)
    text = _TWO.sub("2", alpha2digit(text, "en"))
    text = _DOZEN.sub(
        lambda m: str(12 * (1 if m.group(1) in (None, "a") else int(m.group(1)))), text
    )
    text = _COUPLE.sub("2", text)
    text = _AND_A_HALF.sub(lambda m: f"{1 if m.group(1) == 'one' else int(m.group(1))}.5", text)
    return _HALF_A.sub("0.5 ", text)
