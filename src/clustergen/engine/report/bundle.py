"""The files of a design's bundle, by name: what a design's output folder holds and what `render`
re-writes from an edited design.json."""

from __future__ import annotations

from clustergen.engine.model.design import Design
from clustergen.engine.report.bomfile import bom_csv, bom_xlsx
from clustergen.engine.report.charts import power_chart, rack_elevation
from clustergen.engine.report.memo import render_memo
from clustergen.engine.report.topology import mermaid_source
from clustergen.safe_text import json_text

#: what each file of the bundle holds, for the CLI's "wrote ..." line and the README
CONTENTS = {
    "design.json": "the design as strict JSON",
    "memo.md": "the proposal memo (Markdown)",
    "bom.csv": "the bill of materials, one row per line",
    "bom.xlsx": "the bill of materials with a summary sheet",
    "topology.mmd": "the topology diagram (Mermaid source)",
    "power.png": "IT power by subsystem",
    "racks.png": "a rack elevation",
}


def pictures(design: Design) -> dict[str, str | bytes]:
    """The design's pictures by file name: the topology as Mermaid text, the rest as PNG."""
    return {
        "topology.mmd": mermaid_source(design),
        "power.png": power_chart(design),
        "racks.png": rack_elevation(design),
    }


def bundle_files(design: Design) -> dict[str, str | bytes]:
    """File name -> content (text or bytes) of every file the bundle holds."""
    return {
        "design.json": json_text(design.model_dump_json(indent=2)) + "\n",
        "memo.md": render_memo(design),
        "bom.csv": bom_csv(design),
        "bom.xlsx": bom_xlsx(design),
        **pictures(design),
    }
