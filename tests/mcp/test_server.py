"""The MCP server, driven by the SDK's own client over both transports.

One server process per transport serves a whole session (every tool once, every kind of error);
the tests below read that session. The stdio server runs with a layered `--catalog` and speaks the
initialize handshake most MCP clients use; the HTTP server negotiates the newest protocol.
"""

from __future__ import annotations

import base64
import json
import socket
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from ipaddress import ip_address
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import (
    BlobResourceContents,
    CallToolResult,
    GetPromptResult,
    ListResourcesResult,
    ReadResourceResult,
    ResourceLink,
    TextResourceContents,
    Tool,
)

from clustergen.catalog import load_catalog
from clustergen.tools import ToolContext, default_registry
from support.loopback import loopback_only
from support.mcp_http import MAX_DESIGN_TEXT_CHARS, MAX_LISTING_CHARS, HttpServer

# ---------------------------------------------------------------- the session

_REQUIREMENTS = {"gpus": 256, "workload": "training"}
_CHOICES = {"platform": "dgx-h100"}

#: One valid call of every built-in tool.
VALID_CALLS: dict[str, dict[str, Any]] = {
    "sensitivity": {"requirements": {"power_cap_w": 2e6, "platform": "dgx-h100"}},
    "parse_request": {"text": "512 GPUs training, 5 MW"},
    "list_platforms": {"gpu": "H100"},
    "lookup_gpu": {"name": "H100"},
    "lookup_system": {"name": "dgx-h100"},
    "lookup_switch": {"name": "QM9700"},
    "list_ra_patterns": {},
    "recommend_ra": {"gpus": 64, "workload": "inference"},
    "size_fabric": {"platform": "dgx-h100", "nodes": 32},
    "power_first": {"platform": "dgx-h100", "power_cap_w": 5e6},
    "storage_targets": {"tier": "better", "nodes": 32},
    "analyze_storage": {
        "gpus": 128,
        "ingest_mb_per_s_per_gpu": 80,
        "sample_mb": 0.2,
        "layout": "one-file-per-sample",
        "read_pattern": "random-small",
        "storage_targets": 24,
    },
    "plan_fleet": {
        "inventory": {
            "nodes": [
                {"name": "train-1", "provider": "lab", "gpu": "H100", "gpus": 8},
                {"name": "gen-1", "provider": "lab", "gpu": "L40S"},
            ]
        }
    },
    "estimate_training": {"model": "65B", "training_tokens_t": 1.4, "gpus": 2048, "gpu": "A100"},
    "estimate_inference": {"model": "Llama 3.1 70B", "output_tokens_per_s": 5000, "tpot_ms": 50},
    "estimate_budget": {
        "model": "70B",
        "budget_usd": 1e6,
        "price_per_gpu_hour": 3,
        "kind": "training",
        "run_days": 30,
    },
    "compare_alternatives": {"requirements": _REQUIREMENTS},
    "build_design": {"requirements": _REQUIREMENTS, "choices": _CHOICES},
    "validate_design": {"requirements": _REQUIREMENTS, "choices": _CHOICES},
    "design_cluster": {"text": "256 GPUs training, 3 MW"},
}

#: Calls the server must answer with isError and the registry's own message.
BAD_CALLS: dict[str, tuple[str, dict[str, Any] | None]] = {
    "unknown tool": ("design_everything", {}),
    "wrong type": ("lookup_gpu", {"name": 3}),
    "out of range": ("size_fabric", {"platform": "dgx-h100", "nodes": 0}),
    "missing field": ("power_first", {"platform": "dgx-h100"}),
    "misspelt field": ("build_design", {"requirements": {"power_cap_mw": 5}}),
    "misspelt override": ("design_cluster", {"text": "512 GPUs", "power_cap_mw": 5}),
    "no arguments": ("recommend_ra", None),
    "extra field": ("lookup_switch", {"name": "QM9700", "vendor": "NVIDIA"}),
    "engine refusal": ("lookup_gpu", {"name": "Z9000"}),
    "agent only": ("submit_design", {"choices": _CHOICES, "memo": "32 nodes."}),
    "infeasible design": ("design_cluster", {"text": "100000 GPUs in 5 MW"}),
    "unreadable request": ("design_cluster", {"text": "hello there"}),
    "object as text": ("build_design", {"requirements": "256 GPUs", "choices": _CHOICES}),
}

# A user catalog layered over the built-in one (test fixture values, not a real part).
LAB_GPU = """\
- id: lab-gpu-x
  name: Lab GPU X
  vendor: Lab
  form_factor: pcie
  memory_gb: 24
  placeholder: true
  source: test fixture for --catalog layering
  as_of: 2026-01
"""


#: Calls of the server's own tools (discovery, explanation), by label.
OWN_CALLS: dict[str, tuple[str, dict[str, Any]]] = {
    "more": ("more_tools", {}),
    "more one": ("more_tools", {"name": "size_fabric"}),
    "call through": ("call_tool", {"name": "size_fabric", "arguments": VALID_CALLS["size_fabric"]}),
}
#: Resources read whatever the session made.
CATALOG_READS = ("clustergen://catalog/gpus", "clustergen://catalog/systems/dgx-h100")


@dataclass
class Session:
    protocol: str
    tools: list[Tool]
    listing_chars: int = 0
    results: dict[str, CallToolResult] = field(default_factory=dict)
    errors: dict[str, CallToolResult] = field(default_factory=dict)
    extra: dict[str, CallToolResult] = field(default_factory=dict)
    own: dict[str, CallToolResult] = field(default_factory=dict)
    reads: dict[str, ReadResourceResult] = field(default_factory=dict)
    read_errors: dict[str, str] = field(default_factory=dict)
    resources: ListResourcesResult | None = None
    prompts: dict[str, GetPromptResult] = field(default_factory=dict)
    left_behind: list[str] = field(default_factory=list)
    catalog: Path | None = None


def _links(result: CallToolResult) -> list[ResourceLink]:
    return [c for c in result.content if isinstance(c, ResourceLink)]


async def drive(client: Client, extra: dict[str, tuple[str, dict[str, Any]]]) -> Session:
    listed = await client.list_tools()
    session = Session(
        protocol=client.protocol_version,
        tools=listed.tools,
        listing_chars=len(listed.model_dump_json(by_alias=True, exclude_none=True)),
    )
    for name, arguments in VALID_CALLS.items():
        # The SDK client checks structured content against each tool's output schema here.
        session.results[name] = await client.call_tool(name, arguments)
    for label, (name, arguments) in BAD_CALLS.items():
        session.errors[label] = await client.call_tool(name, arguments)
    for label, (name, arguments) in extra.items():
        session.extra[label] = await client.call_tool(name, arguments)
    design_id = session.results["design_cluster"].structured_content["id"]  # type: ignore[index]
    own = {
        **OWN_CALLS,
        "explain": ("explain_figure", {"design": design_id, "figure": "power.it_total_w"}),
        "explain typo": ("explain_figure", {"design": design_id, "figure": "power.it_totl_w"}),
    }
    for label, (name, arguments) in own.items():
        session.own[label] = await client.call_tool(name, arguments)
    uris = [str(link.uri) for link in _links(session.results["design_cluster"])]
    for uri in [*uris, *CATALOG_READS]:
        session.reads[uri] = await client.read_resource(uri)
    for uri in ("clustergen://design/000000000000/memo.md", "clustergen://catalog/gpus/z9000"):
        try:
            await client.read_resource(uri)
        except MCPError as exc:
            session.read_errors[uri] = exc.message
    session.resources = await client.list_resources()
    prompts = await client.list_prompts()
    for prompt in prompts.prompts:
        required = {a.name: "512 GPUs training, 5 MW" for a in prompt.arguments or [] if a.required}
        session.prompts[prompt.name] = await client.get_prompt(prompt.name, required)
    return session


@pytest.fixture(scope="module")
def lab_catalog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("lab-catalog")
    (d / "gpus.yaml").write_text(LAB_GPU, encoding="utf-8")
    return d


@pytest.fixture(scope="module")
def http_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpServer]:
    server = HttpServer(tmp_path_factory.mktemp("mcp-http") / "stderr.log")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def stdio(
    lab_catalog: Path, tmp_path_factory: pytest.TempPathFactory, http_server: HttpServer
) -> Session:
    """A session with `clustergen mcp --catalog DIR` as a subprocess, initialize handshake.

    Asks for `http_server` only so that server starts up while this session runs."""
    log = tmp_path_factory.mktemp("mcp-stdio") / "stderr.log"
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "clustergen", "mcp", "--catalog", str(lab_catalog)],
        cwd=tmp_path_factory.mktemp("mcp-workdir"),
    )

    async def run() -> Session:
        with log.open("w") as errlog:
            async with Client(stdio_client(params, errlog=errlog), mode="legacy") as client:
                session = await drive(client, {"layered": ("lookup_gpu", {"name": "Lab GPU X"})})
        assert params.cwd is not None
        session.left_behind = sorted(
            str(p) for d in (Path(params.cwd), lab_catalog) for p in d.rglob("*")
        )
        session.catalog = lab_catalog
        return session

    try:
        return anyio.run(run)
    except Exception:
        sys.stderr.write(log.read_text())
        raise


@pytest.fixture(scope="module")
def http(http_server: HttpServer) -> Session:
    """A session over streamable HTTP, protocol version negotiated by the SDK."""

    async def run() -> Session:
        async with Client(http_server.url) as client:
            return await drive(client, {})

    with loopback_only():
        return anyio.run(run)


@pytest.fixture(params=["stdio", "http"])
def session(request: pytest.FixtureRequest) -> Session:
    return request.getfixturevalue(request.param)


# ---------------------------------------------------------------- the tests


OWN_TOOLS = ["explain_figure", "more_tools", "call_tool"]


def test_lists_the_first_tools_and_the_way_to_the_rest(session: Session) -> None:
    from clustergen.mcp.toolset import result_schema

    registry = default_registry().for_mcp()
    first = registry.mcp_first()
    assert [t.name for t in session.tools] == [*first, *OWN_TOOLS]
    assert {"design_cluster", "estimate_training", "lookup_gpu", "lookup_system"} <= set(first)
    assert "submit_design" not in registry.names()  # the design agent's own, not for others
    for listed in session.tools:
        assert listed.annotations is not None
        assert listed.annotations.read_only_hint is True
        assert listed.annotations.destructive_hint is False
        assert listed.description
        assert len(listed.description) < 500
        if listed.name in OWN_TOOLS:
            continue
        tool = registry.tools[listed.name]
        assert listed.title == tool.title
        assert listed.description == tool.description
        assert listed.input_schema == tool.parameters_schema()
        assert listed.output_schema == result_schema(tool)


def test_the_listing_fits_an_agents_context(session: Session) -> None:
    assert session.listing_chars <= MAX_LISTING_CHARS
    design = next(t for t in session.tools if t.name == "design_cluster")
    assert design.output_schema is not None  # the brief: small, and what a program reads
    assert len(json.dumps(design.output_schema)) < 8000


def test_more_tools_names_the_rest_and_call_tool_reaches_them(session: Session) -> None:
    registry = default_registry().for_mcp()
    listed = {t.name for t in session.tools}
    rows = json.loads(session.own["more"].content[0].text)["tools"]
    assert {r["name"] for r in rows} == set(registry.names()) - listed
    one = json.loads(session.own["more one"].content[0].text)
    assert one["input_schema"] == registry.tools["size_fabric"].parameters_schema()
    through = session.own["call through"]
    assert not through.is_error
    assert json.loads(through.content[0].text) == json.loads(
        session.results["size_fabric"].content[0].text
    )


def test_every_tool_answers_with_its_result_model(session: Session) -> None:
    from clustergen.mcp.toolset import result_schema

    registry = default_registry().for_mcp()
    assert set(session.results) == set(registry.names())
    for name, result in session.results.items():
        text = result.content[0].text if result.content else ""
        assert not result.is_error, f"{name}: {text}"
        if name == "design_cluster":
            continue
        registry.tools[name].result.model_validate(json.loads(text))
        # Structured content only where the tool has an output schema: no payload twice.
        if result_schema(registry.tools[name]):
            assert json.loads(text) == result.structured_content
        else:
            assert result.structured_content is None, name


def test_results_equal_the_registry_called_in_process(session: Session, lab_catalog: Path) -> None:
    # Both servers' catalogs agree on every built-in figure (the lab layer only adds a GPU).
    ctx = ToolContext(catalog=load_catalog(lab_catalog))
    registry = default_registry()
    for name in ("size_fabric", "power_first", "analyze_storage", "plan_fleet"):
        expected = registry.call(ctx, name, VALID_CALLS[name])
        assert json.loads(session.results[name].content[0].text) == expected.result, name


def test_errors_carry_the_registry_message(session: Session) -> None:
    ctx = ToolContext(catalog=load_catalog())
    registry = default_registry().for_mcp()
    for label, (name, arguments) in BAD_CALLS.items():
        result = session.errors[label]
        expected = registry.call(ctx, name, arguments)
        assert not expected.ok
        assert result.is_error, label
        assert [c.text for c in result.content] == [expected.error], label
        # No structured content: clients check it against the output schema, which describes a
        # result, and would show a schema mismatch instead of the message.
        assert result.structured_content is None, label


def test_error_messages_say_what_was_wrong(stdio: Session) -> None:
    def text(label: str) -> str:
        return stdio.errors[label].content[0].text

    assert "unknown tool 'design_everything'" in text("unknown tool")
    assert "lookup_gpu" in text("unknown tool")  # lists the tools there are
    assert text("wrong type").startswith("bad arguments for lookup_gpu: name:")
    assert "nodes: Input should be greater than or equal to 1" in text("out of range")
    assert "power_cap_w: Field required" in text("missing field")
    assert (
        "requirements.power_cap_mw: Extra inputs are not permitted; did you mean power_cap_w"
        in (text("misspelt field"))
    )
    assert "power_cap_mw: Extra inputs are not permitted; did you mean power_cap_w" in text(
        "misspelt override"
    )
    assert "gpus: Field required" in text("no arguments")
    assert "vendor: Extra inputs are not permitted" in text("extra field")
    assert text("engine refusal").startswith("unknown GPU 'Z9000'; closest matches:")
    assert "unknown tool 'submit_design'" in text("agent only")
    assert "over the" in text("infeasible design")
    assert text("unreadable request").startswith("nothing to size in 'hello there'")
    assert "requirements: Input should be a valid dictionary" in text("object as text")
    typo = stdio.own["explain typo"]
    assert typo.is_error
    assert "no 'it_totl_w' in power; did you mean it_total_w" in typo.content[0].text


def test_the_one_shot_design_reads_as_a_brief(session: Session) -> None:
    result = session.results["design_cluster"]
    brief = result.structured_content
    assert brief is not None
    text = result.content[0].text
    assert len(text) <= MAX_DESIGN_TEXT_CHARS
    s = brief["summary"]
    assert s["gpus"] == 256
    assert brief["verdict"] == "PASS"
    # The brief says the verdict, the platform, the GPUs, IT and facility power, what was assumed.
    assert "**Checks: PASS.**" in text
    assert s["platform_name"] in text
    assert "256 / 32" in text
    assert "IT power" in text
    assert "Facility power" in text
    assert "## Assumed" in text
    assert brief["assumed"][0].split(" = ")[0] in text
    # Nothing is sent twice in full: no design JSON, no memo in the result.
    whole = result.model_dump_json(by_alias=True, exclude_none=True)
    assert '"bom"' not in whole
    assert "## Bill of materials" not in whole
    assert len(whole) < 12_000


def _cells(xlsx: bytes) -> list[list[Any]]:
    import io

    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(xlsx), read_only=True)
    return [[c for row in sheet.iter_rows(values_only=True) for c in row] for sheet in book]


def test_the_whole_bundle_is_one_read_away(session: Session) -> None:
    from clustergen.engine.report.bundle import bundle_files
    from clustergen.engine.request import parse_request
    from clustergen.engine.search.planner import plan_design

    result = session.results["design_cluster"]
    links = {link.name: str(link.uri) for link in _links(result)}
    cat = load_catalog(session.catalog)
    files = bundle_files(plan_design(cat, parse_request(cat, "256 GPUs training, 3 MW")))
    assert set(links) == set(files)
    assert result.structured_content is not None
    assert result.structured_content["files"] == links
    for name, uri in links.items():
        assert uri in result.content[0].text  # the text names every file too
        (got,) = session.reads[uri].contents
        if isinstance(files[name], bytes):
            assert isinstance(got, BlobResourceContents), name
            data = base64.b64decode(got.blob)
            if name.endswith(".xlsx"):  # a zip stamps the time it was written: compare cells
                assert _cells(data) == _cells(files[name])  # type: ignore[arg-type]
            else:
                assert data == files[name], name
        else:
            assert isinstance(got, TextResourceContents), name
            assert got.text == files[name], name
    listed = {str(r.uri) for r in session.resources.resources} if session.resources else set()
    assert set(links.values()) <= listed


def test_the_catalog_is_served_with_its_sources(session: Session) -> None:
    index = json.loads(session.reads["clustergen://catalog/gpus"].contents[0].text)  # type: ignore[union-attr]
    h100 = next(e for e in index if e["id"] == "h100-sxm")
    assert h100["source"]
    assert h100["as_of"]
    entry = json.loads(
        session.reads["clustergen://catalog/systems/dgx-h100"].contents[0].text  # type: ignore[union-attr]
    )
    assert entry["id"] == "dgx-h100"
    assert entry["source"]
    assert session.resources is not None
    listed = {str(r.uri) for r in session.resources.resources}
    assert {
        f"clustergen://catalog/{k}" for k in ("gpus", "systems", "switches", "models")
    } <= listed
    missing = session.read_errors["clustergen://design/000000000000/memo.md"]
    assert missing.startswith("no design '000000000000' in this server")
    assert session.read_errors["clustergen://catalog/gpus/z9000"].startswith("unknown GPU 'z9000'")


def test_explain_figure_reads_the_design(session: Session) -> None:
    result = session.own["explain"]
    assert not result.is_error, result.content
    out = json.loads(result.content[0].text)
    assert (
        out["value"]
        == session.results["design_cluster"].structured_content["summary"][  # type: ignore[index]
            "it_total_w"
        ]
    )
    assert out["recorded_beside_it"]  # the power section says what its totals rest on
    assert out["whole_design"].endswith("/design.json")


def test_prompts_for_the_common_jobs(session: Session) -> None:
    assert set(session.prompts) == {
        "customer_proposal",
        "power_capped_trade_study",
        "workload_sizing",
    }
    for prompt in session.prompts.values():
        text = prompt.messages[0].content.text  # type: ignore[union-attr]
        assert "512 GPUs training, 5 MW" in text
        assert "never from memory" in text


def test_catalog_layering_reaches_the_tools(stdio: Session) -> None:
    result = stdio.extra["layered"]
    assert not result.is_error, result.content
    assert result.structured_content["id"] == "lab-gpu-x"
    assert result.structured_content["memory_gb"] == 24


def test_a_session_of_every_tool_writes_nothing(stdio: Session, lab_catalog: Path) -> None:
    # The server's working directory stays empty and the layered catalog as it was written.
    assert stdio.left_behind == [str(lab_catalog / "gpus.yaml")]
    assert (lab_catalog / "gpus.yaml").read_text(encoding="utf-8") == LAB_GPU


def test_both_handshakes_work(stdio: Session, http: Session) -> None:
    assert stdio.protocol.startswith("2025-")  # initialize handshake
    assert http.protocol != stdio.protocol  # the SDK's newest, negotiated by discovery


def test_http_refuses_foreign_host_headers(http_server: HttpServer) -> None:
    """A page on another site that rebinds its DNS name to 127.0.0.1 is turned away."""
    body = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    headers = {"Accept": "application/json, text/event-stream"}
    port = http_server.url.split(":")[-1].split("/")[0]
    with loopback_only():
        foreign = httpx.post(
            http_server.url, json=body, headers={**headers, "Host": f"evil.example:{port}"}
        )
        origin = httpx.post(
            http_server.url, json=body, headers={**headers, "Origin": "http://evil.example"}
        )
    assert foreign.status_code == 421
    assert origin.status_code == 403


def test_http_server_listens_on_loopback_only(http_server: HttpServer) -> None:
    host = http_server.url.split("//")[1].rsplit(":", 1)[0]
    assert ip_address(host.strip("[]")).is_loopback


def test_loopback_guard_still_refuses_other_hosts() -> None:
    with loopback_only():
        with pytest.raises(RuntimeError, match="network access"):
            socket.create_connection(("192.0.2.1", 80), timeout=1)
        with socket.socket() as s, pytest.raises(RuntimeError, match="network access"):
            s.connect(("example.com", 80))
        with socket.socket() as server:
            server.bind(("127.0.0.1", 0))
            server.listen(1)
            socket.create_connection(server.getsockname(), timeout=1).close()


def test_package_does_not_shadow_the_sdk() -> None:
    import mcp

    import clustergen
    import clustergen.mcp.server as ours

    sdk = Path(mcp.__file__ or "").resolve()
    # (not a check on the path's words: a checkout may itself sit in a directory named clustergen)
    assert Path(clustergen.__file__).resolve().parent not in sdk.parents
    assert ours.Server.__module__.startswith("mcp.server")


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"])
def test_loopback_hosts_are_accepted(host: str) -> None:
    from clustergen.mcp.server import loopback_host

    assert loopback_host(host) == host.strip("[]")


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.5", "10.0.0.1", "example.com", ""])
def test_other_hosts_are_refused(host: str) -> None:
    from clustergen.errors import RequestError
    from clustergen.mcp.server import loopback_host

    with pytest.raises(RequestError, match="not a loopback address"):
        loopback_host(host)


def test_a_port_in_use_is_a_one_line_error() -> None:
    from clustergen.errors import RequestError
    from clustergen.mcp.server import listen, url_of

    first = listen("127.0.0.1", 0)
    try:
        port = first.getsockname()[1]
        assert url_of(first) == f"http://127.0.0.1:{port}/mcp"
        with pytest.raises(RequestError, match=f"cannot listen on 127.0.0.1:{port}"):
            listen("127.0.0.1", port)
    finally:
        first.close()
