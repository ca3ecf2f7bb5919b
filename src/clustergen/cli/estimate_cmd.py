"""`clustergen estimate`: the workload estimate alone (GPUs, days or replicas, cost), no design."""

from __future__ import annotations

from typing import Annotated

import typer

from clustergen.cli.field_opts import Given
from clustergen.cli.options import CatalogOpt, JsonOpt, StrictOpt
from clustergen.cli.output import print_json, say
from clustergen.cli.request_opts import ESTIMATE_FLAGS, request_fields, request_options
from clustergen.errors import InfeasibleDesignError, RequestError


@request_options(ESTIMATE_FLAGS, {"model": "--model"})
def estimate(
    text: Annotated[
        str | None,
        typer.Argument(help='The request, e.g. "train a 70B model on 15T tokens in 60 days".'),
    ] = None,
    catalog: CatalogOpt = None,
    json: JsonOpt = False,
    strict: StrictOpt = False,
    *,
    given: Given,
) -> None:
    """Estimate a workload: GPUs and days to train, replicas and latency to serve, cost of a budget."""
    from clustergen.catalog import load_catalog
    from clustergen.cli.design_cmd import load_request
    from clustergen.cli.workload_view import first_lines, refuse_unread
    from clustergen.engine.sizing.workload import (
        estimate_request,
        estimate_workload,
        unmodelled_warnings,
    )

    if text is None and not given.fields:
        raise RequestError(
            'give a request, e.g. clustergen estimate "train a 70B model on 15T tokens in 60 days"'
        )
    overrides = request_fields(given)
    cat = load_catalog(catalog)
    req = load_request(cat, text, None, overrides)
    refuse_unread(req, strict)
    result, assumed = estimate_request(cat, req)
    found = estimate_workload(cat, req)  # memoised: the same estimate, with what it does not meet
    unmet = [f"not met: {u}" for u in found[2]] if found else []
    warnings = [*result.warnings, *unmet, *unmodelled_warnings(req, result.kind)]
    if json:
        print_json(
            result.model_dump(mode="json")
            | {
                "not_understood": req.not_understood,
                "assumptions": [a.model_dump(mode="json") for a in assumed],
                "warnings": warnings,
            }
        )
    else:
        from clustergen.cli.workload_view import print_workload

        first_lines(req, warnings)
        print_workload(result)
        # the engine's field names in words, imported here: the command loads no design model
        from clustergen.engine.report.words import field_words, value_words

        for a in assumed:
            say(f"assumed {field_words(a.field)} = {value_words(a.value)}: {a.reason}")
    if not result.feasible:  # NOT MET: the figures are printed, and the exit says so
        raise typer.Exit(InfeasibleDesignError.exit_code)


def register(app: typer.Typer) -> None:
    """Add `estimate` to the root app."""
    app.command("estimate")(estimate)
