"""The tool-calling loop against the real OpenAI SDK, every request answered by respx."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import respx

from clustergen.agent.client import ChatClient
from clustergen.agent.loop import REPEAT_STOP, Agent
from clustergen.agent.scripted import scripted_reply
from clustergen.agent.settings import AgentSettings
from clustergen.agent.trace import Trace
from clustergen.catalog import Catalog
from clustergen.engine.request import DesignRequest, parse_request
from clustergen.errors import AgentError
from support.nim_wire import CHAT, KEY, Sleeps, body, completion, scripted, tool_call

TEXT = "512 GPUs training, 5 MW"


def _request(catalog: Catalog, text: str = TEXT) -> DesignRequest:
    return parse_request(catalog, text)


def _then_scripted(first: list[httpx.Response]) -> Any:
    """Answer the first requests with `first`, then let the scripted model carry on."""
    queue = list(first)

    def reply(request: httpx.Request) -> httpx.Response:
        if queue:
            return queue.pop(0)
        return scripted(request)

    return reply


def test_happy_path_is_two_round_trips_and_grounded(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    route = router.post(CHAT).mock(side_effect=scripted)
    d = Agent(catalog, client, settings).run(_request(catalog))
    assert d.mode == "agent"
    assert d.provenance.mode == "agent"
    assert d.compute.gpus == 512
    assert d.agent is not None
    assert d.grounding is not None
    assert (d.agent.turns, d.agent.tool_calls, d.agent.repairs) == (2, 2, 0)
    assert d.agent.protocol == "tools"
    assert d.agent.prompt_tokens > 0
    assert d.agent.completion_tokens > 0
    assert d.grounding.unmatched == []
    assert d.grounding.numbers >= 5
    assert d.memo
    assert "[unverified]" not in d.memo
    assert all(c.passed for c in d.checks if c.severity == "error")
    # every request went through the mock, authenticated, with the core tools attached
    assert route.call_count == 2
    for call in route.calls:
        assert call.request.headers["authorization"] == f"Bearer {KEY}"
        sent = body(call.request)
        assert sent["model"] == "test/model"
        assert [t["function"]["name"] for t in sent["tools"]] == [
            "compare_alternatives",
            "submit_design",
            "more_tools",
        ]
    # the conversation reached the engine's tools in order
    names = [
        m["tool_calls"][0]["function"]["name"]
        for m in body(route.calls[-1].request)["messages"]
        if m["role"] == "assistant" and m.get("tool_calls")
    ]
    assert names == ["compare_alternatives"]


def test_malformed_tool_arguments_come_back_as_a_tool_error(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    bad = httpx.Response(200, json=tool_call("lookup_gpu", '{"name": "H100"', "call_bad"))
    route = router.post(CHAT).mock(side_effect=_then_scripted([bad]))
    d = Agent(catalog, client, settings).run(_request(catalog))
    second = body(route.calls[1].request)["messages"]
    err = next(m for m in second if m["role"] == "tool" and m["tool_call_id"] == "call_bad")
    assert "not valid JSON" in json.loads(err["content"])["error"]
    assert d.agent is not None
    assert d.agent.tool_calls == 3


def test_wrong_argument_types_name_the_field(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    bad = httpx.Response(
        200, json=tool_call("size_fabric", '{"platform": "dgx-h100", "nodes": "many"}', "c1")
    )
    route = router.post(CHAT).mock(side_effect=_then_scripted([bad]))
    Agent(catalog, client, settings).run(_request(catalog))
    msg = next(m for m in body(route.calls[1].request)["messages"] if m.get("tool_call_id") == "c1")
    assert "nodes" in json.loads(msg["content"])["error"]


def test_unknown_tool_lists_the_real_ones(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    bad = httpx.Response(200, json=tool_call("delete_datacenter", "{}", "c1"))
    route = router.post(CHAT).mock(side_effect=_then_scripted([bad]))
    d = Agent(catalog, client, settings).run(_request(catalog))
    msg = next(m for m in body(route.calls[1].request)["messages"] if m.get("tool_call_id") == "c1")
    error = json.loads(msg["content"])
    assert error["kind"] == "unknown_tool"
    assert "submit_design" in error["error"]
    assert d.compute.gpus == 512


def _inventing(invented: str) -> Any:
    """A model that plays the script but writes an invented figure into every memo."""

    def reply(request: httpx.Request) -> httpx.Response:
        data = scripted_reply(body(request))
        msg = data["choices"][0]["message"]
        for c in msg.get("tool_calls") or []:
            if c["function"]["name"] == "submit_design":
                args = json.loads(c["function"]["arguments"])
                args["memo"] += f"\n\n{invented}"
                c["function"]["arguments"] = json.dumps(args)
        return httpx.Response(200, json=data)

    return reply


def test_invented_numbers_are_sent_back_then_flagged(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    route = router.post(CHAT).mock(
        side_effect=_inventing("It will deliver 9.7 MW of savings and needs 1,234 cables.")
    )
    d = Agent(catalog, client, settings).run(_request(catalog))
    assert d.grounding is not None
    assert d.grounding.unmatched == ["9.7 MW", "1,234"]
    assert d.grounding.rounds == settings.grounding_rounds
    assert "9.7 MW [unverified]" in (d.memo or "")
    assert "1,234 [unverified]" in (d.memo or "")
    assert any("unverified" in w for w in d.warnings)
    # the model was told which numbers, with the design's own figures beside them
    told = [
        m["content"]
        for call in route.calls
        for m in body(call.request)["messages"]
        if m["role"] == "tool" and "ungrounded_numbers" in m["content"]
    ]
    assert told
    assert "9.7 MW" in told[-1]
    assert "it_total_w" in told[-1]


def test_grounded_rewrite_is_accepted_clean(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    """A model that fixes its memo after the first grounding round ends with nothing flagged."""
    state = {"told": False}

    def reply(request: httpx.Request) -> httpx.Response:
        sent = body(request)
        if any("ungrounded_numbers" in str(m.get("content")) for m in sent["messages"]):
            state["told"] = True
        if state["told"]:
            return scripted(request)
        return _inventing("Savings: 9.7 MW.")(request)

    router.post(CHAT).mock(side_effect=reply)
    d = Agent(catalog, client, settings).run(_request(catalog))
    assert d.grounding is not None
    assert d.grounding.unmatched == []
    assert d.grounding.rounds == 1
    assert "[unverified]" not in (d.memo or "")


def test_429_then_success_honours_retry_after(
    router: respx.MockRouter,
    client: ChatClient,
    settings: AgentSettings,
    catalog: Catalog,
    sleeps: Sleeps,
) -> None:
    limited = httpx.Response(429, headers={"retry-after": "2"}, json={"error": "rate limited"})
    router.post(CHAT).mock(side_effect=_then_scripted([limited]))
    d = Agent(catalog, client, settings).run(_request(catalog))
    assert sleeps == [2.0]
    assert d.agent is not None
    assert d.agent.retries == ["HTTP 429"]


def test_500_until_the_retry_cap_fails_within_budget(
    router: respx.MockRouter,
    client: ChatClient,
    settings: AgentSettings,
    catalog: Catalog,
    sleeps: Sleeps,
) -> None:
    route = router.post(CHAT).mock(return_value=httpx.Response(500, json={"error": "boom"}))
    with pytest.raises(AgentError, match="HTTP 500"):
        Agent(catalog, client, settings).run(_request(catalog))
    assert route.call_count == settings.max_attempts
    assert len(sleeps) == settings.max_attempts - 1
    assert sum(sleeps) <= settings.retry_budget_s


def test_4xx_other_than_429_is_not_retried(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    route = router.post(CHAT).mock(return_value=httpx.Response(401, json={"error": "bad key"}))
    with pytest.raises(AgentError, match="401") as err:
        Agent(catalog, client, settings).run(_request(catalog))
    assert route.call_count == 1
    assert KEY not in err.value.one_line()


def test_400_on_tools_falls_back_to_json_protocol(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    def reply(request: httpx.Request) -> httpx.Response:
        if "tools" in body(request):
            return httpx.Response(400, json={"error": {"message": "tools are not supported"}})
        return scripted(request)

    route = router.post(CHAT).mock(side_effect=reply)
    d = Agent(catalog, client, settings).run(_request(catalog))
    assert d.agent is not None
    assert d.agent.protocol == "json"
    assert d.compute.gpus == 512
    assert d.grounding is not None
    assert d.grounding.unmatched == []
    later = body(route.calls[-1].request)
    assert "tools" not in later
    assert '"tool": "<tool name>"' in later["messages"][0]["content"]
    assert any(str(m["content"]).startswith("TOOL RESULT") for m in later["messages"])


def test_json_protocol_garbage_gets_a_nudge(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    text = completion({"role": "assistant", "content": "Sure! Here is my plan..."}, "stop")
    queue = [httpx.Response(400, json={"error": "no tools"}), httpx.Response(200, json=text)]
    route = router.post(CHAT).mock(side_effect=_then_scripted(queue))
    d = Agent(catalog, client, settings).run(_request(catalog))
    assert d.agent is not None
    assert d.agent.protocol == "json"
    assert any(
        "only one JSON object" in str(m["content"])
        for m in body(route.calls[-1].request)["messages"]
    )


def test_model_that_never_submits_stops_at_the_turn_limit(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    """A model that keeps calling tools (each call new) but never submits."""
    names = iter(f"H{i}" for i in range(100))

    def reply(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=tool_call("lookup_gpu", json.dumps({"name": next(names)})))

    route = router.post(CHAT).mock(side_effect=reply)
    with pytest.raises(AgentError, match="did not submit"):
        Agent(catalog, client, settings).run(_request(catalog))
    assert route.call_count == settings.max_turns


def test_model_that_only_writes_prose_stops_within_two_requests(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    chat = completion({"role": "assistant", "content": "64 nodes should do."}, "stop")
    route = router.post(CHAT).mock(return_value=httpx.Response(200, json=chat))
    with pytest.raises(AgentError, match="cannot do the job: no valid tool call") as err:
        Agent(catalog, client, settings).run(_request(catalog))
    assert route.call_count == 2
    assert "64 nodes should do." in err.value.one_line()  # what the model said instead
    assert "may not support tool calling" in err.value.one_line()
    # the first prose reply was taken as a server that drops `tools`: the rest went as JSON
    assert "tools" in body(route.calls[0].request)
    assert all("tools" not in body(c.request) for c in route.calls[1:])


def test_model_looping_on_one_tool_is_stopped(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    loop = tool_call("lookup_gpu", '{"name": "H100"}')
    route = router.post(CHAT).mock(return_value=httpx.Response(200, json=loop))
    with pytest.raises(AgentError, match="same arguments"):
        Agent(catalog, client, settings).run(_request(catalog))
    assert route.call_count == REPEAT_STOP
    warned = body(route.calls[-1].request)["messages"][-1]["content"]
    assert "Move on" in warned


def test_timeouts_and_bad_bodies_are_retried(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    queue: list[Any] = [
        httpx.ReadTimeout("slow"),
        httpx.Response(
            200, content=b'{"id": "x", "choices": [', headers={"content-type": "application/json"}
        ),
        httpx.RemoteProtocolError("peer closed connection"),
    ]

    def reply(request: httpx.Request) -> httpx.Response:
        if queue:
            item = queue.pop(0)
            if isinstance(item, Exception):
                raise item
            return item
        return scripted(request)

    router.post(CHAT).mock(side_effect=reply)
    d = Agent(catalog, client, settings).run(_request(catalog))
    assert d.agent is not None
    assert len(d.agent.retries) == 3


def test_time_budget_and_token_budget_end_the_run(
    router: respx.MockRouter, catalog: Catalog, sleeps: Sleeps
) -> None:
    tight = AgentSettings(
        NVIDIA_API_KEY=KEY, CLUSTERGEN_BASE_URL="https://nim.test/v1", CLUSTERGEN_MAX_TOKENS=1000
    )
    router.post(CHAT).mock(side_effect=scripted)
    c = ChatClient(tight, http_client=httpx.Client(), sleep=sleeps)
    with pytest.raises(AgentError, match="tokens"):
        Agent(catalog, c, tight).run(_request(catalog))


def test_submission_failing_to_build_is_repaired(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    """A submit naming a platform the catalog lacks is sent back; the scripted model then submits."""
    bad_submit = tool_call(
        "submit_design",
        json.dumps(
            {
                "requirements": {"gpus": 512, "power_cap_w": 5e6},
                "choices": {"platform": "dgx-h900"},
                "memo": "Use 64 nodes.",
            }
        ),
        "c1",
    )
    route = router.post(CHAT).mock(
        side_effect=_then_scripted([httpx.Response(200, json=bad_submit)])
    )
    d = Agent(catalog, client, settings).run(_request(catalog))
    assert d.agent is not None
    assert d.agent.repairs == 1
    first = next(
        m for m in body(route.calls[1].request)["messages"] if m.get("tool_call_id") == "c1"
    )
    assert "dgx-h900" in first["content"]
    assert "closest" in first["content"]


def test_requirements_contradicting_the_request_are_overruled(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    def reply(request: httpx.Request) -> httpx.Response:
        data = scripted_reply(body(request))
        for c in data["choices"][0]["message"].get("tool_calls") or []:
            if c["function"]["name"] == "submit_design":
                args = json.loads(c["function"]["arguments"])
                args["requirements"] = {"gpus": 5120}
                c["function"]["arguments"] = json.dumps(args)
        return httpx.Response(200, json=data)

    route = router.post(CHAT).mock(side_effect=reply)
    d = Agent(catalog, client, settings).run(_request(catalog))
    assert d.request.gpus == 512
    assert d.compute.gpus == 512
    assert any("overruled" in w for w in d.warnings)
    told = [
        m["content"]
        for m in body(route.calls[-1].request)["messages"]
        if m["role"] == "tool" and "contradict" in m["content"]
    ]
    assert told
    assert "5120" in told[0]


def test_trace_has_the_conversation_and_never_the_key(
    router: respx.MockRouter,
    client: ChatClient,
    settings: AgentSettings,
    catalog: Catalog,
    tmp_path: Path,
) -> None:
    router.post(CHAT).mock(side_effect=_inventing(f"debug {KEY}"))
    path = tmp_path / "trace.jsonl"
    trace = Trace(path, secrets=[KEY])
    d = Agent(catalog, client, settings, trace=trace).run(_request(catalog))
    trace.close()
    text = path.read_text()
    events = [json.loads(line)["event"] for line in text.splitlines()]
    assert events[0] == "start"
    assert events[-1] == "finish"
    assert {"model_request", "model_reply", "tool_call", "tool_result", "submit"} <= set(events)
    assert KEY not in text
    assert "[REDACTED]" in text
    # the design carries the model's memo, with the key it echoed masked like everywhere else
    assert KEY not in d.model_dump_json()
    assert "debug [REDACTED]" in (d.memo or "")


def test_unmocked_request_fails_the_run(catalog: Catalog, sleeps: Sleeps) -> None:
    """A request that escapes the mock never reaches a network: respx raises, failing the test."""
    s = AgentSettings(NVIDIA_API_KEY=KEY, CLUSTERGEN_BASE_URL="https://elsewhere.test/v1")
    with respx.mock(assert_all_mocked=True, assert_all_called=False) as r:
        r.post(CHAT).mock(side_effect=scripted)
        c = ChatClient(s, http_client=httpx.Client(), sleep=sleeps)
        with pytest.raises(respx.models.AllMockedAssertionError):
            Agent(catalog, c, s).run(_request(catalog))
        assert not r.routes[0].called


def test_429_storm_ends_within_the_retry_budget(
    router: respx.MockRouter,
    client: ChatClient,
    settings: AgentSettings,
    catalog: Catalog,
    sleeps: Sleeps,
) -> None:
    storm = httpx.Response(429, headers={"retry-after": "45"}, json={"error": "slow down"})
    route = router.post(CHAT).mock(return_value=storm)
    with pytest.raises(AgentError, match="429"):
        Agent(catalog, client, settings).run(_request(catalog))
    assert sum(sleeps) <= settings.retry_budget_s
    assert sleeps[0] == 45.0
    assert route.call_count < settings.max_attempts


def test_tool_call_left_in_content_is_still_a_tool_call(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    """NIM's docs: when the server's tool parser fails, the call arrives in `content`."""
    text = '{"name": "lookup_gpu", "parameters": {"name": "H100"}}'
    first = httpx.Response(200, json=completion({"role": "assistant", "content": text}, "stop"))
    route = router.post(CHAT).mock(side_effect=_then_scripted([first]))
    d = Agent(catalog, client, settings).run(_request(catalog))
    assert d.agent is not None
    assert d.agent.tool_calls == 3
    answered = body(route.calls[1].request)["messages"][-1]
    assert answered["role"] == "tool"
    assert json.loads(answered["content"])["id"] == "h100-sxm"


def test_tagged_calls_after_reasoning_are_all_taken(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    """A reasoning model behind a server with no tool parser: thoughts, then Hermes-style tags."""
    text = (
        "<think>I need {the GPU} and the switch first.</think>\n"
        '<tool_call>{"name": "lookup_gpu", "arguments": {"name": "H100"}}</tool_call>\n'
        '<tool_call>{"name": "lookup_switch", "arguments": {"name": "QM9700"}}</tool_call>'
    )
    first = httpx.Response(200, json=completion({"role": "assistant", "content": text}, "stop"))
    route = router.post(CHAT).mock(side_effect=_then_scripted([first]))
    d = Agent(catalog, client, settings).run(_request(catalog))
    assert d.agent is not None
    assert d.agent.tool_calls == 4
    sent = body(route.calls[1].request)["messages"]
    assistant = sent[-3]
    assert [c["function"]["name"] for c in assistant["tool_calls"]] == [
        "lookup_gpu",
        "lookup_switch",
    ]
    ids = [c["id"] for c in assistant["tool_calls"]]
    assert len(set(ids)) == 2
    assert [m["tool_call_id"] for m in sent[-2:]] == ids
    assert json.loads(sent[-1]["content"])["id"] == "qm9700"


def test_422_on_tools_falls_back_to_json_protocol(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    """Servers that validate the body against a schema without `tools` answer 422, not 400."""

    def reply(request: httpx.Request) -> httpx.Response:
        if "tools" in body(request):
            return httpx.Response(422, json={"detail": [{"msg": "extra fields not permitted"}]})
        return scripted(request)

    router.post(CHAT).mock(side_effect=reply)
    d = Agent(catalog, client, settings).run(_request(catalog))
    assert d.agent is not None
    assert d.agent.protocol == "json"
    assert d.compute.gpus == 512


@pytest.mark.parametrize(
    ("param", "message"),
    [
        ("temperature", "Unsupported value: 'temperature' does not support 0 with this model."),
        ("max_tokens", "This model's maximum context length is 8192 tokens. Please reduce."),
        ("tool_choice", '"auto" tool choice requires --enable-auto-tool-choice to be set'),
    ],
)
def test_an_optional_parameter_the_endpoint_refuses_is_dropped_for_the_run(
    router: respx.MockRouter,
    client: ChatClient,
    settings: AgentSettings,
    catalog: Catalog,
    param: str,
    message: str,
) -> None:
    def reply(request: httpx.Request) -> httpx.Response:
        if param in body(request):
            return httpx.Response(400, json={"error": {"message": message}})
        return scripted(request)

    route = router.post(CHAT).mock(side_effect=reply)
    d = Agent(catalog, client, settings).run(_request(catalog))
    assert d.agent is not None
    assert d.agent.protocol == "tools"  # the tools themselves were never the problem
    sent = [body(c.request) for c in route.calls]
    assert param in sent[0]
    assert all(param not in b for b in sent[1:])
    assert len(sent) == 3  # one refused request, then the two of the happy path


def test_a_reply_cut_off_at_the_token_limit_is_asked_again_shorter(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    cut = completion(
        {"role": "assistant", "content": '{"name": "submit_design", "arguments": {"memo": "We'},
        "length",
    )
    route = router.post(CHAT).mock(side_effect=_then_scripted([httpx.Response(200, json=cut)]))
    d = Agent(catalog, client, settings).run(_request(catalog))
    assert d.agent is not None
    assert (
        "cut off at the output token limit"
        in body(route.calls[1].request)["messages"][-1]["content"]
    )
    assert body(route.calls[0].request)["max_tokens"] == settings.completion_budget() == 1024


def test_arguments_sent_as_an_object_are_read(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    obj = completion(
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_o",
                    "type": "function",
                    "function": {"name": "lookup_gpu", "arguments": {"name": "H100"}},
                }
            ],
        }
    )
    route = router.post(CHAT).mock(side_effect=_then_scripted([httpx.Response(200, json=obj)]))
    Agent(catalog, client, settings).run(_request(catalog))
    sent = body(route.calls[1].request)["messages"]
    assert isinstance(sent[-2]["tool_calls"][0]["function"]["arguments"], str)
    assert json.loads(sent[-1]["content"])["id"] == "h100-sxm"


def test_the_same_invalid_call_twice_ends_the_run(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    """A model that cannot fill a schema repeats its mistake: two replies, not the turn limit."""
    bad = tool_call("compare_alternatives", '{"requirements": "512 GPUs"}')
    route = router.post(CHAT).mock(return_value=httpx.Response(200, json=bad))
    with pytest.raises(AgentError, match="cannot do the job: the same invalid tool call") as err:
        Agent(catalog, client, settings).run(_request(catalog))
    assert route.call_count == 2
    assert "compare_alternatives" in err.value.one_line()


def test_a_model_correcting_its_first_call_gets_a_third_reply_and_no_more(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    names = iter(["nope", "still_nope", "never", "again"])

    def reply(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=tool_call(next(names), "{}"))

    route = router.post(CHAT).mock(side_effect=reply)
    with pytest.raises(AgentError, match="no valid tool call in its first 3 replies"):
        Agent(catalog, client, settings).run(_request(catalog))
    assert route.call_count == 3


def test_a_valid_first_call_lifts_the_rule(
    router: respx.MockRouter, client: ChatClient, settings: AgentSettings, catalog: Catalog
) -> None:
    """After one valid call, prose and mistakes get the usual patience (idle limit, repairs)."""
    first = httpx.Response(200, json=tool_call("lookup_gpu", '{"name": "H100"}'))
    prose = httpx.Response(
        200, json=completion({"role": "assistant", "content": "Thinking."}, "stop")
    )
    route = router.post(CHAT).mock(side_effect=[first, prose, prose, prose])
    with pytest.raises(AgentError, match="3 times in a row without calling a tool"):
        Agent(catalog, client, settings).run(_request(catalog))
    assert route.call_count == 4
