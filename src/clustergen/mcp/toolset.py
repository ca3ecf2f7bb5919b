"""The tools an MCP client lists and how their results read.

Many clients put every listed tool's schemas into the model's context on every turn, so the list
holds only what an outside agent needs first (the registry's `mcp="first"` tools: design, estimate,
look up a GPU or system), `explain_figure`, and a discovery pair: `more_tools` names the other tools
and gives one's schema, `call_tool` calls it. Each of those is callable by its own name too, and
`clustergen mcp --all-tools` lists them all.

A result reads as text first. A design is kept by the server and comes back as a short brief, a
compact structured summary and resource links to the whole bundle; any other result is its JSON,
with structured content only where the tool declares an output schema (a small result a program
reads); no payload is sent twice in full.
"""

from __future__ import annotations

import json
import logging
from typing import Any, TypeVar

from mcp import types
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from clustergen.engine.model.design import Design
from clustergen.errors import ClustergenError, RequestError
from clustergen.factories import empty_dict
from clustergen.mcp import designs
from clustergen.mcp.explain import ExplainArgs, explain
from clustergen.tools.registry import (
    Registry,
    Tool,
    ToolCallError,
    ToolOutcome,
    did_you_mean,
    validation_message,
)
from clustergen.tools.schema import compact_schema

log = logging.getLogger(__name__)

#: Every tool is a pure function of the catalog and its arguments (a design is kept in memory
#: for reading back, nothing is written).
READ_ONLY = types.ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)
#: the largest output schema listed: a bigger one costs every turn more than it helps a client
OUTPUT_SCHEMA_CHARS = 2000

M = TypeVar("M", bound=BaseModel)

MORE_TOOLS = "more_tools"
CALL_TOOL = "call_tool"
EXPLAIN = "explain_figure"


class MoreArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(
        default=None, max_length=200, description="a tool to describe; omit to list them all"
    )


class CallArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(max_length=200, description="the tool, as more_tools names it")
    arguments: dict[str, Any] = Field(
        default_factory=empty_dict, description="its arguments, as its input schema says"
    )


def result_schema(tool: Tool[Any, Any]) -> dict[str, Any] | None:
    """The output schema listed for a tool: a design's brief, or a small result model as it is
    serialised; None where the schema would cost more than it helps."""
    model = designs.DesignBrief if issubclass(tool.result, Design) else tool.result
    schema: dict[str, Any] = model.model_json_schema(mode="serialization")
    schema.pop("title", None)
    if model is designs.DesignBrief:
        return schema
    return schema if len(json.dumps(schema)) <= OUTPUT_SCHEMA_CHARS else None


def mcp_tool(tool: Tool[Any, Any]) -> types.Tool:
    """One registry tool as MCP lists it."""
    return types.Tool(
        name=tool.name,
        title=tool.display_title(),
        description=tool.description,
        input_schema=tool.parameters_schema(),
        output_schema=result_schema(tool),
        annotations=READ_ONLY,
    )


def _own(name: str, title: str, description: str, args: type[BaseModel]) -> types.Tool:
    return types.Tool(
        name=name,
        title=title,
        description=description,
        input_schema=compact_schema(args),
        annotations=READ_ONLY,
    )


class McpToolset:
    """The listed tools and the calls behind them."""

    def __init__(self, registry: Registry, store: designs.DesignStore, *, list_all: bool) -> None:
        self.registry = registry.for_mcp()
        #: where designs go when a call names no store (one client: stdio, the tests)
        self.store = store
        first = self.registry.mcp_first()
        self.more = [n for n in self.registry.names() if n not in first]
        shown = self.registry.names() if list_all else first
        self.by_name = {t.name: mcp_tool(t) for t in self.registry.tools.values()}
        own = [
            _own(
                EXPLAIN,
                "Explain a figure",
                "Where a figure of a design made here comes from: its value, the basis, method "
                "and sources beside it, the assumptions and the checks that touch it.",
                ExplainArgs,
            ),
            _own(
                MORE_TOOLS,
                "More tools",
                "clustergen's other tools (size a fabric, power-first solve, storage, trade "
                "study, sensitivity, build or check a design from choices, fleet plan, ...): "
                "without a name, each one's name and purpose; with one, its input schema.",
                MoreArgs,
            ),
            _own(
                CALL_TOOL,
                "Call another tool",
                "Call one of the tools more_tools lists, with its arguments.",
                CallArgs,
            ),
        ]
        self.own = {t.name: t for t in own}
        self.listed = [self.by_name[n] for n in shown] + own

    def input_schema(self, name: str) -> dict[str, Any] | None:
        tool = self.by_name.get(name) or self.own.get(name)
        return tool.input_schema if tool is not None else None

    # ------------------------------------------------------------------ calls

    def call(
        self,
        ctx: Any,
        name: str,
        arguments: dict[str, Any] | None,
        store: designs.DesignStore | None = None,
    ) -> types.CallToolResult:
        """A call by name, a registry tool's or one of this toolset's own; never raises. The
        designs it makes and explains are those of `store` (the calling session's)."""
        store = store if store is not None else self.store
        try:
            if name == MORE_TOOLS:
                return _text(self._more(self._parse(MoreArgs, arguments)))
            if name == CALL_TOOL:
                inner = self._parse(CallArgs, arguments)
                if inner.name in (MORE_TOOLS, CALL_TOOL):
                    raise RequestError(f"call {inner.name} directly")
                return self.call(ctx, inner.name, inner.arguments, store)
            if name == EXPLAIN:
                return _text(explain(store, self._parse(ExplainArgs, arguments)))
        except ClustergenError as exc:
            return _error(exc.one_line())
        except ToolCallError as exc:
            return _error(exc.message)
        outcome = self.registry.call(ctx, name, arguments)
        if outcome.traceback:  # a bug in a tool: the client gets an error result, the log the rest
            log.error("tool %s failed inside clustergen:\n%s", name, outcome.traceback)
        return self.present(outcome, store)

    @staticmethod
    def _parse(model: type[M], arguments: dict[str, Any] | None) -> M:
        try:
            return model.model_validate(arguments or {})
        except ValidationError as exc:
            raise ToolCallError(validation_message(exc, model=model), "bad_arguments") from None

    def _more(self, a: MoreArgs) -> str:
        if a.name is None:
            rows = [
                {"name": n, "title": t.display_title(), "description": t.description}
                for n in self.more
                if (t := self.registry.tools[n])
            ]
            return json.dumps({"tools": rows, "call": f"{CALL_TOOL}(name, arguments)"})
        tool = self.registry.get(a.name)
        if tool is None:
            raise RequestError(
                f"no tool {a.name!r}{did_you_mean(a.name, self.registry.names())}; "
                f"the tools are: {', '.join(self.registry.names())}"
            )
        return json.dumps(
            {
                "name": tool.name,
                "description": tool.description,
                "input_schema": tool.parameters_schema(),
            }
        )

    def present(
        self, outcome: ToolOutcome, store: designs.DesignStore | None = None
    ) -> types.CallToolResult:
        """A registry outcome as an MCP result (see the module docstring)."""
        if not outcome.ok:
            return _error(outcome.error or "tool failed")
        if isinstance(outcome.value, Design):
            design_id = (store if store is not None else self.store).add(outcome.value)
            brief = designs.brief(design_id, outcome.value)
            return types.CallToolResult(
                content=[
                    types.TextContent(text=designs.brief_text(design_id, outcome.value)),
                    *designs.links(design_id),
                ],
                structured_content=brief.model_dump(mode="json"),
            )
        text = json.dumps(outcome.result, allow_nan=False, separators=(",", ":"))
        listed = self.by_name.get(outcome.tool)
        structured = outcome.result if listed is not None and listed.output_schema else None
        return types.CallToolResult(
            content=[types.TextContent(text=text)], structured_content=structured
        )


def _text(text: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=text)])


def _error(message: str) -> types.CallToolResult:
    """An error result: the message as text, no structured content (clients check it against the
    output schema, which describes a result, and would hide the message behind a mismatch)."""
    return types.CallToolResult(content=[types.TextContent(text=message)], is_error=True)
