"""`clustergen sensitivity`: the seed memo's sensitivity questions at a fixed power cap, as tables,
JSON and a plot."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from clustergen.cli.options import CatalogOpt, JsonOpt, parse_technology
from clustergen.cli.output import print_json, say, stdout, table
from clustergen.errors import RequestError

if TYPE_CHECKING:
    from clustergen.engine.model.sensitivity import FabricOption, Sensitivity

#: GPU-power changes shown as columns in the terminal (JSON and the plot have every point)
SHOWN_CHANGES = (0.1, 0.2, 0.3, 0.5)
#: options shown in the GPU-power table: the eligible ones with the most GPUs
SHOWN_OPTIONS = 8


def sensitivity(
    text: Annotated[str | None, typer.Argument(help='The request, e.g. "5 MW training".')] = None,
    request: Annotated[
        Path | None, typer.Option("--request", help="Request as a YAML file.")
    ] = None,
    cap_mw: Annotated[
        float | None, typer.Option("--cap-mw", help="Override: power cap in MW.")
    ] = None,
    platform: Annotated[str | None, typer.Option("--platform", help="Override: system id.")] = None,
    fabric: Annotated[
        str | None, typer.Option("--fabric", help="Override: infiniband or ethernet.")
    ] = None,
    workload: Annotated[
        str | None, typer.Option("--workload", help="Override: training, inference, ...")
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option("--plot", help="Also draw the four sweeps to FILE.png.", dir_okay=False),
    ] = None,
    catalog: CatalogOpt = None,
    json: JsonOpt = False,
) -> None:
    """GPUs per MW for each fabric option, GPUs lost per +X% GPU power, the best option as
    optics power moves, and GPUs against the cap (the cap held fixed)."""
    from clustergen.catalog import load_catalog
    from clustergen.cli import plotting
    from clustergen.cli.design_cmd import load_request
    from clustergen.engine.search.sensitivity import sensitivity as sweep

    if text is None and request is None:
        raise RequestError('give a request with a power cap, e.g. clustergen sensitivity "5 MW"')
    if plot is not None:
        plotting.check_target(plot)
    cat = load_catalog(catalog)
    overrides = {
        "power_cap_w": cap_mw * 1e6 if cap_mw is not None else None,
        "platform": platform,
        "fabric": parse_technology(fabric),
        "workload": workload,
    }
    s = sweep(cat, load_request(cat, text, request, overrides))
    if plot is not None:
        plotting.save(plotting.sensitivity_figure(s), plot)
    if json:
        out = s.model_dump(mode="json")
        out["plot"] = str(plot) if plot else None
        print_json(out)
        return
    _print(s)
    if plot is not None:
        say(f"plot written to {plot}")


def _note(s: Sensitivity, o: FabricOption) -> str:
    if o.option == s.chosen:
        return "best"
    if o.power_unknown:
        return "upper bound"
    return "" if o.eligible else "blocking"


def _print(s: Sensitivity) -> None:
    mw = s.cap_w / 1e6
    say(
        f"sensitivity at {mw:g} MW IT ({s.workload}): {len(s.options)} options, "
        f"{s.points} designs solved in {s.seconds:.2f} s"
    )
    say(f"objective: {s.objective}")
    if s.chosen:
        say(f"best option at catalog power: {s.chosen}")
    stdout.print(
        table(
            f"GPUs per MW for each fabric option (IT cap {mw:g} MW)",
            ("option", "GPUs", "GPUs/MW", "dense PFLOPS", "optics", "note"),
            (
                (
                    o.option,
                    f"{o.gpus:,}",
                    f"{o.gpus_per_mw:,.1f}",
                    "unknown" if o.dense_pflops is None else f"{o.dense_pflops:,.0f}",
                    "unknown"
                    if "transceiver power" in o.power_unknown
                    else f"{o.optics_share:.1%}",
                    _note(s, o),
                )
                for o in s.options
            ),
        )
    )
    shown = sorted((o for o in s.options if o.eligible), key=lambda o: -o.gpus)[:SHOWN_OPTIONS]
    lost = {(p.option, p.change): p.gpus_lost for p in s.gpu_power}
    stdout.print(
        table(
            f"GPUs lost at {mw:g} MW as GPU power rises",
            ("option", *(f"+{c:.0%}" for c in SHOWN_CHANGES), "per +10%"),
            (
                (
                    o.option,
                    *(f"{lost.get((o.option, c), '—'):,}" for c in SHOWN_CHANGES),
                    f"{s.gpus_lost_per_10pct[o.option]:,.0f}",
                )
                for o in shown
            ),
        )
    )
    stdout.print(
        table(
            "best option as optics power scales",
            ("optics", "best option", "its GPUs"),
            (
                (f"{p.scale:g}x", p.winner or "—", f"{p.gpus.get(p.winner or '', 0):,}")
                for p in s.optics
            ),
        )
    )
    for line in s.optics_switch_points or ["the best option does not change over the sweep"]:
        say(f"optics: {line}")
    if s.chosen:
        chosen = s.chosen
        stdout.print(
            table(
                f"GPUs against the cap: {chosen}",
                ("IT cap", "GPUs", "GPUs/MW"),
                (
                    (
                        f"{c.cap_w / 1e6:g} MW",
                        f"{c.gpus[chosen]:,}",
                        f"{c.gpus[chosen] / (c.cap_w / 1e6):,.1f}",
                    )
                    for c in s.caps[1::2]
                ),
            )
        )
    for b in s.basis:
        say(f"basis: {b}")


def register(app: typer.Typer) -> None:
    """Add `sensitivity` to the root app."""
    app.command("sensitivity")(sensitivity)
