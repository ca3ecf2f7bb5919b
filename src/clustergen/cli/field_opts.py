"""A model's fields as command-line options: its common fields as options of their own, every field
through one repeatable `--set FIELD=VALUE` (llm's `-o key value`), validated by the model.

`field_options` adds the options to a command's signature (typer reads it), so a command declares
`given: Given` instead of one parameter per field, and two commands share one option set.
"""

from __future__ import annotations

import difflib
import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar

import typer

from clustergen.errors import RequestError

F = TypeVar("F", bound=Callable[..., Any])

#: the parameter of a command that receives what was given
GIVEN = "given"
_SET = "set_"


@dataclass(frozen=True)
class Flag:
    """One model field's own option: its names, the type it takes, and how its value becomes the
    field's (a unit scale or a parser)."""

    field: str
    decls: tuple[str, ...]
    type: type
    help: str
    #: option value -> field value (a unit scale, a parser); None: the value as it is
    to_field: Callable[[Any], Any] | None = None
    #: the model's default, shown in --help; an option left out is not given, so the model's
    #: default applies and --set may still give the field
    default: Any = None
    required: bool = False

    @property
    def param(self) -> str:
        return "opt_" + self.field


@dataclass(frozen=True)
class Given:
    """The model fields a command line gave, in the model's units, and the words each was given
    in ("--cap-mw 5", "--set pue=1.3"), for an error to quote."""

    fields: dict[str, Any] = field(default_factory=dict)
    spelled: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class FieldSet:
    """The options a command takes for a model: its flags and the fields `--set` may name."""

    flags: Sequence[Flag]
    settable: Sequence[str]
    set_help: str
    #: the command that lists the fields, for an unknown field's error (else it lists them)
    listed_by: str | None = None


def field_options(fields: Callable[[], FieldSet]) -> Callable[[F], F]:
    """Decorate a command with one option per flag and `--set FIELD=VALUE`, placed after its
    `text` and `--request`; the command gets `given` and validates it with its model
    (`validated(Model, ..., phrases=given.spelled)`, so an error quotes the option).

    `fields` is called only when typer builds this command (the app builds only the command run),
    so the models it reads load with it rather than with every command."""

    def wrap(command: F) -> F:
        return _Command(command, fields)  # type: ignore[return-value]

    return wrap


class _Command:
    """A command whose signature (which typer reads) is its own plus the field options."""

    def __init__(self, command: Callable[..., Any], fields: Callable[[], FieldSet]) -> None:
        self._command = command
        self._fields = fields
        self.__name__ = command.__name__
        self.__qualname__ = command.__qualname__
        self.__doc__ = command.__doc__
        self.__module__ = command.__module__

    @functools.cached_property
    def _set(self) -> FieldSet:
        return self._fields()

    @functools.cached_property
    def __signature__(self) -> inspect.Signature:
        sig = inspect.signature(self._command, eval_str=True)
        # keyword-only, all of them: typer passes keywords, and a required option may follow one
        # with a default
        own = [
            p.replace(kind=inspect.Parameter.KEYWORD_ONLY)
            for p in sig.parameters.values()
            if p.name != GIVEN
        ]
        # after what reads the request itself (its text, a request file), as a person reads them
        cut = next((i for i, p in enumerate(own) if p.name not in {"text", "request"}), len(own))
        added = [_parameter(f) for f in self._set.flags] + [_set_parameter(self._set.set_help)]
        return sig.replace(parameters=own[:cut] + added + own[cut:])

    @property
    def __annotations__(self) -> dict[str, Any]:  # type: ignore[override]
        return {p.name: p.annotation for p in self.__signature__.parameters.values()}

    def __call__(self, **kwargs: Any) -> Any:
        fs = self._set
        values = {f: kwargs.pop(f.param) for f in fs.flags}
        sets = kwargs.pop(_SET) or []
        kwargs[GIVEN] = _given(values, sets, fs.settable, fs.listed_by)
        return self._command(**kwargs)


def _parameter(flag: Flag) -> inspect.Parameter:
    # the default is the model's, in the help only: the option itself defaults to not given
    shown = "" if flag.default is None else f"  [default: {flag.default}]"
    option = typer.Option(*flag.decls, help=flag.help + shown, show_default=False)
    kind = flag.type if flag.required else flag.type | None
    return inspect.Parameter(
        flag.param,
        inspect.Parameter.KEYWORD_ONLY,
        default=... if flag.required else None,
        annotation=Annotated[kind, option],
    )


def _set_parameter(help_text: str) -> inspect.Parameter:
    option = typer.Option("--set", metavar="FIELD=VALUE", help=help_text)
    return inspect.Parameter(
        _SET,
        inspect.Parameter.KEYWORD_ONLY,
        default=None,
        annotation=Annotated[list[str] | None, option],
    )


def _given(
    values: Mapping[Flag, Any],
    sets: Sequence[str],
    settable: Sequence[str],
    listed_by: str | None,
) -> Given:
    fields: dict[str, Any] = {}
    spelled: dict[str, str] = {}
    for flag, value in values.items():
        if value is None:
            continue
        fields[flag.field] = flag.to_field(value) if flag.to_field else value
        spelled[flag.field] = f"{flag.decls[0]} {value}"
    by_option = {d.lstrip("-"): f for f in values for d in f.decls}
    for item in sets:
        name, value = _split(item, settable, by_option, listed_by)
        if name in spelled:
            raise RequestError(
                f"{spelled[name]} and --set {item} both give {name}", hint="give it once"
            )
        fields[name] = value
        spelled[name] = f"--set {item}"
    return Given(fields, spelled)


def _split(
    item: str, settable: Sequence[str], by_option: Mapping[str, Flag], listed_by: str | None
) -> tuple[str, str]:
    """'pue=1.3' -> ('pue', '1.3'); a name the model does not take is refused with the closest."""
    name, eq, value = item.partition("=")
    name = name.strip()
    if not eq or not name:
        raise RequestError(f"--set {item!r} is not FIELD=VALUE", hint="e.g. --set pue=1.3")
    if name in settable:
        return name, value.strip()
    if name in by_option:
        flag = by_option[name]
        raise RequestError(
            f"--set {item}: {name} is an option, not a field",
            hint=f"use {flag.decls[0]} {value.strip()} or --set {flag.field}=...",
        )
    near = difflib.get_close_matches(name.replace("-", "_"), settable, n=1)
    listed = f"{listed_by} lists every field" if listed_by else f"fields: {', '.join(settable)}"
    raise RequestError(
        f"--set {item}: unknown field {name!r}",
        hint=f"did you mean {near[0]!r}? {listed}" if near else listed,
    )
