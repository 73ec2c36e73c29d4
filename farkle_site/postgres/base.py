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

And each connection keeps one cursor for the hottest statements (``statement_cursor``):
psycopg's cursor copies the connection's adapters when it is made, and adapts its first
statement's parameters afresh; a kept cursor skips the first, and the second when its last
statement was the same query object. The same statement cost about 25 µs more of CPU on a new
cursor than on a kept one (in process, the game action's update): 2 % of an action (issue 15).
"""

from __future__ import annotations

import datetime
import functools
import select
from contextlib import contextmanager

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


class DatabaseWrapper(base.DatabaseWrapper):
    # The connection's kept cursor (``statement_cursor``), dropped with the connection.
    _kept = None
    # Whether a ``statement_cursor`` block holds the kept cursor now.
    _kept_held = False

    @contextmanager
    def statement_cursor(self):
        """The connection's own cursor, kept from one statement to the next, for a statement
        whose results are read before any other statement runs on it (``farkle_site.db``'s
        ``statement_cursor``). A block inside another one's gets a new cursor, closed after it,
        as ``cursor()`` gives: the outer block's results stay. Wrapped as ``cursor()`` wraps a
        cursor each time, so that Django's query logging and execute wrappers see it; replaced
        with its connection (``_close``, which a health check's replacement goes through too),
        if something closed it, and when the time zone changes."""
        if self._kept_held:
            with self.cursor() as cursor:
                yield cursor
            return
        self.close_if_health_check_failed()
        self.ensure_connection()
        kept = self._kept
        if kept is None or kept.closed:
            with self.wrap_database_errors:
                kept = self._kept = self.create_cursor()
        self._kept_held = True
        try:
            yield self._prepare_cursor(kept)
        finally:
            self._kept_held = False

    def _close(self):
        # The kept cursor goes with its connection (back to a pool, it may serve another thread).
        self._kept = None
        return super()._close()

    def ensure_timezone(self):
        # Django registers a time zone's loader per cursor, when it makes the cursor.
        self._kept = None
        return super().ensure_timezone()

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
