"""The site's hottest Redis commands, sent on each thread's own connection.

A game action's session read and throttle (one script), a start's throttles (the same script)
and a fresh browser's session write (a ``SET``) bypass ``redis.Redis``, whose command path (the
pool's lock, the retry's closures, and redis-py 8's metric hooks, looked up again at every
command when no metrics are enabled) cost more than the command itself: in process, the
throttles' ``read_and_hit_all`` took 83 µs of CPU through the client against 45 this way, and
Django's ``cache.set`` of a session 108 µs against 51 (issue 15).

Each thread keeps a connection per server, made on its first command with the settings of the
server's URL (``redis.Redis.from_url``: TLS, a Unix socket, timeouts, the database). A connection
the server dropped (a restart, an idle timeout) is made again and the command sent once more. A
server that cannot be reached is a ``redis.ConnectionError`` at once (the API's 503), where
redis-py's client tries ten more times, backing off up to a second before each, holding the
request's thread all the while.
"""

from __future__ import annotations

import functools
import hashlib
import os
import threading
from collections.abc import Callable, Sequence
from typing import Any

import redis


@functools.cache
def client(url: str) -> redis.Redis:
    """redis-py's client of ``url`` (its pool), for everything but the hottest commands."""
    return redis.Redis.from_url(url)


class _Connections(threading.local):
    def __init__(self) -> None:
        self.by_url: dict[str, redis.connection.AbstractConnection] = {}


_connections = _Connections()


def _forget_connections() -> None:
    # A forked child (a Celery worker's pool) must not share its parent's sockets.
    _connections.by_url = {}


os.register_at_fork(after_in_child=_forget_connections)


def command(url: str, *args: Any) -> Any:
    """The reply of one command, as the connection parses it (no response callbacks: bytes,
    integers, lists), sent on this thread's own connection to ``url``."""
    return _on_own_connection(url, lambda connection: _send(connection, args))


def script(url: str, source: str, keys: Sequence[str], args: Sequence[Any]) -> Any:
    """The reply of a Lua script, sent by its SHA; its source when the server lacks it (a
    restart), which the server then keeps."""
    sha = _sha(source)

    def run(connection: redis.connection.AbstractConnection) -> Any:
        try:
            return _send(connection, ("EVALSHA", sha, len(keys), *keys, *args))
        except redis.exceptions.NoScriptError:
            return _send(connection, ("EVAL", source, len(keys), *keys, *args))

    return _on_own_connection(url, run)


@functools.cache
def _sha(source: str) -> str:
    return hashlib.sha1(source.encode()).hexdigest()


def _on_own_connection(url: str, run: Callable[[redis.connection.AbstractConnection], Any]) -> Any:
    connection = _connections.by_url.get(url)
    if connection is None:
        pool = client(url).connection_pool
        connection = _connections.by_url[url] = pool.connection_class(**pool.connection_kwargs)
    try:
        return run(connection)
    except redis.ConnectionError:
        return run(connection)


def _send(connection: redis.connection.AbstractConnection, args: Sequence[Any]) -> Any:
    try:
        connection.send_command(*args)
        return connection.read_response()
    except redis.ResponseError:
        raise  # a whole reply was read: the connection is sound
    except BaseException:
        # Closed, so that nothing left unread becomes the next command's reply; the next
        # command connects again.
        connection.disconnect()
        raise
