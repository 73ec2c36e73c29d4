"""Django's PostgreSQL backend, its per-request health check answered by the socket.

With ``CONN_HEALTH_CHECKS`` Django runs ``SELECT 1`` on a persistent connection before the first
query of every request, so that a connection the server dropped (a restart, a failover, an idle
timeout) is replaced instead of failing the request. That is one more round trip per request: a
sixth of ``/healthz``'s work and a few percent of a game action's, on both the web process and
Postgres (issue 15).

When Postgres ends a session (a restart, ``pg_terminate_backend``, an idle timeout) it sends a
FATAL error and closes, which leaves an end of file to read. So an idle connection whose socket
has nothing to read has not been ended, and is as usable as ``SELECT 1`` would find it. Anything
to read (that, or what a server rarely sends unasked: a notification, a setting changed by a
reload), a connection psycopg already knows broken, or a platform without ``poll`` (Windows),
falls back to Django's ``SELECT 1``. A peer that vanished without closing (a cut cable) shows
nothing to read: the request's own query then waits for the network's timeout, where the
``SELECT 1`` would have.

It also loads ``timestamptz`` values with psycopg's own loader (compiled, in psycopg's binary
package) rather than Django's, a Python subclass of psycopg's pure-Python loader that parses each
value with a regular expression and then sets its zone: 4.5 µs a value against 0.6, a third of
the CPU of a leaderboard page of 100 rows (issue 15). Django's loader only puts the connection's
zone on what psycopg reads in the session's zone. With ``USE_TZ`` and no ``TIME_ZONE`` of the
database's own, that zone is UTC, Django sets ``TimeZone`` to UTC on every connection, and
psycopg's loader already gives ``datetime.timezone.utc``: the very value Django's would.

And a closed cursor goes back to its connection, for the next ``connection.cursor()`` to take
up, instead of being thrown away: psycopg's cursor copies the connection's adapters when it is
made, and builds its adaptation of the parameters afresh for its first statement, where a kept
cursor running the same statement text again keeps both. A statement cost about 25 µs more of
CPU on a new cursor than on a kept one (in process, the game action's update), 2 % of an action
(issue 15). Each ``cursor()`` still gets a cursor no one else holds: one taken up is off the
connection's list until it is closed, cursors open at once are different ones, a cursor closed
twice goes back once, and Django's server-side (named) cursors are never kept. A kept cursor is
emptied of its results as ``close`` empties them, and dropped with its connection.
"""

from __future__ import annotations

import datetime
import functools
import select

import psycopg
from django.db.backends.postgresql import base
from psycopg import adapt, pq
from psycopg.pq import Format

_TIMESTAMPTZ = psycopg.adapters.types["timestamptz"].oid


class UtcTimestamptzLoader(adapt.Loader):
    """psycopg's own ``timestamptz`` loader, as the loader of a UTC connection. Django's
    ``create_cursor`` reads the registered loader's ``timezone`` to decide whether a cursor needs
    a loader of its own; psycopg's compiled class cannot carry the attribute (nor be
    subclassed), hence this thin wrapper."""

    timezone = datetime.UTC

    def __init__(self, oid: int, context: adapt.AdaptContext | None = None) -> None:
        super().__init__(oid, context)
        self._loader = psycopg.adapters.get_loader(_TIMESTAMPTZ, Format.TEXT)(oid, context)
        # The instance's attribute, found before the method below: psycopg calls the compiled
        # loader's own function for every value, with no Python frame of this class between.
        self.load = self._loader.load

    def load(self, data):
        return self._loader.load(data)


@functools.cache
def _utc_adapters(template: adapt.AdaptersMap) -> adapt.AdaptersMap:
    """Django's adapters of the connection (one shared map per setting), with the loader above."""
    adapters = adapt.AdaptersMap(template)
    adapters.register_loader(_TIMESTAMPTZ, UtcTimestamptzLoader)
    return adapters


def _quiet(connection) -> bool:
    """Whether psycopg's connection is open and idle with nothing sent to it."""
    if not hasattr(select, "poll"):
        return False
    pgconn = connection.pgconn
    if pgconn.status != pq.ConnStatus.OK or pgconn.transaction_status != pq.TransactionStatus.IDLE:
        return False
    poller = select.poll()
    poller.register(pgconn.socket, select.POLLIN | select.POLLPRI)
    return not poller.poll(0)


class _KeptCursor:
    """What the kept cursor classes below are."""


# What a kept cursor's ``_free`` holds while it waits on its connection's list.
_ON_THE_LIST: list = []


@functools.cache
def _kept_class(cursor_class: type) -> type:
    """``cursor_class`` (the class Django gives the connection's cursors) whose ``close`` hands
    the cursor back to its connection's list of free cursors."""

    class KeptCursor(cursor_class, _KeptCursor):
        # The list to go back to once closed, set when ``create_cursor`` hands the cursor out;
        # ``_ON_THE_LIST`` while it is back there; None for a cursor made some other way.
        _free: list | None = None

        def close(self) -> None:
            free = self._free
            if free is _ON_THE_LIST:
                # Closed again by its last holder: it is already back.
                return
            if free is None or self.closed:
                return super().close()
            # Only a cursor its connection can run a statement on again, as its connection made
            # it: one whose connection is not in the middle of a query (a stream, a copy) and
            # whose rows are still made the connection's way.
            if (
                self.connection.pgconn.transaction_status == pq.TransactionStatus.ACTIVE
                or self.row_factory is not self.connection.row_factory
            ):
                self._free = None
                return super().close()
            # Its results emptied as closing empties them.
            self._reset()
            self._free = _ON_THE_LIST
            free.append(self)

    return KeptCursor


class DatabaseWrapper(base.DatabaseWrapper):
    # The connection the free cursors belong to, and the list of them (``get_new_connection``).
    _free_cursors: tuple | None = None

    def get_new_connection(self, conn_params):
        connection = super().get_new_connection(conn_params)
        if not issubclass(connection.cursor_factory, _KeptCursor):
            # (A connection from a pool may have been given the class already.)
            connection.cursor_factory = _kept_class(connection.cursor_factory)
        # The connection's free cursors, last closed first (the likeliest to have run the
        # same statement as the next one).
        self._free_cursors = (connection, [])
        return connection

    def create_cursor(self, name=None):
        free = self._free_cursors
        if name is None and free is not None and free[0] is self.connection:
            cursors = free[1]
            cursor = cursors.pop() if cursors else super().create_cursor()
            cursor._free = cursors
            return cursor
        return super().create_cursor(name)

    def get_connection_params(self) -> dict:
        params = super().get_connection_params()
        # Only where Django's loader would put UTC on the values (USE_TZ, and no TIME_ZONE of
        # the database's own): its loader is then the same function, slower.
        if self.timezone is datetime.UTC and "context" in params:
            params["context"] = _utc_adapters(params["context"])
        return params

    def close_if_health_check_failed(self) -> None:
        if (
            self.connection is not None
            and self.health_check_enabled
            and not self.health_check_done
            and _quiet(self.connection)
        ):
            self.health_check_done = True
            return
        super().close_if_health_check_failed()
