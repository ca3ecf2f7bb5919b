"""A workload estimate in words: the headline figures with their band, then the method. The
terminal (`estimate`, `design`), the memo and the design summary all print it this way."""

from __future__ import annotations

from clustergen.engine.model.workload import InteractivityPoint, WorkloadEstimate
from clustergen.units import duration, plural

#: GPU columns the interactivity table shows in a terminal (the estimate's first)
_TABLE_GPUS = 5


def _money(usd: float) -> str:
    if usd >= 1e6:
        return f"${usd / 1e6:,.2f}M"
    return f"${usd:,.0f}"


def _three_figures(x: float) -> str:
    """A large figure to three significant figures, as an estimate's band allows
    ('2,869,043' inside +/-35% claimed seven): 2,870,000."""
    if x < 1000:
        return f"{x:,.0f}"
    return f"{float(f'{x:.3g}'):,.0f}"


def _gpus(w: WorkloadEstimate) -> str:
    if w.gpus_required is None:
        return "GPUs not fixed"
    if w.kind == "inference" and w.replicas is not None and w.gpus_per_replica:
        copies = f"{plural(w.replicas, 'replica')} x {plural(w.gpus_per_replica, 'GPU')}"
        # disaggregated: the replicas are the decode pool's, the prefill pool's GPUs come on top
        prefill = w.gpus_required - w.replicas * w.gpus_per_replica
        if prefill > 0:
            copies = f"{copies.replace('replica', 'decode replica', 1)} + {prefill:,} prefill GPUs"
        return f"{copies} = {plural(w.gpus_required, w.gpu + ' GPU')}"
    return plural(w.gpus_required, f"{w.gpu} GPU")


def _latency(w: WorkloadEstimate) -> str:
    at = f"p{w.latency_percentile * 100:g} " if w.latency_percentile else ""
    per_user = (
        f" = {w.tokens_per_s_per_user:,.1f} tokens/s per user" if w.tokens_per_s_per_user else ""
    )
    return f"{at}TTFT {w.ttft_ms:,.0f} ms, TPOT {w.tpot_ms:,.1f} ms{per_user} at the target load"


def headline(w: WorkloadEstimate) -> str:
    """One line: what the workload needs, its cost and its band, and whether it meets the ask."""
    who = w.model or f"{w.model_params_b:g}B model"
    parts = [f"{w.kind} {who} ({w.precision.upper()}): {_gpus(w)}"]
    if w.kind == "inference":
        if w.ttft_ms is not None and w.tpot_ms is not None:
            parts.append(_latency(w))
        if w.tokens_per_s_per_gpu is not None:
            # the replicas' capacity within the limits, not the rate at the target load (the
            # latency above is at the load): "4,116 per GPU" beside a 100k load on 52 GPUs
            # read as twice the load served
            parts.append(
                f"up to {w.tokens_per_s_per_gpu:,.0f} output tokens/s per GPU within the limits"
            )
    elif w.tokens_per_s_per_gpu is not None:
        parts.append(f"{w.tokens_per_s_per_gpu:,.0f} tokens/s per GPU")
    if w.days is not None:
        parts.append(duration(w.days))
    if w.gpu_hours is not None:
        parts.append(f"{w.gpu_hours:,.0f} GPU-hours")
    if w.cost_usd is not None and w.price_per_gpu_hour is not None:
        parts.append(f"{_money(w.cost_usd)} at ${w.price_per_gpu_hour:,.2f}/GPU-hour")
    if w.usd_per_million_output_tokens is not None:
        out = w.usd_per_million_output_tokens
        money = f"${out:,.2f} per million output tokens"
        if w.usd_per_million_input_tokens is not None:
            paid = f"${w.usd_per_million_input_tokens:,.2f} / ${out:,.2f}"
            money = f"{paid} per million input / output tokens"
        if w.usd_per_million_total_tokens is not None:
            money += f" (${w.usd_per_million_total_tokens:,.2f} per million in all)"
        parts.append(money)
    if w.output_tokens_per_s_per_mw is not None:
        per_mw = _three_figures(w.output_tokens_per_s_per_mw)
        parts.append(f"about {per_mw} output tokens/s per MW provisioned")
    text = "; ".join(parts) + f" (estimate, +/-{w.band_pct:g}%)"
    return text if w.feasible else "NOT MET: " + text


def precision_line(w: WorkloadEstimate) -> str | None:
    """A training run with no precision given, at BF16 and at FP8 side by side."""
    if not w.by_precision:
        return None
    parts = []
    for f in w.by_precision:
        run = f"{f.tokens_per_s_per_gpu:,.0f} tokens/s per GPU"
        if f.days is not None:
            run = f"{duration(f.days)}, " + run
        if f.gpu_hours is not None:
            run = f"{f.gpu_hours:,.0f} GPU-hours, " + run
        if f.gpus:
            run = plural(f.gpus, "GPU") + ", " + run
        parts.append(f"{f.precision.upper()}{' (assumed)' if f.assumed else ''} {run}")
    return "precision not given: " + " | ".join(parts)


def workload_lines(w: WorkloadEstimate) -> list[str]:
    """The headline and the method, for a terminal or a memo (the method ends with the run at
    BF16 and at FP8 when the precision was assumed; `precision_line` says it on its own)."""
    return [headline(w), f"method: {w.method}"]


def cost_lines(w: WorkloadEstimate) -> list[str]:
    """The cost's basis, when a price is known: GPU-hours x $/GPU-hour, $ per million output
    tokens when serving, and where the price came from."""
    return [f"cost: {w.cost_basis}"] if w.cost_basis else []


def advice_lines(w: WorkloadEstimate) -> list[str]:
    """Warnings, and for a plan NOT MET the GPUs and layouts that meet it."""
    out = [f"warning: {text}" for text in w.warnings]
    if not w.feasible:
        if w.meets_on:
            out.append("meets it instead: " + "; ".join(w.meets_on))
        elif w.kind == "inference":
            out.append("no GPU in the catalog meets it: relax a limit or shorten the prompt")
    return out


def interactivity_rows(w: WorkloadEstimate) -> tuple[list[str], list[list[str]]]:
    """The throughput-vs-interactivity table: a header (tokens/s per user, then one GPU type per
    column) and its rows of output tokens/s per GPU ('-' where no replica meets the TPOT)."""
    points = w.interactivity
    if not points:
        return [], []
    gpus = list(dict.fromkeys(p.gpu for p in points))
    default = _at_default(points, w)
    shown = [gpus[0], *sorted(gpus[1:], key=lambda g: -default.get(g, 0.0))]
    shown = [g for g in shown if any(p.gpu == g and p.tokens_per_s_per_gpu for p in points)]
    shown = shown[:_TABLE_GPUS]
    rates = list(dict.fromkeys(p.tokens_per_s_per_user for p in points))
    cell = {(p.gpu, p.tokens_per_s_per_user): p for p in points}
    rows = []
    for rate in rates:
        row = [f"{rate:g} ({1e3 / rate:,.0f} ms)"]
        for g in shown:
            p = cell.get((g, rate))
            row.append(f"{p.tokens_per_s_per_gpu:,.0f}" if p and p.tokens_per_s_per_gpu else "-")
        rows.append(row)
    header = ["tokens/s/user (TPOT)", *[f"{g} {cell[(g, rates[0])].precision}" for g in shown]]
    header = [h.replace("-sxm", "") for h in header]
    return header, rows


def interactivity_compact(w: WorkloadEstimate) -> str | None:
    """One line for a design: output tokens/s per GPU at each tokens/s per user on the design's
    GPU ('-' where no replica meets that TPOT); None when the estimate has no table."""
    points = [p for p in w.interactivity if p.gpu == w.gpu]
    if not points:
        return None
    cells = [
        f"{p.tokens_per_s_per_user:g}/user "
        + (f"{p.tokens_per_s_per_gpu:,.0f}" if p.tokens_per_s_per_gpu else "-")
        for p in points
    ]
    # cells apart by semicolons: a comma between them read as a thousands separator
    # ('5/user: 5,385, 10/user: 5,385')
    return "output tokens/s per GPU by each user's tokens/s: " + "; ".join(cells)


def interactivity_memo(w: WorkloadEstimate) -> list[str]:
    """The memo's small table: tokens/s per user, TPOT, output tokens/s per GPU, GPUs per
    replica and TTFT at that load, on the design's GPU."""
    points = [p for p in w.interactivity if p.gpu == w.gpu]
    if not points:
        return []
    at = f"p{w.latency_percentile * 100:g} " if w.latency_percentile else ""
    out = [
        f"| tokens/s per user | TPOT (ms) | output tokens/s per GPU | GPUs per replica "
        f"| {at}TTFT at that load (ms) |",
        "|---|---|---|---|---|",
    ]
    for p in points:
        per_gpu = f"{p.tokens_per_s_per_gpu:,.0f}" if p.tokens_per_s_per_gpu else "not met"
        reps = str(p.gpus_per_replica) if p.gpus_per_replica else "-"
        ttft = f"{p.ttft_ms:,.0f}" if p.ttft_ms is not None else "-"
        out.append(
            f"| {p.tokens_per_s_per_user:g} | {p.tpot_ms:,.1f} | {per_gpu} | {reps} | {ttft} |"
        )
    return out


def _at_default(points: list[InteractivityPoint], w: WorkloadEstimate) -> dict[str, float]:
    """Each GPU's output tokens/s per GPU at the rate nearest the estimate's per-user rate."""
    target = w.tokens_per_s_per_user or 20.0
    rate = min({p.tokens_per_s_per_user for p in points}, key=lambda r: abs(r - target))
    return {p.gpu: p.tokens_per_s_per_gpu or 0.0 for p in points if p.tokens_per_s_per_user == rate}
