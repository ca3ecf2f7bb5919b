"""The page's routes: the page (and its answer, server-rendered for `?q=...`), the answer for
the page's script (progress lines, then the answer), a design's JSON, bundle and pictures, and
the page's two assets. Nothing else is served: no path maps to a file."""

from __future__ import annotations

import json
import logging
import queue
import re
import threading
import time
from collections.abc import AsyncIterator, Callable
from functools import partial
from importlib.resources import files
from typing import TYPE_CHECKING, Any

import anyio.to_thread
from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response, StreamingResponse
from starlette.routing import Route

from clustergen import __version__
from clustergen.catalog.loader import Catalog
from clustergen.engine.model.design import Design
from clustergen.engine.report.bundle import RENDERERS
from clustergen.errors import ClustergenError, RequestError
from clustergen.web.archive import bundle_zip
from clustergen.web.form import CONTROLS, Form, field_label, platforms, read_form
from clustergen.web.guard import MAX_BODY_BYTES, TOKEN_COOKIE, Guard, refuse
from clustergen.web.make import Progress, make_design
from clustergen.web.pictures import PNGS, drawn, inline_topology
from clustergen.web.store import DesignStore
from clustergen.web.view import answer, changes

if TYPE_CHECKING:
    from clustergen.agent.settings import AgentSettings

log = logging.getLogger(__name__)

#: the page's assets: served from the package by these names only
ASSETS = {"app.js": "text/javascript", "style.css": "text/css"}

_TEMPLATES = Environment(
    loader=PackageLoader("clustergen.web", "templates"),
    autoescape=True,
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


def _asset(name: str) -> bytes:
    return files("clustergen.web").joinpath("static", name).read_bytes()


class Page:
    """The app's state: the catalog, the agent's settings (None: offline), the designs shown."""

    def __init__(self, catalog: Catalog, settings: AgentSettings | None, token: str | None):
        self.catalog = catalog
        self.settings = settings
        self.token = token
        self.store = DesignStore()
        self.assets = {name: _asset(name) for name in ASSETS}
        self.platforms = [(s.id, s.name) for s in platforms(catalog)]
        self.agent = settings is not None and settings.configured()

    # ------------------------------------------------------------ the answer

    def result(self, form: Form, prev: str | None, progress: Progress | None) -> dict[str, Any]:
        """The answer's template context, or an error line: never an exception."""
        started = time.perf_counter()
        try:
            design = make_design(self.catalog, form, self.settings, progress)
        except ClustergenError as exc:
            return {"error": exc.one_line(field_label)}
        design_id = self.store.add(design, form.query())
        before = None
        if prev:
            try:
                kept = self.store.get(prev)
                if kept.query != form.query():
                    before = changes(kept.design, design)
            except RequestError:
                pass  # the earlier design is gone: the answer stands alone
        return {
            "error": None,
            "id": design_id,
            "query": form.query(),
            "a": answer(design),
            "svg": Markup(inline_topology(design)),  # cleaned: pictures.inline_topology
            "changes": before,
            "seconds": time.perf_counter() - started,
        }

    def render(self, name: str, **context: Any) -> str:
        return _TEMPLATES.get_template(name).render(
            controls=CONTROLS, platforms=self.platforms, version=__version__, **context
        )

    # ------------------------------------------------------------ routes

    async def page(self, request: Request) -> Response:
        """The page; with a request in the URL, its answer too (the page without script)."""
        result: dict[str, Any] | None = None
        try:
            form = read_form(request.query_params)
        except ClustergenError as exc:
            form, result = Form("", {}), {"error": exc.one_line(field_label)}
        else:
            if not form.empty():
                prev = request.query_params.get("prev")
                result = await anyio.to_thread.run_sync(self.result, form, prev, None)
        html = self.render("page.html", form=form, result=result, agent=self.agent)
        response = HTMLResponse(html, status_code=400 if result and result["error"] else 200)
        if self.token is not None and request.query_params.get("token") == self.token:
            response.set_cookie(TOKEN_COOKIE, self.token, httponly=True, samesite="strict")
        return response

    async def design(self, request: Request) -> Response:
        """The answer for the page's script, as lines of JSON: {"progress": ...} for each step
        of an agent's run as it happens, then {"html": ..., "url": ...} or {"error": ...}."""
        body = await request.body()
        if len(body) > MAX_BODY_BYTES:
            return refuse(413, f"the request is over {MAX_BODY_BYTES:,} bytes")
        try:
            data = json.loads(body)
            if not isinstance(data, dict):
                raise RequestError("the page posts a JSON object")
            form = read_form(data)
            prev = data.get("prev") if isinstance(data.get("prev"), str) else None
        except (ValueError, ClustergenError) as exc:
            words = exc.one_line() if isinstance(exc, ClustergenError) else "the body is not JSON"
            return Response(_line({"error": words}), media_type="application/x-ndjson")
        return StreamingResponse(self._lines(form, prev), media_type="application/x-ndjson")

    async def _lines(self, form: Form, prev: str | None) -> AsyncIterator[str]:
        lines: queue.Queue[str | None] = queue.Queue()

        def work() -> None:
            try:
                result = self.result(form, prev, lambda text: lines.put(_line({"progress": text})))
                if result["error"]:
                    lines.put(_line({"error": result["error"]}))
                else:
                    html = self.render("answer.html", result=result)
                    lines.put(_line({"html": html, "url": f"/?{result['query']}"}))
            except Exception:  # a bug: one line for the page, the traceback for the log
                log.exception("the page's design failed")
                lines.put(_line({"error": "clustergen failed making this design; this is a bug"}))
            finally:
                lines.put(None)

        threading.Thread(target=work, name="clustergen-web-design", daemon=True).start()
        while (line := await anyio.to_thread.run_sync(lines.get)) is not None:
            yield line

    async def design_file(self, request: Request) -> Response:
        """A kept design's JSON, bundle (zip) or picture, rendered on first use."""
        design_id, name = request.path_params["id"], request.path_params["name"]
        if name not in DESIGN_FILES:
            return refuse(404, f"no file {name!r} in a design; they are: {', '.join(DESIGN_FILES)}")
        render, media = DESIGN_FILES[name]
        try:
            stem = file_stem(self.store.get(design_id).design)
            data = await anyio.to_thread.run_sync(self.store.file, design_id, name, render)
        except RequestError as exc:
            return refuse(404, exc.one_line())
        headers = {}
        if name == "bundle.zip":
            headers["Content-Disposition"] = f'attachment; filename="{stem}.zip"'
        return Response(data, media_type=media, headers=headers)

    async def asset(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ASSETS:
            return refuse(404, "no such file")
        return Response(self.assets[name], media_type=ASSETS[name])


def _bug(request: Request, exc: Exception) -> Response:
    """A bug answers in one line, as the CLI's do; the traceback goes to the log, not the page."""
    log.error("the page failed on %s", request.url.path, exc_info=exc)
    return refuse(500, "clustergen failed making this page; this is a bug")


def _line(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False) + "\n"


def file_stem(design: Design) -> str:
    """A safe file name for a design's downloads: 'clustergen-hgx-h100-512-gpus'."""
    platform = re.sub(r"[^a-z0-9-]+", "-", design.platform.system.lower()).strip("-")[:60]
    return f"clustergen-{platform or 'design'}-{design.compute.gpus}-gpus"


#: each file of a design the page links to: what renders it, and its media type (pictures are
#: drawn one at a time: pictures.drawn)
DESIGN_FILES: dict[str, tuple[Callable[[Design], str | bytes], str]] = {
    "design.json": (RENDERERS["design.json"], "application/json"),
    "bundle.zip": (partial(drawn, lambda d: bundle_zip(d, file_stem(d))), "application/zip"),
    **{name: (partial(drawn, draw), "image/png") for name, draw in PNGS.items()},
}


def build_app(
    catalog: Catalog,
    *,
    host: str = "127.0.0.1",
    settings: AgentSettings | None = None,
    token: str | None = None,
) -> Any:
    """The page's ASGI app for a server listening on `host`: the routes behind the Guard, with
    the security headers on every response."""
    page = Page(catalog, settings, token)
    app = Starlette(
        routes=[
            Route("/", page.page, methods=["GET"]),
            Route("/design", page.design, methods=["POST"]),
            Route("/d/{id}/{name}", page.design_file, methods=["GET"]),
            Route("/static/{name}", page.asset, methods=["GET"]),
        ],
    )
    app.add_exception_handler(404, lambda r, e: refuse(404, "no such page; the page is at /"))
    app.add_exception_handler(405, lambda r, e: refuse(405, "that method is not served here"))
    app.add_exception_handler(Exception, _bug)

    app.state.page = page
    return Guard(app, host, token)
