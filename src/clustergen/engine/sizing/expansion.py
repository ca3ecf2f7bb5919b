"""An increment on an existing installation: what the grown fabric adds to the one that stands,
whether the standing spine (core) tier has room for it, and the parts and power that are new.

The rule is the architect's: the installation as it stands and as it will stand are each built
as their reference architecture builds them; the increment is the difference, less what it
reuses (fabric managers, management servers, storage), which is never quoted again."""

from __future__ import annotations

from typing import NamedTuple

from clustergen.engine.model.bom import BomLine
from clustergen.engine.model.fabric import FabricDesign
from clustergen.engine.model.inventory import PartKind

#: BOM categories the increment reuses from the installation: never quoted again
REUSED = frozenset({PartKind.FABRIC_MANAGER, PartKind.MANAGEMENT_SERVER, PartKind.STORAGE})
#: BOM categories that come with each node: the increment's own nodes, as designed
PER_NODE = frozenset({PartKind.COMPUTE, PartKind.GPU, PartKind.INCLUDED, PartKind.NIC})


class Room(NamedTuple):
    """What the increment does to the standing compute fabric."""

    fits: bool
    tiers: int
    #: nodes the standing tiers hold at most (its switches' radix at the RA's split)
    max_nodes: int
    leaves: int
    spines: int
    cores: int
    #: ports of the standing spine (core) tier the increment's uplinks take
    spine_ports_used: int
    #: free ports of the standing spine (core) tier: stated, or as the RA builds it
    spine_ports_free: int
    why: str


def _uplink_links(f: FabricDesign) -> int:
    return f.leaf_spine_links + f.spine_core_links


def fabric_room(
    standing: FabricDesign, grown: FabricDesign, stated_free_ports: int | None = None
) -> Room:
    """Whether the grown fabric is the standing one with leaves (and spines) added: the same
    tier count, within the standing tiers' host ports, and within the spine ports free."""
    per_node = max(1, standing.node_links // max(1, standing.nodes))
    max_nodes = standing.max_host_ports_at_tiers // per_node
    built = standing.spine_switches * (standing.spine_radix or 0) + standing.core_switches * (
        standing.core_radix or 0
    )
    free = (
        stated_free_ports
        if stated_free_ports is not None
        else max(0, built - _uplink_links(standing) - standing.spine_core_links)
    )
    used = max(0, _uplink_links(grown) - _uplink_links(standing))
    spines = max(0, grown.spine_switches - standing.spine_switches)
    cores = max(0, grown.core_switches - standing.core_switches)
    fits, why = True, ""
    if grown.tiers > standing.tiers:
        fits = False
        why = f"needs a {'core' if standing.tiers >= 2 else 'spine'} tier or a new pod"
    elif stated_free_ports is not None and spines + cores == 0 and used > stated_free_ports:
        fits = False
        why = f"needs {used:,} spine ports, {stated_free_ports:,} free"
    return Room(
        fits=fits,
        tiers=standing.tiers,
        max_nodes=max_nodes,
        leaves=max(0, grown.leaf_switches - standing.leaf_switches),
        spines=spines,
        cores=cores,
        spine_ports_used=used,
        spine_ports_free=free,
        why=why,
    )


def _scaled(line: BomLine, quantity: int) -> BomLine:
    """A BOM line at another quantity, its totals with it (unknown stays unknown)."""
    unit_w, unit_usd = line.unit_power_w, line.unit_price_usd
    return line.model_copy(
        update={
            "quantity": quantity,
            "total_power_w": None if unit_w is None else unit_w * quantity,
            "total_price_usd": None if unit_usd is None else unit_usd * quantity,
            "order_quantity": None if line.order_quantity is None else quantity,
        }
    )


def _key(line: BomLine) -> tuple[str, str | None, str]:
    return (str(line.category), line.part, line.name)


def _exact(line: BomLine) -> tuple[str, str | None, str, str]:
    return (*_key(line), line.description)


def bom_increment(
    increment: list[BomLine], standing: list[BomLine], grown: list[BomLine]
) -> list[BomLine]:
    """The new parts only: the increment's own nodes (as designed), and of everything else the
    grown installation's lines less the standing one's; what is reused is left out."""
    # a line is matched to the standing one of the same description first, then to what is
    # left of the same part (a description that names a count differs between the two)
    exact: dict[tuple[str, str | None, str, str], int] = {}
    for line in standing:
        exact[_exact(line)] = exact.get(_exact(line), 0) + line.quantity
    grown_lines = [ln for ln in grown if ln.category not in PER_NODE | REUSED]
    more = {}
    for i, line in enumerate(grown_lines):
        took = min(line.quantity, exact.get(_exact(line), 0))
        exact[_exact(line)] = exact.get(_exact(line), 0) - took
        more[i] = line.quantity - took
    pool: dict[tuple[str, str | None, str], int] = {}
    for key, left in exact.items():
        pool[key[:3]] = pool.get(key[:3], 0) + left
    lines = [ln for ln in increment if ln.category in PER_NODE]
    for i, line in enumerate(grown_lines):
        took = min(more[i], pool.get(_key(line), 0))
        pool[_key(line)] = pool.get(_key(line), 0) - took
        if more[i] - took > 0:
            lines.append(_scaled(line, more[i] - took))
    return lines


def added_power_w(standing: float | None, grown: float | None) -> float:
    """A power term the increment adds: the grown installation's less the standing one's (an
    unknown term adds nothing known; the caller marks the sum incomplete)."""
    return max(0.0, (grown or 0.0) - (standing or 0.0))
