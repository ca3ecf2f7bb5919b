"""Parse the YAML text of one catalog file, every fault a located `Problem`. Imported only when a
file is parsed (not on a cached start), so a design from the cached catalog does not load PyYAML.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from clustergen.catalog.problem import Problem, entry_near
from clustergen.untrusted.yaml_loader import SafeLoader, StrictConstructor


class _UserLoader(SafeLoader):
    """For a user's layer: pure Python (see `untrusted.yaml_loader.SafeLoader`)."""


try:
    from yaml._yaml import CParser
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    _BuiltinLoader: type[Any] = _UserLoader
else:

    class _CLoader(CParser, StrictConstructor, yaml.resolver.Resolver):
        """For the catalog shipped with clustergen: libyaml's parser, for start-up time."""

        def __init__(self, stream: str) -> None:
            CParser.__init__(self, stream)
            StrictConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)

    _BuiltinLoader = _CLoader


def _yaml_problem(path: Path, text: str, exc: yaml.YAMLError) -> Problem:
    if isinstance(exc, yaml.reader.ReaderError):
        line = text[: exc.position].count("\n") + 1
        char = exc.character
        shown = f"U+{char:04X}" if isinstance(char, int) else repr(char)
        return Problem(
            path.name,
            entry_near(text, line),
            "",
            f"malformed YAML at line {line}: control character {shown} is not allowed",
        )
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    what = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    context = getattr(exc, "context", None)
    # A quoted scalar or flow collection left open is noticed lines later, often in the next
    # entry; where it began names the culprit. A block collection begins too far up to help.
    began = getattr(exc, "context_mark", None) if context and "block" not in context else None
    if context:
        since = (
            f" that began at line {began.line + 1}"
            if began and mark and began.line != mark.line
            else ""
        )
        what = f"{what} ({context}{since})"
    if mark is None:
        return Problem(path.name, "-", "", f"malformed YAML: {what}")
    where = f" at line {mark.line + 1}, column {mark.column + 1}"
    entry = entry_near(text, (began or mark).line + 1)
    return Problem(path.name, entry, "", f"malformed YAML{where}: {what}")


def parse_yaml(path: Path, text: str, problems: list[Problem], trusted: bool) -> tuple[bool, Any]:
    """(True, data) for YAML that parses within the limits, else (False, None) with a problem."""
    try:
        # The pure-Python reader rejects control characters as it is built.
        loader = (_BuiltinLoader if trusted else _UserLoader)(text)
    except yaml.YAMLError as exc:
        problems.append(_yaml_problem(path, text, exc))
        return False, None
    try:
        data = loader.get_single_data()
    except yaml.YAMLError as exc:
        problems.append(_yaml_problem(path, text, exc))
        return False, None
    except RecursionError:
        line = loader.get_mark().line + 1
        problems.append(
            Problem(
                path.name,
                entry_near(text, line),
                "",
                f"malformed YAML at line {line}: nested too deeply to read",
            )
        )
        return False, None
    finally:
        loader.dispose()
    return True, data
