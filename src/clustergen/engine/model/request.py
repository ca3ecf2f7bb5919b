"""What the customer asked for, as typed fields."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from clustergen.engine.model.bounds import (
    MAX_GPUS,
    MAX_NODES,
    MAX_POWER_W,
    TINY,
    Oversubscription,
    Pue,
    RackKw,
)
from clustergen.engine.model.storage import Layout

#: longest request text read (a request is a paragraph; a book is not a request)
MAX_REQUEST_CHARS = 20_000

Workload = Literal["training", "fine-tuning", "inference", "mixed"]


Fabric = Literal["infiniband", "ethernet"]


Cooling = Literal["air", "liquid"]


Tier = Literal["good", "better", "best"]


Objective = Literal["most-gpus"]
Precision = Literal["bf16", "fp16", "fp8", "fp4"]
TrainingMethod = Literal["full", "lora", "qlora", "continued-pretraining"]


#: fields that, with a model, say what to size its workload for: training tokens or days, a
#: budget, a serving target, limit or request shape
WORKLOAD_TARGETS = (
    "training_tokens_t",
    "training_days",
    "budget_usd",
    "output_tokens_per_s",
    "ttft_ms",
    "tpot_ms",
    "isl_tokens",
    "osl_tokens",
)


def sizes_workload(fields: Mapping[str, object]) -> bool:
    """Whether request fields name a model and something to size it for (or say inference)."""
    if not (fields.get("model") or fields.get("model_params_b")):
        return False
    return fields.get("workload") == "inference" or any(fields.get(f) for f in WORKLOAD_TARGETS)


class DesignRequest(BaseModel):
    """What the customer asked for. Every field is optional; the planner fills and reports gaps."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    text: str | None = Field(
        default=None, max_length=MAX_REQUEST_CHARS, description="the request as written"
    )
    gpus: int | None = Field(default=None, ge=1, le=MAX_GPUS)
    nodes: int | None = Field(default=None, ge=1, le=MAX_NODES)
    power_cap_w: float | None = Field(
        default=None, ge=1, le=MAX_POWER_W, description="at most 10 GW: larger reads as a unit slip"
    )
    power_cap_basis: Literal["it", "facility"] | None = None
    pue: Pue | None = None
    workload: Workload | None = None
    gpu: str | None = Field(default=None, description="GPU id")
    platform: str | None = Field(default=None, description="system id")
    fabric: Fabric | None = None
    oversubscription: Oversubscription | None = None
    rack_power_kw: RackKw | None = None
    cooling: Cooling | None = None
    storage_tier: Tier | None = None
    objective: Objective | None = Field(
        default=None,
        description=(
            "what the trade study maximises: most-gpus (the most GPUs, e.g. 'max GPUs under "
            "0.5 MW'); None ranks by dense PFLOPS per MW"
        ),
    )
    model: str | None = Field(default=None, description="language model id in models.yaml")
    model_params_b: float | None = Field(
        default=None, ge=TINY, le=100_000, description="billions of parameters"
    )
    active_params_b: float | None = Field(
        default=None,
        ge=TINY,
        le=100_000,
        description="billions of parameters active per token (mixture of experts), e.g. 37",
    )
    training_method: TrainingMethod | None = Field(
        default=None,
        description=(
            "how the weights are trained: full (every weight), lora (low-rank adapters), qlora "
            "(adapters on 4-bit base weights) or continued-pretraining"
        ),
    )
    training_tokens_t: float | None = Field(
        default=None, ge=TINY, le=10_000, description="trillions of training tokens"
    )
    training_days: float | None = Field(
        default=None, ge=TINY, le=3650, description="wall-clock days the run may take"
    )
    precision: Precision | None = Field(default=None, description="number format of the math")
    sequence_tokens: int | None = Field(
        default=None, ge=128, le=10_000_000, description="training sequence length"
    )
    output_tokens_per_s: float | None = Field(
        default=None, ge=TINY, le=1e10, description="serving target, output tokens/s in total"
    )
    isl_tokens: int | None = Field(
        default=None, ge=1, le=10_000_000, description="input (prompt) tokens per request"
    )
    osl_tokens: int | None = Field(
        default=None, ge=1, le=10_000_000, description="output tokens per request"
    )
    ttft_ms: float | None = Field(
        default=None, ge=TINY, le=1e7, description="time-to-first-token limit"
    )
    tpot_ms: float | None = Field(
        default=None, ge=TINY, le=1e6, description="time-per-output-token limit"
    )
    latency_percentile: float | None = Field(
        default=None,
        ge=50,
        lt=100,
        description="percentile the TTFT/TPOT limits hold at (p99 -> 99); None: typical request",
    )
    interactive: bool | None = Field(
        default=None,
        description="people wait on each reply (chat); False: offline batch serving",
    )
    budget_usd: float | None = Field(default=None, ge=TINY, le=1e13, description="spend limit, USD")
    price_per_gpu_hour: float | None = Field(
        default=None, ge=TINY, le=1000, description="USD per GPU-hour"
    )
    price_per_node_hour: float | None = Field(
        default=None, ge=TINY, le=100_000, description="USD per node-hour of the platform"
    )
    dataset_layout: Layout | None = Field(
        default=None, description="how the training data is stored"
    )
    sample_mb: float | None = Field(
        default=None, ge=TINY, le=1e6, description="one sample (one file) in MB, 1 GB = 1000 MB"
    )
    checkpoint_gb: float | None = Field(
        default=None, ge=TINY, le=1e7, description="one training checkpoint in GB"
    )
    understood: list[str] = Field(default_factory=list, description="phrase -> field, as read")
    not_understood: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _pue_needs_facility(self) -> DesignRequest:
        if self.power_cap_w is None and self.power_cap_basis is not None:
            raise ValueError("power_cap_basis given without power_cap_w")
        return self
