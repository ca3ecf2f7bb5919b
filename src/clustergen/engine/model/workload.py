"""A workload estimate: what a training run, a serving target or a budget needs in GPUs, days and
dollars, with the method and band it rests on. The same model is the JSON of an estimate and a
design's `workload`."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from clustergen.factories import empty_list

WorkloadKind = Literal["training", "fine-tuning", "inference"]


class InteractivityPoint(BaseModel):
    """One row of the throughput-vs-interactivity table (as NIM and TensorRT-LLM performance
    pages and NVIDIA AIConfigurator present it): what one GPU type serves per GPU when every
    user must get at least `tokens_per_s_per_user`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    gpu: str = Field(description="GPU id")
    precision: str = Field(description="number format on that GPU")
    tokens_per_s_per_user: float = Field(description="output tokens/s each user gets, 1 / TPOT")
    tpot_ms: float = Field(description="the TPOT limit of the row")
    tokens_per_s_per_gpu: float | None = Field(
        description="output tokens/s per GPU at that interactivity; None when no replica meets it"
    )
    gpus_per_replica: int | None = Field(description="GPUs in the replica that does best")
    ttft_ms: float | None = Field(description="TTFT at that load (mean or the percentile asked)")


class PrecisionFigures(BaseModel):
    """One training run at one number format: what the estimate's figures become at it (shown
    for BF16 and FP8 side by side when the request did not say which)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    precision: str = Field(description="bf16 or fp8")
    mfu: float = Field(description="model FLOPs utilisation of that format's dense peak")
    tokens_per_s_per_gpu: float = Field(description="training tokens/s per GPU while running")
    gpus: int | None = Field(description="GPUs of the run at that format; None when not fixed")
    days: float | None = Field(description="wall-clock days at that format")
    gpu_hours: float | None = Field(description="GPU-hours at that format")
    assumed: bool = Field(description="whether this is the format the estimate's figures are at")


class WorkloadEstimate(BaseModel):
    """GPUs, time and cost for a workload on one GPU type, labelled as an estimate: its method,
    its error band and its sources. Fields that do not apply to the kind are None."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: WorkloadKind
    model: str | None = Field(description="catalog model id; None for a bare parameter count")
    model_params_b: float = Field(description="total parameters, billions")
    active_params_b: float = Field(description="parameters used per token, billions")
    precision: str = Field(description="bf16, fp16, fp8 or fp4")
    gpu: str = Field(description="GPU id the estimate is for")
    tokens_per_s_per_gpu: float | None = Field(
        description="training tokens/s per GPU, or output tokens/s per GPU when serving"
    )
    mfu: float | None = Field(description="model FLOPs utilisation of the dense peak (training)")
    goodput: float | None = Field(description="share of wall time spent training (training)")
    gpus_required: int | None = Field(description="GPUs the plan uses")
    days: float | None = Field(description="wall-clock days of the run or of serving the budget")
    hours: float | None = Field(
        default=None, description="the same wall-clock time in hours (short jobs read in hours)"
    )
    gpu_hours: float | None
    gpus_per_replica: int | None = Field(description="GPUs serving one model copy (inference)")
    replicas: int | None = Field(description="model copies serving the target (inference)")
    ttft_ms: float | None = Field(description="expected time to first token (inference)")
    tpot_ms: float | None = Field(description="expected time per output token (inference)")
    tokens_per_s_per_user: float | None = Field(
        default=None, description="output tokens/s each user gets at the target load, 1 / TPOT"
    )
    latency_percentile: float | None = Field(
        default=None, description="percentile (0-1) TTFT is given at; None for the mean"
    )
    training_method: str | None = Field(
        default=None, description="full, lora, qlora or continued-pretraining (training)"
    )
    cost_usd: float | None = Field(description="GPU-hours x price; None without a price")
    price_per_gpu_hour: float | None = Field(description="USD, from the request or the catalog")
    usd_per_million_output_tokens: float | None = Field(
        default=None,
        description="serving: the GPUs' hourly price over the output tokens they deliver at the "
        "sized load, USD per million; None without a price",
    )
    usd_per_million_input_tokens: float | None = Field(
        default=None,
        description="serving: the share of the GPUs' hourly price spent reading prompts over the "
        "input tokens read, USD per million; None without a price",
    )
    usd_per_million_total_tokens: float | None = Field(
        default=None,
        description="serving: the GPUs' hourly price over input and output tokens together, USD "
        "per million; None without a price",
    )
    prompt_gpu_share: float | None = Field(
        default=None,
        description="serving: share of the GPUs' time spent on prompts at the sized load (the "
        "prefill pool's GPUs when disaggregated); what prices input tokens apart from output",
    )
    output_tokens_per_s_per_mw: float | None = Field(
        default=None,
        description="serving: output tokens/s per MW provisioned (the system's maximum power per "
        "GPU, else the GPU's TDP) with every replica at full load",
    )
    output_tokens_per_s_per_mw_at_load: float | None = Field(
        default=None,
        description="serving: output tokens/s per MW provisioned at the target load",
    )
    cost_basis: str | None = Field(
        default=None, description="how the cost was reckoned and where the price came from"
    )
    feasible: bool = Field(description="whether the plan meets every stated target and limit")
    band_pct: float = Field(description="the stated error band, +/- percent")
    reserve_days: float | None = Field(
        default=None,
        description="training: days of the stated duration held back for evaluation, "
        "rollbacks and restarts; the run is sized to finish before them",
    )
    by_precision: list[PrecisionFigures] = Field(
        default_factory=empty_list,
        description="training with no precision given: the run at BF16 and at FP8, the assumed "
        "one marked (the estimate's figures are at it)",
    )
    method: str = Field(description="how the figures were made, in one paragraph")
    sources: list[str] = Field(description="catalog entries and documents the figures rest on")
    interactivity: list[InteractivityPoint] = Field(
        default_factory=empty_list,
        description="output tokens/s per GPU against tokens/s per user, per GPU type (serving)",
    )
    meets_on: list[str] = Field(
        default_factory=empty_list,
        description="GPUs and replica layouts that meet what this one does not",
    )
    warnings: list[str] = Field(
        default_factory=empty_list, description="what to know before relying on the figures"
    )
