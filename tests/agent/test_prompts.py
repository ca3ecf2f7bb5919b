"""Prompts are files with strict variables."""

from __future__ import annotations

import pytest

from clustergen.agent import prompts
from clustergen.errors import ConfigError

EXPECTED = {
    "system": {"catalog_hash", "version"},
    "user": {"request_text", "parsed_request"},
    "json_protocol": {"tool_catalog"},
    "nudge": set(),
    "repair": {"problems"},
    "grounding": {"unmatched", "figures"},
    "gpu_spec": {"gpu_name", "fields"},
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_prompt_declares_its_variables(name: str) -> None:
    assert prompts.variables(name) == EXPECTED[name]
    text = prompts.render(name, **{v: f"<{v}>" for v in EXPECTED[name]})
    assert "{{" not in text
    assert all(f"<{v}>" in text for v in EXPECTED[name])


def test_missing_variable_is_an_error() -> None:
    with pytest.raises(ConfigError, match="needs variable"):
        prompts.render("repair")


def test_unexpected_variable_is_an_error() -> None:
    with pytest.raises(ConfigError, match="no placeholder"):
        prompts.render("nudge", problems="x")


def test_missing_prompt_file_is_an_error() -> None:
    with pytest.raises(ConfigError, match="not found"):
        prompts.render("no-such-prompt")
