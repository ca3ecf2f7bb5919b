"""The tool-calling loop: the model reads the request, calls tools, and submits; the engine rebuilds
the design from the submitted choices, validates it and checks every number of the memo.

The model never supplies a figure the user sees. It supplies choices (platform, fabric,
oversubscription, ...) and prose; the design comes from the engine, and the prose's numbers are
matched against that design. Requirements the user stated (in the text the parser read, or as flags)
win over the model's reading of them; the model may only fill what the user left open.
"""

from __future__ import annotations

import html
import json
import time
from dataclasses import dataclass, field
from traceback import format_exception
from typing import Any

from clustergen import __version__
from clustergen.agent import prompts
from clustergen.agent.client import ChatClient, ToolsUnsupported
from clustergen.agent.protocol import (
    alternating,
    calls_in_content,
    result_message,
    to_json_protocol,
)
from clustergen.agent.reply import MAX_TOOL_CALLS_PER_REPLY, ChatReply, ToolCall
from clustergen.agent.settings import AgentSettings
from clustergen.agent.submission import Judge, Rejected, Ungrounded, user_fields
from clustergen.agent.toolset import MORE_TOOLS, Toolset
from clustergen.agent.trace import Trace
from clustergen.catalog.loader import Catalog
from clustergen.engine.model.design import Design
from clustergen.engine.model.run import AgentRun
from clustergen.engine.request import DesignRequest
from clustergen.errors import AgentError
from clustergen.redact import redact_known_model
from clustergen.tools import Registry, ToolCallError, ToolContext, default_registry
from clustergen.tools.builtin import SubmitArgs
from clustergen.units import plural

SUBMIT = "submit_design"
MAX_TOOL_RESULT_CHARS = 16_000
REPEAT_WARN = 3  # the same call this many times: tell the model it is looping
REPEAT_STOP = 5  # ... this many: stop the run
#: Replies in a row without a tool call before the run stops: a model that only writes prose
#: ends within a few requests, not at the turn limit.
MAX_IDLE_REPLIES = 3
#: Native calls of tools that do not exist, before any real one, that mark a server whose tool
#: parser produces garbage names.
MAX_UNKNOWN_NATIVE = 2
#: Replies a model has to make its first valid tool call (a known tool, arguments that parse, not
#: `more_tools`, which waits until then):
#: one too small to call tools (SmolLM2 135M) is recognised here, in minutes on a CPU server, not
#: at the turn limit. One reply more, never more than FIRST_CALL_LAST_CHANCE, when the second
#: reply tries a different call than the invalid first (the model learns from the error) or when
#: the agent changed protocols after it (the server, not the model, may have been at fault).
FIRST_CALL_REPLIES = 2
FIRST_CALL_LAST_CHANCE = 3


@dataclass
class _State:
    messages: list[dict[str, Any]]
    protocol: str = "tools"
    turns: int = 0
    tool_calls: int = 0
    repairs: int = 0
    repeats: dict[str, int] = field(default_factory=dict)
    idle: int = 0  # replies in a row without a tool call
    native: int = 0  # tool calls the endpoint returned natively (known tools)
    unknown_native: int = 0  # native calls of unknown tools before any known one
    previous: list[str] = field(default_factory=list)  # the last turn's calls
    valid_calls: int = 0  # calls of a known tool whose arguments parsed
    misses: list[str] = field(default_factory=list)  # replies before the first valid call


class Agent:
    """One design run against a chat endpoint."""

    def __init__(
        self,
        catalog: Catalog,
        client: ChatClient,
        settings: AgentSettings,
        *,
        registry: Registry | None = None,
        trace: Trace | None = None,
    ) -> None:
        self.catalog = catalog
        self.client = client
        self.settings = settings
        self.toolset = Toolset(registry or default_registry())
        self.trace = trace or Trace(None)
        # every retry and wait of the client shows in the trace
        client.on_event = self.trace.event

    # ------------------------------------------------------------------ the run

    def run(self, request: DesignRequest) -> Design:
        """Design for `request`. Raises AgentError when the model cannot produce a valid design
        within the limits, ClustergenError subclasses for the engine's refusals."""
        started = time.monotonic()
        # the deadline holds inside each reply too: the client reads no byte past it
        self.client.run_deadline = started + self.settings.run_limit_s()
        ctx = ToolContext(self.catalog, request=request)
        judge = Judge(self.catalog, request, self.settings.grounding_rounds, self.trace)
        st = _State(messages=self._opening(request))
        self.trace.event(
            "start",
            model=self.settings.model,
            base_url=self.settings.base_url,
            request=request.model_dump(mode="json"),
            messages=st.messages,
        )
        while True:
            self._limits(st, started)
            reply = self._ask(st)
            native = bool(reply.tool_calls)
            asked_in = st.protocol
            calls = self._take_calls(st, reply)
            if not calls:
                self._no_call(st, reply)
                self._first_calls(st, reply, calls, switched=st.protocol != asked_in)
                continue
            if len(calls) > MAX_TOOL_CALLS_PER_REPLY:  # calls written in the text count too
                raise AgentError(
                    f"the model endpoint sent a malformed reply ({len(calls):,} tool calls in one "
                    f"reply; at most {MAX_TOOL_CALLS_PER_REPLY} are taken)"
                )
            st.idle = 0
            results: list[tuple[ToolCall, str]] = []
            for call in calls:
                self._deadline(started)  # a reply's calls run inside the run's time too
                st.tool_calls += 1
                if call.name == SUBMIT:
                    done, content = self._submit(judge, st, call)
                    if done is not None:
                        self._tool_results(st, [*results, (call, content)])
                        return self._finish(done, st, started)
                elif call.name == MORE_TOOLS and not st.valid_calls:
                    content = self._not_yet(st)
                elif call.name == MORE_TOOLS:
                    content = self.toolset.unlock(with_schemas=st.protocol == "json")
                    self.trace.event("more_tools", offered=self.toolset.names())
                else:
                    content = self._call(ctx, st, call)
                results.append((call, content))
            self._tool_results(st, results)
            self._watch_native_calls(st, calls, native=native)
            self._first_calls(st, reply, calls, switched=st.protocol != asked_in)

    def _opening(self, request: DesignRequest) -> list[dict[str, Any]]:
        parsed = {**user_fields(request), "not_understood": request.not_understood}
        return [
            {
                "role": "system",
                "content": prompts.render(
                    "system", catalog_hash=self.catalog.hash, version=__version__
                ),
            },
            {
                "role": "user",
                "content": prompts.render(
                    "user",
                    request_text=request.text or "(no free text; structured fields only)",
                    parsed_request=json.dumps(parsed, separators=(",", ":")),
                ),
            },
        ]

    # ------------------------------------------------------------------ model calls

    def _limits(self, st: _State, started: float) -> None:
        s = self.settings
        if st.turns >= s.max_turns:
            raise AgentError(
                f"the model did not submit a design within {s.max_turns} turns",
                hint="raise CLUSTERGEN_MAX_TURNS or use --offline",
            )
        used = self.client.stats.prompt_tokens + self.client.stats.completion_tokens
        if used >= s.max_tokens:
            raise AgentError(f"the run used {used} tokens, over the limit of {s.max_tokens}")
        self._deadline(started)

    def _deadline(self, started: float) -> None:
        wall = self.settings.run_limit_s()
        if time.monotonic() - started >= wall:
            raise AgentError(
                f"the run took longer than its {wall:g} s limit", hint="raise CLUSTERGEN_WALL_S"
            )

    def _ask(self, st: _State) -> ChatReply:
        st.turns += 1
        tools = self.toolset.specs() if st.protocol == "tools" else None
        self.trace.event(
            "model_request",
            turn=st.turns,
            protocol=st.protocol,
            n_messages=len(st.messages),
            tools=[t["function"]["name"] for t in tools or []],
        )
        try:
            reply = self.client.complete(st.messages, tools)
        except ToolsUnsupported as exc:
            self._to_json(st, f"the endpoint refused tool calling ({str(exc)[:200]})")
            reply = self.client.complete(st.messages, None)
        self.trace.event(
            "model_reply",
            turn=st.turns,
            content=reply.content,
            tool_calls=[c.__dict__ for c in reply.tool_calls],
            finish_reason=reply.finish_reason,
            prompt_tokens=reply.prompt_tokens,
            completion_tokens=reply.completion_tokens,
            latency_s=round(reply.latency_s, 4),
            attempts=reply.attempts,
        )
        return reply

    def _take_calls(self, st: _State, reply: ChatReply) -> list[ToolCall]:
        """The reply's tool calls (native, or written in the text), with the reply recorded in
        the conversation in the protocol's form."""
        native = list(reply.tool_calls)
        calls = native or calls_in_content(reply.content, st.turns)
        if st.protocol == "tools":
            reply.tool_calls = calls
            st.messages.append(_assistant_message(reply))
        else:
            text = reply.content or ""
            if native:  # a server that still calls natively: keep the JSON protocol's form
                text = "\n".join(
                    json.dumps({"tool": c.name, "arguments": _loads(c.arguments)}) for c in native
                )
            self._say(st, "assistant", text)
        return calls

    @staticmethod
    def _say(st: _State, role: str, content: str) -> None:
        st.messages.append({"role": role, "content": content})
        if st.protocol == "json":
            st.messages[:] = alternating(st.messages)

    def _no_call(self, st: _State, reply: ChatReply) -> None:
        """A reply without a tool call: stop a model that keeps doing it; switch protocols for a
        server that may have dropped the tools; else ask again."""
        st.idle += 1
        cut = reply.finish_reason == "length"
        if st.idle >= MAX_IDLE_REPLIES and st.valid_calls:  # before any: see _first_calls
            said = " ".join(html.unescape(reply.content or "").split())[:120]
            raise AgentError(
                f"the model answered {st.idle} times in a row without calling a tool "
                f"(last reply: {said!r}); {self.settings.model} at {self.settings.base_url} may "
                "not support tool calling",
                hint="use a model that calls tools, or --offline",
            )
        said = (reply.content or "").strip()
        if st.protocol == "tools" and st.native == 0 and ((said and not cut) or st.idle > 1):
            # Prose where a call was due: the server may have dropped `tools`. An empty reply (the
            # model declining through the server's own tool machinery, as llama.cpp's
            # chatml-function-calling allows) or one cut off at the token limit gets one plain
            # request again first.
            self._to_json(
                st, "no tool call where one was due: the server may ignore the `tools` field"
            )
        if cut:
            self._say(st, "user", prompts.render("truncated"))
        else:
            self._say(
                st, "user", prompts.render("nudge" if st.protocol == "tools" else "json_nudge")
            )

    def _not_yet(self, st: _State) -> str:
        """`more_tools` before any valid call: the extended set stays back (on a CPU server its
        schemas cost minutes a request) until the model has shown it can call a core tool."""
        self.trace.event("more_tools_deferred", turn=st.turns)
        first = ", ".join(n for n in self.toolset.core if n != SUBMIT)
        return json.dumps(
            {
                "note": f"call {first} first (step 1); more tools are offered after it",
                "later": self.toolset.extended,
            },
            separators=(",", ":"),
        )

    def _valid(self, call: ToolCall) -> bool:
        """A call of a tool this run offers, with arguments its model accepts (`more_tools`
        does not count: it does no part of the job)."""
        if call.name == MORE_TOOLS:
            return False
        try:
            self.toolset.registry.parse_args(call.name, call.arguments)
        except ToolCallError:
            return False
        return True

    def _first_calls(
        self, st: _State, reply: ChatReply, calls: list[ToolCall], *, switched: bool
    ) -> None:
        """Stop a model that cannot do the job: no valid tool call in its first replies, or the
        same invalid one again (see FIRST_CALL_REPLIES). `switched`: this reply made the agent
        change protocols."""
        if st.valid_calls:
            return
        if any(self._valid(c) for c in calls):
            st.valid_calls += 1
            return
        st.misses.append(
            ";".join(sorted(f"{c.name}:{_canonical(c.arguments)}" for c in calls)) or "no call"
        )
        n = len(st.misses)
        repeated = n >= 2 and st.misses[-1] == st.misses[-2] != "no call"
        learning = "no call" not in st.misses and len(set(st.misses)) == n
        if not repeated and (
            n < FIRST_CALL_REPLIES or ((learning or switched) and n < FIRST_CALL_LAST_CHANCE)
        ):
            return
        if calls:
            said = f"its last call: {calls[0].name}({calls[0].arguments[:80]})"
        else:
            text = " ".join(html.unescape(reply.content or "").split())[:120]
            said = f"its last reply: {text!r}" if text else "its last reply was empty"
        what = "the same invalid tool call" if repeated else "no valid tool call"
        if calls and all(c.name == MORE_TOOLS for c in calls):
            what = "only more_tools, no tool that does the job,"
        raise AgentError(
            f"{self.settings.model} at {self.settings.base_url} cannot do the job: {what} in "
            f"its first {n} replies ({said}); it may not support tool calling",
            hint="use a model that calls tools (README: Self-hosted servers), or --offline",
        )

    def _watch_native_calls(self, st: _State, calls: list[ToolCall], *, native: bool) -> None:
        """Signs that native tool calling is broken on this server, after a turn's calls: tool
        names that do not exist (a parser producing garbage), or the same call again at once (the
        model never saw the result: the chat template drops tool messages)."""
        keys = [f"{c.name}:{_canonical(c.arguments)}" for c in calls]
        repeated, st.previous = keys == st.previous, keys
        if st.protocol != "tools" or not native:
            return
        known = [
            c
            for c in calls
            if c.name in self.toolset.registry.tools or c.name in (SUBMIT, MORE_TOOLS)
        ]
        if known:
            st.native += len(known)
        elif st.native == 0:
            st.unknown_native += len(calls)
        if st.unknown_native >= MAX_UNKNOWN_NATIVE and st.native == 0:
            self._to_json(st, "the server's tool calls name tools that do not exist")
        elif repeated:
            self._to_json(st, "the model repeated its last call as if it never saw the result")

    def _to_json(self, st: _State, reason: str) -> None:
        """Switch the conversation (so far) to the prompted JSON protocol."""
        self.trace.event("protocol_switch", to="json", reason=reason)
        st.protocol = "json"
        st.previous = []
        st.messages[:] = to_json_protocol(st.messages, self.toolset.catalog())

    def _tool_results(self, st: _State, results: list[tuple[ToolCall, str]]) -> None:
        for call, content in results:
            if len(content) > MAX_TOOL_RESULT_CHARS:
                content = content[:MAX_TOOL_RESULT_CHARS] + ' ... [truncated; ask for less]"'
            self.trace.event("tool_result", tool=call.name, id=call.id, content=content)
            if st.protocol == "tools":
                st.messages.append({"role": "tool", "tool_call_id": call.id, "content": content})
            else:
                self._say(st, "user", result_message(call.name, content))

    # ------------------------------------------------------------------ tools

    def _call(self, ctx: ToolContext, st: _State, call: ToolCall) -> str:
        key = f"{call.name}:{_canonical(call.arguments)}"
        st.repeats[key] = st.repeats.get(key, 0) + 1
        n = st.repeats[key]
        self.trace.event(
            "tool_call", tool=call.name, id=call.id, arguments=call.arguments, repeat=n
        )
        if n >= REPEAT_STOP:
            raise AgentError(
                f"the model called {call.name} with the same arguments {n} times without progress"
            )
        outcome = self.toolset.registry.call(ctx, call.name, call.arguments)
        if outcome.traceback:  # a bug in a tool: the model hears of it, the trace keeps where
            self.trace.event("tool_crash", tool=call.name, id=call.id, traceback=outcome.traceback)
        content = outcome.content()
        if n >= REPEAT_WARN:
            content = json.dumps(
                {
                    "note": f"you have called {call.name} with these arguments {n} times; the "
                    "result does not change. Move on: call submit_design.",
                    "result": json.loads(content),
                }
            )
        return content

    def _submit(self, judge: Judge, st: _State, call: ToolCall) -> tuple[Design | None, str]:
        """Hand a submission to the judge. Returns (design, content) when accepted, or (None,
        message for the model)."""
        self.trace.event("submit", id=call.id, arguments=call.arguments)
        try:
            args = self.toolset.registry.parse_args(SUBMIT, call.arguments)
            assert isinstance(args, SubmitArgs)
            design = judge.judge(args)
        except ToolCallError as exc:
            return None, self._repair(st, exc.message)
        except Rejected as exc:
            return None, self._repair(st, exc.problem, counts=exc.counts)
        except Ungrounded as exc:
            return None, exc.message
        except Exception as exc:  # a bug building the submission: a tool error, not a dead run
            self.trace.event(
                "tool_crash", tool=SUBMIT, id=call.id, traceback="".join(format_exception(exc))
            )
            return None, self._repair(
                st,
                f"clustergen failed building this submission ({type(exc).__name__}); this is a "
                "bug in clustergen, not in your submission: try other choices",
            )
        return design, json.dumps({"accepted": True})

    def _repair(self, st: _State, problem: str, *, counts: bool = True) -> str:
        if counts:
            st.repairs += 1
            if st.repairs > self.settings.max_repairs:
                raise AgentError(
                    "the model's submission still fails after "
                    f"{plural(self.settings.max_repairs, 'repair')}: {problem}"
                )
        self.trace.event("repair", problem=problem, repairs=st.repairs)
        return json.dumps({"error": prompts.render("repair", problems=problem), "kind": "rejected"})

    def _finish(self, design: Design, st: _State, started: float) -> Design:
        s = self.client.stats
        run = AgentRun(
            model=self.settings.model,
            base_url=self.settings.base_url,
            protocol=st.protocol,
            turns=st.turns,
            tool_calls=st.tool_calls,
            repairs=st.repairs,
            prompt_tokens=s.prompt_tokens,
            completion_tokens=s.completion_tokens,
            latency_s=round(time.monotonic() - started, 4),
            model_latency_s=round(s.latency_s, 4),
            retries=list(s.retries),
        )
        self.trace.event("finish", run=run.model_dump(mode="json"))
        # the memo is the model's text: an echoed key (in any form) leaves the run masked
        return redact_known_model(design.model_copy(update={"agent": run}))


def _assistant_message(reply: ChatReply) -> dict[str, Any]:
    msg: dict[str, Any] = {"role": "assistant", "content": reply.content or ""}
    if reply.tool_calls:
        msg["tool_calls"] = [
            {
                "id": c.id,
                "type": "function",
                "function": {"name": c.name, "arguments": c.arguments},
            }
            for c in reply.tool_calls
        ]
    return msg


def _loads(text: str) -> Any:
    try:
        return json.loads(text) if text else {}
    except (json.JSONDecodeError, RecursionError):
        return text


def _canonical(arguments: str) -> str:
    try:
        return json.dumps(json.loads(arguments or "{}"), sort_keys=True)
    except (json.JSONDecodeError, TypeError, RecursionError):
        return str(arguments)
