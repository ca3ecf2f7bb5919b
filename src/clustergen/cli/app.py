"""The `clustergen` command: one typer sub-app per command group; errors become one line here.

Start-up time is most of a command's cost, so this module imports no command: `main` imports only
the module that registers the invoked one (`_HOMES`), and the full app (for `--help`, an unknown
name, the README reference) is built on first use of `app`.
"""

from __future__ import annotations

import contextlib
import copy
import errno
import gc
import importlib
import os
import sys
import threading
import types
from functools import cache
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from clustergen import __version__
from clustergen.errors import ClustergenError

if TYPE_CHECKING:
    from types import ModuleType

#: each command module of `clustergen.cli`, in the order `--help` lists them, with the names it
#: adds: a typer sub-app's attribute per group name, or None for a module whose `register(app)`
#: adds its own commands
_HOMES: tuple[tuple[str, dict[str, str | None]], ...] = (
    ("catalog_cmd", {"catalog": "app"}),
    ("ra_cmd", {"gpu": "gpu_app", "ra": "app"}),
    ("design_cmd", {"design": None, "schema": None}),
    ("sensitivity_cmd", {"sensitivity": None}),
    ("render_cmd", {"render": None}),
    ("estimate_cmd", {"estimate": None}),
    ("tco_cmd", {"tco": None}),
    ("fabric_cmd", {"fabric": None, "power": None, "size": None}),
    ("storage_cmd", {"storage": "app"}),
    ("fleet_cmd", {"fleet": "app"}),
    ("eval_cmd", {"eval": None}),
    ("mcp_cmd", {"mcp": None}),
    ("serve_cmd", {"serve": None}),
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


def root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print version and catalog hash."
        ),
    ] = False,
) -> None:
    """clustergen: GPU-cluster reference designs from constraints."""


def _new_root() -> typer.Typer:
    made = typer.Typer(
        name="clustergen",
        help="Turn a customer's constraints into a validated GPU-cluster reference design and BOM.",
        no_args_is_help=True,
        add_completion=True,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    made.callback()(root)
    return made


def _register(root_app: typer.Typer, module: ModuleType, names: dict[str, str | None]) -> None:
    for name, attr in names.items():
        if attr is not None:
            root_app.add_typer(getattr(module, attr), name=name)
    if None in names.values():
        module.register(root_app)


def _build(name: str | None) -> typer.Typer:
    """The root app with the command modules registered: only the one that adds `name`, or all
    of them when `name` is None."""
    homes = [(m, names) for m, names in _HOMES if name is None or name in names]
    built = _new_root()
    for module_name, names in homes:
        _register(built, importlib.import_module(f"clustergen.cli.{module_name}"), names)
    return built


@cache
def _full_app() -> typer.Typer:
    return _build(None)


def __getattr__(name: str) -> typer.Typer:
    # `app`, the whole command tree, is built when first asked for, not on import
    if name == "app":
        return _full_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _only(name: str | None) -> typer.Typer:
    """The app with just the invoked command registered. Typer builds the options of every
    registered command before it runs one; building them all costs more start time than any
    single command's work, and importing every command module more again."""
    if name is None or not any(name in names for _, names in _HOMES):
        return _full_app()  # the full app lists the choices and suggests one
    built = _build(name)
    commands = [
        c
        for c in built.registered_commands
        if (c.name or (c.callback and typer.main.get_command_name(c.callback.__name__))) == name
    ]
    groups = [g for g in built.registered_groups if g.name == name]
    pruned = copy.copy(built)
    pruned.registered_commands = commands
    pruned.registered_groups = groups
    return pruned


class _TerminalStderr:
    """stderr for click's usage errors, which quote the user's argument: shown as text, with no
    control character or escape sequence (`safe_text.terminal`)."""

    def write(self, text: str) -> int:
        from clustergen.safe_text import terminal

        return sys.stderr.write(terminal(text))

    def flush(self) -> None:
        sys.stderr.flush()


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: run the app, turn clustergen errors into one line and an exit."""
    args = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in args
    name = next((a for a in args if not a.startswith("-")), None)
    from clustergen.cli.keys import remember_configured_keys

    remember_configured_keys()  # before any output: no command may show the user's key
    try:
        code = _only(name)(args=args, prog_name="clustergen", standalone_mode=False)
    except ClustergenError as err:
        from clustergen.cli.output import report_error

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
            from clustergen.safe_text import terminal

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


#: allocations between the collector's youngest-generation passes while a command runs (Python's
#: default is 700): start-up creates some 0.5 M long-lived objects (modules, classes, pydantic
#: schemas, the catalog), and at 700 the collector walks them again and again for nothing. Above
#: what a short command allocates in all (a design ~75,000 container objects, `fabric` ~60,000):
#: at 50,000 its one pass took 10-15 ms of CPU to free some 600 objects. A long-running command
#: (`mcp`, `eval`) still collects every 100,000; a design's peak memory grows by ~1 MB.
_GC_YOUNG = 100_000

#: the variable pydantic reads before loading its plugins; `run` defaults it to "__all__" (none)
PLUGINS_ENV = "PYDANTIC_DISABLE_PLUGINS"
#: its values that turn every plugin off (pydantic's `get_plugins` then returns none)
PLUGINS_OFF = ("__all__", "1", "true")
#: pydantic's plugin loader: pydantic imports only `get_plugins` from it, when it builds its first
#: model, and the module imports `importlib.metadata` for the entry-point scan (~50 M
#: instructions, 12 ms) whether or not any plugin is on
PLUGIN_LOADER = "pydantic.plugin._loader"


def _no_plugin_scan() -> None:
    """With every pydantic plugin off, pydantic's plugin loader is a module whose `get_plugins`
    returns none, as the real one does then, without importing the entry-point machinery it
    would not use. Any other setting, or a loader already imported, keeps pydantic's own.
    `tests/cli/test_app.py` checks pydantic still asks the loader for nothing else."""
    if os.environ.get(PLUGINS_ENV) not in PLUGINS_OFF or PLUGIN_LOADER in sys.modules:
        return
    loader = types.ModuleType(PLUGIN_LOADER, "pydantic's plugin loader, every plugin off")
    loader.get_plugins = _no_plugins  # type: ignore[attr-defined]
    sys.modules[PLUGIN_LOADER] = loader


def _no_plugins() -> tuple[()]:
    return ()


def run() -> NoReturn:
    """The console script (and `python -m clustergen`): `main` with the collector tuned for a short
    process, then an exit that skips tearing the interpreter down.

    Both are start-up costs of the interpreter rather than of clustergen's work: the collector's
    passes over what imports create, and freeing every object one by one at exit (~50 ms, a
    tenth of a design). Cyclic garbage is still collected, only less often. The exit flushes
    stdout and stderr first (a closed pipe is the one-line error `main` gives); a thread still
    running (none does today) gets the ordinary exit, which waits for it.

    Pydantic's plugins are off unless the user's environment names them: pydantic looks for
    plugins (an entry-point scan of every installed distribution) when it builds its first model
    class, and clustergen uses none; with them off, its loader's import of the entry-point
    machinery is skipped too (`_no_plugin_scan`; see CONTRIBUTING, "Start-up")."""
    os.environ.setdefault(PLUGINS_ENV, "__all__")
    _no_plugin_scan()
    gc.set_threshold(_GC_YOUNG, 10, 10)
    try:
        main()
        code: int | str | None = 0
    except SystemExit as exc:
        code = exc.code
    if not isinstance(code, int) or threading.active_count() > 1:
        sys.exit(code)  # a message to print, or work still running: the interpreter's own exit
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError as exc:
        if not _stream_failed(exc):
            raise
        _output_lost(exc)
    os._exit(code)
