"""Django's Redis cache with one ``redis.Redis`` client per connection pool, reused.

Django 5.2's ``RedisCacheClient.get_client`` builds a new ``redis.Redis`` for every command
(``cache.get``, ``cache.set``, each session read); the pool, and so the sockets, are shared, but
redis-py 8's ``Redis.__init__`` rebuilds its table of about 170 response callbacks each time:
0.06–0.09 ms of CPU per command, about 0.25 ms per game action (issue 15). Neither Django 5.2.19
(the newest 5.2) nor redis-py 8.1.0 (the newest) changes that, and Django 6 needs Python 3.12. A
``redis.Redis`` is safe to share between threads (each command borrows a connection from the
pool), so one per pool serves the whole process, gthread workers included.
"""

from __future__ import annotations

import pickle
import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient, RedisSerializer

from farkle_site import redis_wire


class PickleFirstSerializer(RedisSerializer):
    """Django's Redis serializer, reading a pickle without trying it as an integer first.

    Django stores integers as their digits and everything else pickled, and reads a value by
    trying ``int()`` first: for a pickle (the session that every request reads) that raises a
    ValueError whose message holds the repr of the whole value (issue 15: 0.6 % of a game
    action's instructions). A pickle of protocol 2 or later (Django writes the highest) starts
    with the byte 0x80, which ``int()`` never accepts, so the answer is the same.
    """

    def loads(self, data: bytes) -> Any:
        if data[:1] == b"\x80":
            return pickle.loads(data)
        return super().loads(data)


class ReusedRedisCacheClient(RedisCacheClient):
    """Django's client, handing out one ``redis.Redis`` per connection pool instead of one per
    command; and, on one server without options (the site's settings), sending its gets and sets
    on each thread's own connection (farkle_site/redis_wire.py): every request reads its session
    with a get, unless its throttles' script reads it, and a fresh browser's first game caches
    its new session with a set (the midnight rush)."""

    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        if "serializer" not in options:
            self._serializer = PickleFirstSerializer()
        self._clients: dict[int, Any] = {}
        self._making = threading.Lock()
        # With options (a pool class, a serializer, a parser), Django's client makes the
        # connections otherwise than a URL alone says: it then sends every command.
        self._wire = servers[0] if len(servers) == 1 and not options else None

    def _get_connection_pool(self, write: bool) -> Any:
        # Django makes a missing pool without a lock: two threads' first commands could each
        # make one, the second replacing the first, and each pool then get a client of its own.
        pool = self._pools.get(self._get_connection_pool_index(write))
        if pool is not None:
            return pool
        with self._making:
            return super()._get_connection_pool(write)

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        """The pool's client, made once, on the pool's first command (the pool picks the server)."""
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            with self._making:
                client = self._clients.get(id(pool))
                if client is None:
                    client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client

    def get(self, key: Any, default: Any) -> Any:
        if self._wire is None:
            return super().get(key, default)
        value = redis_wire.command(self._wire, "GET", key)
        return default if value is None else self._serializer.loads(value)

    def set(self, key: Any, value: Any, timeout: int | None) -> None:
        if self._wire is None:
            return super().set(key, value, timeout)
        # As Django's client: no timeout keeps the key for good, and one of 0 deletes it.
        if timeout == 0:
            redis_wire.command(self._wire, "DEL", key)
            return None
        expiry = () if timeout is None else ("EX", timeout)
        redis_wire.command(self._wire, "SET", key, self._serializer.dumps(value), *expiry)
        return None


class RedisCache(DjangoRedisCache):
    """``django.core.cache.backends.redis.RedisCache`` with the client above."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusedRedisCacheClient

    def validate_key(self, key: str) -> None:
        # Django's base class warns, at every get and set, of keys memcached would refuse (over
        # 250 characters, spaces, control characters), by a regex behind a lazy object: 1 % of a
        # game action. Redis takes any key, and this backend's keys never go to memcached.
        return None

    def shares_server(self, url: str | None) -> bool:
        """Whether this cache is the one Redis server at ``url`` (the throttles' counters)."""
        return self._servers == [url]

    def decode(self, raw: bytes) -> Any:
        """A value as ``get`` gives it, from the bytes Redis holds for it (read some other way:
        the session store reads its session in the throttles' script, farkle_site/sessions.py)."""
        return self._cache._serializer.loads(raw)
