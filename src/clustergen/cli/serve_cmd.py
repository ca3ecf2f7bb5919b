"""`clustergen serve`: the design page in a browser, on this machine by default."""

from __future__ import annotations

from typing import Annotated

import typer

from clustergen.cli.options import CatalogOpt, InsecureHttpOpt
from clustergen.cli.output import announce_key_route, stdout

#: the port the page listens on unless told another (the MCP examples use 8765)
DEFAULT_PORT = 8766


def serve(
    host: Annotated[
        str,
        typer.Option(
            "--host",
            help="Address to listen on. Beyond loopback the page needs a token, which the URL "
            "on the first line carries.",
        ),
    ] = "127.0.0.1",
    port: Annotated[
        int,
        typer.Option("--port", min=0, max=65535, help="Port to listen on (0: any free port)."),
    ] = DEFAULT_PORT,
    offline: Annotated[
        bool, typer.Option("--offline", help="Use the deterministic planner, even with a key.")
    ] = False,
    model: Annotated[
        str | None, typer.Option("--model", help="Model id (default: CLUSTERGEN_MODEL).")
    ] = None,
    allow_insecure_http: InsecureHttpOpt = False,
    catalog: CatalogOpt = None,
) -> None:
    """Serve the design page: a request box, the design, checks, trade study, topology, racks,
    power and BOM, controls that re-run it, and the bundle as a zip. The first line is the URL.

    Offline unless a key is configured; then the agent designs and the page shows each of its
    tool calls as it happens."""
    # starlette, uvicorn and jinja2 load only here: no other command pays for them.
    import anyio

    from clustergen.catalog import load_catalog
    from clustergen.web.app import build_app
    from clustergen.web.server import listen, needs_token, new_token, serve, url_of, warm

    cat = load_catalog(catalog)
    settings = None
    if not offline:
        from clustergen.agent.settings import load_settings

        settings = load_settings(model=model, allow_insecure_http=allow_insecure_http)
        if settings.configured():
            announce_key_route(settings)
        else:
            settings = None
    token = new_token() if needs_token(host) else None
    sock = listen(host, port)
    try:
        stdout.print(url_of(sock, token), markup=False, highlight=False, soft_wrap=True)
        mode = f"agent mode ({settings.model})" if settings else "offline"
        stdout.print(
            f"clustergen serve: the design page, {mode}; Ctrl-C stops it",
            markup=False,
            highlight=False,
        )
        stdout.file.flush()
        warm(cat)
        app = build_app(cat, host=host, settings=settings, token=token)
        anyio.run(serve, app, sock)
    finally:
        sock.close()


def register(app: typer.Typer) -> None:
    """Add `serve` to the root app."""
    app.command("serve")(serve)
