"""The power-first solve: the most nodes whose IT power (nodes, switches, optics) fits under a cap,
exactly, by binary search over a power that never falls as nodes grow."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Literal

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Gpu
from clustergen.engine.cost import HOW_TO_PRICE
from clustergen.engine.model.compute import (
    FabricChoices,
    NodePowerBasis,
    PowerFirstResult,
    SolveResult,
)
from clustergen.engine.model.fabric import FabricDesign, FabricSetup
from clustergen.engine.sizing.fabric import known_power_w, platform_setup, size_setup
from clustergen.engine.sizing.inputs import Inputs
from clustergen.engine.sizing.platform import gpu_system, it_cap_w, node_power
from clustergen.engine.solve.cap_reserve import Reserve
from clustergen.errors import InfeasibleDesignError, RequestError
from clustergen.units import dollars, plural

#: a compute fabric's parts and the fabric they size
SizedFabric = tuple[FabricSetup, FabricDesign]


def max_nodes_under_cap(
    cap_w: float,
    node_w: float,
    total_w: Callable[[int], float],
    step: int = 1,
    offset: int = 0,
    max_nodes: int | None = None,
) -> SolveResult:
    """Largest n = k*step - offset (k >= 1) with total_w(n) <= cap_w (and n <= `max_nodes`, a
    second cap such as a capital budget's), by binary search; an infinite `cap_w` leaves the
    power unbounded.

    `total_w` must be non-decreasing in n (more nodes never need less power); the fabric rules
    guarantee it. `step`/`offset` restrict the answer to whole scalable units.
    """
    if cap_w <= 0:
        raise RequestError(
            f"power cap must be positive, got {cap_w:g} W", field="power_cap_w", value=cap_w
        )
    if step < 1 or offset < 0 or offset >= step:
        raise RequestError("invalid scalable-unit step for the power solve")

    def nodes_of(k: int) -> int:
        return k * step - offset

    evaluations = 0

    def fits(k: int) -> tuple[bool, float]:
        nonlocal evaluations
        evaluations += 1
        w = total_w(nodes_of(k))
        return w <= cap_w and math.isfinite(w), w

    ok, w = fits(1)
    if not ok:
        raise InfeasibleDesignError(
            f"not even {plural(nodes_of(1), 'node')} {'fits' if nodes_of(1) == 1 else 'fit'}: they need {w / 1e3:,.1f} kW against a "
            f"{cap_w / 1e3:,.1f} kW cap",
            hint=f"raise the cap to at least {w / 1e6:.3f} MW",
            needed_w=w,
            cap_w=cap_w,
        )
    lo, best_w = 1, w
    # nodes alone already exceed the cap past `hi`
    hi = max(1, int(cap_w // (node_w * step)) + 1) if math.isfinite(cap_w) else 1
    if max_nodes is not None:
        by_count = (max_nodes + offset) // step
        hi = by_count if not math.isfinite(cap_w) else min(hi, by_count)
    elif not math.isfinite(cap_w):
        raise RequestError("a solve with no power cap needs a node limit")
    while lo < hi:
        mid = (lo + hi + 1) // 2
        ok, w = fits(mid)
        if ok:
            lo, best_w = mid, w
        else:
            hi = mid - 1
    if lo != 1 or best_w == 0:
        best_w = total_w(nodes_of(lo))
    return SolveResult(nodes=nodes_of(lo), total_w=best_w, cap_w=cap_w, evaluations=evaluations)


def most_under_cap(
    catalog: Catalog,
    platform: str,
    cap_w: float,
    *,
    choices: FabricChoices | None = None,
    cap_basis: Literal["it", "facility"] = "it",
    pue: float | None = None,
    whole_su: bool = False,
    node_power_basis: NodePowerBasis = "max",
) -> PowerFirstResult:
    """Solve for the most nodes whose IT power fits under the cap, exactly (binary search over a
    power that never falls as nodes grow)."""
    return solve_power_first(
        catalog,
        platform,
        cap_w,
        choices=choices,
        cap_basis=cap_basis,
        pue=pue,
        whole_su=whole_su,
        node_power_basis=node_power_basis,
    )[0]


def solve_power_first(
    catalog: Catalog,
    platform: str,
    cap_w: float,
    *,
    choices: FabricChoices | None = None,
    cap_basis: Literal["it", "facility"] = "it",
    pue: float | None = None,
    whole_su: bool = False,
    node_power_basis: NodePowerBasis = "max",
    max_nodes: int | None = None,
) -> tuple[PowerFirstResult, SizedFabric]:
    """`most_under_cap`, with the compute fabric it sized for the answer, for a caller that builds
    on it (each node count is sized once). `max_nodes` is a second cap on the count (what a
    capital budget buys); with it, `cap_w` may be infinite (no power cap)."""
    choices = choices or FabricChoices()
    system = gpu_system(catalog, platform)
    power = node_power(system, node_power_basis)
    notes: list[str] = []
    it_cap = it_cap_w(cap_w, cap_basis, pue) if math.isfinite(cap_w) else math.inf
    if cap_basis == "facility":
        notes.append(
            f"facility cap {cap_w / 1e6:g} MW at PUE {pue:g} leaves {it_cap / 1e6:.3f} MW for IT"
        )

    sized: dict[int, SizedFabric] = {}

    def sized_for(n: int) -> SizedFabric:
        if n not in sized:
            setup = platform_setup(catalog, system, n, choices)
            fabric = size_setup(catalog, setup)
            sized[n] = setup, fabric
        return sized[n]

    def total(n: int) -> float:
        try:
            # An unknown switch or transceiver power counts 0; the rest of the fabric counts.
            return n * power.node_w + sized_for(n)[1].power.known_w
        except InfeasibleDesignError:
            return float("inf")  # past the fabric's capacity: such a count cannot be built

    # Whole SUs are the SUs of the architecture that scales (a SuperPOD, not a small cluster's
    # BasePOD): probe at the smallest size it covers.
    scaling = catalog.architecture_for(system.id, choices.technology) if whole_su else None
    probe = platform_setup(catalog, system, scaling.min_nodes if scaling else 1, choices)
    step, offset = 1, 0
    if whole_su:
        if probe.full_su_nodes is None:
            raise RequestError(
                f"{system.id}'s fabric has no scalable unit to build whole",
                hint="drop `whole_su`, or pick a platform whose architecture has scalable units",
                field="whole_su",
                value=True,
            )
        step = probe.full_su_nodes
        if probe.plan.fabric_manager_links:
            offset = 1  # the SuperPOD RA gives one node slot to the UFM
            notes.append("whole SUs less one node slot for the UFM, as the SuperPOD RA builds them")
    solved = max_nodes_under_cap(
        it_cap, power.node_w, total, step=step, offset=offset, max_nodes=max_nodes
    )
    answer = sized_for(solved.nodes)
    fabric = answer[1]
    if fabric.power.total_w is None:
        notes.append("fabric power is partial: a switch or transceiver power is unknown")
    compute_w = solved.nodes * power.node_w
    switches, optics = known_power_w(fabric)
    it_total = compute_w + switches + optics
    gpu: Gpu | None = catalog.gpu(system.gpu) if system.gpu else None
    result = PowerFirstResult(
        platform=system.id,
        gpu=gpu.id if gpu else None,
        cap_basis=cap_basis,
        cap_w=cap_w,
        pue=pue,
        it_cap_w=it_cap,
        node_power=power,
        nodes=solved.nodes,
        gpus=solved.nodes * system.gpus_per_node,
        scalable_units=fabric.scalable_units,
        whole_scalable_units=whole_su,
        compute_w=compute_w,
        switches_w=switches,
        optics_w=optics,
        it_total_w=it_total,
        headroom_w=None
        if fabric.power.total_w is None or not math.isfinite(it_cap)
        else it_cap - it_total,
        complete=fabric.power.total_w is not None,
        gpus_per_mw=solved.nodes * system.gpus_per_node / (it_cap / 1e6),
        fabric=fabric,
        assumed=list(probe.assumed),
        evaluations=solved.evaluations,
        notes=notes,
    )
    return result, answer


def solve_cap(
    inputs: Inputs, reserve: Reserve
) -> tuple[PowerFirstResult | None, SizedFabric | None]:
    """The most nodes of the design's platform under its IT cap less `reserve.w` and its capital
    budget less `reserve.usd` (what the rest of the design needs), with their compute fabric;
    (None, None) when no cap sizes the design (the caps then only check it)."""
    it_cap, system, choices = inputs.common.it_cap_w, inputs.system, inputs.choices
    if not inputs.cap_sized:
        return None, None
    bounds = [
        n for n in (capital_nodes(inputs, reserve.usd), rack_nodes(inputs, reserve.racks)) if n
    ]
    max_nodes = min(bounds) if bounds else None
    if it_cap is None and max_nodes is None:
        return None, None
    try:
        if it_cap is not None and it_cap - reserve.w <= 0:
            raise InfeasibleDesignError(
                "the cap leaves nothing for compute", hint="raise the power cap"
            )
        return solve_power_first(
            inputs.catalog,
            system.id,
            math.inf if it_cap is None else it_cap - reserve.w,
            choices=FabricChoices(
                technology=choices.fabric,
                oversubscription=choices.oversubscription,
                planes=choices.planes,
            ),
            max_nodes=max_nodes,
        )
    except InfeasibleDesignError as exc:
        if it_cap is None:
            raise
        raise InfeasibleDesignError(
            f"no {system.id} node fits under {it_cap / 1e6:g} MW IT", hint=exc.hint
        ) from None


def rack_nodes(inputs: Inputs, network_racks: int) -> int | None:
    """The most nodes the site's rack positions hold, less the `network_racks` the rest of the
    design needs, at the nodes per rack the rack power limit and layout allow; None when the
    request gives no rack positions."""
    room = inputs.request.max_racks
    if room is None:
        return None
    # here, not at the top: the racks bring the design model, which `clustergen power` skips
    from clustergen.engine.sizing.inputs import Notes
    from clustergen.engine.sizing.racks import compute_racks

    # the nodes a rack holds do not depend on how many nodes there are
    per_rack = compute_racks(inputs, 1, Notes()).nodes_per_rack
    if room - network_racks < 1:
        raise InfeasibleDesignError(
            f"the site's {plural(room, 'rack')} leave no room for a compute rack beside the "
            f"{plural(network_racks, 'network rack')} the design needs",
            hint=f"allow at least {network_racks + 1} racks",
        )
    return (room - network_racks) * per_rack


def capital_nodes(inputs: Inputs, reserve_usd: float) -> int | None:
    """The most nodes the request's capital budget buys at the system's price, less the capital
    the rest of the design needs; None when there is no budget, or no price to size by while a
    power cap can size the design (its capital check then says the capital is unknown)."""
    budget, system = inputs.request.capital_budget_usd, inputs.system
    if budget is None:
        return None
    price = system.price_usd
    if price is None or price <= 0:
        if inputs.common.it_cap_w is not None:
            return None
        raise InfeasibleDesignError(
            f"{system.id} has no price in the catalog, so the {dollars(budget)} capital budget "
            "cannot size it",
            hint=HOW_TO_PRICE,
        )
    nodes = math.floor((budget - reserve_usd) / price)
    if nodes < 1:
        rest = f" with {dollars(reserve_usd)} for the rest of the design" if reserve_usd else ""
        raise InfeasibleDesignError(
            f"not even one {system.id} node ({dollars(price)}) fits the {dollars(budget)} "
            f"capital budget{rest}",
            hint=f"raise the capital budget to at least {dollars(price + reserve_usd)}",
            needed_usd=price + reserve_usd,
        )
    return nodes
