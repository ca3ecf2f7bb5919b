"""Active optical cables as a fabric's link ends: which a switch cage takes, and whose host end
is the cable's own.

NVIDIA's reference architectures cable ports of 200 Gb/s and below with active optical cables,
not a module and fiber at each end (DGX SuperPOD H100 RA, RA-11333-001 V11, Table 8: 200 Gbps
QSFP56 and 100 Gbps QSFP28 AOCs). An AOC carries one port at its full rate: a cage split into
slower ports (an HDR cage as two HDR100) takes a splitter instead, which is not this rule's. A
fabric counts an AOC per end where it counts modules (the end's power, "An HDR cable can
require 6W per port": DGX SuperPOD Data Center Design Guide, Cabling, Port Power); the cable's
host end is the cable's own end where it plugs into the host's cage, so a compute node's end
is counted as the cable's, not as a module nobody would plug in.
"""

from __future__ import annotations

from collections.abc import Sequence

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Optic, Switch
from clustergen.engine.cache import cached
from clustergen.engine.sizing.fabric.host_optics import fits_cage, same_family

#: the fastest cage the RAs cable with active optical cables (H100 RA Table 8: 200G and 100G)
AOC_MAX_CAGE_GBPS = 200.0

#: cables with their optics built in: no transceiver at either end
ACTIVE_KINDS = ("aoc", "acc")


def cable_end(
    catalog: Catalog, total_gbps: float, technology: str | None, cage_form: str | None = None
) -> Optic | None:
    """An active optical cable of `total_gbps` whose plug is of the switch cage's family,
    counted per end: how the RAs cable management-class ports of 200 Gb/s and below (H100 RA
    Table 8: QSFP56 and QSFP28 AOCs)."""

    def first() -> Optic | None:
        for optic in catalog.all(Optic):
            if optic.kind != "aoc" or optic.total_gbps != total_gbps:
                continue
            if technology and optic.technologies and technology not in optic.technologies:
                continue
            if not same_family(optic, cage_form):
                continue
            return optic
        return None

    return cached(catalog, ("cable_end", total_gbps, technology, cage_form), first)


def switch_cable_end(catalog: Catalog, sw: Switch, speed_gbps: float) -> Optic | None:
    """The active optical cable a switch's cage takes at a port speed: one of the cage's rate
    and technology, of its plug family, for a cage of 200 Gb/s or less run as one port (a cage
    split into slower ports takes a splitter). None where the rule does not apply or the
    catalog has none."""
    if sw.cage_gbps is None or sw.cage_gbps > AOC_MAX_CAGE_GBPS:
        return None
    optic = cable_end(catalog, sw.cage_gbps, sw.technology, sw.cage_form)
    if optic is None or optic.ports != sw.ports_per_cage_at(speed_gbps):
        return None
    return optic


def is_active(optic: Optic | None) -> bool:
    """Whether a part is a cable with its optics built in (an AOC or ACC)."""
    return optic is not None and optic.kind in ACTIVE_KINDS


def host_cable_end(
    switch_optic: Optic | None,
    *,
    total_gbps: float,
    ports: int,
    cage_form: str | None,
    accepts: Sequence[str] = (),
) -> Optic | None:
    """The switch side's active cable as a host's end: where it plugs into the host's cage
    (its form, or one the cage is documented to take) at the host's rate and port split. None
    where the switch side is no active cable, or it does not fit the host, or the host's cage
    is unknown (a cable picked for an unknown cage may not fit it)."""
    if not is_active(switch_optic) or switch_optic is None or not cage_form:
        return None
    if switch_optic.total_gbps != total_gbps or switch_optic.ports != ports:
        return None
    return switch_optic if fits_cage(switch_optic, cage_form, accepts) else None
