"""Optics entries for 800 Gb/s-per-port platforms: the facts their sources give, and that each
800G-class switch cage and NIC cage has a transceiver of its size in the catalog."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.catalog.models import Optic, Switch, System

# id -> (total_gbps, ports, port_speed_gbps, media, reach_m, power_w, technologies, opn)
PUBLISHED = {
    # NVIDIA XDR parts list: switch-to-switch 2x800G, single-mode only; IHS in Q3400/Q3200.
    # Power: NVIDIA's product spec was not retrievable; 33.5 W is a labelled estimate (the figure a
    # secondary copy attributes to it; a compatible third-party part is 25 W).
    "mms4a00-xm": (1600, 2, 800, "singlemode", 500, 33.5, ["infiniband"], "980-9IAH1-00XM00"),
    # ConnectX-8 RHS cage, one 800G XDR port; 800GbE on one port is unsupported by ConnectX-8.
    # Power: a labelled estimate, half the twin-port module's.
    "mms4a20-xm800": (800, 1, 800, "singlemode", 500, 16.75, ["infiniband"], "980-9IAT0-00XM00"),
    # MMS4X00-NM application overview: 100-500 m switch links, "remain at 17 Watts".
    "mms4x00-nm": (
        800,
        2,
        400,
        "singlemode",
        500,
        17,
        ["infiniband", "ethernet"],
        "980-9I30G-00NM00",
    ),
}


@pytest.mark.parametrize("optic_id", sorted(PUBLISHED))
def test_800g_class_transceivers_match_their_sources(optic_id: str) -> None:
    o = load_catalog().optic(optic_id)
    total, ports, speed, media, reach, power, tech, opn = PUBLISHED[optic_id]
    assert (o.kind, o.vendor) == ("transceiver", "NVIDIA")
    assert (o.total_gbps, o.ports, o.port_speed_gbps) == (total, ports, speed)
    assert o.ports * (o.port_speed_gbps or 0) == o.total_gbps  # logical ports fill the module
    assert (o.media, o.reach_m, o.power_w, o.technologies, o.opn) == (
        media,
        reach,
        power,
        tech,
        opn,
    )
    assert "https://docs.nvidia.com/" in o.source
    assert o.as_of
    # The OPNs came from a secondary parts snapshot, so each says where it came from.
    assert "opn" in o.field_sources
    if o.power_w is None:
        assert "not found" in str(o.field_sources.get("power_w", ""))
    elif "power_w" in o.field_sources:  # a figure not from the source: labelled, with its basis
        assert o.estimated("power_w")
        assert "basis:" in o.source_of("power_w")
    assert not o.placeholder  # nothing here is assumed outright


@pytest.mark.parametrize(
    ("name", "optic_id"),
    [
        ("MMS4A00-XM", "mms4a00-xm"),
        ("MMS4A00", "mms4a00-xm"),
        ("980-9IAH1-00XM00", "mms4a00-xm"),
        ("MMS4A20-XM800", "mms4a20-xm800"),
        ("mms4a20", "mms4a20-xm800"),
        ("980-9IAT0-00XM00", "mms4a20-xm800"),
        ("MMS4X00-NM", "mms4x00-nm"),
    ],
)
def test_800g_class_transceivers_are_found_by_opn_and_marketing_name(
    name: str, optic_id: str
) -> None:
    assert load_catalog().optic(name).id == optic_id


def _transceivers(total_gbps: float, ports: int, technology: str) -> list[Optic]:
    return [
        o
        for o in load_catalog().all("optics", Optic)
        if o.kind == "transceiver"
        and o.total_gbps == total_gbps
        and o.ports == ports
        and technology in o.technologies
    ]


# Speeds as the SuperPOD RAs run these switches: Q3400 at 800G XDR (two ports per 1.6T cage),
# SN5610 as 128 x 400G on two planes (two ports per 800G cage).
@pytest.mark.parametrize(("switch_id", "speed_gbps"), [("q3400", 800), ("sn5610", 400)])
def test_every_800g_class_switch_cage_has_a_transceiver_of_its_size(
    switch_id: str, speed_gbps: float
) -> None:
    sw = load_catalog().switch(switch_id)
    assert isinstance(sw, Switch)
    assert sw.cage_gbps is not None
    fits = _transceivers(sw.cage_gbps, sw.ports_per_cage_at(speed_gbps), sw.technology)
    assert fits, f"no transceiver fills a {sw.cage_gbps:g}G cage of {sw.id} at {speed_gbps:g}G"
    assert any(o.media == "singlemode" for o in fits)


@pytest.mark.parametrize("system_id", ["dgx-b300", "gb300-nvl72"])
def test_connectx8_xdr_cage_has_a_single_port_800g_transceiver(system_id: str) -> None:
    system = load_catalog().system(system_id)
    assert isinstance(system, System)
    assert system.compute is not None
    c = system.compute
    fits = _transceivers(c.port_speed_gbps * c.ports_per_cage, c.ports_per_cage, "infiniband")
    assert [o.id for o in fits] == ["mms4a20-xm800"]
