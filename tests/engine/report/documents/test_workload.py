"""A workload estimate in words: its figures no finer than its band."""

from __future__ import annotations

from clustergen.catalog import load_catalog
from clustergen.engine.report.documents.workload import _three_figures, headline
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design

CATALOG = load_catalog()


def test_three_figures() -> None:
    assert _three_figures(2_869_043) == "2,870,000"
    assert _three_figures(606_729) == "607,000"
    assert _three_figures(1_005) == "1,000"
    assert _three_figures(774.4) == "774"


def test_the_headline_rounds_tokens_per_megawatt_as_its_band_allows() -> None:
    """'Llama 3.3 70B to about 2,000 staff' said '2,869,043 output tokens/s per MW
    provisioned (estimate, +/-35%)': seven figures claimed inside a 35% band."""
    text = "We need to serve Llama 3.3 70B to about 2,000 staff, p95 TTFT under 1 s, 40 kW racks"
    d = plan_design(CATALOG, merge_request(CATALOG, text, {}))
    w = d.workload
    assert w is not None
    assert w.output_tokens_per_s_per_mw is not None
    line = headline(w)
    said = f"about {_three_figures(w.output_tokens_per_s_per_mw)} output tokens/s per MW"
    assert said in line
    assert f"{w.output_tokens_per_s_per_mw:,.0f} output" not in line


def test_the_interactivity_line_keeps_its_cells_apart_from_thousands() -> None:
    """'5/user: 5,385, 10/user: 5,385, 20/user: 5,128': a list comma beside a thousands
    comma."""
    from clustergen.engine.report.documents.workload import interactivity_compact

    text = "serve Llama 3.3 70B to 2,000 staff"
    d = plan_design(CATALOG, merge_request(CATALOG, text, {}))
    assert d.workload is not None
    line = interactivity_compact(d.workload)
    assert line is not None
    cells = line.split(": ", 1)[1].split("; ")
    assert len(cells) == len([p for p in d.workload.interactivity if p.gpu == d.workload.gpu])
    assert all(c.split(" ")[0].endswith("/user") for c in cells)
    assert all("," not in c.split(" ")[1] or c.split(" ")[1][-4] == "," for c in cells)


def test_the_per_gpu_rate_is_said_as_the_capacity_within_the_limits() -> None:
    """'TPOT 25.4 ms at the target load; 4,116 output tokens/s per GPU' beside a 100k load on 52
    GPUs read as twice the load served: the rate is the replicas' capacity at the limits."""
    from clustergen.catalog import load_catalog
    from clustergen.engine.report.documents.workload import headline
    from clustergen.engine.request import parse_request
    from clustergen.engine.search.planner import plan_design

    cat = load_catalog()
    d = plan_design(cat, parse_request(cat, "serve Llama 3.3 70B to 500 concurrent users"))
    assert d.workload is not None
    assert d.workload.tokens_per_s_per_gpu is not None
    line = headline(d.workload)
    assert (
        f"up to {d.workload.tokens_per_s_per_gpu:,.0f} output tokens/s per GPU within the limits"
        in line
    )
