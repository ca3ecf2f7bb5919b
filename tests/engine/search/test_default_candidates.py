"""A request that names no GPU or platform weighs only current systems; a superseded one is
weighed when named (catalog `lifecycle`, sourced), and the "why" line states the rule."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.catalog.models import System
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design
from clustergen.engine.search.trade_study import (
    CURRENT_ONLY,
    PAST_SALE,
    candidate_platforms,
    more_memory_first,
)
from clustergen.errors import RequestError

CAT = load_catalog()
PAST = {s.id for s in CAT.all("systems", System) if s.lifecycle in PAST_SALE}


def test_the_catalog_marks_some_system_past_sale_with_a_source() -> None:
    assert PAST
    for sid in PAST:
        assert "lifecycle" in CAT.system(sid).field_sources


@pytest.mark.parametrize("text", ["8 GPUs", "64 GPUs", "512 GPUs training, 5 MW"])
def test_a_bare_gpu_count_weighs_current_systems_and_says_so(text: str) -> None:
    request = merge_request(CAT, text, {})
    assert not {s.id for s in candidate_platforms(CAT, request)} & PAST
    d = plan_design(CAT, request)
    assert d.platform.system not in PAST
    assert CURRENT_ONLY in d.platform.reason


@pytest.mark.parametrize("text", ["8 A100 GPUs", "2 DGX A100"])
def test_a_superseded_system_is_weighed_when_named(text: str) -> None:
    d = plan_design(CAT, merge_request(CAT, text, {}))
    assert d.platform.system in PAST
    assert CURRENT_ONLY not in d.platform.reason


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ("1000 GPUs for pretraining, 8 MW, prefer liquid cooling", "air"),
        ("1000 GPUs for pretraining, 8 MW, air cooled", "liquid"),
    ],
)
def test_a_cooling_asked_for_weighs_only_systems_that_take_it(text: str, refused: str) -> None:
    request = merge_request(CAT, text, {})
    weighed = candidate_platforms(CAT, request)
    assert weighed
    assert all(s.cooling != refused for s in weighed)
    d = plan_design(CAT, request)
    assert CAT.system(d.platform.system).cooling != refused
    assert f"with {request.cooling} cooling, as asked" in d.platform.reason


def _gbps(s: System) -> int | None:
    return None if s.compute is None else round(s.compute.port_speed_gbps)


@pytest.mark.parametrize(
    "text", ["512 GPUs, 800G InfiniBand, 5 MW", "256 H200s for training with 400G RoCE, 2 MW"]
)
def test_a_port_speed_asked_for_weighs_only_platforms_at_it(text: str) -> None:
    request = merge_request(CAT, text, {})
    weighed = candidate_platforms(CAT, request)
    assert weighed
    assert {_gbps(s) for s in weighed} == {request.compute_link_gbps}
    d = plan_design(CAT, request)
    assert f"{request.compute_link_gbps}G compute ports, as asked" in d.platform.reason


def test_a_port_speed_no_weighed_platform_has_is_refused_with_the_speeds_there_are() -> None:
    request = merge_request(CAT, "DGX H100 4 SU with 800G", {})
    with pytest.raises(RequestError, match="800 Gb/s compute ports") as raised:
        candidate_platforms(CAT, request)
    hint = raised.value.hint or ""
    assert "ask for 400G" in hint
    # the same count of servers at 800G: a rack-scale system is not a server, so not offered
    same_size = merge_request(CAT, "800G, 127 nodes", {})
    faster = [s.id for s in candidate_platforms(CAT, same_size)]
    assert faster
    assert all(f in hint for f in faster)


@pytest.mark.parametrize("text", ["4 nodes for fine-tuning", "serve Llama 3.1 8B on one server"])
def test_a_count_of_servers_weighs_no_rack_scale_system(text: str) -> None:
    kinds = {s.kind for s in candidate_platforms(CAT, merge_request(CAT, text, {}))}
    assert kinds
    assert "nvl-rack" not in kinds


def test_a_named_rack_scale_system_counted_in_nodes_is_still_built() -> None:
    ids = [s.id for s in candidate_platforms(CAT, merge_request(CAT, "2 nodes of GB300 NVL72", {}))]
    assert ids == ["gb300-nvl72"]


@pytest.mark.parametrize("sid", sorted(s.id for s in CAT.all("systems", System) if s.superseded_by))
def test_a_superseded_system_names_current_successors_and_since_when(sid: str) -> None:
    system = CAT.system(sid)
    assert system.lifecycle == "superseded"
    assert system.superseded_since
    assert "superseded_by" in system.field_sources
    assert all(CAT.system(s).lifecycle not in PAST_SALE for s in system.superseded_by)


def test_the_hopper_h100_systems_are_superseded() -> None:
    assert {"dgx-h100", "hgx-h100"} <= PAST


@pytest.mark.parametrize(
    "text", ["512 GPUs training, 5 MW", "2,048 GPUs for pretraining", "96 GPUs, 3 MW", "64 nodes"]
)
def test_a_bare_count_gets_the_most_compute_per_it_watt_and_says_what_it_traded(text: str) -> None:
    d = plan_design(CAT, merge_request(CAT, text, {}))
    study = d.alternatives
    assert study is not None
    assert study.objective.startswith("most dense BF16 PFLOPS per MW")
    best = study.rows[0]
    eligible = [r for r in study.rows if r.eligible and r.power_complete]
    assert best.objective is not None
    # the chosen row is the best per watt, or an RA row within the margin of it
    assert best.objective >= 0.9 * max(r.objective or 0 for r in eligible)
    least = min(eligible, key=lambda r: r.it_power_w)
    if least.platform != best.platform and least.it_power_w < best.it_power_w:
        assert "IT power for " in d.platform.reason
        assert f"the dense BF16 compute of {least.platform}" in d.platform.reason


def test_gpus_built_past_the_count_earn_no_compute_credit() -> None:
    study = plan_design(CAT, merge_request(CAT, "8 GPUs for training", {})).alternatives
    assert study is not None
    rack = [r for r in study.rows if r.rack_scale and r.gpus > 8]
    assert rack
    for r in rack:
        assert r.objective is not None
        assert r.dense_pflops is not None
        assert r.objective * r.it_power_w / 1e6 == pytest.approx(r.dense_pflops * 8 / r.gpus)
    assert not study.rows[0].rack_scale


def test_a_tie_on_the_objective_goes_to_more_gpu_memory() -> None:
    # H200 is the H100 with more memory at the same power and compute; B300 is the B200's
    tie = more_memory_first(CAT)
    assert tie["hgx-h200"] < tie["hgx-h100"]
    assert tie["dgx-b300"] < tie["dgx-b200"]
