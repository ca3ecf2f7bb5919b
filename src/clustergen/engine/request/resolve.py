"""Structured fields in, a validated request out: text and fields merged, names resolved
against the catalog, validated once."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from clustergen.catalog.loader import Catalog
from clustergen.engine.model.request import SIZE_FIELDS, DesignRequest, sizes_workload
from clustergen.engine.request.parse import parse_request
from clustergen.engine.request.rules.counts import recount_sus
from clustergen.engine.request.translate import validated
from clustergen.errors import RequestError

__all__ = ["merge_request", "resolve_fields", "validated"]


def merge_request(catalog: Catalog, text: str | None, fields: Mapping[str, Any]) -> DesignRequest:
    """A request from free text and/or structured fields; a field given both ways takes the
    structured value. GPU and platform names resolve to catalog ids."""
    given = {k: v for k, v in fields.items() if v is not None}
    if text and not given:
        return parse_request(catalog, text)
    base: dict[str, Any] = parse_request(catalog, text).model_dump() if text else {}
    base.update(given)
    if "fabric" in given and "nodes" not in given:
        recount_sus(catalog, base)
    if not any(base.get(k) for k in SIZE_FIELDS) and not sizes_workload(base):
        raise RequestError(
            "nothing to size: no GPU count, node count, power cap, capital budget, rack count or workload",
            hint='say e.g. "512 GPUs training, 5 MW", or give `gpus` / `power_cap_w`, or a model '
            "with `training_tokens_t` and `training_days` (or `output_tokens_per_s`)",
        )
    return resolve_fields(catalog, base)


_BARE_SIZE = re.compile(r"^\d+(?:\.\d+)?[bt]$")


def resolve_fields(catalog: Catalog, fields: Mapping[str, Any]) -> DesignRequest:
    """A DesignRequest from structured fields, GPU, platform and model names looked up forgivingly
    ("H100" finds h100-sxm, "Llama 3.1 405B" llama-3.1-405b) so a caller need not know ids."""
    data = {k: v for k, v in fields.items() if v is not None}
    if data.get("gpu"):
        data["gpu"] = catalog.gpu(str(data["gpu"])).id
    if data.get("platform"):
        data["platform"] = catalog.system(str(data["platform"])).id
    if data.get("model") and _BARE_SIZE.match(str(data["model"]).strip().lower()):
        # a bare size ("70B") is a size, as the text reader takes it: a new run of that size,
        # not the catalog model that carries the size as an alias
        size = str(data.pop("model")).strip().lower()
        scale = 1e3 if size.endswith("t") else 1.0
        data.setdefault("model_params_b", float(size[:-1]) * scale)
    if data.get("model"):
        data["model"] = catalog.model(str(data["model"])).id
    return validated(DesignRequest, data)
