"""The designs the page has shown, by id, so its links (the bundle, the JSON, the pictures) and
a control's before/after read the very design on screen.

Each answer gets its own random id: two people asking at once never share or see each other's
design, and an id cannot be guessed. Only the most recent `KEEP` are kept, in memory, never on
disk; a file (a PNG, the workbook) is rendered on first use and kept beside its design."""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import NamedTuple

from clustergen.engine.model.design import Design
from clustergen.errors import RequestError

#: designs kept at once; the least recently used is forgotten first
KEEP = 64


class Kept(NamedTuple):
    """A design, the query that asked for it, and its files rendered so far."""

    design: Design
    query: str
    files: dict[str, str | bytes]


class DesignStore:
    """Designs by id, the least recently used forgotten past `keep`; safe across threads."""

    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self._kept: OrderedDict[str, Kept] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, design: Design, query: str) -> str:
        """Keep `design` under a new id, and return the id."""
        design_id = secrets.token_urlsafe(12)
        with self._lock:
            self._kept[design_id] = Kept(design, query, {})
            while len(self._kept) > self.keep:
                self._kept.popitem(last=False)
        return design_id

    def get(self, design_id: str) -> Kept:
        """The kept design, or a RequestError saying it is gone and what to do."""
        with self._lock:
            kept = self._kept.get(design_id)
            if kept is not None:
                self._kept.move_to_end(design_id)
        if kept is None:
            raise RequestError(
                "this design is no longer kept by the server (it keeps the last "
                f"{self.keep} designs while it runs)",
                hint="design again: the same request gives the same design",
            )
        return kept

    def file(self, design_id: str, name: str, render: Callable[[Design], str | bytes]) -> bytes:
        """One file of a kept design, rendered on first use."""
        kept = self.get(design_id)
        content = kept.files.get(name)
        if content is None:
            content = render(kept.design)
            kept.files[name] = content  # two renders at once give the same bytes: either wins
        return content.encode("utf-8") if isinstance(content, str) else content
