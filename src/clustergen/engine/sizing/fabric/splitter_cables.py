"""The splitter cable that joins a host's cage to a switch's where no module fits the host.

An NDR switch's twin-port OSFP cage takes no module that links to an HDR200 QSFP56 port: HDR
runs on 50G-PAM4 lanes, NDR modules on 100G-PAM4, and the NDR modules cannot downshift. NVIDIA
makes cables for it instead, a twin-port OSFP head to two QSFP56 split ends ("These AOCs are the
only cables that can link NDR/400GbE to HDR/200GbE systems": LinkX 100G-PAM4 Product Line
Overview). The DGX SuperPOD H100 RA cables its BCM servers' HDR200 ports so (Table 8: "4 x HDR
400 Gbps to 2x200 Gbps, Slurm management"). Such a cable carries no transceiver at either end
and carries as many links as it has split ends.
"""

from __future__ import annotations

from collections.abc import Sequence

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Optic
from clustergen.engine.sizing.fabric.host_optics import fits_cage, same_family

#: cables that carry no transceiver at either end
_CABLE_KINDS = ("dac", "acc", "aoc")


def splitter_cable(
    catalog: Catalog,
    *,
    rate_gbps: float,
    host_cage: str | None,
    host_accepts: Sequence[str],
    switch_cage: str | None,
    technology: str | None,
    row_length: bool,
) -> Optic | None:
    """The catalog's splitter cable whose split ends fit the host's cage (its own form or one it
    is documented to take) at the link's rate and whose head is of the switch cage's family;
    None when either cage is unknown (a cable picked for an unknown cage may not fit it) or no
    cable fits. A link to another rack (`row_length`) takes an active cable first: passive
    copper splitters are made 1 to 2 m long (MCP7Y60-Hxxx product specifications, Introduction:
    30AWG for the 1 and 1.5 m lengths, 26AWG for 2 m)."""
    if not host_cage or not switch_cage:
        return None
    fits = [
        o
        for o in catalog.all(Optic)
        if o.kind in _CABLE_KINDS
        and o.split_end_form
        and o.ports > 1
        and o.port_speed_gbps == rate_gbps
        and fits_cage(o, host_cage, host_accepts)
        and same_family(o, switch_cage)
        and (not technology or not o.technologies or technology in o.technologies)
    ]
    fits.sort(key=lambda o: ((o.kind == "dac") == row_length, o.id))
    return fits[0] if fits else None
