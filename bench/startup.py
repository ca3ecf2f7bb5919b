"""Where a `design --json` process's CPU time goes, phase by phase: the interpreter, pydantic,
typer, clustergen's own imports (split into pydantic model classes, dataclasses and the rest),
building the command, loading the catalog, reading the request, the trade study and the output.

Run: uv run python bench/startup.py [--runs N] [--request TEXT] [--json | --markdown]

It prints one row per phase: its CPU ms (minimum and median), its share of the whole process,
whether it is the floor or clustergen's own, its budget, and what it is. `--markdown` prints the
same table as CONTRIBUTING.md's "Start-up" section shows it.

The phases fall in two groups. The floor (the interpreter, pydantic, typer) is reported but not
budgeted: the project does not control it. What clustergen controls (its own imports, building
the command, the catalog, reading the request, planning, output) is checked against
`BUDGET_X_FLOOR`, a share of the floor measured in the same run; the budget column gives it in ms
and marks a phase that went over.

Each phase is timed in CPU time (time.process_time), not wall time, so another process on a
shared machine moves it less; every figure is the minimum over N fresh interpreters (median
beside it). The phases run in the order a real `clustergen design --json` runs them, with the
collector tuned and pydantic's plugin loader skipped as `cli.app.run` does. Class-building times come from wrapping pydantic's
model metaclass and `dataclasses._process_class` while clustergen's modules import: a
measurement aid here only, never in the package. Together the phases come within a few ms of the
process's CPU time in bench.py (what is left is the interpreter's teardown, skipped by os._exit).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
from collections.abc import Iterable

#: the child: imports and runs one design phase by phase, printing {phase: cpu ms} as JSON
_CHILD = r"""
import contextlib, gc, io, json, os, sys, time
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")  # as cli.app.run does
cpu = time.process_time
start = cpu()
times = {}
def lap(name, since=[start]):
    now = cpu()
    times[name] = (now - since[0]) * 1e3
    since[0] = now
    return now
import typer, typer.main
lap("import typer")
import clustergen.cli.app as app
app._no_plugin_scan()  # as cli.app.run does, before pydantic is imported
gc.set_threshold(app._GC_YOUNG, 10, 10)
lap("import clustergen.cli.app")
import pydantic
lap("import pydantic")
import annotated_types, pydantic.json_schema, pydantic.types, pydantic._internal._generate_schema
class _First(pydantic.BaseModel):  # pydantic's one-time work on its first model, whatever it is
    n: int
lap("pydantic's modules and one-time work of its first model")
import dataclasses
from pydantic._internal import _model_construction as construction
built = {"models": 0.0, "dataclasses": 0.0}
depth = [0]
make_model = construction.ModelMetaclass.__new__
def timed_model(mcs, *args, **kwargs):
    t = cpu()
    depth[0] += 1
    try:
        return make_model(mcs, *args, **kwargs)
    finally:
        depth[0] -= 1
        if depth[0] == 0:
            built["models"] += cpu() - t
construction.ModelMetaclass.__new__ = timed_model
make_dataclass = dataclasses._process_class
def timed_dataclass(*args, **kwargs):
    t = cpu()
    try:
        return make_dataclass(*args, **kwargs)
    finally:
        built["dataclasses"] += cpu() - t
dataclasses._process_class = timed_dataclass
import clustergen.cli.design_cmd as design_cmd
import clustergen.catalog, clustergen.cli.workload_view, clustergen.engine.model.design
import clustergen.engine.request.parse, clustergen.engine.request.resolve
import clustergen.engine.search.planner as planner
lap("import clustergen's modules for design")
times["  of which pydantic model classes"] = built["models"] * 1e3
times["  of which dataclasses"] = built["dataclasses"] * 1e3
argv = ["design", sys.argv[1], "--offline", "--json"]
command = typer.main.get_command(app._only("design"))
command.make_context("clustergen", argv)
lap("typer: build the design command, parse argv")
catalog = clustergen.catalog.load_catalog()
lap("load the catalog (cached parse, validate, hash)")
request = design_cmd.load_request(catalog, sys.argv[1], None, {})
lap("read the request")
design = planner.plan_design(catalog, request)
lap("plan_design (the trade study)")
with contextlib.redirect_stdout(io.StringIO()):
    design_cmd.print_json(design)
lap("print the JSON")
print(json.dumps(times))
"""


INTERPRETER = "interpreter start and exit (python -c pass)"
FLOOR_ROW = "floor: interpreter, pydantic, typer (not budgeted)"
OURS_ROW = "clustergen: its imports, command, catalog, request, plan, output"

#: What clustergen does not control: the interpreter, typer and pydantic (its import and the
#: modules its first model loads; its plugin loader is skipped, `cli.app._no_plugin_scan`).
#: Reported, never budgeted.
FLOOR = (
    INTERPRETER,
    "import typer",
    "import pydantic",
    "pydantic's modules and one-time work of its first model",
)

#: The budget of each phase clustergen controls, as a share of the floor measured in the same run
#: (so a loaded or a faster machine moves both alike): its own imports (mostly building the
#: contract types' pydantic classes), the command, the catalog, the request, planning and output.
#: A phase over its budget is a regression to explain in the commit that causes it. The shares
#: were raised by a fifth when the floor lost pydantic's plugin loader (~30 ms): the same ms. The
#: figures, what they come to in ms and why they are what they are: CONTRIBUTING.md, "Start-up".
BUDGET_X_FLOOR = {
    "import clustergen.cli.app": 0.03,
    "import clustergen's modules for design": 1.5,
    "  of which pydantic model classes": 0.95,
    "  of which dataclasses": 0.06,
    "typer: build the design command, parse argv": 0.06,
    "load the catalog (cached parse, validate, hash)": 0.2,
    "read the request": 0.07,
    "plan_design (the trade study)": 0.55,
    "print the JSON": 0.05,
}


#: What each phase is, for the table (`--markdown` prints it as CONTRIBUTING.md shows it).
WHAT = {
    INTERPRETER: "CPython's own start and exit, `site` included",
    "import typer": "the CLI framework and the click core it carries",
    "import clustergen.cli.app": "the command table; no command module, no pydantic",
    "import pydantic": "pydantic and pydantic-core (the validator, in Rust)",
    "pydantic's modules and one-time work of its first model": (
        "schema generation's modules, and what any first model class pays once"
    ),
    "import clustergen's modules for design": (
        "the design command, catalog, request reader, engine and their models"
    ),
    "  of which pydantic model classes": (
        "building the contract types' classes: catalog entries, request, Design tree"
    ),
    "  of which dataclasses": "the few left outside the engine (the Catalog, a CLI option table)",
    "typer: build the design command, parse argv": "the command's options from DesignRequest",
    "load the catalog (cached parse, validate, hash)": (
        "cached JSON of the YAML, every entry validated, references and names checked, hashed"
    ),
    "read the request": "the words read into DesignRequest fields, then validated",
    "plan_design (the trade study)": "every candidate platform sized as a whole design, weighed",
    "print the JSON": "dump, indent, mask any credential, write",
}


def _interpreter_ms(runs: int, env: dict[str, str]) -> list[float]:
    """CPU time of `python -c pass`: the interpreter's own start and exit."""
    out = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-c", "pass"], check=True, env=env)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        out.append((after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1e3)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=9, help="fresh interpreters per figure")
    ap.add_argument("--request", default="512 GPUs training, 5 MW", help="the request designed")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    args = ap.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    # one warm-up: bytecode cache and parsed-catalog cache filled, as bench.py has them
    subprocess.run(
        [sys.executable, "-c", _CHILD, args.request], check=True, env=env, stdout=subprocess.DEVNULL
    )
    runs = [
        json.loads(
            subprocess.run(
                [sys.executable, "-c", _CHILD, args.request],
                check=True,
                env=env,
                capture_output=True,
                text=True,
            ).stdout
        )
        for _ in range(args.runs)
    ]
    rows = {INTERPRETER: _interpreter_ms(args.runs, env)}
    rows |= {phase: [r[phase] for r in runs] for phase in runs[0]}
    whole = [p for p in rows if not p.startswith("  ")]
    ours = [p for p in whole if p not in FLOOR]
    rows[FLOOR_ROW] = _sums(rows, FLOOR, args.runs)
    rows[OURS_ROW] = _sums(rows, ours, args.runs)
    rows["total"] = _sums(rows, whole, args.runs)
    floor = min(rows[FLOOR_ROW])
    share = dict(BUDGET_X_FLOOR)
    share[OURS_ROW] = sum(BUDGET_X_FLOOR[p] for p in ours)
    budget = {p: x * floor for p, x in share.items()}
    if args.json:
        print(
            json.dumps(
                {
                    p: {
                        "min": min(v),
                        "median": statistics.median(v),
                        "budget": budget.get(p),
                        "budget_x_floor": share.get(p),
                    }
                    for p, v in rows.items()
                }
            )
        )
        return
    total = min(rows["total"])
    if args.markdown:
        print("| phase | CPU ms | share | floor or ours | budget ms | what it is |")
        print("| --- | ---: | ---: | --- | ---: | --- |")
    else:
        print(
            f"{'phase (CPU ms, min of ' + str(args.runs) + ')':66s} {'min':>6s} {'median':>6s}"
            f" {'share':>6s} {'whose':>5s} {'budget':>6s}  what it is"
        )
    for phase, values in rows.items():
        whose = (
            ""
            if phase in (FLOOR_ROW, OURS_ROW, "total")
            else ("floor" if phase in FLOOR else "ours")
        )
        limit = budget.get(phase)
        over = " over" if limit is not None and min(values) > limit else ""
        limit_text = "" if limit is None else f"{limit:.1f}{over}"
        share_text = f"{min(values) / total:.0%}"
        what = WHAT.get(phase, "")
        if args.markdown:
            name = phase.replace("  of which", "&nbsp;&nbsp;of which")
            if not whose:
                name = f"**{name}**"
            print(
                f"| {name} | {min(values):.0f} | {share_text} | {whose} | {limit_text} | {what} |"
            )
            continue
        print(
            f"{phase:66s} {min(values):6.1f} {statistics.median(values):6.1f} {share_text:>6s}"
            f" {whose:>5s} {limit_text:>6s}  {what}"
        )


def _sums(rows: dict[str, list[float]], phases: Iterable[str], runs: int) -> list[float]:
    """Run by run, the sum of `phases`."""
    chosen = [rows[p] for p in phases]
    return [sum(values[i] for values in chosen) for i in range(runs)]


if __name__ == "__main__":
    main()
