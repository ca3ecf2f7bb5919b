"""Volta fleets (V100, DGX-1, DGX-2): sourced, superseded entries so an aging V100 cluster is
read as an installation to replace, found by the names customers write and never weighed for a
new design unless named."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.catalog.models import Gpu, System

CAT = load_catalog()


def test_the_v100_carries_its_datasheet_figures_and_no_fp8_or_fp4() -> None:
    """NVIDIA Tesla V100 datasheet, SXM2: 125 TFLOPS tensor, 32 GB HBM2 at 900 GB/s, NVLink
    300 GB/s, 300 W; Volta has no FP8 or FP4 path (null, never 0)."""
    g = CAT.get(Gpu, "v100-sxm2-32gb")
    figures = (g.bf16_dense_tflops, g.memory_gb, g.memory_bandwidth_gb_per_s, g.nvlink_gb_per_s)
    assert figures == (125, 32, 900, 300)
    assert g.tdp_w == 300
    assert g.fp8_dense_tflops is None
    assert g.fp4_dense_tflops is None
    assert g.architecture == "Volta"


def test_the_16_bit_figure_says_it_is_the_fp16_rate() -> None:
    """Volta has no BF16: the 16-bit field holds the FP16 tensor rate, labelled a derivation."""
    fs = CAT.get(Gpu, "v100-sxm2-32gb").field_sources["bf16_dense_tflops"]
    assert fs.kind == "derived"
    assert "FP16" in str(fs)


@pytest.mark.parametrize(
    ("system", "gpus", "watts", "units", "ports"),
    [("dgx-1", 8, 3500, 3, 4), ("dgx-2", 16, 10_000, 10, 8)],
)
def test_the_v100_dgx_systems_carry_their_datasheet_figures(
    system: str, gpus: int, watts: int, units: int, ports: int
) -> None:
    """DGX-1: 8 x V100, 3.5 kW, 3U, 4 x EDR; DGX-2: 16 x V100, 10 kW, 10U, 8 x 100 Gb/s."""
    s = CAT.system(system)
    assert (s.gpu, s.gpus_per_node, s.max_power_w, s.rack_units) == (
        "v100-sxm2-32gb",
        gpus,
        watts,
        units,
    )
    assert s.compute is not None
    assert (s.compute.ports, s.compute.port_speed_gbps) == (ports, 100)


@pytest.mark.parametrize("system", ["dgx-1", "dgx-2"])
def test_a_v100_system_is_superseded_with_its_sources(system: str) -> None:
    s = CAT.system(system)
    assert s.lifecycle == "superseded"
    assert s.superseded_by
    for field in ("lifecycle", "superseded_by"):
        assert field in s.field_sources, f"{system}.{field}: no source"
    assert "http" in s.source or "datasheet" in s.source


@pytest.mark.parametrize(
    ("name", "kind", "eid"),
    [
        ("V100", "gpu", "v100-sxm2-32gb"),
        ("Tesla V100", "gpu", "v100-sxm2-32gb"),
        ("V100 SXM2 32GB", "gpu", "v100-sxm2-32gb"),
        ("DGX-1", "system", "dgx-1"),
        ("DGX1", "system", "dgx-1"),
        ("DGX-2", "system", "dgx-2"),
        ("dgx2", "system", "dgx-2"),
    ],
)
def test_the_volta_names_customers_write_are_found(name: str, kind: str, eid: str) -> None:
    found = CAT.gpu(name) if kind == "gpu" else CAT.system(name)
    assert found.id == eid


def test_a_v100_system_follows_a_layout_when_named() -> None:
    for system in ("dgx-1", "dgx-2"):
        arch = CAT.architecture_for(system)
        assert arch is not None
        assert arch.id == "dgx-pod-v100"


def test_no_current_system_is_a_v100() -> None:
    """Never weighed for a new design unless named: every V100 system is superseded."""
    v100 = [s for s in CAT.all("systems", System) if s.gpu == "v100-sxm2-32gb"]
    assert {s.id for s in v100} == {"dgx-1", "dgx-2"}
    assert all(s.lifecycle == "superseded" for s in v100)
