"""The trade study's table shows each row's capital once any row has a price: a total, a lower
bound ("at least") or "unpriced", never $0; without prices it has no capital column."""

from __future__ import annotations

from pathlib import Path

from clustergen.catalog import load_catalog
from clustergen.engine.report.documents.study import capital_cell, study_table
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design

PRICES = Path(__file__).parents[4] / "examples" / "prices" / "hardware"
ASK = "512 GPUs training, 5 MW"


def _table(catalog_dir: Path | None) -> tuple[list[str], list[str]]:
    cat = load_catalog(catalog_dir)
    d = plan_design(cat, merge_request(cat, ASK, {}))
    assert d.alternatives is not None
    return study_table(d), [capital_cell(r) for r in d.alternatives.rows]


def test_priced_rows_show_capital_as_a_lower_bound_and_unpriced_ones_as_unknown() -> None:
    table, cells = _table(PRICES)
    head = next(line for line in table if line.startswith("| # | platform | fabric"))
    assert "| capital |" in head
    assert any(c.startswith("at least $") for c in cells)  # DGX rows: systems priced only
    assert "unpriced" in cells  # HGX rows: no price in the example layer
    assert not any(c in {"$0", "at least $0"} for c in cells)
    assert any("unknown, not zero" in line for line in table)


def test_without_prices_there_is_no_capital_column() -> None:
    table, _ = _table(None)
    head = next(line for line in table if line.startswith("| # | platform | fabric"))
    assert "capital" not in head


def test_an_unpriced_row_under_a_budget_is_capital_unknown_and_the_chosen_one_not_ruled_out() -> (
    None
):
    """With no prices and a budget every row was 'lower score', the chosen one too, and the
    chosen row was counted among those 'Ruled out'."""
    from clustergen.engine.report.documents.study import short_reason, why_winner

    cat = load_catalog()
    d = plan_design(cat, merge_request(cat, "256 H100 GPUs, budget 12 million USD", {}))
    study = d.alternatives
    assert study is not None
    chosen = next(r for r in study.rows if r.chosen)
    assert not chosen.eligible
    assert short_reason(chosen.why_not) == "capital unknown"
    others = [r for r in study.rows if not r.chosen and not r.eligible]
    why = why_winner(study)
    assert f"Ruled out: capital unknown ({len(others)})" in why


def test_the_runner_up_is_said_in_a_sentence() -> None:
    """'256 H200 for pretraining a 30B model' said 'the runner-up, dgx-h200 on qm9700 (1:1),
    359.5 kW IT against 350.8 kW IT.' (no verb), and an H100 serving design 'the runner-up, ...,
    103.1 kW IT against 103.1 kW IT.' (two equal figures, one said to lose)."""
    from clustergen.engine.report.documents.study import runner_up_words

    assert runner_up_words("359.5 kW IT against 350.8 kW IT") == (
        "scores 359.5 kW IT against 350.8 kW IT"
    )
    assert runner_up_words(
        "103.1 kW IT against 103.1 kW IT; delivers 24 GPUs for the 20 needed"
    ) == (
        "scores 103.1 kW IT too (the two differ only past the digits shown); "
        "delivers 24 GPUs for the 20 needed"
    )
    said = "scores 38.9 kW IT against 39.2 kW IT, but off its platform's reference architecture"
    assert runner_up_words(said) == said
    tie = "ties the chosen row on the objective; it has more switches or comes later"
    assert runner_up_words(tie) == tie
    assert runner_up_words(None) == "ranks below it"


def test_a_partly_priced_row_under_a_budget_is_capital_unknown_in_a_word() -> None:
    """With the example prices a DGX H100 row's note filled eight lines of the terminal's
    column: 'capital at least $6.4M (37 of 38 orderable lines unpriced), so whether it fits
    the $12.0M capital budget is unknown'."""
    from clustergen.engine.report.documents.study import short_reason

    cat = load_catalog(PRICES)
    d = plan_design(cat, merge_request(cat, "256 H100 GPUs, budget 12 million USD", {}))
    assert d.alternatives is not None
    partly = [r for r in d.alternatives.rows if (r.why_not or "").startswith("capital at least")]
    assert partly
    assert {short_reason(r.why_not) for r in partly} == {"capital unknown"}


def test_a_row_with_no_compute_fabric_says_none() -> None:
    """One DGX B200's study read 'infiniband (none) 1:1' and 'row 2, hgx-b200 (ethernet,
    none)' for rows that build no compute fabric."""
    cat = load_catalog()
    d = plan_design(cat, merge_request(cat, "serve Llama 3.3 70B to 2,000 staff, no liquid", {}))
    text = "\n".join(study_table(d))
    assert "(none)" not in text
    assert ", none)" not in text
    assert "| none |" in text
    assert "(no compute fabric)" in text


def test_a_worse_row_says_what_it_has_more_of() -> None:
    """Under 'least IT power', rows of more IT power were noted 'lower score', read as the
    row drawing less."""
    from clustergen.engine.report.documents.study import short_reason

    cat = load_catalog()
    d = plan_design(
        cat, merge_request(cat, "256 H200 for pretraining a 30B model on 4T tokens", {})
    )
    study = d.alternatives
    assert study is not None
    assert study.objective_unit == "W"
    chosen = next(r for r in study.rows if r.chosen)
    worse = [r for r in study.rows if short_reason(r.why_not, "W") == "more IT power"]
    assert worse
    assert all(r.it_power_w >= chosen.it_power_w for r in worse)
    assert short_reason("928 GPUs against 920 GPUs", "GPUs") == "lower score"
    assert short_reason("14.6 kW IT against 14.4 kW IT") == "lower score"
