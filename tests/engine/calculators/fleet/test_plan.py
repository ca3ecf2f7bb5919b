"""Fleet planning: seed 003's inventory, tiers, quota shares that sum to capacity, bad inventories."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from clustergen.catalog import Catalog
from clustergen.catalog.loader import FILES
from clustergen.engine.calculators.fleet import (
    FleetPlan,
    FleetPolicy,
    Inventory,
    parse_inventory,
    plan_fleet,
)
from clustergen.errors import NotFoundError, RequestError

EXAMPLE = Path(__file__).resolve().parents[4] / "examples" / "fleet-inventory.yaml"

# Seed 003, "GPU Tier Classification"
SEED_TIERS = {
    1: {"runpod-h100", "runpod-a100-1", "runpod-a100-2", "vast-29129529", "vast-29118471"},
    2: {
        "vast-29128352",
        "vast-28925166",
        "vast-29128356",
        "runpod-l40s-2",
        "nebius-backbone-1",
        "vast-28918742",
    },
    3: {
        "vast-29031159",
        "vast-29126088",
        "vast-29031161",
        "vast-28890015",
        "vast-28889766",
        "vast-29046315",
        "vultr-a100-20gb",
    },
}


def _gpu(gid: str, aliases: list[str], memory_gb: float) -> dict[str, Any]:
    return {
        "id": gid,
        "name": gid,
        "aliases": aliases,
        "vendor": "NVIDIA",
        "form_factor": "sxm",
        "memory_gb": memory_gb,
        "source": "test fixture",
        "as_of": "2025-01",
    }


@pytest.fixture
def cat() -> Catalog:
    """Datacenter GPUs only: the consumer cards of the seed are not in it."""
    rows = [
        _gpu("h100-sxm", ["H100"], 80),
        _gpu("a100-80gb", ["A100", "A100 80GB"], 80),
        _gpu("l40s", ["L40S"], 48),
    ]
    entries: dict[str, dict[str, Any]] = {stem: {} for stem in FILES}
    entries["gpus"] = {r["id"]: FILES["gpus"].model_validate(r) for r in rows}
    return Catalog(entries=entries, directories=[], hash="test")


def example_plan(cat: Catalog, policy: FleetPolicy | None = None) -> FleetPlan:
    inv = parse_inventory(EXAMPLE.read_text(encoding="utf-8"), str(EXAMPLE))
    return plan_fleet(cat, inv, policy)


def inventory(nodes: list[dict[str, Any]], **extra: Any) -> Inventory:
    return Inventory.model_validate({"nodes": nodes, **extra})


def test_example_ships_the_seed_nodes_in_the_seed_tiers(cat: Catalog) -> None:
    plan = example_plan(cat)
    assert len(plan.nodes) == 19  # the memo's provider table: 12 + 4 + 1 + 1 + 1
    for tier in plan.tiers:
        assert set(tier.nodes) == SEED_TIERS[tier.tier]
    assert plan.excluded == ["local-coordinator: not schedulable"]
    assert plan.capacity_memory_gb == pytest.approx(624 + 270 + 91)


def test_shares_follow_quotas_and_sum_to_capacity(cat: Catalog) -> None:
    plan = example_plan(cat)
    shares = {c.name: c.share for c in plan.classes}
    assert shares == pytest.approx({"training": 0.30, "generation": 0.60, "evaluation": 0.10})
    assert sum(shares.values()) + plan.idle_share == pytest.approx(1.0)
    for n in plan.nodes:
        if n.schedulable:
            assert sum(n.allocation.values()) + n.idle_fraction == pytest.approx(1.0)


def test_training_on_stable_providers_generation_on_cheap_ephemeral(cat: Catalog) -> None:
    plan = example_plan(cat)
    by_name = {n.name: n for n in plan.nodes}
    training = next(c for c in plan.classes if c.name == "training")
    assert training.nodes[:3] == ["runpod-h100", "runpod-a100-1", "runpod-a100-2"]
    assert all(not by_name[n].ephemeral for n in training.nodes)
    generation = next(c for c in plan.classes if c.name == "generation")
    assert {"vast-29129529", "vast-29118471"} <= set(generation.nodes)
    assert any("sync results every 5 s" in g for g in by_name["vast-29129529"].guidance)


def test_gpus_outside_the_catalog_are_labelled(cat: Catalog) -> None:
    by_name = {n.name: n for n in example_plan(cat).nodes}
    rtx = by_name["vast-29129529"]
    assert not rtx.from_catalog
    assert rtx.memory_source == "inventory"
    assert rtx.memory_gb == 192
    assert by_name["runpod-h100"].gpu_id == "h100-sxm"
    assert by_name["runpod-h100"].memory_source == "catalog"
    vgpu = by_name["vultr-a100-20gb"]
    assert vgpu.from_catalog
    assert vgpu.memory_gb == 20
    assert any("vGPU" in g for g in vgpu.guidance)


def test_thresholds_are_configurable(cat: Catalog) -> None:
    plan = example_plan(cat, FleetPolicy(tier_thresholds_gb=[160, 40]))
    tier1 = plan.tiers[0].nodes
    assert set(tier1) == {"vast-29129529", "vast-29118471"}  # 192 GB nodes
    assert "runpod-h100" not in tier1  # 80 GB is below 160 now
    assert any("generation: tier(s) [3] do not exist" in n for n in plan.notes)
    assert plan.idle_memory_gb > 0  # the 8-32 GB cards fall below the smallest tier
    assert sum(c.share for c in plan.classes) + plan.idle_share == pytest.approx(1.0)


def test_backfill_shortfall_and_idle(cat: Catalog) -> None:
    nodes = [
        {"name": "a", "provider": "p", "gpu": "H100"},
        {"name": "b", "provider": "p", "gpu": "L40S"},
    ]
    classes = [
        {"name": "training", "quota": 0.5, "tiers": [1], "preemptible": False},
        {"name": "eval", "quota": 0.25, "tiers": [1], "preemptible": False},
        {"name": "batch", "quota": 0.25, "tiers": [1], "preemptible": True},
    ]
    policy = {"tier_thresholds_gb": [80, 32], "job_classes": classes, "backfill_class": None}
    plan = plan_fleet(cat, inventory(nodes, policy=policy))
    assert plan.idle_memory_gb == pytest.approx(48)  # nobody runs on tier 2
    batch = {**classes[2], "fallback_tiers": [2]}
    backfilled = FleetPolicy.model_validate(
        {**policy, "job_classes": [*classes[:2], batch], "backfill_class": "batch"}
    )
    plan = plan_fleet(cat, inventory(nodes), backfilled)
    by_class = {c.name: c for c in plan.classes}
    assert by_class["eval"].shortfall_memory_gb == pytest.approx(16)  # H100 is full
    assert by_class["batch"].quota_memory_gb == pytest.approx(32)
    assert by_class["batch"].backfill_memory_gb == pytest.approx(16)
    assert plan.idle_memory_gb == 0
    assert sum(c.share for c in plan.classes) + plan.idle_share == pytest.approx(1.0)
    assert any("short of its quota" in n for n in plan.notes)


def test_cheapest_ephemeral_node_first_for_preemptible_work(cat: Catalog) -> None:
    nodes = [
        {"name": "pricey", "provider": "x", "gpu": "L40S", "hourly_usd": 2.0, "ephemeral": True},
        {"name": "cheap", "provider": "y", "gpu": "L40S", "hourly_usd": 0.5, "ephemeral": True},
        {"name": "stable", "provider": "z", "gpu": "L40S", "hourly_usd": 0.1},
    ]
    classes = [
        {"name": "batch", "quota": 0.25, "tiers": [1], "preemptible": True},
        {"name": "elsewhere", "quota": 0.5, "tiers": [9], "preemptible": False},
    ]
    policy = {"tier_thresholds_gb": [8], "job_classes": classes, "backfill_class": None}
    plan = plan_fleet(cat, inventory(nodes, policy=policy))
    batch = plan.classes[0]
    assert batch.nodes == ["cheap"]  # a third of 144 GB: the cheapest ephemeral node
    assert batch.hourly_usd_known == pytest.approx(0.5)
    assert plan.hourly_usd_known == pytest.approx(2.6)
    assert plan.idle_memory_gb == pytest.approx(96)
    assert any("scaled to sum to 1" in n for n in plan.notes)


def test_unknown_gpu_without_memory_names_the_node_and_closest(cat: Catalog) -> None:
    inv = inventory([{"name": "box", "provider": "p", "gpu": "H10"}])
    plan_fleet(cat, inv)  # forgiving look-up: a unique prefix finds h100-sxm
    bad = inventory([{"name": "box", "provider": "p", "gpu": "RTX 4090"}])
    with pytest.raises(NotFoundError) as err:
        plan_fleet(cat, bad)
    assert "node 'box'" in err.value.one_line()
    assert "memory_gb" in err.value.one_line()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no nodes"),
        ("nodes: []\n", "no nodes"),
        ("nodes: [\n", "malformed YAML"),
        ("- a\n- b\n", "top level"),
        (
            "nodes:\n  - {name: a, provider: p, gpu: H100, gpus: -2}\n",
            "node 'a' \\(#1\\), field gpus",
        ),
        ("nodes:\n  - {name: a, provider: p, gpu: H100, memory_gb: -8}\n", "memory_gb"),
        ("nodes:\n  - {name: a, provider: p, gpu: H100, hourly_usd: -1}\n", "hourly_usd"),
        ("nodes:\n  - {name: a, provider: p}\n", "field gpu"),
        (
            "nodes:\n  - {name: a, provider: p, gpu: H100}\n  - {name: a, provider: p, gpu: H100}\n",
            "repeat",
        ),
        (
            "policy: {tier_thresholds_gb: [8, 32]}\nnodes:\n  - {name: a, provider: p, gpu: H100}\n",
            "descending",
        ),
    ],
)
def test_bad_inventories_are_one_line_errors(text: str, message: str) -> None:
    with pytest.raises(RequestError, match=message):
        parse_inventory(text, "inv.yaml")


def test_no_schedulable_node(cat: Catalog) -> None:
    inv = inventory([{"name": "c", "provider": "p", "gpu": "H100", "schedulable": False}])
    with pytest.raises(RequestError, match="no schedulable node"):
        plan_fleet(cat, inv)
