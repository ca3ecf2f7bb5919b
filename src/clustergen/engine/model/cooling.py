"""The liquid cooling of a design's liquid-cooled racks: the heat their loops carry and the
coolant distribution units (CDUs) that move it to facility water."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class LiquidCooling(BaseModel):
    """CDUs for the liquid-cooled compute racks, by the rule in `basis`.

    `cdus` is None when the CDU's capacity is unknown: `cdus_at_least` is then the floor (one
    unit per loop, and the spares), never a count stated as known."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    racks: int = Field(ge=0, description="liquid-cooled compute racks")
    rack_heat_kw: float = Field(ge=0, description="heat of one full compute rack (its power)")
    liquid_heat_fraction: float | None = Field(
        description="share of a rack's heat its liquid loop carries; None when not published"
    )
    liquid_heat_kw: float = Field(
        ge=0,
        description="heat to the liquid loops, all racks; the whole rack heat (an upper bound) "
        "when the fraction is not published",
    )
    liquid_heat_bound: bool = Field(
        description="liquid_heat_kw is an upper bound (the fraction is not published)"
    )
    air_heat_kw: float | None = Field(
        description="heat the liquid-cooled racks give room air; None when not published"
    )
    cdu: str = Field(description="cdus.yaml id of the CDU class sized with")
    cdu_name: str
    form: Literal["in-rack", "in-row"]
    cdu_capacity_kw: float | None
    loops: int = Field(ge=0, description="secondary loops: one per row (in-row) or per rack")
    racks_per_loop: int = Field(ge=1)
    cdus_per_loop: int | None = Field(description="units the loop's heat needs, spares apart")
    spares_per_loop: int = Field(ge=0)
    cdus: int | None = Field(description="CDUs, spares included; None when capacity is unknown")
    cdus_at_least: int = Field(ge=0, description="the count, or its floor when it is unknown")
    row_positions: int = Field(
        ge=0, description="rack positions the CDUs take in the rows (in-row units)"
    )
    cdu_power_w: float | None = Field(description="pump and control power, all CDUs")
    redundancy: str
    basis: str = Field(description="how the count was reached and from which sources")
