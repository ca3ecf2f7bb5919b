"""clustergen benchmarks: whole-process CLI times and in-process engine times, each next to the
same work done by the seed memo's script (tools/cluster_model.py in seeds/000) where it has one.

Run: uv run python bench/bench.py [--json] [--repeat N] [--cli-repeat N] [--seed-memo PATH]

Every figure is a median. Process times run the installed `clustergen` console script from a
directory outside the repository, after one warm-up run, with Python's bytecode cache on (as a
normal install has it; PYTHONDONTWRITEBYTECODE is dropped for the child processes) and the
parsed-catalog cache filled. `uv run` adds its own start (~0.3 s) on top and is not counted.

The seed script is read from the seed memo at run time, never copied into this repository; without
the memo the seed column is empty. Ratios are clustergen time / seed time (above 1: slower).
The seed's numbers answer a simpler question (its fabric is port division with no spine-count,
rail, core-tier or transceiver rules, and its "design" is one power solve), so a ratio is a cost
of the extra rules, not a like-for-like race. `bench/startup.py` splits a design process's CPU
time into its phases (pydantic, typer, class building, catalog, request, trade study, output).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: the seed memo beside the repository, or beside the folder of worktrees a checkout sits in
SEED_MEMO = next(
    (
        p
        for p in (
            base / "shared" / "seeds" / "000_89844d55a238b179.txt"
            for base in (ROOT.parent, ROOT.parent.parent)
        )
        if p.is_file()
    ),
    ROOT.parent / "shared" / "seeds" / "000_89844d55a238b179.txt",
)


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of fn in milliseconds (one warm-up call first)."""
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


class Timed(float):
    """A median wall time in ms that also carries the median CPU time (user + system) in ms.

    On a shared machine wall time swings with other load; CPU time is the steadier figure."""

    cpu_ms: float

    def __new__(cls, wall_ms: float, cpu_ms: float) -> Timed:
        made = super().__new__(cls, wall_ms)
        made.cpu_ms = cpu_ms
        return made


def process_ms(cmd: list[str], repeat: int, cwd: Path) -> Timed:
    """Median wall (and CPU) time of a whole process in milliseconds, after one warm-up run."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(cmd, check=True, capture_output=True, cwd=cwd, env=env)
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, cwd=cwd, env=env)
        walls.append((time.perf_counter() - t0) * 1e3)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append((after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1e3)
    return Timed(statistics.median(walls), statistics.median(cpus))


def clustergen_cmd() -> list[str]:
    """The console script beside this interpreter (what users run), else `python -m clustergen`."""
    script = Path(sys.executable).with_name("clustergen")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "clustergen"]


class Seed:
    """The seed memo's sizing script and its example config, extracted into a temporary directory."""

    def __init__(self, memo: Path, workdir: Path) -> None:
        text = memo.read_text(encoding="utf-8")
        self.script = workdir / "cluster_model.py"
        self.config_path = workdir / "example_5mw_config.json"
        self.script.write_text(_block_after(text, "`tools/cluster_model.py`", "python"))
        self.config_path.write_text(_block_after(text, "`tools/example_5mw_config.json`", "json"))
        self.config: dict[str, Any] = json.loads(self.config_path.read_text())
        spec = importlib.util.spec_from_file_location("seed_cluster_model", self.script)
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot load {self.script}")
        self.module: ModuleType = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = self.module  # dataclasses look their module up by name
        spec.loader.exec_module(self.module)
        self.node = self.module.build_node(self.config)
        self.fabric = self.module.build_fabric(self.config)

    def solve(self, cap_w: float) -> object:
        return self.module.solve_max_nodes(cap_w, self.node, self.fabric)

    def fabric_for(self, nodes: int) -> object:
        return self.module.fabric_power_for_nodes(nodes, self.node, self.fabric)

    def process(self) -> list[str]:
        return [sys.executable, str(self.script), "--config", str(self.config_path), "--json"]


def _block_after(text: str, marker: str, lang: str) -> str:
    start = text.index(marker)
    found = re.search(rf"```{lang}\n(.*?)\n```", text[start:], re.DOTALL)
    if found is None:
        raise ValueError(f"no {lang} block after {marker} in the seed memo")
    return found.group(1) + "\n"


class _AgentRun:
    turns = 0
    tool_calls = 0
    request_kb = 0.0


def _scripted_agent(cat: Any, request: Any) -> tuple[Callable[[], object], _AgentRun]:
    import httpx

    from clustergen.agent.client import ChatClient
    from clustergen.agent.loop import Agent
    from clustergen.agent.replay import FunctionTransport
    from clustergen.agent.scripted import scripted_reply
    from clustergen.agent.settings import AgentSettings

    # a placeholder host the transport answers in process: no key ever leaves
    settings = AgentSettings(
        NVIDIA_API_KEY="bench", CLUSTERGEN_BASE_URL="http://bench.invalid/v1"
    ).allowing_insecure_http()
    info = _AgentRun()

    class Counting(FunctionTransport):
        def handle_request(self, request: httpx.Request) -> httpx.Response:
            info.request_kb += len(request.content) / 1e3
            return super().handle_request(request)

    def run() -> object:
        info.request_kb = 0.0
        client = ChatClient(settings, http_client=httpx.Client(transport=Counting(scripted_reply)))
        try:
            d = Agent(cat, client, settings).run(request)
        finally:
            client.close()
        assert d.agent is not None
        info.turns, info.tool_calls = d.agent.turns, d.agent.tool_calls
        return d

    run()
    return run, info


def _workload_rows(
    row: Callable[..., None], cat: Any, cg: list[str], outside: Path, args: Any
) -> None:
    """The workload estimator: each estimate from its resolved inputs (not the per-catalog memo
    a design run shares), and the `estimate` command as a process."""
    from clustergen.engine.model.request import DesignRequest
    from clustergen.engine.sizing.workload.inputs import resolve_workload
    from clustergen.engine.sizing.workload.serving.estimate import estimate_inference
    from clustergen.engine.sizing.workload.training.estimate import estimate_training

    train = DesignRequest(model_params_b=70, training_tokens_t=15, training_days=60)
    serve = DesignRequest(model="llama-3.1-405b", output_tokens_per_s=20000, ttft_ms=2000)
    row(
        "workload estimate: train 70B on 15T tokens in 60 days (solve GPUs), in process",
        median_ms(lambda: estimate_training(cat, resolve_workload(cat, train)), args.repeat),
        None,
    )
    row(
        "workload estimate: serve 405B at 20k tokens/s, TTFT < 2 s (replicas), in process",
        median_ms(lambda: estimate_inference(cat, resolve_workload(cat, serve)), args.repeat),
        None,
    )
    row(
        '`clustergen estimate "train a 70B model on 15T tokens in 60 days" --json` (process)',
        process_ms(
            [*cg, "estimate", "train a 70B model on 15T tokens in 60 days", "--json"],
            args.cli_repeat,
            outside,
        ),
        None,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--repeat", type=int, default=20, help="in-process runs per figure")
    ap.add_argument("--cli-repeat", type=int, default=10, help="process runs per figure")
    ap.add_argument("--seed-memo", type=Path, default=SEED_MEMO, help="seed memo with the script")
    args = ap.parse_args()

    from clustergen.catalog import load_catalog
    from clustergen.catalog.loader import Catalog
    from clustergen.engine.model.compute import FabricChoices
    from clustergen.engine.request import parse_request
    from clustergen.engine.search.planner import plan_design
    from clustergen.engine.sizing.fabric.plan import platform_fabric
    from clustergen.engine.solve.power_first import most_under_cap

    cat = load_catalog()
    request = parse_request(cat, "512 GPUs training, 5 MW")
    cg = clustergen_cmd()
    outside = Path(tempfile.mkdtemp(prefix="clustergen-bench-"))
    seed: Seed | None = None
    if args.seed_memo.is_file():
        seed = Seed(args.seed_memo, outside)

    rows: list[dict[str, Any]] = []

    def row(name: str, ours: float, theirs: float | None, unit: str = "ms") -> None:
        ratio = None if theirs is None or theirs == 0 else ours / theirs
        if unit == "/s" and ratio:
            ratio = 1 / ratio  # a rate: keep "above 1 means clustergen is slower"
        rows.append(
            {
                "figure": name,
                "clustergen": ours,
                "clustergen_cpu_ms": getattr(ours, "cpu_ms", None),
                "seed": theirs,
                "seed_cpu_ms": getattr(theirs, "cpu_ms", None),
                "unit": unit,
                "ratio": ratio,
            }
        )

    try:
        # the seed's whole job (read its config, solve, print JSON) is one process either way
        seed_process = process_ms(seed.process(), args.cli_repeat, outside) if seed else None
        row(
            "CLI start: `clustergen fabric --platform dgx-h100 --nodes 32 --json` (process)",
            process_ms(
                [*cg, "fabric", "--platform", "dgx-h100", "--nodes", "32", "--json"],
                args.cli_repeat,
                outside,
            ),
            seed_process,
        )
        if seed:
            row(
                "seed config through `clustergen size --config` (process)",
                process_ms(
                    [*cg, "size", "--config", str(seed.config_path), "--json"],
                    args.cli_repeat,
                    outside,
                ),
                seed_process,
            )
        design_ms = process_ms(
            [*cg, "design", "512 GPUs training, 5 MW", "--offline", "--json"],
            args.cli_repeat,
            outside,
        )
        row(
            '`clustergen design "512 GPUs training, 5 MW" --offline --json` (process)',
            design_ms,
            seed_process,
        )
        # the sweep a user runs (a trade study per step) and the whole bundle a design writes
        row(
            '`clustergen sensitivity "5 MW training"` (process)',
            process_ms([*cg, "sensitivity", "5 MW training"], args.cli_repeat, outside),
            seed_process,
        )
        bundle = outside / "bundle"  # replaced each run (--force), as a re-run of a design is
        row(
            '`clustergen design "512 GPUs training, 5 MW" --offline --out DIR` bundle (process)',
            process_ms(
                [
                    *cg,
                    "design",
                    "512 GPUs training, 5 MW",
                    "--offline",
                    "--out",
                    str(bundle),
                    "--force",
                ],
                args.cli_repeat,
                outside,
            ),
            seed_process,
        )
        in_process = median_ms(lambda: plan_design(cat, request), args.repeat)
        seed_solve = median_ms(lambda: seed.solve(5e6), args.repeat) if seed else None
        row("design, in process", in_process, seed_solve)
        # The same design on a catalog with nothing remembered (the answers `Catalog.memo` keeps
        # for a second design: optics, layouts, each candidate's fabric): a process's first design.
        row(
            "design, in process, first on a freshly loaded catalog (nothing memoised)",
            median_ms(
                lambda: plan_design(Catalog(cat.entries, cat.directories, cat.hash), request),
                args.repeat,
            ),
            seed_solve,
        )
        row(
            "engine designs per second",
            1e3 / in_process,
            (1e3 / seed_solve) if seed_solve else None,
            unit="/s",
        )
        # The agent loop with the scripted stand-in model over an in-memory transport: the cost of
        # the loop, the tools, the rebuild and the grounding check, without a model's latency.
        agent_design, agent_run = _scripted_agent(cat, request)
        row(
            f"agent design, scripted model, in process ({agent_run.turns} round trips, "
            f"{agent_run.tool_calls} tool calls, {agent_run.request_kb:.0f} kB sent)",
            median_ms(agent_design, max(3, args.repeat // 10)),
            None,
        )
        _workload_rows(row, cat, cg, outside, args)
        row(
            "power-first solve, 100 MW cap, dgx-h100",
            median_ms(lambda: most_under_cap(cat, "dgx-h100", 100e6), args.repeat),
            median_ms(lambda: seed.solve(100e6), args.repeat) if seed else None,
        )
        # 100,000 GPUs exceed one 3-tier QM9700 plane (65,536 ports): two planes, as built.
        row(
            "fabric for 100,000 GPUs (12,500 dgx-h100, 2 planes)",
            median_ms(
                lambda: platform_fabric(cat, "dgx-h100", 12_500, FabricChoices(planes=2)),
                args.repeat,
            ),
            median_ms(lambda: seed.fabric_for(12_500), args.repeat) if seed else None,
        )
    finally:
        shutil.rmtree(outside, ignore_errors=True)

    if args.json:
        print(
            json.dumps({"seed_memo": str(args.seed_memo) if seed else None, "rows": rows}, indent=2)
        )
        return
    print(
        f"{'figure':78s} {'clustergen':>11s} {'(cpu)':>7s} {'seed':>10s} {'(cpu)':>7s} "
        f"{'ratio':>8s} {'(cpu)':>7s}"
    )
    for r in rows:
        cpu = "" if r["clustergen_cpu_ms"] is None else f"({r['clustergen_cpu_ms']:.0f})"
        seed_cpu = "" if r["seed_cpu_ms"] is None else f"({r['seed_cpu_ms']:.0f})"
        cpu_ratio = (
            f"({r['clustergen_cpu_ms'] / r['seed_cpu_ms']:.1f}x)"
            if r["clustergen_cpu_ms"] is not None and r["seed_cpu_ms"]
            else ""
        )
        seed_text = "-" if r["seed"] is None else f"{r['seed']:.3f}"
        ratio_text = "-" if r["ratio"] is None else f"{r['ratio']:.1f}x"
        print(
            f"{r['figure']:78s} {r['clustergen']:9.2f}{r['unit']:>2s} {cpu:>7s} "
            f"{seed_text:>10s} {seed_cpu:>7s} {ratio_text:>8s} {cpu_ratio:>7s}"
        )
    print(
        "process rows: median wall ms, (median CPU ms); ratio = clustergen / seed wall time, "
        "(CPU time)"
    )
    if seed is None:
        print(f"(no seed memo at {args.seed_memo}: pass --seed-memo PATH for the seed column)")


if __name__ == "__main__":
    main()
