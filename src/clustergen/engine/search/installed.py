"""Designs that start from an installation: an increment on an existing fabric, or a fleet's
successor. Each is planned as the planner plans any request (`plan`), on the installation's
terms: the increment on the standing fabric (`sizing.expansion`), the successor within the
fleet's envelope."""

from __future__ import annotations

from collections.abc import Callable

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import System
from clustergen.engine.assemble import assemble_design
from clustergen.engine.model.common import Assumed
from clustergen.engine.model.design import Design
from clustergen.engine.model.request import EXISTING_FIELDS, DesignRequest
from clustergen.engine.sizing.expansion import expand_design
from clustergen.engine.sizing.platform import layout_nodes, system_of

Plan = Callable[[Catalog, DesignRequest], Design]


def plan_expansion(catalog: Catalog, request: DesignRequest, plan: Plan) -> Design:
    """The increment on the existing installation: its nodes planned as any request's (on the
    installation's platform and fabric unless the request names others, under what the cap
    leaves), then restated on the standing fabric by `expand_design`, which the assembly
    applies to every design of such a request alike."""
    cleared = {f: None for f in EXISTING_FIELDS if f != "existing_power_w"}
    ask = request.model_copy(update=cleared)
    if request.existing_platform and not (request.platform or request.gpu):
        ask = ask.model_copy(update={"platform": request.existing_platform})
    notes: list[Assumed] = []
    if request.existing_fabric and not request.fabric:
        ask = ask.model_copy(update={"fabric": request.existing_fabric})
    elif (request.existing_platform or request.platform) and not request.fabric:
        # the increment joins what stands: a fabric not stated is the one the installation's
        # reference architecture builds, not whichever the increment's own study would pick
        # (the installation's platform unstated is the one named: "we have 62 DGX H100")
        old = system_of(catalog, request.existing_platform or str(request.platform), None)
        arch = catalog.architecture_for(old.id)
        if arch is not None:
            tech = arch.compute_fabric.technology
            ask = ask.model_copy(update={"fabric": tech})
            notes.append(
                Assumed(
                    field="existing_fabric",
                    value=tech,
                    reason=f"the existing installation's fabric was not stated: {tech}, as "
                    f"its reference architecture ({arch.id}) builds it; the increment joins it",
                )
            )
    # an increment of the installation's own platform is planned as part of it (`layout_nodes`):
    # the request it is planned with has the installation's fields cleared, so it carries them
    had = (
        layout_nodes(catalog, request, system_of(catalog, ask.platform, None))
        if ask.platform
        else None
    )
    if had:
        ask = ask.joining(had)
    increment = plan(catalog, ask).model_copy(update={"request": request})
    d = expand_design(catalog, request, increment, lambda rq, ch: assemble_design(catalog, rq, ch))
    return d.model_copy(update={"assumptions": [*notes, *d.assumptions]}) if notes else d


def _dense_tflops(catalog: Catalog, system: System, precision: str) -> float | None:
    if system.gpu is None:
        return None
    gpu = catalog.gpu(system.gpu)
    field = "bf16" if precision in {"bf16", "fp16"} else precision
    value = getattr(gpu, f"{field}_dense_tflops", None)
    return value if isinstance(value, float | int) else None


def plan_replacement(catalog: Catalog, request: DesignRequest, plan: Plan) -> Design:
    """A fleet's successor: current parts (the planner weighs only those unless one is named)
    within the envelope, the request's cap or else the replaced fleet's own power (stated, or
    its IT power as its reference architecture builds it, said so), with the compute ratio to
    the fleet it replaces on the first lines."""
    old_name = request.replaced_platform or ""
    old = system_of(catalog, old_name, None)
    gpus = request.replaced_gpus or request.gpus
    ask, notes = request, []
    if request.power_cap_w is None and gpus and not request.replaced_one_for_one:
        envelope, basis = request.replaced_power_w, "as stated"
        if envelope is None:
            fleet = plan(catalog, DesignRequest(platform=old.id, gpus=gpus))
            envelope = fleet.power.it_total_w
            basis = f"its IT power as its reference architecture builds it ({old.id}, estimated)"
        # the fleet's own power is a ceiling the successor fills, never a reason to refuse
        fit = True if request.fit is None else request.fit
        update = {"power_cap_w": envelope, "power_cap_basis": "it", "fit": fit}
        ask = request.model_copy(update=update)
        notes.append(
            Assumed(
                field="power_cap_w",
                value=f"{envelope / 1e6:.3f} MW",
                reason=f"no envelope stated: the replaced fleet's own power, {basis}",
            )
        )
    elif (
        request.power_cap_w is not None and request.fit is None and not request.replaced_one_for_one
    ):
        # a stated cap bounds the successor as the fleet's own envelope does: it fills the cap,
        # never a reason to refuse ("replace 64 V100 nodes with something that fits in 400 kW")
        ask = request.model_copy(update={"fit": True})
    if request.cooling is None and request.platform is None and old.cooling == "air":
        # the successor stands where the fleet stood: an air-cooled hall takes air-cooled
        # systems unless the request asks for liquid
        ask = ask.model_copy(update={"cooling": "air"})
        notes.append(
            Assumed(
                field="cooling",
                value="air",
                reason=f"the replaced {old.id} fleet is air-cooled, so its successor is too "
                "(say 'liquid cooling' to weigh liquid-cooled systems)",
            )
        )
    d = plan(catalog, ask)
    line = _ratio_line(catalog, request, d, old, gpus, ask.power_cap_w)
    notice = "; ".join(x for x in (line, d.notice) if x)
    return d.model_copy(
        # the envelope is the request's cap from here on: a rebuild of the design keeps it
        update={"notice": notice, "assumptions": [*notes, *d.assumptions]}
    )


def _ratio_line(
    catalog: Catalog,
    request: DesignRequest,
    d: Design,
    old: System,
    gpus: int | None,
    envelope: float | None,
) -> str:
    precision = request.precision or "bf16"
    new = catalog.system(d.platform.system)
    per_new, per_old = (
        _dense_tflops(catalog, new, precision),
        _dense_tflops(catalog, old, precision),
    )
    within = f" within the {envelope / 1e6:.3f} MW envelope" if envelope else ""
    if not gpus or not per_new or not per_old:
        return f"a replacement of the {old.id} fleet{within}: the compute ratio is unknown"
    ratio = d.compute.gpus * per_new / (gpus * per_old)
    return (
        f"a replacement: {ratio:.1f}x the dense {precision.upper()} of the {gpus:,} "
        f"{old.gpu} it replaces ({d.compute.gpus * per_new / 1000:,.0f} vs "
        f"{gpus * per_old / 1000:,.0f} PFLOPS){within}"
    )
