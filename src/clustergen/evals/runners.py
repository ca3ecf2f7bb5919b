"""The runner seam: something that answers an eval case, and a registry of them by mode.

A runner turns a case into a `CaseRun`: the result's JSON, or the error clustergen reported, and
for model runs the turns, tool calls, tokens and latency. The harness scores the run; runners never
score. This module registers no mode of its own, so it imports neither the engine nor the agent:
the built-in modes (`offline` from offline.py; `llm`, `scripted` and `replay` from
agent_runners.py) are registered by `clustergen.evals.modes`, through the same `register_runner`
any other runner uses.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field, model_validator

from clustergen.errors import ClustergenError, ConfigError
from clustergen.evals.cases import EvalCase


class RunStats(BaseModel):
    """What a model run cost: round trips, tool calls, tokens and wall time."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    turns: int = Field(default=0, ge=0, description="model round trips")
    tool_calls: int = Field(default=0, ge=0)
    prompt_tokens: int = Field(default=0, ge=0)
    completion_tokens: int = Field(default=0, ge=0)
    latency_s: float = Field(default=0.0, ge=0)


class CaseRun(BaseModel):
    """One runner's answer to one case: a result or an error (never both), and its cost."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    result_json: dict[str, Any] | None = None
    error: dict[str, Any] | None = Field(
        default=None, description='{"type": ..., "message": ...} as clustergen reports errors'
    )
    stats: RunStats | None = None

    @model_validator(mode="after")
    def _one_answer(self) -> CaseRun:
        if (self.result_json is None) == (self.error is None):
            raise ValueError("a CaseRun carries exactly one of result_json and error")
        if self.error is not None and not isinstance(self.error.get("type"), str):
            raise ValueError("error needs a string 'type'")
        return self

    @classmethod
    def from_error(cls, err: ClustergenError, stats: RunStats | None = None) -> CaseRun:
        """The run of a case that clustergen refused."""
        return cls(error=err.to_dict()["error"], stats=stats)


class Runner(Protocol):
    """Answers eval cases. Must be safe to call from several threads at once."""

    mode: str

    def run(self, case: EvalCase) -> CaseRun:
        """Answer one case. A clustergen error is an answer (CaseRun.error), not an exception."""
        ...


@dataclass(frozen=True)
class RunnerOptions:
    """Everything a runner factory may need; modes ignore what they do not use."""

    model: str | None = None
    record_dir: Path | None = None
    catalog_dir: Path | None = None
    concurrency: int = 1
    requests_per_minute: float | None = None
    replay_dir: Path | None = None
    #: the key may go over plain http to a host other than loopback (--allow-insecure-http)
    allow_insecure_http: bool = False


RunnerFactory = Callable[[RunnerOptions], Runner]
_REGISTRY: dict[str, RunnerFactory] = {}


def register_runner(mode: str) -> Callable[[RunnerFactory], RunnerFactory]:
    """Register (or replace) the factory for a mode."""

    def deco(factory: RunnerFactory) -> RunnerFactory:
        _REGISTRY[mode] = factory
        return factory

    return deco


def runner_modes() -> list[str]:
    """Modes with a registered runner (`clustergen.evals.modes` registers the built-in ones)."""
    return sorted(_REGISTRY)


def make_runner(mode: str, options: RunnerOptions | None = None) -> Runner:
    """The runner for a mode. ConfigError for a mode nobody registered, or one the build lacks."""
    factory = _REGISTRY.get(mode)
    if factory is None:
        raise ConfigError(f"unknown eval mode {mode!r}", hint=f"modes: {', '.join(runner_modes())}")
    return factory(options or RunnerOptions())
