"""Published rows count for every catalog model of the same network, the newest software first."""

from __future__ import annotations

from clustergen.catalog import load_catalog
from clustergen.engine.sizing.workload.published import inference_table, same_network, training_row

CAT = load_catalog()


def test_llama_3_3_1_and_3_3_70b_are_one_network_and_llama_2_is_not() -> None:
    l3, l31, l33 = (CAT.model(m) for m in ("llama-3-70b", "llama-3.1-70b", "llama-3.3-70b"))
    assert same_network(l3, l31)
    assert same_network(l31, l33)
    assert not same_network(l3, CAT.model("llama-2-70b"))  # 32k vocabulary


def test_the_newest_training_row_wins() -> None:
    row = training_row(CAT, CAT.model("llama-3.1-405b"), "h100-sxm", "fp8")
    assert row is not None
    assert row.software.startswith("NeMo container 26.02")


def test_the_newest_serving_table_wins() -> None:
    table = inference_table(CAT, CAT.model("llama-3.3-70b"), "h200", "fp8")
    assert table is not None
    assert table.tp == 2  # TRT2 (newer) measured H200 at TP2; TRT1 at TP1
