"""Bounds on the TCP connections of `clustergen mcp --http`, below the sessions of `sessions.py`.

uvicorn keeps a connection that never sends a request, or sends half of one, for as long as the
client holds it: 1,100 idle sockets used every file descriptor of a 1,024 limit, and every new
client then timed out. Here each connection that waits on its client (for a request's headers or
body, or idle between requests) is closed after `CLIENT_WAIT_S`; an idle keep-alive connection
after `IDLE_S` (uvicorn's own timer); and at most `max_connections` are open at once, well below
the process's file limit: a new connection past the bound closes the one that has waited on its
client the longest, so a flood of idle or half-open sockets never locks a real client out. Only
when every open connection is busy serving a request is the newcomer closed instead.
"""

from __future__ import annotations

import asyncio
import logging
import math
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger(__name__)

#: seconds a connection may wait on its client: for a whole request (headers and body) to
#: arrive, or between requests
CLIENT_WAIT_S = 10.0
#: seconds an idle keep-alive connection is kept after a response (uvicorn's timeout_keep_alive)
IDLE_S = 5.0
#: connections open at once, at most (and always under the file limit, see `connection_bound`)
MAX_CONNECTIONS = 512
#: file descriptors kept free under the limit: the listening socket, the catalog's files, logs,
#: and the connections one burst of accepts adds before the bound closes others
FD_MARGIN = 160


def connection_bound(limit: int | None = None) -> int:
    """The most connections to keep open: `MAX_CONNECTIONS`, less where the process's soft
    file limit (`limit`, else RLIMIT_NOFILE's) leaves less room."""
    if limit is None:
        try:
            import resource

            soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
            limit = None if soft == resource.RLIM_INFINITY else soft
        except (ImportError, OSError, ValueError):  # pragma: no cover - no rlimits (Windows)
            limit = 1024
    if limit is None or limit < 0:
        return MAX_CONNECTIONS
    return max(8, min(MAX_CONNECTIONS, limit - FD_MARGIN))


def guarded_protocol(
    max_connections: int | None = None, client_wait_s: float = CLIENT_WAIT_S
) -> type[H11Protocol]:
    """uvicorn's h11 protocol with the wait timeout and the connection bound (module docstring)."""
    bound = max_connections if max_connections is not None else connection_bound()

    class Guarded(H11Protocol):
        _since: float
        _timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._since = self.loop.time()
            self._timer = self.loop.call_later(client_wait_s, self._check)
            if sum(not c.transport.is_closing() for c in self.connections) > bound:
                _make_room(self, self.connections)

        def waiting(self) -> bool:
            """Whether the connection waits on its client (no request being served)."""
            cycle = self.cycle
            return cycle is None or cycle.response_complete or cycle.more_body

        def waited(self) -> float:
            return self.loop.time() - self._since if self.waiting() else -math.inf

        def _check(self) -> None:
            self._timer = None
            if self.transport.is_closing():
                return
            now = self.loop.time()
            if not self.waiting():
                self._since = now  # the server is working: the client's wait starts later
            elif now - self._since >= client_wait_s:
                self.transport.close()
                return
            self._timer = self.loop.call_later(
                max(0.05, self._since + client_wait_s - now), self._check
            )

        def on_response_complete(self) -> None:
            self._since = self.loop.time()
            super().on_response_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            super().connection_lost(exc)

    return Guarded


def _make_room(newcomer: Any, connections: set[Any]) -> None:
    """Close the connection that has waited on its client the longest; the newcomer itself
    when every other is busy serving a request."""
    others = [c for c in connections if c is not newcomer and not c.transport.is_closing()]
    waiting = [c for c in others if c.waiting()]
    victim = max(waiting, key=lambda c: c.waited()) if waiting else newcomer
    log.info("closing a connection waiting on its client (%d open)", len(connections))
    victim.transport.close()
