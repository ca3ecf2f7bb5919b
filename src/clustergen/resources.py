"""Where the data shipped with clustergen lives: inside the wheel (clustergen/_data/NAME, where
pyproject force-includes it) or, in a source checkout, at the repository root (NAME/)."""

from __future__ import annotations

from pathlib import Path


def data_dir(name: str) -> Path:
    """The shipped `catalog`, `prompts` or `evals` directory."""
    package = Path(__file__).resolve().parent
    packaged = package / "_data" / name
    if packaged.is_dir():
        return packaged
    return package.parent.parent / name
