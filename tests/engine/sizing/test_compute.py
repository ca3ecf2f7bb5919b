"""How many nodes a design gets: the size asked for or needed, and the spares asked beside it
(inside a cap the design fills)."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.design import Design
from clustergen.engine.report.scale_words import what_text
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design
from clustergen.errors import InfeasibleDesignError

CAT = load_catalog()


def _design(text: str) -> Design:
    return plan_design(CAT, merge_request(CAT, text, {}))


def test_spares_are_built_beside_the_gpus_asked_for() -> None:
    plain = _design("512 H100 GPUs for training")
    spared = _design("512 H100 GPUs for training, 2 hot spare nodes")
    assert spared.compute.nodes == plain.compute.nodes + 2
    assert spared.compute.spare_nodes == 2
    assert spared.compute.requested_gpus == 512
    assert "2 of them spare" in what_text(spared)
    # the fabric and power carry the spares too
    assert spared.power.compute_w > plain.power.compute_w
    assert spared.fabrics.compute is not None
    assert spared.fabrics.compute.node_links > plain.fabrics.compute.node_links  # type: ignore[union-attr]


def test_spares_beside_a_workload_are_added_to_what_it_needs() -> None:
    need = _design("serve Llama 3.1 70B to 300 concurrent users on H100")
    spared = _design("serve Llama 3.1 70B to 300 concurrent users on H100, N+1")
    assert spared.compute.nodes == need.compute.nodes + 1


def test_spares_in_a_filled_cap_are_among_the_nodes_that_fit() -> None:
    filled = _design("the most B200 GPUs for training in 1 MW")
    spared = _design("the most B200 GPUs for training in 1 MW, N+1 nodes")
    assert spared.compute.nodes == filled.compute.nodes
    assert spared.compute.spare_nodes == 1


def test_spares_that_leave_no_node_under_the_cap_are_refused() -> None:
    with pytest.raises(InfeasibleDesignError, match="spare"):
        _design("the most DGX B200 for training in 30 kW, with 5 spare nodes")


@pytest.mark.parametrize(
    ("text", "nodes"),
    [
        ("serve Llama 3.1 8B to 50 users on one H100 node", 1),
        ("fine-tune Llama 3.1 8B on a single H100 server", 1),
        ("serve Llama 3.1 70B on two H200 nodes", 2),
    ],
)
def test_a_node_count_in_words_before_a_gpu_counts_its_nodes(text: str, nodes: int) -> None:
    r = merge_request(CAT, text, {})
    assert r.nodes == nodes
    assert not r.not_understood


def test_a_round_up_to_one_node_says_node_and_counts_carry_separators() -> None:
    """'6 GPUs round up to 1 dgx-h200 nodes' read wrong; '1280' beside '1,280' elsewhere too."""
    one = _design("6 H200 GPUs for inference")
    (warning,) = [w for w in one.warnings if "round up" in w]
    assert warning.endswith(f"to 1 {one.platform.system} node (8 GPUs)")
    filled = _design("3 MW IT, B200 training, liquid cooled")
    assert filled.compute.gpus >= 1000
    (gpus,) = [a for a in filled.assumptions if a.field == "gpus"]
    assert gpus.value == f"{filled.compute.gpus:,}"
    (ingest,) = [a for a in filled.assumptions if a.field == "ingest_mb_per_s_per_gpu"]
    assert f"over {filled.compute.gpus:,} GPUs" in ingest.reason
