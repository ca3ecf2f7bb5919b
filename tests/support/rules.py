"""Read one phrase with one named request rule, as the rule tests do."""

from __future__ import annotations

from clustergen.engine.request.rules import RULES, Reading

_BY_NAME = {r.name: r for r in RULES}


def read(rule: str, text: str) -> list[Reading]:
    """The readings of the named rule's first match in `text` (failing if it does not match)."""
    m = _BY_NAME[rule].pattern.search(text)
    assert m is not None, f"{rule} does not match {text!r}"
    # the pre-check the parser runs first must let every phrase a rule reads through
    assert _BY_NAME[rule].may_match(text.lower()), f"{rule}'s needs would skip {text!r}"
    return _BY_NAME[rule].read(m)
