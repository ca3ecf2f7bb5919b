"""`clustergen render design.json --out DIR`: re-validate an edited design and write its bundle."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from clustergen.cli.options import CatalogOpt, JsonOpt
from clustergen.cli.output import print_json, stdout
from clustergen.units import plural


def render(
    design_file: Annotated[
        Path, typer.Argument(help="A design.json written by clustergen (edited or not).")
    ],
    out: Annotated[Path, typer.Option("--out", help="Write the bundle here.")],
    force: Annotated[
        bool, typer.Option("--force", help="Replace an existing --out directory.")
    ] = False,
    catalog: CatalogOpt = None,
    json: JsonOpt = False,
) -> None:
    """Rebuild a design from its request and choices, say what an edit changed (or refuse an
    edit of derived figures), and write memo, BOM, pictures and design.json."""
    from pydantic import ValidationError

    from clustergen.catalog import load_catalog
    from clustergen.cli.bundle import write_bundle
    from clustergen.cli.userfiles import read_user_text
    from clustergen.engine.model.design import Design
    from clustergen.engine.report.bundle import bundle_files
    from clustergen.engine.request.translate import input_error
    from clustergen.engine.search.rebuild import listed, rebuild

    text = read_user_text(design_file, "design file")
    try:
        edited = Design.model_validate_json(text)
    except ValidationError as exc:
        raise input_error(
            exc,
            where=f"{design_file} is not a clustergen design",
            hint="render reads the design.json that clustergen design --out writes",
            locate=lambda loc: ".".join(str(p) for p in loc) or "the top level",
        ) from None
    cat = load_catalog(catalog)
    result = rebuild(cat, edited)
    design, rechecked = result.design, None
    if design.memo:
        # The model's memo was checked against the design it was written for: after an edit
        # (of the inputs, or of the memo itself) its numbers are checked again against this one,
        # so "numbers checked" never vouches for figures the design no longer has.
        from clustergen.agent.submission import recheck_memo

        design, rechecked = recheck_memo(cat, design)
    files = bundle_files(design)
    written = write_bundle(files, out, force)
    if json:
        print_json(
            {
                "out": str(out),
                "files": [p.name for p in written],
                "inputs_edited": result.inputs_edited,
                "changes": result.changes,
                "memo_rechecked": rechecked,
            }
        )
        return
    if not result.inputs_edited:
        stdout.print("design.json is as the engine built it; re-rendered", markup=False)
    elif result.changes:
        stdout.print(
            f"the edit changed {plural(len(result.changes), 'figure')}: {listed(result.changes)}",
            markup=False,
        )
    else:
        stdout.print("the edit changed no figure", markup=False)
    if rechecked:
        stdout.print(rechecked, markup=False)
    stdout.print(f"wrote {out}: {', '.join(files)}", markup=False)


def register(app: typer.Typer) -> None:
    """Add `render` to the root app."""
    app.command("render")(render)
