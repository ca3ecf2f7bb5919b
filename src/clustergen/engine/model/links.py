"""Every link of a design with both of its ends: the port at each end, the transceiver plugged
into it (or none on a copper or active cable), and the cable between them."""

from collections.abc import Sequence
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from clustergen.factories import empty_list

#: where a link runs, which decides the cable length a buyer orders
LengthClass = Literal["in-rack", "adjacent rack", "row"]
#: who provides a part: the buyer orders it, or it comes with a system or the storage vendor's kit
Supply = Literal["order", "included", "storage vendor"]


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class LinkEnd(_M):
    """One end of a group of identical links."""

    device: str = Field(description="what the end plugs into: a node, a switch tier, a server")
    port: str = Field(description="the port or adapter at this end, with its cage form if known")
    transceiver: str | None = Field(
        description="optic id plugged at this end; None on a copper or active cable, or unknown"
    )
    transceivers: int = Field(ge=0, description="transceivers at this end over the whole group")
    ports_per_transceiver: int = Field(ge=1, default=1)
    unit_power_w: float | None = Field(
        default=None,
        description=(
            "power per transceiver as the design counts it; None where the host's own budget "
            "carries it or the catalog does not know it"
        ),
    )
    supply: Supply = "order"
    groups: list[str] = Field(
        default_factory=empty_list,
        description="the inventory's device groups this end plugs into (node, compute-leaf, ...)",
    )


class LinkGroup(_M):
    """Identical links of one fabric segment: their count, both ends and the cable."""

    fabric: str = Field(description="compute, storage, in-band management, out-of-band management")
    segment: str
    links: int = Field(ge=0)
    speed_gbps: float
    media: str = Field(description="as the fabric states it: optical, passive copper (DAC), ...")
    cable: str | None = Field(description="catalog cable id; None when no catalog cable fits")
    links_per_cable: int = Field(
        default=1,
        ge=1,
        description="links one cable carries (2 on a twin-port DAC or a 1:2 splitter fiber)",
    )
    cable_supply: Supply = "order"
    cable_power_w: float | None = Field(
        default=None,
        description="an active cable's power as the fabric counts it (its ends at the switch)",
    )
    replaced_switch_transceivers: int | None = Field(
        default=None,
        ge=0,
        description=(
            "on a splitter cable that stands in for the switch tier's modules (a host cage no"
            " module fits): how many of those modules the fabric counted for these links, which"
            " the design takes back out (at the switch end's unit_power_w); None elsewhere"
        ),
    )
    length_class: LengthClass
    a: LinkEnd
    b: LinkEnd


class End(NamedTuple):
    """A `LinkEnd` as sizing builds it: an engine record (every trade-study candidate makes
    hundreds), made the contract's `LinkEnd` once, for the design returned (`Link.contract`)."""

    device: str
    port: str
    transceiver: str | None
    transceivers: int
    ports_per_transceiver: int = 1
    unit_power_w: float | None = None
    supply: Supply = "order"
    groups: Sequence[str] = ()

    def contract(self) -> LinkEnd:
        """The contract type, validated."""
        return LinkEnd(**{**self._asdict(), "groups": list(self.groups)})


class Link(NamedTuple):
    """A `LinkGroup` as sizing builds it (see `End`); the same fields, read alike."""

    fabric: str
    segment: str
    links: int
    speed_gbps: float
    media: str
    cable: str | None
    length_class: LengthClass
    a: End
    b: End
    links_per_cable: int = 1
    cable_supply: Supply = "order"
    cable_power_w: float | None = None
    replaced_switch_transceivers: int | None = None

    def contract(self) -> LinkGroup:
        """The contract type, validated."""
        return LinkGroup(**{**self._asdict(), "a": self.a.contract(), "b": self.b.contract()})


def record(g: LinkGroup) -> Link:
    """A contract `LinkGroup` as sizing's record again (the BOM's line builders read these):
    what an increment's links, taken from the grown installation's, are priced from."""

    def end(e: LinkEnd) -> End:
        return End(**{**e.model_dump(), "groups": tuple(e.groups)})

    return Link(**{**g.model_dump(exclude={"a", "b"}), "a": end(g.a), "b": end(g.b)})
