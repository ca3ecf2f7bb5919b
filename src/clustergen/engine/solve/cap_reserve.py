"""The cap-reserve solve: a whole design under its caps (IT power, and capital when the request
gives a capital budget).

The power-first solve budgets compute and the compute fabric, and the capital solve the nodes
themselves; the rest of the design (storage, management networks, servers, and for capital the
fabrics too) comes on top. When a cap sizes the design, it is solved again with that overhead set
aside until the whole design fits. The overhead never grows as nodes fall, so a few rounds settle.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, TypeVar

from clustergen.errors import InfeasibleDesignError

D = TypeVar("D")

_MAX_ROUNDS = 8


class Reserve(NamedTuple):
    """What the rest of the design needs beside the nodes the solve sizes: IT power beyond
    compute and the compute fabric, capital beyond the nodes, and racks beyond the compute
    racks (the network racks, against the site's rack positions)."""

    w: float = 0.0
    usd: float = 0.0
    racks: int = 0

    def covers(self, other: Reserve) -> bool:
        """Whether this reserve sets aside at least `other` on every cap."""
        return (
            self.w >= other.w - 1e-6 and self.usd >= other.usd - 1e-6 and self.racks >= other.racks
        )

    def widened(self, other: Reserve) -> Reserve:
        """The larger of the two on every cap."""
        return Reserve(max(self.w, other.w), max(self.usd, other.usd), max(self.racks, other.racks))

    def narrowed(self, other: Reserve) -> Reserve:
        """The smaller of the two on every cap."""
        return Reserve(min(self.w, other.w), min(self.usd, other.usd), min(self.racks, other.racks))


class OverCap(Exception):
    """A design over its IT cap or its capital budget, with its overhead beyond what the solve
    sizes and the cap the request would need to raise to."""

    def __init__(
        self,
        overhead: Reserve,
        message: str,
        raise_to_w: float | None = None,
        raise_to_usd: float | None = None,
    ) -> None:
        super().__init__(message)
        self.overhead = overhead
        self.message = message
        self.raise_to_w = raise_to_w
        self.raise_to_usd = raise_to_usd


def settle_under_cap(
    build: Callable[[Reserve], D], overhead: Callable[[D], Reserve], *, cap_sized: bool
) -> D:
    """`build(reserve)` with the reserve raised to the design's own overhead until the design
    fits. With the size fixed by the request (not `cap_sized`) there is one round; an `OverCap`
    that no reserve can cure is raised for the caller to explain."""
    best: D | None = None
    reserve = Reserve()
    for _ in range(_MAX_ROUNDS):
        try:
            d = build(reserve)
        except OverCap as over:
            if best is not None:
                return best
            if cap_sized and not reserve.covers(over.overhead):
                reserve = reserve.widened(over.overhead)
                continue
            raise
        if not cap_sized or reserve == Reserve():
            return d
        # Set aside this design's own overhead, smaller than the last: one more node may fit.
        own = overhead(d)
        if own.covers(reserve):
            return d
        best, reserve = d, reserve.narrowed(own)
    if best is None:  # pragma: no cover - the overhead settles in two or three rounds
        raise InfeasibleDesignError("no design settles under the cap")
    return best
