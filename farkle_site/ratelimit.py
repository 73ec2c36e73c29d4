"""Fixed-window counters for the throttles, shared by every process through Redis.

One request costs one round trip and one command, whatever number of throttles it passes: a
script that counts each with ``INCR`` and gives a window's first count its expiry, atomic on the
server, so processes never lose each other's hits (DRF's own throttles read a pickled history,
then write it back: two round trips, and concurrent requests overwrite each other).
Without ``CACHE_URL`` (development, the tests) the counters live in Django's cache of the process.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

import redis
from django.conf import settings
from django.core.cache import cache

from farkle_site import redis_wire

_PREFIX = "farkle:rl:"


@dataclass(frozen=True)
class Hit:
    """The count of a window after one more hit, and the seconds until the window ends."""

    count: int
    window_left: float


def _shared() -> redis.Redis | None:
    url = settings.CACHE_URL
    return (
        redis_wire.client(url)
        if url and url.startswith(("redis://", "rediss://", "unix://"))
        else None
    )


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
    address) would otherwise send one command for each.
    """
    names, ttls, lefts = _windows(windows, now)
    if _shared() is None or not names:
        counts = [_incr(name, ttl) for name, ttl in zip(names, ttls, strict=True)]
    else:
        _, counts = _count_shared(names, ttls)
    return [Hit(int(c), left) for c, left in zip(counts, lefts, strict=True)]


def read_and_hit_all(
    key: str, windows: Sequence[tuple[str, int]], *, now: float | None = None
) -> tuple[bytes | None, list[Hit]] | None:
    """The value the shared cache holds at ``key`` (its full key: None when there is none), read
    in the same round trip as ``hit_all`` counts ``windows``; None, having counted nothing, when
    the counters are not shared (no Redis ``CACHE_URL``).

    A game action reads its session from the cache, then counts its throttle there: a second
    round trip to Redis, where a thread of a busy web process waits and hands the GIL on twice
    (issue 15). Reading the session inside the counting script saves it.
    """
    if _shared() is None:
        return None
    names, ttls, lefts = _windows(windows, now)
    value, counts = _count_shared(names, ttls, read=key)
    return value, [Hit(int(c), left) for c, left in zip(counts, lefts, strict=True)]


def _windows(
    windows: Sequence[tuple[str, int]], now: float | None
) -> tuple[list[str], list[int], list[float]]:
    """Each counter's key in its current window, its expiry, and the seconds its window has left."""
    now = time.time() if now is None else now
    names, ttls, lefts = [], [], []
    for name, seconds in windows:
        window = math.floor(now / seconds)
        names.append(f"{name}:{window}")
        ttls.append(seconds + 1)
        lefts.append((window + 1) * seconds - now)
    return names, ttls, lefts


# Each key counted with INCR, the window's first count giving it its expiry. Redis runs a script
# atomically, so no other hit falls between the two commands and no key is ever left without an
# expiry; and the whole is one command on the wire (EVALSHA), where MULTI, SET NX, INCR and EXEC
# were four per key. When ARGV[1] is 1, KEYS[1] is a key to read first (a session), not to count.
_COUNT = """
local read = tonumber(ARGV[1])
local replies = {}
if read == 1 then
  replies[1] = redis.call('GET', KEYS[1])
end
for i = read + 1, #KEYS do
  local count = redis.call('INCR', KEYS[i])
  if count == 1 then
    redis.call('EXPIRE', KEYS[i], ARGV[i - read + 1])
  end
  replies[#replies + 1] = count
end
return replies
"""


def _count_shared(
    names: Sequence[str], ttls: Sequence[int], *, read: str | None = None
) -> tuple[bytes | None, list[int]]:
    """The value at ``read`` (when given) and the counts of ``names``, in one script."""
    keys = [f"{_PREFIX}{name}" for name in names]
    if read is not None:
        keys.insert(0, read)
    replies = redis_wire.script(settings.CACHE_URL, _COUNT, keys, [int(read is not None), *ttls])
    value = replies.pop(0) if read is not None else None
    return value, [int(count) for count in replies]


def count(name: str, seconds: int) -> int:
    """Count one more on ``name``, a counter that ends ``seconds`` after its first count."""
    return _incr(name, seconds)


def _incr(name: str, ttl: int) -> int:
    if _shared() is not None:
        return _count_shared([name], [ttl])[1][0]
    key = f"{_PREFIX}{name}"
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
