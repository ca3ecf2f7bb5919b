"""Limits that hold inside one reply: a deadline enforced while the body is read, and a cap on
the bytes read and on the bytes they inflate to.

httpx's timeouts bound the wait for each chunk, not for the reply: a server trickling one byte a
second never trips a 30 s read timeout, and a 1 MiB gzip body may inflate to gigabytes inside the
client's decoder. `GuardedTransport` sits under the chat client's httpx client: it passes each
request on with every timeout cut to what is left of the deadline, reads the raw body itself
(checking the clock and the byte count at every chunk), inflates it with a bounded decoder, and
hands the SDK a plain body. A breach raises `ReplyLimitError`, which the client turns into one line
(and the default mode into the planner's design): it is never retried.
"""

from __future__ import annotations

import time
import zlib
from collections.abc import Callable

import httpx

#: Bytes a reply may take on the wire and after inflating. A completion of 4,096 tokens is about
#: 20 kB of JSON; the largest the agent has seen (a memo and a dozen tool calls) under 100 kB.
MAX_REPLY_BYTES = 4 << 20
#: The request extension that carries a reply's deadline (time.monotonic()) to inner transports
#: (the eval recorder reads the body before this transport sees it).
DEADLINE = "clustergen.deadline"
_CHUNK = 64 << 10


class ReplyLimitError(Exception):
    """A reply broke a limit: too slow as a whole, too large, or encoded in a way not asked for.
    Retrying would only break it again."""


def read_bounded(response: httpx.Response, max_bytes: int = MAX_REPLY_BYTES) -> bytes:
    """The raw body of `response` (still encoded), read chunk by chunk within the request's
    deadline and `max_bytes`, then inflated within `max_bytes` as its Content-Encoding says."""
    end = response.request.extensions.get(DEADLINE) if _has_request(response) else None
    raw = bytearray()
    try:
        for chunk in response.stream:  # type: ignore[union-attr]
            raw += chunk
            if len(raw) > max_bytes:
                raise ReplyLimitError(f"the reply is larger than {max_bytes:,} bytes")
            if end is not None and time.monotonic() > end:
                raise ReplyLimitError("the reply was still arriving at its deadline")
    finally:
        response.close()
    return inflate(bytes(raw), response.headers.get("content-encoding", ""), max_bytes)


def _has_request(response: httpx.Response) -> bool:
    try:
        response.request  # noqa: B018 - raises when the response was built without one
    except RuntimeError:
        return False
    return True


def inflate(body: bytes, encoding: str, max_bytes: int = MAX_REPLY_BYTES) -> bytes:
    """`body` decoded through each Content-Encoding (gzip, deflate, identity), never past
    `max_bytes`: a decompression bomb stops at the cap, not at the machine's memory."""
    for coding in reversed([c.strip().lower() for c in encoding.split(",") if c.strip()]):
        if coding == "identity":
            continue
        if coding not in ("gzip", "x-gzip", "deflate"):
            raise ReplyLimitError(f"the reply is encoded as {coding!r}, which was not asked for")
        body = _inflate_one(body, max_bytes)
    return body


def _inflate_one(body: bytes, max_bytes: int) -> bytes:
    # gzip or zlib (auto-detected by the header), else raw deflate, as servers send either
    for wbits in (zlib.MAX_WBITS | 32, -zlib.MAX_WBITS):
        decoder = zlib.decompressobj(wbits)
        out = bytearray()
        data = body
        try:
            while data and not decoder.eof:
                out += decoder.decompress(data, max_bytes + 1 - len(out))
                if len(out) > max_bytes:
                    raise ReplyLimitError(f"the reply inflates to more than {max_bytes:,} bytes")
                data = decoder.unconsumed_tail
        except zlib.error:
            continue
        return bytes(out)
    raise ReplyLimitError("the reply's compressed body is corrupt")


class GuardedTransport(httpx.BaseTransport):
    """`inner` with the reply limits above. `deadline` gives the run's deadline (monotonic
    seconds, or None); each reply also ends within `reply_s` of its request."""

    def __init__(
        self,
        inner: httpx.BaseTransport,
        deadline: Callable[[], float | None],
        reply_s: float,
        max_bytes: int = MAX_REPLY_BYTES,
    ) -> None:
        self.inner = inner
        self.deadline = deadline
        self.reply_s = reply_s
        self.max_bytes = max_bytes

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        now = time.monotonic()
        run_end = self.deadline()
        end = min(now + self.reply_s, run_end if run_end is not None else float("inf"))
        left = end - now
        if left <= 0:
            raise ReplyLimitError("the run's time was up before the request")
        timeouts = dict(request.extensions.get("timeout") or {})
        for name in ("connect", "read", "write", "pool"):
            given = timeouts.get(name)
            timeouts[name] = left if given is None else min(given, left)
        request.extensions["timeout"] = timeouts
        request.extensions[DEADLINE] = end
        # only what `inflate` can bound (httpx would offer br and zstd when installed)
        request.headers["accept-encoding"] = "gzip, deflate"
        response = self.inner.handle_request(request)
        response.request = request
        content = read_bounded(response, self.max_bytes)
        headers = [
            (k, v)
            for k, v in response.headers.multi_items()
            if k.lower() not in ("content-encoding", "content-length", "transfer-encoding")
        ]
        return httpx.Response(
            response.status_code, headers=headers, content=content, request=request
        )

    def close(self) -> None:
        self.inner.close()


def guard_client(
    client: httpx.Client, deadline: Callable[[], float | None], reply_s: float
) -> httpx.Client:
    """`client` with every transport it sends through (its own and any mounted) guarded."""
    transport = client._transport
    if isinstance(transport, GuardedTransport):
        transport = transport.inner
    client._transport = GuardedTransport(transport, deadline, reply_s)
    mounts = client._mounts
    for pattern, mounted in list(mounts.items()):
        if mounted is not None and not isinstance(mounted, GuardedTransport):
            mounts[pattern] = GuardedTransport(mounted, deadline, reply_s)
    return client
