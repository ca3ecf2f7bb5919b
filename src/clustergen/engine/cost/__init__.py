"""What a design costs: its capital from the BOM's priced lines (unpriced lines unknown, never
zero), the capital budget check, the total cost of ownership over a term, and a workload's cost
at a rented GPU-hour price."""

from clustergen.engine.cost.capital import (
    HOW_TO_PRICE,
    budget_verdict,
    capital_check,
    capital_of,
    node_capital_usd,
    over_budget,
    unpriced_text,
)
from clustergen.engine.cost.hourly import HourlyCost, run_cost, serving_cost
from clustergen.engine.cost.ownership import HOURS_PER_YEAR, Terms, cost_of_ownership, terms_for

__all__ = [
    "HOURS_PER_YEAR",
    "HOW_TO_PRICE",
    "HourlyCost",
    "Terms",
    "budget_verdict",
    "capital_check",
    "capital_of",
    "cost_of_ownership",
    "node_capital_usd",
    "over_budget",
    "run_cost",
    "serving_cost",
    "terms_for",
    "unpriced_text",
]
