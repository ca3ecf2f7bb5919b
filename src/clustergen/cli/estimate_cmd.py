"""`clustergen estimate`: the workload estimate alone (GPUs, days or replicas, cost), no design."""

from __future__ import annotations

from typing import Annotated

import typer

from clustergen.cli.options import CatalogOpt, JsonOpt, StrictOpt
from clustergen.cli.output import print_json, say
from clustergen.cli.workload_opts import (
    BudgetOpt,
    DaysOpt,
    EstimateModelOpt,
    IslOpt,
    NodePriceOpt,
    OslOpt,
    ParamsOpt,
    PrecisionOpt,
    PriceOpt,
    RateOpt,
    SeqOpt,
    TokensOpt,
    TpotOpt,
    TtftOpt,
    workload_overrides,
)
from clustergen.errors import RequestError


def estimate(
    text: Annotated[
        str | None,
        typer.Argument(help='The request, e.g. "train a 70B model on 15T tokens in 60 days".'),
    ] = None,
    workload_model: EstimateModelOpt = None,
    params_b: ParamsOpt = None,
    tokens: TokensOpt = None,
    days: DaysOpt = None,
    precision: PrecisionOpt = None,
    seq: SeqOpt = None,
    tokens_per_s: RateOpt = None,
    isl: IslOpt = None,
    osl: OslOpt = None,
    ttft_ms: TtftOpt = None,
    tpot_ms: TpotOpt = None,
    budget_usd: BudgetOpt = None,
    price_per_gpu_hour: PriceOpt = None,
    price_per_node_hour: NodePriceOpt = None,
    gpus: Annotated[int | None, typer.Option("--gpus", min=1, help="GPUs you have.")] = None,
    gpu: Annotated[str | None, typer.Option("--gpu", help="GPU model, e.g. H100.")] = None,
    platform: Annotated[str | None, typer.Option("--platform", help="System id.")] = None,
    workload: Annotated[
        str | None, typer.Option("--workload", help="training, fine-tuning or inference.")
    ] = None,
    catalog: CatalogOpt = None,
    json: JsonOpt = False,
    strict: StrictOpt = False,
) -> None:
    """Estimate a workload: GPUs and days to train, replicas and latency to serve, cost of a budget."""
    from clustergen.catalog import load_catalog
    from clustergen.cli.design_cmd import load_request
    from clustergen.cli.workload_view import first_lines, refuse_unread
    from clustergen.engine.sizing.workload import estimate_request, estimate_workload
    from clustergen.engine.sizing.workload_inputs import unmodelled_warnings

    cat = load_catalog(catalog)
    overrides = workload_overrides(locals())
    overrides |= {"gpus": gpus, "gpu": gpu, "platform": platform, "workload": workload}
    if text is None and not any(v is not None for v in overrides.values()):
        raise RequestError(
            'give a request, e.g. clustergen estimate "train a 70B model on 15T tokens in 60 days"'
        )
    req = load_request(cat, text, None, overrides)
    refuse_unread(req, strict)
    result, assumed = estimate_request(cat, req)
    found = estimate_workload(cat, req)  # memoised: the same estimate, with what it does not meet
    unmet = [f"not met: {u}" for u in found[2]] if found else []
    warnings = unmet + unmodelled_warnings(req, result.kind)
    if json:
        print_json(
            result.model_dump(mode="json")
            | {
                "not_understood": req.not_understood,
                "assumptions": [a.model_dump(mode="json") for a in assumed],
                "warnings": warnings,
            }
        )
        return
    from clustergen.cli.workload_view import print_workload

    first_lines(req, warnings)
    print_workload(result)
    for a in assumed:
        say(f"assumed {a.field} = {a.value}: {a.reason}")


def register(app: typer.Typer) -> None:
    """Add `estimate` to the root app."""
    app.command("estimate")(estimate)
