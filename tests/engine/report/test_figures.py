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


def test_an_expansion_says_which_management_switches_stand_and_which_it_adds() -> None:
    """'expand our 32-node DGX H100 SuperPOD by 16 nodes' said 'in-band management 2 x sn4600c'
    (terminal, memo, topology) where both stand and the BOM orders none."""
    from clustergen.catalog import load_catalog
    from clustergen.engine.report.documents.memo import render_memo
    from clustergen.engine.report.figures import design_rows
    from clustergen.engine.report.pictures.topology import mermaid
    from clustergen.engine.request import parse_request
    from clustergen.engine.search.planner import plan_design

    cat = load_catalog()
    text = "expand our 32-node DGX H100 SuperPOD by 16 nodes, we have 600 kW left"
    d = plan_design(cat, parse_request(cat, text))
    ordered = sum(ln.quantity for ln in d.bom if ln.part == "sn4600c")
    assert ordered == 0
    rows = dict(design_rows(d))
    assert rows["in-band management"] == "2 x sn4600c standing, none added"
    oob = sum(ln.quantity for ln in d.bom if ln.part == "sn2201")
    assert rows["out-of-band management"].endswith(f"standing, {oob} added")
    assert "In-band management: 2 x SN4600C standing, none added" in render_memo(d)
    assert "2 x SN4600C standing, none added" in mermaid(d)


def test_a_new_cluster_counts_its_management_switches_plainly() -> None:
    from clustergen.catalog import load_catalog
    from clustergen.engine.report.figures import design_rows
    from clustergen.engine.request import parse_request
    from clustergen.engine.search.planner import plan_design

    cat = load_catalog()
    d = plan_design(cat, parse_request(cat, "127 DGX H100, InfiniBand"))
    assert d.fabrics.oob is not None
    rows = dict(design_rows(d))
    assert rows["out-of-band management"] == f"{d.fabrics.oob.total_switches} x sn2201"


def test_link_counts_name_their_segment_and_the_storage_its_tier() -> None:
    """'How many users can 2 DGX B200 handle ...' said 'compute links 16 node' (read as
    sixteen nodes) and 'storage better: read 9.03 GB/s' (read as a judgement)."""
    from clustergen.catalog import load_catalog
    from clustergen.engine.report.figures import design_rows
    from clustergen.engine.request import parse_request
    from clustergen.engine.search.planner import plan_design

    cat = load_catalog()
    d = plan_design(cat, parse_request(cat, "2 DGX B200 for inference"))
    rows = dict(design_rows(d))
    assert rows["compute links"] == "16 node-leaf"
    assert rows["storage"].startswith(f"{d.storage.targets.tier} tier: read ")


def test_power_estimates_name_the_figure_before_its_part() -> None:
    """'power estimates │ BCM management server (...): maximum power; NVIDIA 100Gb/s QSFP28
    active optical cable: power' now reads 'maximum power of BCM management server (...); ...'."""
    from clustergen.catalog import load_catalog
    from clustergen.engine.report.figures import _estimate_words, design_rows
    from clustergen.engine.request import parse_request
    from clustergen.engine.search.planner import plan_design

    assert _estimate_words("NVIDIA 100Gb/s QSFP28 active optical cable: power") == (
        "power of NVIDIA 100Gb/s QSFP28 active optical cable"
    )
    assert _estimate_words("no colon here") == "no colon here"
    cat = load_catalog()
    d = plan_design(cat, parse_request(cat, "2 DGX B200 for inference"))
    assert d.power.estimated
    row = dict(design_rows(d))["power estimates"]
    assert all(not item.endswith(": power") for item in row.split("; "))


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
