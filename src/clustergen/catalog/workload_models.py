"""Pydantic models for the workload catalogs: language-model architectures, published throughput
rows and hourly prices.

Kept apart from `models.py` (the hardware) because they answer a different question: what a
workload costs, not what a cluster is built from. The same rules hold: every entry carries its
source and date, unknown is None, units are in the field names.
"""

from typing import Annotated, Literal

from pydantic import Field, model_validator

from clustergen.catalog.models import Entry, Strict
from clustergen.catalog.refs import Ref

#: number formats a workload can run in; "fp4" covers NVFP4 and MXFP4
Precision = Literal["bf16", "fp16", "fp8", "fp4"]

_Count = Field(default=None, gt=0)


class LanguageModel(Entry, kind="models", file="models.yaml"):
    """A language model's architecture, as its config file and model card publish it."""

    family: str = Field(min_length=1, description="model family, e.g. llama, qwen, deepseek")
    architecture: Literal["dense", "moe"]
    params_b: float = Field(gt=0, description="total parameters, billions")
    active_params_b: float = Field(gt=0, description="parameters used per token, billions")
    layers: int | None = _Count
    hidden_size: int | None = _Count
    intermediate_size: int | None = Field(default=None, gt=0, description="FFN width, dense layers")
    moe_intermediate_size: int | None = Field(default=None, gt=0, description="one expert's FFN")
    attention_heads: int | None = _Count
    kv_heads: int | None = _Count
    head_dim: int | None = Field(default=None, gt=0, description="per-head K/V width; None for MLA")
    vocab_size: int | None = _Count
    context_tokens: int | None = _Count
    experts: int | None = Field(default=None, gt=0, description="routed experts per MoE layer")
    experts_per_token: int | None = _Count
    shared_experts: int | None = Field(default=None, ge=0)
    dense_layers: int | None = Field(default=None, ge=0, description="leading dense FFN layers")
    attention: str | None = Field(default=None, description="mha, gqa, mla, sliding+global, ...")
    full_attention_layers: int | None = Field(
        default=None, ge=0, description="layers keeping a full-length KV cache"
    )
    sliding_window: int | None = Field(default=None, gt=0, description="window of the others")
    kv_lora_rank: int | None = Field(default=None, gt=0, description="MLA latent KV width")
    q_lora_rank: int | None = _Count
    qk_rope_head_dim: int | None = _Count
    qk_nope_head_dim: int | None = _Count
    v_head_dim: int | None = _Count
    tied_embeddings: bool | None = None
    release_dtype: str | None = Field(default=None, description="weights as published")
    training_precision: Literal["bf16", "fp8", "fp4"] | None = Field(
        default=None, description="number format its authors pre-trained it in, where published"
    )
    training_sequence_tokens: int | None = Field(
        default=None, gt=0, description="sequence length of its main pre-training, where published"
    )

    @model_validator(mode="after")
    def _active_within_total(self) -> "LanguageModel":
        if self.active_params_b > self.params_b * 1.0001:
            raise ValueError("active_params_b exceeds params_b")
        if self.architecture == "moe" and not (self.experts and self.experts_per_token):
            raise ValueError("a moe model needs experts and experts_per_token")
        return self


class TrainingRow(Entry, kind="training_throughput", file="training_throughput.yaml"):
    """One published training figure: tokens/s per GPU for a model on `gpus` GPUs at a precision
    and sequence length, with the software that made it (the same hardware gains a quarter within
    a year of software)."""

    model: Annotated[str, Ref("models")] = Field(description="model id in models.yaml")
    gpu: Annotated[str, Ref("gpus")] = Field(description="GPU id in gpus.yaml")
    gpus: int = Field(gt=0, description="GPUs in the measured job")
    precision: Precision
    sequence_tokens: int = Field(gt=0)
    tokens_per_s_per_gpu: float = Field(gt=0)
    model_tflops_per_gpu: float | None = Field(
        default=None, gt=0, description="the publisher's model TFLOP/s per GPU, where given"
    )
    software: str = Field(min_length=1, description="framework and version or container")


class ShapePoint(Strict):
    """One input/output length of a serving table and its output tokens/s per GPU."""

    isl_tokens: int = Field(gt=0)
    osl_tokens: int = Field(gt=0)
    tokens_per_s_per_gpu: float = Field(gt=0)


class InferenceTable(Entry, kind="inference_throughput", file="inference_throughput.yaml"):
    """One column of a published serving table: a model on one replica of `tp` GPUs at a
    precision, with the software that measured it, and its max-throughput output tokens/s per GPU
    at each input/output length."""

    model: Annotated[str, Ref("models")] = Field(description="model id in models.yaml")
    gpu: Annotated[str, Ref("gpus")] = Field(description="GPU id in gpus.yaml")
    tp: int = Field(gt=0, description="GPUs per replica (the TP or DEP degree)")
    layout: Literal["tp", "dep"] = Field(
        default="tp",
        description="tp: tensor parallel; dep: attention data parallel with expert parallelism",
    )
    precision: Precision
    software: str = Field(min_length=1, description="framework and version")
    points: list[ShapePoint] = Field(min_length=1)


class HourlyPrice(Entry, kind="hourly_prices", file="hourly_prices.yaml"):
    """A rental price: per GPU-hour for a GPU, or per node-hour for a system. Prices are volatile
    and never built in: they come from a user's catalog layer (`--catalog DIR`)."""

    gpu: Annotated[str, Ref("gpus")] | None = Field(default=None, description="GPU id in gpus.yaml")
    system: Annotated[str, Ref("systems")] | None = Field(
        default=None, description="system id in systems.yaml"
    )
    usd_per_gpu_hour: float | None = Field(default=None, gt=0)
    usd_per_node_hour: float | None = Field(default=None, gt=0)

    @model_validator(mode="after")
    def _one_price(self) -> "HourlyPrice":
        if (self.gpu is None) == (self.system is None):
            raise ValueError("a price names exactly one of gpu or system")
        if self.gpu is not None and self.usd_per_gpu_hour is None:
            raise ValueError("a GPU price needs usd_per_gpu_hour")
        if self.system is not None and self.usd_per_node_hour is None:
            raise ValueError("a system price needs usd_per_node_hour")
        return self


#: the MLPerf Inference datacenter scenarios an LLM benchmark is run in
MlperfScenario = Literal["offline", "server", "interactive"]


class ScenarioLimits(Strict):
    """One scenario's latency limits, both at the 99th percentile; None where it has none
    (Offline: every query is issued at once and only throughput is measured)."""

    ttft_p99_ms: float | None = Field(default=None, gt=0, description="time to first token")
    tpot_p99_ms: float | None = Field(default=None, gt=0, description="time per output token")


class MlperfBenchmark(
    Entry, kind="mlperf_benchmarks", file="mlperf_benchmarks.yaml", noun="MLPerf benchmark"
):
    """An MLPerf Inference datacenter LLM benchmark as MLCommons defines it: the model, the
    dataset's mean prompt and answer, and the latency limits of each scenario it is run in."""

    model: Annotated[str, Ref("models")] = Field(description="model id in models.yaml")
    benchmark: str = Field(min_length=1, description="MLCommons' name, e.g. llama2-70b")
    dataset: str = Field(min_length=1)
    isl_tokens: int | None = Field(default=None, gt=0, description="dataset's mean prompt")
    osl_tokens: int | None = Field(default=None, gt=0, description="reference's mean answer")
    scenarios: dict[MlperfScenario, ScenarioLimits] = Field(min_length=1)

    @model_validator(mode="after")
    def _latency_scenarios_have_limits(self) -> "MlperfBenchmark":
        for name, limits in self.scenarios.items():
            bound = limits.ttft_p99_ms is not None or limits.tpot_p99_ms is not None
            if bound != (name != "offline"):
                raise ValueError(f"{name}: only the server and interactive scenarios hold limits")
        return self
