"""Bounds on MCP sessions over streamable HTTP: how many may be open, how long one may sit idle,
and what happens at the bound.

The SDK keeps a session until its client deletes it or it has had no request in flight for its
idle timeout (30 minutes by default), and answers 503 to every new client while its limit (10,000)
is reached: one client that opens sessions and walks away locks everyone else out for half an
hour. Here sessions idle for `SESSION_IDLE_S` expire, and at `MAX_SESSIONS` the session idle the
longest is closed to admit the new one (its ID then answers 404, and an MCP client re-initializes,
as the spec has it do after expiry). Only when every open session is busy serving a request is a
new client refused, with the SDK's 503.
"""

from __future__ import annotations

import logging
import math
from typing import Any

from mcp.server.streamable_http import StreamableHTTPServerTransport
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

log = logging.getLogger(__name__)

#: Sessions open at once over HTTP (each holds a server task and its streams).
MAX_SESSIONS = 1000
#: Seconds a session may go without any request in flight before it is closed.
SESSION_IDLE_S = 300.0


def evict_idlest_at_limit(manager: StreamableHTTPSessionManager) -> None:
    """Make `manager` close the session idle the longest when a new one would pass its limit."""
    admit = manager._admit_session

    def admit_or_evict(requestor: Any) -> StreamableHTTPServerTransport | None:
        sessions = manager._server_instances
        if manager.max_sessions is not None and len(sessions) >= manager.max_sessions:
            _evict_idlest(manager)
        return admit(requestor)

    manager._admit_session = admit_or_evict  # type: ignore[method-assign]


def _evict_idlest(manager: StreamableHTTPSessionManager) -> None:
    sessions = manager._server_instances
    idle = [
        (scope.deadline, session_id)
        for session_id, transport in sessions.items()
        if (scope := transport.idle_scope) is not None
        and not scope.cancel_called
        and math.isfinite(scope.deadline)  # inf while a request is in flight (or opening)
    ]
    if not idle:
        return  # every session is busy: the SDK refuses the newcomer (503)
    _, session_id = min(idle)
    transport = sessions.pop(session_id)
    manager._session_owners.pop(session_id, None)
    assert transport.idle_scope is not None
    # Its server task ends and terminates the transport; from now its ID answers 404.
    transport.idle_scope.cancel()
    log.info("closed idle MCP session %s to admit a new one (%d open)", session_id, len(sessions))
