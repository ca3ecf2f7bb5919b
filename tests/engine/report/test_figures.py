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
