"""`topology-page.png`: the topology summary the memo shows, sized to read at a page's width in
PDF or Word (the full `topology.png` of four SUs is ~2,600 px wide, so a page shrinks its text
to ~2 pt). The same boxes and labels as the full drawing, restacked in at most three columns:
the core and spine tiers across the page, the first scalable unit drawn and the rest as one box,
then the storage fabric and system, then the management networks and servers (their lines to
every node are the full drawing's)."""

from __future__ import annotations

import textwrap

from clustergen.engine.model.design import Design
from clustergen.engine.report.pictures.diagram import Box, Edge, Layout, figure, layout

#: page columns, in layout units (inches at the drawing's scale): three boxes fit a 7.4-unit row
_COL_W, _GAP = 2.35, 0.2
_WIDTH = 3 * _COL_W + 2 * _GAP
#: the title wraps at this many characters so it never widens the picture past the page
_TITLE_CHARS = 80
#: the servers first, under the storage fabric their links join, so no line crosses a box
_MGMT = ("servers", "inband", "oob")


def page_layout(d: Design) -> Layout:
    """The full layout with one SU drawn, restacked to the page's width."""
    full = layout(d, shown_sus=1)
    have = {b.id: b for b in full.boxes if b.kind != "bus"}
    out = Layout(title="\n".join(textwrap.wrap(full.title, _TITLE_CHARS)))
    y = 0.0

    def put(box_id: str, x: float, w: float, h: float) -> None:
        b = have[box_id]
        out.boxes.append(Box(b.id, x, y, w, h, b.label, b.kind, b.rails, b.stroke))

    for tier in ("core", "spine"):
        # one box a tier, or one a plane side by side (`tier_id`)
        boxes = [k for k in have if k == tier or k.startswith(f"{tier}_p")]
        w = (_WIDTH - _GAP * (len(boxes) - 1)) / max(1, len(boxes))
        for k, bid in enumerate(sorted(boxes)):
            put(bid, k * (w + _GAP), w, 0.7)
        y += 1.3 if boxes else 0.0
    planes = sorted(k for k in have if k.startswith("su1_p"))
    if planes:
        w = (_COL_W * 2 + _GAP - _GAP * (len(planes) - 1)) / len(planes)
        for k, pid in enumerate(planes):
            put(pid, k * (w + _GAP), w, 1.3)
        if "su_more" in have:
            put("su_more", 2 * (_COL_W + _GAP), _COL_W, 3.1)
        y += 1.8
    if "su1_nodes" in have:
        put("su1_nodes", 0.0, _COL_W * 2 + _GAP, 1.3)
        y += 1.9
    row: list[str] = [k for k in ("sfabric", "ssys") if k in have]
    for k, bid in enumerate(row):
        put(bid, k * (_WIDTH + _GAP) / 2, (_WIDTH - _GAP) / 2, 1.1)
    y += 1.7 if row else 0.0
    mgmt: list[str] = [k for k in _MGMT if k in have]
    for k, bid in enumerate(mgmt):
        put(bid, k * (_COL_W + _GAP), _COL_W, 1.2)
    ids = {b.id for b in out.boxes}
    out.edges = [e for e in full.edges if e.src in ids and e.dst in ids]
    # the nodes' bus to the storage fabric as a direct line; the management networks' bus is
    # left out: its lines would cross the storage row (the full drawing has them)
    out.edges += [
        Edge("su1_nodes", e.src, e.label, e.color)
        for e in full.edges
        if e.dst == "sbus"
        and e.src in ids
        and e.src != "su_more"
        and not e.src.startswith("su")
        and "su1_nodes" in ids
    ]
    out.width = _WIDTH + 0.3
    out.height = max(b.y + b.h for b in out.boxes) + 0.3
    return out


def topology_page_png(d: Design) -> bytes:
    """The page-width topology summary as PNG bytes."""
    from clustergen.engine.report.pictures.charts import png

    # narrower lines than the full drawing's: a page's boxes are narrow and their text must
    # stay inside them
    return png(figure(page_layout(d), chars_per_unit=12))
