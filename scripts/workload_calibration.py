"""Print the workload estimators' error on every published row they are calibrated on.

    uv run python scripts/workload_calibration.py          # the error table and its summary
    uv run python scripts/workload_calibration.py --fit    # refit the inference efficiencies

Training rows: tokens/s per GPU from the MFU prior alone (the row's own table left out), and the
model-FLOPs MFU each row implies (what the priors in assumptions.yaml are the middle of).
Inference rows: max-throughput output tokens/s per GPU from the forward model alone, and anchored
to the group's other published shapes. `--fit` grid-searches the five inference efficiencies on
the dense rows (RMS of log error) and prints the best; copy them into catalog/assumptions.yaml.
"""

from __future__ import annotations

import argparse
import itertools
import math
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from clustergen.catalog import load_catalog
from clustergen.catalog.workload_models import TrainingRow
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.sizing.workload.inputs import resolve_workload
from clustergen.engine.sizing.workload.serving.replica import Efficiency
from clustergen.engine.sizing.workload.training.estimate import peak_flops
from clustergen.evals.calibration import (
    FigureError,
    inference_errors,
    inference_inputs,
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
    print("TRAINING (tokens/s per GPU: published vs the MFU prior alone)")
    for r, row in zip(rows, catalog.all("training_throughput", TrainingRow), strict=True):
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", action="store_true", help="refit the inference efficiencies")
    args = parser.parse_args()
    if args.fit:
        fit()
        return
    show_training()
    show_inference(inference_errors(load_catalog()))


if __name__ == "__main__":
    main()
