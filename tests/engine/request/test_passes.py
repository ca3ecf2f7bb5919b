"""`PASSES` is the one ordered list of what reads a request besides its rules: each pass is a
named function of the passes package, with a docstring saying what it reads and why it is a
pass; none is defined and left out of the list."""

from __future__ import annotations

import inspect
from types import ModuleType

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.request import parse_request
from clustergen.engine.request.passes import (
    PASSES,
    counts,
    installed,
    meanings,
    mlperf,
    names,
    per_node,
    refusals,
    scope,
    tables,
)

MODULES: tuple[ModuleType, ...] = (
    counts,
    installed,
    meanings,
    mlperf,
    names,
    per_node,
    refusals,
    scope,
    tables,
)


def test_every_pass_is_a_named_documented_function_of_the_package() -> None:
    for read in PASSES:
        assert inspect.isfunction(read), read
        assert not read.__name__.startswith("_"), read.__name__
        assert read.__module__.startswith("clustergen.engine.request.passes."), read.__module__
        assert len(inspect.getdoc(read) or "") > 40, f"{read.__name__} says what it reads"
    assert len({read.__name__ for read in PASSES}) == len(PASSES)


def test_every_public_function_of_the_passes_is_placed_in_the_order() -> None:
    defined = {
        f
        for module in MODULES
        for name, f in vars(module).items()
        if inspect.isfunction(f) and f.__module__ == module.__name__ and not name.startswith("_")
    }
    assert defined == set(PASSES)


def test_the_rules_read_after_the_catalog_names_and_before_the_readings_of_the_whole() -> None:
    order = [read.__name__ for read in PASSES]
    assert order.index("read_price_rules") < order.index("find_names") < order.index("read_rules")
    assert order.index("read_rules") < order.index("read_bare_count")
    # the MLPerf scenario's words before the serving rules; its defaults after what they read
    assert order.index("read_platforms") < order.index("read_mlperf") < order.index("read_rules")
    assert order.index("read_rules") < order.index("apply_mlperf") < order.index("tokens_from_load")
    assert order.index("note_readings") < order.index("refuse_unknown_model")


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        # a price's GPU is read before the names take it, then sized as if named
        ("$2 per H100 GPU-hour, 20k GPU-hours training", "gpu", "h100-sxm"),
        # the model's name takes "70b" before the model-size rule could read it too
        ("train Llama 3.1 70B on 1T tokens in 30 days", "model_params_b", None),
        ("train Llama 3.1 70B on 1T tokens in 30 days", "model", "llama-3.1-70b"),
        ("4 GB200 NVL72 racks", "nodes", 4),
    ],
)
def test_the_order_decides_who_reads_a_phrase(text: str, field: str, value: object) -> None:
    request = parse_request(load_catalog(), text)
    assert getattr(request, field) == value
