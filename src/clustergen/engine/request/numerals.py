"""Numbers written in words, as figures, before any rule reads the request.

Customers write "roughly two thousand GPUs", "a dozen DGX nodes", "half a megawatt" and "1.5
thousand GPUs"; every rule reads figures. A run of number words is read by the project's one
reader of them (`clustergen.spelled`, also the agent's number check's); what it leaves (a dozen,
a couple, half a unit, a figure times a scale word, "three point five") is read here.
"""

from __future__ import annotations

import re

from clustergen.spelled import RUN, spelled_value

#: a run of number words anywhere in a request ("8 GPUs per node, sixteen nodes"),
#: and not a scale word after a figure ("1 trillion param", read by the rules as written)
_SPELLED = re.compile(rf"(?<!\d )(?<!\d\u00a0){RUN}")
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000}
#: "1.5 thousand", "2 hundred": a figure times a scale word
_FIGURE_SCALE = re.compile(r"\b(\d+(?:\.\d+)?)\s+(hundred|thousand|million)\b")
#: "3 point 5" (after the runs are read): a decimal said aloud
_POINT = re.compile(r"\b(\d+)\s+point\s+(\d+)\b")
#: "a dozen", "2 dozen", "a couple of"
_DOZEN = re.compile(r"\b(?:(a|\d+)\s+)?dozens?(?:\s+of)?\b")
_COUPLE = re.compile(r"\ba\s+couple\s+of\b")
#: "half a megawatt", "one and a half MW", "2 and a half"
_HALF_A = re.compile(r"\bhalf\s+an?\s+(?=[a-z])")
#: "a quarter of a megawatt", "three quarters of a MW"
_QUARTER_OF = re.compile(r"\b(?:an?|one|1|(three|3))\s+quarters?\s+of\s+an?\s+(?=[a-z])")
_AND_A_HALF = re.compile(r"\b(\d+|one)\s+and\s+a\s+half\b")
#: words that are numbers only sometimes: "no one wants", "a one-off"; left as written
_ALONE = {"one", "zero"}


def _figure(value: float) -> str:
    """A figure as a rule reads it: digits, never an exponent ("36000000", "1500", "2.5")."""
    return str(int(value)) if value.is_integer() else f"{value:f}".rstrip("0")


def _run(m: re.Match[str]) -> str:
    words = m.group(0)
    if words in _ALONE:
        return words
    value = spelled_value(words)
    if value is None and words.startswith("a "):  # "a two tier": the article, then a number
        rest = spelled_value(words[2:])
        return words if rest is None else f"a {rest}"
    return words if value is None else str(value)


#: a decimal comma before a unit ("1,5 MW", "2,5 PB"): never a thousands separator, which
#: groups three digits
_DECIMAL_COMMA = re.compile(
    r"(?<![\d,.])(\d+),(\d{1,2})(?=\s*(?:gw|mw|kw|megawatts?|kilowatts?|pb|tb|petabytes?|"
    r"terabytes?|gb/s|tb/s|ms|pue)\b)"
)


def figures(low: str) -> str:
    """`low` (a lower-cased request) with its spelled-out numbers written as figures; the same
    text when it holds none."""
    # a figure before a scale word first: the run reader would read "thousand" on its own
    text = _FIGURE_SCALE.sub(lambda m: _figure(float(m.group(1)) * _SCALES[m.group(2)]), low)
    text = _SPELLED.sub(_run, text)
    text = _POINT.sub(r"\1.\2", text)
    text = _DECIMAL_COMMA.sub(r"\1.\2", text)
    text = _DOZEN.sub(
        lambda m: str(12 * (1 if m.group(1) in (None, "a") else int(m.group(1)))), text
    )
    text = _COUPLE.sub("2", text)
    text = _AND_A_HALF.sub(lambda m: f"{1 if m.group(1) == 'one' else int(m.group(1))}.5", text)
    text = _QUARTER_OF.sub(lambda m: "0.75 " if m.group(1) else "0.25 ", text)
    return _HALF_A.sub("0.5 ", text)
