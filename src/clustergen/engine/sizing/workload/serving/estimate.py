"""Inference sizing: GPUs per replica, replicas for a target, and the latency each delivers.

Memory decides the smallest replica (weights plus at least one sequence's KV cache within the
NVLink domain, pipeline stages across nodes only when the domain is too small); the prefill/decode
model (`replica`) gives each replica shape its throughput under the TTFT and TPOT limits, and
the shape with the most output tokens/s per GPU is chosen (the smaller within 5 %). Where
TensorRT-LLM published max-throughput rows for the network, GPU and precision, the model is
anchored to them: published / modelled max throughput, interpolated between the published
input/output lengths (inverse-distance in log ISL and log OSL), is the ratio every replica shape
delivers at its own memory's batch (its per-sequence work sped up to give it, the step's floor
kept), and the published TP is preferred.
"""

from __future__ import annotations

import itertools
import math
from typing import NamedTuple

from clustergen.catalog.loader import Catalog
from clustergen.catalog.workload_models import ShapePoint
from clustergen.engine.model.request import said_as
from clustergen.engine.model.workload import WorkloadEstimate
from clustergen.engine.sizing.workload.budget import cost_usd
from clustergen.engine.sizing.workload.inputs import WorkloadInputs
from clustergen.engine.sizing.workload.published import inference_table
from clustergen.engine.sizing.workload.serving.replica import (
    Efficiency,
    Replica,
    build_replica,
    kv_bytes,
)
from clustergen.engine.sizing.workload.serving.stack import Stack, kv_transfer_gb_per_s
from clustergen.errors import RequestError
from clustergen.units import plural

#: error bands (+/- %), held by tests/engine/sizing/workload/test_calibration.py: (anchored to published
#: rows, the forward model alone) for dense and MoE models; extra when a latency limit binds
BANDS_DENSE_PCT, BANDS_MOE_PCT, BAND_LIMITED_EXTRA_PCT = (22.0, 25.0), (40.0, 50.0), 10.0
#: extra band on an estimate that uses the serving stack beyond TensorRT-LLM's tables
#: (speculative decoding, disaggregated prefill/decode), on top of the MoE anchored band (40) and
#: the limited extra (10): the published DeepSeek-R1 curves with that stack (tests/engine/sizing/
#: workload/serving/stack_curves.yaml, 8 points) are missed with an RMS of 15 %, within those 50
#: (7 of 8 within 25 %; the worst B200 at 75 tokens/s per user, 37 % under, where its DEP8
#: instances carried more users than the model's DEP8 step leaves room for); none added
BAND_STACK_EXTRA_PCT = 0.0
#: TTFT at load against published latency-throughput points (tests/engine/sizing/
#: test_latency_calibration.py): a queue is the least certain figure
BAND_TTFT_AT_LOAD_PCT = 25.0

_POWERS = (1, 2, 4, 8, 16, 32, 64)
#: widest tensor-parallel group (TP, or TEP's attention) weighed for a mixture-of-experts model:
#: TensorRT-LLM's DeepSeek-R1 recipes run TEP4-TEP8 and go wider only as DEP16-DEP32
#: (InferenceX .github/configs/nvidia-master.yaml, dsr1-fp4-{b200,b300,gb200}-dynamo-trt), and
#: the TP^-exponent was fitted on TP1-TP8 tables (assumptions.yaml inference-tp-exponent)
_MOE_TP_MAX = 8
#: disaggregated serving is pointed out when it would give this much more per GPU
_SPLIT_WINS = 1.25
_PREFER_SMALLER = 0.95
_NEAR_BEST = 0.85


class Anchor(NamedTuple):
    """How much more than the modelled max throughput the published rows deliver at this shape
    (`factor`), and their TP."""

    factor: float
    tp: int | None
    basis: str
    sources: list[str]
    layout: str = "tp"

    def on(self, rep: Replica) -> Replica:
        """`rep` anchored: its per-sequence work sped up so that at its own memory's batch it
        delivers `factor` times its modelled max throughput, the ratio a published row measures.
        A row gives a whole step at one (unstated) batch, not how that step splits between the
        floor every step pays (weights, fixed cost) and the per-sequence work: solved on the
        table's replica, the per-sequence speed-up ranged 1.3-5.5 x over DeepSeek-R1's B200 DEP4
        rows where max throughput was 1.2-1.4 x the model's, and carried as a per-sequence
        factor to a wider replica (DEP8-DEP32, whose step is mostly per-sequence work) it sped
        that replica up by the whole 1.9-2.0 x. Carried as a ratio of max throughputs, no shape
        runs faster than the rows' ratio at any batch, and one user's TPOT keeps the floor."""
        if self.factor == 1.0 or rep.max_batch < 1:
            return rep
        return rep.anchored(rep.batch_factor(self.factor * rep.tokens_per_s(rep.max_batch)))


def anchor(
    catalog: Catalog, w: WorkloadInputs, eff: Efficiency, exclude: ShapePoint | None = None
) -> Anchor:
    """Published / modelled max throughput (the table's replica at its memory's batch),
    interpolated to the request's ISL and OSL (without the point `exclude`: how the calibration
    measures the interpolation)."""
    model = w.arch.model
    table = inference_table(catalog, model, w.gpu.id, w.precision) if model else None
    unanchored = Anchor(
        1.0, None, "the forward model (no published table for this network, GPU and precision)", []
    )
    if table is None:
        return unanchored
    points: list[tuple[float, float, float]] = []
    for p in table.points:
        rep = build_replica(
            w.arch,
            w.gpu,
            w.precision,
            table.tp,
            1,
            p.isl_tokens,
            p.osl_tokens,
            eff,
            table.layout,
            w.nvlink_gpus,
        )
        if p is exclude or rep is None or rep.max_batch < 1:
            continue
        factor = p.tokens_per_s_per_gpu * rep.gpus / rep.tokens_per_s(rep.max_batch)
        points.append((math.log(p.isl_tokens), math.log(p.osl_tokens), factor))
    if not points:
        return unanchored
    x, y = math.log(w.isl), math.log(w.osl)
    weights = [1 / ((px - x) ** 2 + (py - y) ** 2 + 1e-9) for px, py, _ in points]
    factor = sum(wt * f for wt, (_, _, f) in zip(weights, points, strict=True)) / sum(weights)
    shape = f"{table.layout.upper()}{table.tp}"
    return Anchor(
        factor=factor,
        tp=table.tp,
        layout=table.layout,
        basis=f"the forward model anchored to the published table {table.id!r} ({table.software},"
        f" {shape}, {len(points)} lengths): x{factor:.2f} max throughput at ISL/OSL"
        f" {w.isl}/{w.osl}",
        sources=[f"inference_throughput.yaml {table.id}: {table.source}"],
    )


def stack_as_tables(w: WorkloadInputs) -> bool:
    """Whether the request's serving stack is the one TensorRT-LLM's tables measured
    (aggregated, no speculative decoding): only then is the tables' TP preferred. The anchor
    applies either way: it scales the per-sequence work (the math and KV reads a max-throughput
    row measures), which a prefill/decode split or drafted tokens rearrange but do not speed up."""
    return not (w.disaggregated or w.speculative)


def _shapes(w: WorkloadInputs) -> list[tuple[int, int, str]]:
    """(GPUs per stage, PP, layout) to weigh: TP inside the NVLink domain, PP over nodes only if
    TP alone is short; for a mixture-of-experts model also TEP (attention TP, experts spread) at
    the same widths and DEP (attention data parallel, experts spread) inside the domain and,
    where the domain is too small, over nodes (its all-to-all then crosses the scale-out
    fabric). A mixture-of-experts replica is TP or TEP at most `_MOE_TP_MAX` wide unless its
    weights need more (wider, it is DEP)."""
    tps = [t for t in _POWERS if t <= w.nvlink_gpus]
    widest = tps[-1]
    mem = (w.gpu.memory_gb or 0) * 1e9
    fits = [t for t in tps if w.arch.weight_bytes(w.precision) < 0.9 * t * mem]
    if fits:
        most = max(_MOE_TP_MAX, fits[0]) if w.arch.moe else widest
        out = [(t, 1, "tp") for t in tps if t <= most]
    else:
        out = [(widest, p, "tp") for p in (2, 4, 8, 16)]
    if w.arch.moe:
        deps = [t for t in _POWERS if t >= 2 and (t <= w.nvlink_gpus or t <= 4 * widest)]
        out += [(t, 1, "dep") for t in deps]
        out += [(t, 1, "tep") for t, p, lay in list(out) if lay == "tp" and p == 1 and t >= 2]
    if w.tensor_parallel_gpus:
        # the width the request fixes ("TP8"): its layouts alone, pipeline stages included
        asked = [(t, p, lay) for t, p, lay in out if t * p == w.tensor_parallel_gpus]
        return asked or [(w.tensor_parallel_gpus, 1, "tp")]
    return out


class Choice(NamedTuple):
    """The replica shape chosen, its batch under the limits, and the anchor used."""

    replica: Replica
    batch: float
    anchor: Anchor
    limited: bool
    stack: Stack | None = None
    #: output tokens/s per GPU disaggregated prefill/decode would give, when the request left
    #: it open and it did not win clearly (said: aggregated was kept)
    disaggregated_per_gpu: float | None = None
    #: output tokens/s per GPU the best aggregated replica gives, when the request left the
    #: split open and disaggregated prefill/decode was chosen for winning clearly
    aggregated_per_gpu: float | None = None
    #: GB/s per GPU each way beyond the NVLink domain the choice was costed at
    scale_out_gb_per_s: float = 0.0


def choose_replica(catalog: Catalog, w: WorkloadInputs) -> tuple[Choice | None, list[Replica]]:
    """The best replica under the limits, and every shape weighed (to say what was possible)."""
    eff = _on_fabric(Efficiency.of(catalog), w)
    anc = anchor(catalog, w, eff)
    stack = Stack.of(catalog, w)
    weighed: list[Replica] = []
    options: list[tuple[float, Replica, float]] = []
    split_best: tuple[float, Replica, float] | None = None
    for (tp, pp, layout), depth in itertools.product(_shapes(w), stack.depths):
        rep = build_replica(
            w.arch, w.gpu, w.precision, tp, pp, w.isl, w.osl, eff, layout, w.nvlink_gpus
        )
        if rep is None or rep.max_batch < 1:
            continue
        rep = stack.apply(anc.on(rep).at_percentile(w.percentile), depth)
        if w.gpus and rep.gpus > w.gpus:
            continue  # wider than the GPUs the request gives: no replica of it fits
        split = stack.disaggregate(rep, w.ttft_s) if w.disaggregated is not False else None
        if split is not None and w.gpus and not _fits(split, w.gpus, w.ttft_s, w.tpot_s):
            split = None  # its prefill pool does not fit beside one decode replica
        if w.disaggregated:
            if split is None:
                continue
            rep = split
        weighed.append(rep)
        b = rep.best_batch(w.ttft_s, w.tpot_s)
        if b >= 1:
            options.append((rep.per_gpu(b), rep, b))
        if split is not None and not w.disaggregated:
            sb = split.best_batch(w.ttft_s, w.tpot_s)
            if sb >= 1 and (split_best is None or split.per_gpu(sb) > split_best[0]):
                split_best = (split.per_gpu(sb), split, sb)
    if not options:
        if split_best is None:
            return None, weighed
        _, split, sb = split_best
        limited = sb < split.max_batch * 0.999
        rate = eff.scale_out_gb_per_s
        return Choice(split, sb, anc, limited, stack, None, 0.0, rate), weighed
    # the published TP is preferred while it is near the best (for the stack the tables ran);
    # under tight limits a wider replica can do far better, and the table's TP was chosen for
    # max throughput
    top = max(o[0] for o in options)
    published = [
        o
        for o in options
        if stack_as_tables(w)
        and (o[1].tp, o[1].pp, o[1].layout) == (anc.tp, 1, anc.layout)
        and o[0] >= _NEAR_BEST * top
    ]
    if published:
        _, rep, b = published[0]
    else:
        _per_gpu, rep, b = next(o for o in options if o[0] >= _PREFER_SMALLER * top)
    best = max(o[0] for o in options)
    if split_best is not None and split_best[0] > _SPLIT_WINS * best:
        # the request left the split open and two pools win clearly: chosen, and said why
        _, split, sb = split_best
        limited = sb < split.max_batch * 0.999
        rate = eff.scale_out_gb_per_s
        return Choice(split, sb, anc, limited, stack, None, best, rate), weighed
    said = split_best[0] if split_best is not None else None
    limited = b < rep.max_batch * 0.999
    return Choice(rep, b, anc, limited, stack, said, None, eff.scale_out_gb_per_s), weighed


def _fits(split: Replica, gpus: int, ttft_s: float | None, tpot_s: float | None) -> bool:
    """Whether one disaggregated replica with its prefill pool fits in `gpus` GPUs."""
    b = split.best_batch(ttft_s, tpot_s)
    return b >= 1 and split.gpus + math.ceil(split.prefill_gpus(b) - 1e-9) <= gpus


def scale_out_gb_per_s(w: WorkloadInputs) -> float | None:
    """GB/s one GPU's compute-fabric ports carry each way, from the chosen system's compute
    port group (an expert-parallel all-to-all beyond the NVLink domain crosses them); None
    when no system is chosen."""
    system = w.system
    group = system.compute if system is not None else None
    if group is None or not system or not system.gpus_per_node:
        return None
    return group.ports * group.port_speed_gbps / 8 / system.gpus_per_node


def _on_fabric(eff: Efficiency, w: WorkloadInputs) -> Efficiency:
    """The efficiencies with the all-to-all's scale-out rate from the system's own ports."""
    rate = scale_out_gb_per_s(w)
    return eff if rate is None else eff._replace(scale_out_gb_per_s=rate)


def fastest(weighed: list[Replica]) -> tuple[float, float]:
    """The lowest TTFT and TPOT any weighed shape reaches (one sequence in flight), seconds."""
    if not weighed:
        return math.inf, math.inf
    return min(r.ttft_s(1.0) for r in weighed), min(r.tpot_s(1.0) for r in weighed)


def _replicas(w: WorkloadInputs, rep: Replica, batch: float) -> int:
    """Replicas the GPUs given hold, else those the target needs, else those a budget buys
    (a disaggregated replica counted with its share of the prefill pool)."""
    unit = rep.gpus + rep.prefill_gpus(batch)
    if w.gpus:
        return int(w.gpus // unit)
    if w.target_tokens_per_s:
        return max(1, math.ceil(w.target_tokens_per_s / rep.tokens_per_s(batch)))
    if w.budget_usd and w.price and w.days:
        hours = w.budget_usd / w.price.usd_per_gpu_hour / (24 * w.days)
        return int(hours // unit)
    return 1


def _prefill_pool(rep: Replica, replicas: int, batch: float) -> int:
    """Whole GPUs of the prefill pool for `replicas` decode replicas at `batch` (0 aggregated)."""
    return math.ceil(replicas * rep.prefill_gpus(batch) - 1e-9) if rep.disaggregated else 0


def estimate_inference(catalog: Catalog, w: WorkloadInputs) -> tuple[WorkloadEstimate, list[str]]:
    """GPUs per replica, replicas, expected TTFT and TPOT, GPU-hours and cost for serving; and
    what of the request it does not meet."""
    if not w.arch.known_shape:
        raise RequestError(
            f"serving sizing needs the model's layers and KV heads; {w.label} has none",
            hint="name a catalog model (clustergen catalog list models)",
        )
    choice, weighed = choose_replica(catalog, w)
    if choice is None:
        return _infeasible(w, weighed)
    rep = choice.replica
    per_replica = rep.tokens_per_s(choice.batch)
    replicas = _replicas(w, rep, choice.batch)
    gpus = w.gpus or replicas * rep.gpus + _prefill_pool(rep, replicas, choice.batch)
    notes: list[str] = []
    feasible = replicas >= 1
    if replicas < 1:
        whole = rep.gpus + math.ceil(rep.prefill_gpus(choice.batch) - 1e-9)
        notes.append(f"{gpus:,} GPUs are fewer than one {whole}-GPU replica")
    load = per_replica
    if w.target_tokens_per_s and replicas:
        load = min(per_replica, w.target_tokens_per_s / replicas)
        if replicas * per_replica < w.target_tokens_per_s * 0.9999:
            notes.append(
                f"{plural(replicas, 'replica')} give{'s' if replicas == 1 else ''} "
                f"{replicas * per_replica:,.0f} output tokens/s of the {w.target_tokens_per_s:,.0f} needed"
            )
            feasible = False
    b_op = rep.batch_for(load)
    days = w.days
    if days is None and w.budget_usd and w.price and gpus:
        days = w.budget_usd / (gpus * 24 * w.price.usd_per_gpu_hour)
    gpu_hours = gpus * 24 * days if days else None
    cost = cost_usd(gpu_hours, w.price)
    if w.budget_usd and cost is not None and cost > w.budget_usd * 1.0001:
        notes.append(f"costs ${cost:,.0f}, over the ${w.budget_usd:,.0f} budget")
        feasible = False
    band = _band(w, choice)
    warnings = slow_first_token(w, rep.ttft_s(b_op)) + edge_warnings(w, choice, weighed, band)
    estimate = _estimate(
        w,
        tokens_per_s_per_gpu=rep.per_gpu(choice.batch),
        gpus=gpus,
        days=days,
        gpu_hours=gpu_hours,
        replica=rep,
        replicas=replicas,
        ttft_ms=rep.ttft_s(b_op) * 1e3,
        tpot_ms=rep.tpot_s(b_op) * 1e3,
        cost=cost,
        feasible=feasible,
        band=band,
        method=_method(w, choice, per_replica, replicas, b_op, notes, band),
        sources=choice.anchor.sources,
    )
    unit = rep.gpus + rep.prefill_gpus(b_op)
    share = rep.prefill_gpus(b_op) / unit if rep.disaggregated else rep.prefill_share(b_op)
    watts = _watts_per_gpu(w)
    update: dict[str, object] = {"warnings": warnings, "prompt_gpu_share": round(share, 4)}
    if watts is not None and gpus:
        update["output_tokens_per_s_per_mw"] = round(rep.per_gpu(choice.batch) * 1e6 / watts[0])
        at_load = replicas * rep.tokens_per_s(b_op) * 1e6 / (gpus * watts[0])
        update["output_tokens_per_s_per_mw_at_load"] = round(at_load)
    estimate = estimate.model_copy(update=update)
    return estimate, [] if feasible else notes


#: a first token this late is no longer interactive: people wait tens of seconds
_SLOW_FIRST_TOKEN_S = 10.0
#: how the slow-first-token warning begins: a design puts it on its first line
SLOW_FIRST_TOKEN = "the first token takes"


def is_slow_first_token(warning: str) -> bool:
    """Whether a warning is the slow-first-token one (said first, before any figure)."""
    return warning.startswith(SLOW_FIRST_TOKEN)


def slow_first_token(w: WorkloadInputs, ttft_s: float) -> list[str]:
    """A first-line warning when people waiting on replies (any regime but offline) would see
    the first token only after tens of seconds, unless the request allows that long."""
    if w.interactive is False or ttft_s < _SLOW_FIRST_TOKEN_S:
        return []
    if w.ttft_s is not None and w.ttft_s >= _SLOW_FIRST_TOKEN_S:
        return []
    at = f"p{w.percentile * 100:g}" if w.percentile else "mean"
    return [
        f"{SLOW_FIRST_TOKEN} {ttft_s:,.1f} s ({at}) at the target load, "
        f"{w.isl:,}-token prompts: too slow for people waiting on replies; state a TTFT limit "
        "to size for one, or say offline if no one waits"
    ]


#: a limit this close to what one sequence alone reaches leaves no room for error
_EDGE_SHARE = 0.6
#: a limit that keeps less than this share of max throughput sits on a steep slope
_EDGE_KEPT = 0.35
#: a slower stack losing this many times its own slowdown under the limits is on a cliff
_EDGE_AMPLIFY = 1.5


def edge_warnings(
    w: WorkloadInputs, choice: Choice, weighed: list[Replica], band_pct: float = 0.0
) -> list[str]:
    """What says the plan sits near the edge of feasibility: a limit close to what one sequence
    alone reaches; a limit that keeps little of the replica's max throughput; or a serving stack
    slower by the estimate's own band that would lose far more than the band in throughput, or
    miss the limits (where a few percent of model error or prompt length moves the answer)."""
    out = _sensitivity(w, choice, band_pct)
    ttft, tpot = fastest(weighed)
    rep = choice.replica
    if w.ttft_s and ttft > _EDGE_SHARE * w.ttft_s:
        out.append(
            f"near the feasibility edge: one prompt alone takes {ttft * 1e3:,.0f} ms of the "
            f"{w.ttft_s * 1e3:,.0f} ms TTFT limit; longer prompts or a {100 - _EDGE_SHARE * 100:.0f}"
            " % slower serving stack would not meet it"
        )
    if w.tpot_s and tpot > _EDGE_SHARE * w.tpot_s:
        out.append(
            f"near the feasibility edge: one sequence alone takes {tpot * 1e3:,.1f} ms per token "
            f"of the {w.tpot_s * 1e3:,.0f} ms TPOT limit"
        )
    kept = rep.tokens_per_s(choice.batch) / rep.tokens_per_s(rep.max_batch)
    if choice.limited and kept < _EDGE_KEPT:
        out.append(
            f"the latency limits keep {kept:.0%} of the replica's max throughput: the GPU count "
            "is sensitive to the limits and the prompt length (see the interactivity table)"
        )
    return out


def _sensitivity(w: WorkloadInputs, choice: Choice, band_pct: float) -> list[str]:
    """A warning when a stack `band_pct` slower misses the limits or loses more than 1.5 x what it
    loses unlimited: the limits, not the hardware, then decide the answer."""
    if not (choice.limited and band_pct):
        return []
    slow = choice.replica.scaled(1 / (1 + band_pct / 100))
    b = slow.best_batch(w.ttft_s, w.tpot_s)
    if b < 1:
        return [
            f"near the feasibility edge: a serving stack {band_pct:g} % slower (the estimate's "
            "band) would not meet the latency limits at all"
        ]
    rep = choice.replica
    lost = 1 - slow.tokens_per_s(b) / rep.tokens_per_s(choice.batch)
    if lost > _EDGE_AMPLIFY * (1 - 1 / (1 + band_pct / 100)):
        return [
            f"near the feasibility edge: a serving stack {band_pct:g} % slower (the estimate's "
            f"band) would lose {lost:.0%} of the throughput under these limits, so plan for "
            "more GPUs or relax a limit"
        ]
    return []


def _band(w: WorkloadInputs, choice: Choice) -> float:
    anchored, model = BANDS_MOE_PCT if w.arch.moe else BANDS_DENSE_PCT
    base = anchored if choice.anchor.tp else model
    rep = choice.replica
    # the measured stack error is disaggregated + speculative MoE serving's (the InferenceX
    # DeepSeek-R1 curves); another engine alone is one published ratio on the calibrated
    # model, held by the regime's band; a dense model split into pools has no measured case
    # and keeps the dense bands
    beyond = w.arch.moe and (rep.disaggregated or rep.accepted > 1)
    return (
        base
        + (BAND_LIMITED_EXTRA_PCT if choice.limited else 0.0)
        + (BAND_STACK_EXTRA_PCT if beyond else 0.0)
    )


def _infeasible(w: WorkloadInputs, weighed: list[Replica]) -> tuple[WorkloadEstimate, list[str]]:
    ttft, tpot = fastest(weighed)
    if not weighed:
        why = f"{w.label} at {w.precision.upper()} does not fit any replica of {w.gpu.name}"
        if w.tensor_parallel_gpus:
            why += f" {w.tensor_parallel_gpus} GPUs wide (the tensor-parallel width asked)"
    else:
        why = (
            f"no replica of {w.gpu.name} meets the limits: the fastest reach TTFT "
            f"{ttft * 1e3:,.0f} ms and TPOT {tpot * 1e3:,.1f} ms with one sequence in flight"
        )
    estimate = _estimate(
        w,
        tokens_per_s_per_gpu=None,
        gpus=w.gpus,
        days=w.days,
        gpu_hours=None,
        replica=None,
        replicas=None,
        ttft_ms=None,
        tpot_ms=None,
        cost=None,
        feasible=False,
        band=BANDS_MOE_PCT[1] if w.arch.moe else BANDS_DENSE_PCT[1],
        method=f"inference estimate: {why}.",
        sources=[],
    )
    return estimate, [why]


def _estimate(
    w: WorkloadInputs,
    *,
    tokens_per_s_per_gpu: float | None,
    gpus: int | None,
    days: float | None,
    gpu_hours: float | None,
    replica: Replica | None,
    replicas: int | None,
    ttft_ms: float | None,
    tpot_ms: float | None,
    cost: float | None,
    feasible: bool,
    band: float,
    method: str,
    sources: list[str],
) -> WorkloadEstimate:
    common = [f"gpus.yaml {w.gpu.id}: {w.gpu.source}"]
    if w.arch.model is not None:
        common.insert(0, f"models.yaml {w.arch.model.id}: {w.model_source}")
    if w.price is not None:
        common.append(f"price: {w.price.source}")
    return WorkloadEstimate(
        kind="inference",
        hours=round(days * 24, 2) if days is not None else None,
        tokens_per_s_per_user=round(1e3 / tpot_ms, 1) if tpot_ms else None,
        latency_percentile=w.percentile,
        model=w.arch.model.id if w.arch.model else None,
        model_params_b=w.arch.params / 1e9,
        active_params_b=w.arch.active / 1e9,
        precision=w.precision,
        gpu=w.gpu.id,
        tokens_per_s_per_gpu=None
        if tokens_per_s_per_gpu is None
        else round(tokens_per_s_per_gpu, 1),
        mfu=None,
        goodput=None,
        gpus_required=gpus,
        days=round(days, 4) if days is not None else None,
        gpu_hours=round(gpu_hours) if gpu_hours is not None else None,
        gpus_per_replica=replica.gpus if replica else None,
        replicas=replicas,
        ttft_ms=round(ttft_ms, 1) if ttft_ms is not None else None,
        tpot_ms=round(tpot_ms, 2) if tpot_ms is not None else None,
        cost_usd=round(cost, 2) if cost is not None else None,
        price_per_gpu_hour=w.price.usd_per_gpu_hour if w.price else None,
        feasible=feasible,
        band_pct=band,
        method=method,
        sources=[*sources, *common],
    )


def _watts_per_gpu(w: WorkloadInputs) -> tuple[float, str] | None:
    """Watts provisioned per GPU and their basis: the system's published maximum power over its
    GPUs, else the GPU's TDP alone; None when neither is known."""
    system = w.system
    if system is not None and system.max_power_w and system.gpus_per_node:
        return system.max_power_w / system.gpus_per_node, f"{system.id} maximum power"
    if w.gpu.tdp_w:
        return float(w.gpu.tdp_w), f"{w.gpu.id} TDP alone, no system chosen"
    return None


def _per_mw(w: WorkloadInputs, per_gpu: float, gpus: int, replicas: int, load: float) -> list[str]:
    """Output tokens/s per MW the GPUs are provisioned (the system's published maximum power
    over its GPUs, else the GPU's TDP): at the replicas' full load and at the target load."""
    found = _watts_per_gpu(w)
    if found is None:
        return []
    watts, basis = found
    text = (
        f"{per_gpu * 1e6 / watts:,.0f} output tokens/s per MW provisioned at full load "
        f"({watts:,.0f} W per GPU, {basis})"
    )
    if w.target_tokens_per_s and gpus:
        text += f", {replicas * load * 1e6 / (gpus * watts):,.0f} at the target load"
    return [text]


def _stack_words(w: WorkloadInputs, choice: Choice, replicas: int, batch: float) -> list[str]:
    """The engine, speculative decoding and prefill/decode split the estimate used."""
    rep = choice.replica
    drafts = round((rep.verify / (1 + choice.stack.draft_cost)) - 1) if choice.stack else 0
    out = [choice.stack.words(drafts)] if choice.stack else []
    if rep.layout == "dep" and rep.tp > w.nvlink_gpus:
        rate = scale_out_gb_per_s(w)
        out.append(
            f"the expert all-to-all leaves the {w.nvlink_gpus}-GPU NVLink domain: "
            + (
                f"{rate:g} GB/s per GPU each way on {w.system.id}'s compute ports"
                if rate is not None and w.system is not None
                else "at the scale-out rate assumed per GPU (no system chosen)"
            )
        )
    if rep.disaggregated:
        out.append(_kv_on_fabric(w, choice, replicas, batch))
        if choice.aggregated_per_gpu is not None:
            out.append(
                "disaggregated prefill/decode chosen (the request left it open): "
                f"{rep.per_gpu(choice.batch):,.0f} output tokens/s per GPU, prefill pool counted, "
                + (
                    f"against {choice.aggregated_per_gpu:,.0f} aggregated under the same limits"
                    if choice.aggregated_per_gpu
                    else "where no aggregated replica meets the limits"
                )
                + " (decode steps carry no prompts, so more sequences fit under the TPOT limit)"
            )
    elif choice.disaggregated_per_gpu:
        out.append(
            f"aggregated prefill/decode kept: two pools would give "
            f"{choice.disaggregated_per_gpu:,.0f} output tokens/s per GPU under the same limits, "
            f"less than {_SPLIT_WINS - 1:.0%} more (say 'disaggregated' to size it anyway)"
        )
    return out


#: NIC share the KV transfer may take before it is flagged (it shares the port with the
#: all-to-all and storage traffic)
_KV_NIC_SHARE_MAX = 0.5


def _kv_on_fabric(w: WorkloadInputs, choice: Choice, replicas: int, batch: float) -> str:
    """The prefill pool's KV-cache transfer placed on the design's compute fabric: GB/s in all
    and per GPU, the share of each GPU's NIC it takes and, on a non-blocking (1:1) leaf, the
    same share of the leaf's uplinks at most (when every transfer crosses leaves), checked
    against `_KV_NIC_SHARE_MAX`."""
    rep = choice.replica
    pool = _prefill_pool(rep, replicas, batch)  # busy at the target load
    sized = _prefill_pool(rep, replicas, choice.batch)  # the pool built: the replicas' capacity
    kv = w.arch.kv_bytes_per_token(w.isl, kv_bytes(w.precision)) or 0.0
    gb_s = kv_transfer_gb_per_s(rep, kv * w.isl, batch) * replicas
    # each byte leaves a prefill GPU and lands on a decode GPU: the busier side sets the share
    sender = gb_s / max(1, pool)
    nic = scale_out_gb_per_s(w)
    rate = choice.scale_out_gb_per_s
    share = sender / rate
    where = f"{w.system.id}'s compute ports" if nic is not None and w.system else "assumed ports"
    text = (
        f"disaggregated prefill/decode: {sized:,} prefill GPUs, sized for the decode replicas' "
        f"{choice.batch:,.0f} sequences in flight, feed them ({pool:,} busy {rep.prefill_load:.0%} "
        f"at the target load); the KV cache crosses the compute fabric at {gb_s:,.1f} GB/s in all, "
        f"{sender:,.2f} GB/s out of each prefill GPU: {share:.1%} of its {rate:g} GB/s NIC "
        f"({where}), and at most the same share of a non-blocking leaf's uplinks"
    )
    if share > _KV_NIC_SHARE_MAX:
        text += (
            f" - over {_KV_NIC_SHARE_MAX:.0%}: the transfer would crowd the NIC; place prefill "
            "and decode under the same leaf or add scale-out bandwidth"
        )
    return text


def _regime(w: WorkloadInputs) -> str:
    """The serving regime the estimate was sized in, said first."""
    if w.interactive is False and w.tpot_s is None and w.ttft_s is None:
        return "inference estimate, offline (batch): maximum throughput, no per-user rate limit"
    if w.tpot_assumed:
        return (
            "inference estimate, open-ended request: held to the default interactivity "
            "(assumed; a stated TPOT limit or 'offline' replaces it)"
        )
    at = f"p{w.percentile * 100:g}" if w.percentile else "the mean"
    return f"inference estimate, server: the stated limits at {at}"


def _method(
    w: WorkloadInputs,
    choice: Choice,
    per_replica: float,
    replicas: int,
    batch: float,
    notes: list[str],
    band: float,
) -> str:
    rep = choice.replica
    shape = rep.shape
    at = f"p{w.percentile * 100:g} " if w.percentile else ""
    limits = ", ".join(
        t
        for t in (
            f"{at}TTFT <= {w.ttft_s * 1e3:,.0f} ms" if w.ttft_s else "",
            f"TPOT <= {w.tpot_s * 1e3:,.0f} ms ({1 / w.tpot_s:,.0f} tokens/s per user)"
            if w.tpot_s
            else "",
        )
        if t
    )
    queue = (
        f"TTFT at the target load: one prompt's prefill in {plural(rep.chunks, 'chunk')} riding "
        "in the decode steps plus the queue ahead of it (Poisson arrivals), "
        + (
            f"at p{w.percentile * 100:g} from the M/D/1 waiting-time tail at the replica's "
            f"prompt load ({rep.prefill_share(batch):.0%} busy)"
            if w.percentile
            else "the mean (Kingman)"
        )
    )
    parts = [
        _regime(w),
        f"prefill/decode model of one replica ({shape}, {w.precision.upper()}"
        f" weights, ISL/OSL {w.isl}/{w.osl}) from {choice.anchor.basis}",
        f"{choice.batch:,.0f} sequences in flight"
        + (f" (bounded by {limits})" if choice.limited and limits else " (KV-cache bound)"),
        f"{per_replica:,.0f} output tokens/s per replica",
        f"{plural(replicas, 'replica')}; at the target load {batch:,.0f} in flight per replica",
        *_stack_words(w, choice, replicas, batch),
        *_per_mw(
            w,
            rep.per_gpu(choice.batch),
            w.gpus or replicas * rep.gpus + _prefill_pool(rep, replicas, batch),
            replicas,
            rep.tokens_per_s(batch),
        ),
        queue,
        *notes,
        f"band +/-{band:g}%",
        *[f"assumed {said_as(a.field)} {a.value}" for a in w.assumed],
    ]
    return "; ".join(parts) + "."
