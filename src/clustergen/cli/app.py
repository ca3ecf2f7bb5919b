"""The `clustergen` command: one typer sub-app per command group; errors become one line here."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from clustergen import __version__
from clustergen.cli import catalog_cmd, design_cmd, fabric_cmd, fleet_cmd, ra_cmd, storage_cmd
from clustergen.cli.mcp_cmd import register as register_mcp
from clustergen.cli.output import report_error
from clustergen.errors import ClustergenError

app = typer.Typer(
    name="clustergen",
    help="Turn a customer's constraints into a validated GPU-cluster reference design and BOM.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        from clustergen.catalog import load_catalog

        catalog_dir = None
        argv = sys.argv
        if "--catalog" in argv and argv.index("--catalog") + 1 < len(argv):
            catalog_dir = argv[argv.index("--catalog") + 1]
        catalog = load_catalog(catalog_dir)
        typer.echo(f"clustergen {__version__} (catalog {catalog.hash})")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print version and catalog hash."
        ),
    ] = False,
) -> None:
    """clustergen: GPU-cluster reference designs from constraints."""


app.add_typer(catalog_cmd.app, name="catalog")
app.add_typer(ra_cmd.gpu_app, name="gpu")
app.add_typer(ra_cmd.app, name="ra")
design_cmd.register(app)
fabric_cmd.register(app)
app.add_typer(storage_cmd.app, name="storage")
app.add_typer(fleet_cmd.app, name="fleet")
register_mcp(app)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: run the app, turn clustergen errors into one line and an exit."""
    args = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in args
    try:
        code = app(args=args, prog_name="clustergen", standalone_mode=False)
    except ClustergenError as err:
        report_error(err, as_json)
        sys.exit(err.exit_code)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        sys.stderr.write("Aborted.\n")
        sys.exit(130)
    except typer.TyperException as exc:  # usage errors: bad or missing options
        if as_json:
            from clustergen.cli.output import print_json

            print_json({"error": {"type": "usage_error", "message": exc.format_message()}})
        elif hasattr(exc, "show"):
            exc.show()
        else:
            sys.stderr.write(f"Error: {exc.format_message()}\n")
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        sys.stderr.write("Interrupted.\n")
        sys.exit(130)
    if isinstance(code, int) and code:
        sys.exit(code)
