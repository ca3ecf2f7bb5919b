"""The pictures are PNGs that draw every subsystem, unknown ones marked."""

from __future__ import annotations

from typing import Any

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.design import Design
from clustergen.engine.report.pictures import charts
from clustergen.engine.report.words import power_rows
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design

CATALOG = load_catalog()
PNG = b"\x89PNG\r\n\x1a\n"


def test_power_chart_and_rack_elevation_are_pngs() -> None:
    d = plan_design(CATALOG, merge_request(CATALOG, "512 GPUs training, 5 MW", {}))
    assert charts.power_chart(d).startswith(PNG)
    assert charts.rack_elevation(d).startswith(PNG)
    # the same design draws the same bytes (no timestamp in the file)
    assert charts.power_chart(d) == charts.power_chart(d)


def test_power_rows_mark_unknown_and_partial_figures(unknown_design: Design) -> None:
    d = unknown_design
    rows = {r.label: r for r in power_rows(d)}
    assert rows["compute"].text == f"{d.power.compute_w / 1e3:,.1f} kW"
    assert not rows["compute"].partial
    assert rows["compute fabric switches"].text == "unknown"  # Q3400 power taken out


def test_the_power_legend_sits_beside_the_bar_not_on_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The legend sat inside the cap bar (lower right), over the cap line and the headroom."""
    figures: list[Any] = []
    monkeypatch.setattr(charts, "png", lambda fig: figures.append(fig) or b"")
    charts.power_chart(plan_design(CATALOG, merge_request(CATALOG, "512 GPUs training, 5 MW", {})))
    fig = figures[0]
    fig.canvas.draw()
    ax2 = fig.axes[1]
    legend = ax2.get_legend().get_window_extent()
    plot = ax2.get_window_extent()
    assert legend.x0 >= plot.x1 or legend.y1 <= plot.y0, (legend, plot)
    assert legend.x1 <= fig.bbox.x1


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("512 GPUs training, 5 MW IT", "IT cap 5.00 MW"),
        ("512 GPUs training, 5 MW", "IT cap 5.00 MW\n(basis assumed)"),
        (
            "256 GPUs training, total facility power not to exceed 3 MW at PUE 1.25",
            "cap 3.00 MW facility\n= 2.40 MW IT at PUE 1.25",
        ),
    ],
)
def test_the_cap_line_is_named_on_the_basis_the_cap_was_given(text: str, label: str) -> None:
    """A facility cap was drawn as an 'IT cap' of its own figure (issue 35)."""
    d = plan_design(CATALOG, merge_request(CATALOG, text, {}))
    assert d.power.headroom_w is not None
    assert charts.cap_label(d, d.power.it_total_w + d.power.headroom_w) == label


def _cap_bar(monkeypatch: pytest.MonkeyPatch, d: Design) -> Any:
    figures: list[Any] = []
    monkeypatch.setattr(charts, "png", lambda fig: figures.append(fig) or b"")
    charts.power_chart(d)
    return figures[0].axes[1]


def test_a_design_under_a_megawatt_draws_its_cap_bar_in_kilowatts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One DGX B200 drew its 14.4 kW on an axis of '0.000 ... 0.014 MW'; a 600 kW cap was
    named 'IT cap 0.60 MW'."""
    one = plan_design(CATALOG, merge_request(CATALOG, "single DGX B200 for a lab", {}))
    assert _cap_bar(monkeypatch, one).get_xlabel() == "kW"
    capped = plan_design(CATALOG, merge_request(CATALOG, "16 DGX H100, 600 kW IT", {}))
    assert _cap_bar(monkeypatch, capped).get_xlabel() == "kW"
    assert capped.power.headroom_w is not None
    cap_it = capped.power.it_total_w + capped.power.headroom_w
    assert charts.cap_label(capped, cap_it) == "IT cap 600 kW"
    big = plan_design(CATALOG, merge_request(CATALOG, "512 GPUs training, 5 MW IT", {}))
    assert _cap_bar(monkeypatch, big).get_xlabel() == "MW"
