"""Budget: the price of a GPU-hour, the cost of a plan, and the most a budget buys.

Prices are volatile and never built in: a price comes from the request ("at $2.50 per GPU-hour",
`price_per_gpu_hour`, a node-hour price divided by the node's GPUs) or from a user's catalog
layer (`hourly_prices.yaml` in a layered catalog; `examples/prices/` ships labelled examples). A
budget with no price is refused, never priced by a silent default.
"""

from __future__ import annotations

from typing import NamedTuple

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Gpu, System
from clustergen.catalog.workload_models import HourlyPrice
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.model.workload import WorkloadEstimate
from clustergen.engine.sizing.workload.token_cost import run_cost, serving_cost
from clustergen.errors import RequestError


class Price(NamedTuple):
    """USD per GPU-hour and where it came from."""

    usd_per_gpu_hour: float
    source: str


def _catalog_price(catalog: Catalog, gpu: Gpu, system: System | None) -> Price | None:
    """A price for the GPU from the catalog's layers: the system's node-hour price first (it is
    the more specific), then the GPU's; of several, the first by id."""
    prices = catalog.all("hourly_prices", HourlyPrice)
    if system is not None and system.gpus_per_node:
        for p in prices:
            if p.system == system.id and p.usd_per_node_hour:
                per_gpu = p.usd_per_node_hour / system.gpus_per_node
                return Price(per_gpu, f"hourly_prices.yaml {p.id} ({p.name}): {p.source}")
    for p in prices:
        if p.gpu == gpu.id and p.usd_per_gpu_hour:
            return Price(p.usd_per_gpu_hour, f"hourly_prices.yaml {p.id} ({p.name}): {p.source}")
    return None


def price_for(
    catalog: Catalog, request: DesignRequest, gpu: Gpu, system: System | None
) -> Price | None:
    """The price per GPU-hour this request pays on `gpu` (in `system` when known): the request's
    own, else the catalog layer's, else None."""
    if request.price_per_gpu_hour:
        return Price(request.price_per_gpu_hour, "price per GPU-hour given in the request")
    if request.price_per_node_hour:
        per_node = _gpus_per_node(catalog, gpu, system)
        return Price(
            request.price_per_node_hour / per_node,
            f"${request.price_per_node_hour:,.2f} per node-hour given in the request, "
            f"over {per_node} GPUs per node",
        )
    return _catalog_price(catalog, gpu, system)


def _gpus_per_node(catalog: Catalog, gpu: Gpu, system: System | None) -> int:
    if system is not None and system.gpus_per_node:
        return system.gpus_per_node
    sizes = [s.gpus_per_node for s in catalog.all("systems", System) if s.gpu == gpu.id]
    if not sizes:
        raise RequestError(
            f"a node-hour price needs a node: no system in the catalog carries {gpu.id}",
            hint="give `price_per_gpu_hour` instead",
            field="price_per_node_hour",
        )
    return min(sizes)


def no_price_error(gpu: str | None) -> RequestError:
    """The one line a budget without a price gets (`gpu` when one GPU was asked about)."""
    where = f" for {gpu}" if gpu else " (none in the request or the catalog)"
    return RequestError(
        f"a budget needs a price per GPU-hour and none is known{where}",
        hint="say 'at $2.50 per GPU-hour', give `price_per_gpu_hour`, or layer a price catalog "
        "(examples/prices holds labelled example prices)",
        field="price_per_gpu_hour",
    )


def hours_bought(budget_usd: float, price: Price) -> float:
    """GPU-hours a budget buys at the price."""
    return budget_usd / price.usd_per_gpu_hour


def cost_usd(gpu_hours: float | None, price: Price | None) -> float | None:
    """What the GPU-hours cost; None when either is unknown."""
    if gpu_hours is None or price is None:
        return None
    return gpu_hours * price.usd_per_gpu_hour


def with_cost(
    estimate: WorkloadEstimate,
    price: Price | None,
    target_tokens_per_s: float | None,
    input_per_output: float = 0.0,
) -> WorkloadEstimate:
    """The estimate with its cost basis, and for serving its dollars per million input, output
    and total tokens at the sized load (`input_per_output` prompt tokens per output token);
    unchanged without a price."""
    if price is None:
        return estimate
    update: dict[str, object] = {}
    basis = [run_cost(estimate.gpu_hours, price.usd_per_gpu_hour)]
    per_gpu = estimate.tokens_per_s_per_gpu
    if estimate.kind == "inference" and estimate.replicas and estimate.gpus_per_replica and per_gpu:
        serving = serving_cost(
            estimate.gpus_required or estimate.replicas * estimate.gpus_per_replica,
            price.usd_per_gpu_hour,
            full_load_tokens_per_s=estimate.replicas * estimate.gpus_per_replica * per_gpu,
            target_tokens_per_s=target_tokens_per_s,
            input_per_output=input_per_output,
            prompt_share=estimate.prompt_gpu_share or 0.0,
        )
        if serving is not None:
            update["usd_per_million_output_tokens"] = serving.usd_per_million_output_tokens
            update["usd_per_million_input_tokens"] = serving.usd_per_million_input_tokens
            update["usd_per_million_total_tokens"] = serving.usd_per_million_total_tokens
            basis.append(serving.basis)
    known = [b for b in basis if b]
    if known:
        update["cost_basis"] = "; ".join(known) + f"; price: {price.source}"
    return estimate.model_copy(update=update)
