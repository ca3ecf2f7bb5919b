"""`racks.png`: one front elevation per rack type (compute, network, storage, management), the
first rack of each kind with its devices at their positions, its power and how many racks are
like it."""

from __future__ import annotations

from typing import Any

from clustergen.engine.model.design import Design
from clustergen.engine.report.charts import png, pyplot
from clustergen.engine.report.rackplan import Rack, rack_plan
from clustergen.engine.report.safe_text import plot_text
from clustergen.units import plural

_ORDER = ("compute", "network", "storage", "management")
_COLOR = {"compute": "#9ecae1", "network": "#a1d99b", "storage": "#fdd0a2", "management": "#dadaeb"}


def _short(kind: str) -> str:
    """A device name that fits the rack's width."""
    return kind if len(kind) <= 38 else kind[:37] + "..."


def _panel(ax: Any, rack: Rack, alike: int, cooling: str) -> None:
    from matplotlib.patches import Rectangle

    ax.add_patch(Rectangle((0, 0.5), 3.0, rack.height_u, fill=False, lw=2))
    for x in rack.devices:
        ax.add_patch(
            Rectangle(
                (0.1, x.position - 0.5),
                2.8,
                x.height,
                fc=_COLOR[rack.role] if x.height_known else "white",
                ec="black",
                lw=0.5,
                hatch=None if x.height_known else "//",
            )
        )
        size = 6 if x.height >= 2 else 4.5
        ax.text(
            1.5,
            x.position - 0.5 + x.height / 2,
            plot_text(f"U{x.position} {_short(x.kind)}"),
            ha="center",
            va="center",
            fontsize=size,
            clip_on=True,
        )
    power = (
        "power unknown"
        if rack.power_w is None
        else (("at least " if not rack.power_complete else "") + f"{rack.power_w / 1e3:,.1f} kW")
    )
    cool = f", {cooling}-cooled" if rack.role == "compute" else ", air-cooled"
    ax.set_title(
        plot_text(
            f"{rack.role} rack {rack.name}\n{rack.height_u}U{cool}, {power}\n"
            f"{plural(alike, 'rack')} of this kind"
        ),
        fontsize=8,
    )
    ax.set_xlim(-0.2, 3.2)
    ax.set_ylim(0, rack.height_u + 1.5)
    ax.set_xticks([])
    ax.tick_params(axis="y", labelsize=6)


def rack_elevations(d: Design) -> bytes:
    """One elevation per rack type, as PNG bytes; hatched: a device whose height is unknown."""
    plt = pyplot()
    racks = rack_plan(d)
    kinds = [k for k in _ORDER if any(r.role == k for r in racks)]
    fig, axes = plt.subplots(1, max(1, len(kinds)), figsize=(3.0 * max(1, len(kinds)) + 1, 8))
    axes = list(axes) if len(kinds) > 1 else [axes]
    for ax, kind in zip(axes, kinds, strict=False):
        first = next(r for r in racks if r.role == kind)
        _panel(ax, first, sum(1 for r in racks if r.role == kind), d.racks.compute.cooling)
    axes[0].set_ylabel("rack units")
    fig.suptitle(
        plot_text(
            f"Rack elevations (front): {plural(len(racks), 'rack')} in all; "
            "hatched: height unknown, 1U held"
        ),
        fontsize=10,
    )
    return png(fig)
