"""Turning loose caller input into engine models, with one-line errors.

Every command and agent tool that builds an engine model from keyword arguments goes through `build`,
so a bad value reads the same everywhere: the field, what is wrong, and the value given.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from clustergen.errors import RequestError

M = TypeVar("M", bound=BaseModel)


def build(model: type[M], **fields: Any) -> M:
    """Validate `fields` into `model`, turning a validation failure into one RequestError line.

    Fields given as None are left out, so the model's defaults apply.
    """
    try:
        return model.model_validate({k: v for k, v in fields.items() if v is not None})
    except ValidationError as exc:
        err = exc.errors()[0]
        name = ".".join(str(p) for p in err["loc"]) or model.__name__
        value = err.get("input")
        got = f", got {value!r}" if name in fields else ""
        raise RequestError(f"{name}: {err['msg'].lower()}{got}") from None
