"""Storage planning (sizing/storage_plan.py): targets by GPUs, appliances sized to them."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design


def _storage(text: str):  # type: ignore[no-untyped-def]
    cat = load_catalog()
    return plan_design(cat, merge_request(cat, text, {})).storage


def test_targets_scale_by_gpus_not_by_the_su_label() -> None:
    """Issue 13: 72 DGX B300 (576 GPUs, one B300 SU) must not get the 1-SU figure of 32 DGX H100.
    H100-RA Table 6, Better: 40 GB/s at 1 SU, 160 at 4 SU; 576 GPUs = 72 H100-equivalent nodes."""
    h100 = _storage("32 DGX H100, InfiniBand")
    b300 = _storage("72 DGX B300, InfiniBand")
    assert h100.targets.read_gb_per_s == 40
    assert b300.targets.read_gb_per_s == pytest.approx(40 + 120 * 1.25 / 3)


def test_storage_is_sized_to_appliances_with_their_power_and_ports() -> None:
    """DDN AI400X2 Turbo (MLPerf Storage v1.0): 99 GB/s read, 2.4 kW, 2U, 8 ports."""
    st = _storage("127 DGX H100, InfiniBand")
    a = st.appliances
    assert a is not None
    assert a.appliance == "ddn-ai400x2t"
    assert a.count >= 160 / 99
    assert (a.power_w, a.rack_units, a.ports) == (2400 * a.count, 2 * a.count, 8 * a.count)
    assert st.storage_ports == a.ports
