"""`clustergen mcp --http 0` in a subprocess, and the budgets an outside agent's MCP session is
held to (tests/mcp)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

#: the most a `tools/list` answer may take (many clients send every schema on every turn)
MAX_LISTING_CHARS = 30_000
#: the most a design call's text may take; the whole design is one resource read away
MAX_DESIGN_TEXT_CHARS = 6_000


class HttpServer:
    """`clustergen mcp --http 0` in a subprocess; `url` waits for the line naming its port."""

    def __init__(self, log: Path, *flags: str) -> None:
        self.log = log
        with log.open("wb") as errlog:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "clustergen", "mcp", "--http", "0", *flags],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=errlog,
            )
        self._url = ""

    @property
    def url(self) -> str:
        deadline = time.monotonic() + 30
        while not self._url:
            text = self.log.read_text()
            self._url = next((w for w in text.split() if w.startswith("http://")), "")
            if not self._url and (self.process.poll() is not None or time.monotonic() > deadline):
                pytest.fail(f"the MCP HTTP server did not start: {text}")
            time.sleep(0.05)
        return self._url

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
