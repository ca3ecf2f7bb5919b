"""The README's command reference matches `--help` (regenerate with scripts/readme_cli.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_readme_cli_reference_is_current() -> None:
    res = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "readme_cli.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stdout + res.stderr


def test_readme_quick_start_commands() -> None:
    text = (ROOT / "README.md").read_text()
    assert 'uv run clustergen design "512 GPUs training, 5 MW"' in text
    assert "uv run pytest" in text
