"""Sensitivity of a power-capped design (the seed memo's questions): GPUs per MW for each fabric
option, GPUs lost at a fixed MW as GPU power rises, which fabric option wins as optics power moves,
and GPUs against the cap.

A sweep is a search over designs, kept exact and fast by one observation: a fabric's switch and
link counts do not depend on any power figure. Each option's fabric is sized once per node count
(and cached), split into switch watts and transceiver watts; a swept point then only re-weighs
them: IT(n) = n x (node W + change x GPU W per node) + switch W(n) + scale x optics W(n). The
power-first binary search over that sum gives the same node count as re-running the solve on a
catalog whose GPU or transceiver power was changed (tests/engine/search/test_sensitivity.py
checks it against such a derived catalog), at the cost of dictionary look-ups.
"""

from __future__ import annotations

import bisect
import itertools
import time
from collections.abc import Callable

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import System
from clustergen.engine.model.common import Technology
from clustergen.engine.model.compute import FabricChoices
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.model.sensitivity import (
    CapPoint,
    FabricOption,
    GpuPowerPoint,
    OpticsPoint,
    Sensitivity,
)
from clustergen.engine.search.trade_study import candidate_platforms, pattern_misfit
from clustergen.engine.sizing.fabric import platform_setup, setup_watts
from clustergen.engine.sizing.inputs import resolve_request_inputs
from clustergen.engine.sizing.platform import node_power
from clustergen.errors import ClustergenError, InfeasibleDesignError, RequestError
from clustergen.units import ratio

#: default sweeps: GPU power change (fraction), optics power scale, cap as a share of the cap
GPU_CHANGES = tuple(round(-0.2 + 0.05 * i, 2) for i in range(15))  # -20% .. +50%
OPTICS_SCALES = (0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0, 4.0)
CAP_SHARES = tuple(round(0.1 * i, 1) for i in range(1, 21))  # 10% .. 200%
#: refinements of a search's first guess from fabric sizes already known (each a dict scan)
_GUESS_STEPS = 3


def largest_fitting(fits: Callable[[int], bool], guess: int, limit: int) -> int:
    """The largest n in [0, limit] with fits(n), for a `fits` that holds up to some n and never
    after (IT power never falls as nodes grow); fits(0) is taken as true. Gallops from `guess`
    and then bisects, so a good guess costs a handful of evaluations, a bad one a few more;
    the answer is the same either way."""
    if limit <= 0:
        return 0
    g = max(1, min(guess, limit))
    if fits(g):
        lo, step = g, 1
        while True:
            cand = min(limit, lo + step)
            if cand == lo:
                return lo
            if not fits(cand):
                break
            lo, step = cand, step * 2
    else:
        cand, step = g, 1
        while True:
            lo = max(0, g - step)
            if lo == 0 or fits(lo):
                break
            cand, step = lo, step * 2
    while cand - lo > 1:  # fits(lo), not fits(cand)
        mid = (lo + cand) // 2
        if fits(mid):
            lo = mid
        else:
            cand = mid
    return lo


class _Option:
    """One platform + fabric choice: its node power, and its fabric's switch and transceiver
    watts by node count, sized on first use and kept with the catalog for later sweeps."""

    __slots__ = (
        "catalog",
        "choices",
        "fabric_w",
        "fabric_w_per_node",
        "flops_per_gpu",
        "gpu_w_per_node",
        "label",
        "node_w",
        "sized",
        "system",
        "unknown",
    )

    def __init__(
        self,
        *,
        catalog: Catalog,
        system: System,
        choices: FabricChoices,
        label: str,
        node_w: float,
        gpu_w_per_node: float | None,
        flops_per_gpu: float | None,
    ) -> None:
        self.catalog = catalog
        self.system = system
        self.choices = choices
        self.label = label
        self.node_w = node_w
        self.gpu_w_per_node = gpu_w_per_node
        self.flops_per_gpu = flops_per_gpu
        self.fabric_w: dict[int, tuple[float, float] | None] = {}
        self.fabric_w_per_node = 0.0
        self.sized: list[int] = []  # node counts in fabric_w whose fabric is within reach, sorted
        self.unknown: list[str] = []

    def split_w(self, n: int) -> tuple[float, float] | None:
        """(switch W, transceiver W) of this option's fabric for n nodes; None past its reach."""
        if n not in self.fabric_w:
            try:
                setup = platform_setup(self.catalog, self.system, n, self.choices)
                watts = setup_watts(self.catalog, setup)  # the sized fabric's, counted only
                self.fabric_w[n] = (watts.switches_w, watts.optics_w)
                if watts.switches_unknown and "switch power" not in self.unknown:
                    self.unknown.append("switch power")
                if watts.optics_unknown and "transceiver power" not in self.unknown:
                    self.unknown.append("transceiver power")
            except InfeasibleDesignError:
                self.fabric_w[n] = None
            if self.fabric_w[n] is not None and n > 0:
                bisect.insort(self.sized, n)
        return self.fabric_w[n]

    def nodes_under(self, cap_w: float, gpu_change: float = 0.0, optics_scale: float = 1.0) -> int:
        """The most nodes whose IT power fits `cap_w` with GPU power changed by `gpu_change` (a
        fraction) and transceiver power scaled by `optics_scale`; 0 when none fits."""
        node_w = self.node_w + gpu_change * (self.gpu_w_per_node or self.node_w)
        if node_w <= 0:
            raise RequestError(f"a GPU power change of {gpu_change:+.0%} leaves no node power")

        def fits(n: int) -> bool:
            split = self.split_w(n)
            return split is not None and n * node_w + split[0] + optics_scale * split[1] <= cap_w

        n = largest_fitting(fits, self._guess(cap_w, node_w, optics_scale), int(cap_w // node_w))
        if n and not gpu_change and optics_scale == 1.0:
            split = self.split_w(n) or (0.0, 0.0)
            self.fabric_w_per_node = (split[0] + split[1]) / n  # a better guess next time
        return n

    def _nearest_sized(self, n: int) -> int | None:
        """The sized node count (a fabric within reach) nearest n, if any."""
        known = self.sized
        i = bisect.bisect_left(known, n)
        near = known[max(0, i - 1) : i + 1]
        return min(near, key=lambda k: abs(k - n)) if near else None

    def _guess(self, cap_w: float, node_w: float, optics_scale: float) -> int:
        """Where the search for the most nodes under `cap_w` starts: the fabric's watts per node
        read at the sized node count nearest the guess, until the guess stops moving. Fabric
        power per node changes slowly with size, so the guess is usually the answer or next to
        it and the search sizes two node counts, not six; the answer never depends on it."""
        guess = int(cap_w // (node_w + self.fabric_w_per_node))
        for _ in range(_GUESS_STEPS):
            near = self._nearest_sized(guess)
            if near is None:
                return guess
            sw_w, optics_w = self.fabric_w[near] or (0.0, 0.0)
            better = int(cap_w // (node_w + (sw_w + optics_scale * optics_w) / near))
            if better == guess:
                break
            guess = better
        return guess


def _options(
    catalog: Catalog, request: DesignRequest, workload: str
) -> tuple[list[_Option], list[str]]:
    """Every platform x technology x oversubscription the request allows, as the trade study
    weighs them; options that cannot be sized are named in the second list."""
    techs: list[Technology | None] = (
        [request.fabric] if request.fabric else ["infiniband", "ethernet"]
    )
    ratios = [request.oversubscription] if request.oversubscription else [1.0, 2.0]
    out: list[_Option] = []
    dropped: list[tuple[str, str]] = []
    named = bool(request.platform or request.gpu)
    for system in candidate_platforms(catalog, request):
        # as the trade study: a platform whose RA pattern does not serve the workload (an
        # inference card for training) is weighed only when named
        if not named and pattern_misfit(catalog, system, workload):
            continue
        gpu = catalog.gpu(system.gpu or "")
        flops = gpu.fp8_dense_tflops if workload == "inference" else gpu.bf16_dense_tflops
        try:
            npow = node_power(system)
        except ClustergenError as exc:
            dropped.append((system.id, exc.one_line()))
            continue
        gpu_w = gpu.tdp_w * system.gpus_per_node if gpu.tdp_w else None
        for tech in techs:
            for r in ratios:
                short = {"infiniband": "IB", "ethernet": "Ethernet"}.get(tech or "", "RA")
                out.append(
                    _Option(
                        catalog=catalog,
                        system=system,
                        choices=FabricChoices(technology=tech, oversubscription=r),
                        label=f"{system.id} {short} {ratio(r)}",
                        node_w=npow.node_w,
                        gpu_w_per_node=gpu_w,
                        flops_per_gpu=flops,
                    )
                )
    by_reason: dict[str, list[str]] = {}
    for sid, why in dropped:
        by_reason.setdefault(why.replace(sid, "the system"), []).append(sid)
    return out, [f"{', '.join(ids)}: {why}" for why, ids in by_reason.items()]


def _baseline(opt: _Option, cap_w: float, eligible: bool) -> FabricOption:
    n = opt.nodes_under(cap_w)
    split = opt.split_w(n) if n else (0.0, 0.0)
    sw_w, optics_w = split or (0.0, 0.0)
    it_w = n * opt.node_w + sw_w + optics_w
    gpus = n * opt.system.gpus_per_node
    setup = platform_setup(opt.catalog, opt.system, max(1, n), opt.choices)
    return FabricOption(
        option=opt.label,
        platform=opt.system.id,
        technology=setup.leaf.technology,
        switch=setup.leaf.id,
        oversubscription=opt.choices.oversubscription or 1.0,
        gpus=gpus,
        nodes=n,
        it_power_w=it_w,
        gpus_per_mw=gpus / (cap_w / 1e6),
        dense_pflops=None if opt.flops_per_gpu is None else gpus * opt.flops_per_gpu / 1e3,
        optics_share=optics_w / it_w if it_w else 0.0,
        eligible=eligible,
        gpu_w_per_node=opt.gpu_w_per_node,
        power_unknown=sorted(opt.unknown),
    )


def _winner(
    options: list[_Option],
    gpus: dict[str, int],
    eligible: dict[str, bool],
    most_gpus: bool = False,
) -> str | None:
    """The eligible option with the most dense throughput (GPUs where throughput is unknown),
    or for a "how many GPUs fit" question the most GPUs, then the most throughput (the design's
    own objective for the same request), among those whose fabric power the catalog knows."""
    best: tuple[tuple[float, float], str] | None = None
    for opt in options:
        if not eligible[opt.label] or not gpus[opt.label] or opt.unknown:
            continue  # an option whose fabric power is unknown cannot be shown to win
        flops = gpus[opt.label] * (opt.flops_per_gpu or 1.0)
        score = (float(gpus[opt.label]), flops) if most_gpus else (flops, 0.0)
        if best is None or score > best[0]:
            best = (score, opt.label)
    return best[1] if best else None


def sweep_objective(request: DesignRequest, workload: str, cap_w: float) -> str:
    """The objective the sweep's best option is chosen by, worded as the design's trade study
    words it for the same request, with the cap."""
    precision = "FP8" if workload == "inference" else "BF16"
    cap = f"under the {cap_w / 1e6:g} MW IT cap"
    if request.objective == "most-gpus":
        return f"most GPUs {cap}, then most dense {precision} PFLOPS"
    return f"most dense {precision} PFLOPS {cap}"


def _switch_points(points: list[OpticsPoint]) -> list[str]:
    out = []
    for before, after in itertools.pairwise(points):
        if before.winner != after.winner:
            out.append(
                f"between {before.scale:g}x and {after.scale:g}x catalog optics power the best "
                f"option changes from {before.winner or 'none'} to {after.winner or 'none'}"
            )
    return out


def _gpu_sweep(
    options: list[_Option], cap_w: float, changes: tuple[float, ...], base: dict[str, int]
) -> list[GpuPowerPoint]:
    out = []
    for o in options:
        for change in changes:
            gpus = o.nodes_under(cap_w, gpu_change=change) * o.system.gpus_per_node
            out.append(
                GpuPowerPoint(
                    option=o.label,
                    change=change,
                    node_w=o.node_w + change * (o.gpu_w_per_node or o.node_w),
                    gpus=gpus,
                    gpus_lost=base[o.label] - gpus,
                )
            )
    return out


def _slopes(options: list[_Option], points: list[GpuPowerPoint]) -> dict[str, float]:
    """GPUs lost per +10% GPU power: the mean slope over each option's sweep."""
    slopes = {}
    for o in options:
        pts = [p for p in points if p.option == o.label]
        lo, hi = min(pts, key=lambda p: p.change), max(pts, key=lambda p: p.change)
        span = hi.change - lo.change
        slopes[o.label] = round((hi.gpus_lost - lo.gpus_lost) / span * 0.1, 1) if span else 0.0
    return slopes


def _optics_point(
    options: list[_Option],
    cap_w: float,
    scale: float,
    eligible: dict[str, bool],
    most_gpus: bool = False,
) -> OpticsPoint:
    gpus = {
        o.label: o.nodes_under(cap_w, optics_scale=scale) * o.system.gpus_per_node for o in options
    }
    return OpticsPoint(scale=scale, gpus=gpus, winner=_winner(options, gpus, eligible, most_gpus))


def sensitivity(
    catalog: Catalog,
    request: DesignRequest,
    *,
    gpu_changes: tuple[float, ...] = GPU_CHANGES,
    optics_scales: tuple[float, ...] = OPTICS_SCALES,
    cap_shares: tuple[float, ...] = CAP_SHARES,
    clock: Callable[[], float] = time.perf_counter,
) -> Sensitivity:
    """The seed memo's sensitivity figures for a request with a power cap."""
    start = clock()
    common = resolve_request_inputs(catalog, request)
    cap_w = common.it_cap_w
    if not cap_w:
        raise RequestError(
            "sensitivity holds the power cap fixed, and the request has none",
            hint='add one, e.g. "512 GPUs training, 5 MW"',
        )
    workload = common.workload
    options, dropped = _options(catalog, request, workload)
    if not options:
        raise InfeasibleDesignError("no platform could be sized: " + "; ".join(dropped[:3]))
    training = workload in {"training", "fine-tuning"}
    eligible = {
        o.label: not (training and (o.choices.oversubscription or 1.0) > 1) for o in options
    }
    base = [_baseline(o, cap_w, eligible[o.label]) for o in options]
    base_gpus = {b.option: b.gpus for b in base}
    gpu_points = _gpu_sweep(options, cap_w, gpu_changes, base_gpus)
    most_gpus = request.objective == "most-gpus"
    optics = [_optics_point(options, cap_w, scale, eligible, most_gpus) for scale in optics_scales]
    caps = [
        CapPoint(
            cap_w=cap_w * share,
            gpus={o.label: o.nodes_under(cap_w * share) * o.system.gpus_per_node for o in options},
        )
        for share in cap_shares
    ]
    solved = len(options) * (1 + len(gpu_changes) + len(optics_scales) + len(cap_shares))
    basis = [
        f"IT cap held at {cap_w / 1e6:g} MW; each option's fabric sized once per node count, "
        "power re-weighed per point (exact: the same power-first search as `clustergen power`)",
        "GPU power: the node's published maximum plus the change x its GPUs' TDP (the whole "
        "node where the GPU's TDP is unknown)",
        "optics: the catalog's transceiver power x the scale; switch power unchanged",
        *(f"not sized: {d}" for d in dropped),
    ]
    unknown = [o.label for o in options if o.unknown]
    if unknown:
        basis.append(
            "fabric power unknown (GPUs an upper bound; never the best option): "
            + ", ".join(unknown)
        )
    return Sensitivity(
        request=request.text,
        cap_w=cap_w,
        workload=workload,
        objective=sweep_objective(request, workload, cap_w),
        options=base,
        chosen=_winner(options, base_gpus, eligible, most_gpus),
        gpu_power=gpu_points,
        gpus_lost_per_10pct=_slopes(options, gpu_points),
        optics=optics,
        optics_switch_points=_switch_points(optics),
        caps=caps,
        points=solved,
        seconds=round(clock() - start, 4),
        basis=basis,
    )
