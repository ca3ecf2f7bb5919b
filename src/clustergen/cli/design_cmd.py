"""`clustergen design` and `clustergen schema`: the main job and its JSON Schema."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from clustergen.cli.design_view import summary
from clustergen.cli.field_opts import Given
from clustergen.cli.options import CatalogOpt, InsecureHttpOpt, JsonOpt, StrictOpt
from clustergen.cli.output import announce_key_route, print_json, stdout
from clustergen.cli.request_opts import (
    request_fields,
    request_options,
)
from clustergen.errors import RequestError

if TYPE_CHECKING:
    from clustergen.catalog import Catalog
    from clustergen.engine.model.design import Design
    from clustergen.engine.request import DesignRequest

OutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out",
        help="Write the bundle here: design.json, memo.md, bom.csv, bom.xlsx, rack_plan.csv, "
        "cable_schedule.csv, netbox_cables.csv, netbox_device_types.yaml, topology.conf, topology (svg, png, drawio, mmd), power.png, "
        "racks.png.",
    ),
]
PlotsOpt = Annotated[
    Path | None,
    typer.Option(
        "--plots",
        help="Write only the pictures (topology.svg/.png/.drawio/.mmd, power.png, racks.png) here.",
    ),
]
ForceOpt = Annotated[
    bool,
    typer.Option("--force", help="Replace the files of an earlier bundle in --out or --plots."),
]

schema_app = typer.Typer(help="JSON Schemas of clustergen's outputs.", no_args_is_help=True)


def load_request(
    catalog: Catalog, text: str | None, request_file: Path | None, overrides: dict[str, Any]
) -> DesignRequest:
    """Text and/or a YAML request file, with flags (`overrides`, None where not given)
    overriding single fields."""
    from clustergen.engine.request import merge_request

    data: dict[str, Any] = {}
    if request_file is not None:
        from clustergen.cli.userfiles import read_user_text
        from clustergen.cli.yamlfile import load_mapping
        from clustergen.untrusted import DataError
        from clustergen.untrusted.yaml_loader import load_yaml

        what = f"--request {request_file}"
        text_of_file = read_user_text(request_file, "--request")
        try:
            # the limits first (repeated keys, aliases, nesting, numbers); syntax errors say where
            load_yaml(text_of_file)
        except DataError as exc:
            raise RequestError(f"{what}: {exc}") from None
        data = load_mapping(text_of_file, what, request_keys())
    text = text or data.pop("text", None)
    given = {k: v for k, v in overrides.items() if v is not None}
    return merge_request(catalog, text, {**data, **given})


def request_keys() -> list[str]:
    """The fields a request file may hold: the request's own, and its text."""
    from clustergen.engine.model.request import PARSE_FIELDS, DesignRequest

    return ["text", *(k for k in DesignRequest.model_fields if k not in PARSE_FIELDS)]


def _may_have_model() -> bool:
    """Whether a model could be configured, checked without loading the settings machinery (~80 ms
    of start-up): a key or an endpoint of the user's own set, or a .env file here for
    pydantic-settings to read."""
    if any(os.environ.get(v, "").strip() for v in ("NVIDIA_API_KEY", "CLUSTERGEN_BASE_URL")):
        return True
    return Path(".env").is_file()


# The options of `design` (typer reads them from the signature).
_TextArg = Annotated[
    str | None, typer.Argument(help='The request, e.g. "512 GPUs training, 5 MW".')
]
_RequestOpt = Annotated[Path | None, typer.Option("--request", help="Request as a YAML file.")]
_OfflineOpt = Annotated[
    bool, typer.Option("--offline", help="Use the deterministic planner, even with a key.")
]
_LlmOpt = Annotated[
    bool,
    typer.Option(
        "--llm", help="Use the NIM agent; no model configured or a failed agent is an error."
    ),
]
_AgentModelOpt = Annotated[
    str | None, typer.Option("--model", help="Model id (default: CLUSTERGEN_MODEL).")
]
_TraceOpt = Annotated[
    Path | None,
    typer.Option("--trace", help="Write the agent's conversation as JSONL (key redacted)."),
]


@request_options()
def design(
    text: _TextArg = None,
    request: _RequestOpt = None,
    out: OutOpt = None,
    plots: PlotsOpt = None,
    force: ForceOpt = False,
    offline: _OfflineOpt = False,
    llm: _LlmOpt = False,
    model: _AgentModelOpt = None,
    trace: _TraceOpt = None,
    allow_insecure_http: InsecureHttpOpt = False,
    catalog: CatalogOpt = None,
    json: JsonOpt = False,
    strict: StrictOpt = False,
    *,
    given: Given,
) -> None:
    """Design a GPU cluster from a request: platform, fabrics, racks, power, storage, BOM, checks.

    A workload ("train a 70B model on 15T tokens in 60 days", "serve Llama 3.1 405B at 20,000
    output tokens/s") is sized per candidate platform first; see also `clustergen estimate`."""
    from clustergen.catalog import load_catalog

    if offline and llm:
        raise RequestError("--offline and --llm contradict each other; pick one")
    if text is None and request is None and not given.fields:
        raise RequestError('give a request, e.g. clustergen design "512 GPUs training, 5 MW"')
    fields = request_fields(given)
    _check_outputs(trace, out, plots, force)
    with _drawing_ahead(out is not None or plots is not None):
        cat = load_catalog(catalog)
        req = load_request(cat, text, request, fields)
        from clustergen.cli.workload_view import refuse_unread

        refuse_unread(req, strict)
        d = _make(
            cat,
            req,
            offline=offline,
            llm=llm,
            model=model,
            trace=trace,
            allow_insecure_http=allow_insecure_http,
        )
        written = _write(d, out, plots, force)
    if json:
        print_json(d)
    else:
        summary(d)
        for where, paths in written.items():
            names = ", ".join(p.name for p in paths)
            stdout.print(f"wrote {names} in {where}", markup=False)


def _drawing_ahead(pictures: bool) -> contextlib.AbstractContextManager[None]:
    """With pictures to draw, a worker starts importing matplotlib while the design is made."""
    if not pictures:
        return contextlib.nullcontext()
    from clustergen.engine.report.bundle import drawing_ahead

    return drawing_ahead()


def _check_outputs(trace: Path | None, out: Path | None, plots: Path | None, force: bool) -> None:
    """Outputs are checked before any work: a refused --out must not cost an agent run."""
    if trace is not None:
        from clustergen.cli.userfiles import check_output_file

        check_output_file(trace, "--trace")
    for target in (out, plots):
        if target is not None:
            from clustergen.cli.bundle import check_bundle_target

            check_bundle_target(target, force)


def _write(d: Design, out: Path | None, plots: Path | None, force: bool) -> dict[Path, list[Path]]:
    """The bundle in --out and the pictures in --plots; the paths written, by directory."""
    if out is None and plots is None:
        return {}
    from clustergen.cli.bundle import write_bundle
    from clustergen.engine.report.bundle import bundle_files, pictures
    from clustergen.redact import redact_known

    def redacted(files: dict[str, str | bytes]) -> dict[str, str | bytes]:
        # a model may echo the key into its memo: no file holds it, as no printed output does
        return {n: redact_known(c) if isinstance(c, str) else c for n, c in files.items()}

    written: dict[Path, list[Path]] = {}
    if out is not None:
        written[out] = write_bundle(redacted(bundle_files(d)), out, force)
    if plots is not None:
        written[plots] = write_bundle(redacted(pictures(d)), plots, force)
    return written


def _make(
    cat: Catalog,
    req: DesignRequest,
    *,
    offline: bool,
    llm: bool,
    model: str | None,
    trace: Path | None,
    allow_insecure_http: bool = False,
) -> Design:
    """The design from the planner, or from the agent when a model is configured (or --llm)."""
    settings = None
    if not offline and (llm or _may_have_model()):
        from clustergen.agent.settings import load_settings

        settings = load_settings(model=model, allow_insecure_http=allow_insecure_http)
    if settings is None or (not settings.configured() and not llm):
        from clustergen.engine.search.planner import plan_design

        return plan_design(cat, req)
    # openai and httpx load only when a model will be asked.
    from clustergen.agent.modes import design as agent_design

    announce_key_route(settings)
    return agent_design(
        cat, req, mode="llm" if llm else "auto", settings=settings, trace_path=trace
    )


@schema_app.command("design")
def schema_design() -> None:
    """Print the JSON Schema of the Design model (`design --json` output)."""
    from clustergen.engine.model.design import Design

    print_json(Design.model_json_schema())


@schema_app.command("request")
def schema_request(json: JsonOpt = False) -> None:
    """List the request's fields: each one's option on `design` and `estimate` (else --set
    FIELD=VALUE), unit and description. --json: the JSON Schema of a request file
    (`design --request FILE`, YAML or JSON)."""
    if json:
        print_json(_request_file_schema())
        return
    import textwrap

    from clustergen.cli.request_opts import field_rows

    width = max(40, min(stdout.width, 100))
    lines = [
        "Request fields: give one as its option on design and estimate, as --set FIELD=VALUE "
        "(in the field's unit), or as FIELD: VALUE in a --request file.",
        "",
    ]
    for field, option, unit, description in field_rows():
        lines.append(f"{field}{f' ({unit})' if unit else ''}: {option or f'--set {field}=...'}")
        lines.append(
            textwrap.fill(description, width, initial_indent="    ", subsequent_indent="    ")
        )
    stdout.print("\n".join(lines), markup=False, highlight=False, soft_wrap=False)


def _request_file_schema() -> dict[str, Any]:
    from pydantic import create_model

    from clustergen.engine.model.request import PARSE_FIELDS, DesignRequest

    fields: dict[str, Any] = {
        name: (f.annotation, f)
        for name, f in DesignRequest.model_fields.items()
        if name not in PARSE_FIELDS
    }
    fields["text"] = (str | None, None)
    model = create_model("RequestFile", **fields)
    schema = model.model_json_schema()
    schema["additionalProperties"] = False
    schema["description"] = (
        "A clustergen request file: free text (`text`) and/or fields; fields override what the "
        "text says. See examples/request.yaml."
    )
    return schema


def register(app: typer.Typer) -> None:
    """Add `design` and `schema` to the root app."""
    app.command("design")(design)
    app.add_typer(schema_app, name="schema")
