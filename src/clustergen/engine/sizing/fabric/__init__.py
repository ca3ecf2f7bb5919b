"""Fabrics: Clos rules (`clos`), a Clos network sized from a plan (`network`), the plan a
platform's compute fabric follows (`plan`), the storage fabric (`storage`), the active optical
cables a 200 Gb/s-and-below cage takes as its link ends (`cable_ends`) and the splitter cable that
joins a host cage no module fits to a switch's (`splitter_cables`).

Other packages import only the names below; the modules are this package's own.
"""

from clustergen.engine.sizing.fabric.clos import leaf_split, max_host_ports
from clustergen.engine.sizing.fabric.host_optics import (
    AccessOptics,
    accepted_forms,
    access_optics,
    fits_cage,
    host_optic,
    optics_of_kind,
    same_family,
)
from clustergen.engine.sizing.fabric.network import (
    FabricWatts,
    known_power_w,
    size_clos,
    switch_power_w,
)
from clustergen.engine.sizing.fabric.plan import (
    choose_cabling_for,
    compute_fabric,
    platform_fabric,
    platform_setup,
    resolve_fabric,
    setup_watts,
    size_setup,
)
from clustergen.engine.sizing.fabric.scale import scale_section, split_text
from clustergen.engine.sizing.fabric.splitter_cables import splitter_cable
from clustergen.engine.sizing.fabric.storage import VENDOR_MEDIA, size_storage_fabric

__all__ = [
    "VENDOR_MEDIA",
    "AccessOptics",
    "FabricWatts",
    "accepted_forms",
    "access_optics",
    "choose_cabling_for",
    "compute_fabric",
    "fits_cage",
    "host_optic",
    "known_power_w",
    "leaf_split",
    "max_host_ports",
    "optics_of_kind",
    "platform_fabric",
    "platform_setup",
    "resolve_fabric",
    "same_family",
    "scale_section",
    "setup_watts",
    "size_clos",
    "size_setup",
    "size_storage_fabric",
    "split_text",
    "splitter_cable",
    "switch_power_w",
]
