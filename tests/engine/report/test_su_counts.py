"""Per-SU counts the topology draws: each adds up to the fabric's own figure in design.json, and
a part-built last SU has the leaves the fabric gives it, not a full SU's."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.design import Design
from clustergen.engine.report.su_counts import apportion, su_counts
from clustergen.engine.search.planner import plan_design
from clustergen.engine.search.proposal import request_from_fields
from support.issue_designs import DRAWN

CATALOG = load_catalog()


def _design(fields: dict[str, object]) -> Design:
    return plan_design(CATALOG, request_from_fields(CATALOG, fields))


def test_apportion_adds_up_and_follows_the_weights() -> None:
    assert apportion(2304, [8, 8, 8, 4]) == [659, 658, 658, 329]  # largest remainder
    assert apportion(1024, [8, 8, 8, 8]) == [256] * 4
    assert sum(apportion(1015, [31, 32, 32, 32])) == 1015
    assert apportion(5, [0, 0]) == [0, 0]


def test_a_part_built_last_su_of_spine_leaf_groups_has_its_own_leaves() -> None:
    """28 GB200 NVL72 racks: 3 SUs of 8 racks and one of 4; the last SU's groups have a leaf per
    rack and rail, 16, not the 32 of a full SU (design.json: 112 leaves)."""
    d = _design({"platform": "gb200-nvl72", "nodes": 28})
    f = d.fabrics.compute
    assert f is not None
    assert f.leaf_switches == 112
    counts = su_counts(d, f)
    assert [c.nodes for c in counts] == [8, 8, 8, 4]
    assert [c.leaves for c in counts] == [32, 32, 32, 16]
    assert [c.uplinks for c in counts] == [576, 576, 576, 288]


@pytest.mark.parametrize(
    "fields",
    [
        *DRAWN,
        {"platform": "gb300-nvl72", "nodes": 28, "fabric": "infiniband"},
        {"platform": "dgx-h100", "nodes": 20},
    ],
    ids=lambda f: "-".join(str(v) for v in f.values()),
)
def test_the_counts_add_up_to_the_fabric(fields: dict[str, object]) -> None:
    d = _design(fields)
    f = d.fabrics.compute
    assert f is not None
    counts = su_counts(d, f)
    p = f.planes
    assert sum(c.nodes for c in counts) == d.compute.nodes
    assert sum(c.leaves for c in counts) * p == f.leaf_switches
    assert sum(c.uplinks for c in counts) * p == f.leaf_spine_links
    assert sum(c.fabric_manager_links for c in counts) * p == f.fabric_manager_links
    # bandwidth into the leaves, all planes: a twin-planar plane has every port at a lane's speed
    drawn = sum(c.node_links for c in counts) * p * f.plane_port_speed_gbps
    assert drawn == pytest.approx(f.node_links * f.port_speed_gbps)
    if f.su_nodes and f.leaves_per_su:
        assert all(c.leaves == f.leaves_per_su for c in counts[:-1])
