"""A compact view of a design: what a model (or a quick glance) needs, without the full BOM.

The full `Design` runs to tens of kilobytes of JSON; sending it back to a model after every tool call
wastes its context. The summary keeps the figures a memo would cite and every failed check.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from clustergen.engine.model.common import Check
from clustergen.engine.model.design import Design
from clustergen.engine.report.documents.cost import cost_line
from clustergen.engine.report.documents.workload import headline, interactivity_compact


class FabricSummary(BaseModel):
    """One fabric in a line."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    technology: str
    tiers: int
    oversubscription: float
    leaf_switch: str
    leaf_switches: int
    spine_switches: int
    core_switches: int
    total_switches: int
    node_links: int
    leaf_spine_links: int
    spine_core_links: int
    port_speed_gbps: float


class DesignSummary(BaseModel):
    """The figures a memo cites, and every check that failed."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    mode: str
    platform: str
    platform_name: str
    gpu: str
    gpus_per_node: int
    gpu_link: str = Field(
        default="NVLink", description="what one node's GPUs talk over without a network"
    )
    nodes: int
    gpus: int
    scalable_units: int
    su_nodes: int | None
    compute_fabric: FabricSummary | None = Field(
        description="None for a single node (its GPUs share gpu_link)"
    )
    storage_fabric: FabricSummary | None
    compute_racks: int
    total_racks: int
    rack_power_limit_kw: float
    cooling: str
    node_power_w: float
    compute_w: float
    it_total_w: float
    it_total_mw: float
    power_complete: bool = Field(
        description="every power term known; else IT totals are lower bounds"
    )
    facility_total_w: float
    facility_total_mw: float
    pue: float
    cap_w: float | None
    cap_basis: str | None
    headroom_w: float | None
    max_gpus_under_cap: int | None
    storage_tier: str
    storage_read_gb_per_s: float
    storage_write_gb_per_s: float
    storage_capacity_tb: float | None
    training_days: float | None
    workload: str | None = Field(default=None, description="the workload estimate in one line")
    cost: str | None = Field(
        default=None,
        description="capital and cost of ownership in one line (unknown terms said, not zero)",
    )
    capital_usd: float | None = Field(
        default=None, description="the BOM's priced lines, USD (a lower bound unless complete)"
    )
    capital_complete: bool = Field(default=False, description="every orderable line priced")
    tco_usd: float | None = Field(
        default=None, description="cost of ownership over the term when every term is known"
    )
    interactivity: str | None = Field(
        default=None,
        description="serving: output tokens/s per GPU at each tokens/s per user on the design's GPU",
    )
    checks_passed: int
    checks_failed: list[Check] = Field(
        description="error-severity checks that failed or rest on an unknown value"
    )
    warnings: list[str]


def _fabric(f: object) -> FabricSummary | None:
    if f is None:
        return None
    data = {k: getattr(f, k) for k in FabricSummary.model_fields}
    return FabricSummary(**data)


def summarize(d: Design) -> DesignSummary:
    """The compact view of `d`."""
    failed = [c for c in d.checks if not c.passed and c.severity == "error"]
    compute = _fabric(d.fabrics.compute)
    return DesignSummary(
        mode=d.mode,
        platform=d.platform.system,
        platform_name=d.platform.name,
        gpu=d.platform.gpu,
        gpus_per_node=d.platform.gpus_per_node,
        gpu_link=d.platform.gpu_link,
        nodes=d.compute.nodes,
        gpus=d.compute.gpus,
        scalable_units=d.compute.scalable_units,
        su_nodes=d.compute.su_nodes,
        compute_fabric=compute,
        storage_fabric=_fabric(d.fabrics.storage),
        compute_racks=d.racks.compute.compute_racks,
        total_racks=d.racks.total_racks,
        rack_power_limit_kw=d.racks.compute.rack_power_limit_kw,
        cooling=d.racks.compute.cooling,
        node_power_w=d.compute.node_power.node_w,
        compute_w=d.power.compute_w,
        it_total_w=d.power.it_total_w,
        it_total_mw=d.power.it_total_w / 1e6,
        power_complete=d.power.complete,
        facility_total_w=d.power.facility_total_w,
        facility_total_mw=d.power.facility_total_w / 1e6,
        pue=d.power.pue,
        cap_w=d.power.cap_w,
        cap_basis=d.power.cap_basis,
        headroom_w=d.power.headroom_w,
        max_gpus_under_cap=d.compute.max_gpus_under_cap,
        storage_tier=d.storage.targets.tier,
        storage_read_gb_per_s=d.storage.targets.read_gb_per_s,
        storage_write_gb_per_s=d.storage.targets.write_gb_per_s,
        storage_capacity_tb=d.storage.targets.capacity_tb,
        training_days=d.workload.days if d.workload and d.workload.kind != "inference" else None,
        workload=headline(d.workload) if d.workload else None,
        cost=cost_line(d.cost) if d.cost else None,
        capital_usd=d.cost.capital_priced_usd if d.cost else None,
        capital_complete=d.cost is not None and d.cost.capital_usd is not None,
        tco_usd=d.cost.total_usd if d.cost else None,
        interactivity=interactivity_compact(d.workload) if d.workload else None,
        checks_passed=sum(c.passed for c in d.checks),
        checks_failed=failed,
        warnings=d.warnings,
    )
