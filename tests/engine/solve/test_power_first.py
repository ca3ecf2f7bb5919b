"""Power-first solve: exact against brute force, never over the cap."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clustergen.catalog.models import NodePowerTerms, PortGroup, Switch, System
from clustergen.engine.model.fabric import FabricPlan
from clustergen.engine.sizing.fabric.network import size_clos
from clustergen.engine.sizing.platform import it_cap_w, node_power, terms_total_w
from clustergen.engine.solve.power_first import max_nodes_under_cap
from clustergen.errors import InfeasibleDesignError, RequestError

_SRC = {"source": "test fixture", "as_of": "2026-01", "vendor": "nvidia"}
QM9700 = Switch(id="qm9700", name="QM9700", technology="infiniband", ports=64, port_speed_gbps=400, typical_power_w=747, **_SRC)  # fmt: skip


def _total(node_w: float, su: int | None):  # type: ignore[no-untyped-def]
    def total(n: int) -> float:
        f = size_clos(
            FabricPlan(nodes=n, ports_per_node=8, port_speed_gbps=400, su_nodes=su), QM9700
        )
        return n * node_w + f.power.known_w

    return total


@settings(max_examples=60, deadline=None)
@given(
    cap_kw=st.floats(20, 1500),
    node_kw=st.sampled_from([5.0, 7.85, 10.2, 14.3]),
    su=st.sampled_from([None, 32]),
)
def test_solve_equals_brute_force(cap_kw: float, node_kw: float, su: int | None) -> None:
    total = _total(node_kw * 1e3, su)
    cap = cap_kw * 1e3
    if total(1) > cap:
        with pytest.raises(InfeasibleDesignError):
            max_nodes_under_cap(cap, node_kw * 1e3, total)
        return
    got = max_nodes_under_cap(cap, node_kw * 1e3, total)
    brute = max(n for n in range(1, int(cap // (node_kw * 1e3)) + 2) if total(n) <= cap)
    assert got.nodes == brute
    assert got.total_w <= cap


def test_whole_scalable_units_less_a_ufm_slot() -> None:
    total = _total(10_200.0, 32)
    got = max_nodes_under_cap(5e6, 10_200.0, total, step=32, offset=1)
    assert (got.nodes + 1) % 32 == 0
    assert total(got.nodes + 32) > 5e6 >= total(got.nodes)


def test_bad_caps_are_errors() -> None:
    with pytest.raises(RequestError):
        max_nodes_under_cap(0, 1000, lambda n: n * 1000.0)


def test_seed_memo_power_terms() -> None:
    """Seed memo example node: 8*700 + 700 + 400 + 200 + 8*75 + 350 = 7,850 W."""
    node = System(
        id="seed",
        name="GPU-8x",
        kind="hgx",
        gpu="x",
        gpus_per_node=8,
        power_terms=NodePowerTerms(
            gpu_w=700, cpu_w=700, dram_w=400, nvme_w=200, nic_w=75, aux_w=350
        ),
        compute=PortGroup(ports=8, port_speed_gbps=400, nics=8),
        **_SRC,
    )
    total, terms = terms_total_w(node)
    assert total == 7850
    assert terms["gpus_w"] == 5600
    assert node_power(node, "terms").node_w == 7850


def test_it_cap_of_an_it_cap_is_itself_and_a_facility_cap_divides_by_pue() -> None:
    assert it_cap_w(5e6, "it", None) == 5e6
    assert it_cap_w(6.5e6, "facility", 1.3) == pytest.approx(5e6)


@pytest.mark.parametrize(
    ("cap", "basis", "pue"), [(5e6, "facility", None), (5e6, "facility", 0.9), (0.0, "it", None)]
)
def test_it_cap_refuses_what_it_cannot_convert(cap: float, basis: str, pue: float | None) -> None:
    with pytest.raises(RequestError):
        it_cap_w(cap, basis, pue)  # type: ignore[arg-type]
