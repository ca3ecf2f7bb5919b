"""Under a workload with prices known, the trade study ranks by capital; a row whose capital is
unknown or only a lower bound is never ranked as if it were cheaper."""

from __future__ import annotations

from clustergen.engine.model.design import Alternative
from clustergen.engine.search.objective import Objective, with_prices
from clustergen.engine.search.trade_study import _rank

WORKLOAD = Objective("workload", "least IT power (whole design) that meets the workload", "lower")


def _row(platform: str, power_w: float, capital: float | None, complete: bool) -> Alternative:
    return Alternative(
        platform=platform,
        fabric="infiniband",
        switch="qm9700",
        oversubscription=1.0,
        nodes=8,
        gpus=64,
        it_power_w=power_w,
        fabric_power_w=1.0,
        switches=4,
        capital_usd=capital,
        capital_complete=complete,
        objective=None,
        eligible=True,
        why_not=None,
        chosen=False,
    )


def test_a_workload_turns_to_least_capital_when_a_row_is_wholly_priced() -> None:
    rows = [
        _row("low-power-unpriced", 100e3, None, False),
        _row("lower-bound", 110e3, 1e6, False),  # a lower bound below the whole price
        _row("dear", 130e3, 4e6, True),
        _row("cheap", 150e3, 3e6, True),
    ]
    objective = with_prices(WORKLOAD, rows)
    assert objective.kind == "cost"
    assert objective.unit == "USD"
    ranked = _rank(rows, objective)
    # priced rows by capital, then the rest by IT power: a lower bound never wins on price
    assert [r.platform for r in ranked] == ["cheap", "dear", "low-power-unpriced", "lower-bound"]
    assert ranked[0].chosen
    assert ranked[0].objective == 3e6
    assert ranked[2].objective is None
    assert "capital unknown" in (ranked[2].why_not or "")


def test_without_a_wholly_priced_row_the_workload_keeps_least_power() -> None:
    rows = [_row("a", 100e3, 1e6, False), _row("b", 90e3, None, False)]
    assert with_prices(WORKLOAD, rows) is WORKLOAD
    # an ineligible row's price does not turn the study to cost
    ineligible = _row("c", 80e3, 2e6, True).model_copy(update={"eligible": False})
    assert with_prices(WORKLOAD, [*rows, ineligible]) is WORKLOAD


def test_a_gpu_count_keeps_least_power_even_when_priced() -> None:
    gpus = Objective("gpus", "least IT power", "lower")
    assert with_prices(gpus, [_row("a", 1.0, 1e6, True)]) is gpus
