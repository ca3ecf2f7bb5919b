"""Scale: a design past its RA's published size says how its fabric is split (and the switch
counts are that split's), and a design past the largest published RA cluster is site-scale."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.catalog.architectures import Architecture
from clustergen.engine.model.design import Design
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design
from clustergen.engine.sizing.fabric import scale_section
from clustergen.engine.sizing.fabric.scale import largest_published

CAT = load_catalog()


def _design(text: str) -> Design:
    return plan_design(CAT, merge_request(CAT, text, {}))


def test_a_huge_request_is_split_into_pods_and_is_site_scale() -> None:
    d = _design("100000 GPUs training, 200 MW")
    s, f = d.scale, d.fabrics.compute
    assert s is not None
    assert f is not None
    assert s.beyond_ra
    assert s.site_scale
    assert s.pods == f.pods
    assert s.pods is not None
    assert s.pod_nodes is not None
    # the switch counts are the split's: every pod's leaves and spines, the core groups' cores
    assert s.pods * s.pod_nodes >= d.compute.nodes
    assert f.spine_switches == f.pods * (f.spines_per_pod or 0) * f.planes
    assert f"{f.pods:,} pods" in (s.caveat or "")
    assert "data halls" in (s.caveat or "")


@pytest.mark.parametrize(
    "arch_id", [a.id for a in CAT.all("architectures", Architecture) if a.published_max_nodes]
)
def test_a_published_design_is_never_beyond_its_ra_nor_site_scale(arch_id: str) -> None:
    arch = CAT.architecture(arch_id)
    n = arch.published_max_nodes
    assert n is not None
    for sid in arch.systems:
        node_w = CAT.system(sid).max_power_w or 0.0
        s = scale_section(CAT, arch, None, n, (n * node_w, n * node_w, n * node_w))
        assert s is None, (sid, s)


def test_one_node_more_than_the_ra_publishes_says_so() -> None:
    arch = CAT.architecture("dgx-superpod-h100")
    n = (arch.published_max_nodes or 0) + 1
    s = scale_section(CAT, arch, None, n, (1.0, 1.0, 1.0))
    assert s is not None
    assert s.beyond_ra
    assert not s.site_scale
    assert f"{arch.published_max_nodes:,} nodes" in (s.caveat or "")


def test_site_scale_starts_past_the_largest_published_cluster() -> None:
    limit_w, basis = largest_published(CAT)
    assert limit_w > 0
    assert basis
    assert scale_section(CAT, None, None, 1, (limit_w, limit_w, limit_w)) is None
    s = scale_section(CAT, None, None, 1, (limit_w * 1.01, limit_w, limit_w))
    assert s is not None
    assert s.site_scale
