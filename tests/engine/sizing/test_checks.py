"""Checks: the Clos rules of a fabric, and the design's own checks."""

from __future__ import annotations

from clustergen.catalog import load_catalog
from clustergen.catalog.models import Switch
from clustergen.engine.model.design import Check
from clustergen.engine.model.fabric import FabricPlan
from clustergen.engine.request import parse_request
from clustergen.engine.search.planner import plan_design
from clustergen.engine.sizing.checks import fabric_checks
from clustergen.engine.sizing.fabric.network import size_clos


def _switch(ports: int) -> Switch:
    return load_catalog().switch("qm9700").model_copy(update={"ports": ports, "breakouts": []})


def test_a_buildable_fabric_passes_every_clos_rule() -> None:
    f = size_clos(
        FabricPlan(nodes=64, ports_per_node=8, port_speed_gbps=400, su_nodes=32), _switch(64)
    )
    checks = fabric_checks("compute fabric", f)
    assert [c.name for c in checks] == [
        "compute fabric: leaf ports within radix",
        "compute fabric: spine ports within radix",
        "compute fabric: uplinks spread evenly",
        "compute fabric: 2-tier capacity",
    ]
    assert all(c.passed for c in checks)


def test_an_overfull_leaf_fails_its_check() -> None:
    f = size_clos(
        FabricPlan(nodes=64, ports_per_node=8, port_speed_gbps=400, su_nodes=32), _switch(64)
    )
    bad = f.model_copy(update={"max_ports_used": {**f.max_ports_used, "leaf": f.leaf_radix + 1}})
    first = fabric_checks("compute fabric", bad)[0]
    assert not first.passed
    assert first.figure == f"{f.leaf_radix + 1} of {f.leaf_radix}"


def test_an_unknown_check_is_never_a_pass() -> None:
    import pytest
    from pydantic import ValidationError

    from clustergen.engine.model.common import Check
    from clustergen.engine.sizing.checks import check

    c = check("x", True, "1", "d", unknown=True)
    assert (c.passed, c.unknown, c.status) == (False, True, "UNKNOWN")
    with pytest.raises(ValidationError):
        Check(name="x", passed=True, figure="1", detail="", unknown=True)


def test_power_under_an_incomplete_sum_is_unknown_or_a_fail() -> None:
    from clustergen.engine.request import merge_request
    from clustergen.engine.search.planner import plan_design
    from clustergen.engine.sizing.checks import power_check

    cat = load_catalog()
    power = plan_design(cat, merge_request(cat, "127 DGX H100, 2 MW", {})).power
    partial = power.model_copy(update={"complete": False, "unknown": ["x"], "headroom_w": None})
    under = power_check(partial, 2e6)
    assert (under.passed, under.unknown) == (False, True)
    assert under.figure.startswith("at least ")
    over = power_check(partial, partial.it_total_w / 2)  # the known terms alone exceed the cap
    assert (over.passed, over.unknown) == (False, False)
    assert power_check(power, 2e6).passed


def _estimate(days: float, reserve: float, band: float = 25.0):  # type: ignore[no-untyped-def]
    from clustergen.engine.model.workload import WorkloadEstimate

    fields = dict.fromkeys(WorkloadEstimate.model_fields)
    fields.update(
        kind="training",
        model_params_b=70.0,
        active_params_b=70.0,
        precision="bf16",
        gpu="b200",
        tokens_per_s_per_gpu=1.0,
        days=days,
        feasible=True,
        band_pct=band,
        reserve_days=reserve,
        method="m",
        sources=[],
        warnings=[],
        interactivity=[],
        meets_on=[],
    )
    return WorkloadEstimate.model_construct(**fields)


def test_an_estimate_inside_its_reserve_passes_with_the_planning_range() -> None:
    from clustergen.engine.sizing.checks import deadline_check

    c = deadline_check(215.0, _estimate(190.0, 21.5))
    assert c is not None
    assert c.passed
    assert "planning range 142-238 days" in c.figure


def test_an_estimate_in_its_reserve_might_miss_and_warns() -> None:
    from clustergen.engine.sizing.checks import deadline_check

    c = deadline_check(215.0, _estimate(212.6, 21.5))
    assert c is not None
    assert (c.passed, c.severity) == (False, "warning")
    assert "might miss" in c.detail
    past = deadline_check(215.0, _estimate(220.0, 21.5))
    assert past is not None
    assert (past.passed, past.severity) == (False, "error")


def test_a_margin_under_the_stated_share_warns_with_the_margin_stated() -> None:
    """3 kW of headroom on 3.2 MW read as a plain PASS: a met limit with a margin under
    MARGIN_SHARE of it is a WARN (a warning: the design is still valid), the margin stated."""
    from clustergen.engine.sizing.checks import MARGIN_SHARE, margin_check

    thin = margin_check("power margin under cap", 3.197e6, 3.2e6, "IT power")
    assert thin.status == "WARN"
    assert thin.severity == "warning"
    assert thin.figure == "3.0 kW of 3.200 MW (0.1%) left"
    assert f"{MARGIN_SHARE:.0%}" in thin.detail
    wide = margin_check("power margin under cap", 3.0e6, 3.2e6, "IT power")
    assert wide.status == "PASS"
    at_share = margin_check("x", 3.2e6 * (1 - MARGIN_SHARE), 3.2e6, "IT power")
    assert at_share.status == "PASS"


def test_a_design_filling_its_cap_warns_and_one_with_room_passes() -> None:
    """The cap-filling design ("5 MW") leaves under 5% and warns; 512 GPUs under 5 MW passes.
    A rack limit the request states is checked for its margin; the RA's own default is not."""
    from clustergen.engine.request import merge_request
    from clustergen.engine.search.planner import plan_design

    cat = load_catalog()

    def margins(text: str) -> dict[str, str]:
        d = plan_design(cat, merge_request(cat, text, {}))
        assert d.passed  # a warning never fails the design
        return {c.name: c.status for c in d.checks if "margin" in c.name}

    assert margins("5 MW training") == {"power margin under cap": "WARN"}
    assert margins("512 GPUs training, 5 MW") == {"power margin under cap": "PASS"}
    assert margins("64 GPUs training, 17 kW racks") == {"rack power margin": "PASS"}


def test_tiers_other_than_asked_warn_saying_what_the_size_needs() -> None:
    catalog = load_catalog()
    d = plan_design(catalog, parse_request(catalog, "512 H200 in a 3 tier fat tree"))
    tiers = next(c for c in d.checks if c.name == "compute fabric tiers as asked")
    assert d.fabrics.compute is not None
    assert not tiers.passed
    assert tiers.severity == "warning"
    assert tiers.figure == f"{d.fabrics.compute.tiers} tiers built, 3 asked"
    same = plan_design(catalog, parse_request(catalog, "512 H200 on a two-tier leaf-spine"))
    assert next(c for c in same.checks if c.name == "compute fabric tiers as asked").passed


def test_growth_within_the_tiers_built_passes_and_past_them_warns() -> None:
    cat = load_catalog()

    def growth(text: str) -> Check:
        d = plan_design(cat, parse_request(cat, text))
        return next(c for c in d.checks if c.name.startswith("fabric reaches the"))

    within = growth("256 B200 GPUs for training now, room to grow to 1024 later")
    assert within.passed
    assert within.severity == "warning"
    past = growth("128 H100 GPUs, scaling to 4096 later")
    assert not past.passed
    assert "adds a tier" in past.detail
    lone = growth("8 H200 GPUs, expandable to 64 GPUs")
    assert not lone.passed
    assert "adds a compute fabric" in lone.detail


def test_a_sub_megawatt_cap_is_checked_in_kilowatts() -> None:
    # "power under cap: 0.111 MW IT of 0.119 MW" beside a cap the page said as 118.9 kW
    from clustergen.engine.sizing.checks import _in_cap_units

    assert _in_cap_units(111_000, 118_900) == "111.0 kW"
    assert _in_cap_units(800_000, 1_000_000) == "0.800 MW"
