"""The memo renders cleanly through pandoc to HTML and DOCX (and to PDF where a PDF engine or
LibreOffice is installed), with the topology as an image, not as code. Skips without pandoc."""

from __future__ import annotations

import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.report.bundle import bundle_files
from clustergen.engine.request import merge_request
from clustergen.engine.search.planner import plan_design

CATALOG = load_catalog()
PANDOC = shutil.which("pandoc")
pytestmark = pytest.mark.skipif(
    PANDOC is None, reason="pandoc not installed (apt-get install pandoc)"
)


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = plan_design(CATALOG, merge_request(CATALOG, "512 GPUs training, 5 MW", {}))
    out = tmp_path_factory.mktemp("bundle")
    for name, content in bundle_files(d).items():
        data = content.encode() if isinstance(content, str) else content
        (out / name).write_bytes(data)
    return out


def _pandoc(bundle: Path, target: str, *extra: str) -> subprocess.CompletedProcess[str]:
    assert PANDOC is not None
    return subprocess.run(
        [PANDOC, "memo.md", "-o", target, "--resource-path", str(bundle), *extra],
        cwd=bundle,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_memo_to_html_shows_the_pictures(bundle: Path) -> None:
    run = _pandoc(bundle, "memo.html", "--standalone", "--metadata", "title=memo")
    assert run.returncode == 0, run.stderr
    assert "[WARNING]" not in run.stderr
    html = (bundle / "memo.html").read_text()
    for picture in ("topology-page.png", "racks.png", "power.png"):
        assert f'src="{picture}"' in html
    assert "flowchart" not in html
    assert "```" not in html


def test_memo_to_docx_embeds_the_pictures(bundle: Path) -> None:
    run = _pandoc(bundle, "memo.docx")
    assert run.returncode == 0, run.stderr
    media = [
        n for n in zipfile.ZipFile(bundle / "memo.docx").namelist() if n.startswith("word/media/")
    ]
    assert len(media) == 3


def test_memo_to_pdf(bundle: Path) -> None:
    engines = [e for e in ("pdflatex", "xelatex", "wkhtmltopdf", "weasyprint") if shutil.which(e)]
    if engines:
        run = _pandoc(bundle, "memo.pdf", f"--pdf-engine={engines[0]}")
        assert run.returncode == 0, run.stderr
    else:
        office = shutil.which("libreoffice") or shutil.which("soffice")
        # a LibreOffice without Writer (Debian's libreoffice-calc-nogui alone) opens no DOCX
        program = Path(os.path.realpath(office)).parent if office else None
        if program is None or not (program / "libwriterlo.so").exists():
            pytest.skip("no PDF engine for pandoc and no LibreOffice Writer")
        assert _pandoc(bundle, "memo.docx").returncode == 0
        run = subprocess.run(
            [
                office,
                f"-env:UserInstallation=file://{bundle / 'lo-profile'}",
                "--headless",
                "--convert-to",
                "pdf",
                "memo.docx",
            ],
            cwd=bundle,
            capture_output=True,
            text=True,
            timeout=180,
            check=True,
        )
        assert (bundle / "memo.pdf").exists(), run.stdout + run.stderr
    assert (bundle / "memo.pdf").stat().st_size > 10_000


#: the drawings' resolution (charts.png) and a page's text width (US Letter or A4, 1-inch margins)
_DPI, _PAGE_IN = 110, 6.5


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        ("512 GPUs training, 5 MW", {}),
        ("128 DGX H100 training", {}),
        ("4 SU GB200 NVL72", {}),
        ("a single DGX H100", {}),
    ],
)
def test_the_memos_topology_reads_at_page_width(text: str, fields: dict[str, object]) -> None:
    """A 4-SU topology.png is ~2,600 px wide: at a page's width its 8-point text printed at
    ~2 pt. The memo's picture is the page summary, no wider than 1.25 pages at the drawing's
    resolution (so its 8-point text prints at 6.4 pt or more); topology.png stays the full one."""
    import io

    from PIL import Image

    d = plan_design(CATALOG, merge_request(CATALOG, text, dict(fields)))
    files = bundle_files(d)
    page = files["topology-page.png"]
    assert isinstance(page, bytes)
    width, _ = Image.open(io.BytesIO(page)).size
    assert width <= _PAGE_IN * _DPI * 1.25, width
    memo = str(files["memo.md"])
    assert "](topology-page.png)" in memo
    assert "](topology.png)" not in memo
