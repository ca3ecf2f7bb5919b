"""An MCP server over the tool registry: the same typed tools the NIM agent calls.

Built on the SDK's low-level `Server`, because each tool already has its JSON Schemas (generated from
its pydantic argument and result models) and FastMCP would derive its own from a Python signature.
Every tool only reads the catalog and computes: none writes a file, runs a command or opens a
connection, so the server is safe to hand to any agent.
"""

from __future__ import annotations

import logging
import math
import socket
from ipaddress import ip_address
from typing import Any

import anyio
import anyio.to_thread
from mcp import MCPError, types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import INVALID_PARAMS

from clustergen import __version__
from clustergen.catalog.loader import Catalog
from clustergen.errors import ClustergenError, RequestError
from clustergen.mcp import catalog as catalog_resources
from clustergen.mcp.connections import CLIENT_WAIT_S, IDLE_S, guarded_protocol
from clustergen.mcp.designs import DesignStore, SessionDesigns, contents, links, parse_uri
from clustergen.mcp.prompts import PROMPTS
from clustergen.mcp.prompts import get as get_prompt_result
from clustergen.mcp.request_ids import OneAnswerPerId
from clustergen.mcp.sessions import MAX_SESSIONS, SESSION_IDLE_S, evict_idlest_at_limit
from clustergen.mcp.toolset import McpToolset
from clustergen.tools.registry import Registry, ToolContext

log = logging.getLogger(__name__)

INSTRUCTIONS = (
    "clustergen sizes GPU clusters from sourced catalogs and rules. design_cluster turns a request "
    "('512 GPUs training, 5 MW', and/or fields such as power_cap_w, platform) into a validated "
    "design: a short brief, and the design, memo, BOM (CSV, XLSX), topology and pictures as "
    "resources to read. estimate_training/estimate_inference/estimate_budget size a workload; "
    "lookup_gpu/lookup_system give catalog facts with sources; explain_figure says where a "
    "design's figure comes from; more_tools and call_tool reach the rest (fabric, power-first, "
    "storage, trade study, sensitivity, designs from choices, fleet). Resources: the catalog "
    "(clustergen://catalog/gpus, systems, switches, models). Every tool is read-only. A refused "
    "call is an error result whose text says why and what would work."
)


def build_server(
    catalog: Catalog, registry: Registry, *, list_all: bool = False, share_designs: bool = False
) -> Server[Any]:
    """A low-level MCP server over `catalog`: the tools of `registry` served over MCP (the first
    ones listed, the rest behind `more_tools`, or all listed with `list_all`), the designs made
    in it and the catalog as resources, and prompts for the common jobs. Each session sees only
    the designs it made, unless `share_designs`."""
    by_session = SessionDesigns(shared=share_designs)
    toolset = McpToolset(registry, DesignStore(), list_all=list_all)
    context = ToolContext(catalog=catalog)

    def store(ctx: ServerRequestContext[Any, Any]) -> DesignStore:
        headers = getattr(ctx.request, "headers", None)
        return by_session.of(headers.get("mcp-session-id") if headers is not None else None)

    async def list_tools(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=toolset.listed)

    async def call_tool(
        ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        # The engine is synchronous; a worker thread keeps the transport answering meanwhile.
        return await anyio.to_thread.run_sync(
            _call, toolset, context, params.name, params.arguments, store(ctx)
        )

    async def list_resources(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        made = [
            types.Resource(
                name=f"{design_id}/{link.name}",
                uri=link.uri,
                description=link.description,
                mime_type=link.mime_type,
            )
            for design_id in store(ctx).ids()
            for link in links(design_id)
        ]
        return types.ListResourcesResult(resources=[*catalog_resources.resources(catalog), *made])

    async def list_templates(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=catalog_resources.templates())

    async def read_resource(
        ctx: ServerRequestContext[Any, Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        return await anyio.to_thread.run_sync(_read, store(ctx), catalog, str(params.uri))

    async def list_prompts(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=[p.listed() for p in PROMPTS.values()])

    async def get_prompt(
        ctx: ServerRequestContext[Any, Any], params: types.GetPromptRequestParams
    ) -> types.GetPromptResult:
        try:
            return get_prompt_result(params.name, params.arguments)
        except ClustergenError as exc:
            raise MCPError(INVALID_PARAMS, exc.one_line()) from None

    return Server(
        "clustergen",
        version=__version__,
        title="clustergen",
        description=f"GPU-cluster sizing tools (catalog {catalog.hash}); read-only",
        instructions=INSTRUCTIONS,
        get_tool_input_schema=toolset.input_schema,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read_resource,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
    )


def _call(
    toolset: McpToolset,
    context: ToolContext,
    name: str,
    arguments: dict[str, Any] | None,
    store: DesignStore,
) -> types.CallToolResult:
    try:
        return toolset.call(context, name, arguments, store)
    except Exception:  # a bug presenting a result: an error result, the log the rest
        log.exception("tool %s failed inside clustergen's MCP server", name)
        return types.CallToolResult(
            content=[types.TextContent(text=f"clustergen failed inside {name}; this is a bug")],
            is_error=True,
        )


def _read(store: DesignStore, catalog: Catalog, uri: str) -> types.ReadResourceResult:
    """A design file or a catalog resource; an unknown one is an invalid-params error with its
    one-line reason."""
    try:
        text = catalog_resources.read(catalog, uri)
        if text is not None:
            found: types.ResourceContents = types.TextResourceContents(
                uri=uri, mime_type="application/json", text=text
            )
        else:
            parsed = parse_uri(uri)
            if parsed is None:
                raise RequestError(
                    f"no resource {uri!r}; resources are clustergen://catalog/KIND[/ID] and "
                    "clustergen://design/ID/FILE"
                )
            data, mime = store.file(*parsed)
            found = contents(parsed[0], parsed[1], data, mime)
    except ClustergenError as exc:
        raise MCPError(INVALID_PARAMS, exc.one_line()) from None
    return types.ReadResourceResult(contents=[found])


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


def transport_security(host: str) -> TransportSecuritySettings:
    """The Host and Origin headers a server listening on `host` accepts: that host and the
    loopback names, on any port. They refuse a page on another site reaching the port by DNS
    rebinding, and a POST from another origin (403). `clustergen serve` checks the same."""
    shown = f"[{host}]" if ":" in host else host
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[f"{shown}:*", "127.0.0.1:*", "localhost:*", "[::1]:*"],
        allowed_origins=[
            f"http://{shown}:*",
            "http://127.0.0.1:*",
            "http://localhost:*",
            "http://[::1]:*",
        ],
    )


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
    app = server.streamable_http_app(
        host=host,
        transport_security=transport_security(host),
        max_sessions=max_sessions,
        session_idle_timeout=session_idle_s,
    )
    evict_idlest_at_limit(server.session_manager)
    return OneAnswerPerId(app)


def http_config(
    app: Any,
    *,
    max_connections: int | None = None,
    client_wait_s: float = CLIENT_WAIT_S,
    idle_s: float = IDLE_S,
) -> Any:
    """uvicorn's settings for `app`: connections bounded below the file limit, and closed when
    they wait on their client too long (clustergen.mcp.connections)."""
    import uvicorn

    return uvicorn.Config(
        app,
        log_level="warning",
        lifespan="on",
        access_log=False,
        http=guarded_protocol(max_connections, client_wait_s),
        timeout_keep_alive=max(1, math.ceil(idle_s)),
    )


async def serve_http(server: Server[Any], sock: socket.socket) -> None:
    """Serve streamable HTTP on an already-bound loopback socket until interrupted."""
    import uvicorn

    config = http_config(http_app(server, sock.getsockname()[0]))
    await uvicorn.Server(config).serve(sockets=[sock])
