"""The catalog constants one storage analysis uses (storage_models.yaml), resolved once."""

from __future__ import annotations

import itertools

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import StorageModel
from clustergen.engine.model.storage import (
    IoWorkload,
)


class IoConstants:
    """The catalog constants one analysis uses, resolved once."""

    def __init__(self, catalog: Catalog, w: IoWorkload) -> None:
        self.used: list[str] = []
        self.system = self._get(catalog, f"system-{w.system}")
        self.pattern = self._get(catalog, f"pattern-{w.read_pattern}")
        self.layout = self._get(catalog, f"layout-{w.layout}")
        self.workers = self._get(catalog, "workers-default")
        self.target = (
            self._get(catalog, "lustre-ost-4x-nvme") if w.system == "parallel-fs" else None
        )
        self.drive = self._get(catalog, "nvme-gen4") if w.system == "local-nvme" else None
        self.mds = self._get(catalog, "lustre-mds") if w.system == "parallel-fs" else None

    def _get(self, catalog: Catalog, entry_id: str) -> StorageModel:
        entry = catalog.get(StorageModel, entry_id)
        self.used.append(entry.id)
        return entry

    def effective_workers(self, workers: float) -> float:
        """Piecewise-linear through the catalog's points; flat past the last, linear below."""
        pts = [(p.workers, p.effective_workers) for p in self.workers.worker_points]
        x0, y0 = pts[0]
        if workers <= x0:
            return y0 * workers / x0
        for (xa, ya), (xb, yb) in itertools.pairwise(pts):
            if workers <= xb:
                return ya + (yb - ya) * (workers - xa) / (xb - xa)
        return pts[-1][1]

    def workers_for(self, effective: float) -> int | None:
        """The fewest workers reaching `effective` concurrent reads, or None if none do."""
        top = max(int(self.workers.worker_points[-1].workers), 1)
        for n in range(1, top + 1):
            if self.effective_workers(n) >= effective - 1e-9:
                return n
        return None
