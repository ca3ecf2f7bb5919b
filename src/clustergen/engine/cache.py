"""The engine's one cache: answers that depend only on a catalog and their arguments.

A trade study, a power-first search and the design they choose ask for the same optic, the same
fabric and the same workload estimate many times over; each is computed once per loaded catalog.
The store belongs to the engine, keyed by the catalog object (a catalog layered from other files
is another object with its own answers), and is dropped when the catalog is. It is safe under
concurrent calls (`catalog.answers.Answers`).

A part a caller built itself (a variant of a catalog switch or system, not the catalog's own
entry) is never answered from the cache: `own` tells the two apart.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Hashable
from typing import TypeVar

from clustergen.catalog.answers import Answers
from clustergen.catalog.loader import Catalog
from clustergen.catalog.models import Entry

T = TypeVar("T")

_STORES: dict[int, Answers] = {}
_LOCK = threading.Lock()


def _store(catalog: Catalog) -> Answers:
    key = id(catalog)
    store = _STORES.get(key)  # a dict read needs no lock; a store is only ever added under it
    if store is not None:
        return store
    with _LOCK:
        store = _STORES.get(key)
        if store is None:
            store = _STORES[key] = Answers()
            weakref.finalize(catalog, _STORES.pop, key, None)
        return store


def cached(catalog: Catalog, key: Hashable, compute: Callable[[], T]) -> T:
    """`compute()`, once per `key` for this catalog."""
    return _store(catalog).get(key, compute)


class Same:
    """A key part that is this very object, not an equal one: an answer about an object the
    engine keeps (a fabric design its cache holds, asked about by every design built on it)
    holds while the object does. The store keeps the object alive with the key, so its id is
    never another object's."""

    __slots__ = ("obj",)

    def __init__(self, obj: object) -> None:
        self.obj = obj

    def __hash__(self) -> int:
        return id(self.obj)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.obj is self.obj


def own(catalog: Catalog, stem: str, *entries: Entry | None) -> bool:
    """Whether every entry given is the catalog's own (not a caller's variant of it)."""
    rows = catalog.entries[stem]
    return all(e is None or rows.get(e.id) is e for e in entries)
