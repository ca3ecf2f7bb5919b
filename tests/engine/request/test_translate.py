"""`build`: loose keyword input into an engine model, or one RequestError line."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, Field, ValidationError

from clustergen.engine.request.translate import build, input_error
from clustergen.errors import RequestError


class _Thing(BaseModel):
    count: int = Field(gt=0)
    label: str = "default"


def test_none_fields_take_the_model_default() -> None:
    assert build(_Thing, count=3, label=None) == _Thing(count=3, label="default")


def test_a_bad_value_names_the_field_and_the_value() -> None:
    with pytest.raises(RequestError) as err:
        build(_Thing, count=-2)
    assert err.value.message == "count: input should be greater than 0, got -2"


def test_a_missing_field_is_named() -> None:
    with pytest.raises(RequestError, match=r"^count: field required$"):
        build(_Thing)


class _Node(BaseModel):
    gpus: int = Field(ge=1)


class _File(BaseModel):
    nodes: list[_Node]


def _file_error(data: dict[str, object]) -> ValidationError:
    with pytest.raises(ValidationError) as err:
        _File.model_validate(data)
    return err.value


def test_a_file_input_error_names_the_file_the_place_and_the_value() -> None:
    err = input_error(_file_error({"nodes": [{"gpus": 0}]}), where="inv.yaml", hint="fix it")
    assert err.one_line() == (
        "inv.yaml: nodes.0.gpus: Input should be greater than or equal to 1, got 0; fix it"
    )
    # a place in a file is not a request field: no edge words it as a flag
    assert err.field is None
    assert err.details["path"] == "nodes.0.gpus"


def test_a_file_input_error_can_word_its_place() -> None:
    err = input_error(_file_error({}), where="inv.yaml", locate=lambda loc: f"at {loc[0]}")
    assert err.one_line() == "inv.yaml: at nodes: Field required"
