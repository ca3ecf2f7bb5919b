"""`--trace FILE`: the whole conversation as JSONL, one event a line, with secrets redacted."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from clustergen.errors import OutputError
from clustergen.redact import redact

#: Bytes one trace may hold. A design run writes about 200 kB; a hostile endpoint sending
#: thousands of calls a reply wrote 112 MB before the cap.
MAX_TRACE_BYTES = 32 << 20


class Trace:
    """Append-only JSONL writer. Every line passes through `redact` before it is written; a file
    that cannot be opened or written (a full disk) is an OutputError naming it, not a traceback.
    At `max_bytes` one last line says the trace was cut, and the run goes on untraced.

    `listener`, when given, hears each event as it happens (kind and data, not redacted: it runs
    in this process), file or no file: how `clustergen serve` shows an agent run's progress."""

    def __init__(
        self,
        path: Path | None,
        secrets: list[str] | None = None,
        max_bytes: int = MAX_TRACE_BYTES,
        listener: Callable[[str, dict[str, Any]], None] | None = None,
    ) -> None:
        self.secrets = [s for s in (secrets or []) if s]
        self.listener = listener
        self.path = path
        self.max_bytes = max_bytes
        self.written = 0
        try:
            self._fh: IO[str] | None = (
                open(path, "w", encoding="utf-8")  # noqa: SIM115 - lives across calls
                if path
                else None
            )
        except OSError as exc:
            raise OutputError(f"cannot write --trace {path}: {exc.strerror or exc}") from None
        self.started = time.monotonic()

    def redact(self, text: str) -> str:
        """`text` with the run's secrets and any credential header value masked."""
        return redact(text, self.secrets)

    def event(self, kind: str, **data: Any) -> None:
        if self.listener is not None:
            self.listener(kind, data)
        if self._fh is None:
            return
        line = json.dumps(
            {"t_s": round(time.monotonic() - self.started, 4), "event": kind, **data},
            default=str,
            ensure_ascii=False,
        )
        text = self.redact(line) + "\n"
        size = len(text.encode("utf-8"))
        if self.written + size > self.max_bytes:
            text = json.dumps(
                {
                    "t_s": round(time.monotonic() - self.started, 4),
                    "event": "trace_truncated",
                    "limit_bytes": self.max_bytes,
                    "dropped_event": kind,
                }
            )
            text += "\n"
        try:
            self._fh.write(text)
            self._fh.flush()
        except OSError as exc:
            self._fail(exc)
        self.written += size
        if self.written > self.max_bytes:
            fh, self._fh = self._fh, None  # full: later events are dropped, the run goes on
            try:
                fh.close()
            except OSError as exc:
                self._fail(exc)

    def close(self) -> None:
        if self._fh is not None:
            fh, self._fh = self._fh, None
            try:
                fh.close()
            except OSError as exc:
                self._fail(exc)

    def _fail(self, exc: OSError) -> None:
        if self._fh is not None:
            fh, self._fh = self._fh, None
            # already failing on this file: the first error is the one to report
            with contextlib.suppress(OSError):
                fh.close()
        raise OutputError(f"cannot write --trace {self.path}: {exc.strerror or exc}") from None
