"""A mixed cluster as two pools, each on its own terms: the training share on a training platform
with a non-blocking fabric (the planner's training rules), the serving share sized from its
workload (serving model and load), and one design whose BOM, power, racks and checks cover both.

A mixed request is pooled when it says what serves: a split of the GPUs ("half for inference")
or a model with a serving load ("512 GPUs for training plus serving Llama 3.3 70B to 2,000
users"). Without either, one cluster shares both kinds of work and is built to train (a
non-blocking fabric), since an inference-grade cluster cannot train while a training-grade one
can serve."""

from __future__ import annotations

import re
from collections.abc import Callable

from clustergen.catalog.loader import Catalog
from clustergen.engine.model.common import Assumed, Check
from clustergen.engine.model.design import Design, PowerSection, RacksSection
from clustergen.engine.model.pools import Pool
from clustergen.engine.model.request import LOAD_NOTE, DesignRequest
from clustergen.engine.sizing.bom import totals
from clustergen.errors import InfeasibleDesignError, RequestError
from clustergen.units import watts

Planner = Callable[[Catalog, DesignRequest], Design]

#: what only the serving pool reads
_SERVING_ONLY = (
    "output_tokens_per_s",
    "isl_tokens",
    "osl_tokens",
    "ttft_ms",
    "tpot_ms",
    "latency_percentile",
    "interactive",
    "serving_engine",
    "disaggregated",
    "speculative_decoding",
    "tensor_parallel_gpus",
)
#: what only the training pool reads
_TRAINING_ONLY = (
    "training_tokens_t",
    "training_days",
    "training_method",
    "budget_usd",
    "price_per_gpu_hour",
    "price_per_node_hour",
    "capital_budget_usd",
    "storage_capacity_tb",
    "storage_read_gb_per_s",
    "storage_write_gb_per_s",
    "checkpoint_gb",
    "checkpoint_interval_s",
    "dataset_layout",
    "sample_mb",
)
#: the text and how it was read belong to the whole request, not to a pool
_READING: dict[str, object] = {
    "text": None,
    "understood": [],
    "not_understood": [],
    "su_architecture": None,
}


def serves_load(request: DesignRequest) -> bool:
    """Whether the request states a serving model with a load to size it for."""
    has_model = bool(request.model or request.model_params_b)
    return has_model and any(
        getattr(request, f) is not None for f in ("output_tokens_per_s", "ttft_ms", "tpot_ms")
    )


def pooled(request: DesignRequest) -> bool:
    """A mixed request that says what serves: a split of its GPUs, or a model and its load."""
    return request.workload == "mixed" and (
        request.serving_share is not None or serves_load(request)
    )


def _trains_model(request: DesignRequest) -> bool:
    return any(getattr(request, f) for f in ("training_tokens_t", "training_days", "budget_usd"))


def split_requests(request: DesignRequest) -> tuple[DesignRequest, DesignRequest]:
    """(serving, training): each pool's own request. The GPUs asked for are split by the
    stated share, or, with none, are the training pool's and the serving pool is sized from
    its load; a power cap alone is split by the share."""
    share = request.serving_share
    gpus = request.gpus  # nodes asked for are the training pool's
    if share is not None and not (request.gpus or request.power_cap_w):
        raise RequestError(
            f"a {share:.0%} serving share needs the GPUs or the power it is a share of",
            field="serving_share",
            value=share,
            hint="give the GPU count ('512 GPUs, half for inference') or a power cap",
        )
    base = request.model_copy(update={**_READING, "serving_share": None})
    serving = base.model_copy(
        update={
            "workload": "inference",
            "nodes": None,
            **dict.fromkeys(_TRAINING_ONLY),
            "gpus": None if share is None or not gpus else _share_of(gpus, share),
        }
    )
    keep_model = _trains_model(request)
    training = base.model_copy(
        update={
            "workload": "training",
            **dict.fromkeys(_SERVING_ONLY),
            "model": request.model if keep_model else None,
            "model_params_b": request.model_params_b if keep_model else None,
            "active_params_b": request.active_params_b if keep_model else None,
            "gpus": gpus - (serving.gpus or 0) if share is not None and gpus else request.gpus,
        }
    )
    if share is not None and not gpus and request.power_cap_w:
        cap = request.power_cap_w
        serving = serving.model_copy(update={"power_cap_w": cap * share})
        training = training.model_copy(update={"power_cap_w": cap * (1 - share)})
    return serving, training


def _share_of(gpus: int, share: float) -> int:
    """The serving pool's GPUs of `gpus`: in whole 8-GPU nodes when the count is, so the two
    pools' nodes add up to the GPUs asked for ("512 B200s, 40% for inference": 208 and 304,
    not 205 and 307 each rounded up to 520)."""
    node = 8 if gpus % 8 == 0 and gpus >= 16 else 1
    return max(node, round(gpus * share / node) * node)


def _drawn(d: Design) -> float:
    """What a design draws against its own cap's basis."""
    p = d.power
    return p.facility_total_w if p.cap_basis == "facility" else p.it_total_w


def plan_pools(catalog: Catalog, request: DesignRequest, plan: Planner) -> Design:
    """The serving pool first (its load is a need), then the training pool under what of the
    cap is left, joined into one design."""
    serve_req, train_req = split_requests(request)
    serving = plan(catalog, serve_req)
    if train_req.power_cap_w and serve_req.power_cap_w == request.power_cap_w:
        left = train_req.power_cap_w - _drawn(serving)
        if left < 1:
            raise InfeasibleDesignError(
                f"the serving pool alone draws {watts(_drawn(serving))}, the whole "
                f"{watts(request.power_cap_w)} cap: nothing is left to train on",
                hint="raise the power cap, or lower the serving load",
            )
        train_req = train_req.model_copy(update={"power_cap_w": left})
    training = plan(catalog, train_req)
    return join_pools(request, training, serving)


def _fabric_words(d: Design) -> tuple[str, float | None]:
    f = d.fabrics.compute
    if f is None:
        return f"no scale-out fabric ({d.platform.lone_unit})", None
    blocking = "non-blocking" if f.oversubscription <= 1 else f"{f.oversubscription:g}:1"
    tech = "InfiniBand" if f.technology == "infiniband" else "Ethernet"
    return f"{blocking} {tech} fabric", f.oversubscription


def _sized_for(role: str, request: DesignRequest, d: Design) -> str:
    load = next((u for u in request.understood if u.startswith(LOAD_NOTE)), None)
    if role == "serving":
        size = d.request.model_params_b
        # a split with no model named ("512 B200s, 40% for inference") serves what comes
        model = d.request.model or (f"a {size:g}B model" if size else "models to come")
        if load is not None:
            return f"serving {model}: {load}"
        rate = d.request.output_tokens_per_s
        if rate:
            return f"serving {model}: {rate:,.0f} output tokens/s"
        return f"serving {model} on {d.compute.gpus:,} GPUs ({request.serving_share:.0%} share)"
    if d.workload is not None and d.request.model:
        return f"training {d.request.model}"
    return f"training on the {d.compute.gpus:,} GPUs asked for"


def _bare(name: str) -> str:
    """A product name without its note in parentheses."""
    return re.sub(r"\s*\([^)]*\)\s*$", "", name)


def pool_of(role: str, request: DesignRequest, d: Design) -> Pool:
    """One pool's summary row."""
    fabric, ratio = _fabric_words(d)
    return Pool(
        role="serving" if role == "serving" else "training",
        platform=d.platform.system,
        platform_name=d.platform.name,
        gpu=d.platform.gpu,
        gpu_name=_bare(d.platform.gpu_name).removesuffix(" GPU"),
        gpus=d.compute.gpus,
        nodes=d.compute.nodes,
        fabric=fabric,
        oversubscription=ratio,
        it_power_w=d.power.it_total_w,
        power_complete=d.power.complete,
        racks=d.racks.total_racks,
        sized_for=_sized_for(role, request, d),
    )


def _power(request: DesignRequest, a: PowerSection, b: PowerSection) -> PowerSection:
    """Both pools' power, term by term; headroom against the request's own cap."""

    def add(x: float | None, y: float | None) -> float | None:
        return None if x is None or y is None else x + y

    it = a.it_total_w + b.it_total_w
    facility = a.facility_total_w + b.facility_total_w
    complete = a.complete and b.complete
    cap = request.power_cap_w
    drawn = facility if a.cap_basis == "facility" else it
    return a.model_copy(
        update={
            "compute_w": a.compute_w + b.compute_w,
            "compute_fabric_switches_w": a.compute_fabric_switches_w + b.compute_fabric_switches_w,
            "compute_fabric_optics_w": a.compute_fabric_optics_w + b.compute_fabric_optics_w,
            "storage_fabric_w": a.storage_fabric_w + b.storage_fabric_w,
            "management_network_w": a.management_network_w + b.management_network_w,
            "management_servers_w": add(a.management_servers_w, b.management_servers_w),
            "storage_w": add(a.storage_w, b.storage_w),
            "it_total_w": it,
            "facility_total_w": facility,
            "cap_w": cap,
            "headroom_w": cap - drawn if cap is not None and complete else None,
            "complete": complete,
            "unknown": sorted({*a.unknown, *b.unknown}),
            "estimated": sorted({*a.estimated, *b.estimated}),
        }
    )


def _racks(a: RacksSection, b: RacksSection) -> RacksSection:
    return a.model_copy(
        update={
            "total_racks": a.total_racks + b.total_racks,
            "network_racks": a.network_racks + b.network_racks,
            "pdus": a.pdus + b.pdus,
            "basis": f"{a.basis}; plus the serving pool's {b.total_racks} racks "
            f"({b.compute.compute_racks} compute, {b.network_racks} network)",
        }
    )


def _cap_check(power: PowerSection) -> Check | None:
    if power.cap_w is None:
        return None
    basis = power.cap_basis or "it"
    drawn = power.facility_total_w if basis == "facility" else power.it_total_w
    known = power.complete
    return Check(
        name="both pools under the power cap",
        passed=known and drawn <= power.cap_w * (1 + 1e-9),
        unknown=not known,
        figure=f"{watts(drawn)} of {watts(power.cap_w)} {basis.upper() if basis == 'it' else basis}",
        detail="the training and serving pools together, against the request's cap",
    )


def pools_line(pools: list[Pool]) -> str:
    """The first-lines statement of both pools."""
    parts = [
        f"{p.role} pool {p.gpus:,} {p.gpu_name} GPUs on {p.nodes:,} x {_bare(p.platform_name)}, "
        f"{p.fabric}, {p.sized_for}"
        for p in pools
    ]
    return f"two pools, {sum(p.gpus for p in pools):,} GPUs: " + "; ".join(parts)


def join_pools(request: DesignRequest, training: Design, serving: Design) -> Design:
    """The training pool's design carrying both pools: BOM lines of each (the serving pool's
    marked), power and racks summed, every check of each, and the pools stated first."""
    pools = [pool_of("training", request, training), pool_of("serving", request, serving)]
    bom = [
        *training.bom,
        *(
            ln.model_copy(update={"description": f"serving pool: {ln.description}"})
            for ln in serving.bom
        ),
    ]
    power = _power(request, training.power, serving.power)
    checks = [
        *(c.model_copy(update={"name": f"training pool: {c.name}"}) for c in training.checks),
        *(c.model_copy(update={"name": f"serving pool: {c.name}"}) for c in serving.checks),
    ]
    cap_check = _cap_check(power)
    if cap_check is not None:
        checks.append(cap_check)
    split = Assumed(
        field="workload",
        value="two pools",
        reason="a mixed cluster that says what serves is built as two pools: training on a "
        "training platform with a non-blocking fabric, serving sized from its own workload, "
        "never both on inference cards",
    )
    line = pools_line(pools)
    notice = f"{line}; {training.notice}" if training.notice else line
    return training.model_copy(
        update={
            "request": request,
            "pools": pools,
            "serving_pool": serving,
            "bom": bom,
            "bom_totals": totals(bom),
            "power": power,
            "racks": _racks(training.racks, serving.racks),
            "checks": checks,
            "assumptions": [split, *training.assumptions],
            "warnings": [
                *training.warnings,
                *(f"serving pool: {w}" for w in serving.warnings),
            ],
            "platform": training.platform.model_copy(
                update={"reason": f"training pool: {training.platform.reason}"}
            ),
            "notice": notice,
            # the cost of ownership is each pool's own (serving_pool.cost for the other)
            "cost": None,
        }
    )
