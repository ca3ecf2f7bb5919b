"""`--trace FILE`: the whole conversation as JSONL, one event a line, with secrets redacted."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import IO, Any


class Trace:
    """Append-only JSONL writer. Every line passes through `redact` before it is written."""

    def __init__(self, path: Path | None, secrets: list[str] | None = None) -> None:
        self.secrets = [s for s in (secrets or []) if s]
        self._fh: IO[str] | None = (
            open(path, "w", encoding="utf-8") if path else None  # noqa: SIM115 - lives across calls
        )
        self.started = time.monotonic()

    def redact(self, text: str) -> str:
        for s in self.secrets:
            text = text.replace(s, "[REDACTED]")
        return text

    def event(self, kind: str, **data: Any) -> None:
        if self._fh is None:
            return
        line = json.dumps(
            {"t_s": round(time.monotonic() - self.started, 4), "event": kind, **data},
            default=str,
            ensure_ascii=False,
        )
        self._fh.write(self.redact(line) + "\n")
        self._fh.flush()

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None
