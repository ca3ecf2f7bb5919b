"""`clustergen serve --port 0 --offline` in a subprocess, for the tests that need a real server
(the browser tests, concurrent requests)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest


class Served:
    """`clustergen serve --port 0 --offline` in a subprocess; `url` is its first line."""

    def __init__(self, workdir: Path) -> None:
        self.out = workdir / "serve.out"
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("NVIDIA_API_KEY", "CLUSTERGEN_BASE_URL", "CLUSTERGEN_MODEL")
        }
        with self.out.open("wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "clustergen", "serve", "--port", "0", "--offline"],
                cwd=workdir,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 60
        self.first_line = ""
        while not self.first_line.endswith("\n"):
            self.first_line = (self.out.read_text().splitlines(keepends=True) or [""])[0]
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                pytest.fail(f"clustergen serve did not start: {self.out.read_text()}")
            time.sleep(0.05)
        self.url = self.first_line.strip()

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
