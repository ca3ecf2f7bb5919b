"""Options shared by several commands."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

JsonOpt = Annotated[bool, typer.Option("--json", help="Print strict JSON (errors too).")]
CatalogOpt = Annotated[
    Path | None,
    typer.Option(
        "--catalog",
        help="A catalog directory layered over the built-in one (add SKUs, override values, prices).",
        file_okay=False,
    ),
]
