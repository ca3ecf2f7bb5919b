"""CLI contracts: strict JSON, one-line errors, non-zero exits, golden rows through `clustergen fabric`."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from clustergen.engine.report.bundle import CONTENTS as BUNDLE


# H100-RA Table 4 (B200-RA Table 4 identical): nodes, leaf, spine, compute+UFM cables, leaf-spine.
@pytest.mark.parametrize(
    "row",
    [
        (31, 8, 4, 252, 256),
        (63, 16, 8, 508, 512),
        (95, 24, 16, 764, 768),
        (127, 32, 16, 1020, 1024),
    ],
)
def test_fabric_reproduces_table4(
    cli: Callable[..., tuple[int, str, str]], row: tuple[int, ...]
) -> None:
    nodes, leaf, spine, host, ls = row
    code, out, _ = cli("fabric", "--platform", "dgx-h100", "--nodes", str(nodes), "--json")
    d = json.loads(out)
    assert code == 0
    assert (d["leaf_switches"], d["spine_switches"], d["core_switches"]) == (leaf, spine, 0)
    assert d["host_links"] == host
    assert d["leaf_spine_links"] == ls


# H100-RA Table 3: full SUs; 16 SU needs a core tier.
@pytest.mark.parametrize("row", [(128, 32, 16, 0), (256, 64, 32, 0), (512, 128, 128, 64)])
def test_fabric_reproduces_table3(
    cli: Callable[..., tuple[int, str, str]], row: tuple[int, ...]
) -> None:
    nodes, leaf, spine, core = row
    _, out, _ = cli("fabric", "--platform", "DGX H100", "--nodes", str(nodes), "--json")
    d = json.loads(out)
    assert (d["leaf_switches"], d["spine_switches"], d["core_switches"]) == (leaf, spine, core)
    assert d["node_links"] == d["leaf_spine_links"] == nodes * 8


def test_4su_bom_figures(cli: Callable[..., tuple[int, str, str]]) -> None:
    """H100-RA Tables 7/8 for 128 nodes: 48 QM9700, 1,024 + 1,024 NDR links, 1,536 switch OSFPs."""
    _, out, _ = cli("fabric", "--platform", "dgx-h100", "--nodes", "128", "--json")
    d = json.loads(out)
    assert d["total_switches"] == 48
    assert (d["node_links"], d["leaf_spine_links"]) == (1024, 1024)
    assert sum(t["count"] for t in d["transceivers"] if t["location"] in {"leaf", "spine"}) == 1536


def test_ra_recommend_seed_contract(cli: Callable[..., tuple[int, str, str]]) -> None:
    _, out, _ = cli("ra", "recommend", "--gpus", "128", "--workload", "training", "--json")
    rec = json.loads(out)["recommendation"]
    assert (rec["pattern_id"], rec["nodes"], rec["gpus_per_node"]) == ("2-8-9-400", 16, 8)


def test_gpu_spec_forgiving_and_unknown(cli: Callable[..., tuple[int, str, str]]) -> None:
    for name in ("NVIDIA H100", "h100", "H100 SXM5"):
        _, out, _ = cli("gpu", "spec", "--gpu", name, "--json")
        assert json.loads(out)["id"] == "h100-sxm"
    code, out, err = cli("gpu", "spec", "--gpu", "H1OO")
    assert code != 0
    assert err.startswith("Error: unknown GPU")
    assert "h100-sxm" in err
    assert "Traceback" not in err
    code, out, _ = cli("gpu", "spec", "--gpu", "H1OO", "--json")
    assert json.loads(out)["error"]["type"] == "not_found"


def test_size_seed_config_is_buildable(cli: Callable[..., tuple[int, str, str]], tmp_path) -> None:  # type: ignore[no-untyped-def]
    cfg = {
        "it_cap_mw": 5.0,
        "node": {"name": "GPU-8x", "gpus_per_node": 8, "gpu_w": 700, "cpu_w": 700, "dram_w": 400,
                 "nvme_w": 200, "nics_per_node": 8, "nic_w": 75, "node_aux_w": 350},
        "fabric": {"name": "LeafSpine-2tier", "leaf": {"name": "LeafSwitch", "ports": 64, "switch_w": 1200},
                   "spine": {"name": "SpineSwitch", "ports": 64, "switch_w": 1400},
                   "leaf_host_ports": 32, "leaf_uplink_ports": 32, "optic_w_per_link_end": 6.0},
    }  # fmt: skip
    path = tmp_path / "cfg.json"
    path.write_text(json.dumps(cfg))
    _, out, _ = cli("size", "--config", str(path), "--json")
    d = json.loads(out)
    assert d["tiers"] == 3
    assert d["p_total_w"] <= 5e6
    assert d["seed_comparison"]["seed_buildable"] is False
    assert d["fabric"]["max_ports_used"]["spine"] <= 64


def test_design_default_request_passes_every_check(
    cli: Callable[..., tuple[int, str, str]],
) -> None:
    code, out, _ = cli("design", "512 GPUs training, 5 MW", "--json")
    d = json.loads(out)
    assert code == 0
    assert d["mode"] == "offline"
    assert d["compute"]["gpus"] >= 512
    # an info check compares nothing (64 HGX B200: no published table row, counts by rule)
    assert all(c["passed"] or c["severity"] == "info" for c in d["checks"])
    assert d["power"]["it_total_w"] <= 5e6
    assert d["alternatives"]["rows"]


def test_design_infeasible_says_what_fits(cli: Callable[..., tuple[int, str, str]]) -> None:
    code, _, err = cli("design", "100000 GPUs, 5 MW")
    assert code == 3
    assert "GPUs fit under it (on " in err
    assert "or raise the cap to" in err
    assert err.rstrip().endswith("build the largest that fits (--fit)")
    # the figure offered first is the design --fit then builds, on the platform named first
    offered = err.split(" GPUs fit under it (on ")
    code, out, _ = cli("design", "100000 GPUs, 5 MW", "--fit", "--json")
    assert code == 0
    built = json.loads(out)
    assert offered[0].rsplit(" ", 1)[1] == f"{built['compute']['gpus']:,}"
    assert offered[1].startswith(built["choices"]["platform"])


def test_design_out_is_atomic_and_not_overwritten(
    cli: Callable[..., tuple[int, str, str]], tmp_path
) -> None:  # type: ignore[no-untyped-def]
    out_dir = tmp_path / "d"
    code, _, _ = cli("design", "256 H100 GPUs training", "--out", str(out_dir))
    assert code == 0
    assert sorted(p.name for p in out_dir.iterdir()) == sorted(
        [*BUNDLE, ".clustergen-bundle"]  # the manifest: which files are clustergen's to replace
    )
    assert "![Topology](topology-page.png)" in (out_dir / "memo.md").read_text()
    code, _, err = cli("design", "256 H100 GPUs training", "--out", str(out_dir))
    assert code != 0
    assert "--force" in err


def test_bad_requests_are_one_line_errors(cli: Callable[..., tuple[int, str, str]]) -> None:
    for text in ("hello", "512 GPUs, InfiniBand and Ethernet", "512 GPUs air and liquid"):
        code, _, err = cli("design", text)
        assert code == 2, text
        assert err.count("\n") == 1
        assert "Traceback" not in err


def test_version_prints_catalog_hash(cli: Callable[..., tuple[int, str, str]]) -> None:
    code, out, _ = cli("--version")
    assert code == 0
    assert out.startswith("clustergen 0.1.0 (catalog ")


def test_catalog_validate(cli: Callable[..., tuple[int, str, str]]) -> None:
    code, out, _ = cli("catalog", "validate", "--json")
    assert code == 0
    assert json.loads(out)["ok"] is True


def test_catalog_problems_name_file_entry_and_field(
    cli: Callable[..., tuple[int, str, str]], tmp_path
) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "switches.yaml").write_text("- id: qm9700\n  ports: -3\n")
    code, out, _ = cli("catalog", "validate", "--catalog", str(tmp_path), "--json")
    problems = json.loads(out)["problems"]
    assert code == 1
    assert problems[0]["file"] == "switches.yaml"
    assert problems[0]["entry"] == "qm9700"
    assert problems[0]["field"] == "ports"


PLATFORMS = [
    "dgx-h100",
    "dgx-h200",
    "dgx-b200",
    "dgx-b300",
    "hgx-h100",
    "hgx-h200",
    "hgx-b200",
    "hgx-b300",
    "gb200-nvl72",
    "gb300-nvl72",
    "pcie-8gpu-l40s",
    "pcie-8gpu-rtx-pro-6000",
    "pcie-4gpu-l40s",
    "pcie-4gpu-rtx-pro-6000",
]


@pytest.mark.parametrize("platform", PLATFORMS)
def test_every_platform_designs_completely(
    cli: Callable[..., tuple[int, str, str]], platform: str
) -> None:
    """Issue 13, done when: `design "<N> GPUs training" --platform ID` exits 0 with every check
    passing, all four networks carried, and no unknown term left in its power."""
    code, out, _ = cli("design", "512 GPUs training", "--platform", platform, "--offline", "--json")
    assert code == 0
    d = json.loads(out)
    assert [c["name"] for c in d["checks"] if not c["passed"] and c["severity"] == "error"] == []
    assert {r["network"] for r in d["fabrics"]["networks"]} == {
        "compute",
        "storage",
        "in-band management",
        "out-of-band management",
    }
    assert d["power"]["complete"]
    assert d["power"]["unknown"] == []
    categories = {line["category"] for line in d["bom"]}
    assert {"compute", "switch", "storage", "management-server", "rack", "pdu"} <= categories
    storage = [line for line in d["bom"] if line["category"] == "storage"]
    assert storage[0]["part"] == "ddn-ai400x2t"
