"""The sensitivity sweep is exact: re-weighing a fabric sized once gives the node count the
power-first solve finds on a catalog whose GPU or transceiver power was changed."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from clustergen.catalog import load_catalog
from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Optic, System
from clustergen.engine.model.compute import FabricChoices
from clustergen.engine.request import merge_request
from clustergen.engine.search import sensitivity as sens
from clustergen.engine.solve.power_first import most_under_cap
from clustergen.errors import RequestError

CATALOG = load_catalog()


def derived(
    catalog: Catalog, *, optics_scale: float = 1.0, system: str | None = None, add_w: float = 0.0
) -> Catalog:
    """A copy of the catalog with every transceiver's power scaled and one system's power raised."""
    entries = {stem: dict(rows) for stem, rows in catalog.entries.items()}
    for oid, optic in entries["optics"].items():
        assert isinstance(optic, Optic)
        if optic.power_w is not None:
            entries["optics"][oid] = optic.model_copy(
                update={"power_w": optic.power_w * optics_scale}
            )
    if system is not None:
        s = entries["systems"][system]
        assert isinstance(s, System)
        assert s.max_power_w
        entries["systems"][system] = s.model_copy(update={"max_power_w": s.max_power_w + add_w})
    return dataclasses.replace(catalog, entries=entries, hash="derived")


def _option(catalog: Catalog, platform: str, tech: str, ratio: float) -> sens._Option:
    req = merge_request(catalog, "5 MW", {"platform": platform})
    options, _ = sens._options(catalog, req, "training")
    return next(
        o for o in options if o.choices.technology == tech and o.choices.oversubscription == ratio
    )


@pytest.mark.parametrize(
    ("platform", "tech", "ratio"),
    [
        ("dgx-h100", "infiniband", 1.0),
        ("dgx-b200", "ethernet", 2.0),
        ("gb200-nvl72", "infiniband", 1.0),
    ],
)
@pytest.mark.parametrize("scale", [0.0, 0.5, 2.0, 4.0])
@pytest.mark.parametrize("cap_mw", [0.7, 5.0, 23.0])
def test_optics_sweep_matches_a_derived_catalog(
    platform: str, tech: str, ratio: float, scale: float, cap_mw: float
) -> None:
    opt = _option(CATALOG, platform, tech, ratio)
    swept = opt.nodes_under(cap_mw * 1e6, optics_scale=scale)
    solved = most_under_cap(
        derived(CATALOG, optics_scale=scale),
        platform,
        cap_mw * 1e6,
        choices=FabricChoices(technology=tech, oversubscription=ratio),
    )  # type: ignore[arg-type]
    assert swept == solved.nodes


@pytest.mark.parametrize("change", [-0.2, 0.1, 0.3, 0.5])
@pytest.mark.parametrize("platform", ["dgx-h100", "dgx-b300"])
def test_gpu_power_sweep_matches_a_derived_catalog(platform: str, change: float) -> None:
    opt = _option(CATALOG, platform, "infiniband", 1.0)
    assert opt.gpu_w_per_node is not None
    swept = opt.nodes_under(5e6, gpu_change=change)
    cat = derived(CATALOG, system=platform, add_w=change * opt.gpu_w_per_node)
    solved = most_under_cap(
        cat, platform, 5e6, choices=FabricChoices(technology="infiniband", oversubscription=1.0)
    )
    assert swept == solved.nodes


def test_largest_fitting_finds_the_same_answer_from_any_guess() -> None:
    for answer in (0, 1, 7, 100, 999):
        for guess in (0, 1, 5, 99, 100, 101, 5000):

            def fits(n: int, answer: int = answer) -> bool:
                return n <= answer

            assert sens.largest_fitting(fits, guess, 1000) == answer


def test_the_sweep_answers_the_seed_memos_questions() -> None:
    s = sens.sensitivity(CATALOG, merge_request(CATALOG, "5 MW training", {}))
    assert s.cap_w == 5e6
    labels = {o.option for o in s.options}
    assert {"dgx-b200 IB 1:1", "dgx-b200 Ethernet 1:1", "dgx-b200 IB 2:1"} <= labels
    b200 = next(o for o in s.options if o.option == "dgx-b200 IB 1:1")
    assert b200.gpus == most_under_cap(CATALOG, "dgx-b200", 5e6).gpus  # the same solve as `power`
    assert b200.gpus_per_mw == b200.gpus / 5
    # GPUs lost as GPU power rises: none at 0%, more at +50% than at +10%
    pts = {p.change: p for p in s.gpu_power if p.option == "dgx-b200 IB 1:1"}
    assert pts[0.0].gpus_lost == 0
    assert 0 < pts[0.1].gpus_lost < pts[0.5].gpus_lost
    assert pts[-0.2].gpus_lost < 0  # cooler GPUs fit more
    assert s.gpus_lost_per_10pct["dgx-b200 IB 1:1"] > 0
    # with free optics every option fits at least as many GPUs as with 4x optics power
    free, costly = s.optics[0], s.optics[-1]
    assert all(free.gpus[k] >= costly.gpus[k] for k in free.gpus)
    assert s.chosen is not None
    assert not s.chosen.endswith("2:1")
    # GPUs never fall as the cap grows
    for a, b in zip(s.caps, s.caps[1:], strict=False):
        assert all(b.gpus[k] >= a.gpus[k] for k in a.gpus)


def test_a_request_without_a_cap_is_refused() -> None:
    with pytest.raises(RequestError, match="power cap"):
        sens.sensitivity(CATALOG, merge_request(CATALOG, "512 GPUs training", {}))


def test_an_option_whose_fabric_power_is_unknown_is_flagged_and_never_best(
    tmp_path: Path,
) -> None:
    (tmp_path / "switches.yaml").write_text(
        "- id: q3400\n  typical_power_w: null\n  max_power_w: null\n", encoding="utf-8"
    )
    cat = load_catalog(tmp_path)  # the Q3400's power taken out of the catalog
    s = sens.sensitivity(cat, merge_request(cat, "5 MW training", {}))
    b300 = next(o for o in s.options if o.option == "dgx-b300 IB 1:1")
    assert "switch power" in b300.power_unknown
    assert s.chosen != b300.option
    assert all(p.winner != b300.option for p in s.optics)


def test_a_training_sweep_weighs_no_inference_card() -> None:
    s = sens.sensitivity(CATALOG, merge_request(CATALOG, "5 MW training", {}))
    assert not [o.option for o in s.options if "l40s" in o.option or "rtx" in o.option]


def test_the_sweep_names_the_designs_objective_for_the_same_question() -> None:
    from clustergen.catalog import load_catalog as _load
    from clustergen.engine.request import merge_request as _merge
    from clustergen.engine.search.sensitivity import sweep_objective

    cat = _load()
    fit = _merge(cat, "how many GPUs can we fit in 2 MW", {})
    assert sweep_objective(fit, "training", 2e6).startswith("most GPUs under the 2 MW IT cap")
    cap = _merge(cat, "5 MW training", {})
    assert sweep_objective(cap, "training", 5e6) == "most dense BF16 PFLOPS under the 5 MW IT cap"
