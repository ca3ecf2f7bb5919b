"""The nouns size_clos is built from: planes, bisection, transceivers, cables, power."""

from __future__ import annotations

import pytest

from clustergen.catalog.models import Optic, Switch
from clustergen.engine.model.fabric import Cabling, FabricPlan, TransceiverLine
from clustergen.engine.sizing.fabric import network as fabric
from clustergen.errors import RequestError

_SRC = {"source": "test fixture", "as_of": "2026-01", "vendor": "nvidia"}
QM9700 = Switch(id="qm9700", name="QM9700", technology="infiniband", ports=64, port_speed_gbps=400, cage_gbps=800, typical_power_w=747, **_SRC)  # fmt: skip
UNPOWERED = QM9700.model_copy(update={"id": "dark", "typical_power_w": None})


def test_split_planes_keep_every_port_at_a_lane_of_its_speed() -> None:
    plan = FabricPlan(nodes=4, ports_per_node=8, port_speed_gbps=800, planes=2, plane_split=True)
    planes = fabric._planes(plan)
    assert (planes.ports, planes.speed_gbps, planes.per_cable) == (8, 400, 2)
    assert fabric._plane_notes(plan, planes, 64)[0].startswith("2 planes, each 800 Gb/s")


def test_unsplit_planes_divide_the_ports_or_refuse() -> None:
    planes = fabric._planes(FabricPlan(nodes=4, ports_per_node=8, port_speed_gbps=400, planes=2))
    assert (planes.ports, planes.speed_gbps, planes.per_cable, planes.split) == (4, 400, 1, False)
    with pytest.raises(RequestError, match="do not split evenly over 3 planes"):
        fabric._planes(FabricPlan(nodes=4, ports_per_node=8, port_speed_gbps=400, planes=3))


def test_a_missing_optic_on_optical_links_is_counted_with_unknown_power() -> None:
    lines = fabric._transceivers(Cabling(optical=True), 16, 0, (8, 0, 0, 0))
    assert [(t.location, t.count, t.power_w) for t in lines] == [
        ("node", 16, None),
        ("leaf", 8, None),
    ]
    assert fabric._optic_notes(lines) == [
        "node transceivers: none in the catalog fits; 16 counted, their power unknown",
        "leaf transceivers: none in the catalog fits; 8 counted, their power unknown",
    ]


def test_copper_links_have_no_transceivers() -> None:
    assert fabric._transceivers(Cabling(), 16, 4, (8, 4, 0, 0)) == []


def test_cables_list_only_the_segments_a_fabric_has() -> None:
    plan = FabricPlan(nodes=2, ports_per_node=1, port_speed_gbps=400)
    links = fabric._Links(
        node=2, fabric_manager=0, leaf_spine=0, spine_core=3, inter_switch=0, shared=0
    )
    optic = Optic(id="o", name="O", kind="transceiver", media="singlemode", power_w=17, **_SRC)
    cables = fabric._cables(plan, fabric._planes(plan), links, Cabling(core_optic=optic))
    assert [(c.segment, c.media, c.count) for c in cables] == [
        ("node-leaf", "passive copper (DAC)", 2),
        ("spine-core", "optical, single-mode", 3),
    ]


def test_power_is_partial_when_a_switch_or_optic_is_unknown() -> None:
    tiers = fabric._Tiers(leaf=QM9700, spine=UNPOWERED, core=QM9700, leaves=4, spines=2, cores=0)
    optic = TransceiverLine(location="leaf", optic="o", count=10, unit_power_w=15, power_w=150)
    power = fabric._power(tiers, [optic], "typical")
    assert (power.switches_w, power.optics_w, power.total_w) == (None, 150.0, None)
    assert power.known_w == 4 * 747 + 150
    assert fabric._power_notes(power, tiers) == [
        "switch typical power unknown in the catalog; fabric power is partial"
    ]
