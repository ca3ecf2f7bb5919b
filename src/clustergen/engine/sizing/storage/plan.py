"""A design's storage: targets scaled by its GPUs, the appliances sized to them, and the data path.

The targets come from NVIDIA's tiered guidance (DGX SuperPOD H100 RA Table 6), whose unit is the
DGX H100: 8 GPUs a node, 32 nodes an SU. A design is expressed in that unit by its GPUs (GPUs / 8
DGX H100-equivalent nodes), so 72 DGX B300 (576 GPUs) get the guidance of 72 H100-equivalent
nodes, not of "one SU" because their RA's SU has 72 nodes. The storage is then sized to the
architecture's storage appliance (count, bandwidth, ports, power, space); the storage fabric
carries its ports, and the data path is analysed over that fabric (`storage_section`).
"""

from __future__ import annotations

import math
from typing import NamedTuple

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import System
from clustergen.engine.cache import cached
from clustergen.engine.model.design import StorageAppliances, StorageSection, data_path_applies
from clustergen.engine.model.storage import DesignIo, StorageTargets
from clustergen.engine.sizing.inputs import (
    Inputs,
    Notes,
    stated_bandwidth_scale,
    stated_capacity_tb,
)
from clustergen.engine.sizing.management import standalone, storage_asked
from clustergen.engine.sizing.storage.io import analyze_storage
from clustergen.engine.sizing.storage.targets import design_io, storage_targets
from clustergen.errors import CatalogGapError
from clustergen.units import ceil_div, plural

#: the system whose node Table 6 counts
_TABLE6_SYSTEM = "dgx-h100"
#: the architecture whose SU Table 6 counts
_TABLE6_ARCHITECTURE = "dgx-superpod-h100"


class StoragePlan(NamedTuple):
    """What the storage needs before its fabric is built: targets, appliances, file system, and
    the ports it puts on the storage fabric."""

    targets: StorageTargets
    io: DesignIo
    appliance: System | None
    appliances: StorageAppliances | None
    storage_ports: int
    port_speed_gbps: float
    notes: list[str]
    site_storage: bool = False  # a single-node footprint: the site's storage, none designed
    existing: bool = False  # the customer's own storage, out of scope: none quoted


def design_targets(inputs: Inputs, nodes: int) -> StorageTargets:
    """Table 6 guidance for this design's GPUs, in DGX H100-equivalent nodes (8 GPUs each) and the
    H100 RA's 32-node SU, raised to what the request states (`with_stated_needs`). The tier's
    figures are found once per catalog for the platform's GPUs a node, the tier and the nodes."""
    catalog, system = inputs.catalog, inputs.system
    sid, per_node, tier = system.id, system.gpus_per_node, inputs.storage_tier
    t = cached(
        catalog,
        ("design_targets", sid, per_node, tier, nodes),
        lambda: _table6_targets(catalog, sid, per_node, tier, nodes),
    )
    return with_stated_needs(t, inputs)


def _table6_targets(
    catalog: Catalog, system_id: str, gpus_per_node: int, tier: str, nodes: int
) -> StorageTargets:
    ref = catalog.system(_TABLE6_SYSTEM)
    su = catalog.architecture(_TABLE6_ARCHITECTURE).su_nodes
    gpus = nodes * gpus_per_node
    equivalent = max(1, ceil_div(gpus, ref.gpus_per_node))
    t = storage_targets(catalog, tier, equivalent, su)
    basis = t.basis
    if system_id != ref.id or equivalent != nodes:
        basis = (
            f"{plural(gpus, 'GPU')} = {plural(equivalent, ref.name + '-equivalent node')} "
            f"({ref.gpus_per_node} GPUs each, "
            f"Table 6's unit); {basis}"
        )
    return t.model_copy(update={"nodes": nodes, "basis": basis})


def with_stated_needs(t: StorageTargets, inputs: Inputs) -> StorageTargets:
    """The tier's targets raised to the read and write bandwidth and the capacity the request
    states: a customer's figure is a floor the tier's guidance does not lower."""
    request = inputs.request
    times, each = stated_bandwidth_scale(inputs, t.nodes)
    capacity, each_tb = stated_capacity_tb(inputs, t.nodes)
    read, write = request.storage_read_gb_per_s, request.storage_write_gb_per_s
    asked = {
        "read_gb_per_s": read and read * times,
        "write_gb_per_s": write and write * times,
        "capacity_tb": capacity,
    }
    raised = {k: v for k, v in asked.items() if v and v > (getattr(t, k) or 0.0)}
    if not raised:
        return t
    words = {"read_gb_per_s": "read GB/s", "write_gb_per_s": "write GB/s", "capacity_tb": "TB"}
    how = {"read_gb_per_s": each, "write_gb_per_s": each, "capacity_tb": each_tb}
    said = ", ".join(
        f"{v:,g} {words[k]}" + (f" ({how[k]})" if how[k] else "") for k, v in raised.items()
    )
    return t.model_copy(update={**raised, "basis": f"{t.basis}; raised to the request's {said}"})


def _appliances(appliance: System, io: DesignIo) -> StorageAppliances:
    fs = io.file_system
    count = fs.storage_targets or 1
    group = appliance.storage
    if group is None:
        raise CatalogGapError(
            f"storage appliance {appliance.id} has no storage ports in the catalog",
            entry=appliance.id,
            field="storage",
            hint="add its storage port group in a layered catalog",
        )
    ports = group.ports * count
    return StorageAppliances(
        appliance=appliance.id,
        name=appliance.name,
        count=count,
        read_gb_per_s=fs.read_gb_per_s,
        write_gb_per_s=fs.write_gb_per_s,
        ports=ports,
        port_speed_gbps=group.port_speed_gbps,
        power_w=None if appliance.max_power_w is None else appliance.max_power_w * count,
        rack_units=None if appliance.rack_units is None else appliance.rack_units * count,
        basis=fs.basis,
    )


def _data_path(
    inputs: Inputs,
    nodes: int,
    targets: StorageTargets,
    appliance: System | None,
    training_like: bool,
) -> DesignIo:
    """The design's data path (`design_io`) for its GPUs, targets and the request's data-set
    words, on the RA's appliance if it has one."""
    catalog, request, system = inputs.catalog, inputs.request, inputs.system
    gpus = nodes * system.gpus_per_node

    def size_io() -> DesignIo:
        return design_io(
            catalog,
            gpus=gpus,
            gpus_per_node=system.gpus_per_node,
            read_gb_per_s=targets.read_gb_per_s,
            storage_network_gb_per_s=None,
            layout=request.dataset_layout,
            storage_system=request.storage_system,
            sample_mb=request.sample_mb,
            checkpoint_gb=request.checkpoint_gb,
            model_params_b=request.model_params_b,
            checkpoints=training_like,
            appliance=appliance,
            write_gb_per_s=targets.write_gb_per_s,
            capacity_tb=stated_capacity_tb(inputs, nodes)[0],
            checkpoint_interval_s=request.checkpoint_interval_s,
        )

    # The data path depends on these and the (catalog's own) appliance alone: a trade study's
    # rows of one GPU count (a platform's fabric alternatives, platforms on one RA) share it.
    key = (
        "design_io",
        gpus,
        system.gpus_per_node,
        targets.read_gb_per_s,
        targets.write_gb_per_s,
        training_like,
        appliance.id if appliance else None,
        request.dataset_layout,
        request.storage_system,
        request.sample_mb,
        request.checkpoint_gb,
        request.model_params_b,
        stated_capacity_tb(inputs, nodes)[0],
        request.checkpoint_interval_s,
    )
    return cached(catalog, key, size_io)


def plan_storage(inputs: Inputs, nodes: int, notes: Notes) -> StoragePlan:
    """Targets from the tier at this design's GPUs, the appliances (or file system) sized to them,
    and the storage-side ports."""
    catalog, request, system, arch = (
        inputs.catalog,
        inputs.request,
        inputs.system,
        inputs.architecture,
    )
    notes.assumed += inputs.assumptions("storage_tier")
    targets = design_targets(inputs, nodes)
    own_storage = not standalone(inputs, nodes) or storage_asked(inputs)
    # A storage system the request names is the customer's choice: the RA's example appliance
    # (a DDN array on the SuperPODs) is not put in its place; the named class is sized instead
    chosen = request.storage_system is not None
    existing = bool(request.storage_excluded)
    appliance = (
        catalog.system(arch.storage_appliance)
        if arch and arch.storage_appliance and own_storage and not chosen and not existing
        else None
    )
    st_speed = system.storage.port_speed_gbps if system.storage else 400.0
    training_like = inputs.workload in {"training", "fine-tuning"}
    io_plan = _data_path(inputs, nodes, targets, appliance, training_like)
    if data_path_applies(not own_storage, inputs.workload):
        notes.assumed += io_plan.assumed
    fs = io_plan.file_system
    appliances = None
    if appliance is not None and fs.target == appliance.id:
        appliances = _appliances(appliance, io_plan)
        ports = appliances.ports
        port_note = (
            f"storage-side ports: {appliances.count} x {appliance.id}, "
            f"{appliances.ports // appliances.count} ports each"
        )
    else:
        # The read target at line rate, and a port per storage target, at least 2.
        ports = max(
            2,
            ceil_div(math.ceil(targets.read_gb_per_s * 8), int(st_speed)),
            fs.storage_targets or 0,
        )
        port_note = (
            f"storage-side ports: the {targets.tier} read target {targets.read_gb_per_s:g} GB/s at "
            f"{st_speed:g} Gb/s line rate and one per storage target, at least 2 (an estimate; the "
            "storage vendor sizes the array)"
        )
    if not own_storage:
        # the node's own north-south ports are the path to the site's storage
        ports = system.storage.ports if system.storage else ports
        port_note = (
            "single-node footprint: no storage system or storage fabric of its own; the data set "
            "sits on the node's local NVMe and the site's storage over its north-south ports "
            f"(the {targets.tier} read target {targets.read_gb_per_s:g} GB/s is what that storage "
            "should deliver); name a storage tier to size a storage system and its fabric"
        )
    section_notes = [port_note, f"file system: {fs.basis}"]
    if existing:
        section_notes.insert(
            0,
            "storage out of scope, as the request says: the customer's own storage serves the "
            "cluster, so no storage system is quoted or counted in the power; the targets say "
            "what it should deliver"
            + (", over the storage fabric designed to reach it" if own_storage else ""),
        )
    if chosen and arch and arch.storage_appliance and own_storage:
        section_notes.append(
            f"the storage system is the request's ({request.storage_system}), sized as its class: "
            f"the RA's example appliance ({arch.storage_appliance}) is not assumed"
        )
    if io_plan.checkpoint_interval_basis:
        section_notes.append(f"checkpoint interval: {io_plan.checkpoint_interval_basis}")
    elif training_like:
        every = request.checkpoint_interval_s
        section_notes.append(
            f"checkpoint every {every / 60:,.0f} min, as the request states (an interval, not "
            "a deadline); its write is not timed: give the model size or the checkpoint size"
            if every
            else "checkpoint not timed: give the model size (e.g. 70B) or the checkpoint size"
        )
    return StoragePlan(
        targets=targets,
        io=io_plan,
        appliance=appliance,
        appliances=appliances,
        storage_ports=ports,
        port_speed_gbps=appliances.port_speed_gbps if appliances else st_speed,
        notes=section_notes,
        site_storage=not own_storage,
        existing=existing,
    )


def storage_section(inputs: Inputs, plan: StoragePlan, network_gb: float | None) -> StorageSection:
    """The storage section: the data path analysed over the storage network the fabric gives
    (`network_gb`, GB/s; None when no fabric carries it)."""
    workload = plan.io.workload.model_copy(update={"storage_network_gb_per_s": network_gb})
    # the analysis depends on the workload alone: rows with one data path share it
    io = cached(
        inputs.catalog,
        ("analyze_storage", workload),
        lambda: analyze_storage(inputs.catalog, workload),
    )
    return StorageSection(
        targets=plan.targets,
        appliances=plan.appliances,
        storage_ports=plan.storage_ports,
        port_speed_gbps=plan.port_speed_gbps,
        file_system=plan.io.file_system,
        io=io,
        layout=io.recommended_layout,
        notes=plan.notes + io.notes,
        site_storage=plan.site_storage,
        existing=plan.existing,
    )
