"""The files of a design's bundle, by name: what a design's output folder holds and what `render`
re-writes from an edited design.json."""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Iterator

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
from clustergen.engine.report.pictures.diagram import (
    drawio_xml,
    topology_png,
    topology_svg,
    topology_svg_png,
)
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
    "topology.conf": "the compute fabric as Slurm's tree topology, every compute node once "
    "(NVL72 racks: one Slurm block per rack)",
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


#: the pictures matplotlib draws: the bundle's slow part, drawn by a worker process beside the rest
DRAWN_FILES = ("topology.svg", "topology.png", "topology-page.png", "power.png", "racks.png")


def pictures(design: Design) -> dict[str, str | bytes]:
    """The design's pictures by file name: the topology as SVG, PNG, draw.io and Mermaid text,
    the rest as PNG."""
    return _files(design, PICTURE_FILES)


def bundle_files(design: Design) -> dict[str, str | bytes]:
    """File name -> content (text or bytes) of every file the bundle holds.

    Nothing is written here: the bundle is all in memory until `write_bundle` puts it in place
    (all or none). On Linux the pictures are drawn by a forked worker process while this one
    renders the rest (see `drawing_ahead`); elsewhere everything is rendered here."""
    return _files(design, tuple(RENDERERS))


#: the worker `drawing_ahead` started, waiting for a design to draw
_ahead: _Worker | None = None


@contextlib.contextmanager
def drawing_ahead(enabled: bool = True) -> Iterator[None]:
    """Start the picture worker now, so that it imports matplotlib (~0.4 s, a third of the
    bundle's time) while this process makes the design; `bundle_files` and `pictures` called
    inside hand it the design. The worker is ended on the way out, used or not."""
    global _ahead
    worker = _Worker.start() if enabled and _ahead is None else None
    if worker is not None:
        _ahead = worker
    try:
        yield
    finally:
        if worker is not None:
            _ahead = None
            worker.stop()


def _files(design: Design, names: tuple[str, ...]) -> dict[str, str | bytes]:
    global _ahead
    drawn = tuple(n for n in names if n in DRAWN_FILES)
    worker, _ahead = _ahead, None  # a worker draws once
    if worker is None and len(drawn) > 1:
        worker = _Worker.start()
    try:
        if worker is not None and not (drawn and worker.send(design, drawn)):
            worker.stop()
            worker = None
        made = _render(design, tuple(n for n in names if worker is None or n not in drawn))
        if worker is not None:
            made.update(worker.result())
    finally:
        if worker is not None:
            worker.stop()
    return {name: made[name] for name in names}


def _render(design: Design, names: tuple[str, ...]) -> dict[str, str | bytes]:
    """The files named, in this process; the topology's SVG and PNG from one figure."""
    made: dict[str, str | bytes] = {}
    shared = RENDERERS["topology.svg"] is topology_svg and RENDERERS["topology.png"] is topology_png
    for name in names:
        if name in made:
            continue
        if shared and name in ("topology.svg", "topology.png"):
            made["topology.svg"], made["topology.png"] = topology_svg_png(design)
        else:
            made[name] = RENDERERS[name](design)
    return {name: made[name] for name in names}


class _Worker:
    """A forked child that imports matplotlib, then draws the files of the design it is sent.

    Linux only (the fork start method; elsewhere, or with threads running, which a fork does not
    copy, everything is drawn in this process). The design and the files go through pipes,
    pickled; the child leaves with `os._exit` (no exit handlers, no flushing of the parent's
    buffered output, nothing written anywhere). Whatever goes wrong in the child (an error
    drawing, the child killed), the files are drawn again in this process: an error is then
    raised here, as without the worker, with the same one-line message."""

    def __init__(self, pid: int, to_child: int, from_child: int) -> None:
        self.pid, self.to_child, self.from_child = pid, to_child, from_child
        self.design: Design | None = None
        self.names: tuple[str, ...] = ()

    @classmethod
    def start(cls) -> _Worker | None:
        """A new worker, or None where forking is not safe or fails."""
        if sys.platform != "linux" or threading.active_count() > 1:
            return None
        import fcntl

        fds: list[int] = []
        try:
            fds += os.pipe()
            fds += os.pipe()
            with contextlib.suppress(OSError, AttributeError):
                fcntl.fcntl(fds[1], fcntl.F_SETPIPE_SZ, 1 << 20)  # the design in one write
            pid = os.fork()
        except OSError:
            for fd in fds:
                os.close(fd)
            return None
        design_r, design_w, files_r, files_w = fds
        if pid == 0:  # pragma: no cover - the child: its coverage is not collected
            code = 1
            try:
                os.close(design_w)
                os.close(files_r)
                _child(design_r, files_w)
                code = 0
            finally:
                os._exit(code)
        os.close(design_r)
        os.close(files_w)
        return cls(pid, design_w, files_r)

    def send(self, design: Design, names: tuple[str, ...]) -> bool:
        """Hand the child the design and the files to draw; False if it cannot take them."""
        self.design, self.names = design, names
        try:
            _write_all(self.to_child, pickle.dumps((design, names), pickle.HIGHEST_PROTOCOL))
        except (OSError, pickle.PicklingError, TypeError, AttributeError):
            return False
        finally:
            os.close(self.to_child)
            self.to_child = -1
        return True

    def result(self) -> dict[str, str | bytes]:
        """The files the child drew, or drawn here if it did not."""
        assert self.design is not None, "send first"
        with os.fdopen(self.from_child, "rb") as pipe:
            self.from_child = -1
            data = pipe.read()
        _, status = os.waitpid(self.pid, 0)
        self.pid = 0
        if status == 0 and data:
            files = pickle.loads(data)  # our own child's bytes, never a file's
            if isinstance(files, dict) and set(files) == set(self.names):
                return files
        return _render(self.design, self.names)

    def stop(self) -> None:
        """End the child if its files were not taken (unused, or an error or interrupt here)."""
        for fd in (self.to_child, self.from_child):
            if fd >= 0:
                os.close(fd)
        self.to_child = self.from_child = -1
        if self.pid:
            with contextlib.suppress(OSError):
                os.kill(self.pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                os.waitpid(self.pid, 0)
            self.pid = 0


def _child(design_r: int, files_w: int) -> None:  # pragma: no cover - runs in the child
    """The worker's life: matplotlib imported, then the design read, drawn and sent back."""
    from clustergen.engine.report.pictures.charts import import_matplotlib

    import_matplotlib()
    with os.fdopen(design_r, "rb") as pipe:
        data = pipe.read()
    if not data:
        return  # the parent needed no pictures
    design, names = pickle.loads(data)  # our own parent's bytes
    made = _render_in_two(design, names, files_w)
    _write_all(files_w, pickle.dumps(made, pickle.HIGHEST_PROTOCOL))
    os.close(files_w)


#: the pictures a second drawing process takes from the worker (about half the drawing: the
#: rack elevations and the page's topology, ~0.45 of ~0.9 s), so the two halves draw at once
SECOND_HALF = ("racks.png", "topology-page.png")


def _render_in_two(  # pragma: no cover - runs in the worker
    design: Design, names: tuple[str, ...], files_w: int
) -> dict[str, str | bytes]:
    """The files named, half drawn by a forked helper (matplotlib imported and the design read
    already, so the fork costs neither) while this process draws the rest; the same bytes as
    `_render`. Whatever goes wrong in the helper, its half is drawn here. The helper closes its
    copy of the worker's pipe to the parent (`files_w`): only the worker answers there."""
    theirs = tuple(n for n in names if n in SECOND_HALF)
    mine = tuple(n for n in names if n not in theirs)
    if not theirs or not mine:
        return _render(design, names)
    try:
        read, write = os.pipe()
    except OSError:
        return _render(design, names)
    try:
        pid = os.fork()
    except OSError:
        os.close(read)
        os.close(write)
        return _render(design, names)
    if pid == 0:
        code = 1
        try:
            os.close(read)
            os.close(files_w)
            _write_all(write, pickle.dumps(_render(design, theirs), pickle.HIGHEST_PROTOCOL))
            os.close(write)
            code = 0
        finally:
            os._exit(code)
    os.close(write)
    made = _render(design, mine)
    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()
    _, status = os.waitpid(pid, 0)
    other = pickle.loads(data) if status == 0 and data else None  # our own child's bytes
    if not isinstance(other, dict) or set(other) != set(theirs):
        other = _render(design, theirs)
    made.update(other)
    return {name: made[name] for name in names}


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
