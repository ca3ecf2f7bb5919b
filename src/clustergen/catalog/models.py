"""Pydantic models for every catalog file.

Every entry names where its values came from (`source`, `as_of`); a value whose source differs from
the entry's is listed in `field_sources`. Unknown facts are `None`, never guessed. Units are in the
field names.
"""

import datetime as dt
import re
from collections.abc import Iterator
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from clustergen.catalog.ranges import (
    ASSUMPTION_RANGES,
    DeviceWatts,
    Gbps,
    PortCount,
    Rate,
    Watts,
)
from clustergen.catalog.refs import Ref, Reference, references
from clustergen.factories import empty_dict, empty_list

#: the kinds, exported by the package as well (a new kind is added here too)
__all__ = [
    "Assumption",
    "Cage",
    "Cdu",
    "Gpu",
    "Nic",
    "Optic",
    "RackType",
    "StorageModel",
    "StorageTier",
    "Switch",
    "System",
]

Slug = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9.+-]*$", max_length=64)]
AsOf = Annotated[str, Field(pattern=r"^\d{4}-\d{2}(-\d{2})?$", description="YYYY-MM or YYYY-MM-DD")]


_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def normalise_name(text: str) -> str:
    """Fold a product name for forgiving look-up: case, punctuation and a leading vendor go."""
    folded = _NON_ALNUM.sub("", text.lower())
    for vendor in ("nvidia", "mellanox", "amd", "instinct"):
        if folded.startswith(vendor) and len(folded) > len(vendor):
            folded = folded[len(vendor) :]
    return folded


#: catalog kind (its file stem) -> the model of its entries, in the order the kinds are defined.
#: A class joins by naming its kind: `class Cdu(Entry, kind="cdus", file="cdus.yaml", noun="CDU")`;
#: the loader's files, `Catalog.get(Cdu, name)` and `Catalog.all(Cdu)` follow from it.
KINDS: "dict[str, type[Entry]]" = {}


class Strict(BaseModel):
    """Base for catalog models: unknown fields are errors, values are immutable, and numbers are
    finite (YAML's .inf and .nan are not facts)."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


#: what kind of evidence a value is (mlsysim's ProvenanceKind): a vendor's published document
#: (datasheet, manual, reference architecture), a paper or a secondary reading of one, a figure
#: estimated from something else, or one worked out by arithmetic from cited figures
ProvenanceKind = Literal["datasheet", "literature", "estimate", "derived"]


class FieldSource(Strict):
    """Where one field's value came from, and what kind of evidence it is.

    A cited value (datasheet, literature) names its `source`; an estimate or a derivation states
    its `basis` (what it rests on), never left for the reader to guess. In YAML a plain string is
    a datasheet citation: `max_power_w: "DGX H100 User Guide, Specifications"`.
    """

    kind: ProvenanceKind
    source: str | None = Field(default=None, min_length=3)
    basis: str | None = Field(default=None, min_length=3)

    @model_validator(mode="before")
    @classmethod
    def _plain_citation(cls, v: object) -> object:
        return {"kind": "datasheet", "source": v} if isinstance(v, str) else v

    @model_validator(mode="after")
    def _evidence_fits_kind(self) -> "FieldSource":
        if self.kind in ("estimate", "derived") and not self.basis:
            raise ValueError(f"kind {self.kind} needs a basis: what the value rests on")
        if self.kind in ("datasheet", "literature") and not self.source:
            raise ValueError(f"kind {self.kind} needs a source: document and section, or URL")
        return self

    def __str__(self) -> str:
        return " ".join(t for t in (self.source, self.basis) if t)


class Entry(Strict):
    """Fields every catalog entry carries.

    A subclass that is a catalog kind says so in its class line (`kind=`: the file stem; `file=`:
    the YAML file, by default the stem's; `noun=`: the words a look-up error names it by, by
    default the stem in the singular); a field that names another kind's entry says so in its
    type, `Annotated[str, Ref("gpus")]`.
    """

    catalog_kind: ClassVar[str]
    catalog_file: ClassVar[str]
    noun: ClassVar[str]

    def __init_subclass__(
        cls,
        *,
        kind: str | None = None,
        file: str | None = None,
        noun: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init_subclass__(**kwargs)
        if kind is None:
            return
        if kind in KINDS:
            raise TypeError(f"catalog kind {kind!r} is already {KINDS[kind].__name__}")
        cls.catalog_kind = kind
        cls.catalog_file = file or f"{kind}.yaml"
        cls.noun = noun or kind.removesuffix("s").replace("_", " ")
        KINDS[kind] = cls

    id: Slug
    name: str = Field(min_length=1, max_length=300)
    aliases: list[Annotated[str, Field(max_length=300)]] = Field(
        default_factory=empty_list, max_length=200
    )
    opn: str | None = Field(
        default=None, description="vendor orderable part number, where published"
    )
    source: str = Field(min_length=3, description="document and section, or URL")
    as_of: AsOf
    field_sources: dict[str, FieldSource] = Field(
        default_factory=empty_dict,
        description="field -> its source and kind, for values not from the entry's own source",
    )
    placeholder: bool = Field(
        default=False, description="true when values are assumptions, not published facts"
    )
    notes: str | None = None
    price_usd: float | None = Field(default=None, ge=0, le=1e10)
    price_source: str | None = None

    @field_validator("as_of", mode="before")
    @classmethod
    def _date_to_text(cls, v: object) -> object:
        # YAML reads an unquoted 2023-09-22 as a date; keep the text form either way.
        return v.isoformat() if isinstance(v, dt.date) else v

    @model_validator(mode="after")
    def _price_has_source(self) -> "Entry":
        if self.price_usd is not None and not self.price_source:
            raise ValueError("price_usd needs price_source (quote, list price page, date)")
        return self

    def source_of(self, field: str) -> str:
        """Where `field`'s value came from: its own source (or basis), else the entry's."""
        own = self.field_sources.get(field)
        return str(own) if own is not None else self.source

    def estimated(self, field: str) -> bool:
        """True when the catalog labels `field`'s value an estimate."""
        own = self.field_sources.get(field)
        return own is not None and own.kind == "estimate"

    def names(self) -> list[str]:
        """Every name this entry answers to, normalised."""
        return [normalise_name(n) for n in (self.id, self.name, *self.aliases)]

    def references(self) -> Iterator[Reference]:
        """Every id of another entry this one names, from the `Ref`s on its fields."""
        return references(self)


class Gpu(Entry, kind="gpus", file="gpus.yaml", noun="GPU"):
    """An accelerator. Throughput figures are dense (no sparsity)."""

    vendor: str
    architecture: str | None = None
    form_factor: Literal["sxm", "pcie", "superchip", "oam"]
    memory_gb: float | None = Field(default=None, ge=0.001, le=1e5)
    memory_type: str | None = None
    memory_bandwidth_gb_per_s: float | None = Field(default=None, ge=0.001, le=1e7)
    bf16_dense_tflops: float | None = Field(default=None, ge=0.001, le=1e8)
    fp8_dense_tflops: float | None = Field(default=None, ge=0.001, le=1e8)
    fp4_dense_tflops: float | None = Field(default=None, ge=0.001, le=1e8)
    nvlink_gb_per_s: float | None = Field(
        default=None, ge=0.001, le=1e5, description="NVLink per GPU, both directions together"
    )
    tdp_w: DeviceWatts | None = None


class NodePowerTerms(Strict):
    """The seed memo's node power terms, each in watts; unknown terms stay None."""

    gpu_w: Watts | None = Field(default=None, description="per GPU")
    cpu_w: Watts | None = Field(default=None, description="all sockets")
    dram_w: Watts | None = None
    nvme_w: Watts | None = None
    nic_w: Watts | None = Field(default=None, description="per NIC")
    aux_w: Watts | None = Field(default=None, description="fans, VRM losses, BMC, lumped")


class PortGroup(Strict):
    """A set of identical network ports on a system, for one fabric."""

    ports: PortCount = Field(description="logical ports at port_speed_gbps")
    port_speed_gbps: Gbps
    nic: Annotated[str, Ref("nics")] | None = Field(default=None, description="NIC id in nics.yaml")
    nics: PortCount | None = Field(default=None, description="NIC cards behind these ports")
    ports_per_cage: int = Field(
        default=1,
        ge=1,
        le=64,
        description="logical ports per transceiver cage (2 for twin-port OSFP)",
    )
    cage_form: str | None = Field(default=None, description="OSFP, QSFP112, RJ45, ...")
    cage_accepts: list[str] = Field(
        default_factory=empty_list,
        description=(
            "module forms this port group's cage takes besides its own and besides what"
            " cages.yaml documents for its form (a platform RA's own cabling, with its source)"
        ),
    )


class IncludedPart(Strict):
    """A part that ships inside a system (listed on the BOM, never ordered on its own)."""

    name: str = Field(min_length=1, max_length=200)
    count: int = Field(ge=1, le=10_000, description="per system")
    rack_units: int | None = Field(default=None, ge=1, le=100, description="each, where known")
    part: str | None = Field(
        default=None,
        description="catalog id of the part, where the design would otherwise order it",
    )
    tray: Literal["compute", "switch", "power"] | None = Field(
        default=None,
        description="a rack-scale system's tray (compute, NVLink switch, power shelf): its place "
        "in the rack's front view; the compute trays are the system's hosts",
    )
    source: str = Field(min_length=3)


class System(Entry, kind="systems", file="systems.yaml"):
    """A server, an NVL rack treated as one node, a fabric manager or a management server."""

    kind: Literal[
        "dgx", "hgx", "nvl-rack", "pcie-server", "fabric-manager", "management-server", "storage"
    ]
    vendor: str
    gpu: Annotated[str, Ref("gpus")] | None = Field(default=None, description="GPU id in gpus.yaml")
    gpus_per_node: int = Field(ge=0, le=4096)
    cpu: str | None = None
    cpu_sockets: int | None = Field(default=None, ge=0, le=1024)
    rack_units: int | None = Field(default=None, gt=0, le=100)
    max_power_w: DeviceWatts | None = Field(
        default=None, description="published maximum system power"
    )
    typical_power_w: DeviceWatts | None = None
    power_terms: NodePowerTerms | None = None
    cooling: Literal["air", "liquid", "air-or-liquid"] = "air"
    cdu: Annotated[str, Ref("cdus")] | None = Field(
        default=None,
        description="cdus.yaml id of the CDU class a liquid-cooled design of it is sized with; "
        "None takes the catalog's `cdu` assumption",
    )
    liquid_heat_fraction: float | None = Field(
        default=None,
        gt=0,
        le=1,
        description="share of the system's heat its liquid loop carries (the rest goes to room "
        "air); None when not published",
    )
    compute: PortGroup | None = Field(default=None, description="east-west compute fabric ports")
    storage: PortGroup | None = Field(default=None, description="storage / converged fabric ports")
    inband: PortGroup | None = Field(default=None, description="in-band management ports")
    oob: PortGroup | None = Field(default=None, description="out-of-band (BMC) ports")
    manages_family: str | None = Field(
        default=None,
        max_length=80,
        description="fabric manager: the switch family (switches.yaml `family`) whose fabrics "
        "it manages, with its source in field_sources; a design's InfiniBand fabric gets the "
        "appliance of its switches' generation",
    )
    architecture: str | None = Field(
        default=None, description="reference architecture id it follows"
    )
    lifecycle: Literal["current", "superseded", "end-of-sale"] | None = Field(
        default=None,
        description="where the system is in its sales life, with its source in field_sources; "
        "a request that names no GPU or platform weighs only systems not superseded or "
        "end-of-sale; None (unknown) is weighed",
    )
    superseded_by: list[Annotated[str, Ref("systems")]] = Field(
        default_factory=empty_list,
        max_length=8,
        description="systems.yaml ids of the current systems that replace a superseded one "
        "(the parts a request that names it is pointed to), with its source in field_sources",
    )
    superseded_since: str | None = Field(
        default=None,
        pattern=r"^\d{4}(-\d{2}){0,2}$",
        description="when its successors shipped (YYYY-MM), the date `superseded_by` holds from",
    )
    included: list[IncludedPart] = Field(
        default_factory=empty_list,
        max_length=32,
        description="parts inside the system besides its GPUs and NICs (NVLink switch trays, "
        "power shelves)",
    )
    read_gb_per_s: float | None = Field(
        default=None, gt=0, le=10_000, description="storage appliance: sustained read, GB/s"
    )
    write_gb_per_s: float | None = Field(
        default=None, gt=0, le=10_000, description="storage appliance: sustained write, GB/s"
    )
    usable_capacity_tb: float | None = Field(
        default=None, gt=0, le=100_000, description="storage appliance: usable capacity, TB"
    )

    @model_validator(mode="after")
    def _gpu_named(self) -> "System":
        if self.gpus_per_node > 0 and not self.gpu:
            raise ValueError("a system with GPUs must name its gpu")
        return self

    def included_count(self, part: str) -> int:
        """How many of a catalog part come inside one of this system (its in-rack switches)."""
        return sum(p.count for p in self.included if p.part == part)


class Breakout(Strict):
    """A way to split a switch's ports: `ports` logical ports at `speed_gbps`."""

    ports: Annotated[int, Field(ge=1, le=10_000)]
    speed_gbps: Gbps


class Switch(Entry, kind="switches", file="switches.yaml", noun="switch"):
    """A fabric switch. `ports` are logical ports at `port_speed_gbps`; breakouts give other splits."""

    vendor: str
    technology: Literal["infiniband", "ethernet"]
    family: str | None = None
    ports: Annotated[int, Field(ge=1, le=10_000)]
    port_speed_gbps: Gbps
    cages: int | None = Field(
        default=None, gt=0, le=10_000, description="physical transceiver cages"
    )
    cage_form: str | None = None
    cage_gbps: Gbps | None = Field(default=None, description="bandwidth of one cage")
    breakouts: list[Breakout] = Field(default_factory=empty_list, max_length=16)
    typical_power_w: DeviceWatts | None = None
    max_power_w: DeviceWatts | None = None
    rack_units: int | None = Field(default=None, gt=0, le=100)
    cooling: Literal["air", "liquid", "air-or-liquid"] = "air"
    roles: list[Literal["leaf", "spine", "core", "management", "storage"]] = Field(
        default_factory=empty_list
    )

    def radix_at(self, speed_gbps: float) -> int | None:
        """Logical ports at `speed_gbps`, or None if the switch cannot run at that speed."""
        if speed_gbps == self.port_speed_gbps:
            return self.ports
        for b in self.breakouts:
            if b.speed_gbps == speed_gbps:
                return b.ports
        return None

    def ports_per_cage_at(self, speed_gbps: float) -> int:
        """How many logical ports one transceiver cage carries at `speed_gbps`."""
        if self.cage_gbps is None:
            return 1
        return max(1, int(self.cage_gbps // speed_gbps))


class Nic(Entry, kind="nics", file="nics.yaml", noun="NIC"):
    """A network adapter or DPU."""

    vendor: str
    kind: Literal["nic", "supernic", "dpu"]
    technologies: list[Literal["infiniband", "ethernet"]]
    ports: Annotated[int, Field(ge=1, le=64)]
    port_speed_gbps: Gbps
    host_interface: str | None = None
    typical_power_w: Watts | None = None
    max_power_w: Watts | None = None


class Cage(Entry, kind="cages", file="cages.yaml"):
    """A port cage form and the module forms it also takes (a QSFP112 cage takes QSFP56 and
    QSFP28 parts and runs at their slower rate), as the cage's maker documents it."""

    form: str = Field(min_length=1, max_length=40, description="the cage's own form: QSFP112")
    accepts: list[Annotated[str, Field(min_length=1, max_length=40)]] = Field(
        min_length=1,
        max_length=20,
        description="module and cable forms the cage takes besides its own",
    )


class Optic(Entry, kind="optics", file="optics.yaml"):
    """A transceiver or a cable. Power is per transceiver (or per cable end for ACC/AOC)."""

    kind: Literal["transceiver", "dac", "acc", "aoc", "fiber"]
    vendor: str
    form_factor: str | None = None
    split_end_form: str | None = Field(
        default=None,
        max_length=40,
        description=(
            "a splitter cable's split ends' plug where it differs from its head (form_factor):"
            " QSFP56 on a twin-port OSFP to 2x QSFP56 cable"
        ),
    )
    total_gbps: Gbps | None = None
    ports: int = Field(default=1, ge=1, le=64, description="logical ports (2 for twin-port)")
    port_speed_gbps: Gbps | None = None
    media: Literal["multimode", "singlemode", "copper", "none"] | None = None
    reach_m: float | None = Field(default=None, ge=0.01, le=1e6)
    power_w: Watts | None = None
    technologies: list[Literal["infiniband", "ethernet"]] = Field(default_factory=empty_list)
    split_port_speed_gbps: Gbps | None = Field(
        default=None,
        description="a single-port module's rate with half its lanes lit, on a 1:2 splitter fiber",
    )
    split_power_w: Watts | None = Field(
        default=None, description="its power at that rate (maximum)"
    )


class StorageTier(Entry, kind="storage_tiers", file="storage_tiers.yaml"):
    """A storage performance tier from NVIDIA SuperPOD guidance, in GB/s."""

    node_read_gb_per_s: Rate
    node_write_gb_per_s: Rate
    su_read_gb_per_s: Rate | None = None
    su_write_gb_per_s: Rate | None = None
    four_su_read_gb_per_s: Rate | None = None
    four_su_write_gb_per_s: Rate | None = None
    capacity_tb_per_node: float | None = Field(default=None, ge=1e-6, le=1e7)


class Assumption(Entry, kind="assumptions", file="assumptions.yaml"):
    """A named default the engine uses when the request is silent, with where the value comes from."""

    value: Annotated[float, Field(ge=-1e12, le=1e12)] | str | bool
    unit: str | None = None

    #: assumptions whose value is the id of another kind's entry (the CDU class designs are sized
    #: with by default): assumption id -> that kind
    value_kinds: ClassVar[dict[str, str]] = {"cdu": "cdus"}

    def references(self) -> Iterator[Reference]:
        """The `Ref`s on its fields, and its value where the assumption names an entry."""
        yield from super().references()
        kind = self.value_kinds.get(self.id)
        if kind is not None and isinstance(self.value, str):
            yield Reference("value", kind, self.value)

    @field_validator("value", mode="before")
    @classmethod
    def _numeric_text_is_a_number(cls, v: object) -> object:
        # YAML reads `1.0e300` (no exponent sign) and `nan` as text; the engine reads numbers
        # from assumptions, so text that is a number is one, and its range applies.
        if isinstance(v, str):
            try:
                return float(v)
            except ValueError:
                return v
        return v

    @field_validator("value", mode="after")
    @classmethod
    def _in_range(cls, v: float | str | bool, info: ValidationInfo) -> float | str | bool:
        bounds = ASSUMPTION_RANGES.get(str(info.data.get("id")))
        if bounds is None:
            return v
        low, high = bounds
        if isinstance(v, bool) or not isinstance(v, int | float) or not low <= v <= high:
            raise ValueError(f"{v!r} must be a number from {low:g} to {high:g} for this assumption")
        return v


class Cdu(Entry, kind="cdus", file="cdus.yaml", noun="CDU"):
    """A coolant distribution unit (CDU) class: the unit between a liquid-cooled rack's
    secondary loop and the facility water, sized by the heat it moves."""

    vendor: str
    form: Literal["in-rack", "in-row"] = Field(
        description="in-rack: inside the rack it cools; in-row: a cabinet in the row feeding "
        "several racks"
    )
    capacity_kw: float | None = Field(
        default=None, gt=0, le=100_000, description="published heat it moves to facility water"
    )
    redundancy: str | None = Field(
        default=None, max_length=200, description="the redundancy the vendor publishes (N+1 pumps)"
    )
    power_w: Watts | None = Field(default=None, description="pump and control power, published")


class RackType(Entry, kind="racks", file="racks.yaml", noun="rack type"):
    """A rack and its power distribution."""

    rack_units: Annotated[int, Field(ge=1, le=100)]
    power_limit_kw: float = Field(ge=0.1, le=10_000)
    cooling: Literal["air", "liquid", "air-or-liquid"]
    pdus: int = Field(default=2, ge=0, le=100)
    pdu_name: str | None = None
    network_racks: bool = Field(
        default=False, description="the RA builds its network and management racks on it too"
    )
    network_pdu_name: str | None = Field(
        default=None, description="the PDU model the RA puts in those network racks"
    )
    power_feed: str | None = Field(
        default=None,
        max_length=200,
        description="the rack's published power feed: count, voltage, phase, current",
    )
    power: Literal["ac-pdu", "dc-busbar"] = Field(
        default="ac-pdu",
        description="how the rack feeds its systems: AC rack PDUs, or DC power shelves on a "
        "busbar (a variant a request asks for by name; never chosen by default)",
    )
    systems: list[str] = Field(
        default_factory=empty_list,
        max_length=50,
        description="the systems (ids) the rack is built for; empty: any",
    )
    power_shelf_name: str | None = Field(default=None, max_length=200)
    power_shelf_kw: float | None = Field(
        default=None, ge=0.1, le=1_000, description="what one power shelf delivers"
    )
    power_shelf_units: int | None = Field(default=None, ge=1, le=10)
    power_shelves: int | None = Field(
        default=None,
        ge=1,
        le=100,
        description="shelves per rack where published; None: N+N of the rack's load",
    )


class WorkerPoint(Strict):
    """One point of the data-loader worker scaling curve."""

    workers: float = Field(ge=1e-3, le=1e5, description="data-loader workers per GPU")
    effective_workers: float = Field(
        ge=1e-3, le=1e5, description="workers' worth of concurrent reads"
    )


#: fields each kind of storage-model entry must give (the engine reads exactly these)
STORAGE_MODEL_FIELDS: dict[str, tuple[str, ...]] = {
    "drive": ("read_gb_per_s", "read_iops"),
    "storage-target": ("read_gb_per_s", "read_iops"),
    "metadata-server": ("ops_per_s",),
    "storage-system": ("file_latency_ms",),
    "read-pattern": ("efficiency", "request_kb"),
    "layout": (),
    "worker-scaling": ("worker_points",),
}


class StorageModel(Entry, kind="storage_models", file="storage_models.yaml"):
    """A constant of the storage I/O model, with its source.

    One file (storage_models.yaml) holds every kind: a drive, a parallel-file-system storage target,
    a metadata server, a storage system (local NVMe, parallel FS, object store), a read pattern, a
    dataset layout and the data-loader worker scaling. `STORAGE_MODEL_FIELDS` says which fields each
    kind must give.
    """

    kind: Literal[
        "drive",
        "storage-target",
        "metadata-server",
        "storage-system",
        "read-pattern",
        "layout",
        "worker-scaling",
    ]
    read_gb_per_s: Rate | None = Field(default=None, description="sequential read")
    write_gb_per_s: Rate | None = Field(default=None, description="sequential write")
    read_iops: Rate | None = Field(default=None, description="small random reads per second")
    drives: int | None = Field(
        default=None, gt=0, le=100_000, description="drives inside a storage target"
    )
    usable_capacity_tb: float | None = Field(
        default=None,
        gt=0,
        le=1e7,
        description="usable capacity of one storage target, TB (after its data protection)",
    )
    ops_per_s: Rate | None = Field(
        default=None, description="metadata operations per second one server sustains"
    )
    file_latency_ms: float | None = Field(
        default=None,
        ge=1e-6,
        le=1e7,
        description="time one synchronous reader spends per file or object",
    )
    metadata_ops_per_open: float | None = Field(
        default=None,
        ge=0,
        le=10_000,
        description="metadata operations per file access (open, stat, close)",
    )
    requests_per_s_per_prefix: Rate | None = Field(
        default=None, description="object-store GET requests per second per key prefix"
    )
    efficiency: float | None = Field(
        default=None,
        ge=1e-6,
        le=1,
        description="fraction of sequential bandwidth this pattern gets",
    )
    request_kb: float | None = Field(
        default=None, ge=1e-3, le=1e9, description="size of one read request"
    )
    prefetch_depth: int | None = Field(
        default=None, ge=1, le=100_000, description="reads each worker keeps in flight by default"
    )
    file_mb: float | None = Field(
        default=None, ge=1e-6, le=1e7, description="default file size of a layout (shard size)"
    )
    uses_metadata_server: bool | None = None
    worker_points: list[WorkerPoint] = Field(default_factory=empty_list, max_length=1000)

    @model_validator(mode="after")
    def _kind_fields(self) -> "StorageModel":
        missing = [f for f in STORAGE_MODEL_FIELDS[self.kind] if not getattr(self, f)]
        if missing:
            raise ValueError(f"a {self.kind} entry needs {', '.join(missing)}")
        points = [p.workers for p in self.worker_points]
        if points != sorted(points) or len(set(points)) != len(points):
            raise ValueError("worker_points must be in increasing order of workers")
        return self
