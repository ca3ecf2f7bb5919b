"""A workload request's silences resolved once: which model, GPU, precision, shape and run
length, each default recorded as an `Assumed` (with the catalog assumption it comes from), so the
estimate, the design and the terminal all say the same thing."""

from __future__ import annotations

import re
from typing import NamedTuple

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Gpu, System, normalise_name
from clustergen.catalog.workload_models import LanguageModel
from clustergen.engine.model.common import Assumed
from clustergen.engine.model.request import WORKLOAD_TARGETS, DesignRequest
from clustergen.engine.model.workload import WorkloadKind
from clustergen.engine.sizing.workload.budget import Price, price_for
from clustergen.engine.sizing.workload.llm import Arch, arch_of
from clustergen.errors import CatalogGapError, RequestError

#: request fields that ask for serving rather than training
_SERVING_FIELDS = ("output_tokens_per_s", "ttft_ms", "tpot_ms", "isl_tokens", "osl_tokens")

_BARE_SIZE = re.compile(r"^\d+(?:\.\d+)?[bt]$")


def constant(catalog: Catalog, name: str) -> float:
    """A numeric named default of the workload model (assumptions.yaml)."""
    return float(catalog.assumption(name).value)


class WorkloadInputs(NamedTuple):
    """Everything an estimator needs, resolved; `assumed` says which were defaults."""

    kind: WorkloadKind
    arch: Arch
    label: str
    gpu: Gpu
    system: System | None
    nvlink_gpus: int
    precision: str
    sequence: int
    tokens: float | None
    days: float | None
    days_assumed: bool
    gpus: int | None
    isl: int
    osl: int
    target_tokens_per_s: float | None
    ttft_s: float | None
    tpot_s: float | None
    budget_usd: float | None
    price: Price | None
    model_source: str | None
    assumed: list[Assumed]
    #: the latency figures and limits are read at this percentile (0-1); None: the mean
    percentile: float | None = None
    #: whether the TPOT limit is the default interactivity rather than the request's
    tpot_assumed: bool = False
    #: training method: full, lora, qlora or continued-pretraining
    method: str = "full"
    #: serving regime: True interactive (people wait), False offline (batch), None not said
    interactive: bool | None = None
    #: the serving stack asked for: engine (None: TensorRT-LLM), disaggregated prefill/decode
    #: (None: aggregated, the other weighed), speculative decoding
    engine: str | None = None
    disaggregated: bool | None = None
    speculative: bool | None = None
    #: GPUs a model copy is split over, as the request fixes it (None: the estimator chooses)
    tensor_parallel_gpus: int | None = None
    #: days of a stated duration held back for evaluation, rollbacks and restarts: the run is
    #: sized to finish in `days`, the deadline is `days + reserve_days`
    reserve_days: float = 0.0


def schedule_reserve(catalog: Catalog, request: DesignRequest) -> tuple[float, Assumed | None]:
    """Days of a training deadline held back, and how they were chosen: the request's own
    buffer ("with two weeks of buffer", "leave 10% slack"), else the catalog's default share.
    A buffer the request names is this reserve, never a second deadline."""
    days = request.training_days
    if not days or not request.training_tokens_t:
        return 0.0, None
    if request.schedule_reserve_days is not None:
        reserve = request.schedule_reserve_days
        if reserve >= days:
            raise RequestError(
                f"the {reserve:g}-day reserve leaves no time of the {days:g} days to train",
                field="schedule_reserve_days",
                value=reserve,
                hint="a reserve is part of the duration: give a shorter one",
            )
        why, source = "the request's own buffer", None
    else:
        stated = request.schedule_reserve_share
        a = None if stated is not None else catalog.assumption("schedule-reserve")
        share = float(a.value) if a is not None else stated or 0.0
        reserve = days * share
        why = "the request's own share" if a is None else "the default reserve"
        source = None if a is None else a.source
    reason = (
        f"sized to finish in {days - reserve:,.1f} of the {days:g} days: {reserve:,.1f} days "
        f"({reserve / days:.0%}, {why}) held back for evaluation, rollbacks and restarts "
        "beyond the modelled goodput"
    )
    return reserve, Assumed(
        field="schedule_reserve_days", value=f"{reserve:.4g}", reason=reason, source=source
    )


def workload_kind(request: DesignRequest) -> WorkloadKind:
    """Serving when the request names a serving target or limit (or says inference)."""
    if request.workload == "inference" or any(getattr(request, f) for f in _SERVING_FIELDS):
        return "inference"
    return "fine-tuning" if request.workload == "fine-tuning" else "training"


def wants_estimate(request: DesignRequest) -> bool:
    """A model is named and something says what to size it for."""
    if not (request.model or request.model_params_b):
        return False
    if any(getattr(request, f) for f in WORKLOAD_TARGETS):
        return True
    return bool(request.workload or request.gpus or request.nodes)


def bare_size_model(catalog: Catalog, params_b: float) -> LanguageModel | None:
    """The catalog model a bare size such as "70B" is an alias of, if exactly that alias exists."""
    key = normalise_name(f"{params_b:g}b")
    for m in catalog.all("models", LanguageModel):
        if any(normalise_name(a) == key for a in m.aliases if _BARE_SIZE.match(a.lower())):
            return m
    return None


def resolve_model(catalog: Catalog, request: DesignRequest) -> tuple[Arch, str, list[Assumed]]:
    """The model's figures, a label for it and what was assumed to get them."""
    assumed: list[Assumed] = []
    model = catalog.model(request.model) if request.model else None
    size = request.model_params_b
    if model is not None and size and abs(size - model.params_b) > 0.1 * model.params_b:
        raise RequestError(
            f"the request names {model.name} ({model.params_b:g}B) and also a {size:g}B model",
            hint="name one model",
        )
    if model is None and size:
        model = bare_size_model(catalog, size)
        if model is not None:
            assumed.append(
                Assumed(
                    field="model",
                    value=model.id,
                    reason=f"'{size:g}B' read as {model.name}, the catalog's model of that size",
                    source=model.source,
                )
            )
    _check_active(model, request.active_params_b)
    arch = arch_of(model, size)
    if model is None and size and request.active_params_b:  # a bare MoE size: "671B, 37B active"
        arch = Arch(params=size * 1e9, active=request.active_params_b * 1e9)
        label = f"{size:g}B MoE, {request.active_params_b:g}B active (no catalog architecture)"
        return arch, label, assumed
    if arch is None:  # pragma: no cover - callers check wants_estimate first
        raise RequestError("no model to size", hint="name a model or its size, e.g. 70B")
    label = model.name if model else f"{size:g}B dense (no catalog architecture)"
    return arch, label, assumed


def _check_active(model: LanguageModel | None, active_b: float | None) -> None:
    """A stated active size must be the named model's (within 10%)."""
    if model is None or not active_b:
        return
    if abs(active_b - model.active_params_b) > 0.1 * model.active_params_b:
        raise RequestError(
            f"the request says {active_b:g}B active, and {model.name} has "
            f"{model.active_params_b:g}B active per token",
            hint="drop the active size or name the model it belongs to",
        )


def unmodelled_warnings(request: DesignRequest, kind: WorkloadKind) -> list[str]:
    """What the request says that does not apply to the workload it sizes, each as one line:
    said, never silently ignored. (Methods, percentiles and interactivity are modelled: the
    estimate carries them.)"""
    out: list[str] = []
    if kind == "inference" and request.sequence_tokens:
        out.append(
            f"sequence length {request.sequence_tokens:,} is a training figure and does not "
            "size serving: give input and output tokens per request"
        )
    if kind == "inference" and request.training_method:
        out.append(f"training method {request.training_method} does not apply to serving")
    return out


def resolve_gpu(
    catalog: Catalog, request: DesignRequest, system: System | None
) -> tuple[Gpu, System | None, list[Assumed]]:
    """The GPU the estimate is for: the platform's, the request's, else the catalog default."""
    if system is not None:
        return catalog.gpu(system.gpu or ""), system, []
    if request.platform:
        named = catalog.system(request.platform)
        return catalog.gpu(named.gpu or ""), named, []
    if request.gpu:
        return catalog.gpu(request.gpu), None, []
    a = catalog.assumption("estimate-gpu")
    gpu = catalog.gpu(str(a.value))
    note = Assumed(
        field="gpu",
        value=gpu.id,
        reason="no GPU or platform given; `design` sizes every platform instead",
        source=a.source,
    )
    return gpu, None, [note]


def nvlink_domain(catalog: Catalog, gpu: Gpu, system: System | None) -> int:
    """GPUs one NVLink domain joins: the system's node, else the largest node built on the GPU."""
    if system is not None and system.gpus_per_node:
        return system.gpus_per_node
    sizes = [s.gpus_per_node for s in catalog.all("systems", System) if s.gpu == gpu.id]
    return max(sizes, default=8)


def dense_field(precision: str) -> str:
    """The GPU field holding the dense peak at `precision` (FP16 runs at the BF16 rate)."""
    return "bf16_dense_tflops" if precision in ("bf16", "fp16") else f"{precision}_dense_tflops"


def resolve_precision(
    catalog: Catalog,
    request: DesignRequest,
    kind: WorkloadKind,
    gpu: Gpu,
    model: LanguageModel | None = None,
) -> tuple[str, list[Assumed]]:
    """The request's number format; else, for training, the one the model's authors trained it
    in (where published and the GPU has it); else FP8 where the GPU has it (2025-era training
    and the published serving tables), BF16 on GPUs without it."""
    if request.precision:
        peak = {"bf16": gpu.bf16_dense_tflops, "fp16": gpu.bf16_dense_tflops}.get(
            request.precision, getattr(gpu, f"{request.precision}_dense_tflops", None)
        )
        if not peak:
            raise CatalogGapError(
                f"{gpu.name} has no published dense {request.precision.upper()} throughput",
                entry=gpu.id,
                field=dense_field(request.precision),
                hint="use bf16, a GPU that has that precision, or add it in a layered catalog",
            )
        return request.precision, []
    # the authors' format reproduces a named model's run; a bare size ("a 70B model") is a new
    # run, so it takes the GPU generation's format
    named = model is not None and bool(request.model) and kind == "training"
    trained = model.training_precision if named and model is not None else None
    if model is not None and trained and getattr(gpu, f"{trained}_dense_tflops", None):
        reason = f"precision not given: {model.name} was pre-trained in {trained.upper()}"
        source = model.source_of("training_precision")
        return trained, [Assumed(field="precision", value=trained, reason=reason, source=source)]
    name = {"training": "training-precision", "fine-tuning": "fine-tuning-precision"}.get(
        kind, "inference-precision"
    )
    a = catalog.assumption(name)
    precision, reason = str(a.value), "precision not given"
    if getattr(gpu, f"{precision}_dense_tflops", None) is None:
        precision = "bf16"
        reason += f": {gpu.name} has no {str(a.value).upper()} tensor-core rate, so BF16"
    elif kind == "training":
        reason += f": {precision.upper()}, as runs on {gpu.architecture or gpu.name} GPUs train"
    note = Assumed(field="precision", value=precision, reason=reason, source=a.source)
    return precision, [note]


def resolve_shape(
    catalog: Catalog, request: DesignRequest, kind: WorkloadKind, arch: Arch
) -> tuple[int, int, int, list[Assumed]]:
    """(training sequence, input tokens, output tokens) with the defaults taken."""
    assumed: list[Assumed] = []

    def default(name: str, reason: str) -> int:
        a = catalog.assumption(name)
        value = int(float(a.value))
        assumed.append(Assumed(field=name, value=f"{value}", reason=reason, source=a.source))
        return value

    sequence = request.sequence_tokens or 0
    isl = request.isl_tokens or 0
    osl = request.osl_tokens or 0
    if kind == "inference":
        isl = isl or default("isl-tokens", "input tokens per request not given")
        osl = osl or default("osl-tokens", "output tokens per request not given")
    elif not sequence and arch.model is not None and arch.model.training_sequence_tokens:
        m = arch.model
        sequence = m.training_sequence_tokens or 0
        reason = f"training sequence not given: {m.name} was pre-trained at {sequence:,} tokens"
        source = m.source_of("training_sequence_tokens")
        assumed.append(
            Assumed(field="sequence-tokens", value=f"{sequence}", reason=reason, source=source)
        )
    elif not sequence:
        context = arch.model.context_tokens if arch.model else None
        sequence = default("sequence-tokens", "training sequence not given")
        if context and context < sequence:
            sequence = context
            assumed[-1] = assumed[-1].model_copy(
                update={
                    "value": f"{context}",
                    "reason": f"training sequence not given: the model's {context:,}-token context",
                }
            )
    return sequence or 8192, isl or 1, osl or 1, assumed


def request_percentile(request: DesignRequest, default: float | None = None) -> float | None:
    """The percentile the request's latency limits are at (0-1), from a field such as 'p99'
    where the request carries one, else `default` (None: the mean)."""
    for name in ("latency_percentile", "percentile"):
        value = getattr(request, name, None)
        if value:
            return float(value) / 100 if float(value) > 1 else float(value)
    return default


def resolve_tpot(
    catalog: Catalog, request: DesignRequest, kind: WorkloadKind
) -> tuple[float | None, bool, list[Assumed]]:
    """The TPOT limit in seconds: the request's (or its tokens/s per user); none for offline
    (batch) serving; else, for an open-ended serving request, the default interactivity, stated
    as an assumption; and whether it was assumed."""
    if request.tpot_ms:
        return request.tpot_ms / 1e3, False, []
    per_user = getattr(request, "tokens_per_s_per_user", None)
    if per_user:
        return 1 / float(per_user), False, []
    if kind != "inference" or request.interactive is False:
        # offline (batch) serving: no one waits on a reply, so no per-user rate caps the batch;
        # the replica runs at its maximum throughput (MLPerf's offline scenario)
        return None, False, []
    a = catalog.assumption("tpot-ms")
    tpot_ms = float(a.value)
    note = Assumed(
        field="tpot_ms",
        value=f"{tpot_ms:g}",
        reason=f"no interactivity given: held to TPOT <= {tpot_ms:g} ms, "
        f"{1e3 / tpot_ms:g} output tokens/s per user",
        source=a.source,
    )
    return tpot_ms / 1e3, True, [note]


def request_method(request: DesignRequest) -> str:
    """The training method the request names (full, lora, qlora, continued-pretraining)."""
    value = getattr(request, "training_method", None)
    return str(value).lower().replace("_", "-") if value else "full"


def resolve_price(
    catalog: Catalog, request: DesignRequest, gpu: Gpu, system: System | None
) -> Price | None:
    """The price per GPU-hour, or None when neither the request nor the catalog gives one."""
    return price_for(catalog, request, gpu, system)


def _request_gpus(request: DesignRequest, system: System | None) -> int | None:
    if request.gpus:
        return request.gpus
    if request.nodes and system is not None and system.gpus_per_node:
        return request.nodes * system.gpus_per_node
    return None


def _check_tensor_parallel(tp: int | None, arch: Arch, label: str) -> None:
    """A tensor-parallel width splits every layer's attention heads (and key/value heads, where
    there are fewer of them than GPUs, they are copied): the heads must divide evenly."""
    heads = arch.model.attention_heads if arch.model else None
    if tp is None or tp == 1 or not heads or heads % tp == 0:
        return
    fits = [t for t in (1, 2, 4, 8, 16, 32, 64) if heads % t == 0]
    raise RequestError(
        f"TP{tp} does not divide {label}'s {heads} attention heads evenly",
        hint=f"ask for TP{', TP'.join(str(t) for t in fits)}",
        field="tensor_parallel_gpus",
        value=tp,
    )


def resolve_workload(
    catalog: Catalog,
    request: DesignRequest,
    system: System | None = None,
    percentile: float | None = None,
) -> WorkloadInputs:
    """Every input of a workload estimate on `system` (or on the request's GPU, or the default
    GPU), resolved once with its defaults recorded; latency at the request's percentile, else
    at `percentile` (None: the mean)."""
    kind = workload_kind(request)
    arch, label, assumed = resolve_model(catalog, request)
    _check_tensor_parallel(request.tensor_parallel_gpus, arch, label)
    gpu, system, gpu_notes = resolve_gpu(catalog, request, system)
    precision, precision_notes = resolve_precision(catalog, request, kind, gpu, arch.model)
    sequence, isl, osl, shape_notes = resolve_shape(catalog, request, kind, arch)
    tpot_s, tpot_assumed, tpot_notes = resolve_tpot(catalog, request, kind)
    assumed += gpu_notes + precision_notes + shape_notes + tpot_notes
    gpus = _request_gpus(request, system)
    days, days_assumed = request.training_days, False
    reserve = 0.0
    if kind != "inference":
        reserve, reserved = schedule_reserve(catalog, request)
        if reserved is not None and days is not None:
            days -= reserve
            assumed.append(reserved)
    wants_length = request.training_tokens_t or request.budget_usd
    if kind != "inference" and days is None and gpus is None and wants_length:
        a = catalog.assumption("run-days")
        days, days_assumed = float(a.value), True
        assumed.append(
            Assumed(
                field="training_days",
                value=f"{days:g}",
                reason="neither a duration nor a GPU count given: GPUs sized for this run length",
                source=a.source,
            )
        )
    return WorkloadInputs(
        kind=kind,
        arch=arch,
        label=label,
        gpu=gpu,
        system=system,
        nvlink_gpus=nvlink_domain(catalog, gpu, system),
        precision=precision,
        sequence=sequence,
        tokens=request.training_tokens_t * 1e12 if request.training_tokens_t else None,
        days=days,
        days_assumed=days_assumed,
        gpus=gpus,
        isl=isl,
        osl=osl,
        target_tokens_per_s=request.output_tokens_per_s,
        ttft_s=request.ttft_ms / 1e3 if request.ttft_ms else None,
        tpot_s=tpot_s,
        budget_usd=request.budget_usd,
        price=resolve_price(catalog, request, gpu, system),
        model_source=arch.model.source if arch.model else None,
        assumed=assumed,
        percentile=request_percentile(request, percentile),
        tpot_assumed=tpot_assumed,
        interactive=request.interactive,
        engine=request.serving_engine,
        disaggregated=request.disaggregated,
        speculative=request.speculative_decoding,
        tensor_parallel_gpus=request.tensor_parallel_gpus,
        method=request_method(request),
        reserve_days=reserve,
    )
