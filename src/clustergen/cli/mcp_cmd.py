"""`clustergen mcp`: serve the typed tools to other agents over the Model Context Protocol."""

from __future__ import annotations

from typing import Annotated

import typer

from clustergen.cli.options import CatalogOpt
from clustergen.cli.output import stderr


def mcp(
    http: Annotated[
        int | None,
        typer.Option(
            "--http",
            metavar="PORT",
            min=0,
            max=65535,
            help="Serve streamable HTTP on this port (0: any free port) instead of stdio.",
        ),
    ] = None,
    host: Annotated[
        str,
        typer.Option("--host", help="Loopback address for --http; other hosts are refused."),
    ] = "127.0.0.1",
    all_tools: Annotated[
        bool,
        typer.Option(
            "--all-tools",
            help="List every tool (about 60 kB of schemas) instead of the first few and "
            "more_tools.",
        ),
    ] = False,
    share_designs: Annotated[
        bool,
        typer.Option(
            "--share-designs",
            help="Let every session list and read every session's designs (by default each "
            "sees only its own).",
        ),
    ] = False,
    catalog: CatalogOpt = None,
) -> None:
    """Serve clustergen's read-only tools over MCP (stdio, or HTTP on loopback with --http)."""
    # The SDK, starlette and uvicorn load only here: no other command pays for them.
    import anyio

    from clustergen.catalog import load_catalog
    from clustergen.mcp.server import build_server, listen, serve_http, serve_stdio, url_of
    from clustergen.tools import default_registry

    cat = load_catalog(catalog)
    server = build_server(cat, default_registry(), list_all=all_tools, share_designs=share_designs)
    if http is None:
        anyio.run(serve_stdio, server)
        return
    sock = listen(host, http)
    # stdout stays clean; the URL goes to stderr so a caller can read the port chosen for 0.
    stderr.print(f"clustergen MCP on {url_of(sock)}", markup=False, highlight=False)
    try:
        anyio.run(serve_http, server, sock)
    finally:
        sock.close()


def register(app: typer.Typer) -> None:
    """Add `mcp` to the root app."""
    app.command("mcp")(mcp)
