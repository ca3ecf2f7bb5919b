"""Prompts are files in prompts/; this loader fills their `{{name}}` placeholders strictly."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from clustergen.errors import ConfigError
from clustergen.resources import data_dir

_VAR = re.compile(r"\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}")


def prompts_dir() -> Path:
    """The prompts shipped with clustergen: inside the wheel, or at the repository root."""
    return data_dir("prompts")


@lru_cache(maxsize=32)
def _template(name: str) -> str:
    path = prompts_dir() / f"{name}.md"
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        raise ConfigError(f"prompt {name!r} not found at {path}") from None


def variables(name: str) -> set[str]:
    """The placeholders a prompt expects."""
    return set(_VAR.findall(_template(name)))


def render(name: str, **values: object) -> str:
    """Fill a prompt. Every placeholder needs a value and every value a placeholder."""
    text = _template(name)
    wanted = variables(name)
    missing = sorted(wanted - values.keys())
    if missing:
        raise ConfigError(f"prompt {name!r} needs variable(s) {', '.join(missing)}")
    extra = sorted(values.keys() - wanted)
    if extra:
        raise ConfigError(f"prompt {name!r} has no placeholder for {', '.join(extra)}")
    return _VAR.sub(lambda m: str(values[m.group(1)]), text).strip() + "\n"
