"""Reading with scope (issue 35): a negation rules out what it governs, a kW figure in a clause
about racks is a rack limit, and a power cap's sentence gives its basis."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.request.parse import parse_request
from clustergen.errors import NotFoundError, RequestError

CAT = load_catalog()


@pytest.mark.parametrize(
    ("text", "field", "excluded", "asked"),
    [
        ("256 GPUs, no liquid cooling in the building", "cooling", "liquid", "air"),
        ("256 GPUs; we can't do liquid", "cooling", "liquid", "air"),
        ("128 GPUs, liquid cooling is off the table", "cooling", "liquid", "air"),
        ("64 GPUs without direct liquid cooling", "cooling", "liquid", "air"),
        (
            "Ethernet only - our network team will not run InfiniBand, 256 GPUs",
            "fabric",
            "infiniband",
            "ethernet",
        ),
        ("InfiniBand is not an option; 512 GPUs, 4 MW", "fabric", "infiniband", "ethernet"),
        ("512 GPUs on InfiniBand, not Ethernet", "fabric", "ethernet", "infiniband"),
        ("96 GPUs, we don't want RoCE", "fabric", "ethernet", "infiniband"),
    ],
)
def test_a_negation_rules_out_what_it_governs(
    text: str, field: str, excluded: str, asked: str
) -> None:
    r = parse_request(CAT, text)
    assert getattr(r, f"{field}_excluded") == excluded
    assert getattr(r, field) == asked
    assert not {"no", "not", "without", "can't", "off", "table"} & set(r.not_understood)


@pytest.mark.parametrize(
    "text", ["512 GPUs for training, air-gapped site", "an airgapped cluster of 64 GPUs"]
)
def test_air_gapped_is_not_air_cooling(text: str) -> None:
    r = parse_request(CAT, text)
    assert r.cooling is None
    assert r.not_understood == []


def test_a_negation_that_governs_nothing_the_parser_reads_excludes_nothing() -> None:
    r = parse_request(CAT, "512 GPUs, no more than 5 MW, liquid cooled")
    assert r.cooling == "liquid"
    assert r.cooling_excluded is None
    assert r.power_cap_w == 5e6


@pytest.mark.parametrize(
    ("text", "kw"),
    [
        ("1000 GPUs, racks max out at 17 kW", 17),
        ("512 GPUs; our cabinets are limited to 20kW", 20),
        ("256 GPUs, 35 kW max per rack, 3 MW", 35),
        ("the colo gives us 12.5 kW a cabinet; 64 GPUs", 12.5),
    ],
)
def test_a_kw_figure_about_racks_is_a_rack_limit_not_a_site_cap(text: str, kw: float) -> None:
    r = parse_request(CAT, text)
    assert r.rack_power_kw == kw
    assert r.power_cap_w is None or r.power_cap_w >= 1e6


def test_a_total_over_a_count_of_racks_is_not_a_rack_limit() -> None:
    r = parse_request(CAT, "64 GPUs, 500 kW for 10 racks")
    assert r.rack_power_kw is None
    assert r.power_cap_w == 500e3


@pytest.mark.parametrize(
    ("text", "basis"),
    [
        ("Our hall has 3.2 MW at the meter and runs at PUE 1.35, 512 GPUs", "facility"),
        ("total facility power not to exceed 3 MW at PUE 1.25, 256 GPUs", "facility"),
        ("512 GPUs, total site power 5 MW", "facility"),
        ("the utility feed is 8 MW; 1024 GPUs for training", "facility"),
        ("512 GPUs, 4 MW of critical IT load", "it"),
        ("we have 2.5 MW critical for 256 GPUs", "it"),
        ("512 GPUs training, 5 MW", None),
        ("a 4 MW data hall (measured at the utility meter, PUE around 1.4), 512 GPUs", "facility"),
        ("RFP 4.2: total site power shall not exceed 2.5 MW. approx 256 GPUs.", "facility"),
        ("5 MW incl. cooling, as many B200s as fit", "facility"),
        ("4 MW inclusive of cooling, 1,000 GPUs", "facility"),
        ("We have a 2 MW hall (PUE 1.3 included), as many B200s as fit", "facility"),
        ("3 MW including PUE, 512 GPUs", "facility"),
        ("4 MW with cooling included, 512 H100", "facility"),
        ("512 GPUs; power: 2.5MW (IT)", "it"),
    ],
)
def test_a_cap_takes_the_basis_its_sentence_states(text: str, basis: str | None) -> None:
    r = parse_request(CAT, text)
    assert r.power_cap_basis == basis
    assert not {"not", "exceed", "meter", "included"} & set(r.not_understood)


def test_two_exclusions_of_one_field_contradict() -> None:
    with pytest.raises(RequestError, match="two cooling ruled out values"):
        parse_request(CAT, "64 GPUs, no liquid cooling and no air cooling")


def test_a_number_point_does_not_end_a_clause() -> None:
    r = parse_request(CAT, "racks max out at 17.5 kW, 3.2 MW at the meter, 512 GPUs")
    assert r.rack_power_kw == 17.5
    assert r.power_cap_w == 3.2e6
    assert r.power_cap_basis == "facility"


def test_a_model_named_in_brackets_beside_its_size_is_sized_by_the_size() -> None:
    r = parse_request(
        CAT, "fine-tune a 67B model (DeepSeek LLM 67B) on 16 servers, each with 8 GPUs"
    )
    assert r.model_params_b == 67
    assert r.not_understood == []


def test_an_unknown_model_without_a_size_beside_it_is_still_refused() -> None:
    with pytest.raises(NotFoundError):
        parse_request(CAT, "train llama 5 900b on 8 GPUs")


def test_a_prompt_length_said_after_a_comma_is_the_input_length() -> None:
    r = parse_request(
        CAT, "Serve Llama 3.1 70B, prompts are long, about 9,400 tokens, 100 concurrent users"
    )
    assert r.isl_tokens == 9400


@pytest.mark.parametrize(
    "text", ["train GPT-5 in one afternoon on 8 GPUs", "serve gemini-3 to 500 concurrent users"]
)
def test_a_model_like_name_after_the_work_is_refused_with_the_closest(text: str) -> None:
    with pytest.raises(NotFoundError, match="unknown model"):
        parse_request(CAT, text)


def test_a_fleet_replaced_by_current_generation_systems_is_not_rebuilt() -> None:
    text = "Replace our 64 DGX A100 nodes with current-generation systems within the same 1.6 MW"
    r = parse_request(CAT, text)
    assert r.platform is None
    assert r.gpus == 512  # one for one
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "pue"),
    [
        ("6 MW at the meter, PUE around 1.4, 1024 GPUs", 1.4),
        ("the facility runs at a 1.3 PUE; 6 MW at the meter, 1024 GPUs", 1.3),
        ("6 MW facility power, PUE is ~1.25, 1024 GPUs", 1.25),
    ],
)
def test_a_pue_is_read_as_customers_write_it(text: str, pue: float) -> None:
    r = parse_request(CAT, text)
    assert (r.power_cap_basis, r.pue) == ("facility", pue)
    assert not r.not_understood


def test_a_clause_number_and_rfp_wording_are_not_left_over() -> None:
    r = parse_request(CAT, "RFP 4.2: total site power shall not exceed 2.5 MW. approx 256 GPUs.")
    assert (r.gpus, r.power_cap_w, r.not_understood) == (256, 2.5e6, [])


@pytest.mark.parametrize(
    ("text", "excluded", "kept"),
    [
        ("Not interested in GB200; 512 Blackwell GPUs for training under 3 MW", ["gb200"], None),
        ("512 GPUs, no H100s, training, 5 MW", ["h100-sxm"], None),
        ("anything but GB200, 1000 GPUs, 8 MW", ["gb200"], None),
        ("we don't want H100 or H200, 1024 GPUs, 6 MW", ["h100-sxm", "h200"], None),
        ("GB300 is off the table; 2,000 GPUs under 10 MW", ["gb300"], None),
        # a number between is a quantity, not a ruled-out name
        ("no more than 512 H100s", [], "h100-sxm"),
        # a kind of system: every system of it
        ("2,000 GPUs under 4 MW, no NVL72 racks", ["gb200-nvl72", "gb300-nvl72"], None),
        (
            "Need 128 GPUs; not NVIDIA DGX",
            # the DGX systems, and the NVL72 rack sold as DGX GB200
            [
                *("dgx-a100", "dgx-a100-320gb", "dgx-b200", "dgx-b300", "dgx-h100", "dgx-h200"),
                *("dgx-1", "dgx-2"),
                "gb200-nvl72",
            ],
            None,
        ),
    ],
)
def test_a_negation_rules_out_the_gpu_or_system_it_governs(
    text: str, excluded: list[str], kept: str | None
) -> None:
    r = parse_request(load_catalog(), text)
    assert sorted(r.platforms_excluded or []) == sorted(excluded)
    assert r.gpu == kept


def test_a_ruled_out_gpu_is_never_the_answer() -> None:
    """'Not interested in GB200': the planner weighs the others (the flip issue 35 names)."""
    from clustergen.engine.search.planner import plan_design

    cat = load_catalog()
    d = plan_design(cat, parse_request(cat, "Not interested in GB200; 512 GPUs, training, 3 MW"))
    assert d.platform.system != "gb200-nvl72"
    assert d.platform.gpu != "gb200"


@pytest.mark.parametrize(
    ("text", "arch", "gpus", "excluded"),
    [
        ("512 Blackwell GPUs for training under 3 MW", "Blackwell", 512, []),
        ("1,024 Hopper GPUs for training", "Hopper", 1024, []),
        ("2,000 GPUs, no Hopper, 10 MW", None, 2000, ["h100-sxm", "h200"]),
        # a family holds its later variant: Blackwell Ultra's B300 and GB300 are Blackwell
        ("need 256 GPUs but NOT Blackwell", None, 256, ["b200", "gb200", "b300", "gb300"]),
    ],
)
def test_a_gpu_architecture_narrows_or_rules_out_its_gpus(
    text: str, arch: str | None, gpus: int, excluded: list[str]
) -> None:
    r = parse_request(load_catalog(), text)
    assert (r.gpu_architecture, r.gpus) == (arch, gpus)
    assert set(excluded) <= set(r.platforms_excluded or [])
    assert not r.not_understood


def test_a_family_ruled_out_rules_out_its_later_variant_in_the_design() -> None:
    from clustergen.engine.search.planner import plan_design

    cat = load_catalog()
    d = plan_design(cat, parse_request(cat, "need 256 GPUs but NOT Blackwell, air cooled only"))
    assert not (cat.gpu(d.platform.gpu).architecture or "").startswith("Blackwell")


def test_a_family_asked_for_weighs_its_later_variant() -> None:
    from clustergen.engine.search.trade_study import ruled_out

    cat = load_catalog()
    r = parse_request(cat, "512 Blackwell GPUs for training")
    assert not ruled_out(cat, r, cat.system("hgx-b300"))
    assert ruled_out(cat, r, cat.system("hgx-h200"))


def test_an_architecture_narrows_the_systems_weighed() -> None:
    from clustergen.engine.search.planner import plan_design

    cat = load_catalog()
    d = plan_design(cat, parse_request(cat, "1,024 Hopper GPUs for training, 5 MW"))
    assert cat.gpu(d.platform.gpu).architecture == "Hopper"


def test_a_name_asked_for_and_ruled_out_is_refused() -> None:
    from pydantic import ValidationError

    from clustergen.engine.model.request import DesignRequest

    with pytest.raises(ValidationError, match="both asked for and ruled out"):
        DesignRequest(gpu="b200", platforms_excluded=["b200"])


@pytest.mark.parametrize(
    "text",
    [
        "budget isn't a concern, 256 GPUs",
        "512 GPUs regardless of cost, 5 MW",
        "money is no object; 256 H200 GPUs",
        "We need about 1,000 GPUs. Our data hall can deliver 4 MW total from the utility.",
    ],
)
def test_what_customers_say_around_the_figures_is_read(text: str) -> None:
    assert not parse_request(load_catalog(), text).not_understood


@pytest.mark.parametrize(
    ("text", "cap_mw"),
    [
        ("our colo gives us 1.5MW per hall across 2 halls; maximize training compute", 3.0),
        ("2 MW per data hall, three data halls, 4,000 GPUs", 6.0),
        ("5 MW per site, 1,024 GPUs", 5.0),
        ("Design for 10,000 GPUs across 3 buildings, 20 MW each", 60.0),
    ],
)
def test_a_cap_per_room_counts_every_room_its_sentence_counts(text: str, cap_mw: float) -> None:
    r = parse_request(CAT, text)
    assert r.power_cap_w == cap_mw * 1e6
    assert not {"halls", "across", "3", "2"} & set(r.not_understood)


def test_nothing_rules_out_what_it_governs() -> None:
    r = parse_request(load_catalog(), "1,000 GPUs, nothing liquid-cooled")
    assert (r.cooling, r.cooling_excluded) == ("air", "liquid")


@pytest.mark.parametrize(
    "text",
    [
        "256 GPUs, we don't need storage, we'll use our existing Lustre",
        "512 GPUs training, 5 MW; storage is out of scope",
        "128 H200 GPUs, BYO storage",
        "512 GPUs; we will connect to our existing WEKA cluster",
    ],
)
def test_storage_put_out_of_scope_is_read(text: str) -> None:
    r = parse_request(load_catalog(), text)
    assert r.storage_excluded is True
    assert not {"don", "t", "scope", "byo", "existing"} & set(r.not_understood)


@pytest.mark.parametrize(
    "text", ["256 B200 GPUs without the storage fabric", "512 GPUs with 2 PB storage"]
)
def test_a_storage_fabric_or_a_capacity_does_not_put_storage_out_of_scope(text: str) -> None:
    assert parse_request(load_catalog(), text).storage_excluded is None


def test_storage_out_of_scope_is_neither_quoted_nor_powered() -> None:
    from clustergen.engine.model.inventory import PartKind
    from clustergen.engine.search.planner import plan_design

    cat = load_catalog()
    own = plan_design(cat, parse_request(cat, "512 GPUs training, 5 MW; storage is out of scope"))
    quoted = plan_design(cat, parse_request(cat, "512 GPUs training, 5 MW"))
    assert own.storage.existing
    assert not [ln for ln in own.bom if ln.category == PartKind.STORAGE]
    assert [ln for ln in quoted.bom if ln.category == PartKind.STORAGE]
    assert own.power.storage_w == 0.0
    assert own.fabrics.storage is not None  # the storage fabric still reaches it


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("We only want DGX systems, 256 GPUs", {"dgx-b200", "dgx-h200", "gb200-nvl72"}),
        ("DGX only, 128 GPUs", {"dgx-b300"}),
        ("512 GPUs on OEM servers", {"hgx-b200", "pcie-8gpu-l40s"}),
    ],
)
def test_a_kind_of_system_asked_for_rules_out_the_others(text: str, kept: set[str]) -> None:
    r = parse_request(load_catalog(), text)
    assert r.platforms_excluded
    assert not kept & set(r.platforms_excluded)
    assert not r.not_understood


def test_a_passing_mention_of_a_kind_word_narrows_nothing() -> None:
    assert parse_request(load_catalog(), "256 GPUs with PCIe Gen5 NICs").platforms_excluded is None


@pytest.mark.parametrize(
    ("text", "field", "asked"),
    [
        (
            "512 H100 GPUs; we'd rather avoid InfiniBand but could live with it",
            "fabric",
            "ethernet",
        ),
        ("512 GPUs for training, ideally not liquid cooled", "cooling", "air"),
        ("512 GPUs, avoid liquid cooling if possible", "cooling", "air"),
        (
            "256 GPUs, we would prefer not to use Ethernet, but it's acceptable",
            "fabric",
            "infiniband",
        ),
    ],
)
def test_a_softened_negation_asks_for_the_other_without_ruling_out(
    text: str, field: str, asked: str
) -> None:
    r = parse_request(CAT, text)
    assert getattr(r, field) == asked
    assert getattr(r, f"{field}_excluded") is None
    assert r.not_understood == []
    assert any("avoided where possible (a preference)" in u for u in r.understood)


@pytest.mark.parametrize(
    "text",
    [
        "512 GPUs for training, 5 MW, we'd rather avoid GB200",
        "512 GPUs for training, no GB200 if possible",
        "512 GPUs for training; not GB200 ideally, but we could live with it",
    ],
)
def test_a_softened_negation_of_a_system_avoids_it(text: str) -> None:
    r = parse_request(CAT, text)
    assert r.platforms_avoided == ["gb200"]
    assert r.platforms_excluded is None
    assert r.not_understood == []


def test_a_plain_negation_still_rules_out() -> None:
    r = parse_request(CAT, "512 GPUs for training, no GB200, no liquid cooling")
    assert r.platforms_excluded == ["gb200"]
    assert r.platforms_avoided is None
    assert r.cooling_excluded == "liquid"


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("up to 256 GPUs, without exceeding 2 MW", "power_cap_w", 2e6),
        ("don't exceed 40 kW per rack, 128 H100", "rack_power_kw", 40.0),
        ("we don't need more than 64 GPUs for fine-tuning", "gpus", 64),
        ("512 GPUs, we cannot go above 3 MW", "power_cap_w", 3e6),
    ],
)
def test_the_words_that_make_a_figure_a_ceiling_are_read_with_it(
    text: str, field: str, value: float
) -> None:
    r = parse_request(CAT, text)
    assert getattr(r, field) == value
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("2,000 Blackwell GPUs, air-cooled if at all possible, 12 MW site", "cooling", "air"),
        ("512 GPUs, InfiniBand where possible", "fabric", "infiniband"),
    ],
)
def test_a_wish_is_built_as_asked_and_its_words_read(text: str, field: str, value: str) -> None:
    r = parse_request(CAT, text)
    assert getattr(r, field) == value
    assert r.not_understood == []
    assert any("is a wish, built as asked" in u for u in r.understood)


def test_rl_post_training_is_training() -> None:
    r = parse_request(CAT, "1.5k H200s for RL post-training")
    assert (r.workload, r.gpus) == ("training", 1500)
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "cap_w", "basis", "pue"),
    [
        ("our colo gives us 2 x 1.2 MW halls, 512 GPUs", 2.4e6, None, None),
        ("The site is limited to 15 MW total, of which 12 MW IT; 4096 GPUs", 12e6, "it", 1.25),
        ("10 MW at the meter incl. 8 MW critical load, 2000 GPUs", 8e6, "it", 1.25),
        ("power available: 800kVA, 64 H100", 760e3, None, None),
    ],
)
def test_a_cap_as_sites_state_it(
    text: str, cap_w: float, basis: str | None, pue: float | None
) -> None:
    r = parse_request(CAT, text)
    assert r.power_cap_w == pytest.approx(cap_w)
    assert (r.power_cap_basis, r.pue) == (basis, pue)
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("1024 GPUs; liquid is fine", "cooling"),
        ("512 GPUs, InfiniBand would be OK", "fabric"),
        ("1024 GPUs, no preference on fabric", "fabric"),
        # what the site can take is no requirement
        (
            "Train a 70B model on 15T tokens in 90 days, 2.5 MW IT, liquid cooling available",
            "cooling",
        ),
        ("512 GPUs training, we can do liquid cooling", "cooling"),
        ("512 GPUs, our facility has liquid cooling", "cooling"),
        ("512 GPUs, DLC capable", "cooling"),
        # another reading took "facility" (the power basis): the permission still holds
        ("512 GPUs, 3 MW at the meter, our facility has liquid cooling", "cooling"),
    ],
)
def test_an_option_allowed_is_not_asked_for(text: str, field: str) -> None:
    r = parse_request(CAT, text)
    assert getattr(r, field) is None
    assert r.not_understood == []


@pytest.mark.parametrize("text", ["512 GPUs, liquid cooled", "512 H100 with liquid cooling"])
def test_a_cooling_asked_for_is_still_asked_for(text: str) -> None:
    assert parse_request(CAT, text).cooling == "liquid"


@pytest.mark.parametrize(
    "text",
    [
        "we want 256 GPUs for training but we're not sure if we need InfiniBand",
        "256 GPUs, undecided on InfiniBand vs Ethernet",
        "256 GPUs, maybe InfiniBand",
        "256 GPUs, don't know whether we need liquid cooling",
        "512 GPUs, we're still evaluating air vs liquid cooling, 5 MW",
        "256 GPUs. Not sure yet about networking.",
        "256 GPUs; InfiniBand is optional",
    ],
)
def test_an_option_left_open_is_neither_asked_for_nor_ruled_out(text: str) -> None:
    r = parse_request(CAT, text)
    assert (r.fabric, r.cooling) == (None, None)
    assert (r.fabric_excluded, r.cooling_excluded) == (None, None)
    assert r.not_understood == []


def test_an_open_fabric_leaves_a_ruled_out_cooling_ruled_out() -> None:
    r = parse_request(CAT, "256 GPUs, not sure about the fabric, but no liquid cooling")
    assert (r.fabric, r.cooling_excluded) == (None, "liquid")
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "cap_w"),
    [
        ("datacenter with 4MW, PUE 1.4, 50% reserved for other IT", 2e6),
        ("6 MW site, 40% of it is available for the AI cluster, train 70B", 2.4e6),
        ("5 MW, 30% is already used by the existing halls; 512 GPUs", 3.5e6),
    ],
)
def test_a_share_of_the_site_held_by_others_or_given_to_the_cluster_is_the_cap(
    text: str, cap_w: float
) -> None:
    r = parse_request(CAT, text)
    assert r.power_cap_w == pytest.approx(cap_w)
    assert r.not_understood == []


def test_a_transformer_rating_is_at_the_facility() -> None:
    r = parse_request(CAT, "1.5 MVA of transformer capacity, 256 GPUs")
    assert r.power_cap_basis == "facility"


def test_neither_nor_rules_out_both() -> None:
    r = parse_request(CAT, "256 GPUs, neither H100 nor H200")
    assert r.gpu is None
    assert set(r.platforms_excluded) == {"h100-sxm", "h200"}


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("512 GPUs, InfiniBand not required", "fabric"),
        ("512 GPUs, liquid cooling is not out of the question", "cooling"),
    ],
)
def test_an_option_not_required_or_not_out_of_the_question_is_allowed(
    text: str, field: str
) -> None:
    r = parse_request(CAT, text)
    assert getattr(r, field) is None
    assert getattr(r, f"{field}_excluded") is None
    assert r.not_understood == []


@pytest.mark.parametrize(
    "text",
    [
        "512 GPUs, cost is the main concern",
        "price is really a concern, 64 GPUs",
        "5 MW, power is a constraint",
    ],
)
def test_a_concern_said_without_a_negation_is_not_read_as_no_limit(text: str) -> None:
    r = parse_request(CAT, text)
    assert not any("no spending limit" in u or "no power limit" in u for u in r.understood)


@pytest.mark.parametrize(
    "text",
    [
        "512 GPUs, we are not limited on power",
        "512 GPUs, power is not a constraint",
        "512 GPUs, budget is not a concern",
    ],
)
def test_no_limit_said_is_read_and_sets_no_cap(text: str) -> None:
    r = parse_request(CAT, text)
    assert r.power_cap_w is None
    assert r.not_understood == []


@pytest.mark.parametrize(
    "text",
    ["512 GPUs, don't use more than 2 MW", "512 GPUs, the cluster can't draw more than 2 MW"],
)
def test_a_ceiling_said_as_what_not_to_use_is_read_with_the_cap(text: str) -> None:
    r = parse_request(CAT, text)
    assert r.power_cap_w == 2e6
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "cap_w"),
    [
        ("Quote for an AI factory: 1 GW campus, phase 1 is 100 MW", 100e6),
        ("a 300 MW site, the first phase of 50 MW, GB300", 50e6),
    ],
)
def test_the_first_phase_of_a_campus_is_the_cap(text: str, cap_w: float) -> None:
    assert parse_request(CAT, text).power_cap_w == cap_w


@pytest.mark.parametrize(
    ("text", "cap_w"),
    [
        ("we have 2 MW today and will have 5 MW next year, 512 GPUs now", 2e6),
        ("3 MW now, 8 MW in 2027", 3e6),
    ],
)
def test_todays_power_is_the_cap_and_a_later_figure_is_said(text: str, cap_w: float) -> None:
    r = parse_request(CAT, text)
    assert r.power_cap_w == cap_w
    assert r.not_understood == []


def test_kw_each_of_the_racks_named_is_a_rack_limit_not_a_cap() -> None:
    r = parse_request(CAT, "We're looking at 4 x GB300 NVL72 racks, liquid cooled, 132 kW each")
    assert (r.rack_power_kw, r.power_cap_w) == (132.0, None)


def test_a_servers_power_is_not_a_site_cap() -> None:
    r = parse_request(CAT, "HGX B200 x 32, air cooled at 14.3 kW per server")
    assert r.power_cap_w is None


def test_a_serving_load_without_a_model_asks_for_the_model() -> None:
    with pytest.raises(RequestError, match="not the model it serves"):
        parse_request(
            CAT, "We expect 50 requests per second, prompts ~2k tokens, answers ~500 tokens"
        )


def test_anything_but_the_makers_family_rules_it_out_and_emphasis_is_read() -> None:
    r = parse_request(load_catalog(), "anything but NVIDIA DGX, 128 GPUs, Spectrum-X")
    assert r.platforms_excluded is not None
    assert "dgx-h100" in r.platforms_excluded
    assert r.not_understood == []
    s = parse_request(load_catalog(), "128 GPUs, H200 preferred, definitely not H100")
    assert s.not_understood == []


def test_a_part_said_to_be_too_expensive_is_ruled_out() -> None:
    r = parse_request(
        CAT, "H100s are too expensive; what else can train a 13B model in 2 weeks on 1T tokens?"
    )
    assert r.platforms_excluded == ["h100-sxm"]
    assert r.not_understood == []


def test_a_rack_count_they_do_not_want_to_exceed_is_the_ceiling() -> None:
    r = parse_request(
        CAT, "We can't exceed 800kW IT, and we don't want more than 12 racks; 800G InfiniBand"
    )
    assert r.max_racks == 12
    assert r.not_understood == []


@pytest.mark.parametrize(
    "text",
    [
        "H100 vs H200 vs B200 for serving Llama 3.1 70B at 50k tokens/s, which is cheapest on power?",
        "H100, H200 or B200 for 512 GPUs training",
    ],
)
def test_three_gpus_set_side_by_side_are_weighed_together(text: str) -> None:
    r = parse_request(CAT, text)
    assert r.gpus_weighed == ["h100-sxm", "h200", "b200"]
    assert r.gpu is None
