"""NetBox device types for the rack plan's devices, so `rack_plan.csv` and `netbox_cables.csv`
import as they are: every device names a device type NetBox knows, every cable end one of its
interfaces.

Rules:
- a part the community device-type library (netbox-community/devicetype-library) has, and has
  right, is named as the library names it: manufacturer `Nvidia`, its model, its interfaces
  (`LIBRARY`; import the library's YAML);
- a part it lacks (DGX and HGX systems, rack-scale trays, UFM and control-plane servers, storage
  appliances, PDUs, CDUs) or has wrong (its QM9700 lists 62 of the switch's 64 ports: P22.1 and
  P23.0 are missing) gets a device type in the library's schema, shipped in the bundle
  (`netbox_device_types.yaml`), its interfaces p1, p2, ... as many as the design cables;
- a device whose maker is still to choose (an OEM class, a generic unit) names the placeholder
  manufacturer `Maker to choose`, its model the catalog's name.
"""

from __future__ import annotations

from collections.abc import Callable

from clustergen.engine.model.inventory import DeviceGroup

#: what the catalog leaves open: the maker of an OEM class or a generic unit
TO_CHOOSE = "to choose"

#: NetBox's manufacturer for NVIDIA, as the library spells it
NVIDIA = "Nvidia"
#: the placeholder manufacturer of a device whose maker is to choose
PLACEHOLDER_MAKER = "Maker to choose"
LIBRARY_URL = "https://github.com/netbox-community/devicetype-library/tree/master/device-types"


class LibraryType:
    """A device type as the community library has it: its model and its data interfaces."""

    __slots__ = ("interface", "model", "ports", "u_height")

    def __init__(self, model: str, u_height: int, ports: int, interface: Callable[[int], str]):
        self.model = model
        self.u_height = u_height
        self.ports = ports
        self.interface = interface


def _swp(n: int) -> str:
    return f"swp{n}"


def _twin(n: int) -> str:
    """The Q3400-RA's n-th port: twin-port cage (n + 1) // 2, port 1 or 2 in it."""
    return f"sw{(n + 1) // 2}p{2 - n % 2}"


#: catalog switch id -> the library's device type (Nvidia/<model>.yaml), checked against the
#: library's YAML: SN2201 swp1-swp52, SN5600 and SN5610 swp1-swp64, Q3400-RA sw1p1-sw72p2
LIBRARY = {
    "sn2201": LibraryType("SN2201", 1, 52, _swp),
    "sn5600": LibraryType("SN5600", 2, 64, _swp),
    "sn5610": LibraryType("SN5610", 2, 64, _swp),
    "q3400": LibraryType("Q3400-RA", 4, 144, _twin),
}


def maker(group: DeviceGroup | None) -> str:
    """The maker a device row names: the catalog entry's vendor where it is one maker; "to
    choose" where the group names no catalog vendor or its vendor is a class of makers (an OEM,
    a generic unit), as the BOM leaves it for the buyer to settle."""
    vendor = group.vendor if group is not None else None
    if not vendor or vendor.lower() == "generic" or "OEM" in vendor.split() or "(OEM)" in vendor:
        return TO_CHOOSE
    return vendor


def manufacturer(group: DeviceGroup) -> str:
    """The NetBox manufacturer of a group's devices."""
    made = maker(group)
    if made == TO_CHOOSE:
        return PLACEHOLDER_MAKER
    return NVIDIA if made.upper() == "NVIDIA" else made


def library_type(group: DeviceGroup, cabled: int = 0) -> LibraryType | None:
    """The library's device type of a group's part, where the library has it right and its
    interfaces hold the `cabled` ports a device of the group uses (a port broken out past the
    library's cages is a device type of our own)."""
    lib = LIBRARY.get(group.part or "") if manufacturer(group) == NVIDIA else None
    return lib if lib is not None and cabled <= lib.ports else None


def model(group: DeviceGroup, cabled: int = 0) -> str:
    """The device type's model name: the library's, else the catalog's (a switch whose ports
    are broken out past the library's cages says how many it cables)."""
    lib = library_type(group, cabled)
    if lib is not None:
        return lib.model
    known = LIBRARY.get(group.part or "") if manufacturer(group) == NVIDIA else None
    return f"{known.model} ({cabled} ports broken out)" if known else group.name


def interface(group: DeviceGroup, port: int, cabled: int = 0) -> str:
    """The name of a device's port-th cabled interface."""
    lib = library_type(group, cabled)
    return lib.interface(port) if lib else f"p{port}"


def _slug(text: str) -> str:
    out = "".join(c if c.isalnum() else "-" for c in text.lower())
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-")


def device_types_yaml(groups: list[DeviceGroup], ports: dict[str, int]) -> str:
    """The device types the bundle ships (every group's the library lacks or has wrong), in the
    library's schema, one YAML document each; `ports`: the most interfaces a device of each
    group cables."""
    groups = [g for g in groups if g.id in ports]
    library = sorted(
        {f"Nvidia/{t.model}.yaml" for g in groups if (t := library_type(g, ports[g.id]))}
    )
    docs = [
        "# NetBox device types for this design's devices that the community library lacks or "
        "has wrong, in the library's schema"
        + (f"; import these and, from {LIBRARY_URL}: {', '.join(library)}" if library else "")
    ]
    seen: set[tuple[str, str]] = set()
    for g in groups:
        if library_type(g, ports[g.id]) is not None:
            continue
        key = (manufacturer(g), model(g, ports[g.id]))
        if key in seen:
            continue
        seen.add(key)
        n = max(ports[h.id] for h in groups if (manufacturer(h), model(h, ports[h.id])) == key)
        lines = [
            "---",
            f"manufacturer: {_quoted(key[0])}",
            f"model: {_quoted(key[1])}",
            f"slug: {_slug(key[0] + ' ' + key[1])}",
            f"u_height: {g.rack_units}",
            "is_full_depth: true",
            f"comments: {_quoted(_comment(g))}",
        ]
        if n:
            lines.append("interfaces:")
            for p in range(1, n + 1):
                lines += [f"  - name: p{p}", "    type: other"]
        docs.append("\n".join(lines))
    return "\n".join(docs) + "\n"


def _comment(g: DeviceGroup) -> str:
    why = (
        "the library's QM9700 lists 62 of its 64 ports"
        if g.part == "qm9700"
        else "not in the community device-type library"
    )
    height = "" if g.rack_units_known else "; height an estimate"
    return f"clustergen: {g.name} ({g.part or 'no catalog part'}); {why}{height}"


def _quoted(text: str) -> str:
    """A YAML double-quoted scalar: no text a design carries can end the string."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + "".join(c if c.isprintable() else " " for c in escaped) + '"'
