"""Options shared by several commands, and the parsers of the values they take."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

from clustergen.errors import RequestError

JsonOpt = Annotated[bool, typer.Option("--json", help="Print strict JSON (errors too).")]
StrictOpt = Annotated[
    bool,
    typer.Option(
        "--strict", help="Refuse (exit 2) when any word of the request was not understood."
    ),
]
CatalogOpt = Annotated[
    Path | None,
    typer.Option(
        "--catalog",
        metavar="<dir>",
        help="A catalog directory layered over the built-in one (add SKUs, override values, prices).",
    ),
]
InsecureHttpOpt = Annotated[
    bool,
    typer.Option(
        "--allow-insecure-http",
        help="Send the key over plain http to a host other than loopback (refused otherwise).",
    ),
]

# The compute-fabric options `fabric` and `power` both take.
PlatformOpt = Annotated[
    str, typer.Option("--platform", help="System or GPU, e.g. dgx-h100, 'GB200 NVL72'.")
]
SwitchOpt = Annotated[
    str | None, typer.Option("--switch", help="Switch id for every tier, e.g. qm9700.")
]
SuOpt = Annotated[
    int | None, typer.Option("--su-nodes", min=1, help="Scalable-unit size in nodes.")
]
OversubOpt = Annotated[
    str | None, typer.Option("--oversubscription", help="Leaf down:up ratio, e.g. 1, 2 or 2:1.")
]
PlanesOpt = Annotated[
    int | None, typer.Option("--planes", min=1, help="Independent fabric planes.")
]
SpeedOpt = Annotated[
    float | None, typer.Option("--port-speed", help="Link speed in Gb/s (breakout).")
]
TechOpt = Annotated[
    str | None, typer.Option("--technology", help="infiniband or ethernet (picks the switch).")
]
NoUfmOpt = Annotated[
    bool, typer.Option("--no-fabric-manager", help="Leave the UFM off the compute fabric.")
]


def parse_ratio(text: str | None) -> float | None:
    """'2', '2:1' or '1.5' to a float >= 1."""
    if text is None:
        return None
    raw = text.strip().lower().replace("to", ":")
    try:
        if ":" in raw:
            a, b = raw.split(":", 1)
            value = float(a) / float(b)
        else:
            value = float(raw)
    except (ValueError, ZeroDivisionError):
        raise RequestError(
            f"oversubscription {text!r} is not a ratio", hint="use 1, 2, 2:1 or 1.5"
        ) from None
    if value < 1.0:
        raise RequestError(f"oversubscription {text!r} is below 1:1", hint="use 1 for non-blocking")
    return value


def parse_technology(text: str | None) -> Literal["infiniband", "ethernet"] | None:
    """'InfiniBand', 'IB', 'Spectrum-X', 'RoCE', ... to the fabric technology it names."""
    if text is None:
        return None
    t = text.strip().lower().replace("-", "").replace(" ", "")
    if t in {"infiniband", "ib"}:
        return "infiniband"
    if t in {"ethernet", "spectrumx", "roce", "eth"}:
        return "ethernet"
    raise RequestError(f"unknown technology {text!r}", hint="use infiniband or ethernet")
