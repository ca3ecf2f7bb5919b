"""Runners for the agent modes: `llm` (a live model on NIM or any OpenAI-compatible endpoint) and
`replay` (recorded model answers, offline).

The NIM agent (issue 4) lands separately; until then both modes refuse with a ConfigError. Each is
one factory: replace its body with one that builds the agent and returns a `Runner`. The runner
should honour `options.model`, write its recordings under `options.record_dir`, and pace requests
with `clustergen.evals.ratelimit.TokenBucket` at `options.requests_per_minute`
(default `DEFAULT_REQUESTS_PER_MINUTE`), retrying 429s after Retry-After via `TokenBucket.defer`.
This module may import `clustergen.agent` (pyproject exempts it from the banned-import rule).
"""

from __future__ import annotations

from clustergen.errors import ConfigError
from clustergen.evals.runners import Runner, RunnerOptions, register_runner


def _unavailable(mode: str) -> ConfigError:
    return ConfigError(
        f"{mode} mode: agent runner not available in this build",
        hint="use --mode offline; the NIM agent runner arrives with the agent (issue 4)",
    )


@register_runner("llm")
def llm_runner(options: RunnerOptions) -> Runner:
    """A live model through the agent loop."""
    raise _unavailable("llm")


@register_runner("replay")
def replay_runner(options: RunnerOptions) -> Runner:
    """Recorded model answers replayed through the agent loop, with no network."""
    raise _unavailable("replay")
