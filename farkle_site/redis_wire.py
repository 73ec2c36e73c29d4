"""The site's hottest Redis commands, sent on each thread's own connection.

A game action's session read and throttle (one script), a start's throttles (the same script)
and a fresh browser's session write (a ``SET``) bypass ``redis.Redis``, whose command path (the
pool's lock, the retry's closures, and redis-py 8's metric hooks, looked up again at every
command when no metrics are enabled) cost more than the command itself: in process, the
throttles' ``read_and_hit_all`` took 83 µs of CPU through the client against 45 this way, and
Django's ``cache.set`` of a session 108 µs against 51 (issue 15).

Each thread keeps a connection per server, made on its first command with the settings of the
server's URL (``redis.Redis.from_url``: TLS, a Unix socket, timeouts, the database), outside the
client's pool, so without its maintenance notifications (a managed Redis moving a shard: such
a connection reconnects when the old node drops it). A connection that was open before the
command and fails (the server restarted, or closed it idle) is made again and the command sent
once more, as the pool would have found the dead socket before sending; the rare failure after
the server ran a script but before its reply came back counts that script's hits twice. A
connection that fails as it is made is a ``redis.ConnectionError`` at once (the API's 503), as
with redis-py's client.
"""

from __future__ import annotations

import functools
import hashlib
import os
import threading
from collections.abc import Callable, Sequence
from typing import Any

import redis
from redis.maint_notifications import MaintNotificationsConfig


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
    """The reply of a Lua script, sent by its SHA; loaded first when the server lacks it (a
    restart), as redis-py's ``Script`` does (``SCRIPT LOAD``: a script ``EVAL`` sends may be
    evicted)."""
    sha = _sha(source)
    call = ("EVALSHA", sha, len(keys), *keys, *args)

    def run(connection: redis.connection.AbstractConnection) -> Any:
        try:
            return _send(connection, call)
        except redis.exceptions.NoScriptError:
            _send(connection, ("SCRIPT", "LOAD", source))
            return _send(connection, call)

    return _on_own_connection(url, run)


@functools.cache
def _sha(source: str) -> str:
    return hashlib.sha1(source.encode()).hexdigest()


def _on_own_connection(url: str, run: Callable[[redis.connection.AbstractConnection], Any]) -> Any:
    connection = _connections.by_url.get(url)
    if connection is None:
        connection = _connections.by_url[url] = _connect(url)
    was_open = connection.is_connected
    try:
        return run(connection)
    except redis.ConnectionError:
        if not was_open:
            raise
        return run(connection)


def _connect(url: str) -> redis.connection.AbstractConnection:
    pool = client(url).connection_pool
    settings = dict(pool.connection_kwargs)
    # The pool's handler of maintenance notifications tracks the pool's own connections.
    settings.pop("maint_notifications_pool_handler", None)
    settings["maint_notifications_config"] = MaintNotificationsConfig(enabled=False)
    return pool.connection_class(**settings)


def _send(connection: redis.connection.AbstractConnection, args: Sequence[Any]) -> Any:
    # On any error but a whole error reply (a ResponseError), redis-py's connection closes
    # itself as it sends or reads, so that nothing left unread becomes the next command's
    # reply; the next command connects again.
    connection.send_command(*args)
    return connection.read_response()
