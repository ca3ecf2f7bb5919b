"""The inline topology: the engine's SVG, cleaned of anything that could run in the page."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from clustergen.catalog import Catalog
from clustergen.engine.model.design import Design
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design
from clustergen.web import pictures
from clustergen.web.pictures import inline_topology

HOSTILE = b"""<?xml version="1.0"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
     width="100pt" height="50pt" viewBox="0 0 100 50" onload="alert(1)">
  <script>alert(2)</script>
  <g onclick="alert(3)"><a xlink:href="javascript:alert(4)"><text>hi &lt;b&gt;</text></a></g>
  <foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>
  <use xlink:href="#p1"/><image href="data:image/png;base64,AAAA"/>
</svg>"""


@pytest.fixture(scope="module")
def design(catalog: Catalog) -> Design:
    return plan_design(catalog, merge_request(catalog, "512 GPUs training, 5 MW", {}))


def test_the_topology_is_an_svg_element_named_for_a_screen_reader(design: Design) -> None:
    svg = inline_topology(design)
    assert svg.startswith("<svg ")
    root = ET.fromstring(svg)
    assert root.get("role") == "img"
    assert root.get("aria-label") == "topology of the design: 512 GPUs"
    assert root.get("viewBox")
    assert root.get("width") is None  # the page's box sizes it


def test_nothing_that_runs_survives(design: Design, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pictures, "topology_svg", lambda d: HOSTILE)
    svg = inline_topology(design)
    for bad in ("alert", "<script", "foreignObject", "onload", "onclick", "javascript:"):
        assert bad not in svg, bad
    assert "hi &lt;b&gt;" in svg  # text stays text
    assert 'href="#p1"' in svg
    assert "data:image/png;base64,AAAA" in svg
