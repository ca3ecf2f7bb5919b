"""One exception tree for clustergen.

Every error a user can cause is a `ClustergenError`; the CLI turns it into one line on stderr (or a
JSON error object with `--json`) and a non-zero exit. Anything else escaping is a bug and keeps its
traceback.

    ClustergenError
    ├── CatalogError           a catalog file is malformed, or a look-up names nothing
    │   ├── NotFoundError      a name matched no entry (closest matches in the hint)
    │   └── CatalogGapError    a fact the request needs is missing from the catalog
    ├── RequestError           the request or arguments cannot be used as given
    │   └── EvalCaseError      an eval case file is malformed
    ├── InfeasibleDesignError  the constraints admit no design (the hint says what fits)
    ├── ConfigError            settings are missing or inconsistent
    ├── AgentError             the model or its endpoint failed past retries and repairs
    └── OutputError            an output cannot be written as asked
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any


class ClustergenError(Exception):
    """Base of every error clustergen raises on purpose.

    `hint` says what would work instead; `details` carries structured fields for JSON output.
    """

    code = "clustergen_error"
    exit_code = 1

    def __init__(self, message: str, *, hint: str | None = None, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.details = details

    def one_line(self, name: Callable[[str], str | None] | None = None) -> str:
        """The message and hint on one line. `name` words a request field for an edge (the CLI
        gives a field's flag); without it, fields keep their request names."""
        text, hint = self.message.rstrip("."), self.hint
        if name is not None and isinstance(self, RequestError):
            text, hint = self._worded(text, hint, name)
        if hint:
            return f"{text}; {hint}"
        return text

    def _worded(
        self, text: str, hint: str | None, name: Callable[[str], str | None]
    ) -> tuple[str, str | None]:
        """`text` and `hint` with request fields in an edge's words: any field written in
        backticks (`price_per_gpu_hour`) that the edge has a name for, and the error's own
        `field` where it opens the message ("nodes must be at least 1"); else the own field is
        named in brackets. A field's name used as a plain word elsewhere ("not a GPU platform")
        is prose and stays."""
        field = getattr(self, "field", None)
        edge = name(field) if isinstance(field, str) else None

        def swap(m: re.Match[str]) -> str:
            return name(m.group(1)) or m.group(0)

        text, hint = _QUOTED_FIELD.sub(swap, text), hint and _QUOTED_FIELD.sub(swap, hint)
        if edge and field is not None:
            opening = re.match(rf"{re.escape(field)}(?![\w-])", text)
            if opening:
                text = edge + text[opening.end() :]
            elif edge not in text and edge not in (hint or ""):
                text = f"{text} ({edge})"
        return text, hint

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready error object."""
        out: dict[str, Any] = {"error": {"type": self.code, "message": self.message}}
        if self.hint:
            out["error"]["hint"] = self.hint
        if self.details:
            out["error"]["details"] = self.details
        return out


#: a request field named in backticks in an error's words
_QUOTED_FIELD = re.compile(r"`([a-z][a-z0-9_]*)`")


def _jsonable(value: Any) -> Any:
    """`value` as JSON can hold it: a number that is not finite, or an object, as its repr."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return repr(value)


class CatalogError(ClustergenError):
    """A catalog file is malformed, or a look-up names nothing in the catalog."""

    code = "catalog_error"


class NotFoundError(CatalogError):
    """A name matched no catalog entry; `matches` holds the closest ids."""

    code = "not_found"

    def __init__(self, kind: str, name: str, matches: list[str]) -> None:
        hint = f"closest matches: {', '.join(matches)}" if matches else None
        super().__init__(
            f"unknown {kind} {name!r}", hint=hint, kind=kind, name=name, matches=matches
        )
        self.matches = matches


class CatalogGapError(CatalogError):
    """The catalog lacks a fact the request needs (a system's power, its compute ports): the
    catalog's gap, not the user's mistake. `entry` and `field` name what is missing."""

    code = "catalog_gap"

    def __init__(self, message: str, *, entry: str, field: str, hint: str | None = None) -> None:
        super().__init__(message, hint=hint, entry=entry, field=field)
        self.entry = entry
        self.field = field


class RequestError(ClustergenError):
    """The user's request or arguments cannot be used as given.

    `field` names the request field at fault (a request name such as `nodes` or `pue`, never a
    CLI flag: each edge words it, as `one_line(name)` does), `value` is what was given and
    `limit` what would have been accepted; all three go to JSON in `details`.
    """

    code = "request_error"
    exit_code = 2

    def __init__(
        self,
        message: str,
        *,
        hint: str | None = None,
        field: str | None = None,
        value: Any = None,
        limit: Any = None,
        **details: Any,
    ) -> None:
        given = {"field": field, "value": _jsonable(value), "limit": _jsonable(limit)}
        super().__init__(
            message, hint=hint, **{k: v for k, v in given.items() if v is not None}, **details
        )
        self.field = field
        self.value = value
        self.limit = limit


class InfeasibleDesignError(ClustergenError):
    """The constraints admit no design; the hint says what would fit."""

    code = "infeasible"
    exit_code = 3


class ConfigError(ClustergenError):
    """Settings (environment, .env, flags) are missing or inconsistent."""

    code = "config_error"
    exit_code = 2


class AgentError(ClustergenError):
    """The model or its endpoint failed in a way retries and repairs could not fix."""

    code = "agent_error"
    exit_code = 4


class OutputError(ClustergenError):
    """An output file or directory cannot be written as asked."""

    code = "output_error"
    exit_code = 2


class EvalCaseError(RequestError):
    """An eval case file is malformed; `problems` locate each one by file, case id and field."""

    code = "eval_case_error"
