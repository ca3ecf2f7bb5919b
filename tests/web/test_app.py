"""The page over HTTP, in-process: the answer, its links, errors in one line, what is refused."""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

import pytest
from starlette.testclient import TestClient

from clustergen.catalog import Catalog
from clustergen.web import app as app_module
from clustergen.web.app import build_app

LOCAL = "http://127.0.0.1:8765"

REQ = "512 GPUs training, 5 MW"


def lines(response: Any) -> list[dict[str, Any]]:
    return [json.loads(line) for line in response.text.splitlines() if line.strip()]


def post(client: TestClient, body: Any, **headers: str) -> Any:
    return client.post(
        "/design",
        content=json.dumps(body),
        headers={"content-type": "application/json", **headers},
    )


def answer_id(html: str) -> str:
    return html.split('href="/d/', 1)[1].split("/", 1)[0]


def test_the_empty_page_has_the_request_box_and_the_design_button(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200
    assert '<label for="q">Request</label>' in r.text
    assert '<button type="submit" id="design">Design</button>' in r.text
    assert "default-src 'none'" in r.headers["content-security-policy"]


def test_the_url_holds_the_request_and_the_page_answers_without_script(client: TestClient) -> None:
    r = client.get("/", params={"q": REQ})
    assert r.status_code == 200
    assert 'id="gpu-count">512<' in r.text
    assert "<svg" in r.text
    assert 'role="img"' in r.text
    for label in ("design", "checks"):
        assert f"<caption>{label}</caption>" in r.text
    for table in ("study", "power", "bom"):
        assert f'<table id="{table}" aria-labelledby="{table}-title"' in r.text
    assert "Download bundle" in r.text
    assert 'href="/?q=512+GPUs+training%2C+5+MW"' in r.text


def test_the_script_gets_the_answer_and_the_url_to_show(client: TestClient) -> None:
    r = post(client, {"q": REQ})
    assert r.status_code == 200
    (last,) = lines(r)
    assert last["url"] == "/?q=512+GPUs+training%2C+5+MW"
    assert 'id="gpu-count">512<' in last["html"]


def test_a_control_reruns_the_design_and_says_what_changed(client: TestClient) -> None:
    first = lines(post(client, {"q": REQ}))[-1]
    again = lines(
        post(client, {"q": REQ, "fabric": "infiniband", "prev": answer_id(first["html"])})
    )
    html = again[-1]["html"]
    assert again[-1]["url"].endswith("&fabric=infiniband")
    assert "<caption>what changed</caption>" in html
    changed = html.split("<caption>what changed</caption>")[1].split("</table>")[0]
    assert '<tr class="changed"><th scope="row">switches</th>' in changed
    assert "infiniband" in html.split("compute fabric</th><td>")[1].split("<")[0]


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"q": "flibber jabber"}, "nothing to size in &#39;flibber jabber&#39;"),
        ({"q": REQ, "pue": "0.5"}, "PUE &#39;0.5&#39; is out of range"),
        ({"q": REQ, "pue": "lots"}, "PUE &#39;lots&#39; is not a number"),
        ({"q": REQ, "platform": "no-such"}, "Platform &#39;no-such&#39; is not one of"),
        ({"q": "x" * 2001}, "the request is 2,001 characters; the page takes at most 2,000"),
    ],
)
def test_a_refused_request_is_one_line_as_the_cli_words_it(
    client: TestClient, params: dict[str, str], words: str
) -> None:
    r = client.get("/", params=params)
    assert r.status_code == 400
    errors = [ln for ln in r.text.splitlines() if 'class="error"' in ln]
    assert len(errors) == 1, errors
    assert words in errors[0]
    assert "Traceback" not in r.text


def test_an_engine_refusal_is_the_cli_line_with_the_control_named(client: TestClient) -> None:
    (last,) = lines(post(client, {"q": REQ, "rack_kw": "0.5"}))
    assert last == {
        "error": "no platform in the catalog meets the request's constraints; relax cooling or "
        "rack limits, or name a platform"
    }
    (last,) = lines(post(client, {"q": REQ, "oversub": "20"}))
    assert "\n" not in last["error"]
    assert "the Oversubscription control" in last["error"], last
    assert "less than or equal to 16" in last["error"]


def test_the_design_json_and_the_bundle_are_the_design_on_screen(client: TestClient) -> None:
    html = lines(post(client, {"q": REQ}))[-1]["html"]
    design_id = answer_id(html)
    d = client.get(f"/d/{design_id}/design.json")
    assert d.headers["content-type"] == "application/json"
    assert d.json()["compute"]["gpus"] == 512
    z = client.get(f"/d/{design_id}/bundle.zip")
    assert z.headers["content-type"] == "application/zip"
    platform = d.json()["platform"]["system"]
    stem = f"clustergen-{platform}-512-gpus"
    assert f'filename="{stem}.zip"' in z.headers["content-disposition"]
    names = zipfile.ZipFile(io.BytesIO(z.content)).namelist()
    folder = f"{stem}/"
    for name in ("design.json", "bom.xlsx", "memo.md", "topology.svg", "netbox_cables.csv"):
        assert folder + name in names
    assert all(n.startswith(folder) and ".." not in n for n in names)
    png = client.get(f"/d/{design_id}/racks.png")
    assert png.content.startswith(b"\x89PNG")


def test_a_design_id_that_is_not_kept_is_one_line(client: TestClient) -> None:
    r = client.get("/d/not-a-design/bundle.zip")
    assert r.status_code == 404
    assert r.text.startswith("Error: this design is no longer kept")
    assert r.text.count("\n") == 1


def test_two_people_get_their_own_designs(client: TestClient) -> None:
    a = answer_id(lines(post(client, {"q": REQ}))[-1]["html"])
    b = answer_id(lines(post(client, {"q": "1024 GPUs inference"}))[-1]["html"])
    assert a != b
    assert client.get(f"/d/{a}/design.json").json()["compute"]["gpus"] == 512
    assert client.get(f"/d/{b}/design.json").json()["compute"]["gpus"] == 1024


def test_request_text_is_escaped_everywhere(client: TestClient) -> None:
    hostile = '<script>alert(1)</script> 512 GPUs "><img src=x onerror=alert(2)>'
    r = client.get("/", params={"q": hostile})
    assert "<script>alert" not in r.text
    assert "<img src=x" not in r.text
    assert "&lt;script&gt;" in r.text


@pytest.mark.parametrize(
    "path",
    [
        "/static/../app.py",
        "/static/..%2fapp.py",
        "/static/%2e%2e/%2e%2e/pyproject.toml",
        "/static/templates/page.html",
        "/../../etc/passwd",
        "/etc/passwd",
        "/app.py",
        "/static/",
        "/d/x/../../../etc/passwd",
    ],
)
def test_no_file_outside_the_app_is_served(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 404
    assert r.text.startswith("Error: ")


def test_the_assets_come_from_the_package(client: TestClient) -> None:
    assert client.get("/static/app.js").headers["content-type"].startswith("text/javascript")
    assert client.get("/static/style.css").headers["content-type"].startswith("text/css")


def test_a_post_from_another_origin_is_refused(client: TestClient) -> None:
    r = post(client, {"q": REQ}, origin="http://evil.example")
    assert r.status_code == 403
    assert r.text == "Error: a request from another origin is refused\n"


def test_a_page_reached_by_another_host_name_is_refused(client: TestClient) -> None:
    r = client.get("/", headers={"host": "evil.example:8765"})
    assert r.status_code == 421


def test_a_post_that_is_not_json_or_too_big_is_refused(client: TestClient) -> None:
    form = client.post("/design", content="q=1", headers={"content-type": "text/plain"})
    assert form.status_code == 415
    big = post(client, {"q": "x" * 20_000})
    assert big.status_code == 413


def test_a_body_that_is_not_a_request_is_one_line(client: TestClient) -> None:
    r = client.post("/design", content="[1, 2]", headers={"content-type": "application/json"})
    assert lines(r) == [{"error": "the page posts a JSON object"}]
    r = post(client, {"q": ["a list"]})
    assert lines(r) == [{"error": "the request must be text, not list"}]


def test_without_script_a_control_reruns_and_says_what_changed(client: TestClient) -> None:
    first = client.get("/", params={"q": REQ})
    prev = answer_id(first.text)
    assert f'name="prev" value="{prev}"' in first.text  # the form carries the design on screen
    again = client.get("/", params={"q": REQ, "storage": "best", "prev": prev})
    assert again.status_code == 200
    assert "<caption>what changed</caption>" in again.text
    assert '<option value="best" selected>' in again.text


def test_a_bug_is_one_line_never_a_traceback(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: object) -> None:
        raise ValueError("a bug")

    monkeypatch.setattr(app_module, "make_design", broken)
    with TestClient(build_app(catalog), base_url=LOCAL, raise_server_exceptions=False) as c:
        page = c.get("/", params={"q": REQ})
        assert page.status_code == 500
        assert page.text == "Error: clustergen failed making this page; this is a bug\n"
        script = post(c, {"q": REQ})
        assert lines(script) == [{"error": "clustergen failed making this design; this is a bug"}]


def test_a_file_a_design_does_not_have_is_one_line(client: TestClient) -> None:
    design_id = answer_id(lines(post(client, {"q": REQ}))[-1]["html"])
    r = client.get(f"/d/{design_id}/memo.exe")
    assert r.status_code == 404
    assert r.text.startswith("Error: no file 'memo.exe' in a design; they are: design.json")
