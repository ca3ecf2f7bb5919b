"""The design's devices as sizing decided them, and where they stand.

A device group is the devices of one kind at one place in the design: the nodes, a fabric's leaf
tier, the management servers, the racks' PDUs. Each has an id that names its devices
(`device_name`) and that link ends carry (`LinkEnd.groups`), so the bill of materials, the rack
plan, the elevations, the cable schedule and the NetBox files are projections of one inventory
and never join devices by the words a BOM line uses.

A rack placement lists, rack by rack, runs of a group's devices at their U positions (a run, not a
row per device, so a design of thousands of nodes stays a small section).
"""

from enum import StrEnum
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field


class PartKind(StrEnum):
    """What a BOM line or a device is; the value is the BOM's `category` as it always read."""

    COMPUTE = "compute"
    GPU = "gpu"
    INCLUDED = "included"
    NIC = "nic"
    SWITCH = "switch"
    TRANSCEIVER = "transceiver"
    CABLE = "cable"
    MANAGEMENT_SERVER = "management-server"
    FABRIC_MANAGER = "fabric-manager"
    STORAGE = "storage"
    RACK = "rack"
    PDU = "pdu"
    CDU = "cooling"
    POWER_SHELF = "power-shelf"


#: where a device stands outside the compute racks, which names the rack it fills
Role = Literal["compute", "network", "management", "storage", "power", "cooling"]
#: the placement's rule for a device of a kind: "node" the compute racks' nodes from U2 up;
#: "tray" a rack-scale system's tray in its rack's front view; "compute-top" a share in each
#: compute rack at its top; "support" the network, management and storage racks from U3 up;
#: "row" a cabinet of its own in the compute racks' row; "vertical" beside a rack's units, in no
#: U; "none" no device of its own (inside another, or a rack, a module, a cable)
Stand = Literal["node", "tray", "compute-top", "support", "row", "vertical", "none"]


class PartSpec(NamedTuple):
    """What a part kind is to every projection (BOM, inventory, placement, rack plan, elevations,
    workbook, NetBox files, memo words): the one place a new kind is described, so no
    projection branches on kinds."""

    #: the role of a device of the kind: the rack it fills, its NetBox device role, its colour
    #: in the elevations (None: no device of its own)
    role: Role | None
    #: where a device of the kind stands (the placement's rule)
    stands: Stand
    #: it draws power the design counts: a line of it with no power leaves a gap to settle
    powered: bool
    #: the power section's field that counts it, where it has one of its own
    power_term: str | None
    #: one of the kind in words
    noun: str


#: every part kind, described once
PARTS: dict[PartKind, PartSpec] = {
    PartKind.COMPUTE: PartSpec("compute", "node", True, "compute_w", "compute node"),
    PartKind.GPU: PartSpec(None, "none", False, None, "GPU"),
    PartKind.INCLUDED: PartSpec("compute", "tray", False, None, "part inside a system"),
    PartKind.NIC: PartSpec(None, "none", False, None, "network adapter"),
    PartKind.SWITCH: PartSpec("network", "support", True, None, "switch"),
    PartKind.TRANSCEIVER: PartSpec(None, "none", True, None, "transceiver"),
    PartKind.CABLE: PartSpec(None, "none", False, None, "cable"),
    PartKind.MANAGEMENT_SERVER: PartSpec(
        "management", "support", True, "management_servers_w", "management server"
    ),
    PartKind.FABRIC_MANAGER: PartSpec(
        "management", "support", True, "management_servers_w", "fabric manager"
    ),
    PartKind.STORAGE: PartSpec("storage", "support", True, "storage_w", "storage appliance"),
    PartKind.RACK: PartSpec(None, "none", False, None, "rack"),
    PartKind.PDU: PartSpec("power", "vertical", False, None, "rack PDU"),
    PartKind.CDU: PartSpec("cooling", "row", False, None, "coolant distribution unit"),
    # a busbar rack's DC power shelves: what they deliver is the nodes' power, their conversion
    # loss within the nodes' published maximum input, as a node's own supplies' is
    PartKind.POWER_SHELF: PartSpec("power", "compute-top", False, None, "DC power shelf"),
}


class RoleSpec(NamedTuple):
    """What a role is to the pictures and files: whether racks of it get an elevation (and in
    which order), its colour there, and what one rack of it is called."""

    #: the elevations' order of rack types (None: no rack of its own, drawn in the racks it is in)
    panel: int | None
    colour: str
    #: one rack of the role in a panel's count line
    rack_noun: str
    #: the cooling words of a panel's title; None: the compute racks' own cooling
    cooling: str | None


#: every role, described once
ROLES: dict[Role, RoleSpec] = {
    "compute": RoleSpec(0, "#9ecae1", "compute rack", None),
    "cooling": RoleSpec(1, "#c6dbef", "CDU position", "in-row CDU"),
    "network": RoleSpec(2, "#a1d99b", "network rack", "air-cooled"),
    "storage": RoleSpec(3, "#fdd0a2", "storage rack", "air-cooled"),
    "management": RoleSpec(4, "#dadaeb", "management rack", "air-cooled"),
    "power": RoleSpec(None, "#fee391", "power rack", "air-cooled"),
}
#: a switch's place in its network; "rack" is an in-rack management switch
Tier = Literal["leaf", "spine", "core", "rack"]
#: who provides a device: the buyer, the system it ships in, or the storage vendor
DeviceSupply = Literal["order", "included", "storage vendor"]

#: the group ids every design uses for its one-of-a-kind groups
NODE = "node"
FABRIC_MANAGER = "fabric-manager"
MANAGEMENT_SERVER = "management-server"
STORAGE = "storage"
PDU = "pdu"
CDU = "cdu"
POWER_SHELF = "shelf"

#: the short names of the networks in group ids
_NETWORK_IDS = {
    "compute": "compute",
    "storage": "storage",
    "in-band management": "inband",
    "out-of-band management": "oob",
}


def switch_group(network: str, tier: str) -> str:
    """The id of a network's switch tier ("compute-leaf", "oob-rack")."""
    return f"{_NETWORK_IDS.get(network, network)}-{tier}"


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DeviceGroup(_M):
    """Identical devices at one place in the design."""

    id: str = Field(description="names the devices (id-001, ...; nodes node-0001, ...)")
    kind: PartKind
    name: str = Field(description="the model as a device type names it")
    role: Role
    tier: Tier | None = None
    network: str | None = Field(default=None, description="the network a switch belongs to")
    part: str | None = Field(description="catalog id; None for a generic item")
    vendor: str | None = Field(
        description="the catalog entry's vendor: one maker, a class of makers (an OEM) or None"
    )
    rack_units: int = Field(ge=0, description="height of one device (0: a vertical PDU)")
    rack_units_known: bool = Field(description="False where the height is an estimate")
    unit_power_w: float | None
    count: int = Field(ge=0)
    standing: int | None = Field(
        default=None,
        ge=0,
        description="an increment's group: the devices of it that already stand, named "
        "id-001 .. on (the new ones number on from them), neither placed nor ordered again; "
        "links of new devices may end on them",
    )
    standing_ports: int | None = Field(
        default=None,
        ge=0,
        description="an increment's group: the interfaces a standing device of it cables at "
        "most as the installation stands (its links spread evenly); a new link on one takes "
        "the next",
    )
    supply: DeviceSupply = "order"
    tray: Literal["compute", "switch", "power"] | None = Field(
        default=None, description="a rack-scale system's tray: its place in the rack's front view"
    )


class PlacedRun(_M):
    """Consecutive devices of one group in one rack, from `position` up every `pitch` U."""

    group: str
    first: int = Field(ge=1, description="index of the run's first device in its group")
    count: int = Field(ge=1)
    position: int = Field(ge=0, description="lowest U of the first device (0: not in a U)")
    pitch: int = Field(ge=0, description="U from one device's position to the next's")
    height: int = Field(
        ge=0, description="U each device takes (an estimate where its group's height is)"
    )


class PlacedRack(_M):
    """One rack, what it holds and what it draws."""

    name: str
    role: Role
    height_u: int
    runs: list[PlacedRun]
    power_w: float | None
    power_complete: bool = Field(description="False where a device's power is unknown")
    repeat: int = Field(
        default=1,
        ge=1,
        description="racks alike from this one on, numbered on from its name; each next rack's "
        "runs start past this one's devices of their group",
    )


class Inventory(_M):
    """Every device group of the design and every rack with the devices it holds."""

    groups: list[DeviceGroup]
    racks: list[PlacedRack]
    basis: str = Field(description="the placement rules")

    def group(self, group_id: str) -> DeviceGroup | None:
        return next((g for g in self.groups if g.id == group_id), None)


def device_name(group: str, index: int) -> str:
    """A device's name: its group id and its index in the group (nodes keep node-0001)."""
    return f"{group}-{index:04d}" if group == NODE else f"{group}-{index:03d}"


def unfolded(racks: list[PlacedRack]) -> list[PlacedRack]:
    """Every rack one by one: a rack that stands for `repeat` alike racks as each of them."""
    out = []
    for rack in racks:
        if rack.repeat == 1:
            out.append(rack)
            continue
        prefix, _, number = rack.name.rpartition("-")
        per: dict[str, int] = {}
        for run in rack.runs:
            per[run.group] = per.get(run.group, 0) + run.count
        for k in range(rack.repeat):
            runs = [
                run.model_copy(update={"first": run.first + k * per[run.group]})
                for run in rack.runs
            ]
            name = (
                f"{prefix}-{int(number) + k:0{len(number)}d}"
                if number.isdigit()
                else f"{rack.name}-{k + 1}"  # a name not ending in a number: numbered on
            )
            out.append(rack.model_copy(update={"name": name, "runs": runs, "repeat": 1}))
    return out
