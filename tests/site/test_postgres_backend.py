"""The project's Postgres backend checks a persistent connection's health from its socket:
a connection the server ended is still replaced before a request uses it, and a healthy idle
one costs no query (farkle_site/postgres/base.py)."""

from __future__ import annotations

import datetime

import psycopg
import pytest
from django.db import OperationalError, connection
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.processes import shared_database_url

pytestmark = pytest.mark.django_db(transaction=True)


def _as_a_request_starts() -> None:
    """What Django does to the connection when a request starts (request_started)."""
    connection.health_check_done = False
    connection.close_if_health_check_failed()


def _end_from_the_server(pid: int) -> None:
    """End a backend as a restart or an administrator does: it sends FATAL, then closes."""
    with psycopg.connect(shared_database_url(), autocommit=True) as admin:
        # With a timeout, Postgres answers once the backend has gone.
        assert admin.execute("SELECT pg_terminate_backend(%s, 10000)", [pid]).fetchone()[0]


def _backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def test_a_connection_the_server_ended_is_replaced_before_the_request_uses_it():
    ended = _backend_pid()
    _end_from_the_server(ended)

    _as_a_request_starts()

    assert _backend_pid() != ended


def test_without_the_check_the_ended_connection_fails_the_request():
    # The control for the test above: the check is what saves the request.
    _end_from_the_server(_backend_pid())
    connection.health_check_done = True

    try:
        with pytest.raises(OperationalError):
            _backend_pid()
    finally:
        # Django closes a connection an error made unusable as the request ends.
        connection.close()


def test_a_healthy_idle_connection_is_checked_without_a_query(monkeypatch):
    pid = _backend_pid()
    sent = []
    real_cursor = connection.connection.cursor

    def cursor(*args, **kwargs):
        sent.append(args)
        return real_cursor(*args, **kwargs)

    monkeypatch.setattr(connection.connection, "cursor", cursor)

    _as_a_request_starts()
    queried = list(sent)

    assert (queried, connection.health_check_done, _backend_pid()) == ([], True, pid)


def test_timestamps_are_read_by_psycopgs_own_loader():
    from psycopg.pq import Format

    from farkle_site.postgres.base import UtcTimestamptzLoader

    with connection.cursor() as cursor:
        # Django registers a loader of its own on a cursor whose connection's disagrees.
        loader = cursor.cursor.adapters.get_loader(1184, Format.TEXT)
    assert loader is UtcTimestamptzLoader


@settings(max_examples=200, deadline=None)
@given(
    moment=st.datetimes(
        min_value=datetime.datetime(1, 1, 2),
        max_value=datetime.datetime(9999, 12, 30),
        timezones=st.sampled_from([datetime.UTC, datetime.timezone(datetime.timedelta(hours=-7))]),
    )
)
def test_a_timestamp_reads_back_as_djangos_loader_reads_it(moment):
    from django.db.backends.postgresql.psycopg_any import BaseTzLoader

    class DjangoLoader(BaseTzLoader):
        timezone = datetime.UTC

    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::timestamptz, %s::timestamptz::text", [moment, moment])
        read, text = cursor.fetchone()
    # The same instant, in UTC, as Django's own loader gives it from the same text.
    expected = DjangoLoader(1184, connection.connection).load(text.encode())
    assert read == expected == moment
    assert read.tzinfo is expected.tzinfo is datetime.UTC
    assert (read.isoformat(), read.utcoffset()) == (expected.isoformat(), expected.utcoffset())
