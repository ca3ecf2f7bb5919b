"""The DGX SuperPOD B300 Spectrum-4 RA's focus design, MGX racks on a DC busbar with DC power
shelves (RA-11337-001), as a variant a request asks for; the AC/PDU racks stay the default."""

from clustergen.catalog import load_catalog
from clustergen.engine.model.design import Design
from clustergen.engine.model.inventory import PartKind
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design


def _design(text: str) -> Design:
    catalog = load_catalog()
    return plan_design(catalog, merge_request(catalog, text, {}))


def _lines(d: Design, kind: PartKind) -> list:
    return [ln for ln in d.bom if ln.category is kind]


def test_a_busbar_request_gets_power_shelves_in_every_compute_rack_and_no_pdus_there() -> None:
    d = _design("128 DGX B300 on Spectrum-X Ethernet with DC busbar power shelves")
    racks = d.racks.compute.compute_racks
    assert d.request.rack_power == "busbar"
    assert d.racks.rack_type == "mgx-busbar-dgx-b300"
    # 4 x 14.5 kW = 58 kW a rack: 2 shelves of 33 kW carry it, N+N doubles them
    (shelves,) = _lines(d, PartKind.POWER_SHELF)
    assert shelves.quantity == 4 * racks
    assert "132 kW installed" in shelves.description
    assert "N+N" in shelves.source
    # PDUs only in the network racks (2 each)
    assert sum(ln.quantity for ln in _lines(d, PartKind.PDU)) == 2 * d.racks.network_racks
    assert d.racks.pdus == 2 * d.racks.network_racks
    assert d.inventory is not None
    group = d.inventory.group("shelf")
    assert group is not None
    assert group.count == 4 * racks
    assert group.rack_units == 1
    first = d.inventory.racks[0]
    run = next(r for r in first.runs if r.group == "shelf")
    assert (run.count, run.position) == (4, d.racks.compute.rack_units - 3)


def test_without_the_words_the_racks_stay_ac_fed() -> None:
    d = _design("128 DGX B300 on Spectrum-X Ethernet")
    assert d.request.rack_power is None
    assert not _lines(d, PartKind.POWER_SHELF)
    assert d.racks.pdus == 3 * d.racks.compute.compute_racks + 2 * d.racks.network_racks


def test_busbar_for_a_system_with_no_busbar_rack_says_so_and_stays_ac() -> None:
    d = _design("64 DGX H100 training, DC busbar")
    assert not _lines(d, PartKind.POWER_SHELF)
    assert "no DC busbar rack for NVIDIA DGX H100" in d.racks.basis
