"""Errors are data in the engine and words at the edges: a request error keeps its field, value
and limit, names request fields (never CLI flags), and an edge words the field its own way."""

from __future__ import annotations

import re
from pathlib import Path

from clustergen.errors import CatalogGapError, RequestError

ENGINE = Path(__file__).parents[1] / "src" / "clustergen" / "engine"


def _flag(field: str) -> str | None:
    return {"nodes": "--nodes", "pue": "--pue", "price_per_gpu_hour": "--price-per-gpu-hour"}.get(
        field
    )


def test_request_error_keeps_field_value_and_limit() -> None:
    err = RequestError("nodes must be at least 1, got 0", field="nodes", value=0, limit=1)
    assert (err.field, err.value, err.limit) == ("nodes", 0, 1)
    assert err.to_dict()["error"]["details"] == {"field": "nodes", "value": 0, "limit": 1}
    assert err.one_line() == "nodes must be at least 1, got 0"


def test_an_edge_words_the_field_as_its_own_name() -> None:
    err = RequestError("nodes must be at least 1, got 0 nodes", field="nodes", value=0)
    # the error's own field where it opens the line; the same English word later stays a word
    assert err.one_line(_flag) == "--nodes must be at least 1, got 0 nodes"
    err = RequestError("x is a server, not a GPU nodes list", field="nodes")
    assert err.one_line(_flag) == "x is a server, not a GPU nodes list (--nodes)"


def test_a_field_missing_from_the_words_is_added_in_brackets() -> None:
    err = RequestError("a facility cap needs a PUE", hint="e.g. 1.3", field="pue")
    assert err.one_line(_flag) == "a facility cap needs a PUE (--pue); e.g. 1.3"
    err = RequestError("a facility cap needs a PUE", hint="give `pue`, e.g. 1.3", field="pue")
    assert err.one_line(_flag) == "a facility cap needs a PUE; give --pue, e.g. 1.3"


def test_other_fields_in_backticks_are_worded_too() -> None:
    err = RequestError("no price", hint="give `price_per_gpu_hour` or a price catalog")
    assert err.one_line(_flag) == "no price; give --price-per-gpu-hour or a price catalog"
    # a plain word that happens to be a field name is not a field unless it is the error's own
    assert RequestError("nodes are short").one_line(_flag) == "nodes are short"
    # a field the edge has no name for stays as written
    assert RequestError("`text` is long").one_line(_flag) == "`text` is long"


def test_a_catalog_gap_is_never_reworded_as_a_flag() -> None:
    err = CatalogGapError("system x has no nodes figure", entry="x", field="nodes")
    assert err.one_line(_flag) == err.one_line() == "system x has no nodes figure"


def test_no_engine_string_names_a_cli_flag() -> None:
    # MCP clients and the model read the engine's words and have no flags
    flagged = re.compile(r'"[^"]*--[a-z]')
    hits = [
        f"{path.relative_to(ENGINE)}:{n}"
        for path in sorted(ENGINE.rglob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if flagged.search(line)
    ]
    assert hits == []
