"""`clustergen catalog ...`: validate, list and show catalog entries."""

from __future__ import annotations

from typing import Annotated

import typer

from clustergen.catalog import validate_catalog
from clustergen.catalog.loader import FILES
from clustergen.cli.options import CatalogOpt, JsonOpt
from clustergen.cli.output import print_json, say, stderr, stdout, table
from clustergen.errors import CatalogError, RequestError
from clustergen.units import plural

app = typer.Typer(help="Validate, list and show catalog entries.", no_args_is_help=True)


@app.command("validate")
def validate(catalog: CatalogOpt = None, json: JsonOpt = False) -> None:
    """Check every catalog file; report each problem with its file, entry and field."""
    cat, problems = validate_catalog(catalog)
    if json:
        print_json(
            {
                "ok": not problems,
                "catalog_hash": cat.hash if cat else None,
                "directories": [str(d) for d in (cat.directories if cat else [])],
                "entries": sum(len(v) for v in cat.entries.values()) if cat else None,
                "problems": [p.__dict__ for p in problems],
            }
        )
    elif problems:
        for p in problems:
            stderr.print(str(p), markup=False, highlight=False)
    else:
        n = sum(len(v) for v in cat.entries.values()) if cat else 0
        stdout.print(f"catalog OK: {n} entries, hash {cat.hash if cat else '-'}", markup=False)
    if problems:
        if not json:
            stderr.print(f"Error: {plural(len(problems), 'catalog problem')}", markup=False)
        raise typer.Exit(1)


def _load(catalog_dir: object) -> object:
    from clustergen.catalog import load_catalog

    return load_catalog(catalog_dir)  # type: ignore[arg-type]


@app.command("list")
def list_entries(
    kind: Annotated[str, typer.Argument(help=f"One of: {', '.join(FILES)}")],
    catalog: CatalogOpt = None,
    json: JsonOpt = False,
) -> None:
    """List the entries of one catalog file."""
    from clustergen.catalog import load_catalog

    if kind not in FILES:
        raise RequestError(f"unknown catalog kind {kind!r}", hint=f"use one of {', '.join(FILES)}")
    cat = load_catalog(catalog)
    rows = list(cat.entries[kind].values())
    if json:
        print_json(rows)
        return
    stdout.print(
        table(
            f"{kind} ({len(rows)})",
            ("id", "name", "as of"),
            ((e.id + (" (placeholder)" if e.placeholder else ""), e.name, e.as_of) for e in rows),
            no_wrap=("id", "as of"),
        )
    )
    say(f"sources: clustergen catalog show {kind} ID")


@app.command("show")
def show(
    kind: Annotated[str, typer.Argument(help=f"One of: {', '.join(FILES)}")],
    name: Annotated[str, typer.Argument(help="Id, name or alias.")],
    catalog: CatalogOpt = None,
    json: JsonOpt = False,
) -> None:
    """Show one entry with every field and its source."""
    from clustergen.catalog import load_catalog

    if kind not in FILES:
        raise RequestError(f"unknown catalog kind {kind!r}", hint=f"use one of {', '.join(FILES)}")
    cat = load_catalog(catalog)
    entry = cat.get(FILES[kind], name)
    if json:
        print_json(entry)
        return
    data = entry.model_dump(mode="json")
    stdout.print(table(f"{kind}: {entry.id}", ("field", "value"), data.items()))


__all__ = ["CatalogError", "app"]
