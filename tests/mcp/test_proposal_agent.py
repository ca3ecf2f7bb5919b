"""An outside agent given only `clustergen mcp` produces the README request's proposal bundle.

The agent here is scripted, not a model: it knows nothing of clustergen but the server's listing,
its prompt and what each result says. It takes the `customer_proposal` prompt, calls the tool the
prompt names with the request, and follows every resource link of the result into a folder. The
folder must hold what `clustergen design --out` writes for the same request: the memo, the BOM
(CSV and XLSX) and the pictures, byte for byte (the XLSX cell for cell: a zip stamps its time).
"""

from __future__ import annotations

import base64
import io
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import BlobResourceContents, ResourceLink, TextContent
from openpyxl import load_workbook

from support.mcp_http import MAX_DESIGN_TEXT_CHARS, MAX_LISTING_CHARS

REQUEST = "512 GPUs training, 5 MW"  # the README's request


async def scripted_agent(client: Client, out: Path) -> dict[str, Any]:
    """What the agent did: the tools it saw, the tool it called, the files it wrote."""
    listing = await client.list_tools()
    tools = {t.name for t in listing.tools}
    prompts = {p.name for p in (await client.list_prompts()).prompts}
    assert "customer_proposal" in prompts
    prompt = await client.get_prompt("customer_proposal", {"request": REQUEST})
    instructions = prompt.messages[0].content
    assert isinstance(instructions, TextContent)
    # The first listed tool the prompt names is the one to call.
    named = [t for t in tools if re.search(rf"\b{t}\b", instructions.text)]
    assert named, instructions.text
    tool = min(named, key=instructions.text.index)
    result = await client.call_tool(tool, {"text": REQUEST})
    assert not result.is_error, result.content
    written = []
    for link in (c for c in result.content if isinstance(c, ResourceLink)):
        (contents,) = (await client.read_resource(str(link.uri))).contents
        target = out / link.name
        if isinstance(contents, BlobResourceContents):
            target.write_bytes(base64.b64decode(contents.blob))
        else:
            target.write_text(contents.text, encoding="utf-8")
        written.append(link.name)
    text = next(c.text for c in result.content if isinstance(c, TextContent))
    return {
        "listing_chars": len(listing.model_dump_json(by_alias=True, exclude_none=True)),
        "tool": tool,
        "brief_chars": len(text),
        "written": written,
    }


def _cells(xlsx: bytes) -> list[list[Any]]:
    book = load_workbook(io.BytesIO(xlsx), read_only=True)
    return [[c for row in sheet.iter_rows(values_only=True) for c in row] for sheet in book]


def test_an_agent_with_only_the_server_makes_the_proposal_bundle(tmp_path: Path) -> None:
    bundle = tmp_path / "agent"
    bundle.mkdir()
    params = StdioServerParameters(command=sys.executable, args=["-m", "clustergen", "mcp"])

    async def run() -> dict[str, Any]:
        async with Client(stdio_client(params)) as client:
            return await scripted_agent(client, bundle)

    did = anyio.run(run)
    assert did["tool"] == "design_cluster"
    assert did["listing_chars"] <= MAX_LISTING_CHARS
    assert did["brief_chars"] <= MAX_DESIGN_TEXT_CHARS
    cli = tmp_path / "cli"
    subprocess.run(
        [sys.executable, "-m", "clustergen", "design", REQUEST, "--offline", "--out", str(cli)],
        check=True,
        capture_output=True,
    )
    expected = sorted(p.name for p in cli.iterdir() if not p.name.startswith("."))  # not the marker
    assert {"memo.md", "bom.csv", "bom.xlsx", "racks.png", "power.png"} <= set(expected)
    assert sorted(did["written"]) == expected
    for name in expected:
        got, want = (bundle / name).read_bytes(), (cli / name).read_bytes()
        if name.endswith(".xlsx"):
            assert _cells(got) == _cells(want)
        else:
            assert got == want, name
