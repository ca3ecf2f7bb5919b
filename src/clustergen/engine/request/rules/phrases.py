"""What a rule is: a kind of phrase, its pattern, and the `Reading`s a match gives."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal, NamedTuple

from clustergen.errors import RequestError

Mode = Literal["once", "set", "member"]


class Reading(NamedTuple):
    """What one match says: `field` gets `value` (once, outright, or as a set member)."""

    field: str
    value: object
    note: str
    mode: Mode = "once"


class Rule:
    """A kind of phrase: its pattern, how a match reads, and the words without which it cannot
    match (`needs`). The pattern is compiled when first searched with, and only searched with
    when the request holds one of those words: compiling every rule costs ~15 ms of a design's
    start, and a request names the few it uses ("512 GPUs training, 5 MW" needs 7 of 63)."""

    __slots__ = ("_compiled", "name", "needs", "read", "source")

    def __init__(
        self,
        name: str,
        source: str,
        read: Callable[[re.Match[str]], list[Reading]],
        needs: tuple[str, ...] = (),
    ) -> None:
        self.name = name
        self.source = source
        self.read = read
        #: every text the pattern matches holds one of these (lower case); () when no word is
        #: needed. tests/engine/request/test_phrases.py derives what each pattern needs and
        #: checks that these follow from it, so a pre-check can never hide a match.
        self.needs = needs
        self._compiled: re.Pattern[str] | None = None

    def __repr__(self) -> str:
        return f"Rule({self.name!r}, {self.source!r}, needs={self.needs!r})"

    def may_match(self, low: str) -> bool:
        """False only when the lower-cased text cannot hold a match: searching is then skipped
        and the pattern never compiled."""
        return not self.needs or any(word in low for word in self.needs)

    @property
    def compiled(self) -> bool:
        """Whether the pattern was compiled yet (importing the tables compiles none)."""
        return self._compiled is not None

    @property
    def pattern(self) -> re.Pattern[str]:
        """The compiled pattern (a syntax error surfaces on the first parse, and in the tests)."""
        if self._compiled is None:
            self._compiled = re.compile(self.source)
        return self._compiled


def seconds_per(unit: str | None) -> float:
    """Seconds in the period a rate is written over: a minute ("min", "minutes", "RPM"), an
    hour ("h", "hours"), a day ("d", "day"), a week, a month ("mo", "month"), else a second ("1000 req/min" is 16.7 a second)."""
    word = (unit or "").lower()
    if word.startswith(("night", "overnight")):  # a night's batch window, 12 hours as read alone
        return 12 * 3600.0
    if word.startswith("mo"):  # a month: a twelfth of a Julian year, 30.44 days
        return 365.25 * 86400 / 12
    if word in ("rpm", "qpm") or word.startswith("m"):
        return 60.0
    if word.startswith("d"):  # a daily volume: its average rate, the plant's floor
        return 86400.0
    if word.startswith("w"):
        return 7 * 86400.0
    return 3600.0 if word.startswith("h") else 1.0


def num(text: str) -> float:
    """A number as a request writes it ("1,024", "2.5"); one no cluster could hold is refused."""
    value = float(text.replace(",", ""))
    if not value < 1e15:  # also catches inf from a thousand-digit number
        raise RequestError(f"{text} is too large a number for a cluster")
    return value


def rule(
    name: str,
    pattern: str,
    read: Callable[[re.Match[str]], list[Reading]],
    *,
    needs: tuple[str, ...],
) -> Rule:
    """A `Rule`, with the words it needs named (a table reads as a column of these calls)."""
    return Rule(name, pattern, read, needs)
