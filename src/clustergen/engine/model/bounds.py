"""The physical range of every number the engine takes from outside (flags, files, tools, the
model's tool calls), in one place.

A number outside its range is refused at the boundary with one line, before any arithmetic: the
ranges are generous (ten times past the largest clusters built or announced) but finite, so no
product, sum or quotient of in-range inputs can overflow to infinity or come out as NaN. Lower
bounds of positive quantities are set well above the smallest floats (5e-324 is a value a fuzzer
sends, not a sample size). Models declare these bounds with `Field`; an engine function a caller
hands bare numbers checks them with `check_number`.
"""

from __future__ import annotations

import math
from typing import Annotated

from pydantic import Field

from clustergen.errors import RequestError

#: GPUs in one request (the largest announced clusters are ~1e6)
MAX_GPUS = 10_000_000
#: nodes in one request or fabric (an NVL72 rack counts as one)
MAX_NODES = 1_000_000
#: a power cap: 10 GW; anything larger reads as a unit slip
MAX_POWER_W = 1e10
MAX_POWER_MW = MAX_POWER_W / 1e6
#: one rack's power limit
MAX_RACK_KW = 1_000.0
#: nodes per scalable unit
MAX_SU_NODES = 10_000
#: independent fabric planes
MAX_PLANES = 64
#: leaf down:up ratio
MAX_OVERSUBSCRIPTION = 16.0
#: link speed, Gb/s (1 Mb/s to 100 Tb/s)
MIN_PORT_SPEED_GBPS = 0.001
MAX_PORT_SPEED_GBPS = 100_000.0
#: power usage effectiveness
MIN_PUE = 1.0
MAX_PUE = 3.0
#: the smallest positive size, rate or time the engine takes (a byte, a microsecond, ...)
TINY = 1e-6

Gpus = Annotated[int, Field(ge=1, le=MAX_GPUS)]
Nodes = Annotated[int, Field(ge=1, le=MAX_NODES)]
SuNodes = Annotated[int, Field(ge=1, le=MAX_SU_NODES)]
Planes = Annotated[int, Field(ge=1, le=MAX_PLANES)]
Oversubscription = Annotated[float, Field(ge=1.0, le=MAX_OVERSUBSCRIPTION)]
PortSpeedGbps = Annotated[float, Field(ge=MIN_PORT_SPEED_GBPS, le=MAX_PORT_SPEED_GBPS)]
RackKw = Annotated[float, Field(ge=0.1, le=MAX_RACK_KW)]
Pue = Annotated[float, Field(ge=MIN_PUE, le=MAX_PUE)]


def check_number(
    name: str,
    value: float,
    *,
    ge: float | None = None,
    gt: float | None = None,
    le: float | None = None,
    field: str | None = None,
) -> float:
    """`value` if it is a finite number within the bounds, else one RequestError naming `name`,
    the value and the range: for the engine functions callers give bare numbers to. The error's
    `field` is `field`, else `name` when that is a field's name (`nodes`, not "the power cap")."""
    ok = _finite(value)
    ok = ok and (ge is None or value >= ge) and (gt is None or value > gt)
    ok = ok and (le is None or value <= le)
    if ok:
        return value
    low = f"at least {_shown(ge)}" if ge is not None else ""
    low = f"above {_shown(gt)}" if gt is not None else low
    high = f"at most {_shown(le)}" if le is not None else ""
    rule = " and ".join(p for p in (low, high) if p)
    raise RequestError(
        f"{name} must be a finite number {rule}; got {value!r}".replace("  ", " "),
        field=field or (name if name.isidentifier() else None),
        value=value,
        limit=rule or "finite",
    )


def _finite(value: object) -> bool:
    # an int of any size is finite (math.isfinite would overflow converting it to a float)
    return isinstance(value, int) or (isinstance(value, float) and math.isfinite(value))


def _shown(x: float) -> str:
    if float(x).is_integer() and abs(x) < 1e15:
        return f"{int(x):,}"
    return f"{x:g}"
