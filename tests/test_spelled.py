"""The one reader of numbers in words, shared by the request reader and the number check."""

from __future__ import annotations

import pytest

from clustergen.spelled import SPELLED, spelled_value


@pytest.mark.parametrize(
    ("text", "value"),
    [("two thousand five hundred", 2500), ("a hundred", 100), ("twenty-four", 24)],
)
def test_a_run_reads_as_its_value(text: str, value: int) -> None:
    m = SPELLED.search(text)
    assert m is not None
    assert spelled_value(m.group(0)) == value


def test_ordinals_are_not_number_words() -> None:
    assert SPELLED.search("500 tokens per second, first token") is None
