"""The page in a real browser: Debian's chromium, headless, driven by Playwright, against a real
`clustergen serve` on a loopback port. Where no browser is found (or it cannot start) the tests
skip, saying why; `.ci/run` installs chromium from the Debian packages.

Set CLUSTERGEN_WEB_SCREENSHOTS=DIR to keep the screenshots at 1280 and 390 pixels wide."""

from __future__ import annotations

import io
import os
import shutil
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from support.loopback import loopback_only
from support.web_served import Served

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

REQ = "512 GPUs training, 5 MW"
#: Playwright's own browser download is not reachable: Debian's chromium, without a sandbox (a
#: container has no user namespaces) and without any of its own network traffic
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str | None:
    given = os.environ.get("CLUSTERGEN_CHROMIUM")
    if given:
        return given
    return shutil.which("chromium") or next(
        (p for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser") if os.path.exists(p)), None
    )


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    path = chromium_path()
    if path is None or not os.path.exists(path):
        pytest.skip("no chromium found (apt-get install chromium, or set CLUSTERGEN_CHROMIUM)")
    with sync_api.sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)
        except Exception as exc:  # a browser that cannot start here: the tier skips, saying why
            pytest.skip(f"chromium at {path} did not start: {str(exc).splitlines()[0]}")
        yield b
        b.close()


@pytest.fixture
def page(browser: Any, served: Served) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(served.url)
    yield page
    context.close()


def shoot(page: Any, name: str) -> None:
    """Keep a screenshot of the window when CLUSTERGEN_WEB_SCREENSHOTS names a directory."""
    where = os.environ.get("CLUSTERGEN_WEB_SCREENSHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(where) / f"{name}.png"))


def ask(page: Any, text: str, *, enter: bool = False) -> None:
    page.get_by_label("Request").fill(text)
    if enter:
        page.get_by_label("Request").press("Enter")
    else:
        page.get_by_role("button", name="Design").click()


def test_the_first_line_is_the_url(served: Served) -> None:
    assert served.url.startswith("http://127.0.0.1:")
    assert served.url.endswith("/")


def test_request_and_design_answer_with_the_gpus_and_an_inline_topology(page: Any) -> None:
    page.evaluate("window.notReloaded = true")
    ask(page, REQ)
    sync_api.expect(page.locator("#gpu-count")).to_have_text("512")
    assert page.evaluate("window.notReloaded") is True  # the answer came without a reload
    svg = page.locator("#answer figure.topology svg")
    assert svg.count() == 1
    assert svg.get_attribute("role") == "img"
    assert "q=512+GPUs+training%2C+5+MW" in page.url  # the URL holds the request
    for caption in ("design", "checks", "power", "bill of materials"):
        assert page.get_by_role("table", name=caption, exact=True).count() == 1, caption
    assert page.get_by_role("table", name="trade study", exact=False).count() == 1


def test_enter_asks_too(page: Any) -> None:
    ask(page, "1024 GPUs inference", enter=True)
    sync_api.expect(page.locator("#gpu-count")).to_have_text("1,024")


def test_download_bundle_is_a_zip_with_the_design_and_the_workbook(page: Any) -> None:
    ask(page, REQ)
    with page.expect_download() as download:
        page.get_by_role("link", name="Download bundle").click()
    path = download.value.path()
    names = {
        n.rpartition("/")[2]
        for n in zipfile.ZipFile(io.BytesIO(Path(path).read_bytes())).namelist()
    }
    assert {"design.json", "bom.xlsx", "memo.md", "topology.svg", "netbox_cables.csv"} <= names


def test_a_nonsense_request_shows_one_line_of_error(page: Any) -> None:
    ask(page, "flibber jabber wocky")
    alert = page.get_by_role("alert")
    sync_api.expect(alert).to_contain_text("Error: nothing to size")
    assert alert.count() == 1
    assert "\n" not in alert.inner_text().strip()
    assert "Traceback" not in page.content()
    shoot(page, "error-1280")


def test_a_control_reruns_the_design_and_says_what_changed(page: Any) -> None:
    ask(page, REQ)
    sync_api.expect(page.locator("#gpu-count")).to_have_text("512")
    page.locator("#choices summary").click()
    page.get_by_label("Fabric").select_option("infiniband")
    changed = page.get_by_role("table", name="what changed")
    sync_api.expect(changed).to_contain_text("switches")
    assert "fabric=infiniband" in page.url
    shoot(page, "changed-1280")


def test_a_post_from_another_origin_is_refused(page: Any, served: Served) -> None:
    attacker = (
        f'<form method="post" action="{served.url}design" enctype="text/plain">'
        '<input name="q" value="512 GPUs"><button id="go">go</button></form>'
    )
    page.route(
        "http://evil.example/**",
        lambda route: route.fulfill(status=200, content_type="text/html", body=attacker),
    )
    page.goto("http://evil.example/")
    with page.expect_response(lambda r: r.url.endswith("/design")) as response:
        page.click("#go")
    assert response.value.status == 403
    assert response.value.request.header_value("origin") == "http://evil.example"


@pytest.mark.parametrize(
    "path",
    [
        "static/../../../../etc/passwd",
        "static/%2e%2e/%2e%2e/pyproject.toml",
        "static/..%2f..%2fweb%2fapp.py",
        "etc/passwd",
        "d/x/..%2f..%2f..%2fetc%2fpasswd",
    ],
)
def test_no_path_outside_the_app_is_served(page: Any, served: Served, path: str) -> None:
    response = page.goto(served.url + path)
    assert response.status == 404
    assert "root:" not in page.content()


def test_the_bom_sorts_from_the_keyboard(page: Any) -> None:
    ask(page, REQ)
    qty = page.get_by_role("button", name="qty")
    qty.focus()
    page.keyboard.press("Enter")
    heading = page.locator("#bom th", has=qty)
    sync_api.expect(heading).to_have_attribute("aria-sort", "ascending")
    keys = page.locator("#bom tbody tr td:nth-child(4)").evaluate_all(
        "cells => cells.map(c => Number(c.dataset.key))"
    )
    assert keys == sorted(keys)
    page.keyboard.press("Enter")
    sync_api.expect(heading).to_have_attribute("aria-sort", "descending")


def test_the_request_box_leads_to_the_design_button_by_tab(page: Any) -> None:
    page.get_by_label("Request").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "design"


@pytest.mark.parametrize("width", [1280, 390])
def test_the_page_fits_the_width_and_weighs_under_500_kb(
    browser: Any, served: Served, width: int, tmp_path: Path
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    sizes: dict[str, int] = {}
    page.on("response", lambda r: sizes.__setitem__(r.url, len(r.body())) if r.ok else None)
    page.goto(served.url + "?q=" + REQ.replace(" ", "+").replace(",", "%2C"))
    sync_api.expect(page.locator("#gpu-count")).to_have_text("512")
    for picture in page.locator("#answer img").all():  # the lazy pictures load when seen
        picture.scroll_into_view_if_needed()
        sync_api.expect(picture).to_have_js_property("complete", True)
    page.wait_for_load_state("networkidle")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    shots = Path(os.environ.get("CLUSTERGEN_WEB_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(shots / f"page-{width}.png"), full_page=True)
    context.close()
    assert overflow <= 0, f"the page is {overflow} px wider than the window at {width} px"
    assert any(u.endswith("racks.png") for u in sizes)
    assert sum(sizes.values()) < 500_000, sizes


def test_the_answer_comes_in_under_a_second_with_the_server_warm(served: Served) -> None:
    url = served.url + "design"
    body = {"q": REQ}
    with loopback_only(), httpx.Client(timeout=60) as client:
        client.post(url, json=body)  # warm: imports, caches, matplotlib's fonts
        times = []
        for _ in range(3):
            started = time.perf_counter()
            answer = client.post(url, json=body).text
            times.append(time.perf_counter() - started)
            assert 'id=\\"gpu-count\\">512<' in answer
    assert min(times) < 1.0, times
