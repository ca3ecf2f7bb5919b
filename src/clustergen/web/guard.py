"""What every request to the page passes before it is answered: the Host and Origin headers
checked as the MCP server checks them (a page on another site reaching this port by DNS rebinding
is refused, a POST from another origin gets 403), the token when the server listens beyond
loopback, and a POST's type and size.

A pure ASGI middleware, so no route (a picture, a script) is served without these checks."""

from __future__ import annotations

import secrets
from ipaddress import ip_address
from urllib.parse import parse_qs

from mcp.server.transport_security import TransportSecurityMiddleware
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from clustergen.mcp.server import transport_security

#: the most bytes a POST body may hold (a request's text is at most 2,000 characters)
MAX_BODY_BYTES = 16_384
#: the cookie that carries the token after the first visit
TOKEN_COOKIE = "clustergen_token"


#: what the browser may load and run: this server's own script and pictures, nothing else
#: (matplotlib's SVG styles its shapes inline, hence inline styles)
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self' "
    "'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'self'; "
    "base-uri 'none'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
}
_HEADERS = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]


def is_loopback(host: str) -> bool:
    """Whether `host` names a loopback address (or localhost)."""
    if host == "localhost":
        return True
    try:
        return ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str) -> bool:
    """Whether `host` is the any-address (0.0.0.0, ::): every interface of the machine."""
    try:
        return ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return False


def refuse(status: int, message: str) -> Response:
    """A refusal in one line, as the CLI words an error."""
    return PlainTextResponse(f"Error: {message}\n", status_code=status)


class Guard:
    """The checks in front of the app (see the module docstring)."""

    def __init__(self, app: ASGIApp, host: str, token: str | None) -> None:
        self.app = app
        self.token = token
        # Listening on every interface, the name a visitor uses is not known beforehand: the
        # token refuses a rebinding page, and an Origin must still be the page's own.
        self.any_host = is_wildcard(host)
        settings = transport_security(host.strip("[]"))
        # the MCP server's names on any port, and without one (a page served on port 80)
        settings.allowed_hosts += [h.removesuffix(":*") for h in settings.allowed_hosts]
        settings.allowed_origins += [o.removesuffix(":*") for o in settings.allowed_origins]
        self.security = TransportSecurityMiddleware(settings)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *_HEADERS]
            await send(message)

        refusal = await self.check(Request(scope))
        if refusal is not None:
            await refusal(scope, receive, send_with_headers)
            return
        await self.app(scope, receive, send_with_headers)

    async def check(self, request: Request) -> Response | None:
        """None when the request may go on, else the response that refuses it."""
        headers = request.headers
        if self.any_host:
            origin = headers.get("origin")
            if origin and origin != f"http://{headers.get('host', '')}":
                return refuse(403, "a request from another origin is refused")
        else:
            checked = await self.security.validate_request(request, is_post=False)
            if checked is not None:
                words = "another origin" if checked.status_code == 403 else "another host name"
                return refuse(checked.status_code, f"a request from {words} is refused")
        if self.token is not None and not self.token_ok(request):
            return refuse(
                401,
                "this server needs its token: open the URL its first line printed "
                "(it ends in ?token=...)",
            )
        if request.method == "POST":
            return self.post_problem(headers)
        return None

    def token_ok(self, request: Request) -> bool:
        assert self.token is not None
        given = parse_qs(request.url.query).get("token", [""])[0]
        if not given:
            given = request.cookies.get(TOKEN_COOKIE, "")
        return secrets.compare_digest(given.encode(), self.token.encode())

    @staticmethod
    def post_problem(headers: Headers) -> Response | None:
        if not headers.get("content-type", "").lower().startswith("application/json"):
            return refuse(415, "the page posts JSON; this request is not JSON")
        try:
            size = int(headers.get("content-length", ""))
        except ValueError:
            return refuse(411, "a POST needs a Content-Length")
        if size > MAX_BODY_BYTES:
            return refuse(
                413, f"the request is {size:,} bytes; the page takes at most {MAX_BODY_BYTES:,}"
            )
        return None
