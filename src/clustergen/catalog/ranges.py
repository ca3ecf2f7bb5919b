"""The physical range of every number a catalog entry may give, as annotated types the models in
`models.py` use, and the range of each assumption the engine reads as a figure.

Every bound is generous (well past anything built or announced) but finite and clear of the
smallest floats, so no catalog value can overflow, underflow or divide by almost nothing in the
engine's arithmetic; a value outside is reported like any other field error, located by file,
entry and field. A new field takes one of these types, or its own bounds in `Field(...)`.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field


def _zero_or_not_tiny(v: float) -> float:
    # 0 W is a fact (a passive cable); 1e-300 W is a slip that would vanish or overflow later.
    if 0 < v < 1e-3:
        raise ValueError(f"{v:g} is below 1 mW: give 0 or a real figure")
    return v


#: power of a part that may draw none (a passive cable, a node power term): 0 or 1 mW to 1 MW
Watts = Annotated[float, Field(ge=0, le=1e6), AfterValidator(_zero_or_not_tiny)]
#: power of a device that must draw some (a GPU, a switch, a system up to a rack-scale one)
DeviceWatts = Annotated[float, Field(ge=1, le=2e6)]
PositiveInt = Annotated[int, Field(gt=0, le=1_000_000)]
#: logical ports, NICs or cages on one device
PortCount = Annotated[int, Field(ge=0, le=10_000)]
#: a link speed: 1 Mb/s to 100 Tb/s
Gbps = Annotated[float, Field(ge=0.001, le=100_000)]
#: a bandwidth in GB/s or a rate, clear of zero
Rate = Annotated[float, Field(ge=1e-6, le=1e12)]
#: a count of nodes, racks or switches in a reference architecture
ArchCount = Annotated[int, Field(ge=0, le=10_000)]

#: assumptions the engine reads as figures, and the physical range of each
ASSUMPTION_RANGES: dict[str, tuple[float, float]] = {
    "pue": (1.0, 3.0),
    "tco-term-years": (0.1, 30.0),
    "tco-load-share": (0.01, 1.0),
    "energy-usd-per-kwh": (0.0, 10.0),
    "support-share-per-year": (0.0, 1.0),
    "mfu": (0.001, 1.0),
    "rack-power-kw-air": (0.1, 10_000.0),
    "rack-power-kw-liquid": (0.1, 10_000.0),
    "storage-capacity-tb-per-gpu": (1e-6, 1e6),
    "multimode-reach-m": (0.01, 1e6),
    "compute-oversubscription": (1.0, 16.0),
    "storage-oversubscription": (1.0, 16.0),
    "storage-min-node-read-gb-per-s": (1e-6, 1e6),
    "min-bandwidth-gbps-per-gpu-training": (1.0, 1e5),
    "min-bandwidth-gbps-per-gpu-fine-tuning": (1.0, 1e5),
    "min-bandwidth-gbps-per-gpu-inference": (1.0, 1e5),
    "min-bandwidth-gbps-per-gpu-mixed": (1.0, 1e5),
    "design-metadata-servers": (1.0, 1e5),
    "checkpoint-bytes-per-param": (1e-3, 1e3),
    "gpu-hours-between-interruptions": (1e-3, 1e12),
    "network-rack-pdus": (0.0, 100.0),
    "schedule-reserve": (0.0, 0.9),
    "cdu-spare-units-per-row": (0.0, 10.0),
}
