"""Reading untrusted YAML (a user's request, inventory or catalog file) into plain data, within
the limits of `untrusted`: safe YAML (no Python objects), no key given twice in one mapping, no
alias that expands past `MAX_NODES` values or refers to itself, nesting at most `MAX_DEPTH` deep.

Apart from `untrusted` so that a command reading no YAML (a design from the cached catalog) does
not import PyYAML.
"""

from __future__ import annotations

from typing import Any

import yaml

from clustergen.untrusted import MAX_DEPTH, DataError, check_shape


class StrictConstructor(yaml.constructor.SafeConstructor):
    """The safe constructor, stricter: a key given twice in one mapping is an error (YAML would
    keep the last silently), and a scalar it cannot build (a date like 2026-13-45, an integer of
    thousands of digits) is a YAML error at that scalar's line, not a bare ValueError."""

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep)
        except (ValueError, OverflowError) as exc:
            raise yaml.constructor.ConstructorError(
                None, None, str(exc).splitlines()[0], node.start_mark
            ) from None

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, yaml.Node] = {}
        for key_node, _ in node.value:
            # `<<` merges are YAML's own way to override keys; only literal repeats are slips.
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                first = seen.setdefault(key, key_node)
            except TypeError:  # an unhashable key: the base constructor reports it
                continue
            if first is not key_node:
                raise yaml.constructor.ConstructorError(
                    "while constructing a mapping",
                    node.start_mark,
                    f"key {key!r} appears twice (first at line {first.start_mark.line + 1})",
                    key_node.start_mark,
                )
        return super().construct_mapping(node, deep)


class SafeLoader(
    yaml.reader.Reader,
    yaml.scanner.Scanner,
    yaml.parser.Parser,
    yaml.composer.Composer,
    StrictConstructor,
    yaml.resolver.Resolver,
):
    """Pure-Python safe YAML with the strict constructor: nesting too deep to build is a
    RecursionError here rather than a crash in libyaml's recursive composer."""

    def __init__(self, stream: str) -> None:
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        yaml.composer.Composer.__init__(self)
        StrictConstructor.__init__(self)
        yaml.resolver.Resolver.__init__(self)


def yaml_error_line(exc: yaml.YAMLError) -> int | None:
    """The 1-based line a YAML error points at, if it says."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    return mark.line + 1 if mark is not None else None


def load_yaml(text: str, *, finite: bool = True) -> Any:
    """Safe YAML to plain data. DataError for malformed YAML, a repeated key, nesting deeper than
    MAX_DEPTH, aliases that expand past MAX_NODES values or refer to themselves, and (when `finite`)
    .inf or .nan."""
    try:
        loader = SafeLoader(text)
    except yaml.reader.ReaderError as exc:  # control characters, refused as the reader is built
        line = text[: exc.position].count("\n") + 1
        raise DataError(f"malformed YAML: {exc.reason}", line) from None
    try:
        data = loader.get_single_data()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        column = mark.column + 1 if mark is not None else None
        raise DataError(
            f"malformed YAML: {_yaml_what(exc)}", yaml_error_line(exc), column
        ) from None
    except RecursionError:
        raise DataError(
            f"nested deeper than {MAX_DEPTH} levels", loader.get_mark().line + 1
        ) from None
    finally:
        loader.dispose()
    check_shape(data, finite=finite)
    return data


def _yaml_what(exc: yaml.YAMLError) -> str:
    return str(getattr(exc, "problem", None) or str(exc).splitlines()[0])
