"""What a workload costs at a rented GPU-hour price: GPU-hours x $/GPU-hour for a run, and for
serving the dollars per million output tokens at the sized load, the figure customers compare
across providers. The price is the request's or the user's price layer's, never built in; each
figure carries its basis in words (the caller adds where the price came from)."""

from __future__ import annotations

from typing import NamedTuple

from clustergen.units import dollars


class HourlyCost(NamedTuple):
    """A workload's cost at an hourly price, with how it was reckoned."""

    usd_per_million_output_tokens: float | None
    basis: str


def run_cost(gpu_hours: float | None, usd_per_gpu_hour: float) -> str | None:
    """The basis of a run's cost: GPU-hours x the price."""
    if gpu_hours is None:
        return None
    return (
        f"{gpu_hours:,.0f} GPU-hours x ${usd_per_gpu_hour:,.2f} per GPU-hour = "
        f"{dollars(gpu_hours * usd_per_gpu_hour)}"
    )


def serving_cost(
    gpus: int,
    usd_per_gpu_hour: float,
    *,
    full_load_tokens_per_s: float,
    target_tokens_per_s: float | None,
) -> HourlyCost | None:
    """Dollars per million output tokens: the GPUs' hourly price over the output tokens they
    deliver an hour at the sized load (the target, where it is below what the replicas can do;
    else their full load). Replicas rounded up for the target are paid for while idle, so a
    target below full load costs more per token than the full-load figure also stated."""
    if gpus < 1 or full_load_tokens_per_s <= 0:
        return None
    per_hour = gpus * usd_per_gpu_hour
    full = per_hour / (full_load_tokens_per_s * 3600) * 1e6
    load = min(target_tokens_per_s or full_load_tokens_per_s, full_load_tokens_per_s)
    at_load = per_hour / (load * 3600) * 1e6
    where = "the target load" if load < full_load_tokens_per_s else "full load"
    basis = (
        f"{gpus:,} GPUs x ${usd_per_gpu_hour:,.2f} per GPU-hour = ${per_hour:,.2f} an hour over "
        f"{load:,.0f} output tokens/s ({where}) = ${at_load:,.3f} per million output tokens (the prompts' work included, not priced apart)"
    )
    if where == "the target load":
        basis += f" (${full:,.3f} at the replicas' full {full_load_tokens_per_s:,.0f} tokens/s)"
    return HourlyCost(round(at_load, 4), basis)
