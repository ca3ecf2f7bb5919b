"""Free text (or a YAML file) in, a typed `DesignRequest` out.

The faces load on first use: `fabric` and `size` import only `translate` from this package, and
should not pay for the request model and the phrase rules (PEP 562 `__getattr__`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from clustergen.engine.model.request import DesignRequest
    from clustergen.engine.request.parse import parse_request
    from clustergen.engine.request.resolve import merge_request, resolve_fields, validated

__all__ = ["DesignRequest", "merge_request", "parse_request", "resolve_fields", "validated"]


def __getattr__(name: str) -> Any:
    if name == "DesignRequest":
        from clustergen.engine.model.request import DesignRequest

        return DesignRequest
    if name == "parse_request":
        from clustergen.engine.request.parse import parse_request

        return parse_request
    if name in ("merge_request", "resolve_fields", "validated"):
        from clustergen.engine.request import resolve

        return getattr(resolve, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
