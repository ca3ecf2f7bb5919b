"""The answer's words: the terminal's first lines, what it was sized for, and the before/after a
control shows."""

from __future__ import annotations

from clustergen.catalog import Catalog
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design
from clustergen.web.view import answer, changes, sized_for


def test_the_first_lines_say_what_was_not_understood_and_how_a_deadline_was_read(
    catalog: Catalog,
) -> None:
    text = "train a 70B model on 15T tokens by June 30 2027 with flibber"
    d = plan_design(catalog, merge_request(catalog, text, {}))
    notes = answer(d)["notes"]
    assert notes[0] == "not understood: flibber (ignored)"
    assert notes[1].startswith("read 'by june 30 2027' -> deadline 2027-06-30, ")
    assert "workload: " in sized_for(d)


def test_sized_for_says_the_spares_beside_the_size(catalog: Catalog) -> None:
    d = plan_design(
        catalog, merge_request(catalog, "512 GPUs training, 5 MW, 2 hot spare nodes", {})
    )
    assert sized_for(d).startswith("512 GPUs; 2 spare nodes beside them; training")


def test_what_changed_compares_the_figures_a_planner_watches(catalog: Catalog) -> None:
    req = "512 GPUs training, 5 MW"
    before = plan_design(catalog, merge_request(catalog, req, {}))
    after = plan_design(catalog, merge_request(catalog, req, {"pue": 1.2}))
    rows = {label: (old, new, moved) for label, old, new, moved in changes(before, after)}
    assert list(rows) == ["platform", "GPUs", "IT MW", "facility MW", "switches", "racks", "checks"]
    assert rows["GPUs"] == ("512", "512", False)
    assert rows["facility MW"][2] is True  # the same IT load at a lower PUE
    assert rows["IT MW"][2] is False


def test_the_power_table_leaves_an_increments_headroom_unknown_without_the_standing_draw(
    catalog: Catalog,
) -> None:
    """It showed the cap less the increment alone, as if nothing stood under the cap."""
    from clustergen.web.view import power_table

    text = "We have a DGX B200 cluster; add 32 more, site IT cap 2 MW"
    d = plan_design(catalog, merge_request(catalog, text, {}))
    (row,) = [r for r in power_table(d).rows if r[0] == "headroom"]
    assert row[1].startswith("unknown")


def test_the_cap_basis_is_said_in_words(catalog: Catalog) -> None:
    """'we have 600 kW left' showed a power row 'cap (it) 600.0 kW' and 'sized for ... 600.0 kW
    cap (it)': the engine's 'it' read as a pronoun."""
    from clustergen.web.view import power_table

    d = plan_design(catalog, merge_request(catalog, "16 DGX H100, 600 kW IT", {}))
    caps = [r for r in power_table(d).rows if r[0].startswith("cap")]
    assert [r[0] for r in caps] == ["cap (IT power)"]
    assert "cap (it)" not in sized_for(d)
    assert "600.0 kW cap (IT power)" in sized_for(d)


def test_the_trade_study_shows_a_power_objective_once(catalog: Catalog) -> None:
    """With least IT power as the objective, the page showed 'IT power 181.6 kW' and
    'objective 181.6 kW' side by side on every row; the terminal leaves the copy out."""
    from clustergen.web.view import study_table

    d = plan_design(catalog, merge_request(catalog, "16 DGX H100", {}))
    assert d.alternatives is not None
    assert d.alternatives.objective_unit == "W"
    table = study_table(d)
    assert table is not None
    assert "objective" not in table.header
    assert all(len(row) == len(table.header) for row in table.rows)
    most = plan_design(catalog, merge_request(catalog, "3 MW IT, B200 training", {}))
    table = study_table(most)
    assert table is not None
    assert "objective" in table.header


def test_sized_for_says_the_workload_once(catalog: Catalog) -> None:
    """'sized for: inference; workload: inference llama-3.3-70b (FP8): ...'."""
    d = plan_design(catalog, merge_request(catalog, "serve Llama 3.3 70B to 2,000 staff", {}))
    text = sized_for(d)
    assert text.startswith("workload: inference ")
    assert text.count("inference") == 1
