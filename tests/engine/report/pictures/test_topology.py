"""The topology diagram: scalable units with their rail leaves, the fabric's tiers, storage and
management; Mermaid that mermaid-cli renders (where mermaid-cli and a browser are installed)."""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.model.design import Design
from clustergen.engine.report.pictures.topology import SHOWN_SUS, mermaid_source
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design

CATALOG = load_catalog()


def _design(text: str, **fields: object) -> Design:
    return plan_design(CATALOG, merge_request(CATALOG, text, dict(fields)))


@pytest.fixture(scope="module")
def big() -> Design:
    """16 SUs of DGX H100 on a 3-tier fabric, with storage and management networks."""
    return _design("4096 GPUs training", platform="dgx-h100")


def test_the_diagram_shows_sus_rails_tiers_storage_and_management(big: Design) -> None:
    text = mermaid_source(big)
    assert text.startswith("flowchart TB\n")
    assert text.count("subgraph su") == SHOWN_SUS
    assert "8 x QM9700 rail leaves, one per rail (rails 1-8)" in text
    assert "13 more scalable units: 416 nodes, 3328 GPUs" in text
    assert "64 x QM9700 core switches" in text
    assert "128 x QM9700 spine switches" in text
    assert "core ---|4096 links| spine" in text
    assert "Storage fabric: InfiniBand" in text
    assert "parallel file system" in text
    # 22 access leaves (48 ports each) under 2 core switches: 4 uplinks a leaf (H100 RA Table 8)
    assert "In-band management: 24 x SN4600C" in text
    assert "4 fabric managers" in text


def test_a_cluster_smaller_than_one_su_is_one_su() -> None:
    text = mermaid_source(_design("64 GPUs training", platform="dgx-h100"))
    assert text.count("subgraph su") == 1
    assert "8 x NVIDIA DGX H100<br/>64 GPUs" in text


def _mmdc() -> str | None:
    """mermaid-cli, on PATH or in npx's cache (`npx -y @mermaid-js/mermaid-cli` puts it there)."""
    found = shutil.which("mmdc")
    if found:
        return found
    cached = sorted(glob.glob(os.path.expanduser("~/.npm/_npx/*/node_modules/.bin/mmdc")))
    return cached[-1] if cached else None


def _browser() -> str | None:
    return os.environ.get("PUPPETEER_EXECUTABLE_PATH") or shutil.which("chromium")


@pytest.mark.slow
def test_mermaid_cli_renders_the_diagram(big: Design, tmp_path: Path) -> None:
    mmdc, browser = _mmdc(), _browser()
    if mmdc is None:
        pytest.skip("mermaid-cli not installed (npx -y @mermaid-js/mermaid-cli --version)")
    if browser is None:
        pytest.skip("no browser for mermaid-cli (apt-get install chromium)")
    src = tmp_path / "topology.mmd"
    src.write_text(mermaid_source(big))
    config = tmp_path / "puppeteer.json"
    config.write_text(json.dumps({"executablePath": browser, "args": ["--no-sandbox"]}))
    out = tmp_path / "topology.svg"
    run = subprocess.run(
        [mmdc, "-p", str(config), "-i", str(src), "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    svg = out.read_text()
    assert "<svg" in svg
    assert "Scalable unit 1" in svg
    assert "Syntax error" not in svg


@pytest.mark.parametrize(
    ("text", "fields", "words"),
    [
        # GB200 SuperPOD: 4 rails per SU, 8 leaves on each (one per NVL72 rack)
        ("4 SU GB200 NVL72", {}, "32 x QM9700 rail leaves, 8 per rail (rails 1-4)"),
        ("128 DGX H100 training", {}, "8 x QM9700 rail leaves, one per rail (rails 1-8)"),
    ],
)
def test_rails_are_worded_from_the_rails_the_fabric_records(
    text: str, fields: dict[str, object], words: str
) -> None:
    """GB200 leaves read "one per rail (rails 1-32)" where the fabric has 4 rails: the words
    come from the fabric's recorded rail count, never the leaf count."""
    d = _design(text, **fields)
    f = d.fabrics.compute
    assert f is not None
    assert f.rails is not None
    src = mermaid_source(d)
    assert words in src
    assert f"rails 1-{f.rails})" in src


def test_an_expansion_draws_the_standing_switches_and_the_reused_storage() -> None:
    """An increment on a standing pair adds no leaf: the pictures show the pair it lands on,
    and the storage it reuses as not quoted, not '0 x QM9700 leaves' and a new appliance."""
    d = _design("we have 4 DGX H100, add 4 more")
    assert d.expansion is not None
    assert d.expansion.standing_leaf_switches == 2
    text = mermaid_source(d)
    assert "2 x QM9700 leaves standing, 0 added" in text
    assert "the existing installation's (reused, not quoted)" in text


def test_an_expansions_scalable_units_are_numbered_after_the_standing_ones() -> None:
    d = _design("we have 64 DGX H100 and want to add 32 more")
    assert d.expansion is not None
    assert 'subgraph su1["Scalable unit 3"]' in mermaid_source(d)
