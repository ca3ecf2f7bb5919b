"""The files of a design's bundle, by name: what a design's output folder holds and what `render`
re-writes from an edited design.json."""

from __future__ import annotations

from collections.abc import Callable

from clustergen.engine.model.design import Design
from clustergen.engine.report.documents.memo import render_memo
from clustergen.engine.report.files.bomfile import bom_csv, bom_xlsx
from clustergen.engine.report.files.cable_schedule import cable_schedule_csv
from clustergen.engine.report.files.rackplan import (
    device_types_yaml_of,
    netbox_cables_csv,
    rack_plan_csv,
)
from clustergen.engine.report.files.slurm_topology import topology_conf
from clustergen.engine.report.pictures.charts import power_chart
from clustergen.engine.report.pictures.diagram import drawio_xml, topology_png, topology_svg
from clustergen.engine.report.pictures.elevation import rack_elevations
from clustergen.engine.report.pictures.page_topology import topology_page_png
from clustergen.engine.report.pictures.topology import mermaid_source
from clustergen.safe_text import json_text

#: what each file of the bundle holds, for the CLI's "wrote ..." line and the README
CONTENTS = {
    "design.json": "the design as strict JSON",
    "memo.md": "the proposal memo (Markdown)",
    "bom.csv": "the bill of materials, one row per line",
    "bom.xlsx": "the bill of materials as a workbook: summary, BOM table with formulas, quote, "
    "links, power, sources",
    "rack_plan.csv": "every device in its rack and position (NetBox device-import columns)",
    "cable_schedule.csv": "every link group with both ends, the cable, its media and length class",
    "netbox_cables.csv": "every cable of the design one by one, both ends on a device and "
    "interface of the rack plan (NetBox cable-import columns)",
    "netbox_device_types.yaml": "NetBox device types (the library's schema) for the devices the "
    "community device-type library lacks or has wrong; the rest are the library's",
    "topology.conf": "the compute fabric as Slurm's tree topology, every compute node once",
    "topology.svg": "the topology diagram (scalable)",
    "topology.png": "the topology diagram (image)",
    "topology-page.png": "the topology summary sized for a page: the memo's picture (first "
    "scalable unit drawn, the rest as one box)",
    "topology.drawio": "the topology diagram, editable in draw.io (diagrams.net)",
    "topology.mmd": "the topology diagram (Mermaid source)",
    "power.png": "IT power by subsystem",
    "racks.png": "one rack elevation per rack type, with device positions and power",
}


def _design_json(design: Design) -> str:
    return json_text(design.model_dump_json(indent=2)) + "\n"


#: each file of the bundle and what renders it from the design, in the bundle's order
RENDERERS: dict[str, Callable[[Design], str | bytes]] = {
    "design.json": _design_json,
    "memo.md": render_memo,
    "bom.csv": bom_csv,
    "bom.xlsx": bom_xlsx,
    "rack_plan.csv": rack_plan_csv,
    "cable_schedule.csv": cable_schedule_csv,
    "netbox_cables.csv": netbox_cables_csv,
    "netbox_device_types.yaml": device_types_yaml_of,
    "topology.conf": topology_conf,
    "topology.svg": topology_svg,
    "topology.png": topology_png,
    "topology-page.png": topology_page_png,
    "topology.drawio": drawio_xml,
    "topology.mmd": mermaid_source,
    "power.png": power_chart,
    "racks.png": rack_elevations,
}
assert set(RENDERERS) == set(CONTENTS), "every file the bundle names has its renderer"

#: the pictures, what --plots writes
PICTURE_FILES = (
    "topology.svg",
    "topology.png",
    "topology-page.png",
    "topology.drawio",
    "topology.mmd",
    "power.png",
    "racks.png",
)


def pictures(design: Design) -> dict[str, str | bytes]:
    """The design's pictures by file name: the topology as SVG, PNG, draw.io and Mermaid text,
    the rest as PNG."""
    return {name: RENDERERS[name](design) for name in PICTURE_FILES}


def bundle_files(design: Design) -> dict[str, str | bytes]:
    """File name -> content (text or bytes) of every file the bundle holds."""
    return {name: render(design) for name, render in RENDERERS.items()}
