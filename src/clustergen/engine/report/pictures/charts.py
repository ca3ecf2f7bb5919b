"""Pictures of a design as PNG bytes: the power breakdown and a rack elevation. matplotlib is
imported inside each function, so nothing pays for it until a picture is drawn; pyplot is not
used: a figure is drawn on its own Agg canvas (no display, no global figure list to close), which
draws the same pixels."""

from __future__ import annotations

import io
import sys
import textwrap
from typing import Any

from clustergen.engine.model.design import Design
from clustergen.engine.report.figures import estimated_standing_w
from clustergen.engine.report.words import power_rows
from clustergen.safe_text import picture_text
from clustergen.units import plural, watts

#: the PNG pictures' resolution
_PNG_DPI = 110


def new_figure(**kwargs: Any) -> Any:
    """A matplotlib figure (`Figure`'s arguments: figsize, constrained_layout) on its own Agg
    canvas: what `pyplot.figure` makes, without pyplot's figure manager or its global state."""
    import_matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(**kwargs)
    FigureCanvasAgg(fig)
    return fig


def subplots(*grid: int, figsize: tuple[float, float], **kwargs: Any) -> tuple[Any, Any]:
    """`pyplot.subplots` on a `new_figure`: the figure and its axes (`constrained_layout` goes
    to the figure, the rest to `Figure.subplots`)."""
    layout = {k: kwargs.pop(k) for k in ("constrained_layout",) if k in kwargs}
    fig = new_figure(figsize=figsize, **layout)
    return fig, fig.subplots(*grid, **kwargs)


def import_matplotlib() -> None:
    """Import the parts of matplotlib the pictures use, without building the property lists of
    its artists' docstrings (`matplotlib.artist.kwdoc`, called for each of ~100 artist classes as
    they are defined: a fifth of matplotlib's import time, for `help()` text no picture reads).
    Only the docstrings differ: `Artist.set` checks its keywords against the setters, not its
    docstring. A process that imported matplotlib's figures already keeps them as they are."""
    if "matplotlib.figure" in sys.modules:
        return
    import matplotlib.artist

    kwdoc = matplotlib.artist.kwdoc
    setattr(matplotlib.artist, "kwdoc", lambda _artist: "")  # noqa: B010 - typed module
    try:
        import matplotlib.backends.backend_agg
        import matplotlib.figure
        import matplotlib.patches
    finally:
        setattr(matplotlib.artist, "kwdoc", kwdoc)  # noqa: B010


def png(fig: Any) -> bytes:
    """The figure as PNG bytes, as `savefig(dpi=110, bbox_inches="tight")` gives it (no timestamp
    in the file, so the same design draws the same bytes). The figure is left to the collector:
    no global list holds it.

    Drawn once: savefig's "tight" draws the figure twice (once to find the box round what is
    drawn, once inside it); here the whole figure is drawn, the box found from that drawing and
    the pixels cut to it (padded with the figure's colour where the box reaches past the figure),
    the same picture up to a sub-pixel shift."""
    import numpy as np
    from matplotlib import rcParams
    from matplotlib.image import imsave
    from PIL.PngImagePlugin import PngInfo

    dpi = _PNG_DPI
    old_dpi = fig.dpi
    fig.dpi = dpi
    try:
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        pad = rcParams["savefig.pad_inches"]
        box = fig.get_tightbbox(renderer).padded(pad, pad)
        full = np.asarray(renderer.buffer_rgba())
        colour = np.array(fig.get_facecolor()) * 255
    finally:
        fig.dpi = old_dpi
    height, width = full.shape[:2]
    out_w, out_h = int(box.width * dpi), int(box.height * dpi)
    left = round(box.x0 * dpi)
    top = round(height - box.y1 * dpi)
    out = np.empty((out_h, out_w, 4), dtype=np.uint8)
    out[...] = np.round(colour).astype(np.uint8)
    # the part of the figure inside the box, where it lands in the cut picture
    x0, y0 = max(0, left), max(0, top)
    x1, y1 = min(width, left + out_w), min(height, top + out_h)
    if x1 > x0 and y1 > y0:
        out[y0 - top : y1 - top, x0 - left : x1 - left] = full[y0:y1, x0:x1]
    buf = io.BytesIO()
    imsave(
        buf,
        out,
        format="png",
        dpi=dpi,
        # no text chunks (matplotlib's own names its version); zlib level 3, not PIL's 6: the
        # same pixels, ~2% more bytes, ~40% less time encoding
        pil_kwargs={"compress_level": 3, "pnginfo": PngInfo()},
    )
    return buf.getvalue()


def _unit(top_w: float) -> tuple[float, str]:
    """The cap bar's unit: kW below a megawatt (a 14 kW server on a megawatt axis read
    '0.000 ... 0.014 MW', its 600 kW cap 'IT cap 0.60 MW'), MW from one up."""
    return (1e3, "kW") if top_w < 1e6 else (1e6, "MW")


def _in(w: float, unit: tuple[float, str]) -> str:
    scale, name = unit
    return f"{w / scale:,.0f} {name}" if name == "kW" else f"{w / scale:.2f} {name}"


def cap_label(d: Design, cap_it_w: float) -> str:
    """The cap line's name on the basis the cap was given: a facility cap is its IT share at
    the design's PUE; a basis the request left unsaid is marked as assumed. In the bar's unit."""
    pw = d.power
    unit = _unit(max(cap_it_w, pw.cap_w or 0.0))
    if pw.cap_basis == "facility" and pw.cap_w is not None:
        return f"cap {_in(pw.cap_w, unit)} facility\n= {_in(cap_it_w, unit)} IT at PUE {pw.pue:g}"
    assumed = any(a.field == "power_cap_basis" for a in d.assumptions)
    return f"IT cap {_in(cap_it_w, unit)}" + ("\n(basis assumed)" if assumed else "")


def power_chart(d: Design) -> bytes:
    """Horizontal bars of IT power by subsystem with their values, the cap and the headroom below;
    a subsystem whose power is unknown is labelled so, never drawn as a zero that looks known."""
    rows = power_rows(d)[::-1]
    pw = d.power
    fig, (ax, ax2) = subplots(
        2, 1, figsize=(8.5, 5.5), gridspec_kw={"height_ratios": [3, 1]}, constrained_layout=True
    )
    values = [(r.known_w or 0.0) / 1e3 for r in rows]
    bars = ax.barh([picture_text(r.label) for r in rows], values, color="tab:green")
    top = max([*values, 1.0])
    for bar, r in zip(bars, rows, strict=True):
        share = (
            f" ({(r.known_w or 0.0) / pw.it_total_w:.1%})" if pw.it_total_w and r.known_w else ""
        )
        ax.annotate(
            f" {r.text}{share}",
            (bar.get_width(), bar.get_y() + bar.get_height() / 2),
            va="center",
            fontsize=8,
            color="tab:red" if r.partial else "black",
        )
    ax.set_xlim(0, top * 1.45)
    ax.set_xlabel("kW")
    ax.set_title(
        f"IT power by subsystem: {watts(pw.it_total_w)} IT, "
        f"{watts(pw.facility_total_w)} facility at PUE {pw.pue:g}",
        fontsize=11,
    )
    # an increment under a cap that also holds what stands: the standing draw first (stated,
    # or estimated: then not yet off the headroom), the increment on it, what is left after both
    x = d.expansion
    standing = x.existing_it_w if x and x.existing_it_w and not d.request.power_cap_scope else 0.0
    left = None
    if pw.cap_w and pw.headroom_w is not None:
        left = pw.headroom_w - (estimated_standing_w(d) or 0.0)
    cap_it = standing + pw.it_total_w + (left or 0.0)
    scale, unit = _unit(max(cap_it, standing + pw.it_total_w, pw.cap_w or 0.0))
    if standing:
        what = "existing (estimated)" if x and x.existing_it_estimated else "existing (stated)"
        ax2.barh(["IT power"], [standing / scale], color="tab:blue", alpha=0.4, label=what)
    ax2.barh(
        ["IT power"],
        [pw.it_total_w / scale],
        left=[standing / scale],
        color="tab:green",
        label="design",
    )
    if left is not None:
        if left > 0:  # over the cap, no headroom to draw
            ax2.barh(
                ["IT power"],
                [left / scale],
                left=[(standing + pw.it_total_w) / scale],
                color="lightgray",
                label="headroom",
            )
        ax2.axvline(cap_it / scale, color="tab:red", lw=1.5, label=cap_label(d, cap_it))
    ax2.set_xlabel(unit)
    # beside the bar, not on it: inside, it covered the cap line and the headroom's end
    ax2.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
    if any(r.partial for r in rows):
        ax2.set_title(
            "red: unknown or partly unknown, left out of the totals", fontsize=8, loc="left"
        )
    return png(fig)


def _rack_box(ax: Any, x: float, rack_units: int, title: str) -> None:
    from matplotlib.patches import Rectangle

    ax.add_patch(Rectangle((x, 0), 2.0, rack_units, fill=False, lw=2))
    ax.text(x + 1.0, rack_units + 1, title, ha="center", va="bottom", fontsize=9)


def _slot(ax: Any, x: float, bottom: float, height: float, label: str, color: str) -> None:
    from matplotlib.patches import Rectangle

    ax.add_patch(Rectangle((x + 0.08, bottom), 1.84, height, color=color, ec="black", lw=0.6))
    label = picture_text(label)  # a catalog name, drawn as written
    text = "\n".join(textwrap.wrap(label, 30)) if height >= 2 else label
    ax.text(x + 1.0, bottom + height / 2, text, ha="center", va="center", fontsize=7)


def rack_elevation(d: Design) -> bytes:
    """A front elevation of one compute rack (its nodes by height, from the bottom) beside the
    counts of every rack; a node of unknown height is drawn as an equal share of the rack."""
    r = d.racks
    plan = r.compute
    ru = plan.rack_units
    whole_rack = plan.nodes_per_rack == 1 and plan.node_rack_units is None
    # one node of unknown height per rack is a rack-scale system (an NVL72): it fills the rack
    node_u = plan.node_rack_units or (
        ru - 4 if whole_rack else max(1, ru // max(1, plan.nodes_per_rack + 1))
    )
    fig, ax = subplots(figsize=(6.5, 7))
    _rack_box(ax, 0, ru, f"compute rack ({ru}U)")
    bottom = 2.0
    for i in range(plan.nodes_per_rack):
        if bottom + node_u > ru:
            break
        _slot(
            ax,
            0,
            bottom,
            node_u,
            f"{d.platform.name} #{i + 1}" + (f" ({node_u}U)" if plan.node_rack_units else ""),
            "#9ecae1",
        )
        bottom += node_u + 1
    _slot(ax, 0, ru - 1.5, 1.0, "PDUs / top-of-rack", "#fdd0a2")
    ax.text(
        2.6,
        ru * 0.65,
        "\n".join(
            picture_text(line)
            for line in [
                f"{plan.compute_racks} compute racks",
                f"{plural(plan.nodes_per_rack, 'node')} per rack",
                f"{plan.rack_power_kw:.1f} kW of {plan.rack_power_limit_kw:g} kW",
                f"limited by {plan.limited_by}",
                f"{plan.cooling} cooling",
                "",
                f"{r.network_racks} network racks",
                f"{r.total_racks} racks in all",
                f"{r.pdus} PDUs",
            ]
        ),
        va="center",
        fontsize=10,
    )
    ax.set_xlim(-0.3, 5.2)
    ax.set_ylim(0, ru + 4)
    ax.set_ylabel("rack units")
    ax.set_xticks([])
    note = ""
    if plan.node_rack_units is None:
        note = ": the system is the rack" if whole_rack else ": node height unknown, equal shares"
    ax.set_title("Rack elevation (front view)" + note)
    return png(fig)
