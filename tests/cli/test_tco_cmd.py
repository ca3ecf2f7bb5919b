"""`clustergen tco`: the cost of owning the designed cluster, from the user's prices."""

from __future__ import annotations

import json
from collections.abc import Callable

Cli = Callable[..., tuple[int, str, str]]


def test_tco_prices_what_it_is_given_and_names_what_is_missing(cli: Cli) -> None:
    code, out, _ = cli(
        "tco", "64 GPUs training", "--platform", "dgx-h100", "--catalog",
        "examples/prices/hardware", "--years", "5", "--usd-per-kwh", "0.08",
        "--support-pct-per-year", "8", "--json",
    )  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert data["term_years"] == 5
    assert data["energy_usd"] > 0
    assert data["capital_priced_usd"] > 0
    assert data["total_usd"] is None
    code, out, _ = cli("tco", "64 GPUs training", "--platform", "dgx-h100")
    assert code == 0
    assert "unknown" in out
    assert "an energy price" in " ".join(out.split())


def test_tco_without_a_request_is_refused(cli: Cli) -> None:
    code, _, err = cli("tco")
    assert code == 2
    assert "give a request" in err
