"""The engine's cache: per catalog, never shared with a caller's variant, safe across threads."""

from __future__ import annotations

import dataclasses
import gc
import threading

from clustergen.catalog import load_catalog
from clustergen.catalog.models import Switch
from clustergen.engine import cache
from clustergen.engine.request.parse import parse_request
from clustergen.engine.search.planner import plan_design


def test_each_catalog_has_its_own_answers() -> None:
    one = load_catalog()
    other = dataclasses.replace(one, hash="other")
    assert cache.cached(one, "k", lambda: 1) == 1
    assert cache.cached(other, "k", lambda: 2) == 2
    assert cache.cached(one, "k", lambda: 3) == 1


def test_a_dropped_catalog_drops_its_answers() -> None:
    c = dataclasses.replace(load_catalog(), hash="short-lived")
    cache.cached(c, "k", lambda: 1)
    key = id(c)
    assert key in cache._STORES
    del c
    gc.collect()
    assert key not in cache._STORES


def test_a_callers_variant_of_an_entry_is_not_the_catalogs_own() -> None:
    c = load_catalog()
    sw = c.switch("qm9700")
    assert cache.own(c, "switches", sw, None)
    variant = sw.model_copy(update={"ports": 32})
    assert isinstance(variant, Switch)
    assert not cache.own(c, "switches", sw, variant)


def test_designs_on_threads_sharing_one_catalog_agree() -> None:
    """What an MCP server does: several tool calls at once on one loaded catalog."""
    c = dataclasses.replace(load_catalog(), hash="threads")
    texts = ["512 GPUs training, 5 MW", "max GPUs under 5 MW", "64 DGX B200 nodes"]
    expected = {t: plan_design(c, parse_request(c, t)).compute.gpus for t in texts}
    fresh = dataclasses.replace(load_catalog(), hash="threads-fresh")
    got: list[tuple[str, int]] = []
    errors: list[BaseException] = []

    def work(text: str) -> None:
        try:
            got.append((text, plan_design(fresh, parse_request(fresh, text)).compute.gpus))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(t,)) for t in texts * 3]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert all(gpus == expected[text] for text, gpus in got)


def test_a_key_on_an_object_is_that_object_not_an_equal_one() -> None:
    """`Same`: an answer about one object (a fabric design the cache keeps) is not another's,
    however equal; an object the store keys on is kept alive with the answer."""
    c = dataclasses.replace(load_catalog(), hash="same")
    first, second = [1], [1]
    assert cache.cached(c, ("k", cache.Same(first)), lambda: "first") == "first"
    assert cache.cached(c, ("k", cache.Same(second)), lambda: "second") == "second"
    assert cache.cached(c, ("k", cache.Same(first)), lambda: "again") == "first"


def test_a_second_design_links_its_fabrics_as_the_first() -> None:
    """The fabrics' link groups are answered once per fabric design: a second design of the
    request, its links taken from the store, has the first's links and bill of materials."""
    cat = dataclasses.replace(load_catalog(), hash="links")
    request = parse_request(cat, "512 GPUs training, 5 MW")
    first = plan_design(cat, request)
    again = plan_design(cat, request)
    assert again.links == first.links
    assert again.bom == first.bom
