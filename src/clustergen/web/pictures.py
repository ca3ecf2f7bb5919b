"""The design's pictures for the page: the topology as an inline SVG, cleaned of anything that
could run, and the PNGs (rack elevations, power) one link away.

matplotlib keeps global state (pyplot's figures), so drawings are made one at a time."""

from __future__ import annotations

import threading
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import TypeVar

from clustergen.engine.model.design import Design
from clustergen.engine.report.pictures.charts import power_chart
from clustergen.engine.report.pictures.diagram import topology_svg
from clustergen.engine.report.pictures.elevation import rack_elevations

T = TypeVar("T")

_DRAWING = threading.Lock()
SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
ET.register_namespace("", SVG)
ET.register_namespace("xlink", XLINK)

#: elements an inline SVG may not hold: script, and HTML smuggled in
_DROPPED = {f"{{{SVG}}}script", f"{{{SVG}}}foreignObject", "script", "foreignObject"}

#: links an SVG element may keep: to its own parts, and embedded raster images
_SAFE_HREFS = ("#", "data:image/png;", "data:image/jpeg;")

#: the PNGs the page links to, by file name
PNGS: dict[str, Callable[[Design], bytes]] = {
    "racks.png": rack_elevations,
    "power.png": power_chart,
}


def drawn(draw: Callable[[Design], T], design: Design) -> T:
    """`draw(design)`, one drawing at a time."""
    with _DRAWING:
        return draw(design)


def inline_topology(design: Design) -> str:
    """The topology as an SVG element for the page: no XML prolog, scaled to its box, named
    for a screen reader, and without script, event handlers or links that run code."""
    root = ET.fromstring(drawn(topology_svg, design))
    _clean(root)
    root.attrib.pop("width", None)
    root.attrib.pop("height", None)
    root.set("role", "img")
    root.set("aria-label", f"topology of the design: {design.compute.gpus:,} GPUs")
    return ET.tostring(root, encoding="unicode")


def _clean(element: ET.Element) -> None:
    for child in list(element):
        if child.tag in _DROPPED:
            element.remove(child)
        else:
            _clean(child)
    for name in list(element.attrib):
        value = element.attrib[name].strip().lower()
        local = name.rpartition("}")[2].lower()
        if local.startswith("on") or (local == "href" and not value.startswith(_SAFE_HREFS)):
            del element.attrib[name]
