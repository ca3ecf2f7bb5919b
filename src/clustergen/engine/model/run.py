"""How a model-made design was made: the run's cost and the check of the numbers in its memo.
Pure data; the agent fills it."""

from pydantic import BaseModel, ConfigDict, Field


class GroundedNumber(BaseModel):
    """One number the model wrote, and what it matched."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    text: str = Field(description="as written, with its unit")
    value: float
    unit: str | None
    matched: bool
    matched_path: str | None = Field(default=None, description="where in the design it was found")


class GroundingReport(BaseModel):
    """Every number in the memo, matched against the design and the request within rounding."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    numbers: int
    matched: int
    unmatched: list[str]
    rounds: int = Field(description="times the model was asked to fix unmatched numbers")
    checked: list[GroundedNumber]


class AgentRun(BaseModel):
    """What the model run cost."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    model: str
    base_url: str
    protocol: str = Field(description="tools (native tool calls) or json (prompted fallback)")
    turns: int = Field(description="model round trips")
    tool_calls: int
    repairs: int
    prompt_tokens: int
    completion_tokens: int
    latency_s: float = Field(description="wall time of the whole run")
    model_latency_s: float = Field(description="time spent waiting on the model")
    retries: list[str]
