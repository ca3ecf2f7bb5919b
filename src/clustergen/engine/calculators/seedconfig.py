"""The seed memo's JSON sizing config, accepted as it is, sized with real Clos rules.

The seed script sizes leaves as ceil(host ports / leaf host ports) and spines as
ceil(uplinks / spine ports) in two tiers at any scale; past k^2/2 host ports no radix-k 2-tier
fabric exists. clustergen reads the same config and builds a fabric that can be cabled.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from clustergen.catalog.models import NodePowerTerms, Optic, PortGroup, Switch, System
from clustergen.catalog.ranges import DeviceWatts, Watts
from clustergen.engine.model.bounds import MAX_NODES, MAX_POWER_MW
from clustergen.engine.model.fabric import Cabling, FabricDesign, FabricPlan
from clustergen.engine.sizing.fabric import max_host_ports, size_clos
from clustergen.engine.sizing.platform import node_power
from clustergen.engine.solve.power_first import max_nodes_under_cap
from clustergen.errors import RequestError
from clustergen.units import ceil_div

#: The seed config carries no link speed; sizing needs only port counts, so any one speed serves.
_NOMINAL_SPEED_GBPS = 400.0
_SEED_SOURCE = "user config (seed memo format)"


class _Seed(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True, allow_inf_nan=False)


#: a name the seed gives a node, a switch or a fabric (it becomes a catalog entry's name)
_Name = Annotated[str, Field(min_length=1, max_length=200)]


class SeedNode(_Seed):
    """The seed's node block."""

    name: _Name
    gpus_per_node: int = Field(ge=1, le=4096)
    gpu_w: Watts
    cpu_w: Watts = 0.0
    dram_w: Watts = 0.0
    nvme_w: Watts = 0.0
    nics_per_node: int = Field(default=1, ge=1, le=256)
    nic_w: Watts = 0.0
    node_aux_w: Watts = 0.0
    ports_per_nic_to_fabric: int = Field(default=1, ge=1, le=16)


class SeedSwitch(_Seed):
    """A switch in the seed config."""

    name: _Name
    ports: int = Field(ge=2, le=10_000)
    switch_w: DeviceWatts


class SeedFabric(_Seed):
    """The seed's fabric block."""

    name: _Name
    leaf: SeedSwitch
    spine: SeedSwitch
    leaf_host_ports: int = Field(ge=1, le=10_000)
    leaf_uplink_ports: int = Field(ge=1, le=10_000)
    optic_w_per_link_end: Watts = 0.0


class SeedConfig(_Seed):
    """The seed memo's config: an IT cap, one node type, one leaf-spine fabric. Every number is
    finite and within a physical range."""

    it_cap_mw: float = Field(gt=0, le=MAX_POWER_MW)
    min_nodes: int = Field(default=1, ge=1, le=MAX_NODES)
    node: SeedNode
    fabric: SeedFabric


class SeedComparison(BaseModel):
    """What the seed script would report for the same node count, and why clustergen differs."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seed_leaves: int
    seed_spines: int
    seed_tiers: int
    seed_buildable: bool
    differences: list[str]


class SizeResult(BaseModel):
    """`clustergen size` output: the seed's fields plus the fabric clustergen can build."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    node_type: str
    fabric_name: str
    it_cap_w: float
    nodes: int
    gpus: int
    node_w: float
    host_ports: int
    tiers: int
    leaves: int
    spines: int
    cores: int
    uplinks_total: int
    oversubscription: float
    p_node_total_w: float
    p_switching_w: float
    p_optics_w: float
    p_total_w: float
    headroom_w: float
    gpus_per_mw: float
    fabric: FabricDesign
    seed_comparison: SeedComparison
    notes: list[str]


def _system(node: SeedNode) -> System:
    ports = node.nics_per_node * node.ports_per_nic_to_fabric
    return System(
        id="seed-node",
        name=node.name,
        source=_SEED_SOURCE,
        as_of="2026-01",
        kind="hgx",
        vendor="user",
        gpu="user-gpu",
        gpus_per_node=node.gpus_per_node,
        power_terms=NodePowerTerms(
            gpu_w=node.gpu_w,
            cpu_w=node.cpu_w,
            dram_w=node.dram_w,
            nvme_w=node.nvme_w,
            nic_w=node.nic_w,
            aux_w=node.node_aux_w,
        ),
        compute=PortGroup(
            ports=ports, port_speed_gbps=_NOMINAL_SPEED_GBPS, nics=node.nics_per_node
        ),
    )


def _switch(sw: SeedSwitch) -> Switch:
    return Switch(
        id="seed-" + re.sub(r"[^a-z0-9]+", "-", sw.name.lower()).strip("-")[:50],
        name=sw.name,
        source=_SEED_SOURCE,
        as_of="2026-01",
        vendor="user",
        technology="ethernet",
        ports=sw.ports,
        port_speed_gbps=_NOMINAL_SPEED_GBPS,
        typical_power_w=sw.switch_w,
    )


def size_seed_config(cfg: SeedConfig) -> SizeResult:
    """Most nodes under the IT cap with a buildable fabric, and how that differs from the seed."""
    f = cfg.fabric
    if f.leaf_host_ports + f.leaf_uplink_ports > f.leaf.ports:
        raise RequestError(
            f"leaf_host_ports ({f.leaf_host_ports}) + leaf_uplink_ports ({f.leaf_uplink_ports}) "
            f"exceed the leaf's {f.leaf.ports} ports",
            hint="lower one of them so they sum to at most the leaf's ports",
        )
    system = _system(cfg.node)
    leaf, spine = _switch(f.leaf), _switch(f.spine)
    ratio = max(1.0, f.leaf_host_ports / f.leaf_uplink_ports)
    optic = Optic(
        id="seed-optic",
        name="optic per link end (seed config)",
        source=_SEED_SOURCE,
        as_of="2026-01",
        kind="transceiver",
        vendor="user",
        power_w=f.optic_w_per_link_end,
    )
    cabling = Cabling(node_optic=optic, switch_optic=optic, core_optic=optic)
    ports = system.compute.ports if system.compute else 1
    power = node_power(system, basis="terms")
    cap_w = cfg.it_cap_mw * 1e6

    def design(n: int) -> FabricDesign:
        plan = FabricPlan(
            nodes=n,
            ports_per_node=ports,
            port_speed_gbps=_NOMINAL_SPEED_GBPS,
            oversubscription=ratio,
        )
        return size_clos(plan, leaf, spine, spine, cabling)

    def total(n: int) -> float:
        return n * power.node_w + design(n).power.known_w

    solved = max_nodes_under_cap(cap_w, power.node_w, total, step=1, offset=0)
    nodes = max(solved.nodes, cfg.min_nodes)
    fab = design(nodes)
    switching = fab.power.switches_w or 0.0
    optics = fab.power.optics_w or 0.0
    node_total = nodes * power.node_w
    p_total = node_total + switching + optics
    comparison = _compare_with_seed(cfg, nodes, ports, fab)
    notes = [
        "link speed is not in the seed config; counts and power do not depend on it",
        "optic_w_per_link_end is applied to both ends of every link (node-leaf too); the seed "
        "counts leaf-spine optics only",
    ]
    if solved.nodes < cfg.min_nodes:
        notes.append(f"min_nodes {cfg.min_nodes} does not fit under the cap; shown anyway")
    return SizeResult(
        node_type=cfg.node.name,
        fabric_name=f.name,
        it_cap_w=cap_w,
        nodes=nodes,
        gpus=nodes * cfg.node.gpus_per_node,
        node_w=power.node_w,
        host_ports=fab.host_links,
        tiers=fab.tiers,
        leaves=fab.leaf_switches,
        spines=fab.spine_switches,
        cores=fab.core_switches,
        uplinks_total=fab.leaf_spine_links,
        oversubscription=fab.oversubscription,
        p_node_total_w=node_total,
        p_switching_w=switching,
        p_optics_w=optics,
        p_total_w=p_total,
        headroom_w=cap_w - p_total,
        gpus_per_mw=nodes * cfg.node.gpus_per_node / cfg.it_cap_mw,
        fabric=fab,
        seed_comparison=comparison,
        notes=notes,
    )


def _compare_with_seed(
    cfg: SeedConfig, nodes: int, ports: int, fab: FabricDesign
) -> SeedComparison:
    f = cfg.fabric
    hosts = nodes * ports
    seed_leaves = ceil_div(hosts, f.leaf_host_ports)
    seed_spines = ceil_div(seed_leaves * f.leaf_uplink_ports, f.spine.ports)
    limit = max_host_ports(min(f.leaf.ports, f.spine.ports), 2)
    buildable = seed_spines <= f.leaf_uplink_ports and seed_leaves <= f.spine.ports
    diffs: list[str] = []
    if not buildable:
        diffs.append(
            f"the seed's 2-tier answer ({seed_leaves} leaves, {seed_spines} spines) cannot be cabled: "
            f"each leaf has {f.leaf_uplink_ports} uplinks, so it reaches at most {f.leaf_uplink_ports} "
            f"spines, and a {f.spine.ports}-port spine reaches at most {f.spine.ports} leaves; "
            f"a 2-tier fabric of these switches tops out near {limit} host ports, and "
            f"{nodes} nodes need {hosts}"
        )
    if fab.tiers == 3:
        diffs.append(
            f"clustergen builds 3 tiers: {fab.pods} pods of up to {fab.spines_per_pod} spines, and "
            f"{fab.core_switches} core switches in {fab.core_groups} groups"
        )
    if seed_spines != fab.spine_switches and fab.tiers == 2:
        diffs.append(
            f"spines must divide each leaf's {fab.leaf_uplinks} uplinks evenly: "
            f"{fab.spine_switches} rather than {seed_spines}"
        )
    if not diffs:
        diffs.append("same leaf and spine counts as the seed")
    return SeedComparison(
        seed_leaves=seed_leaves,
        seed_spines=seed_spines,
        seed_tiers=2,
        seed_buildable=buildable,
        differences=diffs,
    )
