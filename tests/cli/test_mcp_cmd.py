"""`clustergen mcp`: refusals before serving, and what the command costs the other commands."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

Cli = Callable[..., tuple[int, str, str]]


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.5", "::"])
def test_a_non_loopback_host_is_refused_before_serving(cli: Cli, host: str) -> None:
    code, out, err = cli("mcp", "--http", "0", "--host", host)
    assert code == 2
    assert out == ""
    assert err.startswith(f"Error: --host {host} is not a loopback address;")
    assert len(err.strip().splitlines()) == 1


def test_a_broken_catalog_is_refused_before_serving(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "gpus.yaml").write_text("- id: x\n  name: [unclosed\n", encoding="utf-8")
    code, out, err = cli("mcp", "--catalog", str(tmp_path))
    assert code == 1
    assert out == ""
    assert "gpus.yaml" in err
    assert "malformed YAML" in err
    assert "Traceback" not in err


def test_a_bad_port_is_a_usage_error(cli: Cli) -> None:
    code, _, err = cli("mcp", "--http", "70000")
    assert code == 2
    assert "--http" in err


@pytest.mark.slow
def test_other_commands_do_not_load_the_sdk_or_a_model_client() -> None:
    code = (
        "import json, sys\n"
        "from clustergen.cli.app import main\n"
        "try:\n"
        "    main(['fabric', '--platform', 'dgx-h100', '--nodes', '32', '--json'])\n"
        "except SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n"
        "print(json.dumps(sorted(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["leaf_switches"] > 0
    loaded = {m.split(".")[0] for m in json.loads(done.stderr.splitlines()[-1])}
    assert "clustergen" in loaded
    assert not loaded & {"mcp", "mcp_types", "starlette", "uvicorn", "openai", "httpx", "httpx2"}
