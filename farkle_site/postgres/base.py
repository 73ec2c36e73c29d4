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
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg import pq


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
