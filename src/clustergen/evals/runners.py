"""The runner seam: something that answers an eval case, and a registry of them by mode.

A runner turns a case into a `CaseRun`: the result's JSON, or the error clustergen reported, and
for model runs the turns, tool calls, tokens and latency. The harness scores the run; runners never
score. `offline` (the deterministic planner and the engine) is registered here; the agent modes
(`llm`, `replay`) are registered in `agent_runners.py`, one factory each.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field, model_validator

from clustergen.catalog import Catalog, load_catalog
from clustergen.errors import ClustergenError, ConfigError
from clustergen.evals.cases import (
    DesignCase,
    EvalCase,
    FabricCase,
    PowerCase,
    RaCase,
    SeedConfigCase,
    StorageCase,
)


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


RunnerFactory = Callable[[RunnerOptions], Runner]
_REGISTRY: dict[str, RunnerFactory] = {}


def register_runner(mode: str) -> Callable[[RunnerFactory], RunnerFactory]:
    """Register (or replace) the factory for a mode."""

    def deco(factory: RunnerFactory) -> RunnerFactory:
        _REGISTRY[mode] = factory
        return factory

    return deco


def _builtin() -> None:
    # Imported late: agent_runners imports this module to register itself.
    importlib.import_module("clustergen.evals.agent_runners")


def runner_modes() -> list[str]:
    """Modes with a registered runner."""
    _builtin()
    return sorted(_REGISTRY)


def make_runner(mode: str, options: RunnerOptions | None = None) -> Runner:
    """The runner for a mode. ConfigError for a mode nobody registered, or one the build lacks."""
    _builtin()
    factory = _REGISTRY.get(mode)
    if factory is None:
        raise ConfigError(f"unknown eval mode {mode!r}", hint=f"modes: {', '.join(runner_modes())}")
    return factory(options or RunnerOptions())


class OfflineRunner:
    """The deterministic planner and the engine: no model, no network."""

    mode = "offline"

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def run(self, case: EvalCase) -> CaseRun:
        """Answer a case with the engine function its kind names."""
        try:
            result = self._answer(case)
        except ClustergenError as err:
            return CaseRun.from_error(err)
        return CaseRun(result_json=result.model_dump(mode="json"))

    def _answer(self, case: EvalCase) -> BaseModel:
        cat = self.catalog
        if isinstance(case, DesignCase):
            from clustergen.engine.planner import plan_design
            from clustergen.engine.request import merge_request

            return plan_design(cat, merge_request(cat, case.text, case.request))
        if isinstance(case, FabricCase):
            from clustergen.engine.compute import platform_fabric

            c = case.call
            return platform_fabric(cat, c.platform, c.nodes, c.choices)
        if isinstance(case, PowerCase):
            from clustergen.engine.compute import power_first

            p = case.call
            return power_first(
                cat,
                p.platform,
                p.cap_mw * 1e6,
                choices=p.choices,
                cap_basis=p.cap_basis,
                pue=p.pue,
                whole_su=p.whole_su,
            )
        if isinstance(case, RaCase):
            from clustergen.engine.ra import recommend

            return recommend(cat, case.call.gpus, case.call.workload)
        if isinstance(case, StorageCase):
            from clustergen.engine.storage import storage_targets

            s = case.call
            return storage_targets(cat, s.tier, s.nodes, s.su_nodes)
        if isinstance(case, SeedConfigCase):
            from clustergen.engine.seedconfig import size_seed_config

            return size_seed_config(case.call)
        raise TypeError(f"no offline answer for case kind {type(case).__name__}")


@register_runner("offline")
def _offline(options: RunnerOptions) -> Runner:
    return OfflineRunner(load_catalog(options.catalog_dir))
