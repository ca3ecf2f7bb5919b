"""Whole designs from random valid requests (hypothesis): the planner either refuses with the
project's own error or returns a design whose figures agree with each other."""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clustergen.catalog import load_catalog
from clustergen.catalog.models import System
from clustergen.engine.model.design import Design
from clustergen.engine.report.documents.memo import bom_csv, render_memo
from clustergen.engine.search.planner import plan_design
from clustergen.engine.search.proposal import request_from_fields
from clustergen.errors import ClustergenError

CATALOG = load_catalog()
# Every compute platform follows a reference architecture (tests/catalog/test_architectures.py).
PLATFORMS = sorted(s.id for s in CATALOG.all("systems", System) if s.gpu)
GPUS = sorted({s.gpu for s in CATALOG.all("systems", System) if s.gpu})


@st.composite
def requests(draw: st.DrawFn) -> dict[str, Any]:
    """Request fields as a caller (the agent, the CLI flags) would give them; all in range."""
    fields: dict[str, Any] = {}
    sized = draw(st.sampled_from(["gpus", "cap", "both", "nodes"]))
    if sized in ("gpus", "both"):
        fields["gpus"] = draw(st.integers(1, 20_000))
    if sized == "nodes":
        fields["nodes"] = draw(st.integers(1, 2_000))
    if sized in ("cap", "both"):
        fields["power_cap_w"] = draw(st.floats(0.02e6, 20e6))
        fields["power_cap_basis"] = draw(st.sampled_from([None, "it", "facility"]))
    optional = {
        "workload": st.sampled_from(["training", "fine-tuning", "inference", "mixed"]),
        "platform": st.sampled_from(PLATFORMS),
        "gpu": st.sampled_from(GPUS),
        "fabric": st.sampled_from(["infiniband", "ethernet"]),
        "oversubscription": st.sampled_from([1.0, 1.5, 2.0, 3.0, 4.0]),
        "storage_tier": st.sampled_from(["good", "better", "best"]),
        "cooling": st.sampled_from(["air", "liquid"]),
        "rack_power_kw": st.floats(5, 200),
        "pue": st.floats(1.0, 2.0),
        "model_params_b": st.floats(0.1, 2000),
        "training_tokens_t": st.floats(0.01, 50),
    }
    for name in draw(st.sets(st.sampled_from(sorted(optional)), max_size=4)):
        fields[name] = draw(optional[name])
    return fields


def design_or_refusal(fields: dict[str, Any]) -> Design | None:
    try:
        return plan_design(CATALOG, request_from_fields(CATALOG, fields))
    except ClustergenError as err:
        refusal = err.one_line()
    assert refusal
    assert "\n" not in refusal
    return None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_a_design_agrees_with_itself(fields: dict[str, Any]) -> None:
    d = design_or_refusal(fields)
    if d is None:
        return
    c, p, pw, r = d.compute, d.platform, d.power, d.racks.compute
    assert c.gpus == c.nodes * p.gpus_per_node
    if fields.get("platform"):
        assert p.system == fields["platform"]
    if fields.get("gpus") and "power_cap_w" not in fields:
        # Whole nodes, and no more than it takes.
        assert c.gpus >= fields["gpus"] > c.gpus - p.gpus_per_node

    # Power: the parts add up, and a cap is honoured.
    parts = [
        pw.compute_w,
        pw.compute_fabric_switches_w,
        pw.compute_fabric_optics_w,
        pw.storage_fabric_w,
        pw.management_network_w,
        pw.management_servers_w or 0.0,
        pw.storage_w or 0.0,
    ]
    assert math.isclose(pw.it_total_w, sum(parts), rel_tol=1e-9)
    assert math.isclose(pw.facility_total_w, pw.it_total_w * pw.pue, rel_tol=1e-9)
    assert pw.complete == (not pw.unknown)
    if pw.cap_w is not None and not pw.complete:
        assert pw.headroom_w is None, "no headroom is stated on an incomplete sum"
    if pw.cap_w is not None and pw.complete:
        it_cap = pw.cap_w / pw.pue if pw.cap_basis == "facility" else pw.cap_w
        assert pw.headroom_w is not None
        assert math.isclose(pw.headroom_w, it_cap - pw.it_total_w, rel_tol=1e-9, abs_tol=1e-6)
        assert pw.headroom_w >= -1e-6, "a design over its cap must be refused, not returned"

    # Racks hold every node and no empty rack is counted.
    assert r.nodes_per_rack * r.compute_racks >= c.nodes > r.nodes_per_rack * (r.compute_racks - 1)

    # The BOM counts what the design counts.
    f = d.fabrics.compute
    qty = {(ln.category, ln.description): ln.quantity for ln in d.bom}
    assert sum(q for (cat, _), q in qty.items() if cat == "compute") == c.nodes
    fabric_switches = sum(
        q
        for (cat, desc), q in qty.items()
        if cat == "switch" and (", compute fabric " in desc or ", collapsed compute" in desc)
    )
    if f is None:  # one node: no scale-out fabric, and the design says which fabric is missing
        assert c.nodes == 1
        assert fabric_switches == 0
        assert [r.carried_by for r in d.fabrics.networks if r.network == "compute"] == ["node"]
    else:
        assert fabric_switches == f.leaf_switches + f.spine_switches + f.core_switches
    # Every one of the four networks is carried by some fabric (or, for compute, the node).
    assert {r.network for r in d.fabrics.networks} == {
        "compute",
        "storage",
        "in-band management",
        "out-of-band management",
    }
    # An unknown check is never a pass.
    assert not any(ch.unknown and ch.passed for ch in d.checks)
    assert d.bom_totals.lines == len(d.bom)
    # The BOM's power is the design's IT power, to the watt: every line whose power is known.
    assert math.isclose(
        sum(ln.total_power_w or 0.0 for ln in d.bom), pw.it_total_w, rel_tol=1e-12, abs_tol=1e-6
    )

    # What `design --json` and `design --out` write: strict JSON, a memo, a CSV row per line.
    json.dumps(d.model_dump(mode="json"), allow_nan=False)
    assert Design.model_validate_json(d.model_dump_json()) == d
    assert render_memo(d).strip()
    assert len(bom_csv(d).splitlines()) == len(d.bom) + 1
