"""The storage fabric: node leaves, storage leaves and the spines both share.

NVIDIA's DGX SuperPOD H100 RA (RA-11333-001 V11, Storage Fabric) builds it from two kinds of leaf:
the DGX systems' storage ports land on node leaves that are "slightly oversubscribed with a ratio
near 4:3", and "the storage devices are connected at a 1:1 port to uplink ratio" on leaves of their
own. Its 4-SU bill (Tables 7 and 8) fixes the layout: two node leaves per SU (32 ports down, 24 up),
one storage leaf per SU, and four spines: 16 switches, 494 node and leaf-spine cables. The rules:

- node leaves: the Clos rules of `size_clos` over the nodes' storage ports, one set per scalable
  unit (a partly filled SU still gets its leaves, as the RA asks of every fabric);
- storage leaves: `storage_leaves_per_su` per SU, or more when the storage ports need them, each
  with as many uplinks as storage ports (1:1), rounded up so they spread evenly over the spines;
- spines: the fewest that divide the node leaves' uplinks and hold every leaf's uplinks.

Where an architecture gives no `storage_leaves_per_su`, or the two leaf kinds would need a third
tier, the storage ports share the node leaves of one flat Clos fabric instead.
"""

from __future__ import annotations

from clustergen.catalog.architectures import FabricSpec
from clustergen.catalog.models import Switch
from clustergen.engine.model.fabric import (
    CableLine,
    Cabling,
    FabricDesign,
    FabricPlan,
    FabricPower,
    TransceiverLine,
)
from clustergen.engine.sizing.fabric.clos import host_capacity, leaf_split
from clustergen.engine.sizing.fabric.network import size_clos, switch_power_w
from clustergen.units import ceil_div, divisors, ratio

#: the storage-leaf segment's media: the appliances' cables are the storage vendor's choice
VENDOR_MEDIA = "chosen with the storage system"


def size_storage_fabric(
    spec: FabricSpec,
    switch: Switch,
    cabling: Cabling,
    *,
    nodes: int,
    ports_per_node: int,
    port_speed_gbps: float,
    su_nodes: int | None,
    storage_ports: int,
    fabric_manager_links: int = 0,
    spines: int | None = None,
) -> FabricDesign:
    """Size the storage fabric for `nodes` nodes, `storage_ports` storage-device ports and the
    links of the fabric managers that manage it (an InfiniBand storage fabric's own UFM pair:
    H100 RA Table 8's storage transceivers count its 4 UFM links); `spines` the spines a
    published table gives (None: the fewest that hold the uplinks)."""
    if spec.storage_leaves_per_su is not None and su_nodes is not None:
        split = _split_fabric(
            spec,
            switch,
            cabling,
            nodes=nodes,
            ports_per_node=ports_per_node,
            speed=port_speed_gbps,
            su_nodes=su_nodes,
            storage_ports=storage_ports,
            fabric_manager_links=fabric_manager_links,
        )
        if split is not None:
            return split
    plan = FabricPlan(
        nodes=nodes * ports_per_node + storage_ports,
        ports_per_node=1,
        port_speed_gbps=port_speed_gbps,
        oversubscription=spec.oversubscription,
        redundant=spec.redundant,
        peer_links=spec.peer_links,
        leaf_uplinks=spec.uplinks_per_leaf,
        fabric_manager_links=fabric_manager_links,
        spines=spines,
    )
    flat = size_clos(plan, switch, switch, switch, cabling)
    return flat.model_copy(
        update={
            "notes": [
                *flat.notes,
                f"storage ports share the node leaves: {nodes * ports_per_node} node ports and "
                f"{storage_ports} storage ports as one {ratio(spec.oversubscription)} Clos fabric",
            ]
        }
    )


class _StorageLeaves:
    """Storage leaves at 1:1 and the spines they share with the node leaves."""

    __slots__ = ("count", "down", "spines", "up")

    def __init__(self, *, count: int, down: int, up: int, spines: int) -> None:
        self.count = count
        self.down = down  # storage ports per leaf
        self.up = up
        self.spines = spines


def _storage_leaves(
    spec: FabricSpec, node_part: FabricDesign, storage_ports: int
) -> _StorageLeaves | None:
    """The fewest spines that divide the node leaves' uplinks and hold every leaf's uplinks, the
    storage leaves' uplinks rounded up to spread evenly over them; None when no count does."""
    assert spec.storage_leaves_per_su is not None
    radix = node_part.leaf_radix
    node_leaves, node_up = node_part.leaf_switches, node_part.leaf_uplinks
    one_to_one_down, _ = leaf_split(radix, 1.0)
    count = max(
        spec.storage_leaves_per_su * node_part.scalable_units,
        ceil_div(storage_ports, one_to_one_down),
    )
    down = ceil_div(storage_ports, count)
    for s in divisors(node_up):
        up = ceil_div(down, s) * s
        if down + up <= radix and s * radix >= node_leaves * node_up + count * up:
            return _StorageLeaves(count=count, down=down, up=up, spines=s)
    return None


def _transceivers(
    node_part: FabricDesign,
    storage: _StorageLeaves,
    storage_ports: int,
    spine_used: int,
    sw: Switch,
    cabling: Cabling,
    speed: float,
) -> list[TransceiverLine]:
    ppc = sw.ports_per_cage_at(speed) if cabling.switch_optic else 1
    # Every port a link uses has its end at the switch, as on the node leaves: the storage
    # devices' ends are their vendor's to supply (H100 RA Table 8, note 2: the cables depend on
    # the storage chosen) but draw at the switch; the management servers' are ordered. The
    # storage ports spread evenly over the storage leaves, each leaf's modules its own.
    base, extra = divmod(storage_ports, storage.count)
    down_xcvr = extra * ceil_div(base + 1, ppc) + (storage.count - extra) * ceil_div(base, ppc)
    storage_leaf_xcvr = storage.count * ceil_div(storage.up, ppc) + down_xcvr
    spine_xcvr = storage.spines * ceil_div(spine_used, ppc)
    transceivers: list[TransceiverLine] = []
    for t in node_part.transceivers:
        if t.location == "leaf":
            count = t.count + storage_leaf_xcvr
        elif t.location == "spine":
            count = spine_xcvr
        else:
            count = t.count
        unit = t.unit_power_w
        transceivers.append(
            t.model_copy(update={"count": count, "power_w": None if unit is None else unit * count})
        )
    return transceivers


def _manager_ends(cabling: Cabling, fm: int) -> list[TransceiverLine]:
    """The fabric managers' own ends of their storage-leaf links (ordered with the fabric)."""
    optic = cabling.fabric_manager_optic
    if not fm or optic is None:
        return []
    unit = optic.power_w
    return [
        TransceiverLine(
            location="fabric-manager",
            optic=optic.id,
            count=fm,
            unit_power_w=unit,
            power_w=None if unit is None else unit * fm,
        )
    ]


def _cables(
    node_part: FabricDesign, storage_ports: int, leaf_spine: int, speed: float, fm: int = 0
) -> list[CableLine]:
    cables = [c for c in node_part.cables if c.segment != "leaf-spine"]
    cables.append(
        CableLine(
            segment="storage-leaf",
            media=VENDOR_MEDIA,
            speed_gbps=speed,
            count=storage_ports,
        )
    )
    media = next((c.media for c in node_part.cables if c.segment == "node-leaf"), "optical")
    if fm:
        cables.append(
            CableLine(segment="fabric-manager-leaf", media=media, speed_gbps=speed, count=fm)
        )
    cables.append(CableLine(segment="leaf-spine", media=media, speed_gbps=speed, count=leaf_spine))
    return cables


def _power(
    node_part: FabricDesign, sw: Switch, switches: int, transceivers: list[TransceiverLine]
) -> FabricPower:
    switch_w = switch_power_w(sw)
    switches_w = None if switch_w is None else switch_w * switches
    optics = [t.power_w for t in transceivers]
    optics_w = None if any(p is None for p in optics) else float(sum(p or 0.0 for p in optics))
    return node_part.power.model_copy(
        update={
            "switches_w": switches_w,
            "optics_w": optics_w,
            "total_w": None if switches_w is None or optics_w is None else switches_w + optics_w,
            "known_w": (switches_w or 0.0) + sum(p for p in optics if p is not None),
        }
    )


def _split_fabric(
    spec: FabricSpec,
    sw: Switch,
    cabling: Cabling,
    *,
    nodes: int,
    ports_per_node: int,
    speed: float,
    su_nodes: int,
    storage_ports: int,
    fabric_manager_links: int = 0,
) -> FabricDesign | None:
    """Node leaves per SU at the spec's ratio, storage leaves at 1:1, shared spines; None when
    the spines would need a third tier."""
    node_part = size_clos(
        FabricPlan(
            nodes=nodes,
            ports_per_node=ports_per_node,
            port_speed_gbps=speed,
            rails=1,
            su_nodes=su_nodes,
            oversubscription=spec.oversubscription,
        ),
        sw,
        sw,
        sw,
        cabling,
    )
    if node_part.tiers != 2:
        return None
    # the fabric managers' links land on the storage leaves beside the storage devices (1:1)
    fm = fabric_manager_links
    storage = _storage_leaves(spec, node_part, storage_ports + fm)
    if storage is None:
        return None
    node_leaves, node_up = node_part.leaf_switches, node_part.leaf_uplinks
    spines = storage.spines
    leaf_spine = node_leaves * node_up + storage.count * storage.up
    spine_used = leaf_spine // spines
    leaves = node_leaves + storage.count
    transceivers = _transceivers(
        node_part, storage, storage_ports + fm, spine_used, sw, cabling, speed
    )
    transceivers += _manager_ends(cabling, fm)
    host_links = node_part.node_links + storage_ports + fm
    return node_part.model_copy(
        update={
            "leaf_switches": leaves,
            "spine_switches": spines,
            "total_switches": leaves + spines,
            "links_per_leaf_spine_pair": node_up // spines,
            "host_links": host_links,
            "leaf_spine_links": leaf_spine,
            "total_links": host_links + leaf_spine,
            "host_port_capacity": node_part.host_port_capacity + storage.count * storage.down,
            "max_host_ports_at_tiers": host_capacity(
                2, node_part.leaf_downlinks, node_part.leaf_radix, node_part.leaf_radix
            ),
            "bisection_bandwidth_gbps": min(host_links, leaf_spine) * speed / 2,
            "max_ports_used": {
                "leaf": max(node_part.max_ports_used["leaf"], storage.down + storage.up),
                "spine": spine_used,
                "core": 0,
            },
            "transceivers": transceivers,
            "fabric_manager_links": fm,
            "cables": _cables(node_part, storage_ports, leaf_spine, speed, fm),
            "power": _power(node_part, sw, leaves + spines, transceivers),
            "notes": [
                *node_part.notes,
                f"{node_leaves} node leaves ({node_part.leaves_per_su} per SU, "
                f"{node_part.leaf_downlinks} down : {node_up} up) and {storage.count} storage "
                f"leaves ({storage.down} storage ports : {storage.up} up, at least 1:1) under "
                f"{spines} spines",
            ],
        }
    )
