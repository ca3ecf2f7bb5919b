"""Architectures: the one covering a cluster's size is the one it follows."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.catalog.architectures import Architecture


@pytest.mark.parametrize(
    ("system", "technology", "nodes", "arch"),
    [
        ("dgx-h100", None, 1, "dgx-basepod"),
        ("dgx-h100", None, 8, "dgx-basepod"),
        ("dgx-h100", None, 16, "dgx-basepod-ndr200"),
        ("dgx-h100", None, 17, "dgx-superpod-h100"),
        ("dgx-h100", None, None, "dgx-superpod-h100"),
        ("dgx-b200", None, 4, "dgx-basepod"),
        ("dgx-b300", "infiniband", 8, "dgx-basepod-b300"),
        ("dgx-b300", "infiniband", 72, "dgx-superpod-b300-xdr"),
        ("dgx-b300", "ethernet", 8, "dgx-superpod-b300-ethernet"),
        ("gb300-nvl72", None, 8, "dgx-superpod-gb300"),
        ("gb300-nvl72", "ethernet", 8, "era-nvl72-gb300"),
        ("hgx-b300", None, 16, "era-hgx-b300"),
        ("pcie-4gpu-l40s", None, 4, "era-pcie-spectrum-x"),
        ("dgx-a100", None, 1, "dgx-basepod-a100"),
        ("dgx-a100", None, 8, "dgx-basepod-a100"),
        ("dgx-a100", None, 9, "dgx-superpod-a100"),
        ("dgx-a100", None, 140, "dgx-superpod-a100"),
        ("dgx-a100", None, None, "dgx-superpod-a100"),
    ],
)
def test_the_architecture_covering_the_cluster_is_chosen(
    system: str, technology: str | None, nodes: int | None, arch: str
) -> None:
    found = load_catalog().architecture_for(system, technology, nodes)
    assert found is not None
    assert found.id == arch


def test_every_compute_platform_follows_an_architecture() -> None:
    from clustergen.catalog.models import System

    cat = load_catalog()
    for s in cat.all("systems", System):
        if s.gpus_per_node:
            assert cat.architecture_for(s.id) is not None, s.id


@pytest.mark.parametrize("arch", [a.id for a in load_catalog().all("architectures", Architecture)])
def test_every_architecture_sizes_its_servers_and_storage_by_a_stated_rule(arch: str) -> None:
    a = load_catalog().architecture(arch)
    assert a.management is not None
    assert len(a.management.basis) > 20
    assert a.storage_appliance is not None
    assert a.storage_fabric is not None
    assert a.oob_fabric is not None
    if a.fabric_manager is not None:
        assert a.fabric_managers is not None


def test_the_a100_superpod_follows_ra_09950_001() -> None:
    """RA-09950-001 V06 abstract: "scalable units of 20 DGX A100 systems"; HDR 200 Gb/s
    InfiniBand, eight compute ports per DGX A100 (DGX A100 User Guide), rail-optimized."""
    cat = load_catalog()
    a = cat.architecture("RA-09950-001")
    assert a.id == "dgx-superpod-a100"
    assert (a.su_nodes, a.compute_fabric.rail_optimized, a.compute_fabric.ports_per_node) == (
        20,
        True,
        8,
    )
    leaf = cat.switch(a.compute_fabric.switch)
    assert (leaf.technology, leaf.ports, leaf.port_speed_gbps) == ("infiniband", 40, 200)
    assert a.storage_fabric is not None
    assert a.storage_fabric.technology == "infiniband"
    assert a.inband_fabric is not None
    assert a.oob_fabric is not None
    assert a.fabric_manager is not None


@pytest.mark.parametrize("arch", ["dgx-superpod-a100", "dgx-basepod-a100"])
def test_the_a100_layouts_label_what_the_ra_does_not_say(arch: str) -> None:
    """Only the opening pages of RA-09950-001 were readable: every count it does not publish is
    labelled an estimate or a derivation, with its basis."""
    a = load_catalog().architecture(arch)
    kinds = {fs.kind for fs in a.field_sources.values()}
    assert kinds & {"estimate", "derived"}
    assert a.management is not None
    basis = a.management.basis.lower()
    assert "estimate" in basis or "basepod ra" in basis
    if a.fabric_managers is not None:
        assert "estimate" in a.fabric_managers.basis.lower()


def test_a_port_speed_asked_keeps_the_architecture_at_that_speed() -> None:
    """DGX BasePOD runs 9-16 DGX at NDR200; asked for NDR400 at 16, the SuperPOD's rules build
    it (below the SuperPOD's range, which the design says), never the 200G split."""
    cat = load_catalog()
    assert cat.architecture_for("dgx-h100", "infiniband", 16).id == "dgx-basepod-ndr200"
    at_400 = cat.architecture_for("dgx-h100", "infiniband", 16, 400)
    assert at_400 is not None
    assert at_400.id == "dgx-superpod-h100"
    assert cat.architecture_for("dgx-h100", "infiniband", 8, 400).id == "dgx-basepod"
