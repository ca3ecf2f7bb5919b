"""Size from the workload: a request that names a model and what to do with it (train on tokens
in days, serve tokens/s under latency limits, spend a budget) becomes a `WorkloadEstimate` on one
GPU type. `estimate_workload` dispatches to the training or inference estimator; `check_workload`
refuses, before any design is sized, what no GPU could do."""

from __future__ import annotations

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Gpu, System
from clustergen.engine.cache import cached
from clustergen.engine.model.common import Assumed
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.model.workload import InteractivityPoint, WorkloadEstimate
from clustergen.engine.sizing.workload.budget import no_price_error, with_cost
from clustergen.engine.sizing.workload.inputs import (
    WorkloadInputs,
    resolve_workload,
    wants_estimate,
)
from clustergen.engine.sizing.workload.serving.estimate import (
    choose_replica,
    estimate_inference,
    fastest,
)
from clustergen.engine.sizing.workload.serving.interactivity import interactivity_table, meets_on
from clustergen.engine.sizing.workload.training.estimate import estimate_training
from clustergen.errors import RequestError

__all__ = [
    "check_workload",
    "design_estimate",
    "estimate_request",
    "estimate_workload",
    "wants_estimate",
    "with_interactivity",
    "workload_gpus",
]


def estimate_workload(
    catalog: Catalog,
    request: DesignRequest,
    system: System | None = None,
    percentile: float | None = None,
) -> tuple[WorkloadEstimate, list[Assumed], list[str]] | None:
    """The estimate on `system`'s GPU (or the request's, or the default GPU), the defaults it
    took and what of the request it does not meet; None when the request asks for no workload
    sizing. Latency is at the request's percentile, else `percentile` (None: the mean)."""
    if not wants_estimate(request):
        return None

    def estimate() -> tuple[WorkloadEstimate, list[Assumed], list[str]]:
        w = resolve_workload(catalog, request, system, percentile)
        if w.budget_usd and w.price is None:
            raise no_price_error(w.gpu.id)
        if w.kind == "inference":
            found, unmet = estimate_inference(catalog, w)
        else:
            found, unmet = estimate_training(catalog, w)
        ratio = w.isl / w.osl if w.kind == "inference" and w.osl else 0.0
        return with_cost(found, w.price, w.target_tokens_per_s, ratio), w.assumed, unmet

    # The trade study asks once per fabric row of a platform, and the design once more.
    key = ("workload", request.model_dump_json(), system.id if system else None, percentile)
    found, assumed, unmet = cached(catalog, key, estimate)
    return found, list(assumed), list(unmet)


def estimate_request(
    catalog: Catalog, request: DesignRequest, percentile: float | None = None
) -> tuple[WorkloadEstimate, list[Assumed]]:
    """The estimate for a request with no platform (what `clustergen estimate` and the workload
    tools answer), after refusing what no GPU could do; a request naming no workload is refused.
    A serving estimate carries its throughput-vs-interactivity table and, when NOT MET, the GPUs
    and layouts that meet it. Latency figures and limits are at the request's percentile, else
    at `percentile` (0-1; None: the mean)."""
    check_workload(catalog, request)
    found = estimate_workload(catalog, request, None, percentile)
    if found is None:
        raise RequestError(
            "nothing to estimate: the request names no model and no workload for it",
            hint="name a model and what to do with it, e.g. 70B on 15T tokens in 60 days",
        )
    estimate = found[0]
    w = resolve_workload(catalog, request, None, percentile)
    if w.kind == "inference" and w.arch.known_shape:
        update: dict[str, object] = {"interactivity": interactivity_table(catalog, w)}
        if not estimate.feasible:
            update["meets_on"] = meets_on(catalog, w)
        estimate = estimate.model_copy(update=update)
    return estimate, found[1]


def design_estimate(
    catalog: Catalog, request: DesignRequest, system: System
) -> tuple[WorkloadEstimate, list[Assumed]] | None:
    """The estimate a design on `system` is sized at, and the defaults it took (its serving
    interactivity table is `with_interactivity`'s: no sizing reads it)."""
    found = estimate_workload(catalog, request, system)
    if found is None:
        return None
    estimate, assumed, _ = found
    return estimate, assumed


def with_interactivity(
    catalog: Catalog, request: DesignRequest, system: System, estimate: WorkloadEstimate
) -> WorkloadEstimate:
    """The design's estimate carrying, for serving, the interactivity it was sized at: the
    throughput-vs-interactivity table on the design's GPU (its NVLink domain), so the design
    JSON, the memo and the terminal state what each user gets. A finished design's alone: a
    trade study's rows never read it."""
    w = resolve_workload(catalog, request, system)
    if not (w.kind == "inference" and w.arch.known_shape and estimate.tokens_per_s_per_gpu):
        return estimate

    def table() -> list[InteractivityPoint]:
        return interactivity_table(catalog, w, [w.gpu])

    key = ("design-interactivity", request.model_dump_json(), system.id)
    return estimate.model_copy(update={"interactivity": cached(catalog, key, table)})


def not_met_elsewhere(catalog: Catalog, request: DesignRequest) -> list[str]:
    """For a serving request NOT MET on the GPU it names: the GPUs and layouts that meet it
    (what a refused design says to try instead); empty otherwise."""
    if not (wants_estimate(request) and (request.gpu or request.platform)):
        return []
    w = resolve_workload(catalog, request)
    if w.kind != "inference" or not w.arch.known_shape:
        return []
    found = estimate_workload(catalog, request)
    if found is None or found[0].feasible:
        return []
    return meets_on(catalog, w)


def workload_gpus(
    catalog: Catalog, request: DesignRequest, system: System
) -> tuple[int | None, str | None]:
    """GPUs the workload needs on `system` (None when a GPU or node count or a cap sizes the
    design instead), and why the platform cannot meet it, if it cannot."""
    found = estimate_workload(catalog, request, system)
    if found is None:
        return None, None
    estimate, _, unmet = found
    why = None if estimate.feasible else "workload not met: " + "; ".join(unmet)
    sized = None if request.gpus or request.nodes else estimate.gpus_required
    return sized, why


def check_workload(catalog: Catalog, request: DesignRequest) -> None:
    """Refuse, in one line, a workload no GPU in the catalog can meet: a latency limit under the
    fastest replica of every GPU, or a budget no price can be found for."""
    if not wants_estimate(request):
        return
    w = resolve_workload(catalog, request)
    if w.budget_usd and not _any_price(catalog, request, w):
        raise no_price_error(w.gpu.id if request.gpu or request.platform else None)
    if w.tpot_assumed:  # the default interactivity is reported NOT MET, never refused
        w = w._replace(tpot_s=None)
    if w.kind != "inference" or not (w.ttft_s or w.tpot_s) or not w.arch.known_shape:
        return
    best: tuple[float, float, str] | None = None
    for gpu in _candidate_gpus(catalog, request, w):
        trial = w._replace(gpu=gpu, precision=_precision_on(gpu, w.precision), system=None)
        trial = trial._replace(nvlink_gpus=_domain(catalog, gpu))
        choice, weighed = choose_replica(catalog, trial)
        if choice is not None:
            return
        ttft, tpot = fastest(weighed)
        if best is None or (ttft, tpot) < best[:2]:
            best = (ttft, tpot, gpu.id)
    reach = (
        f"the fastest reach TTFT {best[0] * 1e3:,.0f} ms and TPOT {best[1] * 1e3:,.1f} ms "
        f"({best[2]}, one sequence in flight)"
        if best and best[0] < float("inf")
        else "none holds the model"
    )
    limits = " and ".join(
        t
        for t in (
            f"TTFT {w.ttft_s * 1e3:,.0f} ms" if w.ttft_s else "",
            f"TPOT {w.tpot_s * 1e3:,.1f} ms" if w.tpot_s else "",
        )
        if t
    )
    raise RequestError(
        f"{limits} for {w.label} at ISL/OSL {w.isl}/{w.osl} is below what any GPU in the "
        f"catalog can do: {reach}",
        hint="relax the limit, shorten the prompt, or use a smaller model",
    )


def _candidate_gpus(catalog: Catalog, request: DesignRequest, w: WorkloadInputs) -> list[Gpu]:
    """Every GPU a replica could live on, the request's first: a limit its GPU misses but
    another meets is an estimate NOT MET that names the other, not a refusal."""
    others = [g for g in catalog.all("gpus", Gpu) if _domain(catalog, g) > 0 and g.id != w.gpu.id]
    return [w.gpu, *others]


def _domain(catalog: Catalog, gpu: Gpu) -> int:
    sizes = [s.gpus_per_node for s in catalog.all("systems", System) if s.gpu == gpu.id]
    return max(sizes, default=0)


def _precision_on(gpu: Gpu, precision: str) -> str:
    """The fastest format the GPU has, at most as coarse as the request's: what it could do."""
    for p in ("fp4", "fp8", "bf16"):
        if getattr(gpu, f"{p}_dense_tflops", None) and (p != "fp4" or precision == "fp4"):
            return p
    return "bf16"


def _any_price(catalog: Catalog, request: DesignRequest, w: WorkloadInputs) -> bool:
    if w.price is not None:
        return True
    if request.gpu or request.platform:
        return False
    return any(
        resolve_workload(catalog, request, s).price is not None
        for s in catalog.all("systems", System)
        if s.gpus_per_node and s.gpu
    )
