"""What a rule is: a kind of phrase, its pattern, and the `Reading`s a match gives."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from clustergen.errors import RequestError

Mode = Literal["once", "set", "member"]


@dataclass(frozen=True)
class Reading:
    """What one match says: `field` gets `value` (once, outright, or as a set member)."""

    field: str
    value: object
    note: str
    mode: Mode = "once"


@dataclass(frozen=True)
class Rule:
    """A kind of phrase: its pattern and how a match reads. The pattern is compiled when first
    searched with: compiling every rule costs ~20 ms of start-up, which a command that reads no
    request text (`fabric`, `size`) should not pay."""

    name: str
    source: str
    read: Callable[[re.Match[str]], list[Reading]]

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        """The compiled pattern (a syntax error surfaces on the first parse, and in the tests)."""
        return re.compile(self.source)


def _num(text: str) -> float:
    value = float(text.replace(",", ""))
    if not value < 1e15:  # also catches inf from a thousand-digit number
        raise RequestError(f"{text} is too large a number for a cluster")
    return value


def _rule(name: str, pattern: str, read: Callable[[re.Match[str]], list[Reading]]) -> Rule:
    return Rule(name, pattern, read)
