"""What each scalable unit of a compute fabric holds, as the design counts it: the topology
draws these, so its boxes and edges add up to `design.json`'s fabric.

- Leaves: every SU but the last has the SU's full set (`leaves_per_su`); the last has what is
  left of the fabric's leaves. A part-built last SU of the GB200 SuperPOD's spine-leaf groups has
  one leaf per rack and rail, fewer than a full SU; a rail-optimized SU keeps its full set.
- Leaf-spine links: every leaf of a fabric has the same uplinks, so an SU's share of the
  fabric's leaf-spine links follows its leaves, not its nodes.
- Node links per plane: a node's ports split over the planes, or, in a twin-planar fabric where
  every port is broken out into one lane per plane, all of them in every plane at the lane speed.
- Fabric-manager links land on the leaves of the last SU (the one with a free node slot).
"""

from __future__ import annotations

from typing import NamedTuple

from clustergen.engine.model.design import Design
from clustergen.engine.model.fabric import FabricDesign


class SuCounts(NamedTuple):
    """One scalable unit (or the whole fabric where it has none), per plane."""

    nodes: int
    leaves: int = 0
    node_links: int = 0
    uplinks: int = 0
    fabric_manager_links: int = 0


def su_sizes(d: Design, f: FabricDesign) -> list[int]:
    """Nodes in each scalable unit: full ones, the last holding what is left."""
    su = f.su_nodes or d.compute.nodes
    sizes, left = [], d.compute.nodes
    while left > 0:
        sizes.append(min(su, left))
        left -= su
    return sizes or [0]


def apportion(total: int, weights: list[int]) -> list[int]:
    """`total` split in proportion to `weights`, whole numbers that add up to it (largest
    remainder; ties to the first)."""
    whole = sum(weights)
    if whole <= 0:
        return [0] * len(weights)
    shares = [total * w // whole for w in weights]
    rest = total - sum(shares)
    order = sorted(range(len(weights)), key=lambda i: (-(total * weights[i] % whole), i))
    for i in order[:rest]:
        shares[i] += 1
    return shares


def _leaves(f: FabricDesign, sizes: list[int]) -> list[int]:
    per_plane = f.leaf_switches // max(1, f.planes)
    full = f.leaves_per_su
    if len(sizes) == 1:
        return [per_plane]
    last = per_plane - (len(sizes) - 1) * (full or 0)
    if full and last >= 1:
        return [full] * (len(sizes) - 1) + [last]
    return apportion(per_plane, sizes)  # no per-SU figure that adds up: by nodes


def su_counts(d: Design, f: FabricDesign) -> list[SuCounts]:
    """Per scalable unit, in order: nodes, leaves, node links, leaf-spine links and
    fabric-manager links, each per plane; summed over the SUs (and planes) they are the
    fabric's own figures."""
    sizes = su_sizes(d, f)
    planes = max(1, f.planes)
    leaves = _leaves(f, sizes)
    per_node = f.node_links / max(1, d.compute.nodes)
    lanes = per_node if f.plane_split else per_node / planes
    node_links = apportion(round(d.compute.nodes * lanes), sizes)
    uplinks = apportion(f.leaf_spine_links // planes, leaves)
    fm = [0] * len(sizes)
    fm[-1] = f.fabric_manager_links // planes
    return [
        SuCounts(n, leaf, links, up, m)
        for n, leaf, links, up, m in zip(sizes, leaves, node_links, uplinks, fm, strict=True)
    ]


def merged(counts: list[SuCounts]) -> SuCounts:
    """Several SUs drawn as one box: their figures added up."""
    return SuCounts(
        nodes=sum(c.nodes for c in counts),
        leaves=sum(c.leaves for c in counts),
        node_links=sum(c.node_links for c in counts),
        uplinks=sum(c.uplinks for c in counts),
        fabric_manager_links=sum(c.fabric_manager_links for c in counts),
    )
