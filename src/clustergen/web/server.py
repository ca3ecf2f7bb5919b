"""Listening and serving: a socket on the host asked for, the URL to open (with the token when
the host is not loopback), a warm-up so the first answer is as quick as the rest, and uvicorn."""

from __future__ import annotations

import logging
import secrets
import socket
import threading
from typing import Any

from clustergen.catalog.loader import Catalog
from clustergen.errors import RequestError
from clustergen.web.guard import is_loopback, is_wildcard


def listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket on `host` (port 0: any free port), or a one-line RequestError."""
    bare = host.strip("[]")
    try:
        infos = socket.getaddrinfo(bare, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise RequestError(f"cannot resolve --host {host}: {exc.strerror}") from None
    family, _, _, _, address = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise RequestError(
            f"cannot listen on {host}:{port}: {exc.strerror or exc}",
            hint="pick another --port (0: any free port)",
        ) from None
    return sock


def needs_token(host: str) -> bool:
    """Beyond loopback, other machines can reach the page: it then asks for a token."""
    return not is_loopback(host.strip("[]"))


def new_token() -> str:
    return secrets.token_urlsafe(18)


def url_of(sock: socket.socket, token: str | None) -> str:
    """The URL to open for a socket from `listen`, with the token when there is one."""
    host, port = sock.getsockname()[:2]
    if is_wildcard(host):
        host = socket.gethostname()  # every interface: the machine's own name reaches it
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/" + (f"?token={token}" if token else "")


def warm(catalog: Catalog) -> threading.Thread:
    """Design and draw one request in the background: imports, caches and matplotlib's fonts
    are then ready before the first person asks."""
    from clustergen.web.form import Form
    from clustergen.web.make import make_design
    from clustergen.web.pictures import inline_topology
    from clustergen.web.view import answer

    def run() -> None:
        try:
            d = make_design(catalog, Form("512 GPUs training, 5 MW", {}), None)
            answer(d)
            inline_topology(d)
        except Exception:  # warming is optional (the first answer is then slower); log the bug
            logging.getLogger(__name__).exception("warming the page's design failed")

    thread = threading.Thread(target=run, name="clustergen-web-warm", daemon=True)
    thread.start()
    return thread


async def serve(app: Any, sock: socket.socket) -> None:
    """Serve `app` on an already-bound socket until interrupted."""
    import uvicorn

    config = uvicorn.Config(app, log_level="warning", lifespan="off", access_log=False)
    await uvicorn.Server(config).serve(sockets=[sock])
