"""Systems: every compute platform has a power figure, published or a labelled estimate with its
basis, and the storage appliance carries the figures storage is sized with."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.catalog.models import System

COMPUTE = [s.id for s in load_catalog().all("systems", System) if s.gpus_per_node]


@pytest.mark.parametrize("system_id", COMPUTE)
def test_every_compute_platform_has_a_power_figure(system_id: str) -> None:
    s = load_catalog().system(system_id)
    assert s.max_power_w, f"{system_id}: no power, so no design (issue 13)"


@pytest.mark.parametrize("system_id", [s.id for s in load_catalog().all("systems", System)])
def test_an_estimated_value_says_so_and_gives_its_basis(system_id: str) -> None:
    s = load_catalog().system(system_id)
    for field, fs in s.field_sources.items():
        if fs.kind == "estimate":
            assert fs.basis, f"{system_id}.{field}: basis missing"


def test_hgx_power_is_the_dgx_builds_labelled_as_an_estimate() -> None:
    """DGX H100/B200 are NVIDIA's own builds of the HGX boards (10.2 / 14.3 kW maximum)."""
    cat = load_catalog()
    assert cat.system("hgx-h100").max_power_w == cat.system("dgx-h100").max_power_w == 10200
    assert cat.system("hgx-b200").max_power_w == cat.system("dgx-b200").max_power_w == 14300
    assert cat.system("hgx-b200").estimated("max_power_w")


def test_the_storage_appliance_has_its_published_figures() -> None:
    """MLPerf Storage v1.0, DDN closed submission: 2U, 2,400 W maximum, 99 GB/s unet3d read."""
    a = load_catalog().system("ddn-ai400x2t")
    assert (a.kind, a.rack_units, a.max_power_w, a.read_gb_per_s) == ("storage", 2, 2400, 99)
    assert a.storage is not None
    assert (a.storage.ports, a.storage.port_speed_gbps) == (8, 200)
    assert a.estimated("write_gb_per_s")


def test_the_xdr_switch_has_a_power_figure() -> None:
    """Q3400-RA: 7,000 W maximum (secondary copies of the XDR switch manual), typical estimated."""
    q = load_catalog().switch("q3400")
    assert (q.max_power_w, q.typical_power_w, q.opn) == (7000, 2900, "920-9B36F-00RX-8S0")
    assert q.estimated("typical_power_w")
