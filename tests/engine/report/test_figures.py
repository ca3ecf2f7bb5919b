"""The figures the terminal and the memo quote."""

from __future__ import annotations


def test_the_racks_beside_the_compute_racks_are_named_as_the_rack_plan_names_them() -> None:
    from clustergen.catalog import load_catalog
    from clustergen.engine.report.figures import support_racks_words
    from clustergen.engine.report.files.rackplan import rack_plan
    from clustergen.engine.request import parse_request
    from clustergen.engine.search.planner import plan_design

    cat = load_catalog()
    d = plan_design(cat, parse_request(cat, "127 DGX H100, InfiniBand"))
    words = support_racks_words(d)
    assert words == "5 network + 1 storage"
    roles = [r.role for r in rack_plan(d) if r.role != "compute"]
    assert len(roles) == d.racks.network_racks == 6


def test_the_most_gpus_under_the_cap_carries_a_thousands_separator() -> None:
    """It read '1280' two lines from '1,280 GPUs'."""
    from clustergen.catalog import load_catalog
    from clustergen.engine.report.figures import design_rows
    from clustergen.engine.request import parse_request
    from clustergen.engine.search.planner import plan_design

    cat = load_catalog()
    d = plan_design(cat, parse_request(cat, "3 MW IT, B200 training, liquid cooled"))
    (most,) = [v for k, v in design_rows(d) if k == "most GPUs under the cap"]
    assert most == f"{d.compute.max_gpus_under_cap:,}"
    assert "," in most


def test_an_increments_headroom_under_a_cap_holding_an_unstated_draw_is_unknown() -> None:
    """The terminal said 'headroom 571.1 kW' (the cap less the increment alone) where the memo
    and the 'power under cap' check said it depends on the existing installation's draw."""
    from clustergen.catalog import load_catalog
    from clustergen.engine.report.figures import design_rows
    from clustergen.engine.request import parse_request
    from clustergen.engine.search.planner import plan_design
    from clustergen.units import watts

    cat = load_catalog()
    add = "add 32 more, site IT cap 2 MW"
    unknown = plan_design(cat, parse_request(cat, f"We have a DGX B200 cluster; {add}"))
    (row,) = [v for k, v in design_rows(unknown) if k == "headroom"]
    assert row.startswith("unknown")
    # its size stated: the headroom after its estimated draw, as the cap check weighs it
    sized = plan_design(cat, parse_request(cat, f"We have 64 DGX B200 nodes; {add}"))
    (row,) = [v for k, v in design_rows(sized) if k == "headroom"]
    (margin,) = [c for c in sized.checks if c.name == "power margin under cap"]
    assert margin.figure.startswith(row.split(" (")[0])
    assert "(the existing draw estimated at " in row
    stated = plan_design(cat, parse_request(cat, f"We have 64 DGX B200 drawing 950 kW; {add}"))
    assert stated.power.headroom_w is not None
    (row,) = [v for k, v in design_rows(stated) if k == "headroom"]
    assert row == watts(stated.power.headroom_w)


def test_the_design_table_states_dense_compute_at_the_precision_asked() -> None:
    from clustergen.catalog import load_catalog
    from clustergen.engine.report.figures import design_rows
    from clustergen.engine.request import parse_request
    from clustergen.engine.search.planner import plan_design

    d = plan_design(
        load_catalog(),
        parse_request(load_catalog(), "Two GB300 NVL72 racks, what's the total FP4 compute?"),
    )
    row = dict(design_rows(d))["dense compute"]
    gb300 = load_catalog().gpu("gb300")
    assert gb300.fp4_dense_tflops is not None
    assert row.startswith(f"{144 * gb300.fp4_dense_tflops / 1e3:,.1f} PFLOPS FP4 peak")
