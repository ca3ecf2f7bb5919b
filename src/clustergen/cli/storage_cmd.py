"""`clustergen storage ...`: will storage keep the GPUs fed, and SuperPOD storage targets by tier."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from clustergen.cli.field_opts import FieldSet, Flag, Given, field_options
from clustergen.cli.options import CatalogOpt, JsonOpt
from clustergen.cli.output import kv_table, print_json, stdout, table

if TYPE_CHECKING:
    from clustergen.engine.model.storage import StorageAnalysis

app = typer.Typer(
    help="Storage: data-path I/O analysis and SuperPOD storage targets.", no_args_is_help=True
)

PlotOpt = Annotated[
    Path | None,
    typer.Option(
        "--plot", metavar="<file>", help="Also draw a picture to FILE.png (needs the plot extra)."
    ),
]


# The I/O workload: the common IoWorkload fields as options of their own, the rest through --set.
_IO_FLAGS = (
    ("gpus", "--gpus", int, "GPUs reading training data."),
    (
        "ingest_mb_per_s_per_gpu",
        "--ingest-mb-per-s",
        float,
        "Data each GPU consumes at full speed, MB/s.",
    ),
    ("samples_per_s_per_gpu", "--samples-per-s", float, "Samples per second per GPU."),
    ("sample_mb", "--sample-mb", float, "Size of one sample (one file), MB."),
    ("workers_per_gpu", "--workers", int, "Data-loader workers per GPU."),
    ("read_pattern", "--pattern", str, "sequential, random-small or prefetch."),
    ("layout", "--layout", str, "one-file-per-sample, shards or object-store."),
    ("system", "--system", str, "local-nvme, parallel-fs or object-store."),
    ("storage_targets", "--targets", int, "Parallel-FS storage targets (OSTs)."),
    ("read_gb_per_s", "--read-gb-per-s", float, "Aggregate read GB/s (overrides targets)."),
    ("write_gb_per_s", "--write-gb-per-s", float, "Aggregate write GB/s."),
    ("metadata_servers", "--metadata-servers", int, "Metadata servers (MDS)."),
    ("checkpoint_gb", "--checkpoint-gb", float, "Checkpoint size, GB."),
    ("checkpoint_interval_s", "--checkpoint-interval-s", float, "Seconds between checkpoints."),
)


def _io_fields() -> FieldSet:
    from clustergen.engine.model.storage import IoWorkload

    fields = IoWorkload.model_fields
    return FieldSet(
        flags=[
            Flag(
                field=name,
                decls=(option,),
                type=kind,
                help=text,
                default=None if fields[name].is_required() else fields[name].default,
                required=fields[name].is_required(),
            )
            for name, option, kind, text in _IO_FLAGS
        ],
        settable=list(fields),
        set_help="Any other workload field in its own unit, repeatable: --set prefixes=64.",
    )


@app.command("analyze")
@field_options(_io_fields)
def analyze(
    plot: PlotOpt = None,
    catalog: CatalogOpt = None,
    json: JsonOpt = False,
    *,
    given: Given,
) -> None:
    """Bandwidth, IOPS, metadata and checkpoint load against the storage; what binds; what fixes it."""
    from clustergen.catalog import load_catalog
    from clustergen.cli import plotting
    from clustergen.engine.model.storage import IoWorkload
    from clustergen.engine.request.translate import validated
    from clustergen.engine.sizing.storage import analyze_storage

    if plot is not None:
        plotting.check_target(plot)
        plotting.pyplot()
    workload = validated(IoWorkload, given.fields)
    cat = load_catalog(catalog)
    result = analyze_storage(cat, workload)
    if plot is not None:
        _plot(cat, result, plot)
    if json:
        out = result.model_dump(mode="json")
        out["plot"] = str(plot) if plot else None
        print_json(out)
        return
    _print(result)
    if plot is not None:
        stdout.print(f"plot written to {plot}", markup=False)


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x:.1%}"


def _num(x: float | None, unit: str = "") -> str:
    if x is None:
        return "unknown"
    text = f"{x:,.0f}" if abs(x) >= 100 else f"{x:,.3g}"
    return f"{text} {unit}".strip()


def _print(a: StorageAnalysis) -> None:
    w = a.workload
    verdict = "I/O-bound" if a.io_bound else "fed"
    rows: list[tuple[str, Any]] = [
        ("GPU utilisation", f"{_pct(a.gpu_utilisation)} ({verdict})"),
        ("binding limit", a.binding_limit or "none"),
        (
            "first limit as GPUs grow",
            f"{a.first_limit_at_scale} at {a.first_limit_at_gpus:,} GPUs"
            if a.first_limit_at_scale and a.first_limit_at_gpus
            else "none with fixed capacity",
        ),
        ("ingest per GPU", _num(a.ingest_mb_per_s_per_gpu, "MB/s")),
        ("read demand", _num(a.demand_read_gb_per_s, "GB/s")),
        ("read supply (raw sequential)", _num(a.supply_read_gb_per_s, "GB/s")),
        (f"read ceiling ({w.read_pattern})", _num(a.pattern_read_gb_per_s, "GB/s")),
        (
            "delivered / storage busy",
            f"{_num(a.delivered_read_gb_per_s, 'GB/s')} / {_pct(a.storage_busy_fraction)}",
        ),
        ("read IOPS demand / supply", f"{_num(a.read_iops_demand)} / {_num(a.read_iops_supply)}"),
        ("file opens", _num(a.file_opens_per_s, "/s")),
        (
            "metadata ops demand / capacity",
            f"{_num(a.metadata_ops_per_s)} / {_num(a.metadata_capacity_ops_per_s)}"
            if a.metadata_ops_per_s is not None
            else "no metadata server in the path",
        ),
        ("loader per GPU", _num(a.loader_mb_per_s_per_gpu, "MB/s")),
        ("prefetch depth (have / needed)", f"{a.prefetch_depth} / {a.prefetch_depth_needed}"),
        (
            "checkpoint write",
            f"{a.checkpoint_write_s:,.1f} s, stall {_pct(a.checkpoint_stall_fraction)}"
            if a.checkpoint_write_s is not None
            else "—",
        ),
        ("recommended layout", a.recommended_layout),
    ]
    stdout.print(
        kv_table(
            f"storage for {w.gpus:,} GPUs: {w.system}, {w.layout}, {w.read_pattern} reads, "
            f"{w.workers_per_gpu} worker(s)/GPU",
            rows,
        )
    )
    stdout.print(
        table(
            "limits",
            ("limit", "demand", "capacity", "GPU util allowed", "binds at GPUs"),
            (
                (
                    lim.name,
                    _num(lim.demand, lim.unit),
                    f"{_num(lim.capacity, lim.unit)} ({lim.load_fraction:.0%} used)",
                    _pct(lim.allowed_gpu_utilisation),
                    f"{lim.binds_at_gpus:,}" if lim.binds_at_gpus else "—",
                )
                for lim in a.limits
            ),
        )
    )
    if a.fixes:
        stdout.print(
            table(
                "fixes",
                ("for", "action", "GPU util after"),
                ((f.limit, f.action, _pct(f.gpu_utilisation_after)) for f in a.fixes),
            )
        )
    for s in a.assumed:
        stdout.print(f"assumed: {s}", markup=False)
    for n in a.notes:
        stdout.print(f"note: {n}", markup=False)


def _plot(cat: Any, a: StorageAnalysis, path: Path) -> None:
    """Demand against supply as GPUs grow (log-log): bandwidth in one panel, metadata operations
    in another below it (each on its own axis, so two demands that both grow with the GPUs are
    never drawn over each other); this design's GPUs and where a limit binds are marked."""
    from clustergen.cli import plotting
    from clustergen.engine.sizing.storage import storage_curves

    plt = plotting.pyplot()
    top = max(a.workload.gpus * 4, (a.first_limit_at_gpus or 0) * 2, 64)
    counts = sorted(
        {max(1, round(8 * (top / 8) ** (i / 47))) for i in range(48)} | {a.workload.gpus}
    )
    pts = storage_curves(cat, a.workload, counts)
    meta = a.metadata_capacity_ops_per_s is not None
    fig, axes = plt.subplots(
        2 if meta else 1, 1, figsize=(8, 7 if meta else 4.5), sharex=True, squeeze=False
    )
    xs = [p.gpus for p in pts]
    bw = axes[0][0]
    bw.plot(xs, [p.demand_read_gb_per_s for p in pts], color="tab:blue", lw=2, label="read demand")
    bw.plot(
        xs,
        [p.pattern_read_gb_per_s for p in pts],
        "--",
        color="tab:green",
        label=f"read supply, {a.workload.read_pattern} reads",
    )
    bw.set_ylabel("GB/s")
    bw.set_title(f"storage demand vs supply ({a.workload.system}, {a.workload.layout})")
    panels = [bw]
    if meta:
        md = axes[1][0]
        md.plot(
            xs,
            [p.metadata_ops_per_s or 0 for p in pts],
            color="tab:orange",
            lw=2,
            label="metadata demand",
        )
        md.plot(
            xs,
            [p.metadata_capacity_ops_per_s or 0 for p in pts],
            ":",
            color="tab:red",
            label=f"metadata capacity ({a.workload.metadata_servers} server(s))",
        )
        md.set_ylabel("metadata operations/s")
        panels.append(md)
    for ax in panels:
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.axvline(a.workload.gpus, color="gray", lw=1)
        if a.first_limit_at_gpus:
            ax.axvline(a.first_limit_at_gpus, color="tab:red", lw=1, ls="--")
        ax.legend(fontsize=8, loc="upper left")
    panels[-1].set_xlabel("GPUs")
    bw.annotate(
        f"{a.workload.gpus:,} GPUs: {a.gpu_utilisation:.0%} busy, binds: {a.binding_limit or 'none'}",
        (a.workload.gpus, bw.get_ylim()[0]),
        textcoords="offset points",
        xytext=(4, 6),
        fontsize=8,
    )
    if a.first_limit_at_gpus:
        panels[-1].annotate(
            f"{a.first_limit_at_scale} binds at {a.first_limit_at_gpus:,} GPUs",
            (a.first_limit_at_gpus, panels[-1].get_ylim()[0]),
            textcoords="offset points",
            xytext=(4, 6),
            fontsize=8,
            color="tab:red",
        )
    fig.tight_layout()
    plotting.save(fig, path)


@app.command("targets")
def targets_cmd(
    tier: Annotated[str, typer.Option("--tier", help="good, better or best.")],
    nodes: Annotated[int, typer.Option("--nodes", help="Compute nodes in the design.")],
    su_nodes: Annotated[
        int | None, typer.Option("--su-nodes", help="Nodes per scalable unit (default 32).")
    ] = None,
    catalog: CatalogOpt = None,
    json: JsonOpt = False,
) -> None:
    """Read/write targets from NVIDIA's SuperPOD storage guidance (H100-RA Table 6) for N nodes."""
    from clustergen.catalog import load_catalog
    from clustergen.engine.sizing.storage import storage_targets

    t = storage_targets(load_catalog(catalog), tier, nodes, su_nodes)
    if json:
        print_json(t)
        return
    stdout.print(
        kv_table(
            f"storage targets: {t.tier} tier, {t.nodes} nodes",
            [
                ("read (aggregate)", f"{t.read_gb_per_s:,.1f} GB/s"),
                ("write (aggregate)", f"{t.write_gb_per_s:,.1f} GB/s"),
                (
                    "per node read / write",
                    f"{t.node_read_gb_per_s:g} / {t.node_write_gb_per_s:g} GB/s",
                ),
                ("capacity", "unknown" if t.capacity_tb is None else f"{t.capacity_tb:,.0f} TB"),
                ("basis", t.basis),
            ],
        )
    )
    stdout.print(f"source: {t.source}", markup=False)
