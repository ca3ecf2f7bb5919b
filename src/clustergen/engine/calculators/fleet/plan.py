"""Fleet: plan the use of a mixed GPU fleet (several providers, GPU models and lifetimes).

An inventory lists nodes (provider, GPU model looked up in the catalog, GPU count, memory, hourly
cost, whether the node can vanish). The plan:

1. tiers nodes by GPU memory (thresholds configurable; by default node memory >= 80 / 32 / 8 GB, the
   tiers of the seed strategy memo, which counts an 8x RTX 4090 node's 192 GB as tier 1);
2. gives each job class (training, generation/batch, evaluation) a quota of the fleet's capacity
   (GPU memory x time), filled from the class's tiers first and its fallback tiers after, preferring
   stable providers for work that must not be interrupted and cheap ephemeral nodes for preemptible
   work, cheapest first where costs are known;
3. backfills what the quotas leave with preemptible work (the seed's idle-resource daemon) and
   reports what is still idle, so the shares and the idle capacity sum to the capacity;
4. says how to run on ephemeral nodes: short jobs and frequent sync.
"""

from __future__ import annotations

import math
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
)

from clustergen.catalog.loader import Catalog
from clustergen.engine.calculators.fleet.inputs import (
    SEED_003,
    FleetPolicy,
    Inventory,
    InventoryNode,
    JobClass,
    parse_inventory,
)
from clustergen.errors import NotFoundError, RequestError
from clustergen.units import plural

# --------------------------------------------------------------------------------------------------
# The plan
# --------------------------------------------------------------------------------------------------


class PlannedNode(BaseModel):
    """A node with its tier and the share of its time each job class gets."""

    model_config = ConfigDict(extra="forbid")

    name: str
    provider: str
    gpu: str
    gpu_id: str | None = Field(description="catalog id; None when the GPU is not in the catalog")
    from_catalog: bool
    gpus: int
    memory_gb_per_gpu: float
    memory_gb: float = Field(description="GPU memory of the whole node")
    memory_source: Literal["catalog", "inventory"]
    tier: int | None
    ephemeral: bool
    schedulable: bool
    hourly_usd: float | None
    allocation: dict[str, float] = Field(description="job class -> fraction of the node's time")
    idle_fraction: float
    guidance: list[str]


class TierSummary(BaseModel):
    """Capacity of one memory tier."""

    model_config = ConfigDict(extra="forbid")

    tier: int
    min_memory_gb: float
    max_memory_gb: float | None
    nodes: list[str]
    gpus: int
    memory_gb: float
    by_class_memory_gb: dict[str, float]


class ClassPlan(BaseModel):
    """One job class: its quota, what it got and where."""

    model_config = ConfigDict(extra="forbid")

    name: str
    description: str
    preemptible: bool
    quota: float = Field(description="normalised share of capacity")
    target_memory_gb: float
    quota_memory_gb: float = Field(description="capacity filled within the quota")
    backfill_memory_gb: float = Field(description="capacity taken above the quota (backfill)")
    share: float = Field(description="(quota + backfill) / capacity")
    shortfall_memory_gb: float
    nodes: list[str]
    gpu_equivalents: float = Field(description="sum over nodes of GPUs x time fraction")
    hourly_usd_known: float
    nodes_cost_unknown: int


class FleetPlan(BaseModel):
    """How to use the fleet: tiers, class shares summing to capacity, idle capacity, guidance."""

    model_config = ConfigDict(extra="forbid")

    inventory: str | None
    capacity_basis: str
    nodes: list[PlannedNode]
    tiers: list[TierSummary]
    classes: list[ClassPlan]
    capacity_memory_gb: float
    capacity_gpus: int
    idle_memory_gb: float
    idle_share: float
    excluded: list[str] = Field(description="nodes outside the capacity, with why")
    hourly_usd_known: float
    nodes_cost_unknown: int
    ephemeral_guidance: str
    policy: FleetPolicy
    assumed: list[str]
    notes: list[str]


class _Node:
    """Working state of one node while allocating."""

    def __init__(self, planned: PlannedNode) -> None:
        self.p = planned
        self.left = planned.memory_gb if planned.schedulable and planned.tier else 0.0
        self.alloc: dict[str, float] = {}
        self.backfill = 0.0


def plan_fleet(
    catalog: Catalog, inventory: Inventory, policy: FleetPolicy | None = None
) -> FleetPlan:
    """Tier the fleet, share it among job classes by quota, and say what stays idle."""
    pol = policy or inventory.policy
    nodes = [_Node(_resolve(catalog, inventory, pol, n)) for n in inventory.nodes]
    capacity = sum(n.p.memory_gb for n in nodes if n.p.schedulable)
    if capacity <= 0:
        raise RequestError("no schedulable node in the inventory", hint="set schedulable: true")
    total_quota = sum(c.quota for c in pol.job_classes)
    order = sorted(pol.job_classes, key=lambda c: c.preemptible)  # uninterruptible work first
    shortfall: dict[str, float] = {}
    for c in order:
        target = capacity * c.quota / total_quota
        for n in _candidates(c, nodes, pol):
            take = min(n.left, target)
            if take <= 1e-9:
                continue
            n.alloc[c.name] = n.alloc.get(c.name, 0.0) + take
            n.left -= take
            target -= take
        shortfall[c.name] = max(0.0, target)
    _backfill(nodes, pol)
    return _summarise(inventory, pol, nodes, capacity, total_quota, shortfall)


def _resolve(
    catalog: Catalog, inv: Inventory, pol: FleetPolicy, node: InventoryNode
) -> PlannedNode:
    gpu_id, per_gpu, source, guidance = _gpu(catalog, node)
    total = per_gpu * node.gpus
    basis = total if pol.tier_basis == "node" else per_gpu
    tier = next((i + 1 for i, t in enumerate(pol.tier_thresholds_gb) if basis >= t), None)
    provider = inv.providers.get(node.provider.lower()) or inv.providers.get(node.provider)
    ephemeral = (
        node.ephemeral if node.ephemeral is not None else bool(provider and provider.ephemeral)
    )
    if tier is not None and pol.tier_basis == "node" and per_gpu < pol.tier_thresholds_gb[tier - 1]:
        guidance.append(
            f"tier {tier} by node memory ({node.gpus} x {per_gpu:g} GB): a job needing "
            f"{pol.tier_thresholds_gb[tier - 1]:g} GB must split across GPUs"
        )
    if tier is None and node.schedulable:
        guidance.append(f"below the smallest tier ({pol.tier_thresholds_gb[-1]:g} GB): left idle")
    if ephemeral:
        guidance.append(
            f"ephemeral: jobs of <= {pol.ephemeral_max_job_minutes:g} min, sync results every "
            f"{pol.ephemeral_sync_interval_s:g} s"
        )
    if not node.schedulable:
        guidance.append(f"not scheduled ({node.role or 'schedulable: false'})")
    return PlannedNode(
        name=node.name,
        provider=node.provider,
        gpu=node.gpu,
        gpu_id=gpu_id,
        from_catalog=gpu_id is not None,
        gpus=node.gpus,
        memory_gb_per_gpu=per_gpu,
        memory_gb=total,
        memory_source=source,
        tier=tier,
        ephemeral=ephemeral,
        schedulable=node.schedulable,
        hourly_usd=node.hourly_usd,
        allocation={},
        idle_fraction=0.0,
        guidance=guidance,
    )


def _gpu(
    catalog: Catalog, node: InventoryNode
) -> tuple[str | None, float, Literal["catalog", "inventory"], list[str]]:
    """Catalog id, memory per GPU, where the memory came from, and notes."""
    try:
        g = catalog.gpu(node.gpu)
    except NotFoundError as err:
        if node.memory_gb is None:
            err.message = f"node {node.name!r}: {err.message}"
            extra = "or give memory_gb for a GPU outside the catalog"
            err.hint = f"{err.hint}; {extra}" if err.hint else extra
            raise
        return None, node.memory_gb, "inventory", [f"{node.gpu}: not in the catalog"]
    if node.memory_gb is not None:
        notes = []
        if g.memory_gb is not None and not math.isclose(g.memory_gb, node.memory_gb):
            notes.append(
                f"{node.memory_gb:g} GB per GPU from the inventory, not the catalog's "
                f"{g.memory_gb:g} GB ({g.id}), e.g. a vGPU slice"
            )
        return g.id, node.memory_gb, "inventory", notes
    if g.memory_gb is None:
        raise RequestError(
            f"node {node.name!r}: the catalog does not know the memory of {g.id}",
            hint="give memory_gb in the inventory",
        )
    return g.id, g.memory_gb, "catalog", []


def _candidates(c: JobClass, nodes: list[_Node], pol: FleetPolicy) -> list[_Node]:
    """Nodes a class may use, best first: not avoided, its tiers in order, stable or ephemeral
    as the class prefers, preferred providers, then cheapest per GB-hour (unknown cost last)."""
    tiers = [*c.tiers, *c.fallback_tiers]
    prefer = [p.lower() for p in c.prefer_providers]
    avoid = {p.lower() for p in c.avoid_providers}

    def key(n: _Node) -> tuple[Any, ...]:
        provider = n.p.provider.lower()
        cost = n.p.hourly_usd / n.p.memory_gb if n.p.hourly_usd is not None else math.inf
        return (
            provider in avoid,
            tiers.index(n.p.tier or 0),
            n.p.ephemeral != c.preemptible,
            prefer.index(provider) if provider in prefer else len(prefer),
            cost,
            n.p.name,
        )

    usable = [n for n in nodes if n.left > 0 and n.p.tier in tiers]
    return sorted(usable, key=key)


def _backfill(nodes: list[_Node], pol: FleetPolicy) -> None:
    cls = next((c for c in pol.job_classes if c.name == pol.backfill_class), None)
    if cls is None:
        return
    tiers = {*cls.tiers, *cls.fallback_tiers}
    for n in nodes:
        if n.left > 0 and n.p.tier in tiers:
            n.backfill = n.left
            n.left = 0.0


def _summarise(
    inv: Inventory,
    pol: FleetPolicy,
    nodes: list[_Node],
    capacity: float,
    total_quota: float,
    shortfall: dict[str, float],
) -> FleetPlan:
    planned = [_finish(n, pol) for n in nodes]
    classes = [
        _class_plan(c, nodes, pol, capacity, total_quota, shortfall) for c in pol.job_classes
    ]
    idle = sum(n.left for n in nodes) + sum(
        n.p.memory_gb for n in nodes if n.p.schedulable and n.p.tier is None
    )
    excluded = [
        f"{n.p.name}: {'not schedulable' if not n.p.schedulable else 'below the smallest tier'}"
        for n in nodes
        if not n.p.schedulable or n.p.tier is None
    ]
    known = [n.p.hourly_usd for n in nodes if n.p.hourly_usd is not None]
    notes = _notes(inv, pol, nodes, classes, total_quota)
    return FleetPlan(
        inventory=inv.name,
        capacity_basis=(
            "GPU memory x time of the schedulable nodes (GB); shares and idle sum to it"
        ),
        nodes=planned,
        tiers=_tiers(pol, nodes),
        classes=classes,
        capacity_memory_gb=capacity,
        capacity_gpus=sum(n.p.gpus for n in nodes if n.p.schedulable),
        idle_memory_gb=round(idle, 3),
        idle_share=round(idle / capacity, 6),
        excluded=excluded,
        hourly_usd_known=sum(known),
        nodes_cost_unknown=len(nodes) - len(known),
        ephemeral_guidance=(
            f"ephemeral nodes run only preemptible work where possible, in jobs of <= "
            f"{pol.ephemeral_max_job_minutes:g} min, syncing results every "
            f"{pol.ephemeral_sync_interval_s:g} s; idle GPUs (> {pol.idle_threshold_minutes:g} "
            f"min) get {pol.backfill_class or 'no'} work"
        ),
        policy=pol,
        assumed=_assumed(inv, pol),
        notes=notes,
    )


def _finish(n: _Node, pol: FleetPolicy) -> PlannedNode:
    mem = n.p.memory_gb
    alloc = {k: v / mem for k, v in n.alloc.items()}
    if n.backfill > 0 and pol.backfill_class:
        alloc[pol.backfill_class] = alloc.get(pol.backfill_class, 0.0) + n.backfill / mem
    idle = 1.0 - sum(alloc.values()) if n.p.schedulable else 0.0
    guidance = list(n.p.guidance)
    uninterruptible = [
        c.name for c in pol.job_classes if not c.preemptible and alloc.get(c.name, 0) > 0
    ]
    if n.p.ephemeral and uninterruptible:
        guidance.append(
            f"runs {', '.join(uninterruptible)} on an ephemeral node: checkpoint at every sync"
        )
    return n.p.model_copy(
        update={
            "allocation": {k: round(v, 6) for k, v in alloc.items()},
            "idle_fraction": round(max(0.0, idle), 6),
            "guidance": guidance,
        }
    )


def _class_plan(
    c: JobClass,
    nodes: list[_Node],
    pol: FleetPolicy,
    capacity: float,
    total_quota: float,
    shortfall: dict[str, float],
) -> ClassPlan:
    quota_gb = sum(n.alloc.get(c.name, 0.0) for n in nodes)
    backfill_gb = sum(n.backfill for n in nodes) if c.name == pol.backfill_class else 0.0
    used = [
        n
        for n in nodes
        if n.alloc.get(c.name, 0.0) > 0 or (c.name == pol.backfill_class and n.backfill > 0)
    ]

    def fraction(n: _Node) -> float:
        bf = n.backfill if c.name == pol.backfill_class else 0.0
        return (n.alloc.get(c.name, 0.0) + bf) / n.p.memory_gb

    return ClassPlan(
        name=c.name,
        description=c.description,
        preemptible=c.preemptible,
        quota=round(c.quota / total_quota, 6),
        target_memory_gb=round(capacity * c.quota / total_quota, 3),
        quota_memory_gb=round(quota_gb, 3),
        backfill_memory_gb=round(backfill_gb, 3),
        share=round((quota_gb + backfill_gb) / capacity, 6),
        shortfall_memory_gb=round(shortfall.get(c.name, 0.0), 3),
        nodes=[n.p.name for n in used],
        gpu_equivalents=round(sum(n.p.gpus * fraction(n) for n in used), 3),
        hourly_usd_known=round(sum((n.p.hourly_usd or 0.0) * fraction(n) for n in used), 4),
        nodes_cost_unknown=sum(1 for n in used if n.p.hourly_usd is None),
    )


def _tiers(pol: FleetPolicy, nodes: list[_Node]) -> list[TierSummary]:
    out = []
    for i, low in enumerate(pol.tier_thresholds_gb):
        members = [n for n in nodes if n.p.tier == i + 1 and n.p.schedulable]
        by_class: dict[str, float] = {}
        for n in members:
            for k, v in n.alloc.items():
                by_class[k] = by_class.get(k, 0.0) + v
            if n.backfill > 0 and pol.backfill_class:
                by_class[pol.backfill_class] = by_class.get(pol.backfill_class, 0.0) + n.backfill
        out.append(
            TierSummary(
                tier=i + 1,
                min_memory_gb=low,
                max_memory_gb=pol.tier_thresholds_gb[i - 1] if i > 0 else None,
                nodes=[n.p.name for n in members],
                gpus=sum(n.p.gpus for n in members),
                memory_gb=sum(n.p.memory_gb for n in members),
                by_class_memory_gb={k: round(v, 3) for k, v in by_class.items()},
            )
        )
    return out


def _notes(
    inv: Inventory,
    pol: FleetPolicy,
    nodes: list[_Node],
    classes: list[ClassPlan],
    total_quota: float,
) -> list[str]:
    notes: list[str] = []
    if not math.isclose(total_quota, 1.0):
        notes.append(f"job class quotas summed to {total_quota:g}; scaled to sum to 1")
    for c in classes:
        if c.shortfall_memory_gb > 1e-6:
            notes.append(
                f"{c.name} is {c.shortfall_memory_gb:,.0f} GB short of its quota: its tiers "
                "are full"
            )
    count = len(pol.tier_thresholds_gb)
    for jc in pol.job_classes:
        beyond = sorted({t for t in (*jc.tiers, *jc.fallback_tiers) if t > count})
        if beyond:
            notes.append(
                f"{jc.name}: tier(s) {beyond} do not exist with {plural(count, 'tier')}; ignored"
            )
    custom = sorted({n.p.gpu for n in nodes if not n.p.from_catalog})
    if custom:
        notes.append(f"not from the catalog (memory from the inventory): {', '.join(custom)}")
    unknown = sum(1 for n in nodes if n.p.hourly_usd is None)
    if unknown:
        notes.append(f"hourly cost unknown for {plural(unknown, 'node')}: costs shown are partial")
    return notes


def _assumed(inv: Inventory, pol: FleetPolicy) -> list[str]:
    default = FleetPolicy()
    out = []
    if pol.tier_thresholds_gb == default.tier_thresholds_gb:
        out.append(f"tiers at >= 80 / 32 / 8 GB of node GPU memory ({SEED_003})")
    if pol.job_classes == default.job_classes:
        out.append(
            "job classes and quotas: training 30%, generation 60%, evaluation 10% "
            f"(target distribution of {SEED_003}); provider preferences from its cost section"
        )
    if pol.ephemeral_sync_interval_s == default.ephemeral_sync_interval_s:
        out.append(f"ephemeral nodes sync every 5 s ({SEED_003}, EphemeralSyncDaemon)")
    if pol.ephemeral_max_job_minutes == default.ephemeral_max_job_minutes:
        out.append(
            "ephemeral jobs of <= 60 min: a clustergen default; the memo asks for 'shorter "
            "jobs' on ephemeral nodes without a figure"
        )
    return out


__all__ = [
    "ClassPlan",
    "FleetPlan",
    "FleetPolicy",
    "Inventory",
    "InventoryNode",
    "JobClass",
    "PlannedNode",
    "TierSummary",
    "parse_inventory",
    "plan_fleet",
]
