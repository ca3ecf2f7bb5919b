"""The memo reads as a proposal: the answer first, then configuration, topology, power, BOM,
risks and next steps; the appendix holds method, assumptions, trade study and every check. No
engine field name or internal label reaches the reader."""

from __future__ import annotations

import dataclasses
import re

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.assemble import assemble_design
from clustergen.engine.model.common import Check
from clustergen.engine.model.design import Design, DesignChoices
from clustergen.engine.model.request import DesignRequest
from clustergen.engine.report.documents import appendix, memo, study
from clustergen.engine.report.scale_words import systems_text
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design

CATALOG = load_catalog()


@pytest.fixture(scope="module")
def design() -> Design:
    """H100-RA Table 7: 4 SU, 127 DGX H100, built without a trade study."""
    return assemble_design(CATALOG, DesignRequest(nodes=127), DesignChoices(platform="dgx-h100"))


@pytest.fixture(scope="module")
def readme_design() -> Design:
    """The README's example, through the planner (with its trade study)."""
    return plan_design(CATALOG, merge_request(CATALOG, "512 GPUs training, 5 MW", {}))


def headings(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("## ")]


def test_the_memo_leads_with_the_summary_and_follows_proposal_order(readme_design: Design) -> None:
    text = memo.render_memo(readme_design)
    assert text.startswith("# GPU cluster proposal: 512 NVIDIA B200 GPUs on ")
    platform = readme_design.platform.name
    assert headings(text) == [
        "## Executive summary",
        "## 1. Recommended configuration",
        "## 2. Topology",
        "## 3. Power",
        "## 4. Bill of materials (summary)",
        "## 5. Risks and open questions",
        "## 6. Next steps",
        "## Appendix A. Method",
        "## Appendix B. The request as read, assumptions and their sources",
        "## Appendix C. Trade study",
        "## Appendix D. All checks",
        "## Appendix E. Links, end to end",
        "## Appendix F. Sources",
    ]
    summary = text.split("## Executive summary", 1)[1].split("## 1.", 1)[0]
    assert f"We recommend {systems_text(readme_design)}" in summary
    assert platform.partition(" (")[0] in summary
    assert "**Checks: PASS.**" in summary
    assert f"| IT power | {readme_design.power.it_total_w / 1e3:,.1f} kW |" in summary
    if readme_design.power.unknown:
        assert "What is not known yet" in summary
    for estimate in readme_design.power.estimated:
        assert f"- {estimate}" in summary


@pytest.mark.parametrize(
    "text",
    [
        "512 GPUs training, 5 MW",
        "512 H200 GPUs one file per sample, 150 KB images",
        "2 MW IT mixed workloads",
    ],
)
def test_no_internal_label_reaches_the_memo(text: str) -> None:
    d = plan_design(CATALOG, merge_request(CATALOG, text, {}))
    body = memo.render_memo(d)
    for label in ("LAB,", "Act II", "MDS_OPS", "_BW", "Rackula spike", "spike #"):
        assert label not in body, label
    # assumption fields are in words: no snake_case engine field name in the assumptions table
    table = body.split("## Appendix B.", 1)[1].split("## Appendix C.", 1)[0]
    first_cells = [row.split("|")[1].strip() for row in table.splitlines() if row.startswith("| ")]
    assert not [c for c in first_cells if re.fullmatch(r"[a-z]+(_[a-z]+)+", c)]


def test_the_trade_study_says_why_the_winner_won(readme_design: Design) -> None:
    text = "\n".join(study.study_table(readme_design))
    alt = readme_design.alternatives
    assert alt is not None
    chosen = next(r for r in alt.rows if r.chosen)
    assert text.startswith(f"{chosen.platform} on {chosen.switch} (1:1) was chosen by ")
    assert f"Objective: {alt.objective}." in text
    assert f"Ranking: {alt.ranking}." in text
    # every row, with the columns the terminal and the JSON carry
    assert text.count("| ") >= len(alt.rows)
    runner = next(r for r in alt.rows if r.eligible and not r.chosen)
    assert (
        f"the runner-up, {study.built_on(runner)}, {study.runner_up_words(runner.why_not)}" in text
    )


def test_no_trade_study_without_alternatives(design: Design) -> None:
    rows = study.study_table(design.model_copy(update={"alternatives": None}))
    assert rows == ["No trade study was run: the request named the platform and its choices."]


def test_a_check_is_marked_pass_warn_or_fail() -> None:
    checks = [
        Check(name="a", passed=True, figure="1", detail="x"),
        Check(name="b", passed=False, figure="2", detail="y", severity="warning"),
        Check(name="c", passed=False, figure="3", detail="z"),
    ]
    d = Design.model_construct(checks=checks)
    assert appendix.checks(d)[2:] == [
        "| PASS | a | 1 | x |",
        "| WARN | b | 2 | y |",
        "| FAIL | c | 3 | z |",
    ]


def test_power_table_says_unknown_instead_of_zero(unknown_design: Design) -> None:
    rows = memo.power_section(unknown_design)
    assert "| compute fabric switches | unknown |" in rows  # Q3400 power taken out of the catalog
    assert rows[-1] == "\n![IT power by subsystem](power.png)"


def test_a_section_the_memo_has_no_words_for_is_still_shown(design: Design) -> None:
    class Extended(Design):
        appliances: tuple[str, ...] = ("two storage appliances",)

    d = Extended.model_validate(design.model_dump())
    text = memo.render_memo(d)
    assert "### Appliances" in text
    assert "two storage appliances" in text


def test_the_executive_summary_says_what_was_not_understood() -> None:
    cat = load_catalog()
    request = merge_request(cat, "512 GPUs training, 5 MW, zorp", {})
    d = assemble_design(cat, request, DesignChoices(platform="dgx-h100"))
    assert "**Not understood in the request (ignored):** `zorp`." in memo.executive_summary(d)


def test_part_names_to_confirm_are_never_cut_inside_a_bracket() -> None:
    """A GB200 design's parts without an OPN (a splitter fiber named with a comma inside its
    brackets, its OPN taken out here as the RA gives it for one length only): each name in the
    risks list closes what it opens."""
    entries = {stem: dict(rows) for stem, rows in CATALOG.entries.items()}
    split = entries["optics"]["fiber-mpo-mm-split"]
    entries["optics"]["fiber-mpo-mm-split"] = split.model_copy(update={"opn": None})
    catalog = dataclasses.replace(CATALOG, entries=entries, hash="splitter-without-opn")
    d = assemble_design(catalog, DesignRequest(gpus=576), DesignChoices(platform="gb200-nvl72"))
    line = next(
        ln
        for ln in memo.render_memo(d).splitlines()
        if ln.startswith("- Part numbers to confirm with the vendor: ")
    )
    names = line.removeprefix("- Part numbers to confirm with the vendor: ").rstrip(".").split("; ")
    assert any("splitter fiber" in n for n in names)
    for name in names:
        assert name.count("(") == name.count(")"), name


def test_a_serving_memo_states_the_interactivity_it_was_sized_at() -> None:
    """The workload section carries the throughput-vs-interactivity table on the design's GPU,
    one row per tokens/s per user, with the rate the design is sized at among them."""
    request = merge_request(
        CATALOG, "serve llama 3.1 70b at 5000 tokens/s, 50 tokens/s per user", {}
    )
    d = assemble_design(CATALOG, request, DesignChoices(platform="dgx-h100"))
    lines = memo.workload_lines(d)
    header = next(i for i, line in enumerate(lines) if line.startswith("| tokens/s per user"))
    rows = [line for line in lines[header + 2 :] if line.startswith("| ")]
    assert d.workload is not None
    assert len(rows) == len(d.workload.interactivity)
    assert any(r.startswith("| 50 | 20.0 | ") for r in rows)
    assert not any(line.endswith("..") for line in lines)


@pytest.mark.parametrize(
    ("platform", "nodes", "start"),
    [
        (
            "gb200-nvl72",
            8,
            "We recommend 8 NVIDIA GB200 NVL72 racks (DGX GB200) with 576 NVIDIA GB200 "
            "Blackwell GPUs in 1 scalable unit on",
        ),
        ("dgx-b200", 32, "We recommend 32 NVIDIA DGX B200 systems (256 NVIDIA B200 GPUs)"),
        ("dgx-h100", 127, "We recommend 127 NVIDIA DGX H100 systems (1,016 NVIDIA H100 SXM5"),
    ],
)
def test_the_headline_names_systems_and_gpus_once_each(
    platform: str, nodes: int, start: str
) -> None:
    """No 'GPU (in GB200 NVL72) GPUs', no '32 x ... rack (DGX GB200) (2,304 ...)': the plural
    on the noun, a product note in parentheses kept once, never two brackets in a row."""
    d = assemble_design(CATALOG, DesignRequest(nodes=nodes), DesignChoices(platform=platform))
    text = memo.headline(d)
    assert text.startswith(start), text
    assert ") (" not in text
    assert "GPU GPUs" not in text
    assert ") GPUs" not in text
    memo_text = memo.render_memo(d)
    assert " x NVIDIA" not in memo_text.split("## 2.", 1)[0].split("## 1.", 1)[1]
    assert "GPU (in" not in memo_text.splitlines()[0]


def test_placeholder_lines_are_listed_one_per_item(readme_design: Design) -> None:
    """A placeholder's description has semicolons of its own: each is its own sub-item, never
    joined with '; ' into one sentence a reader cannot split."""
    text = memo.render_memo(readme_design)
    placeholders = [ln for ln in readme_design.bom if ln.placeholder]
    assert placeholders
    for ln in placeholders:
        assert f"\n  - {ln.description}" in text


def test_a_server_is_counted_as_servers_not_server_systems(readme_design: Design) -> None:
    words = systems_text(readme_design)
    assert words == "64 NVIDIA HGX B200 8-GPU servers (OEM)"


def test_a_server_named_from_a_figure_is_counted_with_a_times_sign() -> None:
    """'Llama 3.1 8B chatbot on L40S, 10k tokens/s, no more than 4 servers' said '16 NVIDIA
    L40S GPUs on 4 4-GPU PCIe server, L40S (Enterprise RA 2-4-3-200) systems'."""
    d = plan_design(CATALOG, merge_request(CATALOG, "16 L40S GPUs on 4-GPU PCIe servers", {}))
    assert d.platform.name.startswith("4-GPU")
    words = systems_text(d)
    assert words == f"{d.compute.nodes} x {d.platform.name}"
    assert not words.endswith("systems")


def test_the_memo_lists_every_link_group_with_both_ends_and_its_cable() -> None:
    from clustergen.catalog import load_catalog
    from clustergen.engine.request import merge_request
    from clustergen.engine.search.planner import plan_design

    cat = load_catalog()
    d = plan_design(cat, merge_request(cat, "DGX H100 4 SU", {}))
    text = memo.render_memo(d)
    table = text.split("## Appendix E. Links, end to end")[1].split("## Appendix F")[0]
    rows = [r for r in table.splitlines() if r.startswith("- **")]
    assert len(rows) == len(d.links)
    for g, row in zip(d.links, rows, strict=True):
        assert f"{g.links:,} links at {g.speed_gbps:g} Gb/s" in row
        assert (g.cable or "cable to choose") in row
    assert "### Links" not in text  # no raw dump of the section after the sources
    assert "capital usd" not in text


def test_every_list_is_set_apart_from_the_paragraph_before_it() -> None:
    """Pandoc, Word and PDF run a list that follows a paragraph line into it: the memo puts a
    blank line before every list (page 1's estimate list ran inline)."""
    import itertools
    import re

    from clustergen.engine.report.documents.memo import lists_set_apart, render_memo

    text = render_memo(_design_for_lists())
    lines = text.splitlines()
    for prev, line in itertools.pairwise(lines):
        if re.match(r"(?:[-*]|\d+\.) ", line):
            assert not prev.strip() or re.match(r"\s*(?:[-*]|\d+\.) |\s{2,}\S", prev), (prev, line)
    # two lists with only a blank line between are one list to pandoc: a paragraph parts them
    # (the cost section's unpriceable lines ran into its assumptions)
    runs = re.findall(r"\n(?:[-*]|\d+\.) [^\n]*\n\n(?:[-*]|\d+\.) ", text)
    assert runs == []
    assert lists_set_apart(["Lead:", "- a", "- b"]) == ["Lead:", "", "- a", "- b"]
    assert lists_set_apart(["```", "x", "- y", "```"]) == ["```", "x", "- y", "```"]


def _design_for_lists() -> Design:
    from clustergen.catalog import load_catalog
    from clustergen.engine.search.planner import plan_design
    from clustergen.engine.search.proposal import request_from_fields

    catalog = load_catalog()
    return plan_design(
        catalog,
        request_from_fields(catalog, {"gpus": 512, "power_cap_w": 5e6, "workload": "training"}),
    )


def test_the_summary_states_the_serving_load_sized_for() -> None:
    from clustergen.engine.request import merge_request
    from clustergen.engine.search.planner import plan_design

    cat = load_catalog()
    text = "Serve Llama 3.1 70B to 5,000 users (about 10% active at peak)"
    d = plan_design(cat, merge_request(cat, text, {}))
    summary = "\n".join(memo.executive_summary(d))
    assert "**Serving load sized for:**" in summary
    assert "500 streams" in summary
    assert "10,000 output tokens/s" in summary
    assert "requests/s" in summary


def test_a_mixed_cluster_memo_states_both_pools() -> None:
    from clustergen.engine.request import merge_request
    from clustergen.engine.search.planner import plan_design

    cat = load_catalog()
    text = "a mixed cluster: 512 GPUs for training plus serving Llama 3.3 70B to 2,000 users"
    d = plan_design(cat, merge_request(cat, text, {}))
    head = memo.headline(d)
    assert "a training pool of 512" in head
    assert "a serving pool of" in head
    assert "40,000 output tokens/s" in head


def test_the_storage_bullet_says_what_is_delivered_and_the_appendix_how() -> None:
    """A GB300 memo's page-1 storage bullet carried its derivation ("... DGX H100-equivalent
    nodes ... SU-equivalents"): the bullet says the appliances and their read and write, the
    derivation of the targets is in Appendix A."""
    from clustergen.units import bandwidth

    d = plan_design(CATALOG, merge_request(CATALOG, "512 GPUs", {"platform": "gb300-nvl72"}))
    text = memo.render_memo(d)
    page_one, appendix = text.split("## Appendix A. Method")
    bullet = next(ln for ln in page_one.splitlines() if ln.startswith("- Storage ("))
    app = d.storage.appliances
    assert app is not None
    assert f"{app.count} x {app.name}" in bullet
    assert f"read {bandwidth(app.read_gb_per_s)}" in bullet
    assert "write " in bullet
    for derivation in ("equivalent", "Table 6", "interpolated", "target binds"):
        assert derivation not in page_one, derivation
    assert d.storage.targets.basis.split(";")[0] in appendix
    assert "Table 6" in appendix


def test_the_headroom_under_a_facility_cap_is_said_at_the_meter() -> None:
    """The headroom is IT power; under a facility cap it was written as if at the meter."""
    d = plan_design(
        CATALOG, merge_request(CATALOG, "256 GPUs training, 3 MW at the meter, PUE 1.3", {})
    )
    assert d.power.headroom_w is not None
    text = memo.headline(d)
    assert "of IT) under the 3.000 MW facility power cap" in text
    assert "at the meter (" in text


def test_an_expansion_headline_says_what_it_joins_and_no_headroom_it_cannot_know() -> None:
    """The increment's headline says it joins the standing installation; under a cap that also
    holds an existing draw, the headroom is what is left after it: stated, or estimated from
    the installation's size (said so); with neither, it claims none (the check cannot tell)."""
    d = plan_design(
        CATALOG,
        DesignRequest(
            platform="dgx-h100", gpus=256, existing_gpus=512, power_cap_w=1.5e6,
            power_cap_basis="facility",
        ),
    )  # fmt: skip
    text = memo.headline(d)
    assert "join the existing 512-GPU dgx-h100 installation (768 GPUs in all)" in text
    assert "with the existing installation's draw estimated at" in text
    stated = plan_design(CATALOG, d.request.model_copy(update={"existing_power_w": 500_000.0}))
    assert "leaving" in memo.headline(stated)
    assert "estimated" not in memo.headline(stated)
    unsized = plan_design(
        CATALOG,
        DesignRequest(
            platform="dgx-h100", gpus=256, existing_platform="dgx-h100", power_cap_w=1.5e6,
            power_cap_basis="facility",
        ),
    )  # fmt: skip
    text = memo.headline(unsized)
    assert "leaving" not in text
    assert "depends on the existing installation's draw" in text
    # nor does its summary table or power section (they showed the cap less the increment)
    for line in memo.render_memo(unsized).splitlines():
        if line.lower().startswith("| headroom under the cap"):
            assert "| unknown: depends on the existing installation's draw |" in line


def test_the_memo_shows_how_each_phrase_was_read() -> None:
    from clustergen.engine.request import merge_request
    from clustergen.engine.search.planner import plan_design

    cat = load_catalog()
    text = "512 H100 GPUs for training; we'd rather avoid InfiniBand but could live with it"
    body = memo.render_memo(plan_design(cat, merge_request(cat, text, {})))
    appendix_b = body.split("## Appendix B.")[1].split("## Appendix C.")[0]
    assert "How the request was read" in appendix_b
    assert "avoided where possible (a preference)" in appendix_b


def test_the_racks_bullet_counts_the_racks_beside_compute_as_the_summary_does() -> None:
    """It said '6 network racks' under a summary of '4 network + 2 storage'."""
    from clustergen.engine.report.figures import support_racks_words

    d = plan_design(
        CATALOG, merge_request(CATALOG, "1024 B200 GPUs, 10 PB of storage at 200 GB/s read", {})
    )
    words = support_racks_words(d)
    assert "storage" in words
    (bullet,) = [line for line in memo.render_memo(d).splitlines() if line.startswith("- Racks:")]
    *kinds, last = words.split(" + ")
    assert f"{', '.join(kinds)} and {last} racks" in bullet
    assert f"{d.racks.network_racks} network racks" not in bullet


def test_a_risk_is_one_sentence_never_a_lower_case_one_after_a_full_stop() -> None:
    """It read '... (4.7%) left. the most loaded rack; ...'."""
    d = plan_design(CATALOG, merge_request(CATALOG, "1024 B200 GPUs, 2:1 oversubscription", {}))
    lines = [ln for ln in memo.risks(d) if ln.startswith(("- WARN", "- FAIL", "- INFO"))]
    assert lines
    for line in lines:
        assert not re.search(r"\. [a-z]", line), line
        assert line.endswith(".")


def test_a_summary_with_no_network_rack_says_where_the_switches_are() -> None:
    """It read 'Racks | 1 compute + 0 network' where the terminal says why."""
    d = plan_design(CATALOG, merge_request(CATALOG, "8 H200 GPUs for inference", {}))
    assert d.racks.network_racks == 0
    (row,) = [ln for ln in memo.render_memo(d).splitlines() if ln.startswith("| Racks |")]
    assert "+ 0 network (switches and servers in a compute rack) |" in row


def test_the_inventory_is_said_in_words_never_as_a_count_of_items() -> None:
    """The appendix ended with '### Inventory - groups: 12 items - racks: 10 items'."""
    d = plan_design(CATALOG, DesignRequest(platform="dgx-h100", nodes=64))
    text = memo.render_memo(d)
    assert "items" not in text.split("### Inventory", 1)[1].split("###", 1)[0]
    assert d.inventory is not None
    devices = sum(g.count for g in d.inventory.groups)
    assert f"{devices:,} devices in {len(d.inventory.groups)} groups" in text
