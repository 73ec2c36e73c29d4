"""Fixed-window counters for the throttles, shared by every process through Redis.

One request costs one round trip and one command: a script that counts with ``INCR`` and gives
the window's first count its expiry, atomic on the server, so processes never lose each other's
hits (DRF's own throttles read a pickled history, then write it back: two round trips, and
concurrent requests overwrite each other).
Without ``CACHE_URL`` (development, the tests) the counters live in Django's cache of the process.
"""

from __future__ import annotations

import functools
import math
import time
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


# The first hit of a window starts its expiry; Redis runs a script atomically, so no other hit
# can fall between the two commands and no key is ever left without one.
_COUNT = """
local count = redis.call('INCR', KEYS[1])
if count == 1 then
    redis.call('EXPIRE', KEYS[1], ARGV[1])
end
return count
"""


@functools.cache
def _count_script(client: redis.Redis) -> redis.commands.core.Script:
    # EVALSHA: one command on the wire, the script loaded once per server (again after a restart).
    return client.register_script(_COUNT)


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


def count(name: str, seconds: int) -> int:
    """Count one more on ``name``, a counter that ends ``seconds`` after its first count."""
    return _incr(name, seconds)


def _incr(name: str, ttl: int) -> int:
    key = f"{_PREFIX}{name}"
    client = _shared()
    if client is not None:
        return int(_count_script(client)(keys=[key], args=[ttl]))
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
