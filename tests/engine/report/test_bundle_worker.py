"""The bundle's pictures drawn by a forked worker: the same files as drawn in process, an error
drawing raised here with its own message, a worker that dies replaced by drawing here, and a
worker that was not needed ended."""

from __future__ import annotations

import os
import signal
import sys

import pytest

import clustergen.engine.report.bundle as report_bundle
from clustergen.catalog import load_catalog
from clustergen.engine.model.design import Design
from clustergen.engine.request import parse_request
from clustergen.engine.search.planner import plan_design
from clustergen.errors import OutputError

linux_only = pytest.mark.skipif(sys.platform != "linux", reason="the worker is forked on Linux")


@pytest.fixture(scope="module")
def design() -> Design:
    cat = load_catalog()
    return plan_design(cat, parse_request(cat, "64 GPUs training"))


def _same_files(a: dict[str, str | bytes], b: dict[str, str | bytes]) -> None:
    assert list(a) == list(b)
    # the workbook holds the time it was written; every other file is the same bytes
    assert {n: c for n, c in a.items() if n != "bom.xlsx"} == {
        n: c for n, c in b.items() if n != "bom.xlsx"
    }


def test_the_worker_draws_what_this_process_draws(design: Design) -> None:
    here = report_bundle._render(design, tuple(report_bundle.RENDERERS))
    _same_files(report_bundle.bundle_files(design), here)
    with report_bundle.drawing_ahead():
        _same_files(report_bundle.bundle_files(design), here)
    pictures = report_bundle.pictures(design)
    assert list(pictures) == list(report_bundle.PICTURE_FILES)
    assert pictures == {n: here[n] for n in report_bundle.PICTURE_FILES}


def test_an_error_drawing_is_raised_here_with_its_message(
    design: Design, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(_: Design) -> bytes:
        raise OutputError("cannot draw the racks")

    monkeypatch.setitem(report_bundle.RENDERERS, "racks.png", broken)
    with pytest.raises(OutputError, match=r"^cannot draw the racks$"):
        report_bundle.bundle_files(design)
    with (
        report_bundle.drawing_ahead(),
        pytest.raises(OutputError, match=r"^cannot draw the racks$"),
    ):
        report_bundle.bundle_files(design)


@linux_only
def test_a_worker_that_dies_is_replaced_by_drawing_here(
    design: Design, monkeypatch: pytest.MonkeyPatch
) -> None:
    def killed(_design_r: int, _files_w: int) -> None:
        os.kill(os.getpid(), signal.SIGKILL)

    monkeypatch.setattr(report_bundle, "_child", killed)
    here = report_bundle._render(design, tuple(report_bundle.RENDERERS))
    _same_files(report_bundle.bundle_files(design), here)


@linux_only
def test_a_worker_not_needed_is_ended(design: Design) -> None:
    pids = []

    def fail_while_drawing_ahead() -> None:
        with report_bundle.drawing_ahead():
            worker = report_bundle._ahead
            assert worker is not None
            pids.append(worker.pid)
            raise RuntimeError("the design failed")

    with pytest.raises(RuntimeError, match="the design failed"):
        fail_while_drawing_ahead()
    assert report_bundle._ahead is None
    with pytest.raises(ChildProcessError):
        os.waitpid(pids[0], os.WNOHANG)  # reaped: no such child any more


def test_the_topology_alone_is_the_same_as_drawn_together(design: Design) -> None:
    from clustergen.engine.report.pictures.diagram import (
        topology_png,
        topology_svg,
        topology_svg_png,
    )

    assert topology_svg_png(design) == (topology_svg(design), topology_png(design))
