"""Small models shared by every section of a design: a recorded default and a check."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Technology = Literal["infiniband", "ethernet"]


class Assumed(BaseModel):
    """A default the engine chose because the request was silent."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    field: str
    value: str
    reason: str
    source: str | None = None


class Check(BaseModel):
    """One rule and how the design fared against it.

    Three outcomes: passed, failed, or unknown: the figure depends on a value the catalog does
    not have, so the rule can be neither confirmed nor refuted. An unknown check is not passed
    (`passed` is False, `unknown` True), so a design with one is not a validated design."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    passed: bool
    figure: str
    detail: str
    # "error" fails the design; "warning" informs; "info" states what a check could not compare
    # (a count no published table gives, derived by rule): read as INFO, never as PASS, and
    # `passed` true so that a consumer testing every check's `passed` sees nothing failed
    severity: str = "error"
    unknown: bool = Field(
        default=False,
        description="the figure depends on an unknown value: neither a pass nor a fail",
    )

    @model_validator(mode="after")
    def _unknown_is_not_passed(self) -> "Check":
        if self.unknown and self.passed:
            raise ValueError("a check whose figure depends on an unknown cannot pass")
        return self

    @property
    def status(self) -> Literal["PASS", "FAIL", "WARN", "UNKNOWN", "INFO"]:
        """How the check reads in a table: PASS, FAIL, WARN (a failed warning), UNKNOWN or INFO
        (nothing to compare against: said, not passed)."""
        if self.severity == "info":
            return "INFO"
        if self.passed:
            return "PASS"
        if self.unknown:
            return "UNKNOWN"
        return "WARN" if self.severity == "warning" else "FAIL"
