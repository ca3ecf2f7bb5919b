"""Which mode makes the design: the NIM agent, the offline planner, or the agent with the planner
behind it. One function so the CLI, the eval harness and the MCP server choose the same way."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import httpx

from clustergen.agent.client import ChatClient
from clustergen.agent.loop import Agent
from clustergen.agent.settings import AgentSettings, load_settings
from clustergen.agent.trace import Trace
from clustergen.catalog.loader import Catalog
from clustergen.engine.model.design import Design
from clustergen.engine.request import DesignRequest
from clustergen.engine.search.planner import plan_design
from clustergen.errors import AgentError, ConfigError

ModeChoice = Literal["auto", "llm", "offline"]


def design(
    catalog: Catalog,
    request: DesignRequest,
    *,
    mode: ModeChoice = "auto",
    settings: AgentSettings | None = None,
    trace_path: Path | None = None,
    http_client: httpx.Client | None = None,
    on_event: Callable[[str, dict[str, Any]], None] | None = None,
) -> Design:
    """A design in the chosen mode. In `auto` the agent runs when a key is configured and the
    planner answers, with a warning saying why, when it fails. `on_event` hears each event of
    the agent's run (each tool call) as it happens."""
    if mode == "offline":
        return plan_design(catalog, request)
    settings = settings or load_settings()
    if not settings.configured():
        if mode == "llm":
            raise ConfigError(
                "--llm needs NVIDIA_API_KEY (or CLUSTERGEN_BASE_URL for a self-hosted endpoint)",
                hint="export it or put it in .env; or drop --llm",
            )
        return plan_design(catalog, request)
    key = settings.key()
    trace = Trace(trace_path, secrets=[key] if key else [], listener=on_event)
    try:
        client = ChatClient(settings, http_client=http_client)
        try:
            return Agent(catalog, client, settings, trace=trace).run(request)
        finally:
            if http_client is None:
                client.close()
    except AgentError as exc:
        trace.event("agent_failed", error=exc.one_line())
        if mode == "llm":
            raise
        fallback = plan_design(catalog, request)
        agent = "the self-hosted agent" if settings.self_hosted() else "the NIM agent"
        warning = f"{agent} failed ({exc.one_line()}); the offline planner made this design"
        return fallback.model_copy(update={"warnings": [warning, *fallback.warnings]})
    finally:
        trace.close()
