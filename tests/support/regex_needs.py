"""What text a regular expression needs: a set of strings, one of which every match holds.

Read from the pattern's parse tree (the standard library's own parser), so a rule's declared
pre-check (`Rule.needs`) can be proven to follow from its pattern rather than trusted."""

from __future__ import annotations

import re
from re import _constants as c  # type: ignore[attr-defined]
from re import _parser as p  # type: ignore[attr-defined]
from typing import Any

_REPEATS = (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT)


def needed(pattern: str) -> set[str] | None:
    """Strings one of which every match of `pattern` contains; None when nothing is certain.
    A case-insensitive pattern gives None: its literals say nothing about a text's case."""
    tree = p.parse(pattern)
    if tree.state.flags & re.IGNORECASE:
        return None
    return _sequence(list(tree))


def _sequence(items: list[tuple[Any, Any]]) -> set[str] | None:
    """Of a sequence: a run of literals is needed whole; so is what any one item needs. The
    strongest one (longest shortest string) is kept."""
    found: list[set[str]] = []
    run = ""
    for op, av in items:
        if op is c.LITERAL:
            run += chr(av)
            continue
        if run and op is c.BRANCH:
            # the parser takes a common prefix out of the alternatives ("checkpoint|ckpt" is
            # "c" then "heckpoint|kpt"): the prefix goes on with each one's own leading literals
            found.append({run + _leading(list(b)) for b in av[1]})
        if run:
            found.append({run})
        run = ""
        need = _item(op, av)
        if need is not None:
            found.append(need)
    if run:
        found.append({run})
    if not found:
        return None
    return max(found, key=lambda s: (min(len(x) for x in s), -len(s)))


def _leading(items: list[tuple[Any, Any]]) -> str:
    """The literal text every match of a sequence starts with."""
    lead = ""
    for op, av in items:
        if op is not c.LITERAL:
            break
        lead += chr(av)
    return lead


def _item(op: Any, av: Any) -> set[str] | None:
    if op is c.SUBPATTERN:
        _group, add_flags, _del_flags, sub = av
        return None if add_flags & re.IGNORECASE else _sequence(list(sub))
    if op is c.BRANCH:
        branches = [_sequence(list(b)) for b in av[1]]
        if any(b is None for b in branches):
            return None
        return set().union(*branches)  # type: ignore[arg-type]
    if op in _REPEATS:
        low, _high, sub = av
        return _sequence(list(sub)) if low >= 1 else None
    if op is c.ATOMIC_GROUP:
        return _sequence(list(av))
    if op is c.ASSERT:  # a positive look-around's text is in the text too
        return _sequence(list(av[1]))
    if op is c.IN and av and all(o is c.LITERAL for o, _ in av):
        return {chr(a) for _, a in av}
    return None
