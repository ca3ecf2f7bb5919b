"""The storage system a request names, by its class or a product of it ("Lustre", "WEKA",
"IBM Storage Scale", "local NVMe"): the names are the catalog's storage-system aliases, so a
product a team adds to the catalog is read without a new rule."""

from __future__ import annotations

import re

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import StorageModel
from clustergen.engine.cache import cached

#: catalog id prefix of a storage-system entry; the rest is the request's value
_PREFIX = "system-"


def _patterns(catalog: Catalog) -> list[tuple[re.Pattern[str], str, str]]:
    """(pattern, system, product name) for every alias, longest first ("ddn exascaler" before
    "ddn")."""

    def build() -> list[tuple[re.Pattern[str], str, str]]:
        names: list[tuple[str, str]] = []
        for m in catalog.all("storage_models", StorageModel):
            # an object store is read as the dataset's layout (engine/request/rules.py), which
            # brings its storage system with it
            if m.kind == "storage-system" and m.id.startswith(_PREFIX) and "object" not in m.id:
                names += [(a, m.id.removeprefix(_PREFIX)) for a in m.aliases]
        names.sort(key=lambda t: (-len(t[0]), t[0]))
        return [
            (
                re.compile(
                    r"(?<![\w.])" + r"[\s-]*".join(map(re.escape, a.lower().split())) + r"(?![\w])"
                ),
                s,
                a,
            )
            for a, s in names
        ]

    return cached(catalog, ("storage-system-names",), build)


def named_storage(catalog: Catalog, text: str, used: list[bool]) -> list[tuple[str, str, int, int]]:
    """(system, product, start, end) for each storage product or class the text names outside the
    `used` characters."""
    found: list[tuple[str, str, int, int]] = []
    taken = list(used)
    for pattern, system, alias in _patterns(catalog):
        for m in pattern.finditer(text):
            if any(taken[m.start() : m.end()]):
                continue
            taken[m.start() : m.end()] = [True] * (m.end() - m.start())
            found.append((system, alias, m.start(), m.end()))
    return sorted(found, key=lambda t: t[2])
