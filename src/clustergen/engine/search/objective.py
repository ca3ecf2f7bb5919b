"""What the trade study optimises, following what the request asks for.

- A GPU or node count with no part named: the most dense compute delivered per MW of the whole
  design's IT power, at the workload's precision, counting only the GPUs asked for (a platform
  whose smallest unit overshoots the count pays the power of what it builds and gets no credit
  for it). An architect buys a current part for its compute per watt; the least-power rule it
  replaces chose the oldest, slowest part.
- A GPU or node count on a named part: meet it with the least IT power (the whole design's).
- A compute target ("1 exaflop of FP8"): each platform's GPUs for it at its dense peak, then the
  least IT power, as for a count.
- A workload (training tokens in a time, serving throughput, a budget): the least IT power that
  meets it; a platform whose smallest buildable unit overshoots the need pays for what it builds.
  Where prices are known (some eligible row has every orderable BOM line priced), the least
  capital instead: a row whose capital is unknown or only a lower bound is never ranked as if it
  were cheaper, so it follows the priced rows, by IT power (`with_prices`).
- "Max GPUs under a cap": the most GPUs, then the most dense compute.
- A cap alone: the most dense compute (PFLOPS at the workload's precision) under it.
- "Best performance per watt": the most dense PFLOPS per MW of the whole design's IT power, at
  whatever size the rest of the request sets (a count, a workload or a cap).

Within `RA_MARGIN` of the best score, designs that follow their platform's reference architecture
rank first: a published design is worth a little power.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from clustergen.engine.model.design import Alternative
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.sizing.workload import wants_estimate
from clustergen.units import dollars, watts

#: how far behind the best score a reference-architecture design may be and still rank first
RA_MARGIN = 0.10

Kind = Literal[
    "gpus",
    "workload",
    "cost",
    "most-gpus",
    "most-tokens",
    "compute",
    "perf-per-watt",
    "delivered-per-watt",
]


class Objective(NamedTuple):
    """The study's objective: what a row is scored by and which way is better."""

    kind: Kind
    text: str
    better: Literal["higher", "lower"]

    @property
    def unit(self) -> Literal["W", "USD", "GPUs", "PFLOPS", "PFLOPS/MW", "tokens/s"]:
        """The unit of a row's score."""
        if self.kind == "most-tokens":
            return "tokens/s"
        if self.kind in {"gpus", "workload"}:
            return "W"
        if self.kind == "cost":
            return "USD"
        if self.kind in {"perf-per-watt", "delivered-per-watt"}:
            return "PFLOPS/MW"
        return "GPUs" if self.kind == "most-gpus" else "PFLOPS"

    def score(self, row: Alternative) -> float | None:
        """The row's score (None when its throughput is unknown and the objective needs it)."""
        if self.kind in {"gpus", "workload"}:
            return row.it_power_w
        if self.kind == "cost":
            # only a whole capital is a score: a lower bound would rank a less-priced row first
            return row.capital_usd if row.capital_complete else None
        if self.kind == "most-gpus":
            return float(row.gpus)
        if self.kind == "most-tokens":  # what the filled design serves, not its GPU count
            return row.output_tokens_per_s
        if self.kind == "perf-per-watt":
            if row.dense_pflops is None or not row.it_power_w:
                return None
            return row.dense_pflops / (row.it_power_w / 1e6)
        if self.kind == "delivered-per-watt":
            delivered = delivered_pflops(row)
            if delivered is None or not row.it_power_w:
                return None
            return delivered / (row.it_power_w / 1e6)
        return row.dense_pflops

    def key(self, row: Alternative) -> tuple[float, float]:
        """Sort key, best first; unknown scores last."""
        s = self.score(row)
        if self.kind == "cost":  # unpriced rows after the priced ones, then by IT power
            return (float("inf") if s is None else s, row.it_power_w)
        if s is None:
            return (float("inf"), 0.0)
        tie = -(row.dense_pflops or 0.0) if self.kind in {"most-gpus", "most-tokens"} else 0.0
        return (s if self.better == "lower" else -s, tie)

    def within_margin(self, row: Alternative, best: Alternative) -> bool:
        """Whether the row's score is within `RA_MARGIN` of the best row's."""
        s, b = self.score(row), self.score(best)
        if s is None or b is None:
            return False
        if self.better == "lower":
            return s <= b * (1 + RA_MARGIN)
        return s >= b * (1 - RA_MARGIN)

    def figure(self, row: Alternative) -> str:
        """The row's score in words."""
        s = self.score(row)
        if s is None:
            return "capital unknown" if self.kind == "cost" else "unknown"
        if self.kind in {"gpus", "workload"}:
            return f"{watts(s)} IT"
        if self.kind == "cost":
            return f"{dollars(s)} capital"
        if self.kind == "most-gpus":
            return f"{row.gpus:,} GPUs"
        if self.kind == "most-tokens":
            return f"{s:,.0f} output tokens/s on {row.gpus:,} GPUs"
        if self.kind in {"perf-per-watt", "delivered-per-watt"}:
            return f"{s:,.1f} dense PFLOPS per MW IT"
        return f"{s:,.1f} dense PFLOPS"


#: how the count objective ends, the words that tell a study ranked by it
DELIVERED = "from the GPUs asked for"


def bound_words(request: DesignRequest) -> str:
    """What bounds a design sized to fill: 'under the cap', 'in the site's 10 racks' or both."""
    cap = "under the cap" if request.power_cap_w or request.capital_budget_usd else ""
    racks = f"in the site's {request.max_racks} racks" if request.max_racks else ""
    # nothing bounds it: the size is what the request or its workload needs, said so
    return " ".join(w for w in (cap, racks) if w) or "(no cap, budget or rack count bounds them)"


def objective_for(request: DesignRequest, precision: str) -> Objective:
    """The objective the request asks for (see the module docstring)."""
    bound = bound_words(request)
    if request.objective == "most-gpus":
        return Objective(
            "most-gpus", f"most GPUs {bound}, then most dense {precision} PFLOPS", "higher"
        )
    if request.objective == "most-tokens":
        return Objective(
            "most-tokens",
            f"most output tokens/s served {bound} (each platform filled, then its serving "
            "estimate)",
            "higher",
        )
    if request.objective == "perf-per-watt":
        return Objective(
            "perf-per-watt",
            f"most dense {precision} PFLOPS per MW of IT power (whole design)",
            "higher",
        )
    if request.compute_pflops and not (request.gpus or request.nodes):
        return Objective(
            "gpus",
            f"least IT power (whole design) that delivers the dense {precision} PFLOPS asked for",
            "lower",
        )
    if (request.gpus or request.nodes) and not (request.gpu or request.platform):
        return Objective(
            "delivered-per-watt",
            f"most dense {precision} PFLOPS per MW of IT power {DELIVERED}",
            "higher",
        )
    if request.gpus or request.nodes:
        return Objective(
            "gpus", "least IT power (whole design) that delivers the GPUs asked for", "lower"
        )
    if wants_estimate(request):
        return Objective(
            "workload", "least IT power (whole design) that meets the workload", "lower"
        )
    return Objective("compute", f"most dense {precision} PFLOPS {bound}", "higher")


def delivered_pflops(row: Alternative) -> float | None:
    """The row's dense compute from the GPUs the request needs: GPUs built past the need (a
    whole rack of 72 for 8 asked) add power, not credit."""
    if row.dense_pflops is None:
        return None
    if not row.needed_gpus or row.gpus <= row.needed_gpus:
        return row.dense_pflops
    return row.dense_pflops * row.needed_gpus / row.gpus


def traded(rows: list[Alternative], best: Alternative, precision: str) -> str | None:
    """What the chosen row trades against the eligible row of least IT power on another
    platform ("hgx-b200: +38% IT power for 2.3x the dense BF16 compute of hgx-h200"), when it is not
    itself that row; None when nothing was traded or a figure is unknown."""
    eligible = [r for r in rows if r.eligible and r.power_complete and r.platform != best.platform]
    if not eligible or not best.it_power_w:
        return None
    least = min(eligible, key=lambda r: r.it_power_w)
    ours, theirs = delivered_pflops(best), delivered_pflops(least)
    if least.it_power_w >= best.it_power_w or not ours or not theirs:
        return None
    more = best.it_power_w / least.it_power_w - 1
    return (
        f"{best.platform}: +{more:.0%} IT power for {ours / theirs:.1f}x the dense {precision} "
        f"compute of {least.platform}, the least-power platform weighed"
    )


#: the cost objective in words: the ranking rule, stated once in the study
COST_TEXT = (
    "least capital (every orderable BOM line priced) that meets the workload; rows whose capital "
    "is unknown or only a lower bound follow, by least IT power (whole design)"
)


def with_prices(objective: Objective, rows: list[Alternative]) -> Objective:
    """The workload objective turned to cost where prices are known: some eligible row meets the
    workload with every orderable line priced. Any other objective, or no such row, is kept."""
    if objective.kind != "workload":
        return objective
    if not any(r.eligible and r.capital_complete and r.capital_usd is not None for r in rows):
        return objective
    return Objective("cost", COST_TEXT, "lower")
