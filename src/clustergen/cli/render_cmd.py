"""`clustergen render design.json --out DIR`: re-validate an edited design and write its bundle."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from clustergen.cli.options import CatalogOpt, JsonOpt
from clustergen.cli.output import print_json, say, stdout
from clustergen.units import plural

if TYPE_CHECKING:
    from clustergen.engine.report.documents.edit import EditSummary


def render(
    design_file: Annotated[
        Path, typer.Argument(help="A design.json written by clustergen (edited or not).")
    ],
    out: Annotated[Path, typer.Option("--out", help="Write the bundle here.")],
    force: Annotated[
        bool, typer.Option("--force", help="Replace an existing --out directory.")
    ] = False,
    changes: Annotated[
        bool,
        typer.Option(
            "--changes",
            help="Also list every figure the edit changed, path by path (--json always has them).",
        ),
    ] = False,
    catalog: CatalogOpt = None,
    json: JsonOpt = False,
) -> None:
    """Rebuild a design from its request and choices, say what an edit changed (a verdict line
    and a before/after table of the headline figures; or refuse an edit of derived figures), and
    write memo, BOM, pictures and design.json."""
    from pydantic import ValidationError

    from clustergen.catalog import load_catalog
    from clustergen.cli.bundle import write_bundle
    from clustergen.cli.userfiles import read_user_text
    from clustergen.engine.model.design import Design
    from clustergen.engine.report.bundle import bundle_files
    from clustergen.engine.report.documents.edit import edit_summary
    from clustergen.engine.request.translate import input_error
    from clustergen.engine.search.rebuild import rebuild

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
    summary = edit_summary(edited, design) if result.inputs_edited else None
    if json:
        print_json(
            {
                "out": str(out),
                "files": [p.name for p in written],
                "inputs_edited": result.inputs_edited,
                "summary": summary,
                "changes": result.changes,
                "memo_rechecked": rechecked,
            }
        )
        return
    if summary is None:
        stdout.print("design.json is as the engine built it; re-rendered", markup=False)
    else:
        _print_edit(summary, len(result.changes))
        if changes and result.changes:
            for c in result.changes:
                say(f"  {c.path}: {c.before!r} -> {c.after!r}")
    if rechecked:
        stdout.print(rechecked, markup=False)
    stdout.print(f"wrote {out}: {', '.join(files)}", markup=False)


def _print_edit(summary: EditSummary, changed: int) -> None:
    """The verdict line, the before/after table and how many figures moved in all."""
    from clustergen.cli.output import table

    say(summary.verdict)
    stdout.print(
        table(
            "before and after the edit",
            ("figure", "before", "after", "change"),
            ((r.figure, r.before, r.after, r.change) for r in summary.rows),
        )
    )
    if changed:
        stdout.print(
            f"{plural(changed, 'figure')} changed in all (--changes lists them, --json has them)",
            markup=False,
        )
    else:
        stdout.print("the edit changed no figure", markup=False)


def register(app: typer.Typer) -> None:
    """Add `render` to the root app."""
    app.command("render")(render)
