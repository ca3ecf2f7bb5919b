"""Two values of one choice, related by soft words: a preference picks one, an "or" leaves it to
the trade study, and nothing relating them is still a contradiction."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.request import parse_request
from clustergen.errors import RequestError


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("1,024 B200s; we'd prefer InfiniBand but are open to Spectrum-X", "fabric", "infiniband"),
        ("we prefer Ethernet over InfiniBand, 512 B200", "fabric", "ethernet"),
        ("512 H100, ideally RoCE, InfiniBand would be fine as a fallback", "fabric", "ethernet"),
        ("Ideally liquid cooled, air is fine too; 256 B200 GPUs", "cooling", "liquid"),
        ("256 H200, air cooling preferred but liquid is acceptable", "cooling", "air"),
        ("512 B200 on RoCE if possible, otherwise InfiniBand", "fabric", "ethernet"),
    ],
)
def test_a_preference_between_two_picks_the_preferred(text: str, field: str, value: str) -> None:
    got = parse_request(load_catalog(), text)
    assert getattr(got, field) == value
    assert any("preferred" in u and "acceptable" in u for u in got.understood)
    assert got.not_understood == []


@pytest.mark.parametrize(
    "text", ["512 H100 GPUs, InfiniBand or Ethernet, 4 MW", "512 H200 on either InfiniBand or RoCE"]
)
def test_an_or_between_two_leaves_the_choice_to_the_study(text: str) -> None:
    got = parse_request(load_catalog(), text)
    assert got.fabric is None
    assert any("weighs both" in u for u in got.understood)


def test_two_values_nothing_relates_still_contradict() -> None:
    with pytest.raises(RequestError, match="both InfiniBand and Ethernet"):
        parse_request(load_catalog(), "256 B200 GPUs with InfiniBand and Ethernet")
