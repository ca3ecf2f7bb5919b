"""Spelled-out numbers are read as figures, and words that only look like numbers are left."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.request import parse_request
from clustergen.engine.request.numerals import figures


@pytest.mark.parametrize(
    ("words", "written"),
    [
        ("roughly two thousand gpus", "roughly 2000 gpus"),
        ("1.5 thousand gpus", "1500 gpus"),
        ("a thousand gpus", "1000 gpus"),
        ("two thousand five hundred gpus", "2500 gpus"),
        ("one hundred thousand gpus", "100000 gpus"),
        ("a dozen nodes", "12 nodes"),
        ("two dozen nodes", "24 nodes"),
        ("a couple of dgx b200", "2 dgx b200"),
        ("two dgx h200", "2 dgx h200"),
        ("twenty-four racks", "24 racks"),
        ("one and a half mw", "1.5 mw"),
        ("2 and a half mw", "2.5 mw"),
        ("half a megawatt", "0.5 megawatt"),
        ("a quarter of a megawatt", "0.25 megawatt"),
        ("three quarters of a megawatt", "0.75 megawatt"),
        ("three point five mw", "3.5 mw"),
        ("serve to eight hundred users", "serve to 800 users"),
    ],
)
def test_number_words_become_figures(words: str, written: str) -> None:
    assert figures(words) == written


@pytest.mark.parametrize(
    "text",
    [
        "512 gpus training, 5 mw",
        "no one wants a second pod",
        "500 tokens per second",
        "time to first token under one second",
        "half the gpus for inference",
    ],
)
def test_words_that_are_not_counts_are_left(text: str) -> None:
    assert figures(text) == text


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("roughly two thousand GPUs for training, 3 MW IT", "gpus", 2000),
        ("a dozen HGX B200 servers for fine-tuning", "nodes", 12),
        ("one and a half megawatts of IT power, training", "power_cap_w", 1.5e6),
    ],
)
def test_a_request_in_words_reads_as_in_figures(text: str, field: str, value: float) -> None:
    request = parse_request(load_catalog(), text)
    assert getattr(request, field) == value
    assert request.text == text  # the request keeps the customer's words


def test_a_load_in_words_is_the_load_in_figures() -> None:
    request = parse_request(load_catalog(), "serve Llama 3.1 70B to eight hundred employees")
    assert any("'800 employees'" in note for note in request.understood)


@pytest.mark.parametrize(
    ("words", "written"),
    [
        ("8 gpus per node, sixteen nodes", "8 gpus per node, 16 nodes"),
        ("a two tier fabric", "a 2 tier fabric"),
        ("seven hundred and fifty kw", "750 kw"),
    ],
)
def test_a_run_after_a_comma_or_an_article_is_read(words: str, written: str) -> None:
    assert figures(words) == written


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("512 GPUs, 1,5 MW", "power_cap_w", 1.5e6),
        ("1,024 GPUs, 2,5 PB storage", "storage_capacity_tb", 2500.0),
        ("1,024 GPUs, 5 MW", "gpus", 1024),
    ],
)
def test_a_decimal_comma_before_a_unit_is_a_decimal_point(
    text: str, field: str, value: float
) -> None:
    r = parse_request(load_catalog(), text)
    assert getattr(r, field) == value
    assert r.not_understood == []
