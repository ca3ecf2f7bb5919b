"""The Design's JSON: its request echo says what was given or understood, not the fields left
unset, and a design.json reads back as the same Design."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import Field

from clustergen.catalog import load_catalog
from clustergen.engine.model.design import Design
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design
from clustergen.factories import empty_list

CAT = load_catalog()


def _design(text: str, fields: dict[str, Any] | None = None) -> Design:
    return plan_design(CAT, merge_request(CAT, text, fields or {}))


def test_the_echo_holds_what_was_given_and_understood_and_no_null() -> None:
    echo = json.loads(_design("512 GPUs training, 5 MW").model_dump_json())["request"]
    assert echo == {
        "text": "512 GPUs training, 5 MW",
        "gpus": 512,
        "power_cap_w": 5e6,
        "workload": "training",
        "understood": [
            "'5 mw' -> power cap 5 MW",
            "'512 gpus' -> 512 GPUs",
            "'training' -> workload",
        ],
    }


def test_a_given_no_is_echoed_as_given() -> None:
    """A field given as False or 0-like is what was asked for, not a default."""
    d = _design("256 GPUs, 3 MW", {"fit": False, "oversubscription": 1.0})
    echo = d.model_dump(mode="json")["request"]
    assert echo["fit"] is False
    assert echo["oversubscription"] == 1.0
    assert None not in echo.values()


@pytest.mark.parametrize(
    "text",
    [
        "512 GPUs training, 5 MW",
        "serve Llama 3.1 405B at 20,000 output tokens/s with TTFT under 2 s",
        "8 GPUs with zebras",  # a word not understood is echoed
    ],
)
def test_a_design_json_reads_back_as_the_same_design(text: str) -> None:
    d = _design(text)
    assert "zebras" not in text or d.model_dump()["request"]["not_understood"]
    back = Design.model_validate_json(d.model_dump_json())
    assert back == d
    assert back.request == d.request
    assert back.model_dump_json() == d.model_dump_json()


def test_a_new_request_field_left_unset_changes_no_design_json() -> None:
    class Wider(DesignRequest):
        new_limit_kw: float | None = None
        new_tags: list[str] = Field(default_factory=empty_list)

    d = _design("512 GPUs training, 5 MW")
    wider = d.model_copy(update={"request": Wider(**d.request.model_dump())})
    assert wider.model_dump_json() == d.model_dump_json()
    assert wider.model_dump(mode="json") == d.model_dump(mode="json")
