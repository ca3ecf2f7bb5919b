"""Storage: tier bandwidth targets and the file system (`targets`), the data-path analysis
(`io`, with its `constants` and `fixes`) and the storage a design gets (`plan`).

Other packages import only the names below; the modules are this package's own.
"""

from clustergen.engine.sizing.storage.io import analyze_storage, storage_curves
from clustergen.engine.sizing.storage.plan import StoragePlan, plan_storage, storage_section
from clustergen.engine.sizing.storage.targets import storage_targets

__all__ = [
    "StoragePlan",
    "analyze_storage",
    "plan_storage",
    "storage_curves",
    "storage_section",
    "storage_targets",
]
