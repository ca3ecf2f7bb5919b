"""Customer words: the verdict, the documents a source cites, field names in words."""

from __future__ import annotations

from clustergen.engine.model.common import Check
from clustergen.engine.model.design import Design
from clustergen.engine.report import words


def test_document_keeps_the_citation_and_drops_the_quotation() -> None:
    src = (
        'DGX SuperPOD H100 RA (RA-11333-001 V11) Table 7: "4 x BCM management servers, Intel based"; '
        'Table 8: "4 x HDR 400 Gbps to 2x200 Gbps"'
    )
    assert words.document(src) == "DGX SuperPOD H100 RA (RA-11333-001 V11) Table 7; Table 8"


def test_document_keeps_a_url_whose_colon_is_inside_brackets() -> None:
    src = "NVIDIA SN5000 manual, Data Interfaces (https://docs.nvidia.com/x: 64 ports): 2U"
    assert (
        words.document(src)
        == "NVIDIA SN5000 manual, Data Interfaces (https://docs.nvidia.com/x: 64 ports)"
    )


def test_document_names_a_secondary_summary_it_was_read_through() -> None:
    src = "NVIDIA DGX B300 User Guide, Introduction, as summarised by a public note (2026): 14.5 kW"
    assert (
        words.document(src) == "NVIDIA DGX B300 User Guide, Introduction (via a public note (2026))"
    )


def test_field_words() -> None:
    assert words.field_words("rack_power_kw") == "rack power limit (kW)"
    assert words.field_words("pue") == "PUE"
    assert words.field_words("storage_fabric_gb") == "storage fabric (GB)"
    assert words.field_words("spare_racks") == "spare racks"


def test_field_words_never_show_an_engine_name() -> None:
    # a serving design's assumptions printed 'assumed isl-tokens = 1000' and an expansion's
    # 'assumed port speed gbps = 200': the estimator's hyphenated names are the request's fields
    assert words.field_words("isl-tokens") == "input length (tokens)"
    assert words.field_words("osl-tokens") == "output length (tokens)"
    assert words.field_words("sequence-tokens") == "sequence length (tokens)"
    assert words.field_words("port_speed_gbps") == "node port speed (Gb/s)"
    assert words.field_words("uplink_gbps") == "uplink (Gb/s)"


def test_value_words_separates_thousands() -> None:
    assert words.value_words("1000") == "1,000"
    assert words.value_words("8192") == "8,192"
    assert words.value_words("50") == "50"
    assert words.value_words("1.56") == "1.56"
    assert words.value_words("parallel-fs") == "parallel file system"


def _design(*checks: Check) -> Design:
    from clustergen.catalog import load_catalog
    from clustergen.engine.assemble import assemble_design
    from clustergen.engine.model.design import DesignChoices
    from clustergen.engine.model.request import DesignRequest

    d = assemble_design(load_catalog(), DesignRequest(nodes=4), DesignChoices(platform="dgx-h100"))
    return d.model_copy(update={"checks": list(checks)})


def test_verdict_fail_beats_warn_beats_pass() -> None:
    ok = Check(name="a", passed=True, figure="1", detail="")
    warn = Check(name="b", passed=False, figure="2", detail="", severity="warning")
    bad = Check(name="c", passed=False, figure="3", detail="")
    assert words.verdict(_design(ok)).status == "PASS"
    assert words.verdict(_design(ok, warn)).status == "WARN"
    v = words.verdict(_design(ok, warn, bad))
    assert v.status == "FAIL"
    assert v.line.startswith("1 of 3 checks pass, 1 fail, 1 warn")
    assert v.failing == ["b (2)", "c (3)"]


def test_a_check_with_an_unknown_outcome_is_not_a_pass() -> None:
    ch = Check(name="storage power", passed=False, unknown=True, figure="unknown", detail="")
    assert ch.status == "UNKNOWN"
    assert words.verdict(_design(ch)).status == "WARN"


def test_a_cluster_smaller_than_one_rack_states_the_power_its_rack_draws() -> None:
    from clustergen.catalog import load_catalog
    from clustergen.engine.assemble import assemble_design
    from clustergen.engine.model.design import DesignChoices
    from clustergen.engine.model.request import DesignRequest

    cat = load_catalog()
    one = assemble_design(cat, DesignRequest(nodes=1), DesignChoices(platform="dgx-h100"))
    node_kw = one.racks.compute.rack_power_kw / one.racks.compute.nodes_per_rack
    assert words.compute_rack_words(one).startswith(f"1 node at {node_kw:.1f} kW, ")
    many = assemble_design(cat, DesignRequest(nodes=64), DesignChoices(platform="dgx-h100"))
    per = many.racks.compute.nodes_per_rack
    assert words.compute_rack_words(many) == (
        f"{per} nodes per rack at {many.racks.compute.rack_power_kw:.1f} kW"
    )
