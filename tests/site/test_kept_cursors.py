"""A closed cursor goes back to its connection for the next ``connection.cursor()`` instead of
being thrown away, and never to two holders at once (farkle_site/postgres/base.py, issue 15)."""

from __future__ import annotations

import psycopg
import pytest
from django.db import DatabaseError, connection, transaction
from django.utils import timezone
from psycopg.rows import dict_row

from daily.models import Player

pytestmark = pytest.mark.django_db(transaction=True)


def _psycopg_cursor():
    """psycopg's cursor under the next cursor Django hands out, closed again."""
    with connection.cursor() as wrapper:
        return wrapper.cursor


def _value(sql: str):
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return cursor.fetchone()[0]


def test_a_closed_cursor_is_taken_up_again_and_runs_statements():
    first = _psycopg_cursor()

    with connection.cursor() as cursor:
        assert cursor.cursor is first
        cursor.execute("SELECT 6 * 7")
        assert cursor.fetchone() == (42,)


def test_a_kept_cursor_holds_no_results_once_closed():
    with connection.cursor() as cursor:
        cursor.execute("SELECT generate_series(1, 3)")
        kept = cursor.cursor

    assert kept.pgresult is None
    assert kept.rowcount == -1


def test_cursors_open_at_once_are_different_ones_and_keep_their_rows():
    _psycopg_cursor()
    with connection.cursor() as outer:
        outer.execute("SELECT generate_series(1, 3)")
        assert outer.fetchone() == (1,)
        with connection.cursor() as inner:
            assert inner.cursor is not outer.cursor
            inner.execute("SELECT 42")
            assert inner.fetchone() == (42,)
        assert outer.fetchall() == [(2,), (3,)]


def test_a_cursor_closed_twice_goes_back_once():
    with connection.cursor() as cursor:
        cursor.close()

    with connection.cursor() as one, connection.cursor() as other:
        assert one.cursor is not other.cursor
        one.execute("SELECT 1")
        other.execute("SELECT 2")
        assert (one.fetchone(), other.fetchone()) == ((1,), (2,))


def test_a_cursor_whose_statement_failed_is_taken_up_again():
    with pytest.raises(DatabaseError), connection.cursor() as cursor:
        failed = cursor.cursor
        cursor.execute("SELECT 1 / 0")

    with connection.cursor() as cursor:
        assert cursor.cursor is failed
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def test_no_cursor_outlives_its_connection():
    old = _psycopg_cursor()
    connection.close()

    with connection.cursor() as cursor:
        assert cursor.cursor is not old
        assert cursor.cursor.connection is connection.connection
        cursor.execute("SELECT 1")


def test_a_cursor_given_its_own_row_factory_is_not_kept():
    with connection.cursor() as cursor:
        cursor.cursor.row_factory = dict_row
        changed = cursor.cursor

    assert changed.closed
    with connection.cursor() as cursor:
        assert cursor.cursor is not changed
        cursor.execute("SELECT 1 AS one")
        assert cursor.fetchone() == (1,)


def test_a_cursor_closed_in_the_middle_of_a_stream_is_not_kept():
    with connection.cursor() as cursor:
        streaming = cursor.cursor
        rows = streaming.stream("SELECT generate_series(1, 1000)")
        assert next(rows) == (1,)
    rows.close()

    assert streaming.closed
    assert _value("SELECT 5") == 5
    assert _psycopg_cursor() is not streaming


def test_named_cursors_are_not_kept_and_iterate_as_before():
    for name in ("Ann", "Bob", "Cyd"):
        Player.objects.create(display_name=name, created_at=timezone.now())
    with transaction.atomic():
        # Inside a transaction, a chunked read goes through a server-side (named) cursor.
        names = [p.display_name for p in Player.objects.order_by("pk").iterator(chunk_size=1)]

    assert names == ["Ann", "Bob", "Cyd"]
    free = connection._free_cursors[1]
    assert free
    assert not any(isinstance(cursor, psycopg.ServerCursor) for cursor in free)
