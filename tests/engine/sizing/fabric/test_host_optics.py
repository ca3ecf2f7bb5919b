"""A host cage takes its own form and the forms its maker documents (cages.yaml), and the link
resolver picks an active cable only where its plug fits the host's cage and the switch's."""

from __future__ import annotations

import dataclasses

from clustergen.catalog import Cage, load_catalog
from clustergen.catalog.loader import Catalog
from clustergen.engine.model.design import Design
from clustergen.engine.search.planner import plan_design
from clustergen.engine.search.proposal import request_from_fields
from clustergen.engine.sizing.fabric.host_optics import accepted_forms, fits_cage, same_family

CATALOG = load_catalog()


def _design(catalog: Catalog, platform: str, nodes: int) -> Design:
    return plan_design(
        catalog, request_from_fields(catalog, {"platform": platform, "nodes": nodes})
    )


def test_a_qsfp112_cage_takes_qsfp56_and_qsfp28_parts_by_nvidias_linkx_guide() -> None:
    cage = CATALOG.get("cages", Cage, "qsfp112")
    assert set(cage.accepts) == {"QSFP56", "QSFP28"}
    assert "docs.nvidia.com/networking/display/400g100gpam4ovpub" in cage.source
    dgx = CATALOG.system("dgx-h100")
    assert set(accepted_forms(CATALOG, dgx.storage)) == {"QSFP56", "QSFP28"}
    assert accepted_forms(CATALOG, dgx.compute) == ()  # an OSFP cage takes no other form
    aoc = CATALOG.optic("aoc-100g-qsfp28")
    assert dgx.storage is not None
    assert fits_cage(aoc, dgx.storage.cage_form, accepted_forms(CATALOG, dgx.storage))
    assert not fits_cage(aoc, dgx.storage.cage_form)  # its own form alone would refuse it


def test_a_qsfp_plug_never_goes_into_an_osfp_cage() -> None:
    qsfp56 = CATALOG.optic("aoc-200g-qsfp56")
    assert not same_family(qsfp56, CATALOG.switch("sn5600").cage_form)
    assert same_family(qsfp56, CATALOG.switch("sn4600c").cage_form)
    assert not same_family(CATALOG.optic("mma4z00-ns"), "QSFP112")


def _without_cages() -> Catalog:
    entries = {s: dict(rows) for s, rows in CATALOG.entries.items()}
    entries["cages"] = {}
    return dataclasses.replace(CATALOG, entries=entries, hash="no-cages")


def test_the_basepod_storage_aoc_fits_the_dgx_cage_through_the_cage_entry_alone() -> None:
    """DGX H100 BasePOD: the SN4600C's 100G QSFP28 AOC lands in the DGX's QSFP112 cage because
    cages.yaml says the cage takes QSFP28; without that entry the resolver orders no cable it
    cannot show fits, and both ends are left to choose."""
    with_cages = _design(CATALOG, "dgx-h100", 8)
    g = next(g for g in with_cages.links if g.fabric == "storage" and "DGX" in g.a.device)
    assert g.cable == "aoc-100g-qsfp28"
    without = _design(_without_cages(), "dgx-h100", 8)
    g = next(g for g in without.links if g.fabric == "storage" and "DGX" in g.a.device)
    assert g.cable is None
    assert g.b.transceiver is None
    assert g.b.unit_power_w is None


def test_the_b200_inband_link_takes_modules_not_a_qsfp56_aoc_on_an_osfp_switch() -> None:
    """The BlueField-3's QSFP112 cage takes a QSFP56 AOC, but the SN5600's OSFP cage does not:
    the in-band link stays on QSFP112 SR4 modules and splitter fibre (MMA1Z00-NS400-T)."""
    d = _design(CATALOG, "dgx-b200", 32)
    g = next(g for g in d.links if g.fabric == "in-band management")
    assert g.cable != "aoc-200g-qsfp56"
    assert g.a.transceiver == "mma1z00-ns400"


def test_a_gb200_trays_compute_ends_are_400g_single_port_osfp_modules() -> None:
    # DGX GB Rack Scale Systems User Guide, Hardware: each compute tray's cluster network is
    # "4x NVIDIA ConnectX-7 single port 400G OSFP NIC": the tray end of every compute link is a
    # 400G single-port OSFP module (flat top, for the NIC's cage), MMA4Z00-NS400, named as such
    d = _design(CATALOG, "gb200-nvl72", 8)
    tray = [ln for ln in d.bom if ln.category == "transceiver" and "GB200" in ln.description]
    compute = [ln for ln in tray if "compute fabric" in ln.description]
    assert [ln.part for ln in compute] == ["mma4z00-ns400"]
    assert compute[0].quantity == 8 * 72
    assert "400Gb/s single-port OSFP" in compute[0].name
    assert compute[0].opn == "980-9I51S-00NS00"
