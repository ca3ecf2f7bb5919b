"""The number check reads numbers as people write them: the walk-arounds of round four (a unit as
a word, number words, multiplier words, invisible joiners, superscripts, a zero that rounds, a
ratio in words, a sign, a markup comment, a range) are all [unverified] when false and checked
when true; and a property: any figure written in any of those forms is checked, and the same
figure altered by more than its rounding is not."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from clustergen.agent.grounding import Grounder, flag_unmatched, normalise

DESIGN = {
    "compute": {"gpus": 512, "nodes": 64, "gpus_per_node": 8},
    "management": {"servers": 5},
    "power": {"it_total_w": 4_304_421.0, "headroom_w": 700_000.0, "node_w": 3000.0},
    "racks": {"rack_power_kw": 10.0, "total_racks": 3},
    "fabric": {"oversubscription": 2.0, "tiers": 1, "port_speed_gbps": 400.0},
    "storage": {"read_gb_per_s": 80.0},
    "training": {"mfu": 0.4},
}


@pytest.fixture
def g() -> Grounder:
    return Grounder.from_data(design=DESIGN)


def _unmatched(g: Grounder, text: str) -> list[str]:
    return [n.text for n in g.check(text) if not n.matched]


@pytest.mark.parametrize(
    ("text", "flagged"),
    [
        ("IT power is 64 megawatts", "64 megawatts"),  # 64 is a node count, not power
        ("we recommend five thousand GPUs", "five thousand"),
        ("5 million GPUs", "5 million"),  # 5 is the management servers
        ("1\u2060512 GPUs", "1512"),
        ("1\u200b512 GPUs", "1512"),
        ("1\ufeff5\u00ad12 GPUs", "1512"),
        ("10\u2076 GPUs", "10^6"),  # 10 is a rack's kW
        ("IT power 0 MW", "0 MW"),  # within 0.5 MW of a node's 3 kW
        ("oversubscribed 3 to 1", "3 to 1"),  # 3 racks and 1 tier
        ("headroom is -0.7 MW", "-0.7 MW"),  # the headroom is +0.7 MW
        ("2<!-- -->512 GPUs", "2512"),
        ("512-99,999 GPUs", "99,999"),
        ("5,000 GPUs", "5,000"),
        ("a 64-megawatt campus", "64-megawatt"),
        ("oversubscribed 3:1", "3:1"),
        ("the design uses 64", "64"),  # a bare number naming no kind
        ("MFU of 41%", "41%"),
        ("1e6 GPUs", "1e6"),
        ("1.2k GPUs", "1.2k"),
        ("５１２０ GPUs", "5120"),  # fullwidth digits, as NFKC reads them
    ],
)
def test_a_false_figure_in_any_form_is_unverified(g: Grounder, text: str, flagged: str) -> None:
    assert flagged in _unmatched(g, text)
    assert f"{flagged} [unverified]" in flag_unmatched(normalise(text), g.check(text))


@pytest.mark.parametrize(
    "text",
    [
        "IT power is 4.3 megawatts",
        "five hundred and twelve GPUs",
        "sixty-four nodes",
        "5.12 hundred GPUs".replace("hundred", "x 10^2"),
        "5\u2060\u200b12 GPUs",
        "0.512 thousand GPUs",
        "5.12e2 GPUs",
        "oversubscribed 2 to 1",
        "oversubscribed 2:1",
        "headroom is 0.7 MW",
        "5<!-- hidden -->12 GPUs",
        "MFU of 40%",
        "40 percent MFU",
        "PUE aside, 8 GPUs per node",
        "400 gigabits per second ports",
        "80 GB/s read",
    ],
)
def test_a_true_figure_in_any_form_is_checked(g: Grounder, text: str) -> None:
    assert _unmatched(g, text) == [], g.check(text)


def test_small_number_words_that_name_no_figure_are_prose(g: Grounder) -> None:
    assert g.check("one of the options; two reasons") == []
    assert _unmatched(g, "two racks") == ["two"]  # the design has 3 racks


def test_normalising_removes_invisible_characters_and_comments() -> None:
    text = "1\u2060512 GPUs<!-- x --> at 10\u2076 W\u200b; caf\u00e9 \ufb01ne"
    assert normalise(text) == "1512 GPUs at 10^6 W; café fine"


# ---------------------------------------------------------------- the property

_ONES = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def _words(n: int) -> str:
    """English words for 0 <= n < 1,000,000 (as a person writes them)."""
    if n < 20:
        return _ONES[n]
    if n < 100:
        return _TENS[n // 10] + ("-" + _ONES[n % 10] if n % 10 else "")
    if n < 1000:
        rest = n % 100
        return f"{_ONES[n // 100]} hundred" + (f" and {_words(rest)}" if rest else "")
    rest = n % 1000
    return f"{_words(n // 1000)} thousand" + (f" {_words(rest)}" if rest else "")


#: figures of DESIGN a memo states: (path, value, unit as written, multiplier of that unit, noun)
FIGURES = [
    ("design.compute.gpus", 512.0, "", 1.0, "GPUs"),
    ("design.compute.nodes", 64.0, "", 1.0, "nodes"),
    ("design.power.it_total_w", 4_304_421.0, "MW", 1e6, ""),
    ("design.power.it_total_w", 4_304_421.0, "kW", 1e3, ""),
    ("design.power.it_total_w", 4_304_421.0, "megawatts", 1e6, ""),
    ("design.storage.read_gb_per_s", 80.0, "GB/s", 1.0, ""),
    ("design.fabric.port_speed_gbps", 400.0, "Gb/s", 1.0, ""),
    ("design.training.mfu", 40.0, "%", 1.0, "MFU"),
]
#: the other figures of DESIGN of each figure's kind (by unit multiplier, or noun)
OTHERS = {
    1e6: [("headroom_w", 700_000.0), ("node_w", 3000.0), ("rack_power_kw", 10_000.0)],
    1e3: [("headroom_w", 700_000.0), ("node_w", 3000.0), ("rack_power_kw", 10_000.0)],
    "GPUs": [("gpus_per_node", 8.0)],
    "nodes": [("gpus_per_node", 8.0)],
}
_FORMS = ["digits", "separators", "joiner", "comment", "scientific", "superscript", "words", "k"]


def _write(value: float, decimals: int, form: str) -> str | None:
    """`value` written to `decimals` places in `form`, or None where the form cannot hold it."""
    digits = f"{value:.{decimals}f}"
    whole = decimals == 0
    if form == "separators":
        return f"{value:,.{decimals}f}"
    if form == "joiner":
        return "\u2060".join(digits[i : i + 2] for i in range(0, len(digits), 2))
    if form == "comment":
        return digits[:1] + "<!-- -->" + digits[1:]
    if form in ("scientific", "superscript"):
        if value <= 0:
            return None
        exp = math.floor(math.log10(value))
        mantissa = f"{value / 10**exp:.{decimals + max(exp, 0)}f}"
        if form == "superscript":
            sup = str(exp).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))
            return f"{mantissa}×10{sup}"
        return f"{mantissa}e{exp}"
    if form == "words":
        return _words(int(digits)) if whole and 0 <= value < 1_000_000 else None
    if form == "k":
        return f"{value / 1e3:.{decimals + 3}f}k" if value >= 1000 else None
    return digits


def _rounding(digits: str) -> float:
    digits = digits.lstrip("-")
    if "." in digits or len(digits) < 3 or not digits.strip("0"):
        return 0.0
    zeros = min(len(digits) - len(digits.rstrip("0")), len(digits) - 2)
    return 10.0**zeros if zeros else 0.0


def _sentence(number: str, unit: str, noun: str) -> str:
    spaced = "" if unit in ("%", "") else " "
    return f"The design has {number}{spaced}{unit} {noun}".rstrip() + "."


@settings(max_examples=300, deadline=None)
@given(
    figure=st.sampled_from(FIGURES),
    form=st.sampled_from(_FORMS),
    decimals=st.integers(0, 3),
    steps=st.integers(1, 40),
    down=st.booleans(),
)
def test_any_figure_in_any_form_checked_true_and_unverified_altered(
    figure: tuple[str, float, str, float, str], form: str, decimals: int, steps: int, down: bool
) -> None:
    g = Grounder.from_data(design=DESIGN)
    path, value, unit, times, noun = figure
    shown = value / times
    written = round(shown, decimals)
    # a rounding so coarse it is half the figure says nothing: it is no correct writing of it
    assume(abs(written - shown) <= 0.5 * shown)
    assume(form != "k" or not unit)  # "4.3k kW" is no way to write kilowatts
    true = _write(written, decimals, form)
    assume(true is not None)
    assert true is not None
    [n] = g.check(_sentence(true, unit, noun))
    assert n.matched_path == path, (true, n)

    step = 10.0**-decimals
    altered = round(written + (-steps if down else steps) * step, decimals)
    # more than its rounding off the figure: a step of its last digit, and the trailing zeros
    # of a whole number of three digits or more, which a writer rounds to ("4,300 kW")
    step = max(step, _rounding(f"{altered:.{decimals}f}"))
    assume(abs(altered - shown) > step)
    # nor another figure of the same kind within its rounding
    others = [v / times for p, v in OTHERS.get(times if unit else noun, [])]
    assume(all(abs(altered - o) > step for o in others))
    false = _write(altered, decimals, form)
    assume(false is not None)
    assert false is not None
    checked = g.check(_sentence(false, unit, noun))
    assert checked
    assert not all(n.matched for n in checked), (false, checked)


def test_positions_years_and_a_label_before_a_colon(g: Grounder) -> None:
    """An ordinal is a position and a year a date, not quantities; a label before a colon
    names the kind of the number after it."""
    assert g.check("the 2nd tier, from Q3 2026, as in the 1990s") == []
    assert _unmatched(g, "GPUs: 512") == []
    assert _unmatched(g, "GPUs: 513") == ["513"]
    assert _unmatched(g, "2026 GPUs") == ["2026"]
