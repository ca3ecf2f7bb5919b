"""Checks: every rule a design is validated against, passed or failed, with the figure; and
NVIDIA's published per-SU tables (catalog/su_tables.yaml) against a design: the row for the
design's RA, variant and size, the counts a sizing rule reads from it, and the check that
compares every count the row publishes with the design's own. A row is the table's only word: a
size no row publishes is derived by the rules, and the check says so rather than passing; a count
a row leaves out is derived the same way."""

from __future__ import annotations

import math

from clustergen.catalog.architectures import SU_TABLE_COUNTS, SuTable, SuTableRow
from clustergen.catalog.models import StorageModel
from clustergen.engine.cache import cached
from clustergen.engine.model.common import Check
from clustergen.engine.model.compute import RackPlan
from clustergen.engine.model.design import (
    ComputeSection,
    FabricsSection,
    PowerSection,
    RacksSection,
    ServersSection,
    StorageSection,
    data_path_applies,
)
from clustergen.engine.model.fabric import FabricDesign
from clustergen.engine.model.storage import StorageAnalysis
from clustergen.engine.model.workload import WorkloadEstimate
from clustergen.engine.sizing.inputs import Inputs, stated_bandwidth_scale, stated_capacity_tb
from clustergen.engine.sizing.platform import lone_unit
from clustergen.units import plural, ratio, watts


def check(
    name: str,
    passed: bool,
    figure: str,
    detail: str,
    severity: str = "error",
    unknown: bool = False,
) -> Check:
    """Build a Check; an `unknown` one (its figure rests on a missing value) is never passed."""
    return Check(
        name=name,
        passed=passed and not unknown,
        figure=figure,
        detail=detail,
        severity=severity,
        unknown=unknown,
    )


def deadline_check(deadline: float | None, w: WorkloadEstimate | None) -> Check | None:
    """A training deadline against the estimate: its reserve kept, and the planning range the
    estimate's band gives. An estimate that eats into the reserve might miss (a warning, with
    the range); one past the deadline misses."""
    if not deadline or w is None or w.days is None or w.kind == "inference":
        return None
    reserve = w.reserve_days or 0.0
    band = w.band_pct / 100
    low, high = w.days * (1 - band), w.days * (1 + band)
    span = f"planning range {low:,.0f}-{high:,.0f} days at +/-{w.band_pct:g}%"
    figure = f"{w.days:,.1f} days of {deadline:g} ({span})"
    if w.days > deadline * 1.0001:
        return check("finishes by the deadline", False, figure, "the estimate is past the deadline")
    if w.days > (deadline - reserve) * 1.0001:
        return check(
            "finishes by the deadline",
            False,
            figure,
            f"it might miss: the estimate eats into the {reserve:,.1f}-day reserve for "
            "evaluation, rollbacks and restarts; add GPUs or move the deadline",
            severity="warning",
        )
    kept = f"{deadline - w.days:,.1f} days kept in reserve ({reserve:,.1f} held back)"
    return check("finishes by the deadline", True, figure, kept)


#: A margin under this share of a power limit is a WARN (the limit is still met). A policy, not
#: a published figure: the power a design sums is datasheet maxima plus, for some parts,
#: labelled estimates (switch typical power, transceivers, control-plane servers), and a
#: deployment adds what no design lists (a console server, a spare, firmware that raises a
#: power cap). A margin under 5% of the limit, 3 kW on 3.2 MW, is one such item, so a
#: design that fills its limit that closely says so instead of reading as a plain pass.
MARGIN_SHARE = 0.05


def margin_check(name: str, used_w: float, limit_w: float, what: str) -> Check:
    """A met limit whose margin is under `MARGIN_SHARE` of it: a warning, the margin stated."""
    margin = limit_w - used_w
    share = margin / limit_w if limit_w else 0.0
    return check(
        name,
        share >= MARGIN_SHARE - 1e-12,
        f"{watts(margin)} of {watts(limit_w)} ({share:.1%}) left",
        f"{what}; a margin under {MARGIN_SHARE:.0%} of the limit warns: the summed figures are "
        "maxima and estimates, and a deployment adds parts no design lists",
        severity="warning",
    )


def _in_cap_units(w: float, cap_w: float) -> str:
    """A draw in the unit its cap is said in ("111.0 kW IT of 118.9 kW", "0.800 MW IT of 1.000
    MW"): a sub-megawatt cap read "0.111 MW of 0.119 MW" beside a cap written in kW."""
    return watts(w) if cap_w < 1e6 else f"{w / 1e6:.3f} MW"


def power_check(power: PowerSection, it_cap_w: float) -> Check:
    """IT power under the cap: passed or failed on a complete sum; on an incomplete one, failed
    when the known terms alone exceed the cap, else unknown."""
    detail = "IT power of compute, fabrics, management servers and storage appliances"
    if power.complete:
        return check(
            "power under cap",
            power.it_total_w <= it_cap_w,
            f"{_in_cap_units(power.it_total_w, it_cap_w)} IT of {watts(it_cap_w)}",
            detail,
        )
    over = power.it_total_w > it_cap_w
    return check(
        "power under cap",
        False,
        f"at least {_in_cap_units(power.it_total_w, it_cap_w)} IT of {watts(it_cap_w)}; unknown: "
        + "; ".join(power.unknown),
        detail + ("; the known terms alone exceed the cap" if over else ""),
        unknown=not over,
    )


def facility_reading_check(power: PowerSection, cap_w: float) -> Check:
    """A cap whose basis the request did not state is sized as IT power; this checks the other
    reading, so a customer who meant the meter learns whether the design still fits (a warning:
    the request did not say which it is)."""
    return check(
        "power under cap read as facility power",
        power.facility_total_w <= cap_w,
        f"{power.facility_total_w / 1e6:.3f} MW facility at PUE {power.pue:g} of "
        f"{cap_w / 1e6:.3f} MW",
        "the cap's basis (IT or facility) was not stated: sized as IT power, checked as "
        "facility power too; say 'IT' or 'facility' to settle it",
        severity="warning",
        unknown=not power.complete and power.facility_total_w <= cap_w,
    )


def fabric_checks(label: str, f: FabricDesign) -> list[Check]:
    """Clos rules every fabric must satisfy."""
    out = [
        check(
            f"{label}: leaf ports within radix",
            f.max_ports_used["leaf"] <= f.leaf_radix,
            f"{f.max_ports_used['leaf']:,} of {f.leaf_radix:,}",
            "no leaf uses more ports than it has",
        )
    ]
    if f.tiers >= 2 and f.spine_radix:
        out.append(
            check(
                f"{label}: spine ports within radix",
                f.max_ports_used["spine"] <= f.spine_radix,
                f"{f.max_ports_used['spine']:,} of {f.spine_radix:,}",
                "no spine uses more ports than it has",
            )
        )
        per_plane_spines = (f.spines_per_pod or f.spine_switches // f.planes) or 1
        out.append(
            check(
                f"{label}: uplinks spread evenly",
                f.leaf_uplinks % per_plane_spines == 0,
                f"{f.leaf_uplinks:,} uplinks over {per_plane_spines:,} spines",
                "each leaf sends the same number of links to every spine it reaches",
            )
        )
    if f.tiers == 2:
        cap = f.max_host_ports_at_tiers
        hosts = f.host_links // f.planes
        out.append(
            check(
                f"{label}: 2-tier capacity",
                hosts <= cap,
                f"{hosts:,} host ports, limit {cap:,}",
                "a 2-tier fat tree of radix-k switches serves at most k^2/2 host ports",
            )
        )
    if f.tiers == 3 and f.core_radix:
        out.append(
            check(
                f"{label}: core ports within radix",
                f.max_ports_used["core"] <= f.core_radix,
                f"{f.max_ports_used['core']:,} of {f.core_radix:,}",
                "no core switch uses more ports than it has",
            )
        )
    return out


def stated_storage_checks(inputs: Inputs, storage: StorageSection) -> list[Check]:
    """The read and write bandwidth and the usable capacity the request states, against what the
    storage designed delivers: a figure not met fails, a figure the catalog cannot tell (a
    file system of unknown capacity) is unknown, never a pass."""
    request = inputs.request
    app = storage.appliances
    usable = None
    fs = storage.file_system
    if app is not None:
        each = inputs.catalog.system(app.appliance).usable_capacity_tb
        usable = None if each is None else each * app.count
    estimated = ""
    if app is None and fs.target is not None and fs.storage_targets:
        target = inputs.catalog.get(StorageModel, fs.target)
        each = target.usable_capacity_tb
        usable = None if each is None else each * fs.storage_targets
        if each is not None and target.estimated("usable_capacity_tb"):
            estimated = f"; {each:g} TB usable per {target.id} is an estimate (its basis: catalog)"
    times = stated_bandwidth_scale(inputs, storage.targets.nodes)[0]
    read, write = request.storage_read_gb_per_s, request.storage_write_gb_per_s
    delivered = {
        "read": (read and read * times, app.read_gb_per_s if app else fs.read_gb_per_s),
        "write": (write and write * times, app.write_gb_per_s if app else fs.write_gb_per_s),
        "capacity": (stated_capacity_tb(inputs, storage.targets.nodes)[0], usable),
    }
    out = []
    for what, (asked, has) in delivered.items():
        if not asked:
            continue
        unit = "TB usable" if what == "capacity" else f"GB/s {what}"
        out.append(
            check(
                f"storage {what} meets the request",
                has is not None and has >= asked * (1 - 1e-9),
                f"{'unknown' if has is None else f'{has:,.0f}'} of {asked:,g} {unit}",
                "what the storage designed delivers against the figure the request states"
                + ("" if has is not None else "; the catalog gives no figure to check it by")
                + (estimated if what == "capacity" else ""),
                unknown=has is None,
            )
        )
    return out


def storage_io_checks(a: StorageAnalysis) -> list[Check]:
    """The data path keeps the GPUs fed: every limit of the storage I/O model, metadata and the
    checkpoint stall named on their own."""
    binding = next((lim for lim in a.limits if lim.name == a.binding_limit), None)
    fix = next((f.action for f in a.fixes if f.limit == a.binding_limit), None)
    out = [
        check(
            "data path keeps the GPUs fed",
            not a.io_bound,
            f"{a.data_gpu_utilisation:.0%} of GPU time allowed"
            + (f"; {binding.name} binds ({binding.description})" if binding else ""),
            "storage bandwidth, data loaders, metadata, IOPS and storage network against the "
            "GPUs' ingest" + (f"; fix: {fix}" if fix and a.io_bound else ""),
        )
    ]
    if a.metadata_ops_per_s is not None and a.metadata_capacity_ops_per_s is not None:
        fix = next((f.action for f in a.fixes if f.limit == "metadata"), None)
        out.append(
            check(
                "metadata load within the metadata servers",
                a.metadata_ops_per_s <= a.metadata_capacity_ops_per_s,
                f"{a.metadata_ops_per_s:,.0f} of {a.metadata_capacity_ops_per_s:,.0f} ops/s",
                f"{a.file_opens_per_s:,.0f} file opens/s of {a.file_mb:g} MB files"
                + (f"; fix: {fix}" if fix else ""),
            )
        )
    ckpt = next((lim for lim in a.limits if lim.name == "checkpoint"), None)
    if ckpt is not None and a.checkpoint_write_s is not None:
        budget = a.workload.checkpoint_budget_fraction
        out.append(
            check(
                "checkpoint stall within budget",
                not ckpt.binds or (a.checkpoint_stall_fraction or 0.0) <= budget,
                f"{a.checkpoint_write_s:,.1f} s per checkpoint, "
                f"{a.checkpoint_stall_fraction or 0.0:.2%} of the time (budget {budget:.0%})",
                ckpt.description,
            )
        )
    return out


def tiers_check(built: int, asked: int, reach: int) -> Check:
    """The tiers the request asked for against the tiers the size needs: a fabric with more
    tiers than its size needs costs switches, optics and hops for nothing; one with fewer than
    asked is still a whole Clos for its hosts. Either way a warning, not a failure."""
    return check(
        "compute fabric tiers as asked",
        built == asked,
        f"{built} tiers built, {asked} asked",
        f"the design builds the fewest tiers its hosts need ({built} tiers reach "
        f"{reach:,} host ports); "
        + (
            "a tier more adds switches, optics and a hop for no host"
            if asked > built
            else "its hosts need the tier more"
        ),
        severity="warning",
    )


def growth_check(cf: FabricDesign | None, gpus: int, gpus_per_node: int, later: int) -> Check:
    """Whether the compute fabric's tiers reach the size the cluster must grow to: growth within
    them adds leaves and spines (and their cables); past them it adds a tier, which a buyer
    plans now (rack space, spine or core ports, optics). A warning either way."""
    if cf is None:
        return check(
            f"fabric reaches the {later:,} GPUs to grow to",
            False,
            f"{gpus:,} GPUs on one node, no scale-out fabric",
            f"growing to {later:,} GPUs adds a compute fabric",
            severity="warning",
        )
    nodes_later = -(-later // gpus_per_node)
    per_node = cf.node_links / max(cf.nodes, 1) / cf.planes
    ports = math.ceil(nodes_later * per_node + cf.fabric_manager_links / cf.planes)
    reach = cf.max_host_ports_at_tiers
    fits = ports <= reach
    return check(
        f"fabric reaches the {later:,} GPUs to grow to",
        fits,
        f"{ports:,} host ports a plane at {later:,} GPUs; {plural(cf.tiers, 'tier')} reach "
        f"{reach:,}",
        "growth adds leaves and spines to the tiers built, no new tier (the spines' ports for "
        "it are not bought now)"
        if fits
        else f"growing to {later:,} GPUs adds a tier: plan its switches, ports and rack space now, "
        "or build the larger fabric from the start",
        severity="warning",
    )


def storage_ports_check(fabrics: FabricsSection, storage: StorageSection) -> Check:
    """Whether the storage ports carry the read target: a storage port delivers the slower of
    its own rate and the switch port it lands on."""
    st_rate = storage.port_speed_gbps
    if fabrics.storage is not None:
        st_rate = min(st_rate, fabrics.storage.port_speed_gbps)
    st_cap = storage.storage_ports * st_rate / 8
    targets = storage.targets
    return check(
        "storage ports carry the read target",
        st_cap >= targets.read_gb_per_s,
        # a capacity beside a need, not a fraction of it ("100 GB/s of 8 GB/s")
        f"{st_cap:,.0f} GB/s carried, {targets.read_gb_per_s:,.1f} GB/s needed",
        f"{targets.tier} tier, {targets.basis}",
    )


def racks_check(racks: RacksSection, max_racks: int) -> Check:
    """The design's racks against the positions the site has: compute racks and the network
    racks its switches, servers and storage need, all of them on the floor."""
    plan = racks.compute
    return check(
        "racks within the site's positions",
        racks.total_racks <= max_racks,
        f"{racks.total_racks} of {max_racks}",
        f"{plural(plan.compute_racks, 'compute rack')} ({plural(plan.nodes_per_rack, 'node')} "
        f"per rack, limited by {plan.limited_by}) + {plural(racks.network_racks, 'network rack')}",
    )


def design_checks(
    inputs: Inputs,
    compute: ComputeSection,
    fabrics: FabricsSection,
    racks: RackPlan,
    power: PowerSection,
    storage: StorageSection,
) -> list[Check]:
    """Every check of a whole design: the fabrics' Clos rules, power, racks, cooling, the
    workload's fabric, the GPUs delivered and the storage data path."""
    request, system = inputs.request, inputs.system
    cf, sf = fabrics.compute, fabrics.storage
    checks = fabric_checks("compute fabric", cf) if cf else []
    if cf and request.fabric_tiers:
        checks.append(tiers_check(cf.tiers, request.fabric_tiers, cf.max_host_ports_at_tiers))
    if request.growth_gpus and request.growth_gpus > compute.gpus:
        per_node = system.gpus_per_node
        checks.append(growth_check(cf, compute.gpus, per_node, request.growth_gpus))
    if sf:
        checks += fabric_checks("storage fabric", sf)
    if request.power_cap_w:
        it_cap_w = inputs.common.it_cap_w or 0.0
        checks.append(power_check(power, it_cap_w))
        if power.complete and power.it_total_w <= it_cap_w:
            checks.append(
                margin_check("power margin under cap", power.it_total_w, it_cap_w, "IT power")
            )
        if request.power_cap_basis is None:
            checks.append(facility_reading_check(power, request.power_cap_w))
    rack_kw = inputs.rack_power_kw
    # the most loaded rack the design has: a one-rack design's part-filled rack, not its layout
    most = max(racks.rack_loads, key=lambda g: g.power_kw, default=None)
    most_kw = most.power_kw if most else racks.rack_power_kw
    checks.append(
        check(
            "rack power within limit",
            most_kw <= rack_kw * 1.0001,
            f"{most_kw:.1f} kW of {rack_kw:.1f} kW",
            (
                "one rack-scale system per rack"
                if inputs.system.kind == "nvl-rack"
                else f"{plural(racks.nodes_per_rack, 'node')} per rack, limited by {racks.limited_by}"
                if most is None or most.nodes == racks.nodes_per_rack
                else f"{plural(most.nodes, 'node')} in the rack (room for {racks.nodes_per_rack}, "
                f"limited by {racks.limited_by})"
            ),
        )
    )
    if (inputs.choices.rack_power_kw or request.rack_power_kw) and most_kw <= rack_kw:
        # a limit the request states is the site's; a default one is the RA's own layout
        checks.append(
            margin_check("rack power margin", most_kw * 1e3, rack_kw * 1e3, "the most loaded rack")
        )
    checks.append(
        check(
            "cooling matches platform",
            not (system.cooling == "liquid" and inputs.cooling == "air"),
            f"{system.id} is {system.cooling}-cooled; racks are {inputs.cooling}",
            "a liquid-cooled platform cannot go in air-cooled racks",
        )
    )
    workload = inputs.workload
    oversub = cf.oversubscription if cf else 1.0
    checks.append(
        check(
            "fabric suits the workload",
            oversub <= 1.0 or workload not in {"training", "fine-tuning"},
            f"{ratio(oversub)} for {workload}"
            if cf
            else f"{lone_unit(inputs.system, inputs.platform.gpu)}, for {workload}",
            "training all-reduce needs a non-blocking compute fabric (the SuperPOD RAs are full fat trees)",
            severity="warning",
        )
    )
    if request.gpus:
        checks.append(
            check(
                "GPU count delivered",
                compute.gpus >= request.gpus,
                f"{compute.gpus:,} of {request.gpus:,}",
                "whole nodes cover the requested GPUs",
            )
        )
    checks.append(storage_ports_check(fabrics, storage))
    on_time = deadline_check(request.training_days, inputs.estimate)
    if on_time is not None:
        checks.append(on_time)
    checks += stated_storage_checks(inputs, storage)
    if data_path_applies(storage.site_storage, inputs.workload):
        checks += storage_io_checks(storage.io)
    return checks


#: what each count is called in the check's figure
_WORDS = {
    "compute_leaf": "compute leaves",
    "compute_spine": "compute spines",
    "compute_core": "compute core switches",
    "storage_leaf": "storage leaves",
    "storage_spine": "storage spines",
    "storage_switches": "storage switches",
    "inband_switches": "in-band switches",
    "oob_switches": "out-of-band switches",
    "fabric_managers": "fabric managers",
    "management_servers": "management servers",
    "management_racks": "management racks",
    "racks": "racks",
}

CHECK_NAME = "published RA table"

#: counts that follow the storage designed (its appliances' ports, their racks): the table's are
#: for the storage the RA was built with, so a difference there is a warning, not a failure
STORAGE_COUNTS = frozenset(
    {"storage_leaf", "storage_spine", "storage_switches", "management_racks", "racks"}
)


def su_tables(inputs: Inputs, planes: int | None) -> list[SuTable]:
    """The tables published for the design's architecture, system and compute planes (a table
    of a variant names its planes; one that does not holds for the RA's own)."""
    arch = inputs.architecture
    if arch is None:
        return []
    arch_id, system_id, catalog = arch.id, inputs.system.id, inputs.catalog
    return cached(
        catalog,
        ("su_tables", arch_id, system_id, planes or 1),
        lambda: [
            t
            for t in catalog.all(SuTable)
            if t.architecture == arch_id
            and (not t.systems or system_id in t.systems)
            and (t.planes is None or t.planes == (planes or 1))
        ],
    )


def published_row(inputs: Inputs, nodes: int, planes: int | None) -> SuTableRow | None:
    """The row NVIDIA publishes for this design's RA, variant and node count, or None."""
    return next((row for t in su_tables(inputs, planes) if (row := t.row(nodes)) is not None), None)


def published_count(inputs: Inputs, nodes: int, planes: int | None, count: str) -> int | None:
    """One count the published row gives for this design (`SU_TABLE_COUNTS`), or None."""
    row = published_row(inputs, nodes, planes)
    return None if row is None else row.counts().get(count)


def design_counts(
    fabrics: FabricsSection, servers: ServersSection, racks: RacksSection
) -> dict[str, int]:
    """The design's own figure for every count a table may publish."""
    cf, sf = fabrics.compute, fabrics.storage
    counts = {
        "compute_leaf": cf.leaf_switches if cf else 0,
        "compute_spine": cf.spine_switches if cf else 0,
        "compute_core": cf.core_switches if cf else 0,
        "storage_leaf": sf.leaf_switches if sf else 0,
        "storage_spine": sf.spine_switches if sf else 0,
        "storage_switches": sf.total_switches if sf else 0,
        "inband_switches": fabrics.inband.total_switches if fabrics.inband else 0,
        "oob_switches": fabrics.oob.total_switches if fabrics.oob else 0,
        "fabric_managers": servers.fabric_managers,
        "management_servers": servers.management_servers,
        "management_racks": racks.network_racks,
        "racks": racks.total_racks,
    }
    assert set(counts) == set(SU_TABLE_COUNTS)
    return counts


def su_table_check(
    inputs: Inputs,
    nodes: int,
    fabrics: FabricsSection,
    servers: ServersSection,
    racks: RacksSection,
    follows_ra: bool,
) -> Check:
    """The design against the table for its RA and size: PASS when every count the row
    publishes is the design's, FAIL naming each difference (WARN where only the counts that follow
    the storage designed differ); where no row publishes the size (or the design leaves its RA),
    INFO that the rule derived the counts, never a pass."""
    arch = inputs.architecture
    # a rack-scale system is one node a rack: its rows count racks
    unit = "rack" if inputs.system.kind == "nvl-rack" else "node"
    planes = fabrics.compute.planes if fabrics.compute else None
    tables = su_tables(inputs, planes) if follows_ra else []
    row = next((r for t in tables if (r := t.row(nodes)) is not None), None)
    if row is None:
        if arch is None or not follows_ra:
            why = "the design follows no reference architecture"
        elif not tables:
            why = f"no per-SU table of {arch.name} is in the catalog"
        else:
            sizes = sorted({r.nodes for t in tables for r in t.rows})
            why = (
                f"{arch.name} publishes no row at {plural(nodes, unit)} "
                f"(rows at {', '.join(f'{s:,}' for s in sizes)} {unit}s)"
            )
        return Check(
            name=CHECK_NAME,
            passed=True,  # nothing failed; the status reads INFO, not PASS
            figure="derived by rule: " + why,
            detail="every component count comes from the sizing rules, not a published table",
            severity="info",
        )
    ours = design_counts(fabrics, servers, racks)
    published = row.counts()
    # a compute fabric built at another oversubscription than the RA's, as the request asked
    # ("2:1 is fine"), departs from the table's compute counts by design: they are the rule's
    asked = inputs.request.oversubscription
    rule_compute = (
        arch is not None
        and asked is not None
        and asked != arch.compute_fabric.oversubscription
        and fabrics.compute is not None
    )
    if rule_compute:
        published = {k: v for k, v in published.items() if not k.startswith("compute_")}
        if not published:
            return Check(
                name=CHECK_NAME,
                passed=True,  # nothing failed; the status reads INFO, not PASS
                figure=f"derived by rule: the compute fabric is {asked:g}:1 as asked",
                detail=f"the table at {plural(nodes, unit)} publishes compute counts only, for "
                f"its non-blocking fabric: {row.source}",
                severity="info",
            )
    differ = {k: v for k, v in published.items() if ours[k] != v}
    listed = ", ".join(f"{v:,} {_WORDS[k]}" for k, v in published.items())
    detail = f"{listed} at {plural(nodes, unit)}: {row.source}"
    if rule_compute:
        detail += (
            f"; the compute fabric is {asked:g}:1 as the request asks, not the RA's "
            f"{arch.compute_fabric.oversubscription:g}:1, so its counts are the rule's, not compared"
            if arch is not None
            else ""
        )
    storage_only = bool(differ) and set(differ) <= STORAGE_COUNTS
    if storage_only:
        detail += (
            "; the storage fabric and racks follow the storage designed, the table's the "
            "storage the RA was built with"
        )
    return Check(
        name=CHECK_NAME,
        passed=not differ,
        figure="; ".join(
            f"{_WORDS[k]} {ours[k]:,} where the table has {v:,}" for k, v in differ.items()
        )
        or f"{plural(len(published), 'count')} match",
        detail=detail,
        severity="warning" if storage_only else "error",
    )
