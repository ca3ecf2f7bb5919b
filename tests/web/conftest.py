"""Fixtures for the page's tests: the app in-process (Starlette's TestClient), and a real
`clustergen serve` on a loopback port for the browser and plain-HTTP tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from clustergen.catalog import Catalog, load_catalog
from clustergen.web.app import build_app
from support.web_served import Served

LOCAL = "http://127.0.0.1:8765"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="module")
def client(catalog: Catalog) -> Iterator[TestClient]:
    """The offline page, asked as a browser on this machine asks it (Host 127.0.0.1)."""
    with TestClient(build_app(catalog), base_url=LOCAL) as c:
        yield c


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    server = Served(tmp_path_factory.mktemp("serve"))
    yield server
    server.stop()
