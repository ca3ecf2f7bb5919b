"""matplotlib output (`--plot FILE.png`): imported lazily, only when a plot is asked for."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from clustergen.errors import OutputError, RequestError
from clustergen.safe_text import picture_text

if TYPE_CHECKING:
    from clustergen.engine.model.sensitivity import Sensitivity


def pyplot() -> Any:
    """matplotlib.pyplot on the non-interactive Agg backend, or a RequestError saying how to get it."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise RequestError(
            "--plot needs matplotlib, which is not installed",
            hint="reinstall clustergen with its dependencies: uv sync (or pip install clustergen)",
        ) from None
    return plt


def check_target(path: Path) -> None:
    """Fail before any work if the plot cannot be written where asked."""
    from clustergen.cli.userfiles import check_output_file

    if path.suffix.lower() not in {".png", ".svg", ".pdf"}:
        raise RequestError(f"--plot {path}: use a .png, .svg or .pdf file name")
    check_output_file(path, "--plot")


def save(fig: Any, path: Path) -> None:
    """Write the figure and close it; an unwritable file is an OutputError."""
    plt = pyplot()
    try:
        fig.savefig(path, dpi=120, bbox_inches="tight")
    except OSError as exc:
        raise OutputError(f"cannot write --plot {path}: {exc.strerror}") from None
    finally:
        plt.close(fig)


def _series(names: list[str], values: Any) -> list[tuple[str, list[float]]]:
    """Lines to draw: options whose values are identical become one line labelled with every
    name (two platforms with the same figures would otherwise hide one under the other)."""
    groups: dict[tuple[float, ...], list[str]] = {}
    for name in names:
        groups.setdefault(tuple(values(name)), []).append(name)
    return [(" = ".join(group), list(key)) for key, group in groups.items()]


def sensitivity_figure(s: Sensitivity) -> Any:
    """Four panels: GPUs per MW by option, GPUs lost against GPU power, GPUs against optics
    power (the best option marked), GPUs against the cap. Line panels draw the eligible options;
    options with identical figures share one line; dashed: fabric power unknown (upper bound)."""
    plt = pyplot()
    fig, axes = plt.subplots(2, 2, figsize=(13, 9), constrained_layout=True)
    mw = s.cap_w / 1e6
    opts = sorted(s.options, key=lambda o: o.gpus_per_mw)
    unknown = {o.option for o in s.options if o.power_unknown}

    def color(o: Any) -> str:
        if o.option == s.chosen:
            return "tab:green"
        return "tab:blue" if o.eligible and o.option not in unknown else "lightgray"

    ax = axes[0][0]
    ax.barh(
        [picture_text(o.option) for o in opts],
        [o.gpus_per_mw for o in opts],
        color=[color(o) for o in opts],
    )
    ax.set_xlabel(f"GPUs per MW of IT power (cap {mw:g} MW)")
    ax.set_title("GPUs per MW (green: best; grey: blocking or fabric power unknown)")
    ax.tick_params(axis="y", labelsize=7)
    names = [o.option for o in s.options if o.eligible]
    changes = sorted({p.change for p in s.gpu_power})
    lost = {(p.option, p.change): p.gpus_lost for p in s.gpu_power}
    caps = [c.cap_w / 1e6 for c in s.caps]
    scales = [p.scale for p in s.optics]
    panels = (
        (axes[0][1], [c * 100 for c in changes], lambda n: [lost[(n, c)] for c in changes]),
        (axes[1][0], scales, lambda n: [p.gpus[n] for p in s.optics]),
        (axes[1][1], caps, lambda n: [c.gpus[n] for c in s.caps]),
    )
    for ax, xs, values in panels:
        for label, ys in _series(names, values):
            parts = label.split(" = ")
            ax.plot(
                xs,
                ys,
                marker=".",
                label=picture_text(label),
                lw=2.5 if s.chosen in parts else 1,
                ls="--" if set(parts) & unknown else "-",
            )
        ax.legend(fontsize=6, ncol=2)
    axes[0][1].axhline(0, color="gray", lw=0.8)
    axes[0][1].set(xlabel="GPU power change (%)", ylabel=f"GPUs lost at {mw:g} MW")
    axes[0][1].set_title("GPUs lost as GPU power rises")
    for p in s.optics:
        if p.winner:
            axes[1][0].annotate(
                "*",
                (p.scale, p.gpus[p.winner]),
                ha="center",
                va="bottom",
                fontsize=14,
                color="tab:red",
            )
    axes[1][0].set(xlabel="transceiver power (x catalog)", ylabel=f"GPUs under {mw:g} MW")
    axes[1][0].set_title("GPUs as optics power scales (red *: best option at that scale)")
    axes[1][1].axvline(mw, color="gray", lw=0.8, ls="--")
    axes[1][1].set(xlabel="IT cap (MW)", ylabel="GPUs")
    axes[1][1].set_title("GPUs against the cap")
    fig.suptitle(picture_text(f"Sensitivity at {mw:g} MW IT ({s.workload}): {s.request or ''}"))
    return fig
