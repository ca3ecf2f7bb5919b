"""clustergen benchmarks: in-process engine timings and whole-process CLI wall time.

Run: uv run python bench/bench.py [--json]. Reports the median of repeated runs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of fn in milliseconds (one warm-up call first)."""
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def cli_ms(args: list[str], repeat: int) -> float:
    """Median wall time of a whole `clustergen ...` process in milliseconds."""
    cmd = [sys.executable, "-m", "clustergen", *args]
    subprocess.run(cmd, check=True, capture_output=True)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--cli-repeat", type=int, default=5)
    args = ap.parse_args()

    from clustergen.catalog import load_catalog
    from clustergen.engine.compute import FabricChoices, platform_fabric, power_first
    from clustergen.engine.planner import plan_design
    from clustergen.engine.request import parse_request

    cat = load_catalog()
    request = parse_request(cat, "512 GPUs training, 5 MW")
    results = {
        # 100,000 GPUs exceed one 3-tier QM9700 plane (65,536 ports): two planes, as a real design.
        "fabric_100k_gpus_ms": median_ms(
            lambda: platform_fabric(cat, "dgx-h100", 12_500, FabricChoices(planes=2)), args.repeat
        ),
        "power_first_100mw_ms": median_ms(lambda: power_first(cat, "dgx-h100", 100e6), args.repeat),
        "design_in_process_ms": median_ms(lambda: plan_design(cat, request), args.repeat),
    }
    results["designs_per_second"] = 1e3 / results["design_in_process_ms"]
    results["cli_fabric_ms"] = cli_ms(
        ["fabric", "--platform", "dgx-h100", "--nodes", "128", "--json"], args.cli_repeat
    )
    results["cli_design_json_ms"] = cli_ms(
        ["design", "512 GPUs training, 5 MW", "--json"], args.cli_repeat
    )
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for k, v in results.items():
            print(f"{k:24s} {v:10.2f}")


if __name__ == "__main__":
    main()
