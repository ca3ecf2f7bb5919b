"""`clustergen fabric`, `clustergen power`, `clustergen size`: the foundation's sizing commands."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from clustergen.cli.options import (
    CatalogOpt,
    JsonOpt,
    NoUfmOpt,
    OversubOpt,
    PlanesOpt,
    PlatformOpt,
    SpeedOpt,
    SuOpt,
    SwitchOpt,
    TechOpt,
    parse_ratio,
    parse_technology,
)
from clustergen.cli.output import fmt_w, kv_table, print_json, stdout, table
from clustergen.errors import RequestError
from clustergen.units import ratio

if TYPE_CHECKING:
    from clustergen.engine.model.compute import FabricChoices


def _choices(
    switch: str | None,
    technology: str | None,
    su_nodes: int | None,
    oversubscription: str | None,
    planes: int | None,
    port_speed: float | None,
    no_fm: bool,
) -> FabricChoices:
    from clustergen.engine.model.compute import FabricChoices
    from clustergen.engine.request.translate import build

    return build(
        FabricChoices,
        switch=switch,
        technology=parse_technology(technology),
        su_nodes=su_nodes,
        oversubscription=parse_ratio(oversubscription),
        planes=planes,
        port_speed_gbps=port_speed,
        fabric_manager=not no_fm,
    )


def fabric(
    platform: PlatformOpt,
    nodes: Annotated[
        int, typer.Option("--nodes", min=1, help="Compute nodes (an NVL72 rack is one).")
    ],
    switch: SwitchOpt = None,
    su_nodes: SuOpt = None,
    oversubscription: OversubOpt = None,
    planes: PlanesOpt = None,
    port_speed: SpeedOpt = None,
    technology: TechOpt = None,
    no_fabric_manager: NoUfmOpt = False,
    catalog: CatalogOpt = None,
    json: JsonOpt = False,
) -> None:
    """Size the compute fabric (2- or 3-tier fat tree, rail-optimized SUs) for N nodes."""
    from clustergen.catalog import load_catalog
    from clustergen.engine.sizing.fabric import platform_fabric

    choices = _choices(
        switch, technology, su_nodes, oversubscription, planes, port_speed, no_fabric_manager
    )
    result = platform_fabric(load_catalog(catalog), platform, nodes, choices)
    f = result.fabric
    if json:
        out = f.model_dump(mode="json")
        out.update(platform=result.platform, gpus=result.gpus, architecture=result.architecture)
        out["assumed"] = [a.model_dump() for a in result.assumed]
        print_json(out)
        return
    stdout.print(
        kv_table(
            f"{result.platform}: {nodes} nodes, {result.gpus} GPUs — {f.technology} fabric",
            [
                (
                    "tiers / planes",
                    f"{f.tiers} / {f.planes}"
                    + (
                        f" (each {f.port_speed_gbps:g}G node port split {f.planes} x "
                        f"{f.plane_port_speed_gbps:g}G)"
                        if f.plane_split
                        else ""
                    ),
                ),
                ("scalable units", f"{f.scalable_units} of {f.su_nodes}" if f.su_nodes else "—"),
                (
                    "leaf / spine / core switches",
                    f"{f.leaf_switches} / {f.spine_switches} / {f.core_switches}",
                ),
                ("switch model", f.leaf_switch),
                ("leaf down / up ports", f"{f.leaf_downlinks} / {f.leaf_uplinks}"),
                ("node links", f.node_links),
                ("fabric-manager links", f.fabric_manager_links),
                ("leaf-spine links", f.leaf_spine_links),
                ("spine-core links", f.spine_core_links),
                ("oversubscription", f"{ratio(f.oversubscription)}"),
                ("bisection bandwidth", f"{f.bisection_bandwidth_gbps / 1e3:,.1f} Tb/s"),
                ("switch power", fmt_w(f.power.switches_w)),
                ("optics power", fmt_w(f.power.optics_w)),
            ],
        )
    )
    if f.transceivers:
        stdout.print(
            table(
                "transceivers",
                ("where", "part", "count", "power"),
                ((t.location, t.optic, t.count, fmt_w(t.power_w)) for t in f.transceivers),
            )
        )
    # the engine's field names in words, imported here: the command loads no design model
    from clustergen.engine.report.words import field_words, value_words

    for a in result.assumed:
        stdout.print(
            f"assumed {field_words(a.field)} = {value_words(a.value)}: {a.reason}", markup=False
        )
    for n in f.notes:
        stdout.print(f"note: {n}", markup=False)


def power(
    platform: PlatformOpt,
    cap_mw: Annotated[float, typer.Option("--cap-mw", help="Power cap in MW.")],
    facility: Annotated[
        bool, typer.Option("--facility", help="The cap is facility power (divide by --pue).")
    ] = False,
    pue: Annotated[float | None, typer.Option("--pue", help="PUE for a facility cap.")] = None,
    whole_su: Annotated[
        bool, typer.Option("--whole-su", help="Only whole scalable units.")
    ] = False,
    switch: SwitchOpt = None,
    su_nodes: SuOpt = None,
    oversubscription: OversubOpt = None,
    planes: PlanesOpt = None,
    port_speed: SpeedOpt = None,
    technology: TechOpt = None,
    no_fabric_manager: NoUfmOpt = False,
    catalog: CatalogOpt = None,
    json: JsonOpt = False,
) -> None:
    """Power-first solve: the most GPUs whose IT power (nodes, switches, optics) fits the cap."""
    from clustergen.catalog import load_catalog
    from clustergen.engine.model.bounds import MAX_POWER_MW, check_number
    from clustergen.engine.solve.power_first import most_under_cap

    if cap_mw <= 0:
        raise RequestError(f"--cap-mw must be positive, got {cap_mw:g}")
    check_number("--cap-mw", cap_mw, gt=0, le=MAX_POWER_MW)
    choices = _choices(
        switch, technology, su_nodes, oversubscription, planes, port_speed, no_fabric_manager
    )
    r = most_under_cap(
        load_catalog(catalog),
        platform,
        cap_mw * 1e6,
        choices=choices,
        cap_basis="facility" if facility else "it",
        pue=pue,
        whole_su=whole_su,
    )
    if json:
        print_json(r)
        return
    f = r.fabric
    stdout.print(
        kv_table(
            f"{r.platform} under {cap_mw:g} MW ({r.cap_basis})",
            [
                ("nodes / GPUs", f"{r.nodes} / {r.gpus}"),
                ("GPUs per MW (IT)", f"{r.gpus_per_mw:,.1f}"),
                ("node power", f"{fmt_w(r.node_power.node_w)} ({r.node_power.basis})"),
                ("compute", fmt_w(r.compute_w)),
                ("switches", fmt_w(r.switches_w)),
                ("optics", fmt_w(r.optics_w)),
                ("IT total", ("" if r.complete else "at least ") + fmt_w(r.it_total_w)),
                ("headroom", fmt_w(r.headroom_w)),
                (
                    "fabric",
                    f"{f.tiers}-tier, {f.leaf_switches}/{f.spine_switches}/{f.core_switches} {f.leaf_switch}",
                ),
            ],
        )
    )
    for n in r.notes:
        stdout.print(f"note: {n}", markup=False)


def size(
    config: Annotated[Path, typer.Option("--config", help="The seed memo's JSON sizing config.")],
    json: JsonOpt = False,
) -> None:
    """Size the seed memo's JSON config with buildable Clos rules, and say where the seed differs."""
    from pydantic import ValidationError

    from clustergen.cli.userfiles import load_user_json
    from clustergen.engine.calculators.seedconfig import SeedConfig, size_seed_config
    from clustergen.engine.request.translate import input_error

    raw = load_user_json(config, "--config")
    try:
        cfg = SeedConfig.model_validate(raw)
    except ValidationError as exc:
        raise input_error(
            exc,
            where=f"--config {config}",
            hint="see the seed memo's example_5mw_config.json for the format",
        ) from None
    r = size_seed_config(cfg)
    if json:
        print_json(r)
        return
    stdout.print(
        kv_table(
            f"{r.node_type} / {r.fabric_name} under {fmt_w(r.it_cap_w)} IT",
            [
                ("feasible nodes / GPUs", f"{r.nodes} / {r.gpus}"),
                ("GPUs per MW", f"{r.gpus_per_mw:,.2f}"),
                ("tiers", r.tiers),
                ("leaves / spines / cores", f"{r.leaves} / {r.spines} / {r.cores}"),
                ("host ports", r.host_ports),
                ("nodes", fmt_w(r.p_node_total_w)),
                ("switching", fmt_w(r.p_switching_w)),
                ("optics", fmt_w(r.p_optics_w)),
                ("total", fmt_w(r.p_total_w)),
            ],
        )
    )
    c = r.seed_comparison
    stdout.print(
        f"seed script: {c.seed_leaves} leaves, {c.seed_spines} spines, 2 tiers", markup=False
    )
    for d in c.differences:
        stdout.print(f"differs: {d}", markup=False)


def register(app: typer.Typer) -> None:
    """Add the sizing commands to the root app."""
    app.command("fabric")(fabric)
    app.command("power")(power)
    app.command("size")(size)
