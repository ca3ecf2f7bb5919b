"""A capital budget is a cap in the one sizing path: "$50M, 10 MW" builds the most that fits
both; a candidate over the budget is ruled out with the reason; a candidate whose price is
unknown is never a pass."""

from __future__ import annotations

from pathlib import Path

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.cost import capital_of
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.request.parse import parse_request
from clustergen.engine.search.planner import plan_design
from clustergen.errors import InfeasibleDesignError

EXAMPLE = Path(__file__).parents[3] / "examples" / "prices" / "hardware"
PRICED = load_catalog(EXAMPLE)


def _layer(tmp_path: Path) -> Path:
    """The example system prices plus test prices on the switches, so the rest of the design
    has a capital of its own for the solve to set aside."""
    (tmp_path / "systems.yaml").write_text(
        (EXAMPLE / "systems.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    rows = "".join(
        f"- id: {sw}\n  price_usd: 30000\n  price_source: test figure, not a price\n"
        for sw in ("qm9700", "sn5610", "sn5600", "sn4600c", "sn2201")
    )
    (tmp_path / "switches.yaml").write_text(rows, encoding="utf-8")
    return tmp_path


def test_most_gpus_under_a_budget_and_a_cap_fill_the_budget_not_past_it() -> None:
    req = parse_request(PRICED, "max GPUs under $50M and 10 MW")
    assert req.capital_budget_usd == 50e6
    d = plan_design(PRICED, req)
    capital = capital_of(d.bom).priced_usd or 0.0
    assert capital <= 50e6
    # one more node is over the budget: the budget sized it, not the 10 MW
    assert capital + 199_000 > 50e6
    assert d.power.it_total_w < 10e6
    check = next(c for c in d.checks if c.name == "capital within the capital budget")
    assert check.unknown  # switches and optics are unpriced: a lower bound is not a pass
    assert not check.passed
    assert d.cost is not None
    assert d.cost.within_capital_budget is None


def test_a_candidate_without_a_price_is_ruled_out_with_the_reason() -> None:
    d = plan_design(PRICED, parse_request(PRICED, "max GPUs under $50M and 10 MW"))
    assert d.alternatives is not None
    unpriced = [r for r in d.alternatives.rows if r.platform == "hgx-h200"]
    assert unpriced
    assert all(r.infeasible and "no price" in (r.why_not or "") for r in unpriced)
    assert not d.alternatives.rows[0].infeasible


def test_the_capital_solve_sets_aside_the_rest_of_the_design(tmp_path: Path) -> None:
    cat = load_catalog(_layer(tmp_path))
    req = DesignRequest(capital_budget_usd=30e6, platform="dgx-h100", objective="most-gpus")
    d = plan_design(cat, req)
    capital = capital_of(d.bom).priced_usd or 0.0
    assert capital <= 30e6
    switches = sum(ln.total_price_usd or 0 for ln in d.bom if ln.category == "switch")
    assert switches > 0
    more = plan_design(cat, DesignRequest(gpus=d.compute.gpus + 8, platform="dgx-h100"))
    assert (capital_of(more.bom).priced_usd or 0.0) > 30e6


def test_a_count_over_the_budget_is_refused_saying_what_fits() -> None:
    req = parse_request(PRICED, "512 GPUs training, $10M capital")
    with pytest.raises(InfeasibleDesignError) as err:
        plan_design(PRICED, req)
    text = err.value.one_line()
    assert "$10.0M capital budget" in text
    assert "at most" in text
    assert "raise the capital budget" in text
    fits = err.value.details["fits_gpus"]
    fitted = plan_design(PRICED, req.model_copy(update={"fit": True}))
    assert fitted.compute.gpus == fits
    assert (capital_of(fitted.bom).priced_usd or 0.0) <= 10e6


def test_no_price_layer_says_how_to_give_one() -> None:
    with pytest.raises(InfeasibleDesignError, match="no candidate platform has a price") as err:
        plan_design(load_catalog(), parse_request(load_catalog(), "$50M, 10 MW"))
    assert "examples/prices/hardware" in err.value.one_line()


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("$50M, 10 MW", "capital_budget_usd", 50e6),
        ("512 GPUs, capex of $40M", "capital_budget_usd", 40e6),
        ("512 GPUs, $12M of hardware budget", "capital_budget_usd", 12e6),
        ("512 GPUs, 5 MW, $0.08/kWh", "usd_per_kwh", 0.08),
        ("512 GPUs, 5 MW at 9 cents per kWh", "usd_per_kwh", 0.09),
        ("512 GPUs, 5 MW, 3-year TCO", "tco_years", 3.0),
        ("512 GPUs, 5 MW, cost of ownership over 4 years", "tco_years", 4.0),
        ("512 GPUs, 5 MW, over 5 years", "tco_years", 5.0),
    ],
)
def test_cost_phrases_are_read(text: str, field: str, value: float) -> None:
    req = parse_request(load_catalog(), text)
    assert getattr(req, field) == pytest.approx(value)
    assert req.not_understood == []


def test_a_budget_with_a_model_and_an_hourly_price_stays_a_gpu_hour_budget() -> None:
    req = parse_request(
        load_catalog(), "train a 70B model on 15T tokens with $2M at $2 per GPU-hour"
    )
    assert req.budget_usd == 2e6
    assert req.capital_budget_usd is None


@pytest.mark.parametrize(
    "text",
    [
        "serve DeepSeek-R1 to about 2,000 concurrent users, budget $15M and 1 MW",
        "serve llama 3.1 70b at 5000 tokens/s on a $3M budget",
    ],
)
def test_a_serving_clusters_budget_buys_hardware_not_gpu_hours(text: str) -> None:
    """A serving cluster runs without end: with no hourly price its budget is capital."""
    r = parse_request(load_catalog(), text)
    assert r.capital_budget_usd is not None
    assert r.budget_usd is None


def test_a_training_budget_without_an_hourly_price_stays_one_of_gpu_hours() -> None:
    r = parse_request(load_catalog(), "train a 70B model on 15T tokens with a $20M budget")
    assert r.budget_usd == 20e6
    assert r.capital_budget_usd is None


def test_a_budget_beside_a_workload_with_no_price_anywhere_is_a_check_that_cannot_tell() -> None:
    """The workload sizes the design and the 1 MW holds it; with no price anywhere the $15M
    cannot be held either way: the design is built, its capital check is unknown (never a
    pass), and the first line says so."""
    cat = load_catalog()
    request = parse_request(
        cat, "serve DeepSeek-R1 to about 2,000 concurrent users, budget $15M and 1 MW"
    )
    d = plan_design(cat, request)
    check = next(c for c in d.checks if c.name == "capital within the capital budget")
    assert check.unknown
    assert not check.passed
    assert d.notice is not None
    assert "cannot tell whether it fits the $15.0M capital budget" in d.notice
    assert "upper bound" not in d.notice  # the workload sized it, not the budget


def test_a_count_with_a_budget_and_no_price_anywhere_is_built_and_not_passed() -> None:
    d = plan_design(load_catalog(), parse_request(load_catalog(), "1k H100s, budget $40M"))
    from clustergen.engine.report.words import verdict

    assert d.compute.gpus == 1000
    assert verdict(d).status == "WARN"
    assert verdict(d).unknown == 1


def test_a_budget_against_mostly_unpriced_lines_says_cannot_tell_first() -> None:
    """'$25M capex, as many GPUs as possible' with only the systems priced: the notice says
    how many lines are unpriced and that the GPUs are an upper bound, never a maximum."""
    from pathlib import Path

    from clustergen.catalog import load_catalog as _load
    from clustergen.engine.request import merge_request as _merge
    from clustergen.engine.search.planner import plan_design as _plan

    root = Path(__file__).resolve().parents[3]
    cat = _load(root / "examples" / "prices" / "hardware")
    d = _plan(cat, _merge(cat, "$25M capex, as many GPUs as possible", {}))
    assert d.notice is not None
    assert d.notice.startswith("cannot tell whether it fits the $25.0M capital budget")
    assert "orderable lines unpriced" in d.notice
