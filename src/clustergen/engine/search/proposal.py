"""A design from someone else's choices (the model's, or a caller's): requirements as structured
fields, normalised against the catalog, then the same build and trade study the planner uses."""

from __future__ import annotations

from typing import Any

from clustergen.catalog.loader import Catalog
from clustergen.engine.assemble import assemble_design
from clustergen.engine.model.design import Design, DesignChoices, Mode, TradeStudy
from clustergen.engine.model.request import PARSE_FIELDS, DesignRequest
from clustergen.engine.request.resolve import resolve_fields
from clustergen.engine.search.planner import plan_design
from clustergen.engine.search.pools import plan_pools, pooled
from clustergen.engine.search.trade_study import trade_study
from clustergen.errors import ClustergenError

# Fields of DesignRequest that record how text was read, not what was asked.


def request_from_fields(
    catalog: Catalog, fields: dict[str, Any], text: str | None = None
) -> DesignRequest:
    """A DesignRequest from someone's structured reading of a request (parse bookkeeping dropped),
    with the request text kept beside it."""
    data = {k: v for k, v in fields.items() if k not in PARSE_FIELDS}
    if text is not None:
        data["text"] = text
    return resolve_fields(catalog, data)


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
    (the chosen row marked) so a reader sees what else was possible. A mixed request that says
    what serves is two pools: the choices build the training pool, the planner the serving one."""
    if not pooled(request):
        return _one_pool(catalog, request, choices, mode=mode, reason=reason)

    def plan(cat: Catalog, req: DesignRequest) -> Design:
        if req.workload == "training":
            return _one_pool(cat, req, choices, mode=mode, reason=reason)
        return plan_design(cat, req)

    return plan_pools(catalog, request, plan)


def _one_pool(
    catalog: Catalog,
    request: DesignRequest,
    choices: DesignChoices,
    *,
    mode: Mode,
    reason: str,
) -> Design:
    study: TradeStudy | None
    try:
        study = trade_study(catalog, request)
    except ClustergenError:  # the study is context beside the design; the design still stands
        study = None
    if study is not None:
        arch = catalog.architecture_for(choices.platform, choices.fabric)
        default_fabric = arch.compute_fabric.technology if arch is not None else None
        marked = False
        out = []
        for r in study.rows:
            hit = (
                not marked
                and r.platform == choices.platform
                and r.oversubscription == choices.oversubscription
                and _same(r.fabric, choices, default_fabric)
            )
            marked = marked or hit
            out.append(r.model_copy(update={"chosen": hit}))
        study = study.model_copy(update={"rows": out})
    return assemble_design(
        catalog, request, choices, mode=mode, alternatives=study, platform_reason=reason
    )
