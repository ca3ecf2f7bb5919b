"""The request options `design` and `estimate` share: an option of its own for each request field
its declaration gives a flag (`REQUEST_FIELDS`), `--set FIELD=VALUE` for every field, and how the
command line spells a field (for an error worded at the edge)."""

from __future__ import annotations

import functools
import re
import types
import typing
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from clustergen.cli.field_opts import FieldSet, Flag, Given, field_options
from clustergen.cli.options import parse_ratio, parse_technology
from clustergen.errors import RequestError

if TYPE_CHECKING:
    from pydantic import BaseModel

F = TypeVar("F", bound=Callable[..., Any])

#: the fields `estimate` takes options for: the workload's and the GPUs it runs on (`design`
#: takes every field its declaration gives a flag)
ESTIMATE_FLAGS = (
    "model",
    "latency_percentile",
    "training_tokens_t",
    "training_days",
    "sequence_tokens",
    "output_tokens_per_s",
    "ttft_ms",
    "tpot_ms",
    "price_per_gpu_hour",
    "gpus",
    "gpu",
    "platform",
    "workload",
)

_TOKENS = re.compile(r"^\s*(\d+(?:\.\d+)?(?:e\d+)?)\s*([tbmk]?)\s*(?:tokens?)?\s*$", re.I)
_SCALE_T = {"t": 1.0, "b": 1e-3, "m": 1e-6, "k": 1e-9}


def parse_tokens(text: str | None) -> float | None:
    """'15T', '1.4t', '500B' or a plain count of at least a million, in trillions of tokens."""
    if text is None:
        return None
    m = _TOKENS.match(text)
    if not m:
        raise RequestError(f"--tokens {text!r} is not a token count", hint="use e.g. 15T or 500B")
    value, unit = float(m.group(1)), m.group(2).lower()
    if unit:
        return value * _SCALE_T[unit]
    if value < 1e6:
        raise RequestError(
            f"--tokens {text} has no unit and is too few to train on",
            hint="give the unit: 15T (trillions) or 500B (billions)",
        )
    return value / 1e12


#: options whose text is read by a parser of its own rather than as the field's type
_PARSERS: dict[str, Callable[[Any], Any]] = {
    "training_tokens_t": parse_tokens,
    "fabric": parse_technology,
    "oversubscription": parse_ratio,
}


def settable() -> list[str]:
    """The fields a command line may set: the request's own, not the record of how its text was
    read (`PARSE_FIELDS`)."""
    from clustergen.engine.model.request import PARSE_FIELDS, DesignRequest

    return [f for f in DesignRequest.model_fields if f not in PARSE_FIELDS]


def flagged() -> list[str]:
    """The request fields whose declaration gives them an option of their own."""
    from clustergen.engine.model.request import REQUEST_FIELDS

    return [f for f, words in REQUEST_FIELDS.items() if words.flag is not None]


def cli_spelling(field: str) -> str:
    """How the command line gives a request field: its option ('--cap-mw'), else
    '--set field=...'; for an engine error carrying a `field` to be worded at the edge."""
    from clustergen.engine.model.request import REQUEST_FIELDS

    words = REQUEST_FIELDS.get(field)
    if words is not None and words.flag is not None:
        return f"--{words.flag}"
    return f"--set {field}=..."


def request_options(
    fields: Sequence[str] | None = None, aliases: dict[str, str] | None = None
) -> Callable[[F], F]:
    """Decorate a command with the options of these request fields (all that declare a flag when
    None) and `--set`; the command gets `given`, which `request_fields(given)` validates.
    `aliases` adds a name to a field's option."""

    def field_set() -> FieldSet:
        return FieldSet(
            flags=[_flag(f, (aliases or {}).get(f)) for f in fields or flagged()],
            settable=settable(),
            set_help="Any request field in its own unit, repeatable (--set pue=1.3); "
            "`clustergen schema request` lists them.",
            listed_by="`clustergen schema request`",
        )

    return field_options(field_set)


def field_rows() -> list[tuple[str, str, str, str]]:
    """(field, option, unit, description) of every field a command line or a request file
    gives, the request's text first."""
    from clustergen.engine.model.request import REQUEST_FIELDS, DesignRequest

    rows = [("text", "(argument)", "", "the request as written")]
    for name in settable():
        words = REQUEST_FIELDS[name]
        option = cli_spelling(name) if words.flag else ""
        if words.flag_unit:
            option += f" ({words.flag_unit})"
        info = DesignRequest.model_fields[name]
        text = info.description or words.name
        choices = literal_values(info.annotation)
        if choices and not all(c in text for c in choices):
            text += ": " + ", ".join(choices)
        rows.append((name, option, words.unit, text))
    return rows


def request_fields(given: Given) -> dict[str, Any]:
    """The fields the command line gave, each validated as DesignRequest declares it (its type
    and bounds; checks across fields wait for the text): a bad value is refused quoting the
    option it came from ("'--set pue=0.5' does not work as the PUE: ...")."""
    from clustergen.engine.request.translate import validated

    return {
        name: getattr(validated(_alone(name), {name: value}, phrases=given.spelled), name)
        for name, value in given.fields.items()
    }


@functools.cache
def _alone(name: str) -> type[BaseModel]:
    """A model of one DesignRequest field, declared as the request declares it."""
    from pydantic import create_model

    from clustergen.engine.model.request import DesignRequest

    info = DesignRequest.model_fields[name]
    return create_model(  # type: ignore[call-overload, no-any-return]
        "DesignRequest", __config__=DesignRequest.model_config, **{name: (info.annotation, info)}
    )


def option_help(field: str) -> str:
    """A field's --help line, from its declaration: description, choices and the unit taken."""
    from clustergen.engine.model.request import REQUEST_FIELDS, DesignRequest

    words = REQUEST_FIELDS[field]
    info = DesignRequest.model_fields[field]
    if words.flag_unit:
        text = f"{words.name} ({words.flag_unit})"
    else:
        text = info.description or words.name
        if words.unit and words.unit not in text:
            text += f" ({words.unit})"
    choices = literal_values(info.annotation)
    if choices and not all(c in text for c in choices):
        text += ": " + ", ".join(choices)
    return text[0].upper() + text[1:] + "."


def literal_values(annotation: Any) -> list[str]:
    """The values a Literal field takes (None and Optional left out); [] for any other type."""
    if typing.get_origin(annotation) is Literal:
        return [str(v) for v in typing.get_args(annotation)]
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        return [v for a in typing.get_args(annotation) for v in literal_values(a)]
    return []


def _flag(field: str, alias: str | None) -> Flag:
    from clustergen.engine.model.request import REQUEST_FIELDS, DesignRequest

    words = REQUEST_FIELDS[field]
    if words.flag is None:
        raise ValueError(f"request field {field} has no flag in REQUEST_FIELDS")
    decls = (f"--{words.flag}",) if alias is None else (alias, f"--{words.flag}")
    kind = _base_type(DesignRequest.model_fields[field].annotation)
    parse = _PARSERS.get(field)
    if parse is not None:
        kind = str
    elif words.flag_scale != 1.0:
        parse = functools.partial(_scaled, scale=words.flag_scale)
    return Flag(field=field, decls=decls, type=kind, help=option_help(field), to_field=parse)


def _scaled(value: float, scale: float) -> float:
    return value * scale


def _base_type(annotation: Any) -> type:
    """bool (a switch), int, float or str: what an option of this field's type reads."""
    for a in typing.get_args(annotation) or (annotation,):
        origin = typing.get_origin(a)
        if origin is typing.Annotated:
            a = typing.get_args(a)[0]
        if a in (bool, int, float):
            return a  # type: ignore[no-any-return]
    return str
