"""Compute sizing: a platform's fabric for a node count, and the power-first solve."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Gpu, System
from clustergen.engine.fabric import FabricDesign, known_power_w, size_fabric
from clustergen.engine.platform import Assumed, FabricSetup, Technology, resolve_fabric
from clustergen.engine.power import (
    NodePower,
    NodePowerBasis,
    it_cap_w,
    max_nodes_under_cap,
    node_power,
)
from clustergen.errors import InfeasibleDesignError, RequestError


class FabricChoices(BaseModel):
    """Compute-fabric choices a caller may pin; None means the platform's default."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    switch: str | None = None
    technology: Technology | None = None
    su_nodes: int | None = Field(default=None, ge=1)
    rail_optimized: bool | None = None
    oversubscription: float | None = Field(default=None, ge=1.0)
    planes: int | None = Field(default=None, ge=1)
    port_speed_gbps: float | None = Field(default=None, gt=0)
    fabric_manager: bool = True


class PlatformFabric(BaseModel):
    """`clustergen fabric` output: the fabric plus the platform and the defaults assumed."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    platform: str
    gpus_per_node: int
    gpus: int
    architecture: str | None
    assumed: list[Assumed]
    fabric: FabricDesign


def _setup(catalog: Catalog, system: System, nodes: int, choices: FabricChoices) -> FabricSetup:
    return resolve_fabric(
        catalog,
        system,
        nodes,
        switch=choices.switch,
        technology=choices.technology,
        su_nodes=choices.su_nodes,
        rail_optimized=choices.rail_optimized,
        oversubscription=choices.oversubscription,
        planes=choices.planes,
        port_speed_gbps=choices.port_speed_gbps,
        fabric_manager=choices.fabric_manager,
    )


def gpu_system(catalog: Catalog, platform: str) -> System:
    """A GPU system by forgiving name; a GPU name picks the system built on it."""
    from clustergen.errors import NotFoundError

    try:
        system = catalog.system(platform)
    except NotFoundError as missing:
        try:
            gpu = catalog.gpu(platform)
        except NotFoundError:
            raise missing from None
        systems = [s for s in catalog.all("systems", System) if s.gpu == gpu.id]
        if not systems:
            raise RequestError(f"no system in the catalog carries the {gpu.id} GPU") from None
        # DGX first (it has a reference architecture), then the densest node
        system = min(systems, key=lambda s: (s.kind != "dgx", -s.gpus_per_node, s.id))
    if system.gpus_per_node == 0:
        raise RequestError(f"{system.id} is a {system.kind}, not a GPU platform")
    return system


def platform_fabric(
    catalog: Catalog, platform: str, nodes: int, choices: FabricChoices | None = None
) -> PlatformFabric:
    """Size the compute fabric of `nodes` nodes of a platform."""
    if nodes < 1:
        raise RequestError(f"--nodes must be at least 1, got {nodes}")
    system = gpu_system(catalog, platform)
    setup = _setup(catalog, system, nodes, choices or FabricChoices())
    fabric = size_fabric(setup.plan, setup.leaf, setup.spine, setup.core, setup.cabling)
    return PlatformFabric(
        platform=system.id,
        gpus_per_node=system.gpus_per_node,
        gpus=nodes * system.gpus_per_node,
        architecture=setup.architecture,
        assumed=setup.assumed,
        fabric=fabric,
    )


class PowerFirstResult(BaseModel):
    """The most GPUs whose IT power (nodes + switches + optics) fits the cap."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    platform: str
    gpu: str | None
    cap_basis: Literal["it", "facility"]
    cap_w: float
    pue: float | None
    it_cap_w: float
    node_power: NodePower
    nodes: int
    gpus: int
    scalable_units: int
    whole_scalable_units: bool
    compute_w: float
    switches_w: float
    optics_w: float
    it_total_w: float
    headroom_w: float
    gpus_per_mw: float
    fabric: FabricDesign
    assumed: list[Assumed]
    evaluations: int
    notes: list[str]


def power_first(
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
    choices = choices or FabricChoices()
    system = gpu_system(catalog, platform)
    power = node_power(system, node_power_basis)
    notes: list[str] = []
    it_cap = it_cap_w(cap_w, cap_basis, pue)
    if cap_basis == "facility":
        notes.append(
            f"facility cap {cap_w / 1e6:g} MW at PUE {pue:g} leaves {it_cap / 1e6:.3f} MW for IT"
        )

    def fabric_for(n: int) -> FabricDesign:
        setup = _setup(catalog, system, n, choices)
        return size_fabric(setup.plan, setup.leaf, setup.spine, setup.core, setup.cabling)

    def total(n: int) -> float:
        try:
            # An unknown switch or transceiver power counts 0; the rest of the fabric counts.
            return n * power.node_w + fabric_for(n).power.known_w
        except InfeasibleDesignError:
            return float("inf")  # past the fabric's capacity: such a count cannot be built

    probe = _setup(catalog, system, 1, choices)
    step, offset = 1, 0
    if whole_su:
        if probe.full_su_nodes is None:
            raise RequestError(f"{system.id}'s fabric has no scalable unit", hint="drop --whole-su")
        step = probe.full_su_nodes
        if probe.plan.fabric_manager_links:
            offset = 1  # the SuperPOD RA gives one node slot to the UFM
            notes.append("whole SUs less one node slot for the UFM, as the SuperPOD RA builds them")
    solved = max_nodes_under_cap(it_cap, power.node_w, total, step=step, offset=offset)
    fabric = fabric_for(solved.nodes)
    if fabric.power.total_w is None:
        notes.append("fabric power is partial: a switch or transceiver power is unknown")
    compute_w = solved.nodes * power.node_w
    switches, optics = known_power_w(fabric)
    it_total = compute_w + switches + optics
    gpu: Gpu | None = catalog.gpu(system.gpu) if system.gpu else None
    return PowerFirstResult(
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
        headroom_w=it_cap - it_total,
        gpus_per_mw=solved.nodes * system.gpus_per_node / (it_cap / 1e6),
        fabric=fabric,
        assumed=probe.assumed,
        evaluations=solved.evaluations,
        notes=notes,
    )
