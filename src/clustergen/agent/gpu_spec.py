"""Ask the model for a GPU the catalog lacks (the seed prototype did). The answer is labelled
model-provided and unverified, checked for plausibility, and never written to the catalog."""

from __future__ import annotations

import datetime as dt
import json

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from clustergen.agent import prompts
from clustergen.agent.client import ChatClient
from clustergen.agent.jsontext import json_object
from clustergen.agent.settings import AgentSettings
from clustergen.catalog.models import normalise_name
from clustergen.engine.calculators.specs import GpuSpec
from clustergen.errors import AgentError
from clustergen.redact import redact_known_model

# Plausible ranges: an answer outside them is dropped (null), not shown.
_BOUNDS: dict[str, tuple[float, float]] = {
    "memory_gb": (1, 4096),
    "memory_bandwidth_gb_per_s": (10, 100_000),
    "bf16_dense_tflops": (1, 100_000),
    "fp8_dense_tflops": (1, 200_000),
    "fp4_dense_tflops": (1, 400_000),
    "tdp_w": (10, 10_000),
}


class ModelAnswer(BaseModel):
    """What the model is asked to fill."""

    model_config = ConfigDict(extra="ignore")

    name: str | None = Field(default=None, description="full product name")
    vendor: str | None = None
    memory_gb: float | None = None
    memory_type: str | None = None
    memory_bandwidth_gb_per_s: float | None = None
    bf16_dense_tflops: float | None = None
    fp8_dense_tflops: float | None = None
    fp4_dense_tflops: float | None = None
    tdp_w: float | None = None
    form_factor: str | None = None


def _fields() -> str:
    return json.dumps(
        {k: f.description or "" for k, f in ModelAnswer.model_fields.items()}, indent=1
    )


def _parse(content: str) -> ModelAnswer:
    data = json_object(content)
    if data is None:
        raise AgentError("the model's GPU answer was not a JSON object; nothing is shown")
    try:
        return ModelAnswer.model_validate(data)
    except ValidationError:
        raise AgentError("the model's GPU answer did not validate; nothing is shown") from None


def ask_gpu_spec(name: str, client: ChatClient, settings: AgentSettings) -> GpuSpec:
    """The model's answer for `name`, as a GpuSpec marked unverified."""
    reply = client.complete(
        [
            {
                "role": "user",
                "content": prompts.render("gpu_spec", gpu_name=name, fields=_fields()),
            },
        ]
    )
    answer = _parse(reply.content or "")
    notes = [
        "MODEL-PROVIDED, UNVERIFIED: not from the catalog and not checked against a published "
        "source; do not design with it until it is added to a catalog with its source",
    ]
    values = answer.model_dump()
    for key, (low, high) in _BOUNDS.items():
        v = values.get(key)
        if v is not None and not low <= v <= high:
            notes.append(f"{key}={v:g} is implausible and was dropped")
            values[key] = None
    unknown = [k for k in _BOUNDS if values.get(k) is None]
    if unknown:
        notes.append(f"the model did not give: {', '.join(unknown)}")
    return redact_known_model(
        GpuSpec(
            gpu=name,
            id=f"unverified-{normalise_name(name) or 'gpu'}",
            name=values.get("name") or name,
            vendor=values.get("vendor") or "unknown",
            memory_gb=values["memory_gb"],
            memory_type=values.get("memory_type"),
            memory_bandwidth_gb_per_s=values["memory_bandwidth_gb_per_s"],
            bf16_dense_tflops=values["bf16_dense_tflops"],
            fp8_dense_tflops=values["fp8_dense_tflops"],
            fp4_dense_tflops=values["fp4_dense_tflops"],
            tdp_w=values["tdp_w"],
            form_factor=values.get("form_factor") or "unknown",
            source=f"answer of model {settings.model} at {settings.base_url}",
            as_of=dt.date.today().isoformat(),
            provenance="model-provided, unverified",
            notes=notes,
        )
    )
