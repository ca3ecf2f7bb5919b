"""Platform: the catalog facts about one GPU platform that every sizing noun reads.

The system a name picks, the power of one node, the IT power a cap leaves and whether a figure is
a labelled estimate. None of it needs a request's resolved `Inputs`, so `inputs` and the section
builders above it all import from here and nothing here imports them back.
"""

from __future__ import annotations

import math

from clustergen.catalog.architectures import Architecture
from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Entry, Gpu, System
from clustergen.engine.model.bounds import MAX_POWER_W, MAX_PUE, MIN_PUE, check_number
from clustergen.engine.model.compute import CapBasis, NodePower, NodePowerBasis
from clustergen.engine.model.request import DesignRequest, extends
from clustergen.errors import CatalogGapError, NotFoundError, RequestError
from clustergen.units import ceil_div


def gpu_system(catalog: Catalog, platform: str) -> System:
    """A GPU system by forgiving name; a GPU name picks the system built on it."""
    try:
        system = catalog.system(platform)
    except NotFoundError as missing:
        try:
            gpu = catalog.gpu(platform)
        except NotFoundError:
            raise missing from None
        systems = [s for s in catalog.all(System) if s.gpu == gpu.id]
        if not systems:
            raise RequestError(
                f"no system in the catalog carries the {gpu.id} GPU",
                hint=_kin_hint(catalog, gpu.id),
            ) from None
        # DGX first (it has a reference architecture), then the densest node
        system = min(systems, key=lambda s: (s.kind != "dgx", -s.gpus_per_node, s.id))
    if system.gpus_per_node == 0:
        raise RequestError(
            f"{system.id} is a {system.kind}, not a GPU platform", field="platform", value=system.id
        )
    if not system.gpu:
        # a GPU platform whose GPU the catalog does not name: the catalog's gap, not the user's
        raise CatalogGapError(
            f"system {system.id} names no GPU in the catalog",
            entry=system.id,
            field="gpu",
            hint="add its gpu (an id in gpus.yaml) in a layered catalog, or pick another system",
        )
    return system


def whole_nodes(gpus: int, system: System) -> int:
    """The nodes that carry `gpus` GPUs, in whole nodes (an NVL72 rack is one node of 72): the one
    place a GPU count becomes a node count."""
    return ceil_div(gpus, system.gpus_per_node or 1)


def terms_total_w(system: System) -> tuple[float | None, dict[str, float]]:
    """The seed memo's sum: gpus*gpu_w + cpu_w + dram_w + nvme_w + nics*nic_w + aux_w.

    Returns None when any term is unknown, since a partial sum would understate the node.
    """
    t = system.power_terms
    if t is None:
        return None, {}
    nics = 0
    for group in (system.compute, system.storage, system.inband):
        if group is not None:
            nics += group.nics if group.nics is not None else group.ports
    parts = {
        "gpus_w": None if t.gpu_w is None else t.gpu_w * system.gpus_per_node,
        "cpu_w": t.cpu_w,
        "dram_w": t.dram_w,
        "nvme_w": t.nvme_w,
        "nics_w": None if t.nic_w is None else t.nic_w * nics,
        "aux_w": t.aux_w,
    }
    if any(v is None for v in parts.values()):
        return None, {k: v for k, v in parts.items() if v is not None}
    known = {k: float(v) for k, v in parts.items() if v is not None}
    return sum(known.values()), known


def node_power(system: System, basis: NodePowerBasis = "max") -> NodePower:
    """Power of one node: the published maximum by default (what a power budget must hold)."""
    total, terms = terms_total_w(system)
    if basis == "max" and system.max_power_w:
        return NodePower(
            system=system.id,
            basis="max",
            node_w=system.max_power_w,
            terms_w=terms,
            source=system.source_of("max_power_w"),
        )
    if total:
        return NodePower(
            system=system.id, basis="terms", node_w=total, terms_w=terms, source=system.source
        )
    if system.max_power_w:
        return NodePower(
            system=system.id,
            basis="max",
            node_w=system.max_power_w,
            terms_w=terms,
            source=system.source,
        )
    raise CatalogGapError(
        f"system {system.id} has no known power (no max_power_w and incomplete power_terms)",
        entry=system.id,
        field="max_power_w",
        hint="add max_power_w or power_terms for it in a layered catalog",
    )


def it_cap_w(cap_w: float, basis: CapBasis, pue: float | None) -> float:
    """The IT power a cap leaves: the cap itself, or a facility cap divided by the PUE.

    Every caller that compares IT power with a cap converts through here, so the planner, the design
    and the power-first solve can never disagree about what a facility cap allows.
    """
    if cap_w <= 0:
        raise RequestError(
            f"a power cap must be positive, got {cap_w:g} W", field="power_cap_w", value=cap_w
        )
    check_number("the power cap in W", cap_w, ge=1, le=MAX_POWER_W, field="power_cap_w")
    if pue is not None:  # checked whenever given: a PUE is carried into the result either way
        check_number("PUE", pue, ge=MIN_PUE, le=MAX_PUE, field="pue")
    if basis == "it":
        return cap_w
    if pue is None or pue < 1.0:
        raise RequestError(
            "a facility power cap needs a PUE of at least 1.0",
            hint="give `pue`, e.g. 1.3",
            field="pue",
            value=pue,
            limit=MIN_PUE,
        )
    return cap_w / check_number("PUE", pue, ge=MIN_PUE, le=MAX_PUE, field="pue")


_FIELD_WORDS = {
    "max_power_w": "maximum power",
    "typical_power_w": "typical power",
    "power_w": "power",
}


def estimate_of(entry: Entry, field: str) -> str | None:
    """'<name>: <what>' (e.g. "NVIDIA Quantum-X800 Q3400-RA: typical power") when the entry
    labels that value an estimate (a field source of kind estimate, with its basis)."""
    if not entry.estimated(field):
        return None
    return f"{entry.name}: {_FIELD_WORDS.get(field, field.replace('_', ' '))}"


def gpu_link(gpu: Gpu, system: System | None = None) -> str:
    """What one node's GPUs talk over with no network: NVLink on SXM boards and superchips (and
    wherever the catalog gives an NVLink rate), AMD's Infinity Fabric on OAM boards, else PCIe
    (a PCIe card's NVLink bridge is optional, so it is not assumed). A rack-scale system's GPUs
    reach each other through the NVLink Switch trays the catalog lists inside the rack (their
    count is left out: a figure the agent's grounding could not match to a design number)."""
    if gpu.nvlink_gb_per_s or gpu.form_factor in ("sxm", "superchip"):
        trays = system is not None and any(
            "nvlink switch tray" in p.name.lower() for p in system.included
        )
        return "NVLink through the rack's NVLink Switch trays" if trays else "NVLink"
    return "Infinity Fabric" if gpu.form_factor == "oam" else "PCIe"


def lone_unit(system: System, gpu: Gpu) -> str:
    """What a design of one node is, in a customer's words: one node whose GPUs share their
    link, or, for a rack-scale system, one rack (its product name) whose GPUs share NVLink
    through its switch trays. The one home of the phrase the design table, the why line, the
    memo and the pictures use for a design without a compute fabric."""
    link = gpu_link(gpu, system)
    if system.kind != "nvl-rack":
        return f"one node, its GPUs share {link}"
    rack = system.name.split(" (")[0].removeprefix("NVIDIA ")
    return f"one {rack}, its {system.gpus_per_node} GPUs share {link}"


def _kin_hint(catalog: Catalog, gpu_id: str) -> str:
    """What would work for a GPU no system carries: the systems built on the same GPU family
    ("h100-pcie" -> the H100 SXM systems), and how to add one."""
    family = gpu_id.split("-")[0]
    kin = sorted(s.id for s in catalog.all(System) if (s.gpu or "").split("-")[0] == family)
    add = "or add a system built on it to the catalog (CONTRIBUTING.md, adding hardware)"
    return f"name a system with a {family.upper()} GPU ({', '.join(kin)}), {add}" if kin else add


def system_of(catalog: Catalog, name: str, beside: str | None) -> System:
    """A system id, or a GPU id as the system its reference architecture builds it on (the
    design's own platform when it carries that GPU)."""
    systems = catalog.all(System)
    if name in {s.id for s in systems}:
        return catalog.system(name)
    if beside and catalog.system(beside).gpu == name:
        return catalog.system(beside)
    for arch in catalog.all(Architecture):
        for sid in arch.systems:
            if catalog.system(sid).gpu == name:
                return catalog.system(sid)
    raise RequestError(f"no system in the catalog builds {name}", field="existing_platform")


def existing_nodes(catalog: Catalog, request: DesignRequest, system: System) -> int | None:
    """The existing installation's nodes as the request states them (nodes, GPUs or SUs)."""
    if request.existing_nodes:
        return request.existing_nodes
    if request.existing_gpus:
        return math.ceil(request.existing_gpus / system.gpus_per_node)
    if request.existing_sus:
        # as the RA builds them: SU 1 gives a node slot to the fabric manager (H100 RA Table 4)
        arch = catalog.architecture_for(system.id, request.existing_fabric or request.fabric)
        if arch is None:
            return None
        slot = 1 if arch.fabric_manager_links else 0
        return request.existing_sus * arch.su_nodes - slot
    return None


def layout_nodes(catalog: Catalog, request: DesignRequest, system: System) -> int | None:
    """The nodes of the standing installation an increment of `system` joins, whose reference
    architecture the increment follows (a few DGX H100 added to a SuperPOD are SuperPOD nodes,
    not a DGX BasePOD of their own); None for a design that joins none or another platform's."""
    if request.layout_nodes is not None:
        return request.layout_nodes
    standing = request.existing_platform or (request.platform if extends(request) else None)
    if not standing or system_of(catalog, standing, None).id != system.id:
        return None
    return existing_nodes(catalog, request, system)
