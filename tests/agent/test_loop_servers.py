"""The loop against servers that are not hosted NIM: ones that drop `tools` silently, answer with
garbage tool names, hide tool results, time out or die mid-run. Every request goes through respx."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import respx

from clustergen.agent.client import ChatClient
from clustergen.agent.loop import Agent
from clustergen.agent.modes import design
from clustergen.agent.settings import AgentSettings
from clustergen.agent.trace import Trace
from clustergen.catalog import Catalog
from clustergen.engine.request import DesignRequest, parse_request
from clustergen.errors import AgentError
from support.nim_wire import CHAT, KEY, Sleeps, body, completion, scripted, tool_call

TEXT = "512 GPUs training, 5 MW"


def _request(catalog: Catalog) -> DesignRequest:
    return parse_request(catalog, TEXT)


def _then_scripted(first: list[Any]) -> Any:
    """Answer the first requests with `first` (responses, or exceptions to raise), then let the
    scripted model carry on."""
    queue = list(first)

    def reply(request: httpx.Request) -> httpx.Response:
        if queue:
            item = queue.pop(0)
            if isinstance(item, Exception):
                raise item
            return item
        return scripted(request)

    return reply


def _prose(text: str) -> httpx.Response:
    return httpx.Response(200, json=completion({"role": "assistant", "content": text}, "stop"))


def _events(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_server_that_drops_tools_is_noticed_and_the_json_protocol_finishes(
    router: respx.MockRouter,
    client: ChatClient,
    settings: AgentSettings,
    catalog: Catalog,
    tmp_path: Path,
) -> None:
    """llama.cpp's default chat format accepts `tools` and ignores them: the model answers in
    prose where a call was due."""
    route = router.post(CHAT).mock(side_effect=_then_scripted([_prose("Use DGX H100 nodes.")]))
    trace = Trace(tmp_path / "t.jsonl")
    d = Agent(catalog, client, settings, trace=trace).run(_request(catalog))
    trace.close()
    assert d.agent is not None
    assert d.agent.protocol == "json"
    assert d.compute.gpus == 512
    sent = [body(c.request) for c in route.calls]
    assert "tools" in sent[0]
    assert all("tools" not in b for b in sent[1:])
    assert '"tool": "<tool name>"' in sent[1]["messages"][0]["content"]
    roles = [m["role"] for m in sent[-1]["messages"]]
    assert all(a != b for a, b in itertools.pairwise(roles[1:]))  # alternating
    switch = [e for e in _events(tmp_path / "t.jsonl") if e["event"] == "protocol_switch"]
    assert len(switch) == 1
    assert "ignore the `tools` field" in switch[0]["reason"]


def test_an_empty_reply_gets_a_nudge_before_the_protocol_changes(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    """llama.cpp's chatml-function-calling lets the model decline a call and then forces an empty
    message: that is the model's choice, not a server that dropped `tools`; a second one is."""
    empty = _prose("")
    route = router.post(CHAT).mock(side_effect=_then_scripted([empty]))
    d = Agent(catalog, client, settings).run(_request(catalog))
    assert d.agent is not None
    assert d.agent.protocol == "tools"
    assert "continue by calling a tool" in body(route.calls[1].request)["messages"][-1]["content"]
    route.reset()
    router.post(CHAT).mock(side_effect=_then_scripted([empty, empty]))
    d = Agent(catalog, client, settings).run(_request(catalog))
    assert d.agent is not None
    assert d.agent.protocol == "json"


def test_replies_cut_off_twice_without_a_call_switch_protocols(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    """A template the model was not trained on (llama.cpp's llama-2 fallback for Gemma): prose
    until the token limit, every time."""
    cut = httpx.Response(
        200, json=completion({"role": "assistant", "content": "<<SYS>> 1. Choose a"}, "length")
    )
    route = router.post(CHAT).mock(side_effect=_then_scripted([cut, cut]))
    d = Agent(catalog, client, settings).run(_request(catalog))
    assert d.agent is not None
    assert d.agent.protocol == "json"
    assert ["tools" in body(c.request) for c in route.calls][:3] == [True, True, False]


def test_a_native_caller_that_once_answers_in_prose_keeps_its_tools(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    """Prose after real native calls is the model's choice, not a server dropping tools."""
    first = httpx.Response(200, json=tool_call("lookup_gpu", '{"name": "H100"}', "c1"))
    route = router.post(CHAT).mock(side_effect=_then_scripted([first, _prose("Thinking...")]))
    d = Agent(catalog, client, settings).run(_request(catalog))
    assert d.agent is not None
    assert d.agent.protocol == "tools"
    assert all("tools" in body(c.request) for c in route.calls)


def test_garbage_tool_names_switch_to_the_json_protocol(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    """functionary's format on a model not trained for it names tools that do not exist."""
    garbage = [
        httpx.Response(200, json=tool_call("all", "{}", "g1")),
        httpx.Response(200, json=tool_call("python", '{"code": "x"}', "g2")),
    ]
    route = router.post(CHAT).mock(side_effect=_then_scripted(garbage))
    d = Agent(catalog, client, settings).run(_request(catalog))
    assert d.agent is not None
    assert d.agent.protocol == "json"
    assert "tools" in body(route.calls[1].request)
    assert "tools" not in body(route.calls[2].request)


def test_a_call_repeated_at_once_means_the_results_are_not_seen(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    """llama.cpp's chatml-function-calling template drops tool messages: the model never sees a
    result and asks again. The JSON protocol shows results as user messages."""
    again = tool_call("compare_alternatives", "{}", "r")
    route = router.post(CHAT).mock(
        side_effect=_then_scripted([httpx.Response(200, json=again)] * 2)
    )
    d = Agent(catalog, client, settings).run(_request(catalog))
    assert d.agent is not None
    assert d.agent.protocol == "json"
    assert "tools" not in body(route.calls[2].request)
    assert d.compute.gpus == 512


def test_more_tools_offers_the_extended_set_from_the_next_turn(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    first = [
        httpx.Response(200, json=tool_call("compare_alternatives", "{}", "c")),
        httpx.Response(200, json=tool_call("more_tools", "{}", "m")),
        httpx.Response(200, json=tool_call("size_fabric", '{"platform":"dgx-h100","nodes":64}')),
    ]
    route = router.post(CHAT).mock(side_effect=_then_scripted(first))
    d = Agent(catalog, client, settings).run(_request(catalog))
    assert d.agent is not None
    offered = [[t["function"]["name"] for t in body(c.request)["tools"]] for c in route.calls]
    assert "more_tools" in offered[1]
    assert "size_fabric" not in offered[1]
    assert "size_fabric" in offered[2]
    assert "more_tools" not in offered[2]
    told = next(m for m in body(route.calls[2].request)["messages"] if m.get("tool_call_id") == "m")
    assert "size_fabric" in json.loads(told["content"])["note"] + told["content"]
    sized = body(route.calls[3].request)["messages"][-1]
    assert json.loads(sized["content"])["fabric"]["leaf_switches"] > 0


def test_more_tools_waits_for_a_first_valid_call(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    """A small model reaching for more tools at once (SmolLM2 135M does) is not sent every schema
    (minutes a request on a CPU server): it is told to call the first tool, and if it only asks
    again, the run ends there."""
    route = router.post(CHAT).mock(
        return_value=httpx.Response(200, json=tool_call("more_tools", "{}", "m"))
    )
    with pytest.raises(AgentError, match="cannot do the job: only more_tools"):
        Agent(catalog, client, settings).run(_request(catalog))
    assert route.call_count == 2
    offered = [[t["function"]["name"] for t in body(c.request)["tools"]] for c in route.calls]
    assert offered[1] == offered[0]  # nothing unlocked
    told = next(m for m in body(route.calls[1].request)["messages"] if m.get("tool_call_id") == "m")
    assert "call compare_alternatives first" in told["content"]


def test_more_tools_in_the_json_protocol_returns_the_schemas(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    compare = '{"tool": "compare_alternatives", "arguments": {}}'
    ask = completion({"role": "assistant", "content": '{"tool": "more_tools", "arguments": {}}'})
    refuse = httpx.Response(400, json={"error": {"message": "tools are not supported"}})
    route = router.post(CHAT).mock(
        side_effect=_then_scripted(
            [
                refuse,
                httpx.Response(200, json=completion({"role": "assistant", "content": compare})),
                httpx.Response(200, json=ask),
            ]
        )
    )
    Agent(catalog, client, settings).run(_request(catalog))
    result = next(
        m["content"]
        for m in body(route.calls[3].request)["messages"]
        if str(m["content"]).startswith("TOOL RESULT more_tools")
    )
    assert '"arguments_schema"' in result
    assert '"size_fabric"' in result


def test_a_server_that_dies_mid_run_is_reported_as_such(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    def reply(request: httpx.Request) -> httpx.Response:
        if router.routes[0].call_count == 1:
            return scripted(request)
        raise httpx.ConnectError("[Errno 111] Connection refused")

    router.post(CHAT).mock(side_effect=reply)
    with pytest.raises(AgentError) as err:
        Agent(catalog, client, settings).run(_request(catalog))
    line = err.value.one_line()
    assert "crashed" in line
    assert "stopped answering mid-run" in line
    assert "gave 1 reply" in line
    assert "Connection refused" in line
    assert "reachable" not in line


def test_an_endpoint_never_reached_asks_whether_it_is_reachable(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    router.post(CHAT).mock(side_effect=httpx.ConnectError("[Errno 111] Connection refused"))
    with pytest.raises(AgentError, match="Connection refused") as err:
        Agent(catalog, client, settings).run(_request(catalog))
    assert "mid-run" not in err.value.one_line()
    assert "reachable" in (err.value.hint or "")


def test_a_timeout_names_the_limit_and_the_setting(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    """A self-hosted endpoint (this one) gets ten minutes for a reply: a CPU server reads the whole
    prompt before it answers."""
    router.post(CHAT).mock(side_effect=httpx.ReadTimeout("slow"))
    with pytest.raises(AgentError, match="did not answer within 600 s") as err:
        Agent(catalog, client, settings).run(_request(catalog))
    assert "CLUSTERGEN_TIMEOUT_S" in (err.value.hint or "")


def test_the_trace_records_every_retry_and_wait(
    router: respx.MockRouter,
    client: ChatClient,
    settings: AgentSettings,
    catalog: Catalog,
    sleeps: Sleeps,
    tmp_path: Path,
) -> None:
    first = [
        httpx.Response(429, headers={"retry-after": "2"}, json={"error": "slow down"}),
        httpx.Response(503, json={"error": "busy"}),
        httpx.Response(400, json={"error": {"message": "temperature is not supported"}}),
    ]
    router.post(CHAT).mock(side_effect=_then_scripted(first))
    trace = Trace(tmp_path / "t.jsonl", secrets=[KEY])
    Agent(catalog, client, settings, trace=trace).run(_request(catalog))
    trace.close()
    events = _events(tmp_path / "t.jsonl")
    retries = [e for e in events if e["event"] == "retry"]
    assert [(e["error"], e["attempt"]) for e in retries] == [("HTTP 429", 1), ("HTTP 503", 2)]
    assert retries[0]["wait_s"] == 2.0
    assert retries[0]["retry_after_s"] == 2.0
    assert [e["wait_s"] for e in retries] == [round(s, 3) for s in sleeps]
    dropped = [e for e in events if e["event"] == "parameter_dropped"]
    assert [e["parameter"] for e in dropped] == ["temperature"]


def test_auto_mode_falls_back_to_the_planner_and_says_why(
    router: respx.MockRouter, settings: AgentSettings, catalog: Catalog, tmp_path: Path
) -> None:
    """A model that never calls a tool: auto mode answers with the planner's design, and says so."""
    route = router.post(CHAT).mock(return_value=_prose("I would pick 64 DGX B200 nodes."))
    d = design(
        catalog,
        _request(catalog),
        mode="auto",
        settings=settings,
        trace_path=tmp_path / "t.jsonl",
        http_client=httpx.Client(),
    )
    assert route.call_count <= 3
    assert d.mode == "offline"
    assert d.compute.gpus == 512
    assert "cannot do the job: no valid tool call" in d.warnings[0]
    assert "offline planner made this design" in d.warnings[0]
    assert _events(tmp_path / "t.jsonl")[-1]["event"] == "agent_failed"
    with pytest.raises(AgentError, match="cannot do the job"):
        design(
            catalog, _request(catalog), mode="llm", settings=settings, http_client=httpx.Client()
        )


def test_a_context_too_short_is_said_as_such(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    """llama.cpp's server with its default 2048-token context: neither dropping a parameter nor
    the JSON protocol helps, so the run ends at once, saying what to change."""
    full = {"error": {"message": "Requested tokens (2586) exceed context window of 2048"}}
    route = router.post(CHAT).mock(return_value=httpx.Response(400, json=full))
    with pytest.raises(AgentError, match="exceed context window of 2048") as err:
        Agent(catalog, client, settings).run(_request(catalog))
    assert route.call_count == 1
    assert "--n_ctx" in (err.value.hint or "")
