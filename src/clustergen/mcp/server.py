"""An MCP server over the tool registry: the same typed tools the NIM agent calls.

Built on the SDK's low-level `Server`, because each tool already has its JSON Schemas (generated from
its pydantic argument and result models) and FastMCP would derive its own from a Python signature.
Every tool only reads the catalog and computes: none writes a file, runs a command or opens a
connection, so the server is safe to hand to any agent.
"""

from __future__ import annotations

import json
import logging
import socket
from collections.abc import Mapping
from ipaddress import ip_address
from typing import Any

import anyio
import anyio.to_thread
from mcp import types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.server.transport_security import TransportSecuritySettings

from clustergen import __version__
from clustergen.catalog.loader import Catalog
from clustergen.errors import RequestError
from clustergen.mcp.sessions import MAX_SESSIONS, SESSION_IDLE_S, evict_idlest_at_limit
from clustergen.tools.registry import Registry, Tool, ToolContext, ToolOutcome

log = logging.getLogger(__name__)

#: Every tool is a pure function of the catalog and its arguments.
READ_ONLY = types.ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)

INSTRUCTIONS = (
    "clustergen sizes GPU clusters from sourced catalogs and rules. design_cluster turns a request "
    "in plain words ('512 GPUs training, 5 MW') into a validated design with its memo and bill of "
    "materials in one call. To work step by step: look facts up (lookup_gpu, lookup_system, "
    "lookup_switch, list_platforms), size parts (size_fabric, power_first, storage_targets, "
    "analyze_storage, plan_fleet), compare platforms (compare_alternatives) and build a checked "
    "design (build_design, validate_design). Every tool is read-only. A refused call is an error "
    "result whose text says why and what would work."
)


def result_schema(tool: Tool[Any, Any]) -> dict[str, Any]:
    """The JSON Schema of what a call returns: the result model as it is serialised."""
    schema: dict[str, Any] = tool.result.model_json_schema(mode="serialization")
    schema.pop("title", None)
    return schema


def mcp_tool(tool: Tool[Any, Any]) -> types.Tool:
    """One registry tool as MCP lists it."""
    return types.Tool(
        name=tool.name,
        title=tool.display_title(),
        description=tool.description,
        input_schema=tool.parameters_schema(),
        output_schema=result_schema(tool),
        annotations=READ_ONLY,
    )


def call_result(outcome: ToolOutcome) -> types.CallToolResult:
    """A registry outcome as an MCP result: the result model as structured content (and as JSON
    text for clients that read only text), or the registry's one-line message with isError.

    An error carries no structured content: clients check structured content against the tool's
    output schema, which describes a result, so an error object there would hide the message
    behind "does not match the output schema" (the TypeScript SDK most clients share does)."""
    if outcome.ok:
        return types.CallToolResult(
            content=[types.TextContent(text=json.dumps(outcome.result, allow_nan=False))],
            structured_content=outcome.result,
        )
    return types.CallToolResult(
        content=[types.TextContent(text=outcome.error or "tool failed")], is_error=True
    )


def build_server(catalog: Catalog, registry: Registry) -> Server[Any]:
    """A low-level MCP server that lists and calls the tools of `registry` served over MCP (not
    the design agent's own `submit_design`) over `catalog`."""
    registry = registry.for_mcp()
    tools = [mcp_tool(t) for t in registry.tools.values()]
    input_schemas: Mapping[str, dict[str, Any]] = {t.name: t.input_schema for t in tools}
    context = ToolContext(catalog=catalog)

    async def list_tools(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(
        ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        # The engine is synchronous; a worker thread keeps the transport answering meanwhile.
        outcome = await anyio.to_thread.run_sync(
            registry.call, context, params.name, params.arguments
        )
        if outcome.traceback:  # a bug in a tool: the client gets an error result, the log the rest
            log.error("tool %s failed inside clustergen:\n%s", params.name, outcome.traceback)
        return call_result(outcome)

    return Server(
        "clustergen",
        version=__version__,
        title="clustergen",
        description=f"GPU-cluster sizing tools (catalog {catalog.hash}); read-only",
        instructions=INSTRUCTIONS,
        get_tool_input_schema=input_schemas.get,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


async def serve_stdio(server: Server[Any]) -> None:
    """Serve one client on stdin/stdout until it closes stdin."""
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def loopback_host(host: str) -> str:
    """`host` if it names a loopback address, else a RequestError: the server has no
    authentication, so it never listens where another machine could reach it."""
    if host == "localhost":
        return host
    try:
        ok = ip_address(host.strip("[]")).is_loopback
    except ValueError:
        ok = False
    if not ok:
        raise RequestError(
            f"--host {host} is not a loopback address; the MCP server listens on loopback only",
            hint="use 127.0.0.1 or ::1, and put an authenticating proxy in front to share it",
        )
    return host.strip("[]")


def listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket on a loopback address (port 0: any free port)."""
    host = loopback_host(host)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise RequestError(f"cannot resolve --host {host}: {exc.strerror}") from None
    family, _, _, _, address = infos[0]
    if not ip_address(address[0]).is_loopback:  # e.g. a hosts file pointing localhost elsewhere
        raise RequestError(f"--host {host} resolves to {address[0]}, which is not loopback")
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise RequestError(
            f"cannot listen on {host}:{port}: {exc.strerror}", hint="pick another --http PORT"
        ) from None
    return sock


def url_of(sock: socket.socket, path: str = "/mcp") -> str:
    """The URL a client connects to for a socket from `listen`."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}{path}"


def http_app(
    server: Server[Any],
    host: str,
    *,
    max_sessions: int = MAX_SESSIONS,
    session_idle_s: float = SESSION_IDLE_S,
) -> Any:
    """The streamable HTTP app for `server` on loopback `host`: Host and Origin checked, and
    sessions bounded (at most `max_sessions`, the idlest closed to admit a new one) and expired
    after `session_idle_s` without a request (clustergen.mcp.sessions)."""
    shown = f"[{host}]" if ":" in host else host
    # Host/Origin checks refuse a page on another site reaching this port by DNS rebinding.
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[f"{shown}:*", "127.0.0.1:*", "localhost:*", "[::1]:*"],
        allowed_origins=[
            f"http://{shown}:*",
            "http://127.0.0.1:*",
            "http://localhost:*",
            "http://[::1]:*",
        ],
    )
    app = server.streamable_http_app(
        host=host,
        transport_security=security,
        max_sessions=max_sessions,
        session_idle_timeout=session_idle_s,
    )
    evict_idlest_at_limit(server.session_manager)
    return app


async def serve_http(server: Server[Any], sock: socket.socket) -> None:
    """Serve streamable HTTP on an already-bound loopback socket until interrupted."""
    import uvicorn

    app = http_app(server, sock.getsockname()[0])
    config = uvicorn.Config(app, log_level="warning", lifespan="on", access_log=False)
    await uvicorn.Server(config).serve(sockets=[sock])
