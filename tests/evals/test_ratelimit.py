"""The token bucket on a fake clock: steady rate, burst, Retry-After pauses, many threads."""

from __future__ import annotations

import threading

import pytest

from clustergen.evals.ratelimit import DEFAULT_REQUESTS_PER_MINUTE, TokenBucket


class FakeClock:
    """A clock that moves only when something sleeps on it."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []
        self.lock = threading.Lock()

    def __call__(self) -> float:
        with self.lock:
            return self.now

    def sleep(self, seconds: float) -> None:
        with self.lock:
            self.sleeps.append(seconds)
            self.now += seconds


def _bucket(rpm: float = 60.0, burst: int | None = None) -> tuple[TokenBucket, FakeClock]:
    clock = FakeClock()
    return TokenBucket(rpm, burst=burst, clock=clock, sleep=clock.sleep), clock


def test_steady_rate_spaces_requests_evenly() -> None:
    bucket, clock = _bucket(rpm=30.0)  # one every 2 s
    start = clock.now
    waits = [bucket.acquire() for _ in range(4)]
    assert waits == [0.0, pytest.approx(2.0), pytest.approx(2.0), pytest.approx(2.0)]
    assert clock.now - start == pytest.approx(6.0)


def test_burst_goes_at_once_then_the_rate_holds() -> None:
    bucket, clock = _bucket(rpm=60.0, burst=3)
    assert [bucket.try_acquire() for _ in range(3)] == [0.0, 0.0, 0.0]
    assert bucket.try_acquire() == pytest.approx(1.0)
    clock.sleep(10.0)  # idle time refills to the burst, not beyond
    assert [bucket.try_acquire() for _ in range(3)] == [0.0, 0.0, 0.0]
    assert bucket.try_acquire() > 0


def test_forty_a_minute_by_default() -> None:
    bucket, clock = _bucket(rpm=DEFAULT_REQUESTS_PER_MINUTE)
    start = clock.now
    for _ in range(41):
        bucket.acquire()
    assert clock.now - start == pytest.approx(60.0)


def test_retry_after_pauses_everyone_then_one_goes() -> None:
    bucket, clock = _bucket(rpm=60.0, burst=5)
    bucket.defer(30.0)
    assert bucket.try_acquire() == pytest.approx(30.0)
    clock.sleep(30.0)
    assert bucket.try_acquire() == 0.0  # the retry itself
    assert bucket.try_acquire() == pytest.approx(1.0)  # the saved-up burst is gone
    bucket.defer(5.0)
    bucket.defer(2.0)  # a shorter pause does not cut a longer one short
    assert bucket.try_acquire() == pytest.approx(5.0)


def test_threads_share_the_bucket() -> None:
    bucket, clock = _bucket(rpm=120.0)  # one every 0.5 s
    start = clock.now
    threads = [threading.Thread(target=bucket.acquire) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # Eight tokens at 2 a second: the last cannot be taken before 3.5 s of (fake) time.
    assert clock.now - start >= 3.5 - 1e-9


@pytest.mark.parametrize(("rpm", "burst"), [(0, None), (-1, None), (60, 0)])
def test_bad_settings(rpm: float, burst: int | None) -> None:
    with pytest.raises(ValueError, match="must be"):
        TokenBucket(rpm, burst=burst)
    with pytest.raises(ValueError, match="non-negative"):
        TokenBucket().defer(-1)
