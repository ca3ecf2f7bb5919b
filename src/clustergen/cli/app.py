"""The `clustergen` command: one typer sub-app per command group; errors become one line here."""

from __future__ import annotations

import contextlib
import copy
import errno
import os
import sys
from typing import Annotated, NoReturn

import typer

from clustergen import __version__
from clustergen.cli import (
    catalog_cmd,
    design_cmd,
    estimate_cmd,
    fabric_cmd,
    fleet_cmd,
    ra_cmd,
    render_cmd,
    sensitivity_cmd,
    storage_cmd,
    tco_cmd,
)
from clustergen.cli.eval_cmd import register as register_eval
from clustergen.cli.mcp_cmd import register as register_mcp
from clustergen.cli.output import report_error
from clustergen.errors import ClustergenError
from clustergen.safe_text import terminal

app = typer.Typer(
    name="clustergen",
    help="Turn a customer's constraints into a validated GPU-cluster reference design and BOM.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
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
sensitivity_cmd.register(app)
render_cmd.register(app)
estimate_cmd.register(app)
tco_cmd.register(app)
fabric_cmd.register(app)
app.add_typer(storage_cmd.app, name="storage")
app.add_typer(fleet_cmd.app, name="fleet")
register_eval(app)
register_mcp(app)


def _only(name: str | None) -> typer.Typer:
    """The app with just the invoked command registered. Typer builds the options of every
    registered command before it runs one; building them all costs more start time than any
    single command's work."""
    if name is None:
        return app
    commands = [
        c
        for c in app.registered_commands
        if (c.name or (c.callback and typer.main.get_command_name(c.callback.__name__))) == name
    ]
    groups = [g for g in app.registered_groups if g.name == name]
    if not commands and not groups:
        return app  # an unknown name: the full app lists the choices and suggests one
    pruned = copy.copy(app)
    pruned.registered_commands = commands
    pruned.registered_groups = groups
    return pruned


class _TerminalStderr:
    """stderr for click's usage errors, which quote the user's argument: shown as text, with no
    control character or escape sequence (`safe_text.terminal`)."""

    def write(self, text: str) -> int:
        return sys.stderr.write(terminal(text))

    def flush(self) -> None:
        sys.stderr.flush()


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: run the app, turn clustergen errors into one line and an exit."""
    args = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in args
    name = next((a for a in args if not a.startswith("-")), None)
    try:
        code = _only(name)(args=args, prog_name="clustergen", standalone_mode=False)
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
            exc.show(file=_TerminalStderr())
        else:
            sys.stderr.write(f"Error: {terminal(exc.format_message())}\n")
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        sys.stderr.write("Interrupted.\n")
        sys.exit(130)
    except OSError as exc:
        if not _stream_failed(exc):
            raise
        _output_lost(exc)
    if isinstance(code, int) and code:
        sys.exit(code)


#: errors of a standard stream that cannot take the output: a full disk (`> /dev/full`), a closed
#: pipe (`| head`), an I/O error, a quota
_STREAM_ERRNOS = {errno.ENOSPC, errno.EPIPE, errno.EIO, errno.EDQUOT, errno.EFBIG}


def _stream_failed(exc: OSError) -> bool:
    """Whether `exc` came from writing stdout or stderr (a file clustergen writes itself turns its
    own OSError into an OutputError naming the file, so what is left here is a stream)."""
    return isinstance(exc, BrokenPipeError) or exc.errno in _STREAM_ERRNOS


def _output_lost(exc: OSError) -> NoReturn:
    """One line on stderr (if it still takes one) and exit 2; stdout is pointed at /dev/null so
    the interpreter's final flush of what is left cannot fail again with a traceback."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(f"Error: cannot write the output: {exc.strerror or exc}\n")
        sys.stderr.flush()
    sys.exit(2)
