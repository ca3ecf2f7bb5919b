"""A client-side rate limiter for model runs: a token bucket in requests per minute.

Hosted NIM endpoints throttle per key (users report about 40 requests a minute); an eval of a whole
suite at some concurrency would otherwise spend its time collecting 429s. Every request takes a
token first; tokens refill continuously at `requests_per_minute / 60` a second up to `burst`. A 429
with Retry-After pauses every caller (`defer`), so concurrent workers do not stampede the endpoint
the moment one of them is told to wait. Clock and sleep are injectable, so tests need no real time.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

#: Hosted NIM's observed limit per key (issue 5: "about 40 requests a minute").
DEFAULT_REQUESTS_PER_MINUTE = 40.0


class TokenBucket:
    """Thread-safe token bucket; `acquire()` blocks until a request may go."""

    def __init__(
        self,
        requests_per_minute: float = DEFAULT_REQUESTS_PER_MINUTE,
        *,
        burst: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if requests_per_minute <= 0:
            raise ValueError(f"requests_per_minute must be positive, got {requests_per_minute}")
        if burst is not None and burst < 1:
            raise ValueError(f"burst must be at least 1, got {burst}")
        self.rate_per_s = requests_per_minute / 60.0
        # A burst of one keeps requests evenly spaced; larger bursts let a cold start go at once.
        self.capacity = float(burst if burst is not None else 1)
        self._tokens = self.capacity
        self._clock = clock
        self._sleep = sleep
        self._updated = clock()
        self._paused_until = 0.0
        self._lock = threading.Lock()

    def _refill(self, now: float) -> None:
        elapsed = max(0.0, now - self._updated)
        self._tokens = min(self.capacity, self._tokens + elapsed * self.rate_per_s)
        self._updated = now

    def try_acquire(self) -> float:
        """Take a token if one is free: 0.0. Otherwise the seconds to wait before trying again."""
        with self._lock:
            now = self._clock()
            if now < self._paused_until:
                return self._paused_until - now
            self._refill(now)
            if self._tokens >= 1.0:
                self._tokens -= 1.0
                return 0.0
            return (1.0 - self._tokens) / self.rate_per_s

    def acquire(self) -> float:
        """Block until a token is taken; return the seconds spent waiting."""
        waited = 0.0
        while True:
            wait = self.try_acquire()
            if wait <= 0.0:
                return waited
            self._sleep(wait)
            waited += wait

    def defer(self, seconds: float) -> None:
        """Hold every caller for `seconds` (a 429's Retry-After); then one request may go at once
        and the rest follow at the steady rate (the saved-up burst is dropped)."""
        if seconds < 0:
            raise ValueError(f"seconds must be non-negative, got {seconds}")
        with self._lock:
            now = self._clock()
            self._paused_until = max(self._paused_until, now + seconds)
            self._tokens = 1.0
            self._updated = max(self._updated, self._paused_until)
