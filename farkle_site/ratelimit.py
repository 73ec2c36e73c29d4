"""Fixed-window counters for the throttles and the login back-off, shared by every process.

With the Redis cache (``CACHE_URL``: production, the tests), one registered script counts a hit
with ``INCR`` and gives a window's first hit its expiry, atomically on the server: processes never
lose each other's hits and no key is left without an expiry (DRF's own throttles read a pickled
history, then write it back, so concurrent requests overwrite each other). Without it (``make
run``: one process, SQLite), Django's cache of the process counts.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

_PREFIX = "farkle:rl:"

# KEYS[1] counted; ARGV[1] its expiry in seconds, set by its first count.
_COUNT = """
local count = redis.call('INCR', KEYS[1])
if count == 1 then
  redis.call('EXPIRE', KEYS[1], ARGV[1])
end
return count
"""


@dataclass(frozen=True)
class Hit:
    """The count of a window after one more hit, and the seconds until the window ends."""

    count: int
    window_left: float


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


def _redis_cache() -> bool:
    return settings.CACHES["default"]["BACKEND"] == "django_redis.cache.RedisCache"


def _incr(name: str, ttl: int) -> int:
    key = f"{_PREFIX}{name}"
    if _redis_cache():
        # The cache's own client (django-redis's public accessor); the script is sent by its
        # digest (EVALSHA), and loaded again by redis-py if the server has forgotten it.
        from django_redis import get_redis_connection

        # The cache's own key for it (``make_key``), so that ``forget`` deletes it through the
        # cache as any other value.
        script = get_redis_connection("default").register_script(_COUNT)
        return int(script(keys=[cache.make_key(key)], args=[ttl]))
    cache.add(key, 0, timeout=ttl)
    try:
        return cache.incr(key)
    except ValueError:
        # Expired between the two calls: this count starts it again.
        cache.add(key, 1, timeout=ttl)
        return 1


def get(name: str) -> str | None:
    """A small shared value (a lock's end), or None."""
    return cache.get(f"{_PREFIX}{name}")


def put(name: str, value: str, seconds: float) -> None:
    """Store a small shared value for ``seconds``."""
    cache.set(f"{_PREFIX}{name}", value, timeout=max(1, math.ceil(seconds)))


def forget(*names: str) -> None:
    """Delete shared values."""
    cache.delete_many([f"{_PREFIX}{name}" for name in names])
