"""Agent mode on the page: each step of the run reaches the page as it happens, before the
answer; a failed agent still answers (the planner), saying why. The model is respx, on the
recorded wire format of tests/support/nim_wire.py; nothing reaches a network."""

from __future__ import annotations

import json
from typing import Any

import httpx
import respx
from starlette.testclient import TestClient

from clustergen.agent.settings import AgentSettings
from clustergen.catalog import Catalog
from clustergen.web.app import build_app
from clustergen.web.form import Form
from clustergen.web.make import make_design, step_words
from support.nim_wire import CHAT, KEY, scripted

REQ = "512 GPUs training, 5 MW"


def keyed() -> AgentSettings:
    return AgentSettings(
        NVIDIA_API_KEY=KEY,
        CLUSTERGEN_BASE_URL=CHAT.rsplit("/chat", 1)[0],
        CLUSTERGEN_MODEL="test/model",
        CLUSTERGEN_MAX_ATTEMPTS=1,
    )


def test_each_tool_call_is_told_as_it_happens(catalog: Catalog) -> None:
    heard: list[str] = []
    with respx.mock(assert_all_mocked=True) as r:
        r.post(CHAT).mock(side_effect=scripted)
        d = make_design(catalog, Form(REQ, {}), keyed(), heard.append)
    assert d.mode == "agent"
    assert heard[0] == "asking test/model"
    assert "tool call: compare_alternatives" in heard
    assert heard.index("tool call: compare_alternatives") < heard.index(
        "tool call: submit_design (the design is checked)"
    )
    assert not any(KEY in line for line in heard)


def test_the_page_streams_the_progress_then_the_answer(catalog: Catalog) -> None:
    app = build_app(catalog, settings=keyed())
    with respx.mock(assert_all_mocked=True) as r, TestClient(app, base_url="http://127.0.0.1") as c:
        r.post(CHAT).mock(side_effect=scripted)
        response = c.post(
            "/design",
            content=json.dumps({"q": REQ}),
            headers={"content-type": "application/json"},
        )
    lines: list[dict[str, Any]] = [json.loads(x) for x in response.text.splitlines()]
    progress = [x["progress"] for x in lines[:-1]]
    assert "tool call: compare_alternatives" in progress
    assert 'id="gpu-count">512<' in lines[-1]["html"]
    assert "agent mode" in lines[-1]["html"]
    assert KEY not in response.text


def test_a_failed_agent_is_said_and_the_planner_answers(catalog: Catalog) -> None:
    heard: list[str] = []
    with respx.mock(assert_all_mocked=True) as r:
        r.post(CHAT).mock(return_value=httpx.Response(503, json={"error": "down"}))
        d = make_design(catalog, Form(REQ, {}), keyed(), heard.append)
    assert d.mode == "offline"
    assert heard[-1].startswith("the agent failed (the model endpoint failed: HTTP 503")
    assert heard[-1].endswith("the offline planner answers")


def test_events_the_page_does_not_show_are_quiet() -> None:
    assert step_words("model_reply", {"content": "x"}) is None
    assert step_words("tool_result", {"tool": "x"}) is None
    assert step_words("tool_call", {"tool": "lookup_gpu"}) == "tool call: lookup_gpu"
