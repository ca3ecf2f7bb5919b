"""`clustergen serve`: refusals before serving in one line, and the URL it prints (the token
beyond loopback). The page itself is tested in tests/web."""

from __future__ import annotations

import socket
from collections.abc import Callable

import pytest

from clustergen.web.server import listen, needs_token, url_of

Cli = Callable[..., tuple[int, str, str]]


def test_a_port_in_use_is_one_line(cli: Cli) -> None:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        port = str(taken.getsockname()[1])
        code, out, err = cli("serve", "--port", port, "--offline")
    finally:
        taken.close()
    assert code == 2
    assert out == ""
    assert err.startswith(f"Error: cannot listen on 127.0.0.1:{port}: ")
    assert err.strip().endswith("pick another --port (0: any free port)")
    assert len(err.strip().splitlines()) == 1


def test_a_bad_port_is_a_usage_error(cli: Cli) -> None:
    code, _, err = cli("serve", "--port", "70000")
    assert code == 2
    assert "--port" in err


@pytest.mark.parametrize(
    ("host", "token"),
    [
        ("127.0.0.1", False),
        ("::1", False),
        ("localhost", False),
        ("0.0.0.0", True),
        ("10.1.2.3", True),
    ],
)
def test_beyond_loopback_the_page_needs_a_token(host: str, token: bool) -> None:
    assert needs_token(host) is token


def test_the_url_carries_the_token_when_there_is_one() -> None:
    sock = listen("127.0.0.1", 0)
    try:
        port = sock.getsockname()[1]
        assert url_of(sock, None) == f"http://127.0.0.1:{port}/"
        assert url_of(sock, "abc") == f"http://127.0.0.1:{port}/?token=abc"
    finally:
        sock.close()
