"""Published throughput for a model, GPU and precision (catalog/training_throughput.yaml and
catalog/inference_throughput.yaml).

A published figure counts for any catalog model of the same network (Llama 3, 3.1 and 3.3 70B are
one network), and of several software versions the newest counts: the same hardware gains about a
quarter within a year of software, so an old figure would understate it.
"""

from __future__ import annotations

from clustergen.catalog.loader import Catalog
from clustergen.catalog.workload_models import InferenceTable, LanguageModel, TrainingRow
from clustergen.engine.cache import cached

#: the fields that make two catalog models the same network for throughput
_SHAPE = (
    "architecture",
    "layers",
    "hidden_size",
    "intermediate_size",
    "moe_intermediate_size",
    "attention_heads",
    "kv_heads",
    "head_dim",
    "experts",
    "experts_per_token",
    "kv_lora_rank",
    "sliding_window",
    "full_attention_layers",
)


def same_network(a: LanguageModel, b: LanguageModel) -> bool:
    """Whether two catalog models are one network (same shape, parameters within 1 %)."""
    if a.id == b.id:
        return True
    if any(getattr(a, f) != getattr(b, f) for f in _SHAPE):
        return False
    return abs(a.params_b - b.params_b) <= 0.01 * a.params_b


def training_row(
    catalog: Catalog, model: LanguageModel, gpu: str, precision: str
) -> TrainingRow | None:
    """The newest published training row for the network, GPU and precision, if any."""

    def find() -> TrainingRow | None:
        rows = [
            r
            for r in catalog.all("training_throughput", TrainingRow)
            if (r.gpu, r.precision) == (gpu, precision)
            and same_network(model, catalog.model(r.model))
        ]
        return max(rows, key=lambda r: (r.as_of, r.gpus, r.id)) if rows else None

    return cached(catalog, ("training_row", model.id, gpu, precision), find)


def inference_table(
    catalog: Catalog, model: LanguageModel, gpu: str, precision: str
) -> InferenceTable | None:
    """The newest published serving table for the network, GPU and precision, if any."""

    def find() -> InferenceTable | None:
        tables = [
            t
            for t in catalog.all("inference_throughput", InferenceTable)
            if (t.gpu, t.precision) == (gpu, precision)
            and same_network(model, catalog.model(t.model))
        ]
        return max(tables, key=lambda t: (t.as_of, t.software, t.id)) if tables else None

    return cached(catalog, ("inference_table", model.id, gpu, precision), find)
