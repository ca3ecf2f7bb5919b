"""The designs an MCP server keeps: a brief within its budget for every golden request, and a store
that forgets (by count and by idle time) so a long session does not grow without end."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from clustergen.catalog import load_catalog
from clustergen.engine.request import parse_request
from clustergen.engine.search.planner import plan_design
from clustergen.errors import ClustergenError, RequestError
from clustergen.mcp import designs

GOLDEN = Path(__file__).parents[2] / "evals" / "golden"


def _texts() -> list[str]:
    texts = []
    for path in sorted(GOLDEN.glob("*.yaml")):
        texts += [case["text"] for case in yaml.safe_load(path.read_text()) if case.get("text")]
    return texts


def test_every_golden_request_gets_a_brief_within_budget() -> None:
    cat = load_catalog()
    seen = 0
    for text in _texts():
        try:
            design = plan_design(cat, parse_request(cat, text))
        except ClustergenError:
            continue  # a refusal is an error result, not a brief
        brief = designs.brief_text("abc", design)
        assert len(brief) <= designs.BRIEF_CHARS, text
        assert brief.rstrip().endswith("racks.png"), text  # the file list is never cut off
        seen += 1
    assert seen >= 20


def test_the_store_forgets_the_oldest_and_the_idle(monkeypatch: pytest.MonkeyPatch) -> None:
    cat = load_catalog()
    made = [plan_design(cat, parse_request(cat, f"{n} GPUs training")) for n in (64, 128, 256)]
    now = [1000.0]
    monkeypatch.setattr(designs.time, "monotonic", lambda: now[0])
    store = designs.DesignStore(keep=2, idle_s=60)
    ids = [store.add(d) for d in made]
    assert store.add(made[2]) == ids[2]  # the same design, the same id
    assert store.ids() == ids[1:]
    with pytest.raises(RequestError, match=f"no design '{ids[0]}'"):
        store.get(ids[0])
    now[0] += 30
    store.file(ids[1], "memo.md")  # a read keeps a design
    now[0] += 45
    assert store.ids() == [ids[1]]
    with pytest.raises(RequestError, match=r"no file 'memo\.txt'"):
        store.file(ids[1], "memo.txt")
