"""GPUs written per node are multiplied by the nodes counted, never read as the cluster's GPUs."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.request import parse_request
from clustergen.errors import RequestError

CAT = load_catalog()


@pytest.mark.parametrize(
    ("text", "gpus", "nodes"),
    [
        ("16 servers, each with 8 GPUs, for training", 128, 16),
        ("32 nodes with 8 GPUs per node for training", 256, 32),
        ("12 servers, 4 GPUs each, fine-tuning", 48, 12),
        # the GPUs right after the nodes' word are each node's, never the cluster's
        ("We'd like 64 nodes of 8 GPUs for LLM pretraining; our site has 5 MW", 512, 64),
        ("64 servers x 8 GPUs for training", 512, 64),
        ("32 nodes with 4 GPUs, fine-tuning", 128, 32),
        ("fine-tune a 67B model (DeepSeek LLM 67B) on 16 servers, each with 8 GPUs", 128, 16),
    ],
)
def test_gpus_per_node_times_the_nodes(text: str, gpus: int, nodes: int) -> None:
    req = parse_request(CAT, text)
    assert (req.gpus, req.nodes) == (gpus, nodes)
    assert req.not_understood == []


def test_a_per_node_count_without_nodes_sets_no_cluster_count() -> None:
    req = parse_request(CAT, "512 GPUs for training, 8 GPUs per server")
    assert req.gpus == 512


def test_a_total_that_disagrees_with_nodes_times_gpus_is_refused() -> None:
    with pytest.raises(RequestError, match="128 GPUs, not 100"):
        parse_request(CAT, "100 GPUs: 16 servers, each with 8 GPUs")
