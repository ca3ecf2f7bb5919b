"""The phrases that say what kind of model and run: mixture-of-experts sizes ("671B total, 37B
active", "235B-A22B") and the training method ("LoRA", "QLoRA", "full fine-tune", "continued
pre-training")."""

from __future__ import annotations

import re

from clustergen.engine.request.rules.phrases import Reading, Rule, num, rule
from clustergen.errors import RequestError

_SIZE = r"(?<![\w.$])(\d+(?:\.\d+)?)\s*([bt])"
_PARAMS = r"(?:[- ]?param(?:eter)?s?)?"
_ACTIVE = r"(?:active|activated)(?:\s+param(?:eter)?s?)?(?:\s+per\s+token)?"


def _billions(value: str, unit: str) -> float:
    return num(value) * (1e3 if unit == "t" else 1.0)


def _sizes(total: float, active: float, phrase: str) -> list[Reading]:
    if active > total:
        raise RequestError(
            f"{phrase!r} has more active than total parameters",
            hint="write the total first, e.g. '671B total, 37B active'",
        )
    return [
        Reading("model_params_b", total, f"model size {total:g}B total"),
        Reading("active_params_b", active, f"{active:g}B active per token (MoE)"),
    ]


def _total_and_active(m: re.Match[str]) -> list[Reading]:
    # either form of the pattern: groups 1-4 or 5-8 hold total and active
    g = m.groups()
    total, total_unit, active, active_unit = g[0:4] if g[0] else g[4:8]
    return _sizes(_billions(total, total_unit), _billions(active, active_unit), m.group(0).strip())


def _active(m: re.Match[str]) -> list[Reading]:
    value, unit = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    active = _billions(value, unit)
    return [Reading("active_params_b", active, f"{active:g}B active per token (MoE)")]


def _method(value: str, note: str, workload: str):  # type: ignore[no-untyped-def]
    def read(m: re.Match[str]) -> list[Reading]:
        return [
            Reading("training_method", value, f"method {note}"),
            Reading("workload", workload, "workload", "member"),
        ]

    return read


def _served_adapters(m: re.Match[str]) -> list[Reading]:
    n = m.group("n")
    what = f"{n} LoRA adapters" if n else "LoRA adapters"
    note = f"{what} served on one base model, sized as the base (adapters add little memory)"
    return [Reading("workload", "inference", note, "member")]


#: read before model sizes, so "37B active" is not a second model
MODEL_RULES: tuple[Rule, ...] = (
    rule(
        "moe_sizes",
        _SIZE + _PARAMS + r"(?:[\s-]*total)?" + _PARAMS + r"(?:\s*moe)?"
        r"\s*(?:,|/|with|and|\(|;|-|\s)+\s*(?:a)?"
        + r"(\d+(?:\.\d+)?)\s*([bt])"
        + _PARAMS
        + r"[\s-]*"
        + _ACTIVE
        + r"\)?"
        # Qwen's naming: "235B-A22B"
        + r"|"
        + _SIZE
        + r"-a(\d+(?:\.\d+)?)([bt])\b",
        _total_and_active,
        needs=("-a", "activated", "active"),
    ),
    rule(
        "active_params",
        _SIZE + _PARAMS + r"[\s-]*" + _ACTIVE + r"\b"
        r"|\b" + _ACTIVE + r"\s*(?:of|:|=|is|are)?\s*" + _SIZE + r"\b",
        _active,
        needs=("activated", "active"),
    ),
    # "serve 20 LoRA adapters on Llama 3.1 8B", "multi-LoRA serving": adapters served on one
    # base model, which is what is sized; no adapter is trained
    rule(
        "served_adapters",
        r"\b(?:serv(?:e|es|ed|ing)|host(?:s|ed|ing)?|deploy(?:s|ed|ing)?)\s+(?:up\s+to\s+|about\s+|"
        r"around\s+|~\s*)?(?:(?P<n>\d+)\s+)?(?:fine-?tuned\s+)?(?:q-?)?lora\s+adapters?\b"
        r"|\bmulti[- ]?lora(?:\s+(?:serving|inference))?\b",
        _served_adapters,
        needs=("adapter", "multi"),
    ),
    rule(
        "method_qlora",
        r"\bq-?lora\b",
        _method("qlora", "QLoRA (4-bit base weights, low-rank adapters)", "fine-tuning"),
        needs=("lora",),
    ),
    rule(
        "method_lora",
        r"\blora\b|\bpeft\b|\b(?:low[- ]rank\s+)?adapters?\b",
        _method("lora", "LoRA (low-rank adapters)", "fine-tuning"),
        needs=("adapter", "lora", "peft"),
    ),
    rule(
        "method_full",
        r"\bfull(?:[- ]param(?:eter)?s?)?[- ]?(?:fine[- ]?tun(?:e|ed|ing)|ft|sft)\b"
        r"|\bfull[- ]weights?\s+fine[- ]?tun(?:e|ing)\b",
        _method("full", "full fine-tune (every weight trained)", "fine-tuning"),
        needs=("full",),
    ),
    # "with full parameters", "all weights updated", "full-parameter training": every weight
    # trained, said of a fine-tune or a (continued) pre-training alike: the method alone
    rule(
        "method_full_words",
        r"\b(?:with\s+)?(?:full|all)[- ](?:param(?:eter)?s?|weights?)(?:\s+(?:updated|trained))?\b"
        r"(?!\s+(?:in|on|at)\s+(?:fp|bf|int))",
        lambda m: [Reading("training_method", "full", "method full (every weight trained)")],
        needs=("param", "weight"),
    ),
    rule(
        "method_cpt",
        r"\bcontinu(?:ed|al|ous)[- ]?(?:pre[- ]?)?train(?:ing|ed)?\b|\bcpt\b",
        _method("continued-pretraining", "continued pre-training", "training"),
        needs=("continu", "cpt"),
    ),
)
