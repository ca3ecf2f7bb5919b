"""An MLPerf Inference benchmark named with its scenario ("Llama 2 70B on 8 H200, MLPerf
offline", "MLPerf server for Llama 3.1 405B"): the request is sized at what the benchmark
measures, the dataset's mean prompt and answer and the scenario's p99 limits
(`catalog/mlperf_benchmarks.yaml`).

Two passes: `read_mlperf` takes the words before the rule tables read (so "offline", "server"
and "interactive" are the benchmark's scenario, not the serving-regime words), and
`apply_mlperf`, after them, sets only what the request did not state itself.

"MLPerf" with no scenario is refused: MLCommons reports each scenario as its own result and no
rule makes one of them the benchmark's default, so the reader does not pick one.
"""

import re

from clustergen.catalog.workload_models import (
    LanguageModel,
    MlperfBenchmark,
    MlperfScenario,
    ScenarioLimits,
)
from clustergen.engine.request.draft import Draft
from clustergen.errors import RequestError

#: "MLPerf offline", "MLPerf Inference v5.0 server scenario", "mlperf-interactive"; not the
#: training suite
_MLPERF = re.compile(
    r"\bmlperf(?![\w-]*\s+training)(?:[\s-]+inference)?(?:[\s-]+v?\d+(?:\.\d+|\.x)?)?"
    r"(?:[\s-]+(?:closed|open|datacenter|division))*"
    r"(?:\s*[-,:]?\s*(?:the\s+)?(offline|server|interactive)(?:\s+scenarios?)?)?\b"
)

#: the field the benchmark found is kept under until `apply_mlperf`; never a request field
_KEY = "_mlperf"


def _benchmark_of(r: Draft, phrase: str) -> MlperfBenchmark:
    """The named model's benchmark, or a refusal naming the models benchmarked."""
    benchmarks = r.catalog.all(MlperfBenchmark)
    names = ", ".join(sorted(r.catalog.get(LanguageModel, b.model).name for b in benchmarks))
    model = r.fields.get("model")
    if not isinstance(model, str):
        raise RequestError(
            f"{phrase!r} names a benchmark but no model",
            hint=f"name the model; the catalog holds MLPerf Inference benchmarks of {names}",
        )
    found = next((b for b in benchmarks if b.model == model), None)
    if found is None:
        raise RequestError(
            f"MLPerf Inference has no benchmark of {model} in the catalog",
            hint=f"its benchmarks are of {names}; or give the lengths and limits yourself",
        )
    return found


def _scenario_of(bench: MlperfBenchmark, phrase: str, scenario: str | None) -> MlperfScenario:
    """The scenario named, or a refusal naming the ones the benchmark is run in."""
    scenarios = ", ".join(bench.scenarios)
    if scenario is None:
        raise RequestError(
            f"{phrase!r} names no scenario: MLPerf reports each one as its own result",
            hint=f"say which: {bench.name} is run {scenarios}",
        )
    for known in bench.scenarios:
        if known == scenario:
            return known
    raise RequestError(f"{bench.name} has no {scenario} scenario", hint=f"it is run {scenarios}")


def read_mlperf(r: Draft) -> None:
    """The MLPerf benchmark and scenario the request names, its words taken before the serving
    rules read. A pass: the benchmark is the named model's, found by the name passes. What it
    cannot answer is refused by `apply_mlperf`, once the rules have said whether the request is
    a training one (MLPerf Training is not these benchmarks)."""
    m = _MLPERF.search(r.low) if "mlperf" in r.low else None
    if m is None or not r.free(m):
        return
    if m.group(1) is not None:  # the scenario's words are the benchmark's, whatever follows
        for k in range(m.start(), m.end()):
            r.used[k] = True
    r.fields[_KEY] = (m.group(1), m.group(0).strip(), m.span())


def _ms(ms: float) -> str:
    return f"{ms / 1e3:g} s" if ms >= 1000 else f"{ms:g} ms"


def apply_mlperf(r: Draft) -> None:
    """The benchmark's lengths and the scenario's limits, for each the request did not state
    itself, with a note saying which were set. A pass: it needs every rule's reading first."""
    found = r.fields.pop(_KEY, None)
    if found is None:
        return
    assert isinstance(found, tuple)  # read_mlperf stores (scenario or None, phrase, span)
    said_scenario, phrase, (start, end) = found
    if r.members.get("workload", set()) & {"training", "fine-tuning"}:
        return  # a training request's "MLPerf" is not an inference benchmark: left unread
    bench = _benchmark_of(r, phrase)
    scenario = _scenario_of(bench, phrase, said_scenario)
    r.used[start:end] = [True] * (end - start)
    limits = bench.scenarios[scenario]
    said: list[str] = []

    def put(field: str, value: object) -> bool:
        if value is None or field in r.fields:
            return False
        r.fields[field] = value
        r.phrases[field] = phrase
        return True

    isl, osl = put("isl_tokens", bench.isl_tokens), put("osl_tokens", bench.osl_tokens)
    if isl and osl:
        said.append(f"ISL/OSL {bench.isl_tokens}/{bench.osl_tokens} (dataset means)")
    elif isl or osl:
        said.append(
            f"{'ISL' if isl else 'OSL'} {bench.isl_tokens or bench.osl_tokens} (dataset mean)"
        )
    unknown = [
        what
        for what, field, value in (
            ("prompt", "isl_tokens", bench.isl_tokens),
            ("answer", "osl_tokens", bench.osl_tokens),
        )
        if value is None and field not in r.fields
    ]
    if unknown:
        verb = "are" if len(unknown) > 1 else "is"
        said.append(f"its mean {' and '.join(unknown)} {verb} not in the catalog (assumed)")
    if scenario == "offline":
        put("interactive", False)
        if "ttft_ms" not in r.fields and "tpot_ms" not in r.fields:
            said.append("no latency limit (maximum throughput)")
    else:
        said += _limits(r, phrase, limits)
    r.understood.append(
        f"{phrase!r} -> {bench.name} {_scenario_name(scenario)}: "
        + (", ".join(said) or "the request states its lengths and limits itself")
    )


def _limits(r: Draft, phrase: str, limits: ScenarioLimits) -> list[str]:
    """The scenario's p99 limits the request did not state, with the percentile they hold at."""
    said: list[str] = []
    for field, name, ms in (
        ("ttft_ms", "TTFT", limits.ttft_p99_ms),
        ("tpot_ms", "TPOT", limits.tpot_p99_ms),
    ):
        if ms is None or field in r.fields:
            continue
        r.fields[field] = ms
        r.phrases[field] = phrase
        r.fields.setdefault("latency_percentile", 99.0)
        r.phrases.setdefault("latency_percentile", phrase)
        pct = float(r.fields["latency_percentile"])  # type: ignore[arg-type]
        held = "" if pct == 99.0 else f" (MLPerf's p99 limit, held at the request's p{pct:g})"
        said.append(f"{name} {'p99 ' if not held else ''}<= {_ms(ms)}{held}")
    return said


def _scenario_name(scenario: MlperfScenario) -> str:
    return scenario.capitalize()
