"""A design asked for in scalable units is built on the RA whose SU was counted, and says so."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.catalog.architectures import Architecture
from clustergen.engine.request import parse_request
from clustergen.engine.search.planner import plan_design

CAT = load_catalog()


def _multi_ra_systems() -> list[str]:
    count: dict[str, int] = {}
    for a in CAT.all("architectures", Architecture):
        for s in a.systems:
            count[s] = count.get(s, 0) + 1
    return sorted(s for s, n in count.items() if n > 1)


@pytest.mark.parametrize("system", _multi_ra_systems())
def test_an_su_count_builds_the_ra_it_counted_and_the_why_line_says_so(system: str) -> None:
    request = parse_request(CAT, f"{CAT.system(system).name} 2 SU")
    d = plan_design(CAT, request)
    assert d.compute.nodes == request.nodes
    assert d.platform.architecture == request.su_architecture
    assert d.compute.su_nodes == CAT.architecture(request.su_architecture or "").su_nodes
    assert "an SU count keeps the RA whose SU it counts" in d.platform.reason
    assert "the 2 SUs asked for are its SUs of" in d.platform.reason


def test_dgx_b300_8_su_is_eight_xdr_sus_not_nine_spectrum_sus() -> None:
    d = plan_design(CAT, parse_request(CAT, "DGX B300 8 SU"))
    assert (d.compute.nodes, d.compute.scalable_units, d.compute.su_nodes) == (576, 8, 72)
    assert d.platform.architecture == "dgx-superpod-b300-xdr"
    assert "say 'ethernet' for SUs of 64 nodes" in d.platform.reason
    e = plan_design(CAT, parse_request(CAT, "DGX B300 8 SU ethernet"))
    assert (e.compute.nodes, e.compute.scalable_units, e.compute.su_nodes) == (512, 8, 64)
    assert e.platform.architecture == "dgx-superpod-b300-ethernet"
