"""Fixed-window counters for the throttles, shared by every process through Redis.

One request costs one round trip: a MULTI of ``SET key 0 EX window NX`` and ``INCR key``, atomic
on the server, so processes never lose each other's hits (DRF's own throttles read a pickled
history, then write it back: two round trips, and concurrent requests overwrite each other).
Without ``CACHE_URL`` (development, the tests) the counters live in Django's cache of the process.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

import redis
from django.conf import settings
from django.core.cache import cache

_PREFIX = "farkle:rl:"


@dataclass(frozen=True)
class Hit:
    """The count of a window after one more hit, and the seconds until the window ends."""

    count: int
    window_left: float


@functools.cache
def _redis(url: str) -> redis.Redis:
    return redis.Redis.from_url(url)


def _shared() -> redis.Redis | None:
    url = settings.CACHE_URL
    return _redis(url) if url and url.startswith(("redis://", "rediss://", "unix://")) else None


def hit(name: str, seconds: int, *, now: float | None = None) -> Hit:
    """Count one hit on ``name`` in the current window of ``seconds`` (windows start at multiples
    of ``seconds`` since the epoch)."""
    now = time.time() if now is None else now
    window = math.floor(now / seconds)
    # The key outlives its window by a second: a clock slightly behind still counts in it.
    count = _incr(f"{name}:{window}", seconds + 1)
    return Hit(count, (window + 1) * seconds - now)


def hit_all(windows: Sequence[tuple[str, int]], *, now: float | None = None) -> list[Hit]:
    """``hit`` on each ``(name, seconds)``, in one round trip to the shared cache.

    A view with several throttles (a start is counted per player and, for a new guest, per
    address) would otherwise send a ``MULTI`` for each. One script counts them all, as atomic on
    the server as ``MULTI`` is, and its one reply costs redis-py less than a transaction's.
    """
    now = time.time() if now is None else now
    names, ttls, lefts = [], [], []
    for name, seconds in windows:
        window = math.floor(now / seconds)
        names.append(f"{name}:{window}")
        ttls.append(seconds + 1)
        lefts.append((window + 1) * seconds - now)
    client = _shared()
    if client is None or not names:
        counts = [_incr(name, ttl) for name, ttl in zip(names, ttls, strict=True)]
    else:
        script = _hit_all_script(settings.CACHE_URL)
        counts = script(keys=[f"{_PREFIX}{name}" for name in names], args=ttls, client=client)
    return [Hit(int(c), left) for c, left in zip(counts, lefts, strict=True)]


# Each key as ``_incr`` counts it: created at 0 with its expiry unless it exists, then counted.
_HIT_ALL = """
local counts = {}
for i, key in ipairs(KEYS) do
  redis.call('SET', key, 0, 'EX', ARGV[i], 'NX')
  counts[i] = redis.call('INCR', key)
end
return counts
"""


@functools.cache
def _hit_all_script(url: str):
    # redis-py sends the script's SHA (EVALSHA), loading the script once when Redis lacks it.
    return _redis(url).register_script(_HIT_ALL)


def count(name: str, seconds: int) -> int:
    """Count one more on ``name``, a counter that ends ``seconds`` after its first count."""
    return _incr(name, seconds)


def _incr(name: str, ttl: int) -> int:
    key = f"{_PREFIX}{name}"
    client = _shared()
    if client is not None:
        with client.pipeline(transaction=True) as pipe:
            pipe.set(key, 0, ex=ttl, nx=True)
            pipe.incr(key)
            _, value = pipe.execute()
        return int(value)
    cache.add(key, 0, timeout=ttl)
    try:
        return cache.incr(key)
    except ValueError:
        # Expired between the two calls: this count starts it again.
        cache.add(key, 1, timeout=ttl)
        return 1


def get(name: str) -> str | None:
    """A small shared value (a lock's end), or None."""
    client = _shared()
    key = f"{_PREFIX}{name}"
    if client is not None:
        value = client.get(key)
        return value.decode() if value is not None else None
    return cache.get(key)


def put(name: str, value: str, seconds: float) -> None:
    """Store a small shared value for ``seconds``."""
    client = _shared()
    key = f"{_PREFIX}{name}"
    ttl = max(1, math.ceil(seconds))
    if client is not None:
        client.set(key, value, ex=ttl)
    else:
        cache.set(key, value, timeout=ttl)


def forget(*names: str) -> None:
    """Delete shared values."""
    client = _shared()
    keys = [f"{_PREFIX}{name}" for name in names]
    if client is not None:
        client.delete(*keys)
    else:
        cache.delete_many(keys)
