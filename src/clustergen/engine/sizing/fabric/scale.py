"""Scale: how a large compute fabric is split, and when a design is past what an RA publishes or
site-scale.

- Split: a 3-tier fat tree is pods (leaves and spines) under core groups; planes are identical
  independent fabrics. The split is the one the fabric is built as, so its switch counts are the
  pods', planes' and cores' counts, stated per pod.
- Beyond the RA: a cluster of more nodes than its reference architecture publishes a design for
  (`published_max_nodes`, with its source) says so in its first lines, with the split.
- Site scale: compute power past the largest cluster an NVIDIA RA in the catalog publishes (its
  published maximum nodes at its systems' maximum power, so no published design trips it) is a
  site of its own: several data halls, single-mode optics between them, and utility and
  substation planning.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clustergen.catalog.architectures import Architecture
from clustergen.catalog.loader import Catalog
from clustergen.engine.cache import cached
from clustergen.engine.model.fabric import FabricDesign
from clustergen.units import ceil_div, plural, watts

if TYPE_CHECKING:  # `fabric` and `power` size a fabric without building the design model
    from clustergen.engine.model.design import ScaleSection


def split_text(f: FabricDesign | None, nodes: int) -> tuple[str, int | None, int | None]:
    """(the split in words, pods, nodes a pod holds at most)."""
    if f is None:
        return "no compute fabric", None, None
    planes = f" on each of {f.planes} planes" if f.planes > 1 else ""
    if f.tiers < 3 or not f.pods:
        text = f"one {f.tiers}-tier fabric{planes}"
        return text, None, None
    pod_nodes = ceil_div(nodes, f.pods)
    leaves = ceil_div(f.leaf_switches, max(1, f.planes * f.pods))
    units = ""
    if f.su_nodes and f.leaves_per_su and leaves % f.leaves_per_su == 0:
        # a rail-optimized pod holds whole SUs: its leaves are the SUs' rail leaves
        sus = leaves // f.leaves_per_su
        pod_nodes = sus * f.su_nodes
        units = f", {plural(sus, 'SU')} of {f.su_nodes}"
    cores = f.core_switches // max(1, f.planes * (f.core_groups or 1))
    text = (
        f"{f.pods:,} pods of up to {leaves:,} leaves + {f.spines_per_pod or 0:,} spines (up to "
        f"{pod_nodes:,} nodes{units} a pod) under {plural(f.core_groups or 0, 'core group')} of "
        f"{cores:,}{planes}"
    )
    return text, f.pods, pod_nodes


def largest_published(catalog: Catalog) -> tuple[float, str]:
    """The compute power of the largest cluster an RA in the catalog publishes (its published
    maximum nodes at its systems' maximum node power), and that in words."""

    def build() -> tuple[float, str]:
        best, text = 0.0, ""
        for a in catalog.all(Architecture):
            if a.published_max_nodes is None:
                continue
            for sid in a.systems:
                s = catalog.system(sid)
                if s.max_power_w and a.published_max_nodes * s.max_power_w > best:
                    best = a.published_max_nodes * s.max_power_w
                    text = (
                        f"{a.name}: {a.published_max_nodes:,} x {s.id} at "
                        f"{watts(s.max_power_w)} = {watts(best)} of nodes"
                    )
        return best, text

    return cached(catalog, ("largest-published-cluster",), build)


def _site_caveat(catalog: Catalog, compute_w: float, it_w: float, facility_w: float) -> str | None:
    limit_w, basis = largest_published(catalog)
    if not limit_w or compute_w <= limit_w:
        return None
    blocks = ceil_div(round(compute_w), round(limit_w))
    return (
        f"site-scale: {watts(compute_w)} of nodes ({watts(it_w)} IT, {watts(facility_w)} "
        f"facility) is past the largest cluster an NVIDIA RA publishes ({basis}); plan it as a "
        f"site: at least {blocks} data halls of that size, single-mode optics for the links "
        "between halls (beyond in-row reach), and utility and substation capacity for the "
        "facility power"
    )


def scale_section(
    catalog: Catalog,
    arch: Architecture | None,
    f: FabricDesign | None,
    nodes: int,
    power: tuple[float, float, float],
) -> ScaleSection | None:
    """The scale statement of a design past its RA's published size or past site scale (`power`:
    its compute, IT and facility watts); None for one within both."""
    ra_max = arch.published_max_nodes if arch else None
    beyond = ra_max is not None and nodes > ra_max
    site = _site_caveat(catalog, *power)
    if not beyond and site is None:
        return None
    split, pods, pod_nodes = split_text(f, nodes)
    parts = []
    if beyond and arch is not None and ra_max is not None:
        parts.append(
            f"{nodes:,} nodes is {nodes / ra_max:,.1f}x the largest cluster {arch.name} publishes "
            f"({ra_max:,} nodes); no RA gives this split, so the compute fabric is built as "
            f"{split}"
        )
    if site:
        parts.append(site)
    basis = (
        f"published maximum: {arch.id} published_max_nodes" if arch and ra_max else "no RA maximum"
    ) + f"; site scale: past {largest_published(catalog)[1]}"
    from clustergen.engine.model.design import ScaleSection

    return ScaleSection(
        ra_max_nodes=ra_max,
        beyond_ra=beyond,
        pods=pods,
        pod_nodes=pod_nodes,
        planes=f.planes if f else 1,
        split=split,
        site_scale=site is not None,
        caveat="; ".join(parts),
        basis=basis,
    )
