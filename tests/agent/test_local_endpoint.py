"""Any OpenAI-compatible server on localhost stands in for NIM through CLUSTERGEN_BASE_URL: the
installed CLI, in its own process, talks to a real HTTP server on loopback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator

import pytest

from clustergen.agent.scripted import make_server


@pytest.fixture
def endpoint() -> Iterator[str]:
    server = make_server(0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def _design(endpoint: str, key: str, *args: str) -> subprocess.CompletedProcess[str]:
    """The CLI in its own process, pointed at the loopback server."""
    env = {
        **os.environ,
        "NVIDIA_API_KEY": key,
        "CLUSTERGEN_BASE_URL": endpoint,
        "CLUSTERGEN_MODEL": "local/scripted",
    }
    return subprocess.run(
        [sys.executable, "-m", "clustergen", "design", *args, "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def test_design_through_a_local_openai_compatible_server(endpoint: str) -> None:
    proc = _design(endpoint, "local-dummy-key", "256 GPUs training, 3 MW", "--llm")
    assert proc.returncode == 0, proc.stderr
    d = json.loads(proc.stdout)
    assert d["mode"] == "agent"
    assert d["agent"]["base_url"] == endpoint
    assert d["agent"]["model"] == "local/scripted"
    assert d["compute"]["gpus"] == 256
    assert d["grounding"]["unmatched"] == []
    assert "local-dummy-key" not in proc.stdout + proc.stderr


def test_a_local_server_needs_no_key(endpoint: str) -> None:
    """A self-hosted endpoint set in CLUSTERGEN_BASE_URL is enough for the agent (default mode,
    no --llm): local servers often take no key; hosted NIM still needs one."""
    proc = _design(endpoint, "", "128 GPUs training, 2 MW")
    assert proc.returncode == 0, proc.stderr
    d = json.loads(proc.stdout)
    assert d["mode"] == "agent"
    assert d["compute"]["gpus"] == 128
    assert not any("agent failed" in w for w in d["warnings"])
