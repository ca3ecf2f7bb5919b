"""Number grounding: what counts as a figure, and what matches within rounding."""

from __future__ import annotations

import pytest

from clustergen.agent.grounding import Figure, Grounder, _candidates, flag_unmatched

DESIGN = {
    "power": {"it_total_w": 4_304_421.0, "cap_w": 5e6, "pue": 1.3, "rack_power_kw": 40.8},
    "compute": {"gpus": 512, "nodes": 64, "max_gpus_under_cap": 3592},
    "fabric": {"spine_switches": 8, "port_speed_gbps": 400.0, "oversubscription": 2.0},
    "storage": {"read_gb_per_s": 80.0, "capacity_tb": 1200.0},
    "training": {"mfu": 0.4, "days": 31.46},
}
REQUEST = {"model_params_b": 70.0, "training_tokens_t": 15.0}


@pytest.fixture
def g() -> Grounder:
    return Grounder.from_data(design=DESIGN, request=REQUEST)


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("512 GPUs", "design.compute.gpus"),
        ("4.3 MW", "design.power.it_total_w"),
        ("4,304 kW", "design.power.it_total_w"),
        ("4,304,421 W", "design.power.it_total_w"),
        ("5 MW", "design.power.cap_w"),
        ("3,600 GPUs", "design.compute.max_gpus_under_cap"),
        ("400G", "design.fabric.port_speed_gbps"),
        ("400 Gb/s", "design.fabric.port_speed_gbps"),
        ("80 GB/s", "design.storage.read_gb_per_s"),
        ("1.2 PB", "design.storage.capacity_tb"),
        ("MFU 40%", "design.training.mfu"),
        ("31.5 days", "design.training.days"),
        ("2:1", "design.fabric.oversubscription"),
        ("70B", "request.model_params_b"),
        ("15T tokens", "request.training_tokens_t"),
        ("40.8 kW", "design.power.rack_power_kw"),
    ],
)
def test_matches_within_rounding(g: Grounder, text: str, path: str) -> None:
    [n] = g.check(text)
    assert n.matched_path == path


@pytest.mark.parametrize(
    "text",
    [
        "4.2 MW",  # 4.30 does not round to 4.2
        "4,305 kW",
        "513 GPUs",
        "3,593 GPUs",  # written to the unit, so no rounding slack
        "80 TB/s",  # right digits, wrong unit
        "4:1",
        "9.7 MW",
    ],
)
def test_mismatches(g: Grounder, text: str) -> None:
    [n] = g.check(text)
    assert not n.matched


def test_names_dates_versions_and_list_markers_are_not_figures(g: Grounder) -> None:
    text = (
        "1. DGX H100 with ConnectX-7 on QM9700, NVL72 or GB200; RA 2-8-9-400.\n"
        "## 2. Dated 2026-11-22, clustergen v0.1.0.\n"
    )
    assert [n.text for n in g.check(text)] == []


def test_flagging_marks_only_unmatched(g: Grounder) -> None:
    memo = "512 GPUs at 4.3 MW; 9.7 MW saved; 9.7 MW again."
    checked = g.check(memo)
    assert [n.matched for n in checked] == [True, True, False, False]
    assert flag_unmatched(memo, checked) == (
        "512 GPUs at 4.3 MW; 9.7 MW [unverified] saved; 9.7 MW [unverified] again."
    )


@pytest.mark.parametrize(
    ("family", "field", "value", "base"),
    [
        ("w", "cap_mw", 5.0, 5e6),
        ("w", "rack_power_kw", 40.0, 40e3),
        ("w", "it_total_w", 7.0, 7.0),
        ("gb_per_s", "ingest_mb_per_s", 500.0, 0.5),
        ("gb", "capacity_tb", 1.2, 1200.0),
        ("gb", "shard_mb", 100.0, 0.1),
        ("pct", "mfu", 0.4, 40.0),
        ("pct", "headroom_pct", 12.0, 12.0),
        ("days", "checkpoint_hours", 48.0, 2.0),
        ("ratio", "oversubscription", 2.0, 2.0),
    ],
)
def test_a_field_is_read_in_its_unit_familys_base_unit(
    family: str, field: str, value: float, base: float
) -> None:
    figures = [Figure(f"design.x.{field}", value)]
    assert list(_candidates(family, figures)) == [(f"design.x.{field}", pytest.approx(base))]


def test_a_field_of_another_family_is_no_candidate() -> None:
    figures = [Figure("design.power.it_total_w", 7.0), Figure("design.x.gpus", 512.0)]
    assert list(_candidates("gb_per_s", figures)) == []
    assert [p for p, _ in _candidates("plain", figures)] == [f.path for f in figures]


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("40 PB/s", "PB/s"),  # a unit it knows, of a figure the design does not have
        ("40PB/s", "PB/s"),
        ("512k GPUs", None),  # 512,000, not 512
        ("1e6 GPUs", None),  # a million, not 1
        ("$1", "$"),  # a price, not a count
        ("$4.3M", "$"),  # no cost figure of that size either
        ("5 ZB/s", "?"),  # units it does not know are never taken as matching
        ("3 EiB", "?"),
        ("40 kWh", "?"),
        ("10 PFLOPS", "?"),
        ("€512", "?"),
        ("512GPUs", "?"),
        ("1e999 GPUs", "?"),
    ],
)
def test_a_unit_or_suffix_is_read_or_the_number_is_flagged(
    g: Grounder, text: str, unit: str | None
) -> None:
    [n] = g.check(text)
    assert not n.matched, n
    assert n.unit == unit


@pytest.mark.parametrize(
    ("text", "value", "path"),
    [
        ("5.12e2 GPUs", 512.0, "design.compute.gpus"),
        ("3.6k GPUs", 3600.0, "design.compute.max_gpus_under_cap"),
        ("0.08 TB/s", 0.08, "design.storage.read_gb_per_s"),
        ("1.2 PB", 1.2, "design.storage.capacity_tb"),
        ("$2.5M", 2.5e6, "design.cost.capex_usd"),
        ("US$2.5M", 2.5e6, "design.cost.capex_usd"),
        ("$2.10 per GPU-hour", 2.1, "design.cost.price_per_gpu_hour_usd"),
    ],
)
def test_suffixes_scientific_notation_and_dollars_are_read(
    text: str, value: float, path: str
) -> None:
    g = Grounder.from_data(
        design={**DESIGN, "cost": {"capex_usd": 2_480_000.0, "price_per_gpu_hour_usd": 2.1}}
    )
    [n] = g.check(text)
    assert n.value == pytest.approx(value)
    assert n.matched_path == path


def test_a_number_in_an_unknown_unit_is_flagged_in_the_memo(g: Grounder) -> None:
    memo = "512 GPUs reach 40 PB/s and serve 512k GPUs for $1."
    checked = g.check(memo)
    assert [n.matched for n in checked] == [True, False, False, False]
    assert flag_unmatched(memo, checked) == (
        "512 GPUs reach 40 PB/s [unverified] and serve 512k [unverified] GPUs for $1 [unverified]."
    )


def test_a_count_of_a_noun_matches_only_counts_of_that_noun() -> None:
    g = Grounder.from_data(
        design={"compute": {"gpus": 1024, "nodes": 128}, "fabric": {"ports": 512}}
    )
    [gpus] = g.check("512 GPUs")
    assert not gpus.matched  # 512 is a port count here, not a GPU count
    assert g.check("1,024 GPUs in 128 nodes")[1].matched_path == "design.compute.nodes"
    assert g.check("512 ports")[0].matched_path == "design.fabric.ports"  # no noun rule: any
    assert g.check("128 servers")[0].matched_path == "design.compute.nodes"
