"""CLI test fixture: run `clustergen ARGS` in-process and capture (exit code, stdout, stderr)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from clustergen.cli.app import main

Cli = Callable[..., tuple[int, str, str]]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Cli:
    """Call with the arguments after `clustergen`; SystemExit becomes the exit code."""

    def run(*args: str) -> tuple[int, str, str]:
        code = 0
        try:
            main(list(args))
        except SystemExit as exc:
            code = int(exc.code or 0)
        out, err = capsys.readouterr()
        return code, out, err

    return run
