"""Clos tiers by rule: how leaves split their ports, rail-optimized scalable units, and the spines and\ncores above them (the rules are listed in sizing/fabric.py's docstring)."""

from __future__ import annotations

import functools
import math

from clustergen.catalog.models import Switch
from clustergen.engine.model.fabric import (
    FabricPlan,
)
from clustergen.errors import InfeasibleDesignError, RequestError
from clustergen.units import ceil_div, smallest_divisor_at_least


def leaf_split(radix: int, oversubscription: float) -> tuple[int, int]:
    """Largest downlink count d and the uplinks u it needs, with d <= r*u and d + u <= radix."""
    down = math.floor(radix * oversubscription / (1.0 + oversubscription) + 1e-9)
    while down > 0:
        up = math.ceil(down / oversubscription - 1e-9)
        if down + up <= radix:
            return down, up
        down -= 1
    raise RequestError(
        f"a {radix}-port leaf cannot be split for oversubscription {oversubscription}"
    )


def radix_of(switch: Switch, speed_gbps: float, role: str) -> int:
    radix = switch.radix_at(speed_gbps)
    if radix is None:
        speeds = sorted({switch.port_speed_gbps, *(b.speed_gbps for b in switch.breakouts)})
        raise RequestError(
            f"{role} switch {switch.id} has no {speed_gbps:g} Gb/s ports",
            hint=f"it offers {', '.join(f'{s:g}' for s in speeds)} Gb/s; set `port_speed_gbps`",
            field="port_speed_gbps",
            value=speed_gbps,
            limit=speeds,
        )
    return radix


class Leaves:
    """Per-plane leaf layout."""

    __slots__ = ("count", "down", "fm_attached", "isl", "loads", "per_su", "sus", "up")

    def __init__(
        self,
        *,
        count: int,
        per_su: int | None,
        down: int,
        up: int,
        sus: int,
        loads: dict[int, int],
        fm_attached: int,
        isl: int = 0,
    ) -> None:
        self.count = count
        self.per_su = per_su
        self.down = down
        self.up = up
        self.sus = sus
        # host ports used on a leaf -> how many leaves use that many, for transceiver counts. A
        # histogram, not a list per leaf: full SUs repeat one pattern, so its size stays that of
        # one SU however large the fabric grows.
        self.loads = loads
        self.fm_attached = fm_attached
        # Ports of each switch of a single-tier pair that join it to the other (no transceivers:
        # the pair sits side by side on copper).
        self.isl = isl


def rail_leaves(
    plan: FabricPlan, per_plane: int, radix: int, fm_links: int, thin: bool = False
) -> Leaves:
    """Rail leaves of each scalable unit. `thin`: a blocking leaf keeps the non-blocking
    downlink count and takes fewer uplinks (fewer spines), instead of more downlinks (fewer
    leaves)."""
    assert plan.su_nodes is not None
    rails = plan.rails or per_plane
    if per_plane % rails:
        raise RequestError(f"{per_plane} ports per node do not split into {rails} rails")
    ports_per_rail = per_plane // rails
    d_max, _ = leaf_split(radix, 1.0 if thin else plan.oversubscription)
    rail_ports_su = plan.su_nodes * ports_per_rail
    if rail_ports_su >= d_max:
        leaves_per_rail = ceil_div(rail_ports_su, d_max)
        rails_per_leaf = 1
        down = ceil_div(rail_ports_su, leaves_per_rail)
    else:
        rails_per_leaf = min(rails, d_max // rail_ports_su)
        leaves_per_rail = 1
        down = rails_per_leaf * rail_ports_su
    groups = ceil_div(rails, rails_per_leaf)
    per_su = groups * leaves_per_rail
    up = math.ceil(down / plan.oversubscription - 1e-9)
    sus = ceil_div(plan.nodes, plan.su_nodes)
    free_slots = sus * plan.su_nodes - plan.nodes
    fm_attached = fm_links if fm_links and free_slots * per_plane >= fm_links else 0

    shape = (groups, rails_per_leaf, rails, ports_per_rail, leaves_per_rail, down)
    loads: dict[int, int] = {}
    if sus > 1:  # every SU but the last is full, so they share one pattern
        for h in _su_loads(*shape, plan.su_nodes):
            loads[h] = loads.get(h, 0) + sus - 1
    last = list(_su_loads(*shape, plan.nodes - (sus - 1) * plan.su_nodes))
    # one UFM link per rail leaf of the first SU with a free slot: the last, partial SU
    for i in range(fm_attached):
        last[(i * leaves_per_rail) % per_su] += 1
    for h in last:
        loads[h] = loads.get(h, 0) + 1
    return Leaves(
        count=sus * per_su,
        per_su=per_su,
        down=down,
        up=up,
        sus=sus,
        loads=loads,
        fm_attached=fm_attached,
    )


@functools.lru_cache(maxsize=4096)
def _su_loads(
    groups: int,
    rails_per_leaf: int,
    rails: int,
    ports_per_rail: int,
    leaves_per_rail: int,
    down: int,
    nodes_here: int,
) -> tuple[int, ...]:
    """Host ports used on each rail leaf of a scalable unit of `nodes_here` nodes, leaf by
    leaf. Kept: a sweep over node counts asks for the same few SU shapes thousands of times."""
    used: list[int] = []
    for g in range(groups):
        rails_here = min(rails_per_leaf, rails - g * rails_per_leaf)
        group_ports = nodes_here * ports_per_rail * rails_here
        for i in range(leaves_per_rail):
            used.append(min(down, max(0, group_ports - i * down)))
    return tuple(used)


def flat_leaves(
    plan: FabricPlan, per_plane: int, radix: int, fm_links: int, thin: bool = False
) -> Leaves:
    """Leaves with no rails; `thin` as in `rail_leaves`."""
    hosts = plan.nodes * per_plane + fm_links
    if hosts <= radix and not plan.redundant:
        return Leaves(
            count=1, per_su=None, down=hosts, up=0, sus=1, loads={hosts: 1}, fm_attached=fm_links
        )
    down, up = leaf_split(radix, plan.oversubscription)
    if thin:
        down = leaf_split(radix, 1.0)[0]
        up = math.ceil(down / plan.oversubscription - 1e-9)
    if plan.leaf_uplinks:
        # the architecture's own uplink count; the access ports are what it and a leaf pair's
        # peer links leave of the split's
        up = plan.leaf_uplinks
        peer = (plan.peer_links or 0) if plan.redundant else 0
        down = min(down, radix - up - peer)
    count = ceil_div(hosts, down)
    if plan.redundant:
        # Leaves in pairs: the hosts spread over an even count of leaves, two at the least.
        count = max(2, count + count % 2)
    base, extra = divmod(hosts, count)
    # As even a spread as whole ports allow: `extra` leaves carry one port more.
    loads = {base + 1: extra} if extra else {}
    if count - extra:
        loads[base] = loads.get(base, 0) + count - extra
    return Leaves(
        count=count, per_su=None, down=down, up=up, sus=1, loads=loads, fm_attached=fm_links
    )


class Upper:
    """The tiers above the leaves: spine and core counts, and the links between them."""

    __slots__ = (
        "core_groups",
        "core_ports_used",
        "cores",
        "leaf_spine_links",
        "pair_links",
        "pods",
        "spine_capacity_links",
        "spine_core_links",
        "spine_down_loads",
        "spine_ports_used",
        "spines",
        "spines_per_pod",
        "tiers",
    )

    def __init__(
        self,
        *,
        tiers: int,
        spines: int,
        cores: int,
        pair_links: int | None,
        pods: int | None,
        spines_per_pod: int | None,
        core_groups: int | None,
        leaf_spine_links: int,
        spine_core_links: int,
        spine_ports_used: int,
        core_ports_used: int,
        spine_capacity_links: int,
        spine_down_loads: dict[int, int] | None = None,
    ) -> None:
        self.tiers = tiers
        self.spines = spines
        self.cores = cores
        self.pair_links = pair_links
        self.pods = pods
        self.spines_per_pod = spines_per_pod
        self.core_groups = core_groups
        self.leaf_spine_links = leaf_spine_links
        self.spine_core_links = spine_core_links
        self.spine_ports_used = spine_ports_used
        self.core_ports_used = core_ports_used
        self.spine_capacity_links = spine_capacity_links  # uplink capacity above the spines
        # leaf-facing ports used on a spine -> how many spines use that many (per plane), for
        # transceiver counts: the spines of a partly built pod or spine-leaf group take only the
        # links its leaves bring, not a full pod's. Empty where every spine takes the same share.
        self.spine_down_loads: dict[int, int] = spine_down_loads or {}


def upper_tiers(
    leaves: Leaves, spine_radix: int, core_radix: int, per_su: int | None, least: int = 2
) -> Upper:
    """The spines (and cores) above the leaves: the fewest, `least` at the least, that divide
    each leaf's uplinks and hold them all."""
    count, up = leaves.count, leaves.up
    if count == 1:
        return pair_upper()
    total_up = count * up
    # Never a single spine: two at the least, so no one switch carries the fabric.
    spines = smallest_divisor_at_least(up, max(2, least, ceil_div(total_up, spine_radix)))
    if spines is not None:
        return Upper(
            tiers=2,
            spines=spines,
            cores=0,
            pair_links=up // spines,
            pods=None,
            spines_per_pod=None,
            core_groups=None,
            leaf_spine_links=total_up,
            spine_core_links=0,
            spine_ports_used=total_up // spines,
            core_ports_used=0,
            spine_capacity_links=total_up,
        )
    # Three tiers: pods of leaves under spines that give half their ports to the core.
    spine_down = spine_radix // 2
    spines_per_pod = up  # the widest pod: one uplink of every leaf to each spine... or more
    leaves_per_pod = spines_per_pod * spine_down // up
    if per_su:
        leaves_per_pod -= leaves_per_pod % per_su  # pods hold whole scalable units
    if leaves_per_pod < 1:
        raise InfeasibleDesignError(
            f"a {spine_radix}-port spine cannot take {up} uplinks per leaf in a 3-tier pod",
            hint="lower the oversubscription or use a larger-radix spine",
        )
    pods = ceil_div(count, leaves_per_pod)
    spine_up = leaves_per_pod * up // spines_per_pod
    per_group = smallest_divisor_at_least(spine_up, ceil_div(pods * spine_up, core_radix))
    if per_group is None:
        hosts = core_radix * leaves_per_pod * leaves.down
        raise InfeasibleDesignError(
            f"{count} leaves exceed what a 3-tier fabric of these switches can build "
            f"({core_radix} pods of {leaves_per_pod} leaves)",
            hint=f"use more planes or a larger-radix switch; one plane serves at most {hosts} "
            "host ports",
        )
    cores = spines_per_pod * per_group
    return Upper(
        tiers=3,
        spine_down_loads=_pod_spine_loads(count, leaves_per_pod, up, spines_per_pod),
        spines=pods * spines_per_pod,
        cores=cores,
        pair_links=up // spines_per_pod,
        pods=pods,
        spines_per_pod=spines_per_pod,
        core_groups=spines_per_pod,
        leaf_spine_links=total_up,
        spine_core_links=pods * spines_per_pod * spine_up,
        spine_ports_used=min(leaves_per_pod, count) * up // spines_per_pod + spine_up,
        core_ports_used=pods * spine_up // per_group,
        spine_capacity_links=pods * spines_per_pod * spine_up,
    )


def _pod_spine_loads(leaves: int, per_pod: int, up: int, spines_per_pod: int) -> dict[int, int]:
    """Leaf-facing ports per spine, as a histogram: each pod's leaves spread their uplinks
    evenly over its spines, so a partly built last pod's spines take fewer."""
    loads: dict[int, int] = {}
    for first in range(0, leaves, per_pod):
        here = min(per_pod, leaves - first) * up // spines_per_pod
        loads[here] = loads.get(here, 0) + spines_per_pod
    return loads


def max_host_ports(radix: int, tiers: int) -> int:
    """Non-blocking fat-tree capacity of radix-k switches: k, k^2/2, k^3/4 host ports."""
    return {1: radix, 2: radix * radix // 2, 3: radix**3 // 4}[tiers]


def host_capacity(tiers: int, leaf_down: int, spine_radix: int, core_radix: int) -> int:
    """The most host ports a fat tree of this tier count serves at the leaves' split: every leaf
    reaches every spine (of its pod) at least once, so a 2-tier fabric has at most `spine_radix`
    leaves of `leaf_down` hosts each, and a 3-tier one `core_radix` pods of `spine_radix / 2`
    such leaves. At 1:1 (down = k/2) these are k^2/2 and k^3/4; oversubscribed leaves serve more."""
    if tiers == 2:
        return spine_radix * leaf_down
    if tiers == 3:
        return core_radix * (spine_radix // 2) * leaf_down
    return leaf_down


def single_tier_capacity(leaves: Leaves, radix: int, peer_links: int | None) -> int:
    """The most host ports one tier of switches serves, whatever it carries now: one switch its
    radix (one a rail, as rail leaves with no spine, each its own); a pair joined by a non-blocking inter-switch link (half its hosts' links) its radix
    too, each switch taking half the hosts and half of them again across; a pair with a fixed
    peer-link count twice the ports left beside those links."""
    if not leaves.isl:
        return leaves.count * radix
    if peer_links is not None:
        return 2 * (radix - peer_links)
    return radix


def pair_leaves(plan: FabricPlan, per_plane: int, radix: int, fm_links: int) -> Leaves | None:
    """A single-tier switch pair (per plane), as DGX BasePOD and the Enterprise RAs build small
    fabrics, or None when the hosts do not fit it.

    Every host port lands on one of the two switches, evenly. The inter-switch links carry half
    the fabric's own host links, so traffic between the halves is non-blocking (BasePOD Table 4.2:
    16 / 32 ISL links at 32 / 64 node links), or, for dual-homed hosts on an Ethernet pair, the
    pair's peer links only. Ports of other networks sharing the pair (`shared_hosts`) are
    dual-homed and add no inter-switch share."""
    own = plan.nodes * per_plane + fm_links
    hosts = own + plan.shared_hosts
    isl = plan.peer_links if plan.peer_links is not None else ceil_div(own, 2)
    high, low = ceil_div(hosts, 2), hosts // 2
    if high + isl > radix:
        return None
    loads = {high: 1}
    loads[low] = loads.get(low, 0) + 1
    return Leaves(
        count=2, per_su=None, down=high, up=0, sus=1, loads=loads, fm_attached=fm_links, isl=isl
    )


def pair_upper() -> Upper:
    """No tier above the leaves: one switch, or a pair joined by peer links."""
    return Upper(
        tiers=1,
        spines=0,
        cores=0,
        pair_links=None,
        pods=None,
        spines_per_pod=None,
        core_groups=None,
        leaf_spine_links=0,
        spine_core_links=0,
        spine_ports_used=0,
        core_ports_used=0,
        spine_capacity_links=0,
    )


def group_leaves(plan: FabricPlan, per_plane: int, radix: int) -> Leaves:
    """Leaves of the GB200 SuperPOD's spine-leaf groups: per SU and rail, one leaf per node taking
    that node's ports of the rail ("8 leaf switches (one for each compute rack)"). Part of one SU
    gets the leaves its ports need: one leaf per rail while the rail's ports fit one leaf (no
    spine), else the RA's leaf per node and rail for the nodes there are."""
    assert plan.su_nodes is not None
    rails = plan.rails or per_plane
    if per_plane % rails:
        raise RequestError(f"{per_plane} ports per node do not split into {rails} rails")
    down = per_plane // rails
    up = math.ceil(down / plan.oversubscription - 1e-9)
    if down + up > radix:
        raise RequestError(
            f"a {radix}-port leaf cannot take one node's {down} ports of a rail with {up} uplinks",
            hint="use a larger-radix switch or fewer rails",
        )
    if plan.nodes <= plan.su_nodes and plan.nodes * down <= radix:
        # Part of one SU whose rail fits one leaf: that leaf takes every node's ports of the
        # rail and needs no spine (the SU's groups are rails joined only by cores above one SU,
        # so a lone leaf per rail is its group); see `network` for the RA's full-SU guidance.
        return Leaves(
            count=rails,
            per_su=rails,
            down=plan.nodes * down,
            up=0,
            sus=1,
            loads={plan.nodes * down: rails},
            fm_attached=0,
        )
    count = plan.nodes * rails
    return Leaves(
        count=count,
        per_su=plan.su_nodes * rails,
        down=down,
        up=up,
        sus=ceil_div(plan.nodes, plan.su_nodes),
        loads={down: count},
        fm_attached=0,
    )


def group_upper(leaves: Leaves, su_nodes: int, spine_radix: int, core_radix: int) -> Upper:
    """Spines and cores of spine-leaf groups (GB200 SuperPOD RA): each group's spines keep half
    their ports for the core ("6 spine switches in each SLG ... to be attached to 6 core
    groups"), so a group has the fewest spines, dividing a leaf's uplinks, whose lower halves hold
    the group's uplinks; spine i of every group meets core group i, whose cores divide a spine's
    core links evenly. One SU needs no core."""
    rails = (leaves.per_su or su_nodes) // su_nodes
    members = min(su_nodes, leaves.count // rails)  # leaves of a full group
    group_up = members * leaves.up
    spines_per_group = smallest_divisor_at_least(
        leaves.up, max(2, ceil_div(group_up, spine_radix // 2))
    )
    if spines_per_group is None:
        raise InfeasibleDesignError(
            f"{group_up} uplinks of a spine-leaf group do not fit half-used {spine_radix}-port "
            "spines",
            hint="use a larger-radix spine switch",
        )
    groups = leaves.sus * rails
    spines = groups * spines_per_group
    spine_down = group_up // spines_per_group
    leaf_spine = leaves.count * leaves.up
    # the last SU's groups hold only its nodes' leaves: their spines take fewer leaf links
    last_members = leaves.count // rails - (leaves.sus - 1) * members
    loads = {spine_down: (groups - rails) * spines_per_group} if groups > rails else {}
    last_down = last_members * leaves.up // spines_per_group
    loads[last_down] = loads.get(last_down, 0) + rails * spines_per_group
    if leaves.sus == 1:
        return Upper(
            tiers=2,
            spine_down_loads=loads,
            spines=spines,
            cores=0,
            pair_links=leaves.up // spines_per_group,
            pods=groups,
            spines_per_pod=spines_per_group,
            core_groups=None,
            leaf_spine_links=leaf_spine,
            spine_core_links=0,
            spine_ports_used=spine_down,
            core_ports_used=0,
            spine_capacity_links=leaf_spine,
        )
    group_links = groups * spine_down  # into one core group: spine i of every group
    per_group = smallest_divisor_at_least(spine_down, ceil_div(group_links, core_radix))
    if per_group is None:
        raise InfeasibleDesignError(
            f"{groups} spine-leaf groups exceed what {core_radix}-port core groups can join",
            hint="use a larger-radix core switch or more planes",
        )
    return Upper(
        tiers=3,
        spine_down_loads=loads,
        spines=spines,
        cores=spines_per_group * per_group,
        pair_links=leaves.up // spines_per_group,
        pods=groups,
        spines_per_pod=spines_per_group,
        core_groups=spines_per_group,
        leaf_spine_links=leaf_spine,
        spine_core_links=spines * spine_down,
        spine_ports_used=2 * spine_down,
        core_ports_used=group_links // per_group,
        spine_capacity_links=spines * spine_down,
    )
