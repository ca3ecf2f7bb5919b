"""What a design costs: its capital from the BOM's priced lines (unpriced lines unknown, never
zero), the capital budget check, and the total cost of ownership over a term (a workload's cost at a
rented GPU-hour price is the workload estimate's: engine/sizing/workload/token_cost.py)."""

from clustergen.engine.cost.capital import (
    HOW_TO_PRICE,
    budget_verdict,
    capital_check,
    capital_of,
    node_capital_usd,
    over_budget,
    prices_anything,
    unpriceable,
    unpriced_text,
)
from clustergen.engine.cost.ownership import HOURS_PER_YEAR, Terms, cost_of_ownership, terms_for

__all__ = [
    "HOURS_PER_YEAR",
    "HOW_TO_PRICE",
    "Terms",
    "budget_verdict",
    "capital_check",
    "capital_of",
    "cost_of_ownership",
    "node_capital_usd",
    "over_budget",
    "prices_anything",
    "terms_for",
    "unpriceable",
    "unpriced_text",
]
