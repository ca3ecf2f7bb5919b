"""Output for every command: strict JSON with --json, rich tables otherwise. The only printer.

Text from catalogs, inventories, requests and models is untrusted. The consoles here never read a
string as rich markup or an emoji code unless a caller asks (`markup=True` with every interpolated
value through `safe_text.terminal_markup`), and never write a control character or escape sequence
that came in text: every string and every rendered segment goes through `safe_text.terminal`."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Sequence
from typing import IO, TYPE_CHECKING, Any, cast

from pydantic import BaseModel

from clustergen.errors import ClustergenError, RequestError
from clustergen.redact import redact_data, redact_known
from clustergen.safe_text import has_controls, json_text, terminal
from clustergen.units import watts

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from clustergen.agent.settings import AgentSettings


class _RedactedStream:
    """The process's stdout or stderr (whichever it is at the time of each write: tests swap
    them), with every remembered secret masked in what is written: no terminal view can print the
    key, whatever it shows."""

    def __init__(self, *, stderr: bool) -> None:
        self._stderr = stderr

    def _stream(self) -> Any:
        return sys.stderr if self._stderr else sys.stdout

    def write(self, text: str) -> int:
        return int(self._stream().write(redact_known(text)) or 0)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream(), name)


class _LazyConsole:
    """A rich Console made on first use: JSON output and errors never pay for importing rich."""

    def __init__(self, *, stderr: bool) -> None:
        self._stderr = stderr
        self._console: Console | None = None

    def __getattr__(self, name: str) -> Any:
        if self._console is None:
            self._console = _safe_console(stderr=self._stderr)
        return getattr(self._console, name)


def _safe_console(*, stderr: bool) -> Console:
    """A rich Console that shows text as text: markup and emoji codes are read only where a
    caller asks, and no control character or escape sequence in any string or Text reaches the
    terminal (rich's own colours are styles, added after this filter)."""
    from rich.console import Console, ConsoleOptions, RenderableType
    from rich.segment import Segment
    from rich.text import Text

    class SafeConsole(Console):
        def render_str(self, text: str, *args: Any, **kwargs: Any) -> Text:
            return super().render_str(terminal(text), *args, **kwargs)

        def render(self, renderable: RenderableType, options: ConsoleOptions | None = None) -> Any:
            for seg in super().render(renderable, options):
                if seg.control is not None:
                    yield seg  # rich's own cursor moves, never text
                    continue
                # A Text built by a view may carry what no string sink saw: filter it here.
                text = terminal(seg.text) if has_controls(seg.text) else redact_known(seg.text)
                yield seg if text == seg.text else Segment(text, seg.style)

    # written through the redacting stream: a wrapped table cell cannot show a key split in two
    return SafeConsole(
        stderr=stderr,
        soft_wrap=True,
        markup=False,
        emoji=False,
        file=cast("IO[str]", _RedactedStream(stderr=stderr)),
    )


stdout = _LazyConsole(stderr=False)
stderr = _LazyConsole(stderr=True)


def to_jsonable(obj: Any) -> Any:
    """Pydantic models (and lists of them) to plain JSON data."""
    if isinstance(obj, BaseModel):
        return obj.model_dump(mode="json")
    if isinstance(obj, list | tuple):
        return [to_jsonable(o) for o in obj]
    if isinstance(obj, dict):
        return {k: to_jsonable(v) for k, v in obj.items()}
    return obj


def print_json(obj: Any) -> None:
    """Strict JSON on stdout: no NaN, no colour, one document, no remembered secret."""
    text = json.dumps(to_jsonable(obj), indent=2, allow_nan=False)
    sys.stdout.write(json_text(text) + "\n")
    sys.stdout.flush()


def _cell(v: Any) -> Any:
    """A cell as rich shows it: plain text (never markup, no control character), '—' for None."""
    from rich.text import Text

    if isinstance(v, Text):
        return v
    return Text("—" if v is None else terminal(v))


def table(
    title: str,
    columns: Sequence[str],
    rows: Iterable[Sequence[Any]],
    *,
    no_wrap: Sequence[str] = (),
) -> Table:
    """A rich table with plain text cells; the columns named in `no_wrap` are never broken (ids
    people paste), the others wrap at words. A title wraps at words too."""
    from rich.table import Table
    from rich.text import Text

    t = Table(
        title=Text(terminal(title)),
        title_justify="left",
        show_edge=False,
        header_style="bold",
        show_header=any(columns),
    )
    for c in columns:
        t.add_column(Text(terminal(c)), no_wrap=c in no_wrap, overflow="fold")
    for r in rows:
        t.add_row(*(_cell(v) for v in r))
    return t


def kv_table(title: str, pairs: Iterable[tuple[str, Any]]) -> Table:
    """A two-column key/value table, without a header row."""
    return table(title, ("", ""), pairs)


#: the colour of each verdict word in the terminal
MARK_STYLES = {
    "PASS": "bold green",
    "WARN": "bold yellow",
    "FAIL": "bold red",
    "UNKNOWN": "bold yellow",
    "INFO": "bold",
}


def mark(word: str) -> Any:
    """PASS, WARN, FAIL, UNKNOWN or INFO as coloured text (colour only where the terminal has it)."""
    from rich.text import Text

    return Text(word, style=MARK_STYLES.get(word, "bold"))


def say(text: str, *, err: bool = False) -> None:
    """A line of plain text, wrapped at words to the terminal's width (never mid-word)."""
    console = stderr if err else stdout
    console.print(terminal(text), markup=False, highlight=False, soft_wrap=False)


#: request field -> the CLI flag that sets it: the one place the CLI words an engine error's
#: field (the engine names request fields, never flags). Fields whose flag is the field with
#: dashes (`nodes` -> `--nodes`) are not listed.
_FLAG_OF = {
    "power_cap_w": "--cap-mw",
    "power_cap_basis": "--facility",
    "rack_power_kw": "--rack-kw",
    "model_params_b": "--params-b",
    "training_tokens_t": "--tokens",
    "training_days": "--days",
    "sequence_tokens": "--seq",
    "output_tokens_per_s": "--tokens-per-s",
    "isl_tokens": "--isl",
    "osl_tokens": "--osl",
    "port_speed_gbps": "--port-speed",
    "dataset_layout": "--layout",
    "tier": "--tier",
}

#: fields a CLI flag of the same name (with dashes) sets
_SAME_NAME = frozenset(
    [
        "gpus",
        "nodes",
        "pue",
        "workload",
        "gpu",
        "platform",
        "fabric",
        "oversubscription",
        "storage_tier",
        "model",
        "precision",
        "ttft_ms",
        "tpot_ms",
        "budget_usd",
        "price_per_gpu_hour",
        "price_per_node_hour",
        "sample_mb",
        "checkpoint_gb",
        "su_nodes",
        "switch",
        "technology",
        "whole_su",
        "planes",
        "layout",
        "system",
        "write_gb_per_s",
        "shard_mb",
        "samples_per_s",
        "workers",
        "prefetch_depth",
        "metadata_servers",
        "mds_ops_per_s",
        "ingest_mb_per_s",
        "read_gb_per_s",
        "checkpoint_interval_s",
        "drives_per_node",
        "network_gb_per_s",
        "gpus_per_node",
        "target_gb_per_s",
        "catalog",
        "request",
    ]
)


def flag_of(field: str) -> str | None:
    """The CLI option for a field: a request field's declared flag (else `--set field=...`),
    or another command's own option, or None when no option sets it."""
    from clustergen.engine.model.request import REQUEST_FIELDS

    if field in REQUEST_FIELDS:
        from clustergen.cli.request_opts import cli_spelling

        return cli_spelling(field)
    if field in _FLAG_OF:
        return _FLAG_OF[field]
    return "--" + field.replace("_", "-") if field in _SAME_NAME else None


def report_error(err: ClustergenError, as_json: bool) -> None:
    """One line on stderr, or a JSON error object on stdout with --json; a request field the
    error names is worded as its flag (JSON keeps the field and adds the flag)."""
    if as_json:
        out = err.to_dict()
        field = getattr(err, "field", None) if isinstance(err, RequestError) else None
        flag = flag_of(field) if isinstance(field, str) else None
        if flag:
            out["error"]["details"]["flag"] = flag
        print_json(redact_data(out))
    else:
        # plain text needs no rich console: a failing command stays cheap
        line = err.one_line(flag_of)
        field = err.details.get("field")
        if not isinstance(err, RequestError) and isinstance(field, str):
            # another kind of error may still name a request field to set (--fit)
            flag = flag_of(field)
            line += f" ({flag})" if flag else ""
        sys.stderr.write(at_words(f"Error: {terminal(line)}") + "\n")


def at_words(line: str, stream: IO[str] | None = None) -> str:
    """A stderr line broken between words at a terminal's width (a terminal breaks a long line
    anywhere: 'the request gives no to' / 'ken count'); piped or redirected it stays one line,
    for a script that reads it."""
    import shutil
    import textwrap

    stream = sys.stderr if stream is None else stream
    if not stream.isatty():
        return line
    width = shutil.get_terminal_size((80, 24)).columns
    return textwrap.fill(line, width=max(20, width), break_on_hyphens=False)


def warn(text: str) -> None:
    """One warning line on stderr (stdout stays clean for --json)."""
    sys.stderr.write(at_words(f"warning: {terminal(text)}") + "\n")
    sys.stderr.flush()


def announce_key_route(settings: AgentSettings) -> None:
    """Before a key is sent: refuse plain http to another host unless allowed, and say on
    stderr, in one line, where the key goes when that is not hosted NIM or the endpoint came from
    a .env file the user did not name."""
    settings.check_key_route()
    notice = settings.key_notice()
    if notice:
        sys.stderr.write(f"notice: {terminal(notice)}\n")
        sys.stderr.flush()


fmt_w = watts  # the same words in the terminal as in the memo
