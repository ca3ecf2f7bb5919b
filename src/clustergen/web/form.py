"""The page's form: the request box and the controls a planner changes most, read from a query
string or a JSON body, checked, and turned into the request fields the engine takes.

The form is the URL: the same names in `?q=...&pue=1.3` (a bookmark, a link sent to a colleague,
the page without JavaScript) and in the JSON the page's script posts."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, NamedTuple
from urllib.parse import urlencode

from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import System
from clustergen.errors import RequestError

#: the most characters a request's text may hold; a longer one is refused, not cut
MAX_TEXT_CHARS = 2000
#: the most characters any control's value may hold
MAX_VALUE_CHARS = 100


class Control(NamedTuple):
    """One control: its URL name, label, the request field it sets, and how its value is read."""

    name: str
    label: str
    field: str
    kind: str  # "number" or "choice"
    scale: float = 1.0  # field value = number x scale (MW -> W)
    choices: tuple[str, ...] = ()
    low: float | None = None


#: the controls in the order the page shows them; platform choices come from the catalog
CONTROLS: tuple[Control, ...] = (
    Control("platform", "Platform", "platform", "choice"),
    Control("cap_mw", "Power cap (MW)", "power_cap_w", "number", scale=1e6, low=0.0),
    Control("cap_basis", "Cap basis", "power_cap_basis", "choice", choices=("it", "facility")),
    Control("pue", "PUE", "pue", "number", low=1.0),
    Control("fabric", "Fabric", "fabric", "choice", choices=("infiniband", "ethernet")),
    Control("oversub", "Oversubscription", "oversubscription", "number", low=1.0),
    Control("rack_kw", "Rack kW", "rack_power_kw", "number", low=0.0),
    Control(
        "storage", "Storage tier", "storage_tier", "choice", choices=("good", "better", "best")
    ),
)
BY_NAME = {c.name: c for c in CONTROLS}
BY_FIELD = {c.field: c for c in CONTROLS}


class Form(NamedTuple):
    """What was asked: the text and each control's value as typed (empty when not set)."""

    text: str
    values: dict[str, str]

    def fields(self, catalog: Catalog) -> dict[str, Any]:
        """The request fields the controls set (checked; an unset control sets nothing)."""
        out: dict[str, Any] = {}
        for name, raw in self.values.items():
            if raw:
                control = BY_NAME[name]
                out[control.field] = _value(control, raw, platforms(catalog))
        return out

    def query(self) -> str:
        """The URL query that asks the same: `q` first, then the set controls in page order."""
        pairs = [("q", self.text)] if self.text else []
        pairs += [(c.name, self.values[c.name]) for c in CONTROLS if self.values.get(c.name)]
        return urlencode(pairs)

    def empty(self) -> bool:
        return not self.text and not any(self.values.values())


def read_form(params: Mapping[str, Any]) -> Form:
    """The form from query parameters or a JSON object; a value too long or of the wrong type is
    a RequestError (one line)."""
    text = _string(params.get("q"), "the request", MAX_TEXT_CHARS)
    values = {c.name: _string(params.get(c.name), c.label, MAX_VALUE_CHARS) for c in CONTROLS}
    return Form(text, values)


def _string(value: Any, what: str, limit: int) -> str:
    if value is None:
        return ""
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = f"{value:g}"
    if not isinstance(value, str):
        raise RequestError(f"{what} must be text, not {type(value).__name__}")
    text = value.strip()
    if len(text) > limit:
        raise RequestError(
            f"{what} is {len(text):,} characters; the page takes at most {limit:,}",
            hint="shorten it, or use `clustergen design --request FILE` for a long request",
        )
    return text


def platforms(catalog: Catalog) -> list[System]:
    """The systems a design can be built on (those with GPUs), by name."""
    return sorted((s for s in catalog.all("systems", System) if s.gpu), key=lambda s: s.name)


def _value(control: Control, raw: str, systems: list[System]) -> Any:
    if control.kind == "number":
        try:
            number = float(raw.replace(",", ""))
        except ValueError:
            raise RequestError(f"{control.label} {raw!r} is not a number") from None
        if not math.isfinite(number) or (control.low is not None and number < control.low):
            low = f"{control.low:g} or more" if control.low is not None else "finite"
            raise RequestError(f"{control.label} {raw!r} is out of range; give a number {low}")
        return number * control.scale
    choices = control.choices or tuple(s.id for s in systems)
    if raw not in choices:
        raise RequestError(f"{control.label} {raw!r} is not one of: {', '.join(choices)}")
    return raw


def field_label(field: str) -> str | None:
    """How the page words a request field an error names: its control's label."""
    control = BY_FIELD.get(field)
    return f"the {control.label} control" if control else None
