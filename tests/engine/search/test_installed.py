"""Expansions and replacements, planned on the installation's terms."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.inventory import PartKind
from clustergen.engine.request import parse_request
from clustergen.engine.search.planner import plan_design
from clustergen.errors import InfeasibleDesignError


def _design(text: str):  # type: ignore[no-untyped-def]
    catalog = load_catalog()
    return plan_design(catalog, parse_request(catalog, text))


def test_an_expansion_quotes_only_the_increment_and_says_what_it_reuses() -> None:
    d = _design("Add 256 GPUs to our existing 512 H100 SuperPOD")
    assert d.compute.gpus == 256
    assert d.notice
    assert d.notice.startswith("an expansion of the existing 512-GPU dgx-h100")
    assert "reuses its fabric managers" in d.notice
    kinds = {line.category for line in d.bom}
    assert not kinds & {PartKind.FABRIC_MANAGER, PartKind.MANAGEMENT_SERVER, PartKind.STORAGE}
    assert (d.servers.fabric_managers, d.servers.management_servers) == (0, 0)
    assert d.checks[0].name == "existing fabric has room"
    assert d.checks[0].passed


def test_an_expansion_past_the_standing_tiers_is_refused_saying_what_it_needs() -> None:
    with pytest.raises(InfeasibleDesignError, match=r"tops out at .* needs a core tier"):
        _design("We run 8 SUs of DGX H100 today; add 2 SUs")


def test_an_expansion_the_ports_hold_but_the_ra_builds_in_more_tiers_says_so() -> None:
    # it said the 8-rack fabric "tops out at 16 nodes" and refused 12 for "1 SU"
    with pytest.raises(InfeasibleDesignError) as e:
        _design("we have 8 GB200 NVL72 racks and want to add 4 more")
    msg = str(e.value)
    assert "tops out" not in msg
    assert "reference architecture's 2-tier layout, which builds 12 nodes in more tiers" in msg
    assert "adding 4 nodes (288 GPUs)" in msg


def test_the_cap_counts_the_existing_load_stated_else_estimated_else_cannot_tell() -> None:
    known = _design(
        "We have 64 DGX B200 nodes on InfiniBand drawing 950 kW; add 32 more under a 2 MW IT cap"
    )
    cap = next(c for c in known.checks if c.name == "power under cap")
    assert "existing 0.950 MW" in cap.detail
    assert cap.passed
    # its size stated, its draw not: the standing installation as its RA builds it, at published
    # maximum power (as a replaced fleet's envelope is), labelled an estimate
    sized = _design("Add 32 DGX B200 nodes to our existing 64-node DGX B200 pod, 2 MW IT cap")
    cap = next(c for c in sized.checks if c.name == "power under cap")
    assert not cap.unknown
    assert "an estimate" in cap.detail
    # over a cap the estimate exceeds, the check fails: the overrun is not hidden as unknown
    tight = _design("Add 32 DGX B200 nodes to our existing 64-node DGX B200 pod, 1 MW IT cap")
    cap = next(c for c in tight.checks if c.name == "power under cap")
    assert not cap.passed
    assert not cap.unknown
    # its size not stated: nothing to estimate from, so the check cannot tell
    unknown = _design("Add 32 DGX B200 nodes to our existing DGX B200 pod, 2 MW IT cap")
    cap = next(c for c in unknown.checks if c.name == "power under cap")
    assert cap.unknown
    assert not cap.passed


def test_mixing_link_speeds_in_one_fabric_is_refused() -> None:
    with pytest.raises(InfeasibleDesignError, match="link speed"):
        _design("Add 8 DGX B300 to our existing 64-node DGX A100 SuperPOD")


def test_a_replacement_states_its_compute_ratio_within_the_envelope() -> None:
    d = _design("Replace our 64 DGX A100 nodes with current-generation systems within 1.6 MW")
    assert d.platform.system != "dgx-a100"
    assert d.notice
    assert d.notice.startswith("a replacement: ")
    assert "x the dense BF16 of the 512 a100-80gb it replaces" in d.notice
    assert d.power.it_total_w <= 1.6e6


def test_a_replacement_without_an_envelope_keeps_the_fleets_own_power() -> None:
    d = _design("replace our 256 A100s with H200s")
    assert any(a.field == "power_cap_w" and "replaced fleet" in a.reason for a in d.assumptions)
    assert d.power.cap_w is not None
    assert d.power.it_total_w <= d.power.cap_w


def test_a_replacement_that_keeps_the_count_takes_no_envelope() -> None:
    d = _design("We run 32 A100 nodes and want to move to H200 with the same node count")
    assert (d.compute.nodes, d.compute.gpus) == (32, 256)
    assert d.power.cap_w is None
    assert not any(a.field == "power_cap_w" for a in d.assumptions)


def test_a_rebuild_from_request_and_choices_is_the_same_increment() -> None:
    """The assembly restates every design of an expansion request, so the agent's and a
    rebuild's designs are the planner's."""
    from clustergen.engine.assemble import assemble_design

    d = _design("We have 64 DGX B200 nodes on InfiniBand drawing 950 kW; add 32 more, 2 MW IT cap")
    again = assemble_design(load_catalog(), d.request, d.choices)
    assert again.bom == d.bom
    assert again.checks == d.checks
    assert again.notice == d.notice


def test_a_cap_left_for_the_increment_is_checked_on_the_increment_alone() -> None:
    d = _design("We have 600 kW left for the new pods; add 256 B200 GPUs to our existing 512 H100")
    cap = next(c for c in d.checks if c.name == "power under cap")
    assert not cap.unknown  # the standing draw does not enter it
    assert cap.passed == (d.power.it_total_w <= 600e3)
    assert "left for it" in cap.figure
    # the increment is sized under what is left: too little is refused saying what fits
    with pytest.raises(InfeasibleDesignError, match=r"over the 300 kW IT cap"):
        _design("We have 300 kW left; add 256 B200 GPUs to our existing 512 H100 cluster")


def test_an_increment_joins_the_installations_fabric_when_none_is_stated() -> None:
    d = _design("add 256 B200 GPUs to our existing 512 H100 cluster")
    assert d.fabrics.compute is not None
    assert d.fabrics.compute.technology == "infiniband"  # the DGX H100 SuperPOD's
    said = next(a for a in d.assumptions if a.field == "existing_fabric")
    assert "not stated" in said.reason


def test_a_fleet_counted_in_nodes_of_a_gpu_replaces_its_gpus() -> None:
    r = parse_request(load_catalog(), "replace our 128 A100 nodes with something current")
    assert r.replaced_gpus == 1024
    assert r.not_understood == []


def test_a_successor_in_the_fleets_envelope_is_weighed_by_compute_and_keeps_air_cooling() -> None:
    """Fewer, faster GPUs are the better successor when the old GPU count does not fit; an
    air-cooled fleet's hall takes air-cooled systems unless liquid is asked for."""
    d = _design("replace our 128 A100 nodes with something current, same power envelope")
    assert d.alternatives is not None
    assert "PFLOPS under the cap" in d.alternatives.objective
    assert any(a.field == "cooling" and a.value == "air" for a in d.assumptions)
    assert load_catalog().system(d.platform.system).cooling != "liquid"
    liquid = _design("replace our 128 DGX A100 with liquid-cooled current-generation systems")
    assert not any(a.field == "cooling" for a in liquid.assumptions)


def test_a_small_increment_follows_the_standing_installations_rack_layout() -> None:
    """'we have 62 DGX H100 and want to add 8 more': the 8 on their own followed DGX BasePOD (its
    converged SN4600C storage, a '1-tier' fabric beside 8 spines added, 3 per rack at the 40 kW
    default) while the grown SuperPOD's rack plan put them 4 to a rack (2 in the standing
    part-filled rack): the sections, the BOM and the rack plan disagreed. The increment now
    follows the installation's architecture, its rack layout the RA's own (no margin held)."""
    from clustergen.engine.assemble import assemble_design
    from clustergen.engine.report.words import compute_rack_words

    d = _design("we have 62 DGX H100 and want to add 8 more")
    rack = d.racks.compute
    assert rack.rack_power_limit_kw == 40.8
    assert rack.nodes_per_rack == 4
    assert any(a.field == "rack_power_kw" and "SuperPOD" in a.reason for a in d.assumptions)
    # the installation's architecture throughout: its storage fabric, not a BasePOD's own
    assert d.fabrics.storage is not None
    assert d.fabrics.storage.leaf_switch == "qm9700"
    assert d.fabrics.compute is not None
    assert d.fabrics.compute.tiers == 2  # the standing fabric's, spines added
    assert all(c.name != "rack power margin" for c in d.checks)
    # every new node is placed once: in the new racks the section counts, or a standing rack's
    # free slots, which the section's words say
    racked = sum(g.racks * g.nodes for g in rack.rack_loads)
    assert racked < d.compute.nodes
    assert (
        f"{d.compute.nodes - racked} more nodes in standing racks' free slots"
        in compute_rack_words(d)
    )
    # a rebuild from the design's request and choices is the same design
    again = assemble_design(load_catalog(), d.request, d.choices)
    assert again.checks == d.checks
    assert again.racks == d.racks


def test_a_successor_built_to_the_fleets_envelope_says_the_count_was_the_fleets() -> None:
    """'replace 32 DGX A100 with DGX B200' asked for no GPU count: the 256 are the fleet's, one
    for one, and the design the most that fit its envelope; never '256 GPUs asked for'."""
    d = _design("replace 32 DGX A100 with DGX B200")
    assert d.notice is not None
    assert "one for one with the fleet replaced" in d.notice
    assert "asked for" not in d.notice
