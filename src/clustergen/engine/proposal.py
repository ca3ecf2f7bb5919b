"""A design from someone else's choices (the model's, or a caller's): requirements as structured
fields, normalised against the catalog, then the same build and trade study the planner uses."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from clustergen.catalog.loader import Catalog
from clustergen.engine.design import Design, DesignChoices, Mode, TradeStudy, build_design
from clustergen.engine.planner import trade_study
from clustergen.engine.request import DesignRequest
from clustergen.errors import ClustergenError, RequestError

# Fields of DesignRequest that record how text was read, not what was asked.
PARSE_FIELDS = frozenset({"text", "understood", "not_understood"})


def request_from_fields(
    catalog: Catalog, fields: dict[str, Any], text: str | None = None
) -> DesignRequest:
    """A DesignRequest from structured fields; GPU and platform names are looked up forgivingly
    ("H100" finds h100-sxm) so a caller need not know catalog ids."""
    data = {k: v for k, v in fields.items() if v is not None and k not in PARSE_FIELDS}
    if data.get("gpu"):
        data["gpu"] = catalog.gpu(str(data["gpu"])).id
    if data.get("platform"):
        data["platform"] = catalog.system(str(data["platform"])).id
    if text is not None:
        data["text"] = text
    try:
        return DesignRequest.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "request"
        raise RequestError(f"request field {where}: {err['msg']}") from None


def _same(row_fabric: str, choices: DesignChoices, default_fabric: str | None) -> bool:
    wanted = choices.fabric or default_fabric
    return wanted is None or row_fabric == wanted


def design_from_choices(
    catalog: Catalog,
    request: DesignRequest,
    choices: DesignChoices,
    *,
    mode: Mode = "agent",
    reason: str = "chosen by the model",
) -> Design:
    """Build and validate the design the choices describe, with the planner's trade study beside it
    (the chosen row marked) so a reader sees what else was possible."""
    study: TradeStudy | None
    try:
        study, rows = trade_study(catalog, request)
    except ClustergenError:
        study, rows = None, []
    if study is not None:
        arch = catalog.architecture_for(choices.platform, choices.fabric)
        default_fabric = arch.compute_fabric.technology if arch is not None else None
        marked = False
        out = []
        for r in rows:
            hit = (
                not marked
                and r.platform == choices.platform
                and r.oversubscription == choices.oversubscription
                and _same(r.fabric, choices, default_fabric)
            )
            marked = marked or hit
            out.append(r.model_copy(update={"chosen": hit}))
        study = TradeStudy(objective=study.objective, rows=out)
    return build_design(
        catalog, request, choices, mode=mode, alternatives=study, platform_reason=reason
    )
