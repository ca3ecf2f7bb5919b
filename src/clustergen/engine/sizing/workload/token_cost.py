"""What a workload costs at a rented GPU-hour price: GPU-hours x $/GPU-hour for a run, and for
serving the dollars per million input, output and total tokens at the sized load, the figures
customers compare across providers (input tokens priced by the GPU time prompts take, output
tokens by the rest, so input x its price + output x its price is the whole bill). The price is the request's or the user's price layer's, never built in; each
figure carries its basis in words (the caller adds where the price came from)."""

from __future__ import annotations

from typing import NamedTuple

from clustergen.units import dollars


class HourlyCost(NamedTuple):
    """A workload's cost at an hourly price, with how it was reckoned."""

    usd_per_million_output_tokens: float | None
    basis: str
    usd_per_million_input_tokens: float | None = None
    usd_per_million_total_tokens: float | None = None


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
    input_per_output: float = 0.0,
    prompt_share: float = 0.0,
) -> HourlyCost | None:
    """Dollars per million tokens at the sized load (the target, where it is below what the
    replicas can do; else their full load): the GPUs' hourly price split by the share of their
    time prompts take (`prompt_share`) over the input tokens (`input_per_output` per output
    token) and the rest over the output tokens; and the whole over both. Replicas rounded up
    for the target are paid for while idle, so a target below full load costs more per token
    than the full-load figure also stated."""
    if gpus < 1 or full_load_tokens_per_s <= 0:
        return None
    per_hour = gpus * usd_per_gpu_hour
    share = min(max(prompt_share, 0.0), 1.0) if input_per_output > 0 else 0.0
    full = per_hour * (1 - share) / (full_load_tokens_per_s * 3600) * 1e6
    load = min(target_tokens_per_s or full_load_tokens_per_s, full_load_tokens_per_s)
    hour_out = load * 3600 / 1e6  # million output tokens an hour
    at_load = per_hour * (1 - share) / hour_out
    total = per_hour / (hour_out * (1 + input_per_output))
    per_input = per_hour * share / (hour_out * input_per_output) if input_per_output > 0 else None
    where = "the target load" if load < full_load_tokens_per_s else "full load"
    basis = (
        f"{gpus:,} GPUs x ${usd_per_gpu_hour:,.2f} per GPU-hour = ${per_hour:,.2f} an hour over "
        f"{load:,.0f} output tokens/s ({where})"
    )
    if per_input is None:
        basis += f" = ${at_load:,.3f} per million output tokens"
    else:
        basis += (
            f" and {load * input_per_output:,.0f} input tokens/s: prompts take {share:.0%} of "
            f"the GPU time, ${per_input:,.3f} per million input tokens, ${at_load:,.3f} per "
            f"million output tokens, ${total:,.3f} per million tokens in all"
        )
    if where == "the target load":
        basis += f" (${full:,.3f} per million output tokens at the replicas' full "
        basis += f"{full_load_tokens_per_s:,.0f} tokens/s)"
    return HourlyCost(
        round(at_load, 4),
        basis,
        None if per_input is None else round(per_input, 4),
        round(total, 4),
    )
