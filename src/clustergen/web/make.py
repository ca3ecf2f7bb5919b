"""Making the page's design: the offline planner, or the agent when a key is configured, with
each step of the agent's run worded for the page as it happens."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from clustergen.catalog.loader import Catalog
from clustergen.engine.model.design import Design
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design
from clustergen.errors import RequestError
from clustergen.redact import redact_known, redact_known_model
from clustergen.web.form import Form

if TYPE_CHECKING:
    from clustergen.agent.settings import AgentSettings

#: hears one line of progress
Progress = Callable[[str], None]


def make_design(
    catalog: Catalog,
    form: Form,
    settings: AgentSettings | None,
    progress: Progress | None = None,
) -> Design:
    """The design `form` asks for. With `settings` configured the agent makes it (the planner
    answers, with a warning, when the agent fails), each step told to `progress`."""
    if form.empty():
        raise RequestError('give a request, e.g. "512 GPUs training, 5 MW"')
    request = merge_request(catalog, form.text or None, form.fields(catalog))
    if settings is None or not settings.configured():
        return plan_design(catalog, request)
    from clustergen.agent.modes import design

    def hear(kind: str, data: dict[str, Any]) -> None:
        line = step_words(kind, data)
        if line is not None and progress is not None:
            progress(redact_known(line))

    made = design(catalog, request, mode="auto", settings=settings, on_event=hear)
    return redact_known_model(made)


def step_words(kind: str, data: dict[str, Any]) -> str | None:
    """One line for an agent event the page shows (each model turn and tool call), else None."""
    if kind == "start":
        return f"asking {data.get('model')}"
    if kind == "model_request":
        return f"turn {data.get('turn')}: waiting for the model"
    if kind == "tool_call":
        return f"tool call: {data.get('tool')}"
    if kind == "more_tools":
        return "tool call: more_tools"
    if kind == "submit":
        return "tool call: submit_design (the design is checked)"
    if kind == "repair":
        return f"the design was sent back: {str(data.get('problem'))[:200]}"
    if kind == "retry":
        return f"the endpoint failed ({data.get('error')}); trying again"
    if kind == "agent_failed":
        return f"the agent failed ({data.get('error')}); the offline planner answers"
    return None
