"""The catalog's answer store: bounded, least recently used out, safe across threads."""

from __future__ import annotations

import threading

from clustergen.catalog.answers import Answers


def test_an_answer_is_computed_once_per_key() -> None:
    calls: list[str] = []
    a = Answers()
    for _ in range(3):
        assert a.get("k", lambda: calls.append("k") or 42) == 42
    assert calls == ["k"]


def test_the_least_recently_used_answer_goes_first() -> None:
    a = Answers(limit=2)
    a.get("a", lambda: 1)
    a.get("b", lambda: 2)
    a.get("a", lambda: 0)  # used again: "b" is now the oldest
    a.get("c", lambda: 3)
    assert len(a) == 2
    assert a.get("a", lambda: -1) == 1
    assert a.get("b", lambda: -2) == -2  # forgotten, so computed again


def test_concurrent_calls_with_eviction_never_fail() -> None:
    """Eight threads over more keys than the store holds: every call gets its own key's answer
    (the catalog memo this replaces raised KeyError here under MCP's concurrent tool calls)."""
    a = Answers(limit=16)
    errors: list[BaseException] = []

    def work(seed: int) -> None:
        try:
            for i in range(3000):
                k = (seed * 7 + i) % 64
                assert a.get(k, lambda k=k: k * 10) == k * 10
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(s,)) for s in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(a) <= 16
