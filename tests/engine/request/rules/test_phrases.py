"""Rules compile their pattern when first searched with, and are searched only when the request
holds a word the pattern needs; every pattern must still compile."""

from __future__ import annotations

import re
import subprocess
import sys

from clustergen.engine.request.rules import RULES
from support.regex_needs import needed


def test_every_rule_pattern_compiles() -> None:
    for rule in RULES:
        assert isinstance(rule.pattern, re.Pattern), rule.name
        assert rule.pattern.pattern == rule.source


def test_importing_the_rules_compiles_none() -> None:
    # in a fresh interpreter: this process may have parsed a request already
    code = (
        "from clustergen.engine.request.rules import RULES\nprint(sum(r.compiled for r in RULES))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "0"


def test_every_rule_needs_what_its_pattern_needs() -> None:
    # a rule is skipped when the request holds none of its `needs`: each must follow from the
    # pattern (every string the pattern requires holds one of them), or a match would be lost
    for rule in RULES:
        required = needed(rule.source)
        if required is None:
            assert rule.needs == (), f"{rule.name}: its pattern proves no word is needed"
            continue
        # and a rule that can be skipped declares it, so a request pays for the rules it uses
        assert rule.needs, f"{rule.name} needs one of {sorted(required)}: declare it"
        assert all(n == n.lower() for n in rule.needs), rule.name  # the text searched is lowered
        unproven = sorted(r for r in required if not any(n in r for n in rule.needs))
        assert not unproven, f"{rule.name}: {unproven} hold none of {rule.needs}"


def test_the_word_pre_check_follows_the_pattern_on_examples() -> None:
    assert needed(r"\bpue\s*(\d+)") == {"pue"}
    assert needed(r"(?:checkpoints?|ckpts?)\b") == {"checkpoint", "ckpt"}
    assert needed(r"\d+\s*(?:kw|mw)?") is None  # an optional unit is not needed
    assert needed(r"(?i)pue") is None  # a case-blind pattern says nothing of the text's case
    assert needed(r"[^a]b|c") == {"b", "c"}


def test_a_request_compiles_only_the_rules_its_words_allow() -> None:
    # in a fresh interpreter: the start-up a design pays (each compile ~0.2 ms, 63 rules)
    code = (
        "from clustergen.catalog import load_catalog\n"
        "from clustergen.engine.request import parse_request\n"
        "from clustergen.engine.request.rules import RULES\n"
        "parse_request(load_catalog(), '512 GPUs training, 5 MW')\n"
        "print(' '.join(r.name for r in RULES if r.compiled))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    compiled = done.stdout.split()
    assert {"gpus", "power", "w_train"} <= set(compiled)
    assert len(compiled) <= 12, compiled
