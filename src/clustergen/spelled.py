"""Numbers written in words ("five thousand", "twenty-four", "a hundred"): one pattern for a run
of number words and one reader of its value, shared by the request reader (which writes them as
figures) and the agent's number check (which checks them against the engine).

The value comes from number-parser, imported only when a run is found: most texts hold none.
Ordinals ("first", "second") are not number words here: "per second" and "first token" are units
and phrases, never counts.
"""

from __future__ import annotations

import re

_WORDS = [
    *(
        [
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
        ]
    ),
    *(["thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]),
    *(["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]),
    *(["hundred", "thousand", "million", "billion", "trillion"]),
]
_WORDS_RE = "|".join(sorted(_WORDS, key=len, reverse=True))
#: a run of number words, with "and" and hyphens inside and an optional leading "a" ("a hundred")
RUN = rf"(?<![\w-])(?:a[ ]+)?(?:{_WORDS_RE})(?:(?:[ -]+|[ ]+and[ ]+)(?:{_WORDS_RE}))*(?![\w-])"
#: a run as a number of its own, not the words after a figure ("3 thousand") or a list's comma
SPELLED = re.compile(rf"(?i)(?<![\d.,][ \u00a0]){RUN}")


def spelled_value(words: str) -> int | None:
    """The value of a run `SPELLED` matched ("a thousand" is 1,000), or None: a whole number,
    as words only write whole numbers."""
    from number_parser import parse_number  # type: ignore[import-untyped]  # lazily: words only

    core = re.sub(r"(?i)^a\s+", "one ", words)
    value = parse_number(core.replace("-", " "))
    return None if value is None else int(value)
