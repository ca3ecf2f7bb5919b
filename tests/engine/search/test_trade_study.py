"""The trade study keeps every candidate: sized and ranked, or dropped with the reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.request import merge_request, parse_request
from clustergen.engine.search.trade_study import candidate_platforms, trade_study


def test_every_candidate_is_a_row_or_dropped_with_its_reason() -> None:
    cat = load_catalog()
    req = merge_request(cat, "512 GPUs training, 5 MW", {})
    study = trade_study(cat, req)
    platforms = {s.id for s in candidate_platforms(cat, req)}
    seen = {r.platform for r in study.rows} | {d.platform for d in study.dropped}
    assert seen == platforms
    for d in study.dropped:
        assert d.why_not
        assert d.kind
    # a platform-wide gap is recorded once, not once per fabric
    per_platform = [d.platform for d in study.dropped if d.fabric is None]
    assert len(per_platform) == len(set(per_platform))


def _layer(tmp_path: Path, file: str, text: str) -> Path:
    (tmp_path / file).write_text(text)
    return tmp_path


def test_a_platform_with_no_known_power_is_dropped_as_a_catalog_gap(tmp_path: Path) -> None:
    cat = load_catalog(_layer(tmp_path, "systems.yaml", "- id: hgx-h100\n  max_power_w: null\n"))
    req = merge_request(cat, "64 GPUs training", {"platform": "hgx-h100"})
    study = trade_study(cat, req)
    assert [d.kind for d in study.dropped] == ["catalog_gap"]
    assert "no known power" in study.dropped[0].why_not


def test_every_compute_platform_in_the_catalog_has_a_power_figure() -> None:
    """Issue 13: no platform of the catalog's own is dropped for want of power."""
    cat = load_catalog()
    req = merge_request(cat, "512 GPUs training", {})
    assert trade_study(cat, req).dropped == []


def test_the_first_row_is_chosen_and_every_other_row_says_why_not() -> None:
    cat = load_catalog()
    study = trade_study(cat, merge_request(cat, "512 GPUs training, 5 MW", {}))
    assert study.ranking
    assert study.rows[0].chosen
    assert [r.chosen for r in study.rows].count(True) == 1
    assert all(r.why_not for r in study.rows[1:])
    # No eligible row that scores better than the chosen one is passed over without the reason.
    best = study.rows[0]
    # a bare GPU count: the most dense compute per MW of IT power from the GPUs asked for
    assert study.better == "higher"
    for r in study.rows[1:]:
        if r.eligible and r.power_complete and (r.objective or 0) > (best.objective or 0):
            assert "reference architecture" in (r.why_not or "")


def test_a_request_for_the_most_gpus_gets_the_most_gpus() -> None:
    """Issue 13: "max GPUs under 0.5 MW" answered a PFLOPS/MW question (216 GPUs)."""
    cat = load_catalog()
    req = merge_request(cat, "max GPUs under 0.5 MW", {})
    assert req.objective == "most-gpus"
    study = trade_study(cat, req)
    eligible = [r for r in study.rows if r.eligible]
    assert study.objective.startswith("most GPUs")
    assert study.rows[0].gpus == max(r.gpus for r in eligible)
    assert study.rows[0].gpus >= 360  # the power tool's DGX H100 answer under 0.5 MW


def test_a_row_whose_power_is_unknown_is_not_ranked_as_if_cheaper(tmp_path: Path) -> None:
    layer = _layer(
        tmp_path, "switches.yaml", "- id: q3400\n  typical_power_w: null\n  max_power_w: null\n"
    )
    cat = load_catalog(layer)
    study = trade_study(cat, merge_request(cat, "512 GPUs training, 1 MW", {}))
    partial = [r for r in study.rows if not r.power_complete]
    assert partial
    # under a cap, a lower bound cannot say the row fits: never eligible, and it says why
    assert all(
        not r.eligible and ("incomplete" in (r.why_not or "") or "at least" in (r.why_not or ""))
        for r in partial
    )
    first_partial = study.rows.index(partial[0])
    assert not any(r.eligible for r in study.rows[first_partial:])


@pytest.mark.parametrize(
    "text",
    [
        "train a 70B model on 15T tokens in 60 days",
        "serve Llama 3.1 405B at 20,000 output tokens/s with TTFT under 2 s",
    ],
)
def test_a_platform_is_never_dropped_as_the_users_mistake_for_the_catalogs_gap(text: str) -> None:
    # a request error would fail the whole request; a platform the request cannot be built on is
    # infeasible, and a fact the catalog lacks is a catalog gap (the RTX PRO 6000's BF16 figure)

    catalog = load_catalog()
    study = trade_study(catalog, parse_request(catalog, text))
    kinds = {d.kind for d in study.dropped}
    assert kinds <= {"catalog_gap", "infeasible"}, [d.why_not for d in study.dropped]
    gaps = [d for d in study.dropped if d.kind == "catalog_gap"]
    assert all("in the catalog" in d.why_not for d in gaps)


def test_perf_per_watt_ranks_by_dense_pflops_per_it_mw() -> None:
    """The chosen row has the best PFLOPS per MW among the rows on their RA's design, and every
    row's figure is its dense PFLOPS over its whole design's IT power."""
    cat = load_catalog()
    study = trade_study(cat, merge_request(cat, "1000 GPUs, best performance per watt", {}))
    assert study.objective_unit == "PFLOPS/MW"
    for row in study.rows:
        if row.dense_pflops is not None:
            assert row.objective == pytest.approx(row.dense_pflops / (row.it_power_w / 1e6))
    chosen = study.rows[0]
    assert chosen.chosen
    assert chosen.objective is not None
    peers = [r for r in study.rows if r.eligible and r.objective is not None and r.follows_ra]
    assert chosen.objective >= max(r.objective for r in peers) * (1 - 0.10)


def test_a_compute_target_gives_each_platform_the_gpus_its_dense_peak_needs() -> None:
    """'1 exaflop of FP8': every row holds at least the GPUs that deliver 1,000 dense FP8
    PFLOPS at its GPU's peak, and states its dense compute at FP8; the design echoes the request
    as written (no GPU count) and says how the target became GPUs."""
    import math

    from clustergen.engine.search.planner import plan_design

    cat = load_catalog()
    request = merge_request(cat, "1 exaflop of FP8", {})
    study = trade_study(cat, request)
    for row in study.rows:
        gpu = cat.gpu(str(cat.system(row.platform).gpu))
        assert gpu.fp8_dense_tflops is not None
        need = math.ceil(1000e3 / gpu.fp8_dense_tflops - 1e-9)
        assert row.needed_gpus == need
        assert row.gpus >= need
        assert row.dense_pflops == pytest.approx(row.gpus * gpu.fp8_dense_tflops / 1e3, abs=0.1)
    d = plan_design(cat, request)
    assert d.request.gpus is None
    assert d.request.compute_pflops == 1000
    (how,) = [a for a in d.assumptions if a.field == "gpus"]
    assert "dense FP8 PFLOPS" in how.reason


def test_a_compute_target_at_a_precision_a_gpu_lacks_drops_that_gpu() -> None:
    cat = load_catalog()
    study = trade_study(cat, merge_request(cat, "2 EF of FP4", {}))
    assert all(cat.gpu(str(cat.system(r.platform).gpu)).fp4_dense_tflops for r in study.rows)


@pytest.mark.parametrize("nodes", [8, 256])
def test_among_lower_bounds_a_row_does_not_pass_its_ra_design_by_what_it_leaves_unknown(
    nodes: int,
) -> None:
    """No DGX A100 row's power is complete (the QM8700's power is not in the catalog; an
    SN5600 row leaves out the node modules no catalog part fits). The HDR RA row, its AOC ends
    counted, sits within the RA margin of the SN5600 row's smaller lower bound: the RA row ranks
    first, as it would among rows whose power is known."""
    cat = load_catalog()
    req = merge_request(cat, f"{nodes} DGX A100 for training", {})
    study = trade_study(cat, req)
    rows = [r for r in study.rows if r.platform == "dgx-a100"]
    assert not any(r.power_complete for r in rows)
    chosen = next(r for r in study.rows if r.chosen)
    assert chosen.switch == "qm8700"
    assert chosen.follows_ra
    ethernet = [r for r in rows if r.switch == "sn5600"]
    assert ethernet
    assert all((r.it_power_w or 0) < (chosen.it_power_w or 0) for r in ethernet)


def test_an_avoided_system_is_weighed_only_when_nothing_else_is_left() -> None:
    cat = load_catalog()
    avoided = DesignRequest(gpus=512, workload="training", platforms_avoided=["gb200"])
    weighed = {s.id for s in candidate_platforms(cat, avoided)}
    assert "gb200" not in weighed
    assert weighed
    named = DesignRequest(gpus=576, gpu="gb200", platforms_avoided=["gb200"])
    assert {s.gpu for s in candidate_platforms(cat, named)} == {"gb200"}


def test_a_named_storage_systems_unknown_power_does_not_rank_the_rows() -> None:
    """The array of a storage system the request names is the vendor's to size, the same for
    every row: the rows are weighed on what is known (the choice is the one without storage
    named), while the design's cap check still says it cannot tell."""
    from clustergen.engine.search.planner import plan_design

    cat = load_catalog()
    plain = plan_design(cat, merge_request(cat, "512 GPUs training, 5 MW", {}))
    named = plan_design(cat, merge_request(cat, "512 GPUs training, 5 MW, 2 PB of Lustre", {}))
    assert named.power.storage_w is None
    assert named.platform.system == plain.platform.system
    assert named.alternatives is not None
    assert named.alternatives.rows[0].eligible
    cap = next(c for c in named.checks if c.name == "power under cap")
    assert cap.unknown
    assert not cap.passed


@pytest.mark.parametrize(
    "text",
    ["1024 B200 or GB200 GPUs for training", "compare B200 and GB200 for 1,024 GPUs, training"],
)
def test_two_gpus_set_side_by_side_are_weighed_alone(text: str) -> None:
    from clustergen.engine.search.planner import plan_design

    cat = load_catalog()
    r = parse_request(cat, text)
    assert (r.gpus_weighed, r.gpus, r.not_understood) == (["b200", "gb200"], 1024, [])
    d = plan_design(cat, r)
    assert d.alternatives is not None
    assert {cat.system(row.platform).gpu for row in d.alternatives.rows} == {"b200", "gb200"}


def test_a_port_speed_asked_is_the_speed_built_and_the_range_left_is_said() -> None:
    """'16 DGX H100 at NDR400' was built at NDR200 (the BasePOD design for 9-16 nodes) with the
    asked speed dropped; it is a 400G fabric by the SuperPOD's rules, said to be below its
    range."""
    from clustergen.engine.search.planner import plan_design

    cat = load_catalog()
    d = plan_design(cat, parse_request(cat, "16 DGX H100, NDR400 compute fabric"))
    assert d.fabrics.compute is not None
    assert d.fabrics.compute.port_speed_gbps == 400
    assert "outside its range" in d.platform.reason
    storage = plan_design(cat, parse_request(cat, "127 DGX B200, storage over Ethernet"))
    assert storage.fabrics.storage is not None
    assert storage.fabrics.storage.technology == "ethernet"
    assert storage.fabrics.compute is not None
    assert storage.fabrics.compute.technology == "infiniband"


def test_a_tie_says_how_it_fell() -> None:
    # "ties the chosen row on the objective; it has more switches or comes later" was said of
    # two rows with the same switches
    from clustergen.catalog import load_catalog as _load
    from clustergen.engine.request import parse_request as _parse
    from clustergen.engine.search.planner import plan_design as _plan

    cat = _load()
    d = _plan(cat, _parse(cat, "Llama 3.1 70B offline on 8 H100"))
    assert d.alternatives is not None
    best, runner = d.alternatives.rows[0], d.alternatives.rows[1]
    assert runner.switches == best.switches
    assert runner.why_not is not None
    assert (
        "the tie goes to the GPU with more memory, then to the row listed first" in runner.why_not
    )
