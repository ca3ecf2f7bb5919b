"""Print the workload estimators' error on every published row they are calibrated on.

    uv run python scripts/workload_calibration.py          # the error table and its summary
    uv run python scripts/workload_calibration.py --fit    # refit the inference efficiencies
    uv run python scripts/workload_calibration.py --regimes  # each regime's error (README table)
    uv run python scripts/workload_calibration.py --fit-training  # refit the MoE training curve
    uv run python scripts/workload_calibration.py --fit-dp  # refit the data-parallel exposure

Training rows: tokens/s per GPU from the MFU trend alone (the row's own table left out), and the
model-FLOPs MFU each row implies (what the priors in assumptions.yaml are the middle of).
Published pre-training runs (tests/engine/sizing/workload/training/published_runs.yaml): the
estimate's GPU-hours against the run's; held_out_runs.yaml beside it, runs no prior or curve was
fitted to, the same way. `--fit-training` grid-searches the MoE curve
(assumptions.yaml mfu-moe-max, mfu-moe-half-size-m) on the MoE rows and runs (RMS of log error)
and prints their median share of the dense MFU (mfu-moe-factor). `--fit-dp` grid-searches the
data-parallel exposure (dp-hidden-exposure, dp-exposed-cost) on the published runs and prints
each run's step: tokens per GPU, compute and gradient-sync seconds.
Inference rows: max-throughput output tokens/s per GPU from the forward model alone, and anchored
to the group's other published shapes. `--fit` grid-searches the five inference efficiencies on
the dense rows (RMS of log error) and prints the best; copy them into catalog/assumptions.yaml.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import math
import statistics
import sys
from collections.abc import Iterator
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from clustergen.catalog import load_catalog
from clustergen.catalog.loader import Catalog
from clustergen.catalog.workload_models import TrainingRow
from clustergen.engine.cache import _STORES
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.sizing.workload import estimate_request
from clustergen.engine.sizing.workload.inputs import resolve_workload
from clustergen.engine.sizing.workload.serving.estimate import (
    BAND_LIMITED_EXTRA_PCT,
    BAND_STACK_EXTRA_PCT,
    BAND_TTFT_AT_LOAD_PCT,
    BANDS_DENSE_PCT,
    BANDS_MOE_PCT,
    anchor,
)
from clustergen.engine.sizing.workload.serving.replica import Efficiency, build_replica
from clustergen.engine.sizing.workload.training import efficiency
from clustergen.engine.sizing.workload.training.estimate import (
    BAND_DENSE_PCT,
    BAND_MOE_PCT,
    BAND_SMALL_PCT,
    SMALL_MODEL_PARAMS,
    data_parallel,
    goodput,
    peak_flops,
    training_rate,
)
from clustergen.engine.sizing.workload.training.method import training_flops_per_token
from clustergen.evals.calibration import (
    FigureError,
    curve_errors,
    inference_errors,
    inference_inputs,
    offline_run_errors,
    request_from_fields,
    run_errors,
    server_run_errors,
    training_errors,
)


def _summary(name: str, errors: list[float]) -> str:
    if not errors:
        return f"{name}: no rows"
    absolute = [abs(e) for e in errors]
    rms = math.sqrt(statistics.mean(e * e for e in errors))
    return (
        f"{name}: {len(errors)} rows, mean {statistics.mean(errors):+.1%}, "
        f"median |e| {statistics.median(absolute):.1%}, RMS {rms:.1%}, max |e| {max(absolute):.1%}"
    )


def show_training() -> None:
    catalog = load_catalog()
    rows = training_errors(catalog)
    print("TRAINING (tokens/s per GPU: published vs the MFU trend alone)")
    for r, row in zip(rows, catalog.all(TrainingRow), strict=True):
        w = resolve_workload(
            catalog,
            DesignRequest(
                model=row.model,
                gpu=row.gpu,
                precision=row.precision,
                sequence_tokens=row.sequence_tokens,
                workload="training",
            ),
        )
        mfu = (
            r.published
            * w.arch.training_flops_per_token(row.sequence_tokens)
            / peak_flops(w.gpu, w.precision)
        )
        print(
            f"  {r.label:58} {r.published:>9,.0f} {r.estimated:>9,.0f} {r.error:+7.1%}"
            f"  row MFU {mfu:.3f}"
        )
    print("  " + _summary("dense", [r.error for r in rows if not r.moe]))
    print("  " + _summary("moe", [r.error for r in rows if r.moe]))
    print("PUBLISHED RUNS (GPU-hours: published vs the estimate)")
    runs = run_errors(catalog, published_runs())
    for r in runs:
        print(f"  {r.label:58} {r.published:>11,.0f} {r.estimated:>11,.0f} {r.error:+7.1%}")
    print("  " + _summary("dense", [r.error for r in runs if not r.moe]))
    print("  " + _summary("moe", [r.error for r in runs if r.moe]))
    print("  " + _within(runs))
    print("HELD-OUT RUNS (in no fit; GPU-hours: published vs the estimate; step: a measured step)")
    stepped = {r["id"] for r in published_runs(HELD_OUT) if r.get("step_time_only")}
    held = run_errors(catalog, published_runs(HELD_OUT))
    for r in held:
        mark = "  step" if r.label in stepped else ""
        print(f"  {r.label:58} {r.published:>11,.0f} {r.estimated:>11,.0f} {r.error:+7.1%}{mark}")
    print("  " + _summary("dense", [r.error for r in held if not r.moe]))
    print("  " + _summary("moe", [r.error for r in held if r.moe]))
    print("  " + _within(held))


def _within(runs: list[FigureError], pct: float = 25.0) -> str:
    """How many runs the estimate holds within +/-`pct` %, whatever band it states."""
    n = sum(abs(r.error) * 100 <= pct for r in runs)
    return f"within +/-{pct:g} %: {n} of {len(runs)}"


def show_inference(rows: list[FigureError]) -> None:
    print("INFERENCE (output tokens/s per GPU: published vs model alone vs anchored to the rest)")
    for r in rows:
        interp = "" if r.interpolation_error is None else f"{r.interpolation_error:+7.1%}"
        print(f"  {r.label:58} {r.published:>9,.0f} {r.estimated:>9,.0f} {r.error:+7.1%} {interp}")
    for moe in (False, True):
        kind = "moe" if moe else "dense"
        sel = [r for r in rows if r.moe == moe]
        print("  " + _summary(f"{kind} model", [r.error for r in sel]))
        print(
            "  "
            + _summary(
                f"{kind} anchored",
                [e for r in sel if (e := r.interpolation_error) is not None],
            )
        )


def fit() -> None:
    catalog = load_catalog()
    base = Efficiency.of(catalog)
    grid = itertools.product(
        [x / 100 for x in range(45, 81, 5)],
        [x / 100 for x in range(45, 86, 5)],
        [x / 100 for x in range(80, 101, 5)],
        [0.5, 0.55, 0.6, 0.65, 0.7],
        [0.15, 0.2, 0.25],
    )
    rows = inference_inputs(catalog)
    dense = [pt for pt in rows if not pt[2].arch.moe]
    moes = [pt for pt in rows if pt[2].arch.moe]
    best: tuple[float, Efficiency] | None = None
    for pre, dec, mem, fp4, tpx in grid:
        eff = base._replace(prefill=pre, decode=dec, memory=mem, fp4=fp4, tp_exponent=tpx)
        found = inference_errors(catalog, eff, anchored=False, inputs=dense)
        errs = [math.log(1 + r.error) for r in found]
        rms = math.sqrt(statistics.mean(e * e for e in errs))
        if best is None or rms < best[0]:
            best = (rms, eff)
    assert best is not None
    print(f"best RMS log error {best[0]:.4f}: {best[1]}")
    moe_best: tuple[float, float] | None = None
    for moe in [x / 100 for x in range(10, 101, 5)]:
        eff = best[1]._replace(moe=moe)
        found = inference_errors(catalog, eff, anchored=False, inputs=moes)
        errs = [math.log(1 + r.error) for r in found]
        rms = math.sqrt(statistics.mean(e * e for e in errs))
        if moe_best is None or rms < moe_best[0]:
            moe_best = (rms, moe)
    print(f"MoE: best RMS log error {moe_best[0]:.4f} at inference-moe-efficiency {moe_best[1]}")


SERVING_TESTS = Path(__file__).resolve().parent.parent / "tests/engine/sizing/workload/serving"
RUNS = Path(__file__).resolve().parent.parent / (
    "tests/engine/sizing/workload/training/published_runs.yaml"
)


HELD_OUT = RUNS.with_name("held_out_runs.yaml")


def published_runs(path: Path = RUNS) -> list[dict[str, object]]:
    """The published pre-training runs the training estimate is checked against (`path`: the
    held-out ones, in no fit)."""
    runs: list[dict[str, object]] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return runs


def fit_training() -> None:
    """Grid-search the MoE curve's best share and half size on the MoE rows and runs: the MFU
    each measured, against the dense trend x the curve (x the NVLink-domain gain)."""
    catalog = load_catalog()
    points = []
    for row in catalog.all(TrainingRow):
        w = resolve_workload(
            catalog,
            DesignRequest(
                model=row.model,
                gpu=row.gpu,
                gpus=row.gpus,
                precision=row.precision,
                sequence_tokens=row.sequence_tokens,
                workload="training",
            ),
        )
        flops = training_flops_per_token(w.arch, w.sequence)
        if w.arch.moe:
            points.append((w, row.tokens_per_s_per_gpu * flops / peak_flops(w.gpu, w.precision)))
    for r in published_runs():
        fields = {k: r.get(k) for k in ("model", "gpu", "gpus", "sequence_tokens", "precision")}
        request = DesignRequest(
            **{k: v for k, v in fields.items() if v is not None},
            model_params_b=r.get("params_b"),
            active_params_b=r.get("active_params_b"),
            workload="training",
        )
        w = resolve_workload(catalog, request)
        if not w.arch.moe:
            continue
        gpus = int(str(r.get("gpus") or 4096))
        per_gpu = float(str(r["tokens_t"])) * 1e12 / (float(str(r["gpu_hours"])) * 3600)
        flops = training_flops_per_token(w.arch, w.sequence)
        measured = per_gpu / goodput(catalog, gpus) * flops / peak_flops(w.gpu, w.precision)
        points.append((w, measured))
    gain = float(catalog.assumption("mfu-moe-nvl-gain").value)
    shares = []
    for w, measured in points:
        dense = float(catalog.assumption(f"mfu-dense-{w.precision}").value)
        dense *= efficiency.size_factor(catalog, w.arch.active)
        shares.append(measured / dense / (gain if w.nvlink_gpus >= 32 else 1))
    print(
        f"median share of the dense MFU over the {len(shares)} points (8-GPU domains): "
        f"{statistics.median(shares):.2f} (mfu-moe-factor, a MoE of unknown shape)"
    )
    best: tuple[float, float, float] | None = None
    for top in [x / 100 for x in range(30, 71)]:
        for half in [x / 10 for x in range(2, 100, 1)]:
            errs = []
            for w, measured in points:
                size = efficiency.expert_matmul_m(w.arch) or 1.0
                dense = float(catalog.assumption(f"mfu-dense-{w.precision}").value)
                dense *= efficiency.size_factor(catalog, w.arch.active)
                factor = top * size / (size + half) * (gain if w.nvlink_gpus >= 32 else 1)
                errs.append(math.log(dense * factor / measured))
            rms = math.sqrt(statistics.mean(e * e for e in errs))
            if best is None or rms < best[0]:
                best = (rms, top, half)
    assert best is not None
    print(
        f"best RMS log error {best[0]:.3f} over {len(points)} points: mfu-moe-max {best[1]:g}, "
        f"mfu-moe-half-size-m {best[2]:g}"
    )


@contextlib.contextmanager
def _dp_terms(catalog: Catalog, overrides: dict[str, float]) -> Iterator[None]:
    """The data-parallel constants replaced by `overrides` while the block runs (the engine's
    answers cached on `catalog` dropped before and after)."""
    original = efficiency.constant
    _STORES.pop(id(catalog), None)

    def patched(catalog: Catalog, name: str) -> float:
        return overrides[name] if name in overrides else original(catalog, name)

    efficiency.constant = patched
    try:
        yield
    finally:
        efficiency.constant = original
        _STORES.pop(id(catalog), None)


def fit_dp() -> None:
    """Grid-search the data-parallel exposure (dp-hidden-exposure, dp-exposed-cost) on the
    published runs (RMS of log error; the held-out runs in no fit), then print each run's step:
    tokens per GPU, compute and gradient-sync seconds, the factor, the error."""
    catalog = load_catalog()
    runs = published_runs()
    best: tuple[float, float, float] | None = None
    for hidden in [x / 10 for x in range(21)]:
        for cost in [x / 2 for x in range(2, 9)]:
            with _dp_terms(catalog, {"dp-hidden-exposure": hidden, "dp-exposed-cost": cost}):
                errs = [math.log(1 + r.error) for r in run_errors(catalog, runs)]
            rms = math.sqrt(statistics.mean(e * e for e in errs))
            if best is None or rms < best[0]:
                best = (rms, hidden, cost)
    assert best is not None
    print(
        f"best RMS log error {best[0]:.3f} over {len(runs)} runs: dp-hidden-exposure "
        f"{best[1]:g}, dp-exposed-cost {best[2]:g}"
    )
    with _dp_terms(catalog, {"dp-hidden-exposure": best[1], "dp-exposed-cost": best[2]}):
        for path in (RUNS, HELD_OUT):
            for r, run in zip(
                run_errors(catalog, published_runs(path)), published_runs(path), strict=True
            ):
                print(f"  {r.label:32} {r.error:+7.1%}  {_dp_step(catalog, run)}")


def _dp_step(catalog: Catalog, run: dict[str, object]) -> str:
    fields = {
        "model": run.get("model"),
        "model_params_b": run.get("params_b"),
        "active_params_b": run.get("active_params_b"),
        "gpu": run["gpu"],
        "gpus": run.get("gpus"),
        "training_tokens_t": run["tokens_t"],
        "sequence_tokens": run.get("sequence_tokens"),
        "precision": run["precision"],
        "workload": "training",
    }
    request = request_from_fields(catalog, fields)
    estimate = estimate_request(catalog, request)[0]
    w = resolve_workload(catalog, request)
    gpus = estimate.gpus_required or 1
    dp = data_parallel(catalog, w, training_rate(catalog, w), gpus)
    if dp is None:
        return f"{gpus:>6,} GPUs  (no data-parallel term)"
    return (
        f"{gpus:>6,} GPUs {dp.tokens_per_gpu:>8,.0f} tok/GPU/step compute {dp.compute_s:5.2f} s "
        f"sync {dp.sync_s:5.2f} s ({dp.fabric_gbps:g} Gb/s) factor {dp.factor:.2f}"
    )


def _latency_bound() -> tuple[list[float], list[float]]:
    """Output tokens/s and TTFT errors at the published latency-throughput points (NIM), the
    replica at the users in flight, closed loop."""
    catalog = load_catalog()
    eff = Efficiency.of(catalog)
    tokens, ttfts = [], []
    for t in yaml.safe_load((SERVING_TESTS / "latency_bound.yaml").read_text()):
        request = DesignRequest(
            model=t["model"],
            gpu=t["gpu"],
            precision=t["precision"],
            isl_tokens=t["isl_tokens"],
            osl_tokens=t["osl_tokens"],
            workload="inference",
        )
        w = resolve_workload(catalog, request)
        rep = build_replica(w.arch, w.gpu, w.precision, t["tp"], 1, w.isl, w.osl, eff)
        assert rep is not None
        rep = anchor(catalog, w, eff).on(rep)
        for p in t["points"]:
            users = p["users"]
            itl, ttft = rep.step_s(users), rep.ttft_s(users)
            tokens.append(users * w.osl / (ttft + w.osl * itl) / p["tokens_per_s"] - 1)
            ttfts.append(ttft * 1e3 / p["ttft_ms"] - 1)
    return tokens, ttfts


def regime_rows() -> list[tuple[str, str, list[float], float]]:
    """(regime, what is compared, errors, the band the estimate states) for every regime."""
    catalog = load_catalog()
    inference = inference_errors(catalog)
    stack = curve_errors(catalog, yaml.safe_load((SERVING_TESTS / "stack_curves.yaml").read_text()))
    tokens, ttfts = _latency_bound()
    runs = server_run_errors(
        catalog, yaml.safe_load((SERVING_TESTS / "server_runs.yaml").read_text())
    )
    offline = offline_run_errors(
        catalog, yaml.safe_load((SERVING_TESTS / "offline_runs.yaml").read_text())
    )

    def interp(moe: bool) -> list[float]:
        return [e for r in inference if r.moe == moe and (e := r.interpolation_error) is not None]

    return [
        (
            "offline, dense",
            "TensorRT-LLM max throughput, anchored to the table's other lengths",
            interp(False),
            BANDS_DENSE_PCT[0],
        ),
        (
            "offline, dense",
            "the same rows, forward model alone",
            [r.error for r in inference if not r.moe],
            BANDS_DENSE_PCT[1],
        ),
        ("offline, MoE", "TensorRT-LLM max throughput, anchored", interp(True), BANDS_MOE_PCT[0]),
        (
            "offline, MoE",
            "the same rows, forward model alone",
            [r.error for r in inference if r.moe],
            BANDS_MOE_PCT[1],
        ),
        (
            "server (latency-bound)",
            "NIM users in flight: output tokens/s",
            tokens,
            BANDS_DENSE_PCT[0] + BAND_LIMITED_EXTRA_PCT,
        ),
        (
            "server (latency-bound)",
            "NIM users in flight: TTFT at load",
            ttfts,
            BAND_TTFT_AT_LOAD_PCT,
        ),
        (
            "server, p99 limits, long prompts",
            "MLPerf v5.0/v5.1 Llama 3.1 405B server and interactive runs: tokens/s per GPU",
            [r.error for r in runs if "405b" in r.model],
            BANDS_DENSE_PCT[0] + BAND_LIMITED_EXTRA_PCT,
        ),
        (
            "server, p99 limits, short prompts",
            "MLPerf v5.0/v5.1 Llama 2 70B server and interactive runs: output tokens/s per GPU",
            [r.error for r in runs if r.model == "llama-2-70b"],
            BANDS_DENSE_PCT[0] + BAND_LIMITED_EXTRA_PCT,
        ),
        (
            "server, p99 limits, small dense",
            "MLPerf v5.1 Llama 3.1 8B server and interactive runs (forward model)",
            [r.error for r in runs if r.model == "llama-3.1-8b"],
            BANDS_DENSE_PCT[1] + BAND_LIMITED_EXTRA_PCT,
        ),
        (
            "server, p99 limits, MoE",
            "MLPerf v5.0/v5.1 Mixtral 8x7B, DeepSeek-R1 server runs (known misses)",
            [r.error for r in runs if r.moe],
            BANDS_MOE_PCT[1] + BAND_LIMITED_EXTRA_PCT,
        ),
        (
            "offline, MLPerf runs, dense",
            "MLPerf v5.1 Llama 3.1 8B (forward model) and 405B offline runs",
            [r.error for r in offline if not r.moe],
            BANDS_DENSE_PCT[1],
        ),
        (
            "offline, MLPerf runs, MoE",
            "MLPerf v5.0/v5.1 Mixtral 8x7B, DeepSeek-R1 offline runs (R1: known misses)",
            [r.error for r in offline if r.moe],
            BANDS_MOE_PCT[1],
        ),
        (
            "disaggregated + MTP, MoE",
            "InferenceX curves at a tokens/s per user",
            [r.error for r in stack],
            BANDS_MOE_PCT[0] + BAND_LIMITED_EXTRA_PCT + BAND_STACK_EXTRA_PCT,
        ),
        *_training_regimes(catalog),
    ]


def _training_regimes(catalog: Catalog) -> list[tuple[str, str, list[float], float]]:
    """The training regimes' rows: the Megatron-Bridge rows, the published runs and the held-out
    ones, each by dense size and MoE."""
    training = training_errors(catalog)
    trained = run_errors(catalog, published_runs())
    held_runs = published_runs(HELD_OUT)
    held = run_errors(catalog, held_runs)
    # a held-out figure is either a measured step (an MFU or a throughput: the step-time model
    # alone) or a whole run (GPUs x days, restarts and all): each is its own row
    stepped = {r["id"] for r in held_runs if r.get("step_time_only")}

    def small(r: FigureError) -> bool:
        return r.active_params_b * 1e9 < SMALL_MODEL_PARAMS

    return [
        (
            "training, dense >= 15B",
            "Megatron-Bridge tokens/s per GPU, MFU prior alone",
            [r.error for r in training if not r.moe and not small(r)],
            BAND_DENSE_PCT,
        ),
        (
            "training, dense >= 15B",
            "published pre-training runs: GPU-hours",
            [r.error for r in trained if not r.moe and not small(r)],
            BAND_DENSE_PCT,
        ),
        (
            "training, dense >= 15B",
            "held-out measured steps (MFU or throughput, in no fit): GPU-hours",
            [r.error for r in held if not r.moe and not small(r) and r.label in stepped],
            BAND_DENSE_PCT,
        ),
        (
            "training, dense >= 15B",
            "held-out whole runs (in no fit): GPU-hours",
            [r.error for r in held if not r.moe and not small(r) and r.label not in stepped],
            BAND_DENSE_PCT,
        ),
        (
            "training, MoE >= 15B active",
            "the same, MoE rows",
            [r.error for r in training if r.moe and not small(r)],
            BAND_MOE_PCT,
        ),
        (
            "training, MoE",
            "published pre-training runs: GPU-hours",
            [r.error for r in trained if r.moe],
            BAND_MOE_PCT,
        ),
        (
            "training, MoE",
            "held-out runs (in no fit): GPU-hours",
            [r.error for r in held if r.moe],
            BAND_MOE_PCT,
        ),
        (
            "training, under 15B",
            "the same, small models (one-sided band)",
            [r.error for r in training if small(r)],
            BAND_SMALL_PCT,
        ),
        (
            "training, under 15B",
            "published pre-training runs: GPU-hours (one-sided band)",
            [r.error for r in trained if small(r) and not r.moe],
            BAND_SMALL_PCT,
        ),
        (
            "training, under 15B",
            "held-out measured steps (in no fit): GPU-hours (one-sided band)",
            [r.error for r in held if small(r) and not r.moe and r.label in stepped],
            BAND_SMALL_PCT,
        ),
        (
            "training, under 15B",
            "held-out whole runs (in no fit): GPU-hours (one-sided band)",
            [r.error for r in held if small(r) and not r.moe and r.label not in stepped],
            BAND_SMALL_PCT,
        ),
    ]


def regimes_markdown() -> str:
    """The README's calibration table: each regime's cases, RMS and worst error, and band."""
    lines = [
        "| regime | compared with | cases | RMS | worst | band stated |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for regime, what, errors, band in regime_rows():
        rms = math.sqrt(statistics.mean(e * e for e in errors))
        worst = max(errors, key=abs)
        lines.append(
            f"| {regime} | {what} | {len(errors)} | {rms:.0%} | {worst:+.0%} | +/-{band:g}% |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", action="store_true", help="refit the inference efficiencies")
    parser.add_argument("--regimes", action="store_true", help="each regime's error, Markdown")
    parser.add_argument("--fit-training", action="store_true", help="refit the MoE curve")
    parser.add_argument("--fit-dp", action="store_true", help="refit the data-parallel term")
    args = parser.parse_args()
    if args.fit_dp:
        fit_dp()
        return
    if args.fit_training:
        fit_training()
        return
    if args.regimes:
        print(regimes_markdown())
        return
    if args.fit:
        fit()
        return
    show_training()
    show_inference(inference_errors(load_catalog()))


if __name__ == "__main__":
    main()
