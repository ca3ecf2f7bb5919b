"""Every request field is declared once, whole: its description for models on the model, its
human name, unit and flag in REQUEST_FIELDS beside it. A field added without its words fails here."""

from __future__ import annotations

import pytest

from clustergen.engine.model.request import REQUEST_FIELDS, DesignRequest, human_name
from clustergen.engine.report.words import field_words
from clustergen.engine.request.words import NAMES

FIELDS = list(DesignRequest.model_fields)


def test_the_table_names_exactly_the_model_fields() -> None:
    assert list(REQUEST_FIELDS) == FIELDS


@pytest.mark.parametrize("field", FIELDS)
def test_every_field_has_a_description_and_a_human_name(field: str) -> None:
    assert DesignRequest.model_fields[field].description, f"{field} has no description for models"
    name = REQUEST_FIELDS[field].name
    assert name, f"{field} has no human name"
    assert "_" not in name, f"{field}: {name!r} is a field name, not words"
    assert human_name(field) == NAMES[field] == name


def test_flags_are_unique_and_spelt_without_dashes() -> None:
    flags = [w.flag for w in REQUEST_FIELDS.values() if w.flag is not None]
    assert len(flags) == len(set(flags))
    assert not [f for f in flags if f.startswith("-") or f != f.lower() or " " in f]


def test_a_scaled_flag_says_its_unit() -> None:
    for field, words in REQUEST_FIELDS.items():
        if words.flag_scale != 1.0:
            assert words.flag, field
            assert words.flag_unit, field


def test_the_memo_calls_a_field_by_its_declared_name_and_unit() -> None:
    assert field_words("rack_power_kw") == "rack power limit (kW)"
    assert field_words("pue") == "PUE"
    assert field_words("checkpoint_gb") == "checkpoint size (GB)"


def test_a_name_that_is_no_request_field_is_spelt_out() -> None:
    assert human_name("su_nodes") == "su nodes"


def test_an_engine_field_in_an_estimates_method_is_said_in_words() -> None:
    from clustergen.engine.model.request import said_as

    assert said_as("isl-tokens") == "input length (tokens)"
    assert said_as("tpot_ms") == "TPOT limit (ms)"
    assert said_as("not-a-field") == "not-a-field"
