""" "A 2,048-GPU H200 SuperPOD": a pod word names NVIDIA's DGX reference designs, so with a GPU
and no system it picks the system those designs are built on (DGX H200, not an OEM HGX server).
The architectures catalog says which systems each DGX SuperPOD or BasePOD RA builds on."""

from __future__ import annotations

import re
from typing import NamedTuple

from clustergen.catalog.architectures import Architecture
from clustergen.catalog.loader import Catalog

_POD = re.compile(r"\b(?:dgx\s+)?(superpod|basepod)s?\b")


class PodPlatform(NamedTuple):
    system: str
    start: int
    end: int
    note: str


def pod_platform(catalog: Catalog, low: str, used: list[bool], gpu: str) -> PodPlatform | None:
    """The one system a pod word and a GPU name together ("H200 SuperPOD" -> dgx-h200), or
    None when the text has no pod word or the catalog's pods of that kind build on no single
    system with that GPU (the word then says nothing more than the GPU)."""
    found = next((m for m in _POD.finditer(low) if not any(used[m.start() : m.end()])), None)
    if found is None:
        return None
    pod = found.group(1)
    systems = {
        sid
        for arch in catalog.all("architectures", Architecture)
        if pod in arch.id
        for sid in arch.systems
        if catalog.system(sid).gpu == gpu
    }
    if len(systems) != 1:
        return None
    (system,) = systems
    note = f"{found.group(0)!r} -> platform {system} (the DGX {pod} RAs build {gpu} on it)"
    return PodPlatform(system, found.start(), found.end(), note)
