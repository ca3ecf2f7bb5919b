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
from typing import Literal

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


#: where a device stands outside the compute racks, which names the rack it fills
Role = Literal["compute", "network", "management", "storage", "power", "cooling"]
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
