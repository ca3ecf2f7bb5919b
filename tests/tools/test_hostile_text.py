"""The MCP and agent tool `design_cluster` returns the bundle's CSV and memo: from a hostile catalog
layer, no CSV field starts a formula and the memo holds no HTML, link or escape byte."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from clustergen.catalog import load_catalog
from clustergen.engine.report.bundle import bundle_files
from clustergen.tools import ToolContext, default_registry

LAYER = {
    "systems.yaml": """\
- id: hgx-b200
  name: 'HGX [link=https://evil.example]B200[/] <script>alert(1)</script> [m](javascript:alert(1))'
  source: '=HYPERLINK("https://evil.example","click me")'
""",
    "switches.yaml": """\
- id: sn5610
  source: "@SUM(1+1)*cmd|' /C calc'!A0"
""",
}


def test_design_cluster_from_a_hostile_layer_returns_inert_text(tmp_path: Path) -> None:
    for name, text in LAYER.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    ctx = ToolContext(catalog=load_catalog(tmp_path))
    text = "512 GPUs training, 5 MW on HGX B200"  # the layer poisons hgx-b200: build on it
    design = default_registry().run(ctx, "design_cluster", {"text": text})
    # what MCP serves as the design's bom.csv and memo.md resources
    files = bundle_files(design)
    data = {"bom_csv": files["bom.csv"], "memo_md": files["memo.md"]}
    fields = [f for row in csv.reader(io.StringIO(data["bom_csv"])) for f in row]
    assert any("HYPERLINK" in f for f in fields)  # the hostile source reached the CSV
    assert not [f for f in fields if f.lstrip().startswith(("=", "+", "-", "@", "\t", "\r"))]
    # the topology's fenced Mermaid block is Mermaid, whose labels are escaped for Mermaid
    memo = re.sub(r"```mermaid\n.*?```", "", data["memo_md"], flags=re.S)
    assert "script" in memo
    assert "<script" not in memo
    assert "[m](javascript" not in memo
    assert "\\[m\\](javascript:alert(1))" in memo  # shown as text
