"""No trade study repeats a row: two candidates that build one design (a single node has no
compute fabric, so its technology changes nothing) are one row, in every frozen output and for
the single-node requests the study used to repeat."""

from __future__ import annotations

from typing import Any

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.request import merge_request
from clustergen.engine.search.trade_study import trade_study

from .test_one_sizing_path import CASES


def _shown(row: dict[str, Any]) -> tuple[object, ...]:
    """What the terminal's study table shows of a row (it has no technology column)."""
    return (row["platform"], row["switch"], row["oversubscription"], row["gpus"], row["it_power_w"])


@pytest.mark.parametrize("design", CASES)
def test_no_frozen_study_shows_a_row_twice(design: dict[str, Any]) -> None:
    rows = design["alternatives"]["rows"]
    shown = [_shown(r) for r in rows]
    assert len(shown) == len(set(shown)), shown


@pytest.mark.parametrize("text", ["1 DGX H100", "8 GPUs", "one GB200 NVL72 rack", "8 H100 GPUs"])
def test_a_single_node_is_one_row_per_platform(text: str) -> None:
    cat = load_catalog()
    study = trade_study(cat, merge_request(cat, text, {}))
    single = [r for r in study.rows if r.switch == "none"]
    platforms = [(r.platform, r.it_power_w) for r in single]
    assert single
    assert len(platforms) == len(set(platforms))
