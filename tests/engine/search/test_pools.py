"""A mixed cluster as two pools: training on a training platform with a non-blocking fabric,
serving sized from its workload, and one design whose BOM, power, racks and checks hold both."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design
from clustergen.engine.search.pools import pooled, split_requests
from clustergen.errors import RequestError

CAT = load_catalog()


def _plan(text: str):  # type: ignore[no-untyped-def]
    return plan_design(CAT, merge_request(CAT, text, {}))


def test_training_plus_serving_is_two_pools_on_their_own_terms() -> None:
    d = _plan("a mixed cluster: 512 GPUs for training plus serving Llama 3.3 70B to 2,000 users")
    training, serving = d.pools
    assert (training.role, training.gpus, training.oversubscription) == ("training", 512, 1.0)
    inference_cards = {"l40s", "l4", "rtx-pro-6000"}
    assert training.gpu not in inference_cards  # never trained on inference cards
    assert serving.role == "serving"
    assert "40,000 output tokens/s" in serving.sized_for
    assert d.serving_pool is not None
    assert d.serving_pool.workload is not None
    # the design's totals hold both pools
    assert d.power.it_total_w == pytest.approx(training.it_power_w + serving.it_power_w)
    assert d.racks.total_racks == training.racks + serving.racks
    assert len(d.bom) == len(d.serving_pool.bom) + sum(
        1 for ln in d.bom if not ln.description.startswith("serving pool: ")
    )
    assert d.notice is not None
    assert d.notice.startswith("two pools")


def test_a_stated_split_divides_the_gpus() -> None:
    d = _plan("512 GPUs, half for training, half for inference of Llama 3.1 70B")
    assert [(p.role, p.gpus) for p in d.pools] == [("training", 256), ("serving", 256)]
    assert d.pools[0].oversubscription == 1.0


def test_both_pools_fit_under_the_cap_together() -> None:
    d = _plan(
        "4 MW IT: 1,024 GPUs for training and we also need to serve Llama 3.1 70B to 500 concurrent users"
    )
    assert d.power.cap_w == 4e6
    assert d.power.it_total_w <= 4e6
    check = next(c for c in d.checks if c.name == "both pools under the power cap")
    assert check.passed


def test_a_mixed_cluster_without_a_split_is_one_training_grade_pool() -> None:
    d = _plan("a mixed cluster of 256 GPUs")
    assert d.pools == []
    assert d.fabrics.compute is not None
    assert d.fabrics.compute.oversubscription == 1.0


def test_a_share_of_nothing_is_refused() -> None:
    req = DesignRequest(workload="mixed", serving_share=0.5, model="llama-3.1-70b")
    assert pooled(req)
    with pytest.raises(RequestError, match="share"):
        split_requests(req)


def test_a_share_with_no_model_splits_whole_nodes_that_add_up_to_the_gpus_asked() -> None:
    # it raised a TypeError (no model to name the serving pool by) and rounded each pool up
    d = _plan("512 B200s, 40% for inference")
    assert sum(p.gpus for p in d.pools) == 512  # the design's compute is the training pool's
    serving = next(p for p in d.pools if p.role == "serving")
    assert serving.gpus == 208  # 40% of 64 nodes, in whole nodes
    assert "models to come" in serving.sized_for
