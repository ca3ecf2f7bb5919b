"""`clustergen fleet plan`: tier a mixed GPU fleet and share it among job classes."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from clustergen.cli.options import CatalogOpt, JsonOpt
from clustergen.cli.output import print_json, stdout, table
from clustergen.errors import RequestError
from clustergen.safe_text import picture_text

if TYPE_CHECKING:
    from clustergen.engine.calculators.fleet import FleetPlan

app = typer.Typer(help="Plan the use of a mixed GPU fleet.", no_args_is_help=True)


def parse_tiers(text: str | None) -> list[float] | None:
    """'80,32,8' to [80.0, 32.0, 8.0]."""
    if text is None:
        return None
    try:
        return [float(part) for part in text.replace(" ", "").split(",") if part]
    except ValueError:
        raise RequestError(
            f"--tiers {text!r} is not a list of GB values", hint="e.g. --tiers 80,32,8"
        ) from None


@app.command("plan")
def plan(
    inventory: Annotated[
        Path,
        typer.Option("--inventory", help="Inventory YAML (see examples/fleet-inventory.yaml)."),
    ],
    tiers: Annotated[
        str | None,
        typer.Option("--tiers", help="Tier memory thresholds in GB, descending, e.g. 80,32,8."),
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option(
            "--plot", metavar="<file>", help="Also draw capacity by tier and job class to FILE.png."
        ),
    ] = None,
    catalog: CatalogOpt = None,
    json: JsonOpt = False,
) -> None:
    """Tiers by GPU memory, job-class shares summing to capacity, idle capacity, ephemeral rules."""
    from clustergen.catalog import load_catalog
    from clustergen.cli import plotting
    from clustergen.engine.calculators.fleet import FleetPolicy, parse_inventory, plan_fleet
    from clustergen.engine.request.translate import build

    if plot is not None:
        plotting.check_target(plot)
        plotting.pyplot()
    from clustergen.cli.userfiles import read_user_text

    text = read_user_text(inventory, "--inventory")
    inv = parse_inventory(text, str(inventory))
    policy = inv.policy
    thresholds = parse_tiers(tiers)
    if thresholds is not None:
        fields = policy.model_dump()
        fields["tier_thresholds_gb"] = thresholds
        policy = build(FleetPolicy, **fields)
    result = plan_fleet(load_catalog(catalog), inv, policy)
    if plot is not None:
        _plot(result, plot)
    if json:
        out = result.model_dump(mode="json")
        out["plot"] = str(plot) if plot else None
        print_json(out)
        return
    _print(result)
    if plot is not None:
        stdout.print(f"plot written to {plot}", markup=False)


def _print(p: FleetPlan) -> None:
    classes = [c.name for c in p.classes]
    stdout.print(
        table(
            f"fleet {p.inventory or ''}: {len(p.nodes)} nodes, {p.capacity_gpus} schedulable GPUs, "
            f"{p.capacity_memory_gb:,.0f} GB GPU memory",
            ("tier", "min GB", "nodes", "GPUs", "memory GB", *classes),
            (
                (
                    t.tier,
                    f"{t.min_memory_gb:g}",
                    len(t.nodes),
                    t.gpus,
                    f"{t.memory_gb:,.0f}",
                    *(f"{t.by_class_memory_gb.get(c, 0.0):,.0f}" for c in classes),
                )
                for t in p.tiers
            ),
        )
    )
    stdout.print(
        table(
            "job classes (shares of GPU memory x time)",
            (
                "class",
                "quota",
                "share",
                "GB",
                "backfill GB",
                "short GB",
                "GPU-equiv",
                "nodes",
                "cost $/h",
            ),
            (
                (
                    c.name + (" (preemptible)" if c.preemptible else ""),
                    f"{c.quota:.0%}",
                    f"{c.share:.1%}",
                    f"{c.quota_memory_gb:,.0f}",
                    f"{c.backfill_memory_gb:,.0f}",
                    f"{c.shortfall_memory_gb:,.0f}",
                    f"{c.gpu_equivalents:g}",
                    len(c.nodes),
                    _cost(c.hourly_usd_known, c.nodes_cost_unknown),
                )
                for c in p.classes
            ),
        )
    )
    stdout.print(f"idle: {p.idle_memory_gb:,.0f} GB ({p.idle_share:.1%})", markup=False)
    stdout.print(
        table(
            "nodes",
            ("node", "provider", "GPU", "GPUs", "GB/GPU", "tier", "ephemeral", "$/h", "allocation"),
            (
                (
                    n.name,
                    n.provider,
                    n.gpu_id or f"{n.gpu} (not in catalog)",
                    n.gpus,
                    f"{n.memory_gb_per_gpu:g}",
                    n.tier if n.schedulable else "—",
                    "yes" if n.ephemeral else "no",
                    "unknown" if n.hourly_usd is None else f"{n.hourly_usd:g}",
                    ", ".join(f"{k} {v:.0%}" for k, v in n.allocation.items()) or "—",
                )
                for n in p.nodes
            ),
        )
    )
    for n in p.nodes:
        for g in n.guidance:
            stdout.print(f"{n.name}: {g}", markup=False)
    stdout.print(f"ephemeral: {p.ephemeral_guidance}", markup=False)
    for e in p.excluded:
        stdout.print(f"excluded: {e}", markup=False)
    for a in p.assumed:
        stdout.print(f"assumed: {a}", markup=False)
    for note in p.notes:
        stdout.print(f"note: {note}", markup=False)


def _cost(known: float, unknown: int) -> str:
    if unknown and not known:
        return "unknown"
    return f"{known:,.2f}" + (f" + {unknown} unknown" if unknown else "")


def _split(p: FleetPlan) -> dict[tuple[int, bool], dict[str, float]]:
    """(tier, ephemeral) -> job class (and 'idle') -> GPU memory x time, over schedulable nodes."""
    out: dict[tuple[int, bool], dict[str, float]] = {}
    for n in p.nodes:
        if not n.schedulable or n.tier is None:
            continue
        cell = out.setdefault((n.tier, n.ephemeral), {})
        for cls, share in n.allocation.items():
            cell[cls] = cell.get(cls, 0.0) + share * n.memory_gb
        cell["idle"] = cell.get("idle", 0.0) + n.idle_fraction * n.memory_gb
    return out


def _plot(p: FleetPlan, path: Path) -> None:
    """For each tier, a bar of its stable nodes and a hatched bar of its ephemeral ones, each
    stacked by job class with idle capacity on top: where the capacity that can vanish sits."""
    from clustergen.cli import plotting

    plt = plotting.pyplot()
    split = _split(p)
    cells = sorted(split, key=lambda k: (k[0], k[1]))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    fig, ax = plt.subplots(figsize=(max(7.0, 1.3 * len(cells) + 2), 4.8))
    labels = [f"tier {t}\n{'ephemeral' if eph else 'stable'}" for t, eph in cells]
    bottoms = [0.0] * len(cells)
    names = [c.name for c in p.classes] + ["idle"]
    for i, name in enumerate(names):
        values = [split[c].get(name, 0.0) for c in cells]
        if not any(values):
            continue
        share = next((c.share for c in p.classes if c.name == name), None)
        ax.bar(
            labels,
            values,
            bottom=bottoms,
            color="lightgray" if name == "idle" else colors[i % len(colors)],
            hatch=["//" if eph else "" for _, eph in cells],
            edgecolor="white",
            label=picture_text(name if share is None else f"{name} ({share:.0%} of capacity)"),
        )
        bottoms = [b + v for b, v in zip(bottoms, values, strict=True)]
    eph_total = sum(sum(v.values()) for (_, eph), v in split.items() if eph)
    total = sum(sum(v.values()) for v in split.values())
    ax.set_ylim(0, max([*bottoms, 1.0]) * 1.15)
    ax.set_ylabel("GPU memory (GB) x time")
    ax.set_title(
        "fleet capacity by tier, stable vs ephemeral (hatched), by job class: "
        f"{picture_text(p.inventory or '')}\n"
        f"ephemeral: {eph_total:,.0f} of {total:,.0f} GB ({eph_total / total if total else 0:.0%})",
        fontsize=10,
    )
    ax.legend(fontsize=8)
    plotting.save(fig, path)
