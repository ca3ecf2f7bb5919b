"""Designs that start from an installation: an increment on an existing fabric, or a fleet's
successor. Each is planned as the planner plans any request (`plan`), on the installation's
terms: the increment on the standing fabric, the successor within the fleet's envelope."""

from __future__ import annotations

import math
from collections.abc import Callable

from clustergen.catalog.architectures import Architecture
from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import System
from clustergen.engine.model.common import Assumed, Check
from clustergen.engine.model.design import Design
from clustergen.engine.model.request import EXISTING_FIELDS, DesignRequest, Fabric
from clustergen.engine.request.rules.counts import su_node_count
from clustergen.engine.sizing.bom import totals
from clustergen.engine.sizing.checks import check
from clustergen.engine.sizing.expansion import Room, added_power_w, bom_increment, fabric_room
from clustergen.errors import InfeasibleDesignError, RequestError
from clustergen.units import plural

Plan = Callable[[Catalog, DesignRequest], Design]


def _system_of(catalog: Catalog, name: str, beside: str | None) -> System:
    """A system id, or a GPU id as the system its reference architecture builds it on (the
    design's own platform when it carries that GPU)."""
    systems = catalog.all(System)
    if name in {s.id for s in systems}:
        return catalog.system(name)
    if beside and catalog.system(beside).gpu == name:
        return catalog.system(beside)
    for arch in catalog.all(Architecture):
        for sid in arch.systems:
            if catalog.system(sid).gpu == name:
                return catalog.system(sid)
    raise RequestError(f"no system in the catalog builds {name}", field="existing_platform")


def _link_gbps(system: System) -> float | None:
    return None if system.compute is None else system.compute.port_speed_gbps


def _existing_nodes(catalog: Catalog, request: DesignRequest, system: System) -> int | None:
    if request.existing_nodes:
        return request.existing_nodes
    if request.existing_gpus:
        return math.ceil(request.existing_gpus / system.gpus_per_node)
    if request.existing_sus:
        tech = request.existing_fabric or request.fabric
        return su_node_count(catalog, system.id, tech, request.existing_sus).nodes
    return None


def _standing_request(
    request: DesignRequest, system: str, nodes: int, tech: Fabric
) -> DesignRequest:
    return DesignRequest(
        platform=system,
        nodes=nodes,
        fabric=tech,
        oversubscription=request.oversubscription,
        workload=request.workload,
        storage_tier=request.storage_tier,
    )


def plan_expansion(catalog: Catalog, request: DesignRequest, plan: Plan) -> Design:
    """The increment on the existing installation: its nodes designed as any request's, the
    leaves and spines the grown fabric adds to the standing one, the parts that are new, and
    the power of both where the installation's draw is known. Refused in one line when the
    standing fabric has no room, or mixes link speeds."""
    cleared = dict.fromkeys(EXISTING_FIELDS)
    ask = request.model_copy(update=cleared)
    named = request.platform or request.gpu
    if request.existing_platform and not named:
        ask = ask.model_copy(update={"platform": request.existing_platform})
    if request.existing_fabric and not request.fabric:
        ask = ask.model_copy(update={"fabric": request.existing_fabric})
    if request.power_cap_w and request.existing_power_w and request.power_cap_basis != "facility":
        left = request.power_cap_w - request.existing_power_w
        if left <= 0:
            raise InfeasibleDesignError(
                f"the existing installation's {request.existing_power_w / 1e6:.3f} MW already "
                f"fills the {request.power_cap_w / 1e6:.3f} MW cap: nothing can be added"
            )
        ask = ask.model_copy(update={"power_cap_w": left})
    if not (ask.platform or ask.gpu):
        raise RequestError(
            "an increment on an existing installation needs the installation's platform: "
            "its nodes must match the fabric they join",
            hint='name it, e.g. "32 more DGX H100 nodes" or "our existing 512 H100 SuperPOD"',
            field="existing_platform",
        )
    increment = plan(catalog, ask)
    new = catalog.system(increment.platform.system)
    old = _system_of(catalog, request.existing_platform or new.id, new.id)
    cf = increment.fabrics.compute
    built = cf.technology if cf else None
    tech: Fabric = request.existing_fabric or ("ethernet" if built == "ethernet" else "infiniband")
    if old.id != new.id and _link_gbps(old) != _link_gbps(new):
        raise InfeasibleDesignError(
            f"{new.id} ({_link_gbps(new):g}G) cannot join the existing {old.id} fabric "
            f"({_link_gbps(old):g}G): mixing generations in one fabric needs the same link "
            "speed; build the increment as its own pod, or add more of the existing platform"
        )
    nodes = _existing_nodes(catalog, request, old)
    notes: list[Assumed] = []
    if nodes is None:
        room = None
        notes.append(
            Assumed(
                field="existing_gpus",
                value="unknown",
                reason="the existing installation's size was not stated: whether its spine "
                "has room for the increment cannot be checked",
            )
        )
        standing = grown = None
    else:
        standing = plan(catalog, _standing_request(request, old.id, nodes, tech))
        grown_nodes = nodes + math.ceil(increment.compute.nodes * _ports(new) / _ports(old))
        grown = plan(catalog, _standing_request(request, old.id, grown_nodes, tech))
        sf, gf = standing.fabrics.compute, grown.fabrics.compute
        room = fabric_room(sf, gf, request.existing_spine_free_ports) if sf and gf else None
        if room is not None and not room.fits:
            raise InfeasibleDesignError(_no_room(standing, room, increment, old, nodes))
    return _expanded(request, increment, standing, grown, room, old, nodes, notes)


def _ports(system: System) -> int:
    return max(1, system.compute.ports if system.compute else 1)


def _sus_words(d: Design, nodes: int) -> str:
    su = d.compute.su_nodes
    if su:
        return f"{plural(nodes, 'node')} ({math.ceil(nodes / su)} SU of {su})"
    return plural(nodes, "node")


def _no_room(standing: Design, room: Room, increment: Design, old: System, nodes: int) -> str:
    inc = increment.compute
    added = (
        _sus_words(standing, inc.nodes).split(" (")[0]
        if not standing.compute.su_nodes
        else (f"{math.ceil(inc.nodes / standing.compute.su_nodes)} SU")
    )
    return (
        f"the existing {room.tiers}-tier {old.id} fabric of {_sus_words(standing, nodes)} tops "
        f"out at {_sus_words(standing, room.max_nodes)}; adding {added} ({inc.gpus:,} GPUs) "
        f"{room.why}"
    )


def _expanded(
    request: DesignRequest,
    d: Design,
    standing: Design | None,
    grown: Design | None,
    room: Room | None,
    old: System,
    nodes: int | None,
    notes: list[Assumed],
) -> Design:
    """The increment's design with its fabric, servers, BOM, power and checks restated as an
    increment on the standing installation."""
    updates: dict[str, object] = {"request": request}
    reused = "fabric managers (UFM), management servers, storage and the management core"
    if standing is not None and grown is not None:
        bom = bom_increment(d.bom, standing.bom, grown.bom)
        updates["bom"], updates["bom_totals"] = bom, totals(bom)
        updates["power"] = _power(d, standing, grown)
        updates["servers"] = d.servers.model_copy(
            update={
                "fabric_managers": 0,
                "management_servers": 0,
                "basis": f"reused from the existing installation: {reused}",
            }
        )
        cf = d.fabrics.compute
        if cf is not None and room is not None:
            cf = cf.model_copy(
                update={
                    "leaf_switches": room.leaves,
                    "spine_switches": room.spines,
                    "core_switches": room.cores,
                    "total_switches": room.leaves + room.spines + room.cores,
                    "notes": [*cf.notes, _fabric_words(room)],
                }
            )
            updates["fabrics"] = d.fabrics.model_copy(update={"compute": cf})
    power = updates.get("power", d.power)
    checks = [c for c in d.checks if not c.name.startswith("power under cap")]
    checks.insert(0, _room_check(room))
    if request.power_cap_w:
        checks.insert(1, _cap_check(request, power.it_total_w))  # type: ignore[attr-defined]
    updates["checks"] = checks
    updates["notice"] = _notice(request, d, old, nodes, room, reused)
    updates["assumptions"] = [*notes, *d.assumptions]
    return d.model_copy(update=updates)


def _leaves(n: int) -> str:
    return f"{n:,} lea{'f' if n == 1 else 'ves'}"


def _fabric_words(room: Room) -> str:
    """What the increment does on the standing fabric, in words."""
    added = f"{_leaves(room.leaves)} and {plural(room.spines, 'spine')} added"
    if room.cores:
        added += f", {plural(room.cores, 'core switch')}"
    if room.spine_ports_used <= room.spine_ports_free:
        return (
            f"{added}; their uplinks take {room.spine_ports_used:,} of the standing spine "
            f"tier's {room.spine_ports_free:,} free ports"
        )
    return (
        f"{added}; the standing spines have {room.spine_ports_free:,} free ports, so every "
        f"leaf's uplinks are re-spread over the grown spine tier ({room.spine_ports_used:,} "
        "uplinks added)"
    )


def _power(d: Design, standing: Design, grown: Design) -> object:
    """The increment's IT power: its own nodes, and the fabric and management power the grown
    installation adds; reused servers and storage add nothing."""
    s, g, p = standing.power, grown.power, d.power
    terms = {
        "compute_w": p.compute_w,
        "compute_fabric_switches_w": added_power_w(
            s.compute_fabric_switches_w, g.compute_fabric_switches_w
        ),
        "compute_fabric_optics_w": added_power_w(
            s.compute_fabric_optics_w, g.compute_fabric_optics_w
        ),
        "storage_fabric_w": added_power_w(s.storage_fabric_w, g.storage_fabric_w),
        "management_network_w": added_power_w(s.management_network_w, g.management_network_w),
        "management_servers_w": 0.0,
        "storage_w": 0.0,
    }
    it = sum(v for v in terms.values() if v is not None)
    return p.model_copy(
        update={
            **terms,
            "it_total_w": it,
            "facility_total_w": it * p.pue,
            "headroom_w": None if p.cap_w is None else p.cap_w - it,
        }
    )


def _room_check(room: Room | None) -> Check:
    if room is None:
        return check(
            "existing fabric has room",
            False,
            "unknown: the existing installation's size was not stated",
            "the spine (core) tier's free ports depend on it",
            unknown=True,
        )
    return check(
        "existing fabric has room",
        room.fits,
        f"{_leaves(room.leaves)}, {plural(room.spines, 'spine')} added on the standing "
        f"{room.tiers}-tier fabric",
        f"the standing {room.tiers}-tier fabric holds up to {plural(room.max_nodes, 'node')}; "
        + _fabric_words(room),
    )


def _cap_check(request: DesignRequest, increment_w: float) -> Check:
    cap = request.power_cap_w or 0.0
    if request.existing_power_w is None:
        return check(
            "power under cap",
            False,
            f"increment {increment_w / 1e6:.3f} MW IT + the existing load (unknown) of "
            f"{cap / 1e6:.3f} MW",
            "depends on the existing installation's draw, not stated",
            unknown=True,
        )
    total = request.existing_power_w + increment_w
    return check(
        "power under cap",
        total <= cap,
        f"{total / 1e6:.3f} MW IT of {cap / 1e6:.3f} MW",
        f"existing {request.existing_power_w / 1e6:.3f} MW + increment {increment_w / 1e6:.3f} MW",
    )


def _notice(
    request: DesignRequest,
    d: Design,
    old: System,
    nodes: int | None,
    room: Room | None,
    reused: str,
) -> str:
    have = (
        f"{nodes * old.gpus_per_node:,}-GPU {old.id} installation ({plural(nodes, 'node')})"
        if nodes
        else f"{old.id} installation (size not stated)"
    )
    fabric = f"; on its {room.tiers}-tier fabric: {_fabric_words(room)}" if room else ""
    return (
        f"an expansion of the existing {have}: adds {d.compute.gpus:,} GPUs on "
        f"{plural(d.compute.nodes, d.platform.system + ' node')}{fabric}; reuses its {reused} "
        "(not quoted again)"
    )


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
    old = _system_of(catalog, old_name, None)
    gpus = request.replaced_gpus or request.gpus
    ask, notes = request, []
    if request.power_cap_w is None and gpus:
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
    d = plan(catalog, ask)
    line = _ratio_line(catalog, request, d, old, gpus, ask.power_cap_w)
    notice = "; ".join(x for x in (line, d.notice) if x)
    return d.model_copy(
        update={"notice": notice, "assumptions": [*notes, *d.assumptions], "request": request}
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
