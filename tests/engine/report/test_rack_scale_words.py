"""A rack-scale node is a rack: one NVL72 rack is named as the rack it is (its GPUs sharing
NVLink through the rack's NVLink Switch trays) in the design table, the why line, the memo and
the topology, never as "one node" (issue 23, the edges)."""

from __future__ import annotations

import re

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.design import Design
from clustergen.engine.report.documents.memo import render_memo
from clustergen.engine.report.documents.study import why_winner
from clustergen.engine.report.pictures.topology import mermaid_source
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design

CAT = load_catalog()


def _design(text: str) -> Design:
    return plan_design(CAT, merge_request(CAT, text, {}))


@pytest.mark.parametrize(
    ("text", "rack"),
    [
        ("one GB200 NVL72 rack", "GB200 NVL72 rack"),
        ("one GB300 NVL72 rack", "GB300 NVL72 rack"),
    ],
)
def test_one_nvl72_rack_is_named_as_a_rack(text: str, rack: str) -> None:
    d = _design(text)
    # DGX GB200 User Guide, Rack Configuration: "9x 1RU NVLink switch trays" per 72-GPU rack
    link = "NVLink through the rack's NVLink Switch trays"
    assert d.platform.lone_unit == f"one {rack}, its 72 GPUs share {link}"
    assert d.platform.gpu_link == link
    assert d.alternatives is not None
    why = why_winner(d.alternatives)
    assert "1 rack of 72 GPUs" in why
    memo = render_memo(d)
    assert re.search(r"\bone node\b|\bsingle node\b|\b1 node\b|per node\b", memo) is None
    assert f"{rack}, its 72 GPUs share NVLink" in memo
    assert "Compute: one rack" in mermaid_source(d)


def test_one_8_gpu_node_keeps_its_node_words() -> None:
    d = _design("1 DGX H100")
    assert d.platform.lone_unit == "one node, its GPUs share NVLink"
    assert d.alternatives is not None
    assert "(1 node, no compute fabric)" in why_winner(d.alternatives)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("28 GB300 NVL72 racks, InfiniBand", "4 SUs of up to 8 racks"),  # the 4th part-built
        ("GB300 NVL72, 2 SU", "2 SUs of 8 racks"),
    ],
)
def test_a_part_built_last_su_is_worded_as_up_to(text: str, words: str) -> None:
    from clustergen.engine.report.scale_words import units_text

    assert units_text(_design(text)) == words
