"""The typed tool registry: one place that names every tool, its argument and result models, and
turns a call (name + JSON arguments) into a result or an error the model can act on.

The same registry serves the NIM agent, the MCP server and the eval harness. A tool is a thin adapter:
it validates its arguments, calls one engine function and returns that function's model. Nothing here
computes a figure of its own.

A tool is declared once, as a typed function (pydantic-ai's `FunctionToolset.tool`, the MCP SDK's
`Tool.from_function`)::

    @tool(title="Look up a GPU")
    def lookup_gpu(ctx: ToolContext, a: NameArgs) -> GpuSpec:
        "Catalog facts of one GPU: memory, bandwidth, dense BF16/FP8 TFLOPS, TDP, source."
        return gpu_spec(ctx.catalog, a.name)

The function's name is the tool's name, its docstring (line wrapping undone) the description the
model reads, and the annotations of its second parameter and of its return value the argument and
result models. The declaration also says who is offered the tool:

- `agent="core"`: in every design run's first request (kept small: a self-hosted server evaluates
  the whole request, tool schemas included, before it writes a token);
- `agent="extended"` (the default): offered once the model asks for more tools;
- `agent=None`: never offered to the design agent (it answers another question);
- `mcp="first"`: in the MCP server's tool list, the few tools an outside agent needs first;
- `mcp=True` (the default): served over MCP behind its discovery tool (`clustergen mcp
  --all-tools` lists them too);
- `mcp=False`: not served over MCP (the agent's own `submit_design`).

Each tool module declares its tools on its own `Registry` (`TOOLS = Registry()`, `tool =
TOOLS.tool`: pydantic-ai's `FunctionToolset`), and `clustergen.tools.toolsets.default_registry`
joins those registries in a stated order. Nothing registers by being imported.
"""

from __future__ import annotations

import contextlib
import copy
import difflib
import inspect
import json
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Generic, Literal, TypeVar, get_type_hints, overload

from pydantic import BaseModel, Field, ValidationError
from pydantic_core import to_jsonable_python

from clustergen.catalog.loader import Catalog
from clustergen.engine.model.request import DesignRequest
from clustergen.errors import ClustergenError
from clustergen.tools.schema import compact_schema, model_in
from clustergen.untrusted import DataError, check_shape, load_json

A = TypeVar("A", bound=BaseModel)
R = TypeVar("R", bound=BaseModel)
F = TypeVar("F", bound=Callable[..., Any])

#: Which design-agent request a tool is offered in (see the module docstring).
Offer = Literal["core", "extended"]
#: How a tool is served over MCP (see the module docstring).
McpOffer = bool | Literal["first"]


@dataclass
class ToolContext:
    """What every tool may use: the catalog in force, and in a design run the request as read
    (or only its text)."""

    catalog: Catalog
    request_text: str | None = None
    request: DesignRequest | None = None

    def text(self) -> str | None:
        """The run's request text, if there is one."""
        if self.request_text is not None:
            return self.request_text
        return self.request.text if self.request is not None else None

    def stated(self) -> dict[str, Any]:
        """The requirements the run's request states (none outside a design run)."""
        if self.request is None:
            return {}
        data = self.request.model_dump(exclude={"text", "understood", "not_understood"})
        return {k: v for k, v in data.items() if v is not None}


@cache
def _schema(model: type[BaseModel]) -> dict[str, Any]:
    # Generating a schema costs ~10 ms; the agent sends every tool's schema on every turn.
    return compact_schema(model)


@dataclass(frozen=True)
class Tool(Generic[A, R]):
    """One tool: a name the model calls, its description, and the models at both ends."""

    name: str
    description: str
    args: type[A]
    result: type[R]
    run: Callable[[ToolContext, A], R]
    title: str = ""
    agent: Offer | None = "extended"
    mcp: McpOffer = True
    module: str = ""

    @staticmethod
    def from_function(
        fn: Callable[[ToolContext, Any], Any],
        *,
        name: str | None = None,
        description: str | None = None,
        title: str = "",
        agent: Offer | None = "extended",
        mcp: McpOffer = True,
    ) -> Tool[Any, Any]:
        """A tool from `def name(ctx: ToolContext, args: Args) -> Result` and its docstring.

        Raises TypeError for a function of another shape, or one with nothing to describe it."""
        name = name or fn.__name__
        params = list(inspect.signature(fn).parameters)
        if len(params) != 2:
            raise TypeError(f"tool {name}: takes (ctx, args), not ({', '.join(params)})")
        hints = get_type_hints(fn)
        text = description if description is not None else _unwrap(fn.__doc__ or "")
        if not text:
            raise TypeError(f"tool {name}: needs a docstring, the description the model reads")
        return Tool(
            name,
            text,
            _model(hints.get(params[1]), name, "arguments"),
            _model(hints.get("return"), name, "result"),
            fn,
            title=title,
            agent=agent,
            mcp=mcp,
            module=getattr(fn, "__module__", ""),
        )

    def display_title(self) -> str:
        """The title a person reads in a client: the declared one, else the name in words."""
        return self.title or self.name.replace("_", " ").capitalize()

    def parameters_schema(self) -> dict[str, Any]:
        """The JSON Schema of the arguments, as the model sees it (a fresh copy each time)."""
        return copy.deepcopy(_schema(self.args))

    def openai_spec(self) -> dict[str, Any]:
        """The tool in the OpenAI chat-completions `tools` format."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters_schema(),
            },
        }


#: the kind of an outcome whose tool raised something other than a refusal: a bug in clustergen
INTERNAL_ERROR = "internal_error"
#: the most JSON a tool call's arguments may take (the largest legitimate call is a fleet
#: inventory at its node limit, well under this)
MAX_ARGUMENT_CHARS = 1_000_000


class ToolOutcome(BaseModel):
    """What a call gave: a result (as JSON data) or an error message for the model."""

    tool: str
    ok: bool
    result: Any = None
    error: str | None = None
    kind: str | None = None
    traceback: str | None = Field(
        default=None, exclude=True, description="for an internal error: where it happened"
    )
    value: Any = Field(
        default=None, exclude=True, description="the result model itself, for a caller in process"
    )

    def content(self) -> str:
        """The text sent back to the model as the tool message."""
        if self.ok:
            return json.dumps(self.result, separators=(",", ":"))
        return json.dumps({"error": self.error, "kind": self.kind}, separators=(",", ":"))


def _json_text(value: Any) -> Any:
    """`value` decoded if it is JSON text of an object or a list, else as it is."""
    if isinstance(value, str) and value.strip()[:1] in ("{", "["):
        with contextlib.suppress(json.JSONDecodeError):
            decoded = json.loads(value)
            if isinstance(decoded, dict | list):
                return decoded
    return value


def _model(hint: Any, tool: str, what: str) -> type[BaseModel]:
    if isinstance(hint, type) and issubclass(hint, BaseModel):
        return hint
    raise TypeError(f"tool {tool}: its {what} must be annotated as a pydantic model, not {hint!r}")


def _unwrap(docstring: str) -> str:
    """A docstring as one line per paragraph: the source's line wrapping is not the model's."""
    paragraphs = inspect.cleandoc(docstring).split("\n\n")
    return "\n\n".join(" ".join(p.split()) for p in paragraphs if p.strip())


def validation_message(
    exc: ValidationError, limit: int = 5, model: type[BaseModel] | None = None
) -> str:
    """Every wrong field of a validation error, one clause each, so the model can fix them all;
    an unknown field name of `model` (or of a model inside it) with the closest names it has."""
    parts = []
    for err in exc.errors()[:limit]:
        where = ".".join(str(p) for p in err["loc"]) or "arguments"
        got = err.get("input")
        shown = "" if isinstance(got, dict) else f" (got {json.dumps(got, default=str)[:60]})"
        hint = ""
        if err["type"] == "extra_forbidden" and model is not None and err["loc"]:
            hint = did_you_mean(str(err["loc"][-1]), fields_at(model, err["loc"][:-1]))
            shown = ""
        parts.append(f"{where}: {err['msg']}{shown}{hint}")
    more = len(exc.errors()) - limit
    if more > 0:
        parts.append(f"and {more} more")
    return "; ".join(parts)


def fields_at(model: type[BaseModel], loc: Iterable[Any]) -> list[str]:
    """The field names of the model found at `loc` inside `model` (list indexes and dict keys
    passed through), or [] where the path leaves the models."""
    current: type[BaseModel] | None = model
    for part in loc:
        if current is None:
            return []
        info = current.model_fields.get(str(part))
        if info is None:
            continue  # a list index or a dict key: the same model's items
        current = model_in(info.annotation)
    return list(current.model_fields) if current is not None else []


def did_you_mean(name: str, names: Iterable[str]) -> str:
    """'; did you mean X' for the closest of `names` to `name` (case forgiven), or ''."""
    names = list(names)
    close = difflib.get_close_matches(name.lower(), names, n=1, cutoff=0.6)
    if not close:
        return ""
    return f"; did you mean {' or '.join(close)}"


@dataclass
class Registry:
    """Tools by name."""

    tools: dict[str, Tool[Any, Any]] = field(default_factory=dict)

    def add(self, tool: Tool[Any, Any]) -> None:
        """Add a tool; a second tool of the same name is refused (ValueError)."""
        if tool.name in self.tools:
            raise ValueError(f"tool {tool.name!r} registered twice")
        self.tools[tool.name] = tool

    @overload
    def tool(self, fn: F, /) -> F: ...

    @overload
    def tool(
        self,
        /,
        *,
        name: str | None = None,
        description: str | None = None,
        title: str = "",
        agent: Offer | None = "extended",
        mcp: McpOffer = True,
    ) -> Callable[[F], F]: ...

    def tool(
        self,
        fn: F | None = None,
        /,
        *,
        name: str | None = None,
        description: str | None = None,
        title: str = "",
        agent: Offer | None = "extended",
        mcp: McpOffer = True,
    ) -> Any:
        """Register a typed function as a tool: `@registry.tool`, or `@registry.tool(title=...,
        agent=..., mcp=...)` (see the module docstring). Returns the function unchanged."""

        def register(f: F) -> F:
            self.add(
                Tool.from_function(
                    f, name=name, description=description, title=title, agent=agent, mcp=mcp
                )
            )
            return f

        return register if fn is None else register(fn)

    def copy(self) -> Registry:
        """A registry with the same tools, to add to without changing this one."""
        return Registry(dict(self.tools))

    def subset(self, names: Iterable[str]) -> Registry:
        """A registry of only these tools, in this registry's order."""
        wanted = set(names)
        return Registry({n: t for n, t in self.tools.items() if n in wanted})

    def names(self) -> list[str]:
        return list(self.tools)

    def offered(self, *offers: Offer) -> list[str]:
        """Names of the tools offered to the design agent in these sets, in order."""
        return [n for n, t in self.tools.items() if t.agent in offers]

    def for_mcp(self) -> Registry:
        """The tools served over MCP."""
        return self.subset(n for n, t in self.tools.items() if t.mcp)

    def mcp_first(self) -> list[str]:
        """Names of the tools an MCP server lists first, in order."""
        return [n for n, t in self.tools.items() if t.mcp == "first"]

    def get(self, name: str) -> Tool[Any, Any] | None:
        return self.tools.get(name)

    def openai_specs(self, names: Iterable[str] | None = None) -> list[dict[str, Any]]:
        chosen = self.names() if names is None else list(names)
        return [self.tools[n].openai_spec() for n in chosen]

    def parse_args(self, name: str, arguments: str | dict[str, Any] | None) -> BaseModel:
        """Validate raw arguments (a JSON string or a mapping) into the tool's argument model.

        Raises `ToolCallError` with a message the model can act on."""
        tool = self.tools.get(name)
        if tool is None:
            raise ToolCallError(
                f"unknown tool {name!r}{did_you_mean(name, self.names())}; the tools are: "
                f"{', '.join(self.names())}",
                "unknown_tool",
            )
        data: Any = arguments
        if arguments is None or arguments == "":
            data = {}
        elif isinstance(arguments, dict):
            # A caller in process may hand engine models (FabricChoices) where the tool's argument
            # model holds its own described subclass: pass their fields, not the instances.
            data = to_jsonable_python(arguments)
        elif isinstance(arguments, str):
            data = _loads_arguments(name, arguments)
            if isinstance(data, str) and data.strip().startswith("{"):
                # Some models encode the arguments twice: a JSON string holding the object.
                with contextlib.suppress(ToolCallError):
                    data = _loads_arguments(name, data)
        else:
            _check_arguments(name, arguments)
        if not isinstance(data, dict):
            raise ToolCallError(
                f"arguments of {name} must be a JSON object, got {type(data).__name__}",
                "bad_arguments",
            )
        try:
            parsed: BaseModel = tool.args.model_validate(data)
            return parsed
        except ValidationError as exc:
            error = exc
        # Some clients and models send an object argument as JSON text ('{"gpus": 256}').
        decoded = {k: _json_text(v) for k, v in data.items()}
        if decoded != data:
            with contextlib.suppress(ValidationError):
                again: BaseModel = tool.args.model_validate(decoded)
                return again
        raise ToolCallError(
            f"bad arguments for {name}: {validation_message(error, model=tool.args)}",
            "bad_arguments",
        ) from None

    def run(self, ctx: ToolContext, name: str, arguments: str | dict[str, Any] | None) -> BaseModel:
        """Validate the arguments and run a tool; its result model. Raises `ToolCallError` for a
        call the registry refuses and the engine's `ClustergenError` for a request it refuses."""
        args = self.parse_args(name, arguments)
        result: BaseModel = self.tools[name].run(ctx, args)
        return result

    def call(
        self, ctx: ToolContext, name: str, arguments: str | dict[str, Any] | None
    ) -> ToolOutcome:
        """Run a tool. Never raises: the model's mistakes and the engine's refusals come back as
        an error outcome the model can read and act on, and so does a bug (any other exception
        inside a tool), as kind `internal_error` with its traceback kept for the trace or log,
        so one broken tool cannot end an agent run or an MCP server."""
        try:
            result = self.run(ctx, name, arguments)
            data = result.model_dump(mode="json")
        except ToolCallError as exc:
            return ToolOutcome(tool=name, ok=False, error=exc.message, kind=exc.kind)
        except ClustergenError as exc:
            # a request field in the error is worded as the path to it in this tool's arguments
            error = exc.one_line(lambda field: argument_path(self.tools[name].args, field))
            return ToolOutcome(tool=name, ok=False, error=error, kind=type(exc).__name__)
        except Exception as exc:  # a bug, not a refusal: reported as one, never raised
            return ToolOutcome(
                tool=name,
                ok=False,
                error=f"clustergen failed inside {name} ({type(exc).__name__}: "
                f"{str(exc).splitlines()[0][:200] if str(exc) else 'no message'}); this is a bug "
                "in clustergen, not a mistake in your call: try other arguments or another tool",
                kind=INTERNAL_ERROR,
                traceback="".join(traceback.format_exception(exc)),
            )
        return ToolOutcome(tool=name, ok=True, result=data, value=result)


def _loads_arguments(name: str, text: str) -> Any:
    """A model's JSON arguments as plain data, within the limits of untrusted input."""
    if len(text) > MAX_ARGUMENT_CHARS:
        raise ToolCallError(
            f"arguments of {name} are {len(text):,} characters, over the limit of "
            f"{MAX_ARGUMENT_CHARS:,}; send less",
            "bad_arguments",
        )
    try:
        return load_json(text)
    except DataError as exc:
        raise ToolCallError(
            f"arguments of {name}: {exc}; send one JSON object of finite numbers",
            "bad_arguments",
        ) from None


def _check_arguments(name: str, data: Any) -> None:
    """Arguments already parsed (an MCP client's) within the same limits as a model's text."""
    try:
        check_shape(data)
        size = len(json.dumps(data, default=str))
    except (DataError, ValueError, RecursionError) as exc:
        raise ToolCallError(f"arguments of {name}: {exc}", "bad_arguments") from None
    if size > MAX_ARGUMENT_CHARS:
        raise ToolCallError(
            f"arguments of {name} are {size:,} characters of JSON, over the limit of "
            f"{MAX_ARGUMENT_CHARS:,}; send less",
            "bad_arguments",
        )


class ToolCallError(Exception):
    """A call the registry refused before running the tool (unknown tool, bad arguments)."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind


def argument_path(args: type[BaseModel], field: str) -> str | None:
    """Where a request field sits in a tool's arguments (`requirements.pue`), or None."""
    if field in args.model_fields:
        return field
    for name, info in args.model_fields.items():
        inner = info.annotation
        if isinstance(inner, type) and issubclass(inner, BaseModel) and field in inner.model_fields:
            return f"{name}.{field}"
    return None
