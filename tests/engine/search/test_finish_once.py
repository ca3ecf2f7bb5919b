"""A trade study sizes every candidate and finishes only the design it chooses (`assemble`'s
`size_design` and `finish_design`): every row states what its finished design would state, and
what finishing adds (checks, the scale statement, the serving interactivity table, provenance)
no row reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.assemble import assemble_design, finish_design
from clustergen.engine.cost import capital_of
from clustergen.engine.model.design import Alternative, Design
from clustergen.engine.request import parse_request
from clustergen.engine.search.planner import plan_design
from clustergen.engine.search.trade_study import candidates, choices_for, weigh
from clustergen.engine.sizing.inputs import resolve_request_inputs
from clustergen.errors import ClustergenError

#: the issue's start-up request and the requests the trade study was profiled on: training
#: under a cap, rack-scale systems, serving, a cap alone and a GPU count alone
REQUESTS = [
    "512 GPUs training, 5 MW",
    "GB200 NVL72, 4 SU",
    "4 GB300 NVL72 racks for training",
    "train a 70B model on 15T tokens in 60 days, 10 MW",
    "serve llama 3.1 405B at 20k tokens/s",
    "max GPUs under 5 MW",
    "1024 GPUs",
]
#: the example price layer: rows read their capital from the BOM where the catalog prices parts
PRICES = Path(__file__).parents[3] / "examples" / "prices" / "hardware"
#: requests weighed on the priced catalog, one under a capital budget
PRICED = ["512 GPUs training, 5 MW", "DGX H100 training under a $40M capital budget"]


@pytest.mark.parametrize(
    ("text", "prices"),
    [(t, None) for t in REQUESTS] + [(t, PRICES) for t in PRICED],
)
def test_every_row_states_what_its_finished_design_states(text: str, prices: Path | None) -> None:
    cat = load_catalog(prices)
    request = parse_request(cat, text)
    common = resolve_request_inputs(cat, request)
    weighed = 0
    for c in candidates(cat, request, common.workload):
        try:
            w = weigh(cat, request, common, c)
        except ClustergenError:
            continue  # a dropped candidate: no design to finish
        weighed += 1
        d = finish_design(w.sized)
        assert d == assemble_design(
            cat, request, choices_for(cat, request, c), request_inputs=common, over_cap="build"
        )
        row = w.row
        assert (row.platform, row.rack_scale, row.follows_ra) == (
            d.platform.system,
            d.platform.rack_scale,
            d.platform.follows_ra,
        )
        assert (row.nodes, row.gpus, row.racks) == (
            d.compute.nodes,
            d.compute.gpus,
            d.racks.total_racks,
        )
        assert row.it_power_w == d.power.it_total_w
        _every_figure_is_the_designs(row, d)
        needed = request.gpus or (
            request.nodes * d.platform.gpus_per_node
            if request.nodes
            else (d.workload.gpus_required if d.workload else None)
        )
        assert row.needed_gpus == needed
        arch = w.sized.inputs.architecture
        assert (arch.id if arch else None) == d.platform.architecture
    assert weighed


def _every_figure_is_the_designs(row: Alternative, d: Design) -> None:
    """Each figure a row shows, as the full design it describes states it (a sweep that counts a
    row another way must land on the same figures)."""
    p, f = d.power, d.fabrics
    cf = f.compute
    assert row.facility_power_w == p.facility_total_w
    assert row.fabric_power_w == p.compute_fabric_switches_w + p.compute_fabric_optics_w
    assert row.switches == sum(x.total_switches for x in (cf, f.storage, f.inband, f.oob) if x)
    if cf is not None:
        assert (row.fabric, row.switch, row.oversubscription) == (
            cf.technology,
            cf.leaf_switch,
            cf.oversubscription,
        )
    capital = capital_of(d.bom)
    assert (row.capital_usd, row.capital_complete) == (capital.priced_usd, capital.complete)
    assert (row.power_complete, row.power_estimated) == (p.complete, bool(p.estimated))


def test_the_serving_table_is_the_answers_not_the_rows() -> None:
    """The throughput-vs-interactivity table, one GPU's column, is on the planner's answer and on
    a design assembled from its choices (the agent's path); a row's sized design has none."""
    cat = load_catalog()
    text = "serve llama 3.1 405B at 20k tokens/s"
    d = plan_design(cat, parse_request(cat, text))
    assert d.workload is not None
    assert d.workload.interactivity
    assert {p.gpu for p in d.workload.interactivity} == {d.workload.gpu}
    assembled = assemble_design(cat, d.request, d.choices).workload
    assert assembled is not None
    assert assembled.interactivity == d.workload.interactivity
    request = parse_request(cat, text)
    common = resolve_request_inputs(cat, request)
    first = candidates(cat, request, common.workload)[0]
    estimate = weigh(cat, request, common, first).sized.inputs.estimate
    assert estimate is not None
    assert estimate.interactivity == []
