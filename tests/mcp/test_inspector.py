"""The MCP server through the MCP Inspector CLI, the TypeScript SDK most desktop clients share.

Inspector 1.x (TypeScript SDK 1.x) checks structured content against a tool's output schema even
on an error result, so an error object there reached the user as "Structured content does not
match the tool's output schema" instead of its message; 2.x is the current line. `.ci/run` installs
both from the npm registry under its cache and names the directory in CLUSTERGEN_MCP_INSPECTORS;
elsewhere these tests skip, saying how to run them (or why the install failed).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clustergen.catalog import load_catalog
from clustergen.tools import ToolContext, default_registry
from support.mcp_http import MAX_DESIGN_TEXT_CHARS, MAX_LISTING_CHARS, HttpServer

#: The Inspector versions tried: the last of the 1.x line and the current one.
VERSIONS = ("1.0.3", "2.12.0")


def inspector(version: str) -> Path:
    skip = os.environ.get("CLUSTERGEN_MCP_INSPECTOR_SKIP")
    if skip:
        pytest.skip(f"MCP Inspector {version} not installed: {skip}")
    root = os.environ.get("CLUSTERGEN_MCP_INSPECTORS")
    if not root:
        pytest.skip(
            "MCP Inspector not installed: .ci/run installs it from npm "
            "(CLUSTERGEN_MCP_INSPECTORS names the directory)"
        )
    binary = Path(root) / version / "node_modules" / ".bin" / "mcp-inspector"
    if not binary.exists():
        pytest.skip(f"MCP Inspector {version} not installed at {binary}")
    return binary


def cli(version: str, tmp_path: Path, *args: str, url: str | None = None) -> tuple[int, str, str]:
    """One Inspector CLI call against `clustergen mcp` over stdio, or the server at `url` over
    streamable HTTP."""
    home = tmp_path / "home"  # the Inspector keeps state in ~; not the user's
    home.mkdir(exist_ok=True)
    target = [url, "--transport", "http"] if url else [sys.executable, "-m", "clustergen", "mcp"]
    proc = subprocess.run(
        [str(inspector(version)), "--cli", *target, *args],
        capture_output=True,
        text=True,
        env={**os.environ, "HOME": str(home)},
        cwd=tmp_path,
        timeout=180,
        check=False,
    )
    return proc.returncode, proc.stdout, proc.stderr


def _json(stdout: str) -> Any:
    return json.loads(stdout[stdout.index("{") : stdout.rindex("}") + 1])


def _refusal(name: str, arguments: dict[str, Any]) -> str:
    outcome = default_registry().call(ToolContext(load_catalog()), name, arguments)
    assert not outcome.ok
    return outcome.error or ""


@pytest.mark.parametrize("version", VERSIONS)
def test_refusals_show_as_their_message(version: str, tmp_path: Path) -> None:
    for name, arguments in [
        ("lookup_gpu", {"name": "Z9000"}),
        ("design_cluster", {"text": "100000 GPUs in 5 MW"}),
    ]:
        pairs = [f"{k}={v}" for k, v in arguments.items()]
        code, out, err = cli(
            version, tmp_path, "--method", "tools/call", "--tool-name", name, "--tool-arg", *pairs
        )
        assert "does not match the tool's output schema" not in out + err
        result = _json(out)
        assert result["isError"] is True, (code, out, err)
        assert [c["text"] for c in result["content"]] == [_refusal(name, arguments)]


@pytest.mark.parametrize("version", VERSIONS)
def test_object_arguments_and_results_pass_the_clients_checks(version: str, tmp_path: Path) -> None:
    """A tool behind more_tools, reached through call_tool (a client calls only listed tools):
    its object arguments arrive as objects."""
    arguments = {
        "requirements": {"gpus": 256, "workload": "training"},
        "choices": {"platform": "dgx-h100"},
    }
    code, out, err = cli(
        version,
        tmp_path,
        "--method",
        "tools/call",
        "--tool-name",
        "call_tool",
        "--tool-arg",
        "name=build_design",
        f"arguments={json.dumps(arguments)}",
    )
    assert code == 0, err
    result = _json(out)
    assert not result.get("isError"), result
    assert json.loads(result["content"][0]["text"])["gpus"] == 256


@pytest.fixture(scope="module")
def http_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The Inspector CLI opens a new session for every call, so reading back what one call made
    needs the designs shared (`--share-designs`), as README says for one-shot clients."""
    server = HttpServer(tmp_path_factory.mktemp("inspector-http") / "stderr.log", "--share-designs")
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture(scope="module")
def private_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    server = HttpServer(tmp_path_factory.mktemp("inspector-private") / "stderr.log")
    try:
        yield server.url
    finally:
        server.stop()


def test_a_session_does_not_read_another_sessions_design(tmp_path: Path, private_url: str) -> None:
    """By default each session sees only its own designs: the Inspector's second call is a new
    session, and the link the first call returned is refused to it, in one line."""
    version = VERSIONS[-1]
    code, out, err = cli(
        version,
        tmp_path,
        "--method",
        "tools/call",
        "--tool-name",
        "design_cluster",
        "--tool-arg",
        "text=256 GPUs training",
        url=private_url,
    )
    assert code == 0, err
    result = _json(out)
    memo = next(c for c in result["content"] if c.get("name") == "memo.md")
    code, out, err = cli(
        version, tmp_path, "--method", "resources/read", "--uri", memo["uri"], url=private_url
    )
    assert code != 0
    assert "no design" in (out + err)
    assert "Traceback" not in (out + err)


@pytest.mark.parametrize("version", VERSIONS)
def test_listing_design_and_resources_over_http(
    version: str, tmp_path: Path, http_url: str
) -> None:
    """What an outside agent pays and gets: a listing under 30 kB, a design call whose text is a
    brief under 6 kB with the overrides applied, and every file of the bundle read back."""
    code, out, err = cli(version, tmp_path, "--method", "tools/list", url=http_url)
    assert code == 0, err
    listing = _json(out)
    assert len(json.dumps(listing, separators=(",", ":"))) <= MAX_LISTING_CHARS
    tools = {t["name"]: t for t in listing["tools"]}
    assert {"design_cluster", "more_tools", "call_tool"} <= set(tools)
    assert "submit_design" not in tools
    assert all(t.get("title") for t in tools.values())
    code, out, err = cli(
        version,
        tmp_path,
        "--method",
        "tools/call",
        "--tool-name",
        "design_cluster",
        "--tool-arg",
        "text=256 GPUs training",
        "power_cap_w=3000000",
        "platform=dgx-h100",
        url=http_url,
    )
    assert code == 0, err
    result = _json(out)
    assert not result.get("isError"), result
    text = result["content"][0]["text"]
    assert len(text) <= MAX_DESIGN_TEXT_CHARS
    brief = result["structuredContent"]
    assert brief["summary"]["gpus"] == 256
    assert brief["summary"]["platform"] == "dgx-h100"  # the override won
    assert brief["summary"]["cap_w"] == 3e6
    links = [c for c in result["content"] if c["type"] == "resource_link"]
    assert {c["name"] for c in links} == set(brief["files"])
    for link in links:
        code, out, err = cli(
            version, tmp_path, "--method", "resources/read", "--uri", link["uri"], url=http_url
        )
        assert code == 0, err
        (got,) = _json(out)["contents"]
        assert got["uri"] == link["uri"]
        assert got.get("text") or got.get("blob"), link["name"]
    memo = next(c for c in links if c["name"] == "memo.md")
    code, out, err = cli(
        version, tmp_path, "--method", "resources/read", "--uri", memo["uri"], url=http_url
    )
    assert _json(out)["contents"][0]["text"].startswith("# ")


def test_the_listing_passes_strict_checks(tmp_path: Path) -> None:
    code, out, err = cli(VERSIONS[-1], tmp_path, "--method", "tools/list", "--strict")
    assert code == 0, err  # --strict: no tool-schema portability problem of error severity
    code, out, err = cli(
        VERSIONS[-1],
        tmp_path,
        "--method",
        "prompts/get",
        "--prompt-name",
        "power_capped_trade_study",
        "--prompt-args",
        "power_cap_mw=5",
    )
    assert code == 0, err
    assert "5 MW power cap" in _json(out)["messages"][0]["content"]["text"]
