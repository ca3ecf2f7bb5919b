"""The design's bundle as one zip, built in memory: the files `design --out` writes, in a folder
named for the design, so unpacking it never scatters files or writes outside that folder."""

from __future__ import annotations

import io
import zipfile

from clustergen.engine.model.design import Design
from clustergen.engine.report.bundle import bundle_files
from clustergen.redact import redact_known


def bundle_zip(design: Design, folder: str) -> bytes:
    """The zip of the bundle: `folder/design.json`, `folder/bom.xlsx`, the memo, the pictures,
    the rack plan and NetBox files. A model's memo may echo a key: no file holds it."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, content in bundle_files(design).items():
            data = redact_known(content) if isinstance(content, str) else content
            zf.writestr(f"{folder}/{name}", data)
    return buffer.getvalue()
