"""Each connection keeps one cursor for the hottest statements, from one statement to the next,
and replaces it with the connection or the time zone (farkle_site/postgres/base.py,
farkle_site/db.py ``statement_cursor``; issue 15)."""

from __future__ import annotations

from unittest import mock

import psycopg
import pytest
import time_machine
from django.db import DatabaseError, connection, connections
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from farkle_site.db import statement_cursor
from play import game_cache
from play.models import Attempt
from play.selectors.players import player_find
from tests.daily.helpers import act, greedy_action, start_daily
from tests.moments import NOON
from tests.processes import shared_database_url

pytestmark = pytest.mark.django_db(transaction=True)

INSTANT = "SELECT '2026-12-03 12:00:00+00'::timestamptz"


def _kept():
    with statement_cursor(connection) as cursor:
        return cursor.cursor


def test_the_kept_cursor_runs_one_statement_after_another():
    with statement_cursor(connection) as cursor:
        cursor.execute("SELECT 6 * 7")
        assert cursor.fetchone() == (42,)
        first = cursor.cursor
    with statement_cursor(connection) as cursor:
        cursor.execute("SELECT %s", [5])
        assert cursor.fetchone() == (5,)
        assert cursor.cursor is first

    assert not first.closed


def test_other_cursors_are_new_ones_as_before():
    with connection.cursor() as cursor:
        assert cursor.cursor is not _kept()
        made = cursor.cursor

    assert made.closed


def test_statements_on_the_kept_cursor_are_logged_as_any_other():
    _kept()
    with CaptureQueriesContext(connection) as captured, statement_cursor(connection) as cursor:
        cursor.execute("SELECT 1")

    assert [query["sql"] for query in captured.captured_queries] == ["SELECT 1"]


def test_a_block_inside_another_gets_a_cursor_of_its_own():
    with statement_cursor(connection) as outer:
        outer.execute("SELECT generate_series(1, 3)")
        assert outer.fetchone() == (1,)
        with statement_cursor(connection) as inner:
            assert inner.cursor is not outer.cursor
            inner.execute("SELECT 42")
            assert inner.fetchone() == (42,)
        assert inner.cursor.closed
        assert outer.fetchall() == [(2,), (3,)]

    assert _kept() is outer.cursor


def test_a_kept_cursor_something_closed_is_replaced():
    with statement_cursor(connection) as cursor:
        cursor.close()
        closed = cursor.cursor

    with statement_cursor(connection) as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
        assert cursor.cursor is not closed


def test_a_failed_statement_leaves_the_kept_cursor_usable():
    kept = _kept()
    with pytest.raises(DatabaseError), statement_cursor(connection) as cursor:
        cursor.execute("SELECT 1 / 0")

    with statement_cursor(connection) as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
        assert cursor.cursor is kept


def test_a_new_connection_gets_a_new_kept_cursor():
    old = _kept()
    connection.close()

    kept = _kept()
    assert kept is not old
    assert kept.connection is connection.connection
    with statement_cursor(connection) as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def test_a_connection_the_server_ended_is_replaced_with_its_kept_cursor():
    old = _kept()
    with statement_cursor(connection) as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    with psycopg.connect(shared_database_url(), autocommit=True) as admin:
        assert admin.execute("SELECT pg_terminate_backend(%s, 10000)", [pid]).fetchone()[0]

    # As a request starts (request_started): the health check replaces the connection.
    connection.health_check_done = False
    with statement_cursor(connection) as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] != pid
        assert cursor.cursor is not old


def test_a_time_zone_change_gives_values_as_a_new_cursor_reads_them():
    with statement_cursor(connection) as cursor:
        cursor.execute(INSTANT)
        aware = cursor.fetchone()[0]
    assert aware.tzinfo is not None

    with override_settings(USE_TZ=False):
        with connection.cursor() as cursor:
            cursor.execute(INSTANT)
            expected = cursor.fetchone()[0]
        with statement_cursor(connection) as cursor:
            cursor.execute(INSTANT)
            assert cursor.fetchone()[0] == expected

    assert expected.tzinfo is None


@time_machine.travel(NOON, tick=False)
def test_the_hottest_requests_make_no_cursor_once_warm(settings):
    # Their statements run on the kept cursor: a cursor made for each was 2 % of an action
    # (issue 15), and nothing else would show one of them going back to ``connection.cursor()``.
    settings.SESSION_ENGINE = "farkle_site.sessions"
    # (The tests' check of the game cache reads the row through the ORM after each action.)
    settings.FARKLE_CHECK_GAME_CACHE = False
    day = NOON.date().isoformat()
    client = Client()
    client.get("/api/daily/today")
    attempt = start_daily(client, day)  # the first start also reserves a block of player ids
    player_id = Attempt.objects.get(pk=attempt["id"]).player_id
    made = []
    wrapper = type(connections["default"])
    create_cursor = wrapper.create_cursor

    def counted(self, name=None):
        made.append(name)
        return create_cursor(self, name)

    with mock.patch.object(wrapper, "create_cursor", counted):
        # A fresh browser: today's daily, then its start.
        fresh = Client()
        assert fresh.get("/api/daily/today").status_code == 200
        start_daily(fresh, day)
        # A game action as its process remembers the game, then one it reads afresh (as another
        # process would).
        response = act(client, attempt, {"action": "roll"})
        assert response.status_code == 200, response.json()
        game_cache.clear()
        keep = greedy_action(response.json())
        response = act(client, response.json(), keep)
        assert response.status_code == 200, response.json()
        # A returning browser's player, which most of its requests read.
        assert player_find(user=None, player_id=player_id).pk == player_id

    assert made == []
