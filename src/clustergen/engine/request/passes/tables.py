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
    no rule reads "72" out of "GB200 NVL72")."""
    for rule in RULES[len(MONEY_RULES) :]:
        r.read(rule)


def tokens_from_load(r: Draft) -> None:
    """Requests per second and concurrent users ("1,000 users at 20 tokens/s") become the token
    rate served. A pass: the rate needs every load phrase read, and the catalog's serving
    defaults for what the request leaves out."""
    r.understood += to_tokens(r.fields, r.phrases, serving_defaults(r.catalog))
