"""topology.conf: Slurm's tree of the compute fabric, every compute node once, every switch one
of the rack plan's and defined before a switch above it names it."""

from __future__ import annotations

import re

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.design import Design
from clustergen.engine.report.files import rackplan
from clustergen.engine.report.files.slurm_topology import hostlist, topology_conf
from clustergen.engine.search.planner import plan_design
from clustergen.engine.search.proposal import request_from_fields

CATALOG = load_catalog()

DESIGNS = {
    "dgx-h100-4su": {"platform": "dgx-h100", "nodes": 128},
    "gb300-nvl72": {"platform": "gb300-nvl72", "nodes": 16},
    "hgx-b300": {"platform": "hgx-b300", "nodes": 16},
    "gb200-3-tier": {"platform": "gb200-nvl72", "nodes": 32},
    "one-dgx": {"platform": "dgx-b200", "nodes": 1},
}


@pytest.fixture(scope="module", params=sorted(DESIGNS))
def design(request: pytest.FixtureRequest) -> Design:
    return plan_design(CATALOG, request_from_fields(CATALOG, DESIGNS[request.param]))


def _expand(hosts: str) -> list[str]:
    out = []
    for prefix, body, lone in re.findall(r"([\w-]+?)-\[([^\]]+)\]|([\w-]+)", hosts):
        if lone:
            out.append(lone)
            continue
        for part in body.split(","):
            lo, _, hi = part.partition("-")
            width = len(lo)
            for n in range(int(lo), int(hi or lo) + 1):
                out.append(f"{prefix}-{n:0{width}d}")
    return out


def test_every_compute_node_is_placed_once_under_switches_of_the_rack_plan(
    design: Design,
) -> None:
    text = topology_conf(design)
    devices = {x.name: x for r in rackplan.rack_plan(design) for x in r.devices}
    if design.platform.rack_scale:
        _blocks_are_the_racks(design, text)
        return
    hosts = [g for g in design.links if g.fabric == "compute" and g.segment == "node-leaf"]
    if not hosts:
        # each node under a switch name of its own: placed once, no job across two
        assert "no compute fabric" in text
        nodes = sorted(n for n, x in devices.items() if x.group == "node")
        assert [f"SwitchName={n}-nvlink Nodes={n}" for n in nodes] == [
            ln for ln in text.splitlines() if ln.startswith("SwitchName")
        ]
        assert nodes
        return
    node_groups = set(hosts[0].a.groups)
    compute_nodes = sorted(n for n, x in devices.items() if x.group in node_groups)
    placed: list[str] = []
    defined: set[str] = set()
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        name, below = re.fullmatch(r"SwitchName=(\S+) (?:Nodes|Switches)=(\S+)", line).groups()  # type: ignore[union-attr]
        assert name in devices, name
        assert devices[name].role == "network"
        if "Nodes=" in line:
            placed += _expand(below)
        else:
            assert set(_expand(below)) <= defined, line
        defined.add(name)
    assert sorted(placed) == compute_nodes


def test_a_hostlist_brackets_runs_and_keeps_widths() -> None:
    assert hostlist(["node-0001", "node-0002", "node-0004"]) == "node-[0001-0002,0004]"
    assert hostlist(["compute-leaf-001"]) == "compute-leaf-001"


def _blocks_are_the_racks(design: Design, text: str) -> None:
    assert design.inventory is not None
    trays = {g.id for g in design.inventory.groups if g.tray == "compute"}
    want = {
        r.name: sorted(x.name for x in r.devices if x.group in trays)
        for r in rackplan.rack_plan(design)
        if any(x.group in trays for x in r.devices)
    }
    got = {}
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        name, nodes = re.fullmatch(r"BlockName=(\S+) Nodes=(\S+)", line).groups()  # type: ignore[union-attr]
        got[name] = sorted(_expand(nodes))
    assert got == want
    assert "topology/block" in text


@pytest.mark.parametrize("racks", [1, 4])
def test_an_nvl72_design_is_a_block_per_rack(racks: int) -> None:
    """GB300 NVL72 (4 racks) was a tree that put trays 017-032 under one leaf, two racks' trays
    as if close; one GB200 NVL72 rack (no compute fabric) placed no tray at all. Slurm's
    topology/block keeps a job's trays in one rack's NVLink domain."""
    d = plan_design(
        CATALOG, request_from_fields(CATALOG, {"platform": "gb200-nvl72", "nodes": racks})
    )
    text = topology_conf(d)
    blocks = [ln for ln in text.splitlines() if ln.startswith("BlockName=")]
    assert len(blocks) == racks
    _blocks_are_the_racks(d, text)
    assert "SwitchName" not in text
