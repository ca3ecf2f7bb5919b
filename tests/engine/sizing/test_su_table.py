"""Designs against NVIDIA's published per-SU tables (sizing/checks.py): the check every design
carries, and the counts its sizing reads from the table."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.assemble import assemble_design
from clustergen.engine.model.common import Check
from clustergen.engine.model.design import Design, DesignChoices
from clustergen.engine.report.files import rackplan
from clustergen.engine.report.words import verdict
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design
from clustergen.engine.sizing.checks import CHECK_NAME, su_table_check
from clustergen.engine.sizing.inputs import resolve_inputs, resolve_request_inputs

CAT = load_catalog()


def _design(text: str) -> Design:
    return plan_design(CAT, merge_request(CAT, text, {}))


def _table_check(d: Design) -> Check:
    return next(c for c in d.checks if c.name == CHECK_NAME)


@pytest.mark.parametrize(("nodes", "oob"), [(8, 2), (12, 3), (16, 4)])
def test_era_2_8_9_400_out_of_band_switches_follow_its_table(nodes: int, oob: int) -> None:
    # ERA-00010-001 (2-8-9-400) switch table: 2 / 3 / 4 OOB switches at 8 / 12 / 16 HGX H100
    # nodes (issue 37); one SN5610 pair while collapsed (<= 3 SU), a GSL and a CSL pair at 4 SU
    d = _design(f"{nodes} HGX H100 servers for training")
    assert d.fabrics.oob is not None
    assert d.fabrics.oob.total_switches == oob
    check = _table_check(d)
    assert check.passed, check.figure


def test_era_2_8_9_400_beyond_its_rows_keeps_one_oob_switch_a_su() -> None:
    # derived from the table's 2 / 3 / 4 at 8 / 12 / 16 nodes: one per SU of 4 nodes
    d = _design("20 HGX H100 servers for training")
    assert d.fabrics.oob is not None
    assert d.fabrics.oob.total_switches == 5
    check = _table_check(d)
    assert check.passed  # nothing failed, so a consumer testing `passed` sees no failure
    assert not check.unknown
    assert check.status == "INFO"  # and it never reads as a PASS
    assert check.figure.startswith("derived by rule")
    assert "20 nodes" in check.figure
    # said in the checks, neither a pass nor a concern: the verdict is the other checks'
    assert verdict(d).status == "PASS"
    assert not any(CHECK_NAME in f for f in verdict(d).failing)


def test_the_h100_superpod_4su_matches_tables_4_and_7() -> None:
    # H100 RA V11 Table 4 (32 leaf, 16 spine) and Table 7 (16 storage, 8 in-band, 8 OOB
    # switches, 4 UFM, 4 management servers, 38 racks) at 4 SU, 127 DGX H100
    check = _table_check(_design("DGX H100 4 SU"))
    assert check.passed, check.figure
    assert "Table 7" in check.detail


def test_the_h100_storage_fabric_carries_its_own_ufm_pair() -> None:
    # H100 RA V11 Tables 7 and 8: an HA pair of UFM on each InfiniBand fabric; the storage
    # fabric's 494 NDR cables are 254 DGX links + 240 leaf-spine, its transceivers count 4 UFM
    d = _design("DGX H100 4 SU")
    sf = d.fabrics.storage
    assert sf is not None
    assert sf.fabric_manager_links == 4
    assert sf.node_links + sf.leaf_spine_links == 494
    ufm = [g for g in d.links if g.fabric == "storage" and g.segment == "fabric-manager-leaf"]
    assert [g.links for g in ufm] == [4]


def test_single_plane_hgx_b300_has_one_400g_link_a_gpu() -> None:
    # ERA-00011-001 single-plane option at 16 nodes: one 400G link per GPU on 2 leaves, no spine
    # (issue 37); the dual-plane design has 2 GSL per plane (ERA tooling: no spine through SU 4)
    request = merge_request(CAT, "16 HGX B300 servers for training", {})
    d = assemble_design(CAT, request, DesignChoices(platform="hgx-b300", planes=1))
    cf = d.fabrics.compute
    assert cf is not None
    assert (cf.planes, cf.port_speed_gbps, cf.node_links) == (1, 400.0, 128)
    assert (cf.leaf_switches, cf.spine_switches) == (2, 0)
    assert _table_check(d).passed
    dual = _design("16 HGX B300 servers for training")
    assert dual.fabrics.compute is not None
    assert (dual.fabrics.compute.leaf_switches, dual.fabrics.compute.spine_switches) == (4, 0)
    assert _table_check(dual).passed


def test_the_b200_storage_fabric_reads_the_published_leaves_where_its_ports_fit() -> None:
    # B200 RA Figure 3.2 (secondary reading): 8 storage leaves under 4 spines at 4 SU
    d = _design("DGX B200 4 SU, good storage")
    sf = d.fabrics.storage
    assert sf is not None
    assert (sf.leaf_switches, sf.spine_switches) == (8, 4)
    assert sf.max_ports_used["leaf"] <= sf.leaf_radix


def test_the_b200_published_storage_leaves_hold_more_ports_at_a_steeper_ratio_said() -> None:
    # B200 RA Figure 3.2 (secondary reading): 8 storage leaves and 4 storage spines at 4 SU. The
    # better tier's 296 host ports (254 DGX, 24 storage, 14 management, 4 UFM) do not fit 8
    # leaves at the fabric's 4:3; the table publishes the switches, not their ratio, so the 8
    # leaves hold them at the ratio their free ports give (40 down : 24 up), and the notes say so
    for text in ("DGX B200 4 SU", "127 DGX B200, InfiniBand"):
        d = _design(text)
        sf = d.fabrics.storage
        assert sf is not None
        assert (sf.leaf_switches, sf.spine_switches) == (8, 4)
        assert sf.host_links == 296
        assert (sf.leaf_downlinks, sf.leaf_uplinks) == (40, 24)
        assert sf.host_links <= sf.host_port_capacity
        assert any("table publishes the switches, not their ratio" in n for n in sf.notes)
        check = _table_check(d)
        assert check.passed, check.figure


def test_a_storage_count_the_storage_designed_moves_is_a_warning_naming_it() -> None:
    # H100 RA Table 7's 16 storage switches are for its own storage, not the best tier's: the
    # H100 fabric splits node and storage leaves (Table 8), so the best tier's ports add storage
    # leaves and the check names the difference as a warning
    check = _table_check(_design("127 DGX H100 systems, InfiniBand, best storage"))
    assert not check.passed
    assert check.severity == "warning"
    assert "where the table has 16" in check.figure
    assert check.figure.startswith("storage switches")
    assert "storage designed" in check.detail


def test_a_count_the_table_fixes_that_differs_fails() -> None:
    # ERA-00010-001 (2-8-9-400): 3 out-of-band switches at 12 nodes; a catalog whose rule gives
    # another count and a table row that says 3 fail on it
    d = _design("12 HGX H100 servers for training")
    oob = d.fabrics.oob
    assert oob is not None
    fewer = oob.model_copy(update={"total_switches": 1, "leaf_switches": 1})
    inputs = resolve_inputs(CAT, d.request, d.choices, resolve_request_inputs(CAT, d.request), 12)
    check = su_table_check(
        inputs,
        12,
        d.fabrics.model_copy(update={"oob": fewer}),
        d.servers,
        d.racks,
        follows_ra=True,
    )
    assert not check.passed
    assert check.severity == "error"
    assert check.figure == "out-of-band switches 1 where the table has 3"


def test_a_design_without_a_reference_architecture_says_its_counts_are_derived() -> None:
    request = merge_request(CAT, "16 HGX H100 servers for training", {})
    d = assemble_design(CAT, request, DesignChoices(platform="hgx-h100", fabric="infiniband"))
    check = _table_check(d)
    assert check.status == "INFO"
    assert check.figure == "derived by rule: the design follows no reference architecture"


def test_the_b200_management_racks_are_the_published_five_each_holding_gear() -> None:
    # B200 RA Figure 3.2 (secondary reading, Rackula spike #3287): the 4 SU's management gear in
    # 5 racks, laid out by function; its height alone needs 4 of 36 usable U, so the table's
    # count stands and the gear spreads over all five
    d = _design("127 DGX B200, InfiniBand")
    assert d.racks.network_racks == 5
    assert d.racks.total_racks == 64 + 5
    assert "5 management racks as the RA's table publishes" in d.racks.basis
    support = [r for r in rackplan.rack_plan(d) if r.role != "compute"]
    assert len(support) == 5
    assert all(r.devices for r in support)
    assert _table_check(d).passed


def test_an_oversubscription_the_request_asks_for_leaves_the_compute_counts_to_the_rule() -> None:
    """'2:1 is fine' departs from the RA's non-blocking compute fabric by request: its compute
    counts are not held to the table (the other counts still are), and nothing fails on them."""
    d = _design("1024 B200, IB NDR, 2:1 oversubscription is fine")
    check = _table_check(d)
    assert check.severity != "error" or check.passed
    assert "compute spines" not in check.figure
    assert "2:1 as the request asks" in check.detail or "2:1 as asked" in check.figure
    blocking = _table_check(_design("1024 B200, IB NDR, non-blocking"))
    assert "compute" in blocking.detail


@pytest.mark.parametrize(
    "text",
    [
        "16 HGX B300 servers for training, single-plane",
        "16 HGX B300 nodes, 400G Spectrum-X",
        "16 HGX B300 nodes, single plane 400G Spectrum-X",
    ],
)
def test_a_single_plane_hgx_b300_is_asked_for_in_words(text: str) -> None:
    """ERA-00011-001's single-plane option, asked for by name or by its 400G lane speed."""
    d = _design(text)
    cf = d.fabrics.compute
    assert cf is not None
    assert (cf.planes, cf.port_speed_gbps, cf.node_links) == (1, 400.0, 128)
    assert (cf.leaf_switches, cf.spine_switches) == (2, 0)
    assert _table_check(d).passed
