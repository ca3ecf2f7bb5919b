"""The passes that read the rule tables (`request/rules/`), at their place among the others."""

from __future__ import annotations

import re

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
    user read anywhere in the request, and the catalog's serving defaults when it gives none.
    Documents of so many tokens in a time ("10 million documents of 4k tokens within 24 hours")
    for a served model only are a batch of prompts done in that window, not tokens to train on."""
    _documents_as_prompts(r)
    _people_sharing(r)
    total = r.phrases.get("output_tokens_per_s")
    base = r.phrases.get("_user_base")
    sized = to_tokens(r.fields, r.phrases, serving_defaults(r.catalog))
    for said in (total, base):
        # a figure re-read (a total as each user's speed, a user base beside a stated peak):
        # its first note no longer holds
        if said is not None and any(s.startswith(f"{said!r} -> ") for s in sized):
            head = f"{said!r} -> "
            first = next((u for u in r.understood if u.startswith(head)), None)
            r.understood[:] = [u for u in r.understood if u is not first]
    r.understood += sized


#: what makes people a serving load: a model to serve, a serving word or a serving figure
_SERVED = (
    *("model", "model_params_b", "output_tokens_per_s", "tpot_ms", "ttft_ms", "isl_tokens"),
    *("interactive", "serving_engine", "disaggregated", "speculative_decoding"),
)


def _people_sharing(r: Draft) -> None:
    """ "Slurm cluster with 128 B200 for a research lab, shared by 40 researchers": with no model
    to serve and no serving word, people are who share the cluster, not streams of a served
    model (they were sized as 800 output tokens/s of no model)."""
    if "_user_base" not in r.fields or "_concurrent" in r.fields:
        return
    if any(f in r.fields for f in _SERVED) or r.members.get("workload", set()) & {
        "inference",
        "mixed",
    }:
        return
    said = r.phrases.pop("_user_base")
    del r.fields["_user_base"]
    r.renote(said, "the people who share the cluster (no model to serve: not a serving load)")
    for m in re.finditer(r"\bshared\s+(?:by|between|among|across)\b", r.low):
        if r.free(m):
            r.take(m.start(), m.end(), f"{m.group(0)!r} -> the people who share the cluster")


def _documents_as_prompts(r: Draft) -> None:
    examples = r.fields.pop("_examples", None)
    serving = r.members.get("workload") == {"inference"}
    if examples is None or not serving or "training_days" not in r.fields:
        return
    assert isinstance(examples, tuple)  # the examples rule reads (count, length, epochs)
    n, length, _ = examples
    days = float(r.fields.pop("training_days"))  # type: ignore[arg-type]
    r.fields.pop("training_tokens_t", None)
    phrase = r.phrases.pop("training_tokens_t", "")
    window = r.phrases.pop("training_days", "")
    rate = n / (days * 86400)
    r.fields["_requests_per_s"] = rate
    r.phrases["_requests_per_s"] = f"{phrase} in {window}"
    r.fields.setdefault("isl_tokens", round(length))
    r.fields.setdefault("interactive", False)
    head = f"{phrase!r} ->"
    r.understood = [
        f"{head} {rate:,.3g} requests/s ({n:,.0f} prompts of {length:,.0f} tokens in {window}, "
        "at an even rate), each one's input length"
        if u.startswith(head)
        else u
        for u in r.understood
        if not u.startswith(f"{window!r} ->")
    ]
