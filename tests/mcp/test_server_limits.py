"""The MCP server under hostile calls, in process: an out-of-range number, a bug inside a tool and
an oversized inventory each come back as an isError result with one line, and the server keeps
answering; none is an "Internal server error"."""

from __future__ import annotations

import time
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.types import CallToolResult

import clustergen.tools.builtin as builtin
from clustergen.catalog import load_catalog
from clustergen.engine.calculators.fleet.inputs import MAX_INVENTORY_NODES
from clustergen.mcp.server import build_server
from clustergen.tools import default_registry

TINY = {"gpus": 64, "samples_per_s_per_gpu": 10, "sample_mb": 5e-324, "storage_targets": 24}


def _calls(calls: list[tuple[str, dict[str, Any]]]) -> list[CallToolResult]:
    server = build_server(load_catalog(), default_registry())

    async def run() -> list[CallToolResult]:
        async with Client(server) as client:
            return [await client.call_tool(name, args) for name, args in calls]

    return anyio.run(run)


def _text(result: CallToolResult) -> str:
    return result.content[0].text if result.content else ""  # type: ignore[union-attr]


def _fleet(n: int) -> dict[str, Any]:
    nodes = [{"name": f"n{i}", "provider": "lab", "gpu": "H100", "gpus": 8} for i in range(n)]
    return {"inventory": {"nodes": nodes}}


def test_a_tiny_sample_is_an_error_result_and_the_server_goes_on() -> None:
    """The issue's example: analyze_storage with sample_mb 5e-324 failed with 'Internal server
    error'."""
    bad, good = _calls([("analyze_storage", TINY), ("lookup_gpu", {"name": "H100"})])
    assert bad.is_error
    assert "sample_mb" in _text(bad)
    assert "Internal server error" not in _text(bad)
    assert not good.is_error


def test_a_bug_inside_a_tool_is_an_error_result(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def crash(*_a: Any, **_k: Any) -> Any:
        raise OverflowError("cannot convert float infinity to integer")

    monkeypatch.setattr(builtin, "engine_analyze_storage", crash)
    ok = {"gpus": 64, "ingest_mb_per_s_per_gpu": 50, "storage_targets": 24}
    bad, good = _calls([("analyze_storage", ok), ("lookup_gpu", {"name": "H100"})])
    assert bad.is_error
    assert bad.structured_content is None  # an error result every client shows as its text
    assert "OverflowError" in _text(bad)
    assert not good.is_error
    assert any("raise OverflowError" in r.getMessage() for r in caplog.records)


def test_an_inventory_over_the_limit_is_refused_at_once() -> None:
    """The issue's example: 20,000 nodes took 14.5 s and returned 6 MB."""
    started = time.monotonic()
    huge, over = _calls(
        [("plan_fleet", _fleet(20_000)), ("plan_fleet", _fleet(MAX_INVENTORY_NODES + 1))]
    )
    assert time.monotonic() - started < 5
    assert huge.is_error
    # refused at the boundary: the arguments' size or the inventory's length, whichever is first
    assert "over the limit of 1,000,000" in _text(huge) or "at most" in _text(huge)
    assert over.is_error
    assert f"at most {MAX_INVENTORY_NODES} items" in _text(over)
    assert max(len(_text(huge)), len(_text(over))) < 1000


def test_an_inventory_at_the_limit_is_planned() -> None:
    (result,) = _calls([("plan_fleet", _fleet(MAX_INVENTORY_NODES))])
    assert not result.is_error, _text(result)
