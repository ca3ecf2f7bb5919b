"""The workload estimators against the published figures they are calibrated on.

For every published figure, what the estimator says without that figure's help:
- training rows (catalog/training_throughput.yaml): tokens/s per GPU from the MFU prior alone;
- serving points (catalog/inference_throughput.yaml): max-throughput output tokens/s per GPU from
  the forward model alone, and from the model anchored to the table's other lengths (the
  interpolation, the point left out).
`tests/engine/sizing/workload/test_calibration.py` holds these within the bands the estimators state;
`scripts/workload_calibration.py` prints them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from clustergen.catalog.loader import Catalog
from clustergen.catalog.workload_models import InferenceTable, ShapePoint, TrainingRow
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.search.proposal import request_from_fields
from clustergen.engine.sizing.workload import (
    Efficiency,
    WorkloadInputs,
    anchor,
    build_replica,
    choose_replica,
    estimate_request,
    resolve_workload,
    tokens_per_s_per_gpu,
    training_rate,
)


@dataclass(frozen=True)
class FigureError:
    """One published figure and what the estimator says of it."""

    label: str
    model: str
    moe: bool
    active_params_b: float
    published: float
    estimated: float
    interpolated: float | None = None
    #: the band the estimate stated (training runs)
    band_pct: float | None = None

    @property
    def error(self) -> float:
        """Estimated / published - 1."""
        return self.estimated / self.published - 1

    @property
    def interpolation_error(self) -> float | None:
        """Interpolated / published - 1, for serving points with other lengths to anchor on."""
        return None if self.interpolated is None else self.interpolated / self.published - 1


def training_errors(catalog: Catalog) -> list[FigureError]:
    """Each training row against the MFU prior of its precision and architecture."""
    out = []
    for row in catalog.all(TrainingRow):
        request = DesignRequest(
            model=row.model,
            gpu=row.gpu,
            gpus=row.gpus,
            precision=row.precision,
            sequence_tokens=row.sequence_tokens,
            workload="training",
        )
        w = resolve_workload(catalog, request)
        rate = training_rate(catalog, w, published=False)
        estimated = tokens_per_s_per_gpu(catalog, w, rate, row.gpus)
        out.append(
            FigureError(
                row.id,
                row.model,
                w.arch.moe,
                w.arch.active / 1e9,
                row.tokens_per_s_per_gpu,
                estimated,
            )
        )
    return out


def run_errors(catalog: Catalog, runs: list[dict[str, Any]]) -> list[FigureError]:
    """Each published pre-training run (tests/engine/sizing/workload/training/
    published_runs.yaml) against the estimate for it: GPU-hours for its tokens, asked the way a
    request would ask (the precision only where the run's case states it). A run whose figure is
    its step time alone (`step_time_only`: a measured throughput or MFU, no interruptions in it) is
    compared with the estimate before goodput."""
    out = []
    for r in runs:
        fields = {
            "model": r.get("model"),
            "model_params_b": r.get("params_b"),
            "active_params_b": r.get("active_params_b"),
            "gpu": r["gpu"],
            "gpus": r.get("gpus"),
            "training_tokens_t": r["tokens_t"],
            "sequence_tokens": r.get("sequence_tokens"),
            "precision": r["precision"] if r.get("stated", True) else None,
            "workload": "training",
        }
        estimate = estimate_request(catalog, request_from_fields(catalog, fields))[0]
        hours = float(estimate.gpu_hours or 0.0)
        if r.get("step_time_only"):
            hours *= estimate.goodput or 1.0
        out.append(
            FigureError(
                r["id"],
                estimate.model or f"{estimate.model_params_b:g}B",
                estimate.active_params_b < 0.9 * estimate.model_params_b,
                estimate.active_params_b,
                float(r["gpu_hours"]),
                hours,
                band_pct=estimate.band_pct,
            )
        )
    return out


Point = tuple[InferenceTable, ShapePoint, WorkloadInputs]


def inference_inputs(catalog: Catalog) -> list[Point]:
    """Each published serving point with the estimator's inputs for it."""
    out = []
    for table in catalog.all(InferenceTable):
        for p in table.points:
            request = DesignRequest(
                model=table.model,
                gpu=table.gpu,
                precision=table.precision,
                isl_tokens=p.isl_tokens,
                osl_tokens=p.osl_tokens,
                workload="inference",
            )
            out.append((table, p, resolve_workload(catalog, request)))
    return out


def inference_errors(
    catalog: Catalog,
    eff: Efficiency | None = None,
    *,
    anchored: bool = True,
    inputs: list[Point] | None = None,
) -> list[FigureError]:
    """Each serving point against the forward model (with `eff`, default the catalog's), and
    (`anchored`) against the model anchored to the newest table's other lengths."""
    eff = eff or Efficiency.of(catalog)
    out = []
    for table, p, w in inputs or inference_inputs(catalog):
        rep = build_replica(
            w.arch, w.gpu, w.precision, table.tp, 1, w.isl, w.osl, eff, table.layout, w.nvlink_gpus
        )
        if rep is None:
            continue
        modelled = rep.tokens_per_s(rep.max_batch) / rep.gpus
        interpolated = None
        if anchored:
            anc = anchor(catalog, w, eff, exclude=p)
            fitted = anc.on(rep)
            interpolated = (
                fitted.tokens_per_s(fitted.max_batch) / rep.gpus if anc.tp is not None else None
            )
        label = f"{table.id} {p.isl_tokens}/{p.osl_tokens}"
        out.append(
            FigureError(
                label,
                table.model,
                w.arch.moe,
                w.arch.active / 1e9,
                p.tokens_per_s_per_gpu,
                modelled,
                interpolated,
            )
        )
    return out


def _replica_error(
    catalog: Catalog, label: str, request: DesignRequest, published: float, scale: float = 1.0
) -> FigureError:
    """A published figure (output tokens/s per GPU) against the estimator's best replica for
    `request`, its estimate counted in the published figure's tokens (`scale`)."""
    w = resolve_workload(catalog, request)
    choice, _ = choose_replica(catalog, w)
    estimated = choice.replica.per_gpu(choice.batch) * scale if choice else 0.0
    model = request.model or ""
    return FigureError(label, model, w.arch.moe, w.arch.active / 1e9, published, estimated)


def offline_run_errors(catalog: Catalog, runs: list[dict[str, Any]]) -> list[FigureError]:
    """Each published offline-scenario run (every sample given at once, no latency limit)
    against the estimator's best replica for a request that says "offline", per GPU."""
    out = []
    for r in runs:
        request = DesignRequest(
            model=r["model"],
            gpu=r["gpu"],
            precision=r["precision"],
            isl_tokens=r["isl_tokens"],
            osl_tokens=r["osl_tokens"],
            interactive=False,
            workload="inference",
        )
        out.append(_replica_error(catalog, r["id"], request, r["tokens_per_s"] / r["gpus"]))
    return out


def curve_errors(catalog: Catalog, tables: list[dict[str, Any]]) -> list[FigureError]:
    """Each published point of a serving curve (output tokens/s per GPU at a tokens/s per user,
    with the table's serving stack) against the estimator's best replica at that interactivity."""
    out = []
    for t in tables:
        for p in t["points"]:
            request = DesignRequest(
                model=t["model"],
                gpu=p["gpu"],
                precision=t["precision"],
                isl_tokens=t["isl_tokens"],
                osl_tokens=t["osl_tokens"],
                tpot_ms=1e3 / p["tokens_per_s_per_user"],
                serving_engine=t.get("serving_engine"),
                disaggregated=t.get("disaggregated"),
                speculative_decoding=t.get("speculative_decoding"),
                workload="inference",
            )
            # a curve that counts input and output tokens (InferenceX's throughput per GPU) is
            # compared in the same tokens: each output token brings ISL / OSL input tokens
            both = t.get("counts") == "input+output"
            label = f"{t['id']} {p['gpu']} at {p['tokens_per_s_per_user']:g} tokens/s per user"
            published = p["tokens_per_s_per_gpu"]
            scale = 1 + t["isl_tokens"] / t["osl_tokens"] if both else 1.0
            out.append(_replica_error(catalog, label, request, published, scale))
    return out


def server_run_errors(catalog: Catalog, runs: list[dict[str, Any]]) -> list[FigureError]:
    """Each published server-scenario run (output tokens/s of a system held to p99 TTFT and
    TPOT limits under Poisson arrivals) against the estimator's best replica under the same
    limits at p99, per GPU."""
    out = []
    for r in runs:
        request = DesignRequest(
            model=r["model"],
            gpu=r["gpu"],
            precision=r["precision"],
            isl_tokens=r["isl_tokens"],
            osl_tokens=r["osl_tokens"],
            ttft_ms=r["ttft_ms"],
            tpot_ms=r["tpot_ms"],
            latency_percentile=99,
            workload="inference",
        )
        out.append(_replica_error(catalog, r["id"], request, r["tokens_per_s"] / r["gpus"]))
    return out
