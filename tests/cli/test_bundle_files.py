"""Issue 37's bundle criteria, read from the files `design --out` writes for its four bundles
(a DGX H100 4 SU, GB300 NVL72 racks, HGX B300 on Spectrum-X, a single DGX): every link of
design.json is a row of netbox_cables.csv, the rack plan's devices are the BOM's device
quantities, every device type is the community library's or one netbox_device_types.yaml ships,
every cable end is an interface of its device's type, and topology.conf places every compute
node once. (The engine-level forms of these: tests/engine/sizing/test_inventory.py,
tests/engine/report/files/test_rackplan.py and test_slurm_topology.py.)"""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from clustergen.cli.app import main
from clustergen.engine.model.inventory import device_name
from clustergen.engine.report.files import device_types

BUNDLES = {
    "dgx-h100-4su": "DGX H100 4 SU",
    "gb300-nvl72": "16 GB300 NVL72 racks",
    "hgx-b300-spectrum-x": "16 HGX B300 servers for training",
    "one-dgx": "1 DGX B200",
    # an increment: its new devices only, numbered on from the standing ones its links reach
    "expand-64-dgx-h100": "we have 64 DGX H100 and want to add 32 more",
    "expand-4-dgx-h100": "we have 4 DGX H100, add 4 more",
}

#: BOM categories whose lines are devices with a place in the racks
DEVICE_KINDS = ("compute", "switch", "storage", "management-server", "fabric-manager", "pdu")


def _standing(design: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """An increment's standing devices (not in its rack plan; its new links may end on them),
    by name, each with its inventory group."""
    return {
        device_name(g["id"], i): g
        for g in design["inventory"]["groups"]
        for i in range(1, (g.get("standing") or 0) + 1)
    }


def _csv(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text())))


def _hosts(expr: str) -> list[str]:
    """The names a Slurm hostlist expression ('node-[0001-0003,0007]') stands for."""
    out = []
    for prefix, body, lone in re.findall(r"([\w-]+?)-\[([^\]]+)\]|([\w-]+)", expr):
        if lone:
            out.append(lone)
            continue
        for part in body.split(","):
            lo, _, hi = part.partition("-")
            out += [f"{prefix}-{n:0{len(lo)}d}" for n in range(int(lo), int(hi or lo) + 1)]
    return out


@pytest.fixture(scope="module", params=sorted(BUNDLES))
def bundle(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:

    out = tmp_path_factory.mktemp(request.param) / "bundle"
    try:
        code = main(["design", BUNDLES[request.param], "--offline", "--out", str(out)])
    except SystemExit as exit_:
        code = exit_.code
    assert not code, request.param
    return out


def test_every_link_of_the_design_is_a_netbox_cable(bundle: Path) -> None:
    design = json.loads((bundle / "design.json").read_text())
    rows = _csv(bundle / "netbox_cables.csv")
    assert len(rows) == sum(g["links"] for g in design["links"])
    ends = [(r["side_a_device"], r["side_a_name"]) for r in rows]
    ends += [(r["side_b_device"], r["side_b_name"]) for r in rows]
    assert len(ends) == len(set(ends))  # each interface cabled once
    names = {r["name"] for r in _csv(bundle / "rack_plan.csv")}
    standing = set(_standing(design))
    assert not names & standing  # a standing device is not placed again
    assert {d for d, _ in ends} <= names | standing
    # an increment's every link has a new device at one end at least
    assert all(a in names or b in names for a, b in zip(*_sides(rows), strict=True))


def _sides(rows: list[dict[str, str]]) -> tuple[list[str], list[str]]:
    return [r["side_a_device"] for r in rows], [r["side_b_device"] for r in rows]


def _group(name: str) -> str:
    """A rack-plan device's group: its name less the index (`compute-leaf-012`)."""
    return name.rsplit("-", 1)[0]


def test_the_rack_plans_devices_are_the_boms_device_quantities(bundle: Path) -> None:
    """Every device group of the inventory as many times in rack_plan.csv as it counts, and the
    groups the BOM orders as many as its lines (a rack-scale system is its trays in the plan)."""
    design = json.loads((bundle / "design.json").read_text())
    placed = Counter(_group(r["name"]) for r in _csv(bundle / "rack_plan.csv"))
    inv = design["inventory"]
    for g in inv["groups"]:
        if g["id"] == "node" and g["rack_units"] == 0 and design["platform"]["rack_scale"]:
            continue  # the system is its rack; its trays are the devices
        if g["kind"] == "included" and g["rack_units"] == 0:
            continue
        assert placed[g["id"]] == g["count"], g["id"]
    ordered: Counter[str] = Counter()
    for ln in design["bom"]:
        if ln["category"] in DEVICE_KINDS and (ln["status"] == "order" or ln["category"] == "pdu"):
            ordered[ln["category"]] += ln["quantity"]
    grouped: Counter[str] = Counter()
    for g in inv["groups"]:
        if g["supply"] == "order" and g["kind"] in DEVICE_KINDS:
            grouped[g["kind"]] += g["count"]
    for kind in ("switch", "storage", "pdu", "management-server", "fabric-manager"):
        assert grouped[kind] == ordered[kind], kind
    if not design["platform"]["rack_scale"]:
        assert grouped["compute"] == ordered["compute"]


def test_every_device_type_is_the_librarys_or_shipped_and_every_end_an_interface(
    bundle: Path,
) -> None:
    shipped: dict[tuple[str, str], set[str]] = {}
    for doc in (bundle / "netbox_device_types.yaml").read_text().split("---\n")[1:]:
        fields = dict(line.split(": ", 1) for line in doc.splitlines() if ": " in line)
        key = (fields["manufacturer"].strip('"'), fields["model"].strip('"'))
        shipped[key] = {ln.split(": ")[1] for ln in doc.splitlines() if "- name: " in ln}
    library = {("Nvidia", t.model): t for t in device_types.LIBRARY.values()}
    types = {}
    for row in _csv(bundle / "rack_plan.csv"):
        key = (row["manufacturer"], row["device_type"])
        assert key in shipped or key in library, key
        types[row["name"]] = key
    # a standing device (an increment's link to it) is of its group's type: the library's for
    # its part, or the one shipped for it (its comment names the part)
    design = json.loads((bundle / "design.json").read_text())
    docs = (bundle / "netbox_device_types.yaml").read_text().split("---\n")[1:]
    for name, g in _standing(design).items():
        mine = [k for k, v in types.items() if _group(k) == g["id"]]
        if mine:
            types[name] = types[mine[0]]
            continue
        made = [
            key
            for key, doc in zip(shipped, docs, strict=True)
            if f"({g['part'] or 'no catalog part'})" in doc
        ]
        lib = device_types.LIBRARY.get(g["part"] or "")
        types[name] = made[0] if made else ("Nvidia", lib.model if lib else "")
    for row in _csv(bundle / "netbox_cables.csv"):
        for side in ("side_a", "side_b"):
            key, name = types[row[f"{side}_device"]], row[f"{side}_name"]
            if key in library:
                t = library[key]
                assert name in {t.interface(n) for n in range(1, t.ports + 1)}, (key, name)
            else:
                assert name in shipped[key], (key, name)


def test_topology_conf_places_every_compute_node_once(bundle: Path) -> None:
    """Every host of the compute fabric's node-leaf cables under one switch of the rack plan; a
    server standing alone (no compute fabric) is placed under a switch name of its own."""
    design = json.loads((bundle / "design.json").read_text())
    conf = (bundle / "topology.conf").read_text()
    # a rack-scale system's file is Slurm's block form: its trays under a block per rack
    placed = [
        h
        for m in re.finditer(r"^(?:SwitchName|BlockName)=\S+ Nodes=(\S+)", conf, re.M)
        for h in _hosts(m[1])
    ]
    groups = {
        grp
        for g in design["links"]
        if g["fabric"] == "compute" and g["segment"] == "node-leaf"
        for grp in g["a"]["groups"]
    }
    hosts = [r["name"] for r in _csv(bundle / "rack_plan.csv") if _group(r["name"]) in groups]
    if not groups:
        # a server standing alone: each node under a switch name of its own, placed once
        nodes = [r["name"] for r in _csv(bundle / "rack_plan.csv") if _group(r["name"]) == "node"]
        assert "no compute fabric" in conf
        assert nodes
        assert sorted(placed) == sorted(nodes)
        return
    assert len(placed) == len(set(placed))
    assert sorted(placed) == sorted(hosts)
    switches = {m[1] for m in re.finditer(r"^SwitchName=(\S+)", conf, re.M)}
    # an increment's new nodes may stand under a standing switch: the lines merge into its file
    assert switches <= {r["name"] for r in _csv(bundle / "rack_plan.csv")} | set(_standing(design))
    blocks = {m[1] for m in re.finditer(r"^BlockName=(\S+)", conf, re.M)}
    assert blocks <= {r["rack"] for r in _csv(bundle / "rack_plan.csv")}
