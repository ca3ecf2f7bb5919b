"""The offline planner: a deterministic baseline that turns a request into design choices by
running a trade study (platform x fabric technology x oversubscription) and building the best."""

from __future__ import annotations

from clustergen.catalog.architectures import Architecture
from clustergen.catalog.loader import Catalog
from clustergen.engine.assemble import assemble_design
from clustergen.engine.model.common import Assumed
from clustergen.engine.model.design import Design, DesignChoices
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.search.trade_study import trade_study
from clustergen.engine.sizing.inputs import resolve_request_inputs
from clustergen.errors import InfeasibleDesignError


def plan_design(catalog: Catalog, request: DesignRequest) -> Design:
    """The offline planner: trade study, choose, build, validate."""
    common = resolve_request_inputs(catalog, request)
    study = trade_study(catalog, request, common)
    rows = study.rows
    if not rows and study.dropped:
        first = study.dropped[0]
        raise InfeasibleDesignError(
            f"no candidate platform could be sized ({len(study.dropped)} dropped); "
            f"{first.platform}: {first.why_not}",
        )
    if not rows:
        raise InfeasibleDesignError(
            "no platform in the catalog meets the request's constraints",
            hint="relax cooling or rack limits, or name a platform",
        )
    best = next(r for r in rows if r.chosen)
    if not best.eligible:
        reason = f"no alternative met every constraint; closest: {best.why_not}"
    else:
        reason = f"first by {study.objective.split(' (')[0]} among the alternatives weighed"
        if request.platform or request.gpu:
            reason = "named in the request; " + reason
        best_arch = catalog.architecture_for(best.platform, best.fabric, best.nodes)
        if best.follows_ra and best_arch is not None:
            reason += f"; follows {best_arch.name}"
    assumed: list[Assumed] = []
    if not (request.platform or request.gpu):
        assumed.append(Assumed(field="platform", value=best.platform, reason=reason))
    choices = DesignChoices(
        platform=best.platform,
        # The chosen row's technology: a platform with two RAs (DGX B300, GB300 NVL72) follows
        # the one the row was sized on.
        fabric=best.fabric
        if request.fabric or not best.follows_ra or _two_ras(catalog, best.platform)
        else None,
        oversubscription=best.oversubscription,
        storage_tier=request.storage_tier,
        rack_power_kw=request.rack_power_kw,
        cooling=request.cooling,
    )
    return assemble_design(
        catalog,
        request,
        choices,
        mode="offline",
        assumptions=assumed,
        alternatives=study,
        platform_reason=reason,
        request_inputs=common,
    )


def _two_ras(catalog: Catalog, platform: str) -> bool:
    """Whether a platform's RAs build its compute fabric in more than one technology."""
    techs = {
        a.compute_fabric.technology
        for a in catalog.all("architectures", Architecture)
        if platform in a.systems
    }
    return len(techs) > 1
