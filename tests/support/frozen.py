"""The frozen outputs (tests/frozen/) as tests read them: the script that writes them, loaded as a
module, and each output's figures back as nested data."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
FROZEN = ROOT / "tests" / "frozen"

_spec = importlib.util.spec_from_file_location(
    "freeze_outputs", ROOT / "scripts" / "freeze_outputs.py"
)
assert _spec
assert _spec.loader
freeze = importlib.util.module_from_spec(_spec)
sys.modules["freeze_outputs"] = freeze
_spec.loader.exec_module(freeze)


def frozen_figures() -> list[tuple[str, Any]]:
    """(output name, its figures as nested dicts and lists) of every frozen output, by name."""
    return [
        (path.name.removesuffix(freeze.FIGURES), freeze.read_figures(path.read_text("utf-8")))
        for path in sorted(FROZEN.glob(f"*{freeze.FIGURES}"))
    ]
