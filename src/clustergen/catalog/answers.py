"""A bounded, thread-safe store of answers computed from a catalog's entries.

Entries never change once a catalog is loaded, so an answer computed from them and a key holds for
the catalog's life. Callers on several threads (an MCP server running tool calls at once) share one
catalog: a look-up, an insert and an eviction never interleave, and a value is returned from the
computation that produced it, never re-read after another thread may have evicted it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")

#: answers kept per store; the least recently used go first (a long-lived server sweeping many
#: designs keeps what it uses)
LIMIT = 4096
#: what a look-up of a key not stored finds (an answer may itself be None)
_MISSING = object()


class Answers:
    """key -> answer, bounded (least recently used first out), safe across threads.

    The computation runs outside the lock, so two threads may compute the same answer at once;
    both are equal (they depend only on the catalog and the key) and the first stored is kept.
    """

    def __init__(self, limit: int = LIMIT) -> None:
        self._limit = limit
        self._lock = threading.Lock()
        self._data: OrderedDict[Hashable, Any] = OrderedDict()

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The answer for `key`, computing it on the first call."""
        with self._lock:
            found = self._data.get(key, _MISSING)  # the key hashed twice, not three times
            if found is not _MISSING:
                self._data.move_to_end(key)
                return found  # type: ignore[no-any-return]
        value = compute()
        with self._lock:
            kept = self._data.setdefault(key, value)
            while len(self._data) > self._limit:
                self._data.popitem(last=False)
        return kept  # type: ignore[no-any-return]

    def __len__(self) -> int:
        with self._lock:
            return len(self._data)
