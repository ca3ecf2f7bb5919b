"""Runners for the agent modes.

- `llm`: a live model on NIM (or any OpenAI-compatible endpoint) through the agent loop, paced by
  a client-side token bucket; `--record DIR` also keeps each case's HTTP exchanges.
- `scripted`: the scripted stand-in model (clustergen.agent.scripted) through the same loop, with
  no network; with `--record DIR` it writes the recordings `replay` uses.
- `replay`: recorded model answers replayed through the agent loop, offline, so the agent path is
  regression-tested in CI (evals/recordings/ ships a scripted run of every design case).

`clustergen.evals.modes` registers the three factories.

Only design cases need a model. The other kinds (fabric, power, RA, storage, seed config) are
answered by the engine in every mode, so a model run scores the same figures.

When the agent cannot produce a design, the runner asks the planner whether the request is
infeasible or malformed: if it is, the engine's refusal is the case's answer (the agent was right
not to design); if not, the agent's failure is.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from clustergen.agent.client import ChatClient
from clustergen.agent.loop import Agent
from clustergen.agent.replay import (
    FunctionTransport,
    RecordingTransport,
    ReplayMismatch,
    ReplayTransport,
)
from clustergen.agent.scripted import scripted_reply
from clustergen.agent.settings import AgentSettings, load_settings
from clustergen.catalog import Catalog, load_catalog
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design
from clustergen.errors import AgentError, ClustergenError, ConfigError
from clustergen.evals.cases import DesignCase, EvalCase, builtin_evals_dir
from clustergen.evals.offline import OfflineRunner
from clustergen.evals.ratelimit import DEFAULT_REQUESTS_PER_MINUTE, TokenBucket
from clustergen.evals.runners import CaseRun, Runner, RunnerOptions, RunStats

# A replay or scripted run has no real endpoint; the URL is never dialled (the transport answers).
_NO_ENDPOINT = "http://recorded.invalid/v1"


def default_recordings_dir() -> Path:
    return builtin_evals_dir() / "recordings"


class _PacedTransport(httpx.BaseTransport):
    """Takes a token from the bucket before every request; a 429 pauses every worker."""

    def __init__(self, bucket: TokenBucket) -> None:
        self.bucket = bucket
        self.inner = httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.bucket.acquire()
        response = self.inner.handle_request(request)
        if response.status_code == 429:
            after = response.headers.get("retry-after")
            try:
                self.bucket.defer(float(after) if after else 60.0 / 40)
            except ValueError:
                self.bucket.defer(1.5)
        return response

    def close(self) -> None:
        self.inner.close()


class AgentRunner:
    """Design cases through the agent loop; other kinds through the engine."""

    def __init__(
        self,
        mode: str,
        catalog: Catalog,
        settings: AgentSettings,
        transport: Callable[[EvalCase], tuple[httpx.BaseTransport, Callable[[], None]]],
    ) -> None:
        self.mode = mode
        self.catalog = catalog
        self.settings = settings
        self.transport = transport
        self.engine = OfflineRunner(catalog)

    def run(self, case: EvalCase) -> CaseRun:
        if not isinstance(case, DesignCase):
            return self.engine.run(case)
        try:
            request = merge_request(self.catalog, case.text, case.request)
        except ClustergenError as err:
            return CaseRun.from_error(err)
        transport, done = self.transport(case)
        client = ChatClient(
            self.settings,
            http_client=httpx.Client(transport=transport),
            sleep=time.sleep if self.mode == "llm" else _no_sleep,
        )
        agent = Agent(self.catalog, client, self.settings)
        try:
            design = agent.run(request)
        except AgentError as exc:
            stats = _stats(client)
            done()
            try:
                plan_design(self.catalog, request)
            except ClustergenError as refusal:
                return CaseRun.from_error(refusal, stats)
            return CaseRun.from_error(exc, stats)
        except ClustergenError as err:
            done()
            return CaseRun.from_error(err, _stats(client))
        finally:
            client.close()
        done()
        run = design.agent
        stats = RunStats(
            turns=run.turns if run else 0,
            tool_calls=run.tool_calls if run else 0,
            prompt_tokens=run.prompt_tokens if run else 0,
            completion_tokens=run.completion_tokens if run else 0,
            latency_s=run.latency_s if run else 0.0,
        )
        return CaseRun(result_json=design.model_dump(mode="json"), stats=stats)


def _no_sleep(_: float) -> None:
    """Recorded and scripted runs never wait: nothing real is rate limited."""


def _stats(client: ChatClient) -> RunStats:
    s = client.stats
    return RunStats(
        turns=s.calls,
        tool_calls=0,
        prompt_tokens=s.prompt_tokens,
        completion_tokens=s.completion_tokens,
        latency_s=round(s.latency_s, 4),
    )


def _recorder(
    inner: Callable[[], httpx.BaseTransport], record_dir: Path | None, model: str
) -> Callable[[EvalCase], tuple[httpx.BaseTransport, Callable[[], None]]]:
    lock = threading.Lock()

    def make(case: EvalCase) -> tuple[httpx.BaseTransport, Callable[[], None]]:
        if record_dir is None:
            return inner(), lambda: None
        rec = RecordingTransport(inner())

        def save() -> None:
            with lock:
                rec.save(record_dir / "recordings" / f"{case.id}.json", model)

        return rec, save

    return make


def llm_runner(options: RunnerOptions) -> Runner:
    """A live model through the agent loop."""
    settings = load_settings(model=options.model, allow_insecure_http=options.allow_insecure_http)
    if not settings.configured():
        raise ConfigError(
            "--mode llm needs NVIDIA_API_KEY (or CLUSTERGEN_BASE_URL for a self-hosted endpoint)",
            hint="export it or put it in .env",
        )
    bucket = TokenBucket(options.requests_per_minute or DEFAULT_REQUESTS_PER_MINUTE)
    transport = _recorder(lambda: _PacedTransport(bucket), options.record_dir, settings.model)
    return AgentRunner("llm", load_catalog(options.catalog_dir), settings, transport)


def _offline_settings(model: str) -> AgentSettings:
    # the transport answers: the http URL is never dialled, so the placeholder key goes nowhere
    return AgentSettings(
        NVIDIA_API_KEY="offline-no-key",
        CLUSTERGEN_BASE_URL=_NO_ENDPOINT,
        CLUSTERGEN_MODEL=model,
        CLUSTERGEN_MAX_ATTEMPTS=1,
    ).allowing_insecure_http()


def scripted_runner(options: RunnerOptions) -> Runner:
    """The scripted stand-in model through the agent loop, offline."""
    settings = _offline_settings(options.model or "scripted")
    transport = _recorder(
        lambda: FunctionTransport(scripted_reply), options.record_dir, settings.model
    )
    return AgentRunner("scripted", load_catalog(options.catalog_dir), settings, transport)


def replay_runner(options: RunnerOptions) -> Runner:
    """Recorded model answers replayed through the agent loop, with no network."""
    source = options.replay_dir or default_recordings_dir()
    if not source.is_dir():
        raise ConfigError(
            f"no recordings at {source}",
            hint="record some with --mode llm --record DIR (or --mode scripted), then --recordings DIR",
        )
    settings = _offline_settings(options.model or "replay")

    def make(case: EvalCase) -> tuple[httpx.BaseTransport, Callable[[], None]]:
        path = source / f"{case.id}.json"
        if not path.is_file():
            path = source / "recordings" / f"{case.id}.json"
        if not path.is_file():
            raise ConfigError(f"no recording for case {case.id} in {source}")
        replay = ReplayTransport(path)

        def check() -> None:
            if replay.mismatch:
                raise ReplayMismatch(f"{case.id}: {replay.mismatch}")
            if not replay.finished:
                raise ReplayMismatch(
                    f"{case.id}: the agent stopped after {replay.position} of "
                    f"{len(replay.exchanges)} recorded requests"
                )

        return replay, check

    return AgentRunner("replay", load_catalog(options.catalog_dir), settings, make)
