"""Designs an MCP client made in this server: a short brief to read first, and the whole bundle
(design.json, memo, BOM as CSV and XLSX, topology, pictures) as resources one read away.

A design is kept in memory, never on disk: the most recent `KEEP` designs, each for `IDLE_S`
seconds after it was last read, and nothing once the server process ends. Each file is rendered
when first read (the XLSX and the PNGs cost far more than the design), then kept beside it.
"""

from __future__ import annotations

import base64
import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from mcp import types
from pydantic import BaseModel, Field

from clustergen.engine.model.design import Design
from clustergen.engine.report.bundle import CONTENTS, RENDERERS
from clustergen.engine.report.documents.memo import executive_summary
from clustergen.engine.report.documents.summary import DesignSummary, summarize
from clustergen.engine.report.words import verdict
from clustergen.errors import RequestError

SCHEME = "clustergen"
#: designs kept at once; the oldest is forgotten first
KEEP = 32
#: seconds a design stays readable after its last use
IDLE_S = 3600.0
#: the most a brief may take (the issue's budget for a design call's text)
BRIEF_CHARS = 6000

#: each file's media type
MEDIA = {
    "json": "application/json",
    "md": "text/markdown",
    "csv": "text/csv",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "svg": "image/svg+xml",
    "png": "image/png",
    "drawio": "application/vnd.jgraph.mxfile",
    "mmd": "text/vnd.mermaid",
    "yaml": "application/yaml",
    "conf": "text/plain",
}

#: each file of the bundle, as `design --out` writes it: its renderer and media type
RENDER: dict[str, tuple[Callable[[Design], str | bytes], str]] = {
    name: (render, MEDIA[name.rpartition(".")[2]]) for name, render in RENDERERS.items()
}


class DesignBrief(BaseModel):
    """What a design call returns as structured content: the figures a memo cites, the verdict,
    and where each file of the bundle is read."""

    id: str = Field(description="the design's id in this server")
    verdict: str = Field(description="PASS, WARN or FAIL")
    summary: DesignSummary
    assumed: list[str] = Field(description="defaults the engine chose where the request was silent")
    not_understood: list[str] = Field(description="words of the request the parser did not read")
    files: dict[str, str] = Field(description="file name -> resource URI (resources/read)")


@dataclass
class _Kept:
    design: Design
    used: float
    files: dict[str, str | bytes] = field(default_factory=dict)


class DesignStore:
    """The designs of this server's sessions, by id (see the module docstring)."""

    def __init__(self, keep: int = KEEP, idle_s: float = IDLE_S) -> None:
        self.keep = keep
        self.idle_s = idle_s
        self._kept: OrderedDict[str, _Kept] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, design: Design) -> str:
        """Keep `design`; its id (the same design gets the same id)."""
        digest = hashlib.sha256(design.model_dump_json().encode()).hexdigest()[:12]
        with self._lock:
            self._expire()
            self._kept[digest] = self._kept.get(digest) or _Kept(design, time.monotonic())
            self._kept[digest].used = time.monotonic()
            self._kept.move_to_end(digest)
            while len(self._kept) > self.keep:
                self._kept.popitem(last=False)
        return digest

    def get(self, design_id: str) -> Design:
        """A kept design by id, or a RequestError saying which ids there are."""
        return self._entry(design_id).design

    def ids(self) -> list[str]:
        with self._lock:
            self._expire()
            return list(self._kept)

    def file(self, design_id: str, name: str) -> tuple[str | bytes, str]:
        """One bundle file of a kept design, rendered on first read: (content, media type)."""
        if name not in RENDER:
            raise RequestError(f"no file {name!r} in a design; the files are: {', '.join(RENDER)}")
        kept = self._entry(design_id)
        render, mime = RENDER[name]
        if name not in kept.files:
            kept.files[name] = render(kept.design)
        return kept.files[name], mime

    def _entry(self, design_id: str) -> _Kept:
        with self._lock:
            self._expire()
            kept = self._kept.get(design_id)
            if kept is None:
                known = ", ".join(self._kept) or "none"
                raise RequestError(
                    f"no design {design_id!r} in this server (kept: {known}); designs are kept "
                    f"for {self.idle_s / 60:g} minutes after their last use",
                    hint="call design_cluster again; the same request gives the same design",
                )
            kept.used = time.monotonic()
            self._kept.move_to_end(design_id)
            return kept

    def _expire(self) -> None:
        now = time.monotonic()
        for key in [k for k, v in self._kept.items() if now - v.used > self.idle_s]:
            del self._kept[key]


#: sessions whose designs are kept at once; the one used least recently is forgotten first
KEEP_SESSIONS = 1024


class SessionDesigns:
    """Each client session's own designs: a session lists, reads and explains only the designs
    it made, never another's (their requests may hold what one client must not show another).
    A session is named by its `Mcp-Session-Id` over HTTP; stdio has one client, and requests of
    the stateless protocol, which names no session, share one store. A server started with
    designs shared (`clustergen mcp --share-designs`) keeps one store for every session."""

    def __init__(self, *, shared: bool = False, keep: int = KEEP, idle_s: float = IDLE_S) -> None:
        self.shared = shared
        self.keep = keep
        self.idle_s = idle_s
        self._stores: OrderedDict[str | None, DesignStore] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, session: str | None) -> DesignStore:
        """The store of `session` (None: no session named; every session when shared)."""
        key = None if self.shared else session
        with self._lock:
            store = self._stores.get(key)
            if store is None:
                store = self._stores[key] = DesignStore(self.keep, self.idle_s)
                while len(self._stores) > KEEP_SESSIONS:
                    self._stores.popitem(last=False)
            self._stores.move_to_end(key)
            return store


def uri(design_id: str, name: str) -> str:
    return f"{SCHEME}://design/{design_id}/{name}"


def parse_uri(text: str) -> tuple[str, str] | None:
    """(design id, file name) of a design resource URI, else None."""
    prefix = f"{SCHEME}://design/"
    if not text.startswith(prefix):
        return None
    design_id, _, name = text[len(prefix) :].partition("/")
    return (design_id, name) if design_id and name else None


def links(design_id: str) -> list[types.ResourceLink]:
    """A resource link for every file of the design's bundle."""
    return [
        types.ResourceLink(
            name=name, uri=uri(design_id, name), description=CONTENTS[name], mime_type=mime
        )
        for name, (_, mime) in RENDER.items()
    ]


def contents(design_id: str, name: str, data: str | bytes, mime: str) -> types.ResourceContents:
    if isinstance(data, bytes):
        return types.BlobResourceContents(
            uri=uri(design_id, name), mime_type=mime, blob=base64.b64encode(data).decode()
        )
    return types.TextResourceContents(uri=uri(design_id, name), mime_type=mime, text=data)


def _assumed(d: Design) -> list[str]:
    return [f"{a.field} = {a.value} ({a.reason})" for a in d.assumptions]


def brief(design_id: str, d: Design) -> DesignBrief:
    return DesignBrief(
        id=design_id,
        verdict=verdict(d).status,
        summary=summarize(d),
        assumed=_assumed(d),
        not_understood=list(d.request.not_understood),
        files={name: uri(design_id, name) for name in RENDER},
    )


def _section(title: str, items: list[str], room: int) -> list[str]:
    """A titled list, as many items as fit in `room` characters, saying how many were left off."""
    if not items:
        return []
    out = [f"\n## {title}\n"]
    used = len(out[0])
    for i, item in enumerate(items):
        line = f"- {item}"
        if used + len(line) + 1 > room:
            out.append(f"- ... {len(items) - i} more in design.json")
            break
        out.append(line)
        used += len(line) + 1
    return out


def brief_text(design_id: str, d: Design) -> str:
    """The design in words, at most BRIEF_CHARS: verdict, platform, GPUs, power (the memo's
    executive summary), what was assumed, what was not understood, warnings, and the files."""
    head = [
        f"# Design {design_id} ({d.platform.system}, {d.mode} planner)\n",
        *executive_summary(d),
    ]
    files = ["\n## Files (resources/read)\n", *(f"- {uri(design_id, n)}" for n in RENDER)]
    text = "\n".join(head)
    tail = "\n".join(files)
    room = BRIEF_CHARS - len(text) - len(tail) - 8
    parts = [
        ("Not understood in the request", list(d.request.not_understood)),
        ("Warnings", list(d.warnings)),
        ("Assumed (the request was silent)", _assumed(d)),
    ]
    for title, items in parts:
        lines = _section(title, items, max(room // 2, 200))
        chunk = "\n".join(lines)
        if len(chunk) > room:
            continue
        text += "\n" + chunk
        room -= len(chunk) + 1
    return (text + "\n" + tail + "\n")[:BRIEF_CHARS]
