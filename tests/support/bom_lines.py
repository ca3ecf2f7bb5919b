"""What tests read off a design's BOM."""

from __future__ import annotations

from clustergen.engine.model.design import Design


def ends_to_choose(d: Design) -> list[str]:
    """Ordered link ends and cables with no catalog part (the storage vendor's are not ours)."""
    return [
        ln.description
        for ln in d.bom
        if ln.category in ("transceiver", "cable")
        and ln.part is None
        and not ln.status.startswith("supplied by the storage vendor")
    ]
