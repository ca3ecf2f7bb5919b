"""The checks in front of the page beyond loopback: the token, and the Origin on every
interface."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from clustergen.catalog import Catalog
from clustergen.web.app import build_app
from clustergen.web.guard import is_loopback, is_wildcard

TOKEN = "tok-0123456789abcdef"


@pytest.fixture
def lan(catalog: Catalog) -> Iterator[TestClient]:
    """The page listening on a LAN address, as `serve --host 192.0.2.10` runs it."""
    app = build_app(catalog, host="192.0.2.10", token=TOKEN)
    with TestClient(app, base_url="http://192.0.2.10:8765") as c:
        yield c


def test_without_the_token_nothing_is_served(lan: TestClient) -> None:
    for path in ("/", "/static/app.js", "/?q=512+GPUs"):
        r = lan.get(path)
        assert r.status_code == 401
        assert r.text.startswith("Error: this server needs its token")
    assert lan.get("/", params={"token": "wrong"}).status_code == 401


def test_the_token_in_the_url_opens_the_page_and_a_cookie_keeps_it_open(lan: TestClient) -> None:
    first = lan.get("/", params={"token": TOKEN})
    assert first.status_code == 200
    cookie = first.headers["set-cookie"]
    assert "httponly" in cookie.lower()
    assert "samesite=strict" in cookie.lower()
    assert lan.get("/static/app.js").status_code == 200  # the cookie, no token in the URL


def test_another_host_name_is_refused_even_with_the_token(lan: TestClient) -> None:
    r = lan.get("/", params={"token": TOKEN}, headers={"host": "evil.example:8765"})
    assert r.status_code == 421


def test_on_every_interface_an_origin_must_be_the_pages_own(catalog: Catalog) -> None:
    app = build_app(catalog, host="0.0.0.0", token=TOKEN)
    with TestClient(app, base_url="http://buildhost.lan:8765") as c:
        c.cookies.set("clustergen_token", TOKEN)
        ok = c.get("/", headers={"origin": "http://buildhost.lan:8765"})
        assert ok.status_code == 200
        r = c.post(
            "/design",
            content="{}",
            headers={"content-type": "application/json", "origin": "http://evil.example"},
        )
        assert r.status_code == 403


def test_loopback_and_wildcard_addresses_are_told_apart() -> None:
    assert is_loopback("127.0.0.1")
    assert is_loopback("::1")
    assert is_loopback("[::1]")
    assert is_loopback("localhost")
    assert not is_loopback("192.0.2.10")
    assert not is_loopback("0.0.0.0")
    assert is_wildcard("0.0.0.0")
    assert is_wildcard("::")
    assert not is_wildcard("127.0.0.1")
