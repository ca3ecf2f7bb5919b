"""The one place a pydantic `ValidationError` becomes a `RequestError` (httpx's
`map_httpcore_exceptions` habit): every command, tool and parser that validates caller input goes
through `validated`, so a bad value reads the same everywhere.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from clustergen.errors import RequestError

M = TypeVar("M", bound=BaseModel)


def validated(
    model: type[M], fields: Mapping[str, Any], *, phrases: Mapping[str, str] | None = None
) -> M:
    """`fields` validated into `model`; fields given as None are left out, so the model's
    defaults apply. A failure is one RequestError line: the words the field was read from (when
    `phrases` says), or the field and the value given."""
    try:
        return model.model_validate({k: v for k, v in fields.items() if v is not None})
    except ValidationError as exc:
        raise _request_error(exc, model, fields, phrases or {}) from None


def _request_error(
    exc: ValidationError,
    model: type[BaseModel],
    fields: Mapping[str, Any],
    phrases: Mapping[str, str],
) -> RequestError:
    err = exc.errors()[0]
    name = ".".join(str(p) for p in err["loc"]) or model.__name__
    msg = err["msg"].lower()
    if name in phrases:
        # the request's words load with the request model: `fabric` and `size` build their
        # choices here without either
        from clustergen.engine.request.words import NAMES

        # a choice's error lists the choices; a number's may be a unit slip
        return RequestError(
            f"{phrases[name]!r} does not work as the {NAMES.get(name, name)}: {msg}",
            hint=None if err["type"] == "literal_error" else "check the number and its unit",
            field=name,
            value=err.get("input"),
        )
    got = f", got {err.get('input')!r}" if name in fields else ""
    if err["type"] == "extra_forbidden":
        near = difflib.get_close_matches(str(err["loc"][-1]), list(model.model_fields), n=1)
        return RequestError(
            f"unknown field {name!r}" + (f"; did you mean {near[0]!r}?" if near else ""),
            hint=f"the fields are: {', '.join(model.model_fields)}",
            field=name,
        )
    value = err.get("input") if name in fields else None
    return RequestError(f"{name}: {msg}{got}", field=name, value=value)


def build(model: type[M], **fields: Any) -> M:
    """`validated(model, fields)`, spelt with keywords for callers that hold loose arguments
    (command options, test fixtures)."""
    return validated(model, fields)


def input_error(
    exc: ValidationError,
    *,
    where: str,
    hint: str | None = None,
    locate: Callable[[tuple[int | str, ...]], str] | None = None,
) -> RequestError:
    """A `ValidationError` of a caller's file or structured input (a design.json, an inventory,
    a seed config) as one RequestError line: `where` names the input, `locate` words the place
    in it (default: the dotted path), then what was wrong and the value given. The path is kept
    in `details` as `path`; it is not a request field, so no edge words it as a flag."""
    err = exc.errors()[0]
    loc = tuple(err["loc"])
    place = locate(loc) if locate else ".".join(str(p) for p in loc)
    msg = str(err["msg"]).removeprefix("Value error, ")
    value = err.get("input")
    scalar = not isinstance(value, dict | list)
    if err["type"] not in {"missing", "model_type", "value_error"} and scalar:
        msg += f", got {value!r}"
    head = f"{where}: {place}" if place else where
    path = ".".join(str(p) for p in loc)
    return RequestError(f"{head}: {msg}", hint=hint, **({"path": path} if path else {}))
