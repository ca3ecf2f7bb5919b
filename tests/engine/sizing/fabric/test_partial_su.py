"""Part of one GB200 SuperPOD SU: the compute fabric its ports need, never a bigger one."""

from __future__ import annotations

from clustergen.catalog import load_catalog
from clustergen.engine.model.design import Design
from clustergen.engine.request import parse_request
from clustergen.engine.search.planner import plan_design

CAT = load_catalog()


def _design(racks: int) -> Design:
    return plan_design(CAT, parse_request(CAT, f"{racks} GB200 NVL72 racks, infiniband"))


def _switches(d: Design) -> tuple[int, int, int]:
    f = d.fabrics.compute
    return (0, 0, 0) if f is None else (f.leaf_switches, f.spine_switches, f.core_switches)


def test_partial_sus_get_the_switches_their_ports_need_and_grow_monotonely() -> None:
    """Issue 23: 2 racks (144 ports) got 8 leaves and 8 spines. A rail of 2 or 3 racks (36 or 54
    ports) fits one 64-port QM9700: one leaf per rail, no spine. Past that, the RA's leaf per
    rack and rail under spines; 8 racks is the published SU (32 leaf, 24 spine)."""
    counts = {n: _switches(_design(n)) for n in (1, 2, 3, 4, 7, 8)}
    assert counts[1] == (0, 0, 0)  # one rack: its GPUs share NVLink
    assert counts[2] == counts[3] == (4, 0, 0)
    assert counts[4][0] == 16
    assert counts[4][1] > 0
    assert counts[7][0] == 28
    assert counts[8] == (32, 24, 0)
    totals = [sum(counts[n]) for n in sorted(counts)]
    assert totals == sorted(totals)
    for n in (2, 3):
        f = _design(n).fabrics.compute
        assert f is not None
        assert f.tiers == 1
        assert f.leaf_downlinks == n * 18 <= f.leaf_radix
        assert any("part of one SU" in note for note in f.notes)


def test_a_partial_su_keeps_the_ras_fabric_managers() -> None:
    """UFM per the RA's rule (an HA pair per 128 racks), whatever the partial fabric."""
    assert _design(2).servers.fabric_managers == _design(8).servers.fabric_managers == 2


def test_a_part_built_last_su_is_noted_with_the_leaves_it_has() -> None:
    """28 racks: 3 full SUs and one of 4 racks with 16 leaves; the note said 'a partly filled SU
    still gets its full set of leaves' over a fabric of 112, not 128."""
    f = _design(28).fabrics.compute
    assert f is not None
    assert f.leaf_switches == 112
    note = next(n for n in f.notes if n.startswith("rail-optimized"))
    assert "full set" not in note
    assert note.endswith("the part-built last SU has the 16 leaves its nodes need"), note
