"""The passes that read the rule tables (`request/rules/`), at their place among the others."""

from __future__ import annotations

from clustergen.engine.request.draft import Draft
from clustergen.engine.request.rules import MONEY_RULES, RULES
from clustergen.engine.request.rules.load import serving_defaults, to_tokens


def read_price_rules(r: Draft) -> None:
    """The money rules ("$50M", "$2 per H800 GPU-hour"), before any catalog name: a price may
    hold a GPU's name, which the name finder would otherwise take first."""
    for rule in RULES[: len(MONEY_RULES)]:
        r.read(rule)


def read_rules(r: Draft) -> None:
    """Every other rule of `RULES`, in its order, after the catalog names took their words (so
    "Llama 3.1 70B" is a model, not also a 70B model size)."""
    for rule in RULES[len(MONEY_RULES) :]:
        r.read(rule)


def tokens_from_load(r: Draft) -> None:
    """Requests per second and concurrent users ("100 requests/s", "1,000 concurrent users")
    become the output-token rate served. A pass: the rate needs the output length or speed per
    user read anywhere in the request, and the catalog's serving defaults when it gives none."""
    r.understood += to_tokens(r.fields, r.phrases, serving_defaults(r.catalog))
