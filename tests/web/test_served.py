"""A real `clustergen serve` over plain HTTP: people asking at once each get their own design."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import httpx

from support.loopback import loopback_only
from support.web_served import Served

ASKED = {"64 GPUs training": 64, "256 GPUs training": 256, "512 GPUs training, 5 MW": 512}


def test_people_asking_at_once_get_their_own_designs(served: Served) -> None:
    def ask(text: str) -> tuple[str, int]:
        with httpx.Client(timeout=120) as client:
            reply = client.post(served.url + "design", json={"q": text})
            html = json.loads(reply.text.splitlines()[-1])["html"]
            design_id = html.split('href="/d/', 1)[1].split("/", 1)[0]
            design = client.get(f"{served.url}d/{design_id}/design.json").json()
            return text, design["compute"]["gpus"]

    with loopback_only(), ThreadPoolExecutor(max_workers=6) as pool:
        answers = list(pool.map(ask, [*ASKED, *ASKED]))
    assert all(gpus == ASKED[text] for text, gpus in answers), answers
