"""Rules compile their pattern when first searched with; every pattern must still compile."""

from __future__ import annotations

import re
import subprocess
import sys

from clustergen.engine.request.rules import RULES


def test_every_rule_pattern_compiles() -> None:
    for rule in RULES:
        assert isinstance(rule.pattern, re.Pattern), rule.name
        assert rule.pattern.pattern == rule.source


def test_importing_the_rules_compiles_none() -> None:
    # in a fresh interpreter: this process may have parsed a request already
    code = (
        "from clustergen.engine.request.rules import RULES\n"
        "print(sum('pattern' in vars(r) for r in RULES))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "0"
