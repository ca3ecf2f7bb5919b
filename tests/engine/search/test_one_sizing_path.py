"""One sizing path: the chosen trade-study row is the design it describes, for every frozen design
(every eval case and CLI example), and the memo states the same GPUs and IT power."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.report.documents.memo import render_memo
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design
from clustergen.units import watts
from support.frozen import frozen_figures


def _designs(obj: Any) -> Iterator[dict[str, Any]]:
    if isinstance(obj, dict):
        if "alternatives" in obj and "compute" in obj and "power" in obj:
            yield obj
        for value in obj.values():
            yield from _designs(value)
    elif isinstance(obj, list):
        for value in obj:
            yield from _designs(value)


def _studied() -> list[Any]:
    out = []
    for name, figures in frozen_figures():  # the rows' and the design's figures are all there
        for i, d in enumerate(_designs(figures)):
            if d.get("alternatives"):
                out.append(pytest.param(d, id=f"{name}-{i}"))
    return out


CASES = _studied()


def test_the_frozen_outputs_hold_designs_with_a_trade_study() -> None:
    assert len(CASES) >= 40  # guards against a format change leaving the test below empty


@pytest.mark.parametrize("design", CASES)
def test_the_chosen_row_is_the_design(design: dict[str, Any]) -> None:
    rows = design["alternatives"]["rows"]
    chosen = [r for r in rows if r["chosen"]]
    assert len(chosen) == 1
    row = chosen[0]
    assert row["platform"] == design["platform"]["system"]
    assert row["gpus"] == design["compute"]["gpus"]
    assert row["nodes"] == design["compute"]["nodes"]
    # a two-pool design's power holds both pools; the study is the training pool's
    pools = design.get("pools") or []
    power = pools[0]["it_power_w"] if pools else design["power"]["it_total_w"]
    assert row["it_power_w"] == pytest.approx(power)
    # rows are not repeated
    keys = [
        (r["platform"], r["fabric"], r["switch"], r["oversubscription"], r["gpus"]) for r in rows
    ]
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize(
    "text",
    [
        "512 GPUs training, 5 MW",
        "max GPUs under 20 MW",
        "how many B200 fit in 10 MW",
        "serve Llama 3.1 405B at 20,000 output tokens/s with TTFT under 2 s",
        "train a 70B model on 15T tokens in 60 days",
    ],
)
def test_headline_row_and_memo_state_the_same_answer(text: str) -> None:
    cat = load_catalog()
    d = plan_design(cat, merge_request(cat, text, {}))
    assert d.alternatives is not None
    row = next(r for r in d.alternatives.rows if r.chosen)
    assert (row.gpus, row.it_power_w) == (d.compute.gpus, d.power.it_total_w)
    memo = render_memo(d)
    headline = memo.split("## Executive summary", 1)[1].split("\n## ", 1)[0]
    assert f"{d.compute.gpus:,}" in headline
    appendix = memo.split("Appendix C", 1)[1]
    chosen_line = next(ln for ln in appendix.splitlines() if "(chosen)" in ln and "|" in ln)
    # the GPUs, and beside them the GPUs needed where a row builds more
    need = f" ({row.needed_gpus:,})" if row.needed_gpus not in (None, row.gpus) else ""
    assert f"| {row.gpus:,}{need} |" in chosen_line
    assert watts(row.it_power_w) in chosen_line
