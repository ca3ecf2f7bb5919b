"""A model named by family and size alone ("llama 70b"): the newest catalog model of that family
and size, with the others named in the note."""

from __future__ import annotations

import re

import pytest

from clustergen.catalog import load_catalog
from clustergen.catalog.models import normalise_name
from clustergen.catalog.workload_models import LanguageModel
from clustergen.engine.request import parse_request
from clustergen.engine.request.versions import family_size_names
from clustergen.errors import NotFoundError

CAT = load_catalog()


def _members(family: str, size: str) -> list[LanguageModel]:
    return [
        m
        for m in CAT.all("models", LanguageModel)
        if m.family == family and re.fullmatch(rf"{family}[\d.-]*-?{size}(-a\d+b)?", m.id)
    ]


@pytest.mark.parametrize(("family", "size"), [("llama", "70b"), ("llama", "8b"), ("qwen", "235b")])
def test_family_and_size_reads_as_the_newest_of_them(family: str, size: str) -> None:
    members = _members(family, size)
    assert members, "the catalog holds this family and size"
    newest = max(members, key=lambda m: (str(m.as_of), m.id))
    r = parse_request(CAT, f"serve {family} {size} at 2000 tokens/s")
    assert r.model == newest.id
    note = next(n for n in r.understood if "-> model" in n)
    for other in members:
        if other is not newest:
            assert other.id in note  # the versions not chosen are named
    assert r.not_understood == []


def test_a_versioned_name_still_wins_over_the_family_and_size() -> None:
    assert parse_request(CAT, "serve llama 3.1 70b at 2000 tokens/s").model == "llama-3.1-70b"
    assert parse_request(CAT, "serve llama 2 70b at 2000 tokens/s").model == "llama-2-70b"


def test_a_fine_tune_of_another_family_is_not_a_member() -> None:
    # Llama 3.1 Nemotron 70B is the nemotron family's, never "llama 70b"
    model, _ = family_size_names(CAT)[normalise_name("llama 70b")]
    assert "nemotron" not in model


def test_an_unknown_size_of_a_known_family_is_still_refused() -> None:
    with pytest.raises(NotFoundError, match=r"unknown model 'llama 900b'$"):
        parse_request(CAT, "serve llama 900b at 2000 tokens/s")
