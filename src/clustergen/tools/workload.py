"""The workload tools: GPUs and days to train, replicas and latency to serve, what a budget buys.

Registered into the default registry like every module of `clustergen.tools`. Each
tool maps its arguments to request fields and returns the engine's `WorkloadEstimate`: GPUs,
days or replicas, cost, the method and its error band.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from clustergen.engine.model.workload import WorkloadEstimate
from clustergen.engine.search.proposal import request_from_fields
from clustergen.engine.sizing.workload import estimate_request
from clustergen.tools.registry import Registry, ToolContext

Precision = Literal["bf16", "fp16", "fp8", "fp4"]


#: This module's tools; `toolsets.default_registry` joins it with the others.
TOOLS = Registry()
tool = TOOLS.tool


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    model: str = Field(
        min_length=1, max_length=120, description="model name or size, e.g. 'Llama 3.1 405B', 70B"
    )
    gpu: str | None = Field(default=None, max_length=60, description="GPU, e.g. H100; default H100")
    gpus: int | None = Field(default=None, ge=1, le=10_000_000, description="GPUs available")
    precision: Precision | None = Field(
        default=None, description="default bf16 (train), fp8 (serve)"
    )


class TrainingArgs(_Args):
    training_tokens_t: float = Field(gt=0, le=10_000, description="training tokens, trillions")
    training_days: float | None = Field(
        default=None, gt=0, le=3650, description="days the run may take"
    )
    fine_tuning: bool = Field(default=False, description="a fine-tuning run")
    sequence_tokens: int | None = Field(default=None, ge=128, le=10_000_000, description="sequence")


class InferenceArgs(_Args):
    output_tokens_per_s: float | None = Field(
        default=None, gt=0, le=1e10, description="target output tokens/s in total"
    )
    isl_tokens: int | None = Field(
        default=None, ge=1, le=10_000_000, description="input tokens per request"
    )
    osl_tokens: int | None = Field(
        default=None, ge=1, le=10_000_000, description="output tokens per request"
    )
    ttft_ms: float | None = Field(
        default=None, gt=0, le=1e7, description="time-to-first-token limit"
    )
    tpot_ms: float | None = Field(
        default=None, gt=0, le=1e6, description="time-per-output-token limit"
    )


class BudgetArgs(_Args):
    budget_usd: float = Field(gt=0, le=1e13, description="budget, US dollars")
    price_per_gpu_hour: float | None = Field(
        default=None, gt=0, le=1000, description="USD per GPU-hour; else the catalog's price"
    )
    kind: Literal["training", "fine-tuning", "inference"] = Field(description="what it buys")
    training_tokens_t: float | None = Field(
        default=None, gt=0, le=10_000, description="training tokens, trillions"
    )
    run_days: float | None = Field(
        default=None, gt=0, le=3650, description="days of the run or of serving"
    )
    output_tokens_per_s: float | None = Field(
        default=None, gt=0, le=1e10, description="serving output tokens/s in total"
    )


def _estimate(ctx: ToolContext, fields: dict[str, Any]) -> WorkloadEstimate:
    request = request_from_fields(ctx.catalog, fields)
    return estimate_request(ctx.catalog, request)[0]


def _common(a: _Args) -> dict[str, Any]:
    return {"model": a.model, "gpu": a.gpu, "gpus": a.gpus, "precision": a.precision}


@tool(title="Estimate a training run", mcp="first")
def estimate_training(ctx: ToolContext, a: TrainingArgs) -> WorkloadEstimate:
    """GPUs and days to train a model on a token count (give days for GPUs, or GPUs for days),
    with MFU, goodput, the parallel layout, the method and its error band."""
    return _estimate(
        ctx,
        _common(a)
        | {
            "training_tokens_t": a.training_tokens_t,
            "training_days": a.training_days,
            "sequence_tokens": a.sequence_tokens,
            "workload": "fine-tuning" if a.fine_tuning else "training",
        },
    )


@tool(title="Size a serving deployment", mcp="first")
def estimate_inference(ctx: ToolContext, a: InferenceArgs) -> WorkloadEstimate:
    """GPUs per replica and replicas to serve a model at an output tokens/s target under TTFT
    and TPOT limits, with the latency each replica delivers and the error band."""
    return _estimate(
        ctx,
        _common(a)
        | {
            "workload": "inference",
            "output_tokens_per_s": a.output_tokens_per_s,
            "isl_tokens": a.isl_tokens,
            "osl_tokens": a.osl_tokens,
            "ttft_ms": a.ttft_ms,
            "tpot_ms": a.tpot_ms,
        },
    )


@tool(title="What a budget buys", mcp="first")
def estimate_budget(ctx: ToolContext, a: BudgetArgs) -> WorkloadEstimate:
    """What a budget buys (GPU-hours, GPUs for the days, tokens) or whether a plan fits it, at a
    price per GPU-hour from the arguments or the user's catalog; never a default price."""
    return _estimate(
        ctx,
        _common(a)
        | {
            "workload": a.kind,
            "budget_usd": a.budget_usd,
            "price_per_gpu_hour": a.price_per_gpu_hour,
            "training_tokens_t": a.training_tokens_t,
            "training_days": a.run_days,
            "output_tokens_per_s": a.output_tokens_per_s,
        },
    )
