"""Published runs as test parameters: a known miss is a strict expected failure that says why."""

from __future__ import annotations

from typing import Any

import pytest


def held(runs: list[dict[str, Any]], misses: dict[str, str]) -> list[Any]:
    """Each run as a parameter named by its id; one in `misses` fails as expected, with its
    cause, and passes the day the cause is fixed only by failing the strict mark."""
    return [
        pytest.param(
            r,
            id=r["id"],
            marks=[pytest.mark.xfail(strict=True, reason=misses[r["id"]])]
            if r["id"] in misses
            else [],
        )
        for r in runs
    ]
