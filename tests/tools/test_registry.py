"""The tool registry: schemas are a contract (snapshotted), every tool runs, and no mistake of the
caller's escapes as an exception."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from clustergen.catalog import load_catalog
from clustergen.tools import Registry, Tool, ToolContext, default_registry

SNAPSHOT = Path(__file__).parent / "schemas.snapshot.json"

VALID: dict[str, dict[str, Any]] = {
    "parse_request": {"text": "512 GPUs training, 5 MW"},
    "sensitivity": {"requirements": {"power_cap_w": 2e6, "platform": "dgx-h100"}},
    "list_platforms": {"cooling": "air"},
    "lookup_gpu": {"name": "H100"},
    "lookup_system": {"name": "DGX B200"},
    "lookup_switch": {"name": "QM9700"},
    "list_ra_patterns": {},
    "recommend_ra": {"gpus": 128, "workload": "training"},
    "size_fabric": {"platform": "dgx-h100", "nodes": 127},
    "power_first": {"platform": "dgx-b200", "power_cap_w": 5e6},
    "storage_targets": {"tier": "better", "nodes": 127},
    "analyze_storage": {"gpus": 128, "ingest_mb_per_s_per_gpu": 50, "read_gb_per_s": 672},
    "plan_fleet": {
        "inventory": {
            "nodes": [
                {"name": "a", "provider": "onprem", "gpu": "H100", "gpus": 8},
                {"name": "b", "provider": "spot", "gpu": "L40S", "gpus": 4, "ephemeral": True},
            ]
        }
    },
    "estimate_training": {"model": "70B", "training_tokens_t": 15, "training_days": 60},
    "estimate_inference": {
        "model": "Llama 3.1 405B",
        "output_tokens_per_s": 20000,
        "ttft_ms": 2000,
    },
    "estimate_budget": {
        "model": "8B",
        "budget_usd": 2e6,
        "price_per_gpu_hour": 2.5,
        "kind": "fine-tuning",
    },
    "compare_alternatives": {"requirements": {"gpus": 512, "power_cap_w": 5e6}},
    "build_design": {
        "requirements": {"gpus": 512, "power_cap_w": 5e6},
        "choices": {"platform": "dgx-h100"},
    },
    "validate_design": {"requirements": {"gpus": 256}, "choices": {"platform": "dgx-b200"}},
    "submit_design": {
        "requirements": {"gpus": 256},
        "choices": {"platform": "dgx-b200"},
        "memo": "32 nodes.",
    },
    "design_cluster": {"text": "256 GPUs training, 3 MW"},
}


@pytest.fixture(scope="module")
def ctx() -> ToolContext:
    return ToolContext(load_catalog(), "512 GPUs training, 5 MW")


def test_every_tool_has_a_valid_call_here() -> None:
    assert set(VALID) == set(default_registry().names())


def test_schemas_match_the_snapshot() -> None:
    """Changing a tool's arguments changes what models and MCP clients see: do it on purpose.
    Regenerate with CLUSTERGEN_UPDATE_SNAPSHOTS=1 uv run pytest tests/tools."""
    specs = default_registry().openai_specs()
    text = json.dumps(specs, indent=1, sort_keys=True) + "\n"
    if os.environ.get("CLUSTERGEN_UPDATE_SNAPSHOTS"):
        SNAPSHOT.write_text(text)
    assert SNAPSHOT.read_text() == text


def test_specs_are_openai_function_tools() -> None:
    for spec in default_registry().openai_specs():
        assert spec["type"] == "function"
        fn = spec["function"]
        assert fn["name"]
        assert len(fn["description"]) > 20
        assert fn["parameters"]["type"] == "object"


@pytest.mark.parametrize("name", sorted(VALID))
def test_each_tool_runs_and_returns_its_result_model(ctx: ToolContext, name: str) -> None:
    reg = default_registry()
    out = reg.call(ctx, name, json.dumps(VALID[name]))
    assert out.ok, out.error
    reg.tools[name].result.model_validate(out.result)
    json.loads(out.content())


@pytest.mark.parametrize(
    ("name", "arguments", "kind", "says"),
    [
        ("lookup_gpu", '{"name": "H100"', "bad_arguments", "not valid JSON"),
        ("lookup_gpu", "[1, 2]", "bad_arguments", "JSON object"),
        ("lookup_gpu", '{"nam": "H100"}', "bad_arguments", "name"),
        ("size_fabric", '{"platform": "dgx-h100", "nodes": 0}', "bad_arguments", "nodes"),
        ("lookup_gpu", '{"name": "H1000x"}', "NotFoundError", "closest"),
        ("recommend_ra", '{"gpus": 8, "workload": "gaming"}', "bad_arguments", "workload"),
        (
            "power_first",
            '{"platform": "dgx-h100", "power_cap_w": 1000}',
            "InfeasibleDesignError",
            "",
        ),
        ("power_first", '{"platform": "dgx-h100", "cap_mw": 5}', "bad_arguments", "cap_mw"),
        ("design_cluster", '{"text": "100000 GPUs in 5 MW"}', "InfeasibleDesignError", "cap"),
        ("design_cluster", '{"text": "hello there"}', "RequestError", "nothing to size"),
        ("parse_request", json.dumps({"text": "x" * 4001}), "bad_arguments", "4000"),
        ("format_disk", "{}", "unknown_tool", "submit_design"),
    ],
)
def test_mistakes_become_tool_errors(
    ctx: ToolContext, name: str, arguments: str, kind: str, says: str
) -> None:
    out = default_registry().call(ctx, name, arguments)
    assert not out.ok
    assert out.kind == kind
    assert says in (out.error or "")
    assert "\n" not in (out.error or "")


def test_requirements_accept_names_not_only_ids(ctx: ToolContext) -> None:
    out = default_registry().call(
        ctx,
        "build_design",
        {"requirements": {"gpus": 64, "gpu": "H200"}, "choices": {"platform": "DGX H200"}},
    )
    assert out.ok
    assert out.result["platform"] == "dgx-h200"


def test_arguments_encoded_twice_are_read_once_more(ctx: ToolContext) -> None:
    """Some models send the arguments as a JSON string holding the JSON object."""
    twice = json.dumps(json.dumps({"name": "H100"}))
    out = default_registry().call(ctx, "lookup_gpu", twice)
    assert out.ok
    assert out.result["id"] == "h100-sxm"
    still_bad = default_registry().call(ctx, "lookup_gpu", json.dumps("H100"))
    assert still_bad.kind == "bad_arguments"


# ---------------------------------------------------------------- declaring a tool


class _EchoArgs(BaseModel):
    text: str


class _Echoed(BaseModel):
    text: str


def test_a_tool_is_declared_by_its_function() -> None:
    reg = Registry()

    @reg.tool
    def echo(ctx: ToolContext, a: _EchoArgs) -> _Echoed:
        """Say it back: the text, unchanged, for a model
        that wants to hear it twice.

        A second paragraph stays a paragraph."""
        return _Echoed(text=a.text)

    t = reg.tools["echo"]
    assert t.description == (
        "Say it back: the text, unchanged, for a model that wants to hear it twice.\n\n"
        "A second paragraph stays a paragraph."
    )
    assert (t.args, t.result, t.run) == (_EchoArgs, _Echoed, echo)
    assert echo(ToolContext(load_catalog()), _EchoArgs(text="hi")).text == "hi"  # still a function


def test_a_tool_may_be_named_and_described_apart_from_its_function() -> None:
    reg = Registry()

    @reg.tool(name="say", description="Say it.")
    def _impl(ctx: ToolContext, a: _EchoArgs) -> _Echoed:
        return _Echoed(text=a.text)

    assert reg.names() == ["say"]
    assert reg.tools["say"].description == "Say it."


def test_a_second_tool_of_the_same_name_is_refused() -> None:
    reg = Registry()

    def echo(ctx: ToolContext, a: _EchoArgs) -> _Echoed:
        """Say it back."""
        return _Echoed(text=a.text)

    reg.tool(echo)
    with pytest.raises(ValueError, match="'echo' registered twice"):
        reg.tool(echo)


def test_a_function_of_another_shape_is_not_a_tool() -> None:
    def no_doc(ctx: ToolContext, a: _EchoArgs) -> _Echoed:
        return _Echoed(text=a.text)

    def untyped(ctx: ToolContext, a: dict[str, Any]) -> _Echoed:
        """Untyped arguments."""
        return _Echoed(text="")

    def three(ctx: ToolContext, a: _EchoArgs, b: _EchoArgs) -> _Echoed:
        """Three parameters."""
        return _Echoed(text="")

    with pytest.raises(TypeError, match="needs a docstring"):
        Tool.from_function(no_doc)
    with pytest.raises(TypeError, match="arguments must be annotated as a pydantic model"):
        Tool.from_function(untyped)
    with pytest.raises(TypeError, match=r"takes \(ctx, args\)"):
        Tool.from_function(three)


def test_default_registry_is_a_fresh_copy_in_definition_order() -> None:
    first = default_registry()
    assert first.names()[0] == "parse_request"
    builtin = [t.name for t in first.tools.values() if t.module.endswith(".builtin")]
    assert builtin[-2:] == ["submit_design", "design_cluster"]
    first.tools.clear()
    assert len(default_registry().names()) == len(VALID)


_TINY = '{"gpus": 64, "samples_per_s_per_gpu": 10, "sample_mb": 5e-324, "storage_targets": 24}'


@pytest.mark.parametrize(
    ("name", "arguments", "says"),
    [
        ("analyze_storage", _TINY, "sample_mb"),
        ("analyze_storage", '{"gpus": 64, "sample_mb": NaN}', "NaN is not a number JSON allows"),
        ("analyze_storage", '{"gpus": 64, "sample_mb": 1e999}', "too large for a float"),
        ("size_fabric", '{"platform": "dgx-h100", "nodes": 1' + "0" * 5000 + "}", "digits"),
        ("lookup_gpu", '{"name": ' + "[" * 5000 + "]" * 5000 + "}", "nested deeper than"),
        ("lookup_gpu", '{"name": "' + "x" * 1_000_001 + '"}', "over the limit of 1,000,000"),
        ("storage_targets", '{"tier": "good", "nodes": 1000, "su_nodes": 1e12}', "su_nodes"),
    ],
    ids=["tiny-sample", "nan", "1e999", "5000-digits", "deep", "huge", "su-1e12"],
)
def test_hostile_arguments_are_refused_as_bad_arguments(
    ctx: ToolContext, name: str, arguments: str, says: str
) -> None:
    out = default_registry().call(ctx, name, arguments)
    assert not out.ok
    assert out.kind == "bad_arguments"
    assert says in (out.error or "")
    assert len(out.content()) < 2000


def test_arguments_already_parsed_are_held_to_the_same_limits(ctx: ToolContext) -> None:
    deep: Any = "x"
    for _ in range(200):
        deep = [deep]
    out = default_registry().call(ctx, "lookup_gpu", {"name": deep})
    assert (out.ok, out.kind) == (False, "bad_arguments")
    out = default_registry().call(ctx, "analyze_storage", {"gpus": 64, "sample_mb": float("nan")})
    assert (out.ok, out.kind) == (False, "bad_arguments")


def test_a_bug_inside_a_tool_is_a_tool_error_with_its_traceback_kept(ctx: ToolContext) -> None:
    """An unexpected exception (a bug, not a refusal) comes back as kind internal_error: the
    caller reads one line, the traceback stays on the outcome for a trace or a log."""
    registry = Registry()

    @registry.tool
    def overflow(ctx: ToolContext, a: _NoArgs) -> _NoArgs:
        """Always overflows."""
        raise OverflowError("cannot convert float infinity to integer")

    out = registry.call(ctx, "overflow", {})
    assert (out.ok, out.kind) == (False, "internal_error")
    assert "OverflowError: cannot convert float infinity to integer" in (out.error or "")
    assert "bug in clustergen" in (out.error or "")
    assert out.traceback is not None
    assert "raise OverflowError" in out.traceback
    assert "traceback" not in json.loads(out.content())
    assert "traceback" not in out.model_dump()


class _NoArgs(BaseModel):
    pass


def test_every_module_of_the_package_is_loaded_and_ordered_by_module() -> None:
    """A new tools module joins by declaring its tools: default_registry imports every module of
    clustergen.tools, and orders tools by module name whatever was imported first."""
    import pkgutil
    import sys

    import clustergen.tools as package

    reg = default_registry()
    for info in pkgutil.iter_modules(package.__path__):
        assert f"clustergen.tools.{info.name}" in sys.modules, info.name
    modules = [t.module for t in reg.tools.values()]
    assert modules == sorted(modules)


def test_object_arguments_sent_as_json_text_are_read(ctx: ToolContext) -> None:
    """The MCP Inspector and some models send an object parameter as its JSON text."""
    out = default_registry().call(
        ctx,
        "build_design",
        {"requirements": '{"gpus": 64}', "choices": json.dumps({"platform": "dgx-h100"})},
    )
    assert out.ok, out.error
    assert out.result["gpus"] == 64


def test_a_design_run_fills_left_out_requirements_from_its_request() -> None:
    """In a design run the request as read is the base; given fields override it."""
    from clustergen.engine.request import parse_request

    cat = load_catalog()
    run = ToolContext(cat, request=parse_request(cat, "512 GPUs training, 5 MW"))
    reg = default_registry()
    read = reg.call(run, "build_design", {"choices": {"platform": "dgx-h100"}})
    assert read.ok, read.error
    assert (read.result["gpus"], read.result["cap_w"]) == (512, 5e6)
    changed = reg.call(
        run, "build_design", {"requirements": {"gpus": 256}, "choices": {"platform": "dgx-h100"}}
    )
    assert (changed.result["gpus"], changed.result["cap_w"]) == (256, 5e6)
    outside = reg.call(ToolContext(cat), "build_design", {"choices": {"platform": "dgx-h100"}})
    assert not outside.ok  # outside a run there is no request to fall back on


# ---------------------------------------------------------------- who is offered what


def test_the_agent_core_set_is_small_and_the_rest_is_extended() -> None:
    reg = default_registry()
    assert reg.offered("core") == ["compare_alternatives", "submit_design"]
    extended = reg.offered("extended")
    assert {"parse_request", "build_design", "lookup_gpu", "size_fabric"} <= set(extended)
    # fleet planning and the one-shot design answer other questions than a design run's
    assert not {"plan_fleet", "design_cluster"} & set(reg.offered("core", "extended"))


def test_mcp_gets_everything_but_the_agents_own_submission() -> None:
    served = default_registry().for_mcp().names()
    assert "submit_design" not in served
    assert set(served) == set(VALID) - {"submit_design"}


def test_every_tool_declares_a_title() -> None:
    titles = [t.title for t in default_registry().tools.values()]
    assert all(titles), "declare title= on every @tool"
    assert len(set(titles)) == len(titles)


def test_a_tool_declares_who_is_offered_it() -> None:
    reg = Registry()

    @reg.tool(title="Echo", agent="core")
    def echo(ctx: ToolContext, a: _EchoArgs) -> _Echoed:
        """Say it back."""
        return _Echoed(text=a.text)

    @reg.tool
    def later(ctx: ToolContext, a: _EchoArgs) -> _Echoed:
        """Say it back, later."""
        return _Echoed(text=a.text)

    @reg.tool(agent=None, mcp=False)
    def hidden(ctx: ToolContext, a: _EchoArgs) -> _Echoed:
        """Say nothing."""
        return _Echoed(text="")

    assert reg.offered("core") == ["echo"]
    assert reg.offered("extended") == ["later"]  # the default: offered once asked for
    assert reg.for_mcp().names() == ["echo", "later"]
    assert reg.tools["echo"].display_title() == "Echo"
    assert reg.tools["later"].display_title() == "Later"


def test_a_request_error_names_the_argument_path_of_its_field() -> None:
    # a model has no CLI flags: the error points at the argument it should change
    reg, cat = default_registry(), load_catalog()
    args = {"requirements": {"gpus": 64, "platform": "bcm-head-node"}}
    outcome = reg.call(ToolContext(cat), "compare_alternatives", args)
    assert not outcome.ok
    assert outcome.error == (
        "bcm-head-node is a management-server, not a GPU platform (requirements.platform)"
    )
