"""Power: per-node power from the seed memo's terms or the published maximum, and the power-first
solve (the most nodes whose IT power fits under a cap)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from clustergen.catalog.models import System
from clustergen.errors import InfeasibleDesignError, RequestError

NodePowerBasis = Literal["max", "terms"]


class NodePower(BaseModel):
    """Power of one node and how it was found."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    system: str
    basis: NodePowerBasis
    node_w: float = Field(gt=0)
    terms_w: dict[str, float] = Field(default_factory=dict, description="seed memo terms, if known")
    source: str


def terms_total_w(system: System) -> tuple[float | None, dict[str, float]]:
    """The seed memo's sum: gpus*gpu_w + cpu_w + dram_w + nvme_w + nics*nic_w + aux_w.

    Returns None when any term is unknown, since a partial sum would understate the node.
    """
    t = system.power_terms
    if t is None:
        return None, {}
    nics = 0
    for group in (system.compute, system.storage, system.inband):
        if group is not None:
            nics += group.nics if group.nics is not None else group.ports
    parts = {
        "gpus_w": None if t.gpu_w is None else t.gpu_w * system.gpus_per_node,
        "cpu_w": t.cpu_w,
        "dram_w": t.dram_w,
        "nvme_w": t.nvme_w,
        "nics_w": None if t.nic_w is None else t.nic_w * nics,
        "aux_w": t.aux_w,
    }
    if any(v is None for v in parts.values()):
        return None, {k: v for k, v in parts.items() if v is not None}
    known = {k: float(v) for k, v in parts.items() if v is not None}
    return sum(known.values()), known


def node_power(system: System, basis: NodePowerBasis = "max") -> NodePower:
    """Power of one node: the published maximum by default (what a power budget must hold)."""
    total, terms = terms_total_w(system)
    if basis == "max" and system.max_power_w:
        return NodePower(
            system=system.id,
            basis="max",
            node_w=system.max_power_w,
            terms_w=terms,
            source=system.field_sources.get("max_power_w", system.source),
        )
    if total:
        return NodePower(
            system=system.id, basis="terms", node_w=total, terms_w=terms, source=system.source
        )
    if system.max_power_w:
        return NodePower(
            system=system.id,
            basis="max",
            node_w=system.max_power_w,
            terms_w=terms,
            source=system.source,
        )
    raise RequestError(
        f"system {system.id} has no known power (no max_power_w and incomplete power_terms)",
        hint="add max_power_w or power_terms for it in a layered catalog (--catalog DIR)",
    )


class SolveResult(BaseModel):
    """The most nodes whose total power fits the cap."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    nodes: int = Field(ge=0)
    total_w: float
    cap_w: float
    evaluations: int


def max_nodes_under_cap(
    cap_w: float,
    node_w: float,
    total_w: Callable[[int], float],
    step: int = 1,
    offset: int = 0,
) -> SolveResult:
    """Largest n = k*step - offset (k >= 1) with total_w(n) <= cap_w, by binary search.

    `total_w` must be non-decreasing in n (more nodes never need less power); the fabric rules
    guarantee it. `step`/`offset` restrict the answer to whole scalable units.
    """
    if cap_w <= 0:
        raise RequestError(f"power cap must be positive, got {cap_w:g} W")
    if step < 1 or offset < 0 or offset >= step:
        raise RequestError("invalid scalable-unit step for the power solve")

    def nodes_of(k: int) -> int:
        return k * step - offset

    evaluations = 0

    def fits(k: int) -> tuple[bool, float]:
        nonlocal evaluations
        evaluations += 1
        w = total_w(nodes_of(k))
        return w <= cap_w, w

    ok, w = fits(1)
    if not ok:
        raise InfeasibleDesignError(
            f"not even {nodes_of(1)} node(s) fit: they need {w / 1e3:,.1f} kW against a "
            f"{cap_w / 1e3:,.1f} kW cap",
            hint=f"raise the cap to at least {w / 1e6:.3f} MW",
            needed_w=w,
            cap_w=cap_w,
        )
    lo, best_w = 1, w
    hi = max(1, int(cap_w // (node_w * step)) + 1)  # nodes alone already exceed the cap here
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


CapBasis = Literal["it", "facility"]


def it_cap_w(cap_w: float, basis: CapBasis, pue: float | None) -> float:
    """The IT power a cap leaves: the cap itself, or a facility cap divided by the PUE.

    Every caller that compares IT power with a cap converts through here, so the planner, the design
    and the power-first solve can never disagree about what a facility cap allows.
    """
    if cap_w <= 0:
        raise RequestError(f"a power cap must be positive, got {cap_w:g} W")
    if basis == "it":
        return cap_w
    if pue is None or pue < 1.0:
        raise RequestError(
            "a facility power cap needs a PUE of at least 1.0", hint="pass --pue 1.3"
        )
    return cap_w / pue
