"""The power-first solve on the shipped catalog (hypothesis): the IT power it counts never falls as
nodes grow (the binary search relies on it), and its answer is the most that fits."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clustergen.catalog import load_catalog
from clustergen.catalog.models import System
from clustergen.engine.model.compute import FabricChoices
from clustergen.engine.sizing.fabric.plan import platform_fabric
from clustergen.engine.sizing.platform import gpu_system, node_power
from clustergen.engine.solve.power_first import most_under_cap
from clustergen.errors import ClustergenError, InfeasibleDesignError

CATALOG = load_catalog()


def _powered(system: System) -> bool:
    try:
        node_power(system)
    except ClustergenError:
        return False  # no published power: the solve refuses it, so it has nothing to check
    return True


# Every compute platform follows a reference architecture (tests/catalog/test_architectures.py).
PLATFORMS = sorted(s.id for s in CATALOG.all("systems", System) if s.gpu and _powered(s))
CHOICES = st.builds(
    FabricChoices,
    oversubscription=st.sampled_from([None, 1.0, 2.0, 3.0]),
    technology=st.sampled_from([None, "infiniband", "ethernet"]),
)
SLOW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def it_power(platform: str, nodes: int, choices: FabricChoices) -> float:
    """Nodes plus compute fabric, as the solve counts it (an unknown fabric power counts 0)."""
    fabric = platform_fabric(CATALOG, platform, nodes, choices).fabric
    return nodes * node_power(gpu_system(CATALOG, platform)).node_w + fabric.power.known_w


@SLOW
@given(st.sampled_from(PLATFORMS), st.integers(1, 4000), st.integers(1, 64), CHOICES)
def test_it_power_never_falls_as_nodes_grow(
    platform: str, nodes: int, more: int, choices: FabricChoices
) -> None:
    def power(n: int) -> float:
        try:
            return it_power(platform, n, choices)
        except InfeasibleDesignError:
            return math.inf  # past the fabric's reach, as the solve counts it

    try:
        small, big = power(nodes), power(nodes + more)
    except ClustergenError:
        return  # a choice this platform cannot take
    # So also: once a size is past the fabric's reach, every larger size is.
    assert big >= small


@SLOW
@given(
    st.sampled_from(PLATFORMS),
    st.floats(0.02, 20),
    st.sampled_from(["it", "facility"]),
    st.floats(1.0, 2.0),
    st.booleans(),
    CHOICES,
)
def test_power_first_is_the_most_that_fits(
    platform: str, cap_mw: float, basis: str, pue: float, whole_su: bool, choices: FabricChoices
) -> None:
    refusal = ""
    try:
        r = most_under_cap(
            CATALOG,
            platform,
            cap_mw * 1e6,
            choices=choices,
            cap_basis=basis,  # type: ignore[arg-type]
            pue=pue,
            whole_su=whole_su,
        )
    except ClustergenError as err:
        refusal = err.one_line()
    if refusal:
        assert "\n" not in refusal
        return
    system = gpu_system(CATALOG, platform)
    assert math.isclose(r.it_cap_w, cap_mw * 1e6 / (pue if basis == "facility" else 1.0))
    assert r.gpus == r.nodes * system.gpus_per_node
    assert math.isclose(r.it_total_w, r.compute_w + r.switches_w + r.optics_w)
    assert r.it_total_w <= r.it_cap_w
    if r.complete:
        assert r.headroom_w is not None
        assert math.isclose(r.headroom_w, r.it_cap_w - r.it_total_w, abs_tol=1e-6)
    else:  # a switch or optic power is unknown (HDR QM8700): no headroom on an incomplete sum
        assert r.headroom_w is None
    assert math.isclose(r.it_total_w, it_power(platform, r.nodes, choices))

    step = 1
    if whole_su:
        su = r.fabric.su_nodes
        assert su
        step = su
        assert (r.nodes + (1 if r.fabric.fabric_manager_links else 0)) % su == 0
    try:
        over = it_power(platform, r.nodes + step, choices)
    except InfeasibleDesignError:
        return  # the next size cannot be built at all
    assert over > r.it_cap_w, "one more step would still have fit"


def test_whole_su_steps_by_the_full_unit_on_a_platform_without_a_reference_architecture() -> None:
    """Without a SuperPOD RA the SU is one rail leaf's downlinks; a cluster of one node must not
    shrink it to one (found by the property above: 77 GB300 NVL72 racks at 11 MW, not 72)."""
    r = most_under_cap(
        CATALOG,
        "gb300-nvl72",
        11e6,
        choices=FabricChoices(technology="infiniband"),
        whole_su=True,
    )
    assert r.fabric.su_nodes
    assert r.nodes % r.fabric.su_nodes == 0
