"""Negation and clauses, shared by the passes that read scope: which words a negation governs
("not interested in GB200", "no liquid cooling", "InfiniBand is off the table", "anything but
B300"), within the clause it stands in."""

from __future__ import annotations

import re

#: what ends a clause: a negation or a quantity reaches no further
_CLAUSE_END = re.compile(
    r"\.(?!\d)|[;!?\n()]|,(?!\d{3})|\s[-–—]\s|:\s|\bbut\b|\bhowever\b|\binstead\b|\bwhile\b"
)

#: a negation before the words it governs ("no", "will not run", "can't do", "without")
_NEGATION_BEFORE = re.compile(
    r"\b(?:no|not|never|neither|nor|nothing|none\s+of|without|avoid(?:ing)?|exclud(?:e|es|ing)|except|"
    r"can[’']?t|cannot|can not|won[’']?t|will not|wouldn[’']?t|don[’']?t|do not|"
    r"doesn[’']?t|does not|isn[’']?t|aren[’']?t|unable to|no way to)\b"
)
#: a negation after them ("liquid cooling is off the table", "InfiniBand is not an option")
_NEGATION_AFTER = re.compile(
    r"^[\s,]*(?:is|are|was|would be|will be)?\s*(?:simply\s+|also\s+|strictly\s+)?"
    r"(?:off the table|not an option|not possible|not available|not allowed|not permitted|"
    r"not supported|not feasible|excluded|ruled out|out of the question|a non-?starter|"
    r"prohibited|banned|forbidden|unavailable|a no[- ]go|out of scope|not in scope|"
    r"not needed|not required|provided by us|(?:handled|covered|sourced) separately|"
    # "H100s are too expensive", "A100 is too old": ruled out for the reason said
    r"(?:way\s+|much\s+|far\s+)?too\s+(?:expensive|pricey|costly|slow|old|power[- ]hungry|hot|"
    r"big|scarce|hard\s+to\s+get))\b"
)
#: at most this many words between a negation and the word it governs ("will not run X")
_REACH = 5


def clauses(low: str) -> list[tuple[int, int]]:
    """The text's clauses as (start, end) character spans."""
    out, start = [], 0
    for m in _CLAUSE_END.finditer(low):
        out.append((start, m.start()))
        start = m.end()
    out.append((start, len(low)))
    return [(s, e) for s, e in out if low[s:e].strip()]


#: words after a negation that make it no exclusion ("it doesn't matter whether H100 or
#: B200", "not only H100", "no preference between ...")
_NOT_EXCLUDING = re.compile(
    r"\b(?:matter|matters|sure|necessarily|only|just|preference|mind|care|limited|restricted|"
    r"tied|bound|committed)\b"
)
#: a phrase right before a name that rules it out although the clause has no negation word
#: ("anything but GB200", "other than H100s", "instead of B300")
_OTHER_THAN = re.compile(
    r"(?:\b(?:anything|everything|any\s+\w+)\s+but|\bother\s+than|\brather\s+than|"
    r"\binstead\s+of|\bapart\s+from|\bexcept(?:\s+for)?|\bexcluding)\s+(?:the\s+)?(?:nvidia\s+)?$"
)


def negated(low: str, cs: int, ce: int, start: int, end: int) -> tuple[int, int] | None:
    """The span of the negation and the governed words `low[start:end]`, when a negation of
    the clause `low[cs:ce]` governs them."""
    after = _NEGATION_AFTER.match(low[end:ce])
    if after:
        return start, end + after.end()
    other = _OTHER_THAN.search(low, max(0, start - 30), start)
    if other:
        return other.start(), end
    before = list(_NEGATION_BEFORE.finditer(low, cs, start))
    if not before:
        return None
    last = before[-1]
    between = low[last.end() : start]
    if (
        len(between.split()) > _REACH
        # a number between ("no more than 512 H100s") is a quantity, not a ruled-out name;
        # a name's own digits ("no H100 or H200") are not
        or re.search(r"(?<![a-z\d])\d", between)
        or _NOT_EXCLUDING.search(between)
    ):
        return None
    return last.start(), end


#: words before a negation that make it a preference ("we'd rather avoid", "ideally not",
#: "would prefer not to use")
_SOFT_BEFORE = re.compile(
    r"\b(?:(?:we'?d|we\s+would|i'?d|would)\s+)?(?:rather|prefer(?:\s+to)?|like\s+to|ideally|"
    r"preferably|try\s+to|hope\s+to|want\s+to)\s+$"
)
#: words after what it governs that make it one ("avoid GB200 if possible", "where we can")
_SOFT_AFTER = re.compile(
    r"^[\s,]*(?:if\s+(?:at\s+all\s+)?(?:possible|feasible|practical)|where\s+(?:possible|we\s+can)|"
    r"if\s+we\s+can|ideally|by\s+preference|as\s+a\s+preference|preferably)\b"
)
#: the next clause granting it after all ("... but could live with it", "but it's acceptable")
_SOFT_NEXT = re.compile(
    r"^[\s,;]*but\s+(?:we\s+|i\s+)?(?:could|can|would|will)\s+(?:live\s+with|accept|tolerate|"
    r"take)\s+(?:it|them|that|one)(?:\s+if\s+(?:we\s+must|needed|necessary|need\s+be))?\b"
    r"|^[\s,;]*but\s+(?:it'?s|it\s+is|that'?s|that\s+is|is|would\s+be|it\s+would\s+be)\s+"
    r"(?:fine|acceptable|ok(?:ay)?|not\s+a\s+deal[- ]?breaker)\b"
)


def softened(low: str, ce: int, span: tuple[int, int]) -> list[tuple[int, int]]:
    """The words that make the negation over `span` (in a clause ending at `ce`) a preference
    rather than a rule, as spans; empty when nothing softens it."""
    out = []
    before = _SOFT_BEFORE.search(low, max(0, span[0] - 30), span[0])
    if before:
        out.append(before.span())
    after = _SOFT_AFTER.match(low[span[1] : ce])
    if after:
        out.append((span[1], span[1] + after.end()))
    following = _SOFT_NEXT.match(low[ce:])
    if following:
        out.append((ce, ce + following.end()))
    return out


def clause_of(low: str, at: int) -> tuple[int, int]:
    """The clause holding position `at`, as (start, end)."""
    return next(((s, e) for s, e in clauses(low) if s <= at < e), (0, len(low)))
