"""A day's daily found through the cache (issue 15 item 2): its fixed fields cached, its
counters (players, the close's closed_at and final_stats) always read fresh."""

import datetime

import pytest
import time_machine
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from daily.services import puzzles
from daily.services.puzzles import daily_get_or_create
from daily.services.rollover import puzzle_close
from play.models import Player, Puzzle
from tests.moments import NOON

from .helpers import play_greedy, start_daily

pytestmark = pytest.mark.django_db
DAY = NOON.date()


def _statements(work) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        work()
    return [q["sql"] for q in queries]


def test_a_daily_once_read_costs_one_lean_statement():
    first = daily_get_or_create(day=DAY, now=NOON)
    # Counted by hand: the counters' SELECT, by the puzzle's id, day and commitment.
    again = _statements(lambda: daily_get_or_create(day=DAY, now=NOON))
    assert len(again) == 1
    selected = again[0].split(" FROM ")[0]
    assert '"players"' in selected and '"commitment"' not in selected
    found = daily_get_or_create(day=DAY, now=NOON)
    assert (found.pk, found.commitment, found.closes_at) == (
        first.pk,
        first.commitment,
        first.closes_at,
    )


@time_machine.travel(NOON, tick=False)
def test_the_days_players_count_every_start_at_once():
    watcher = Client()
    seen = [watcher.get(f"/api/daily/{DAY}").json()["players"]]
    for _ in range(3):
        start_daily(Client(), DAY.isoformat())
        seen.append(watcher.get(f"/api/daily/{DAY}").json()["players"])
    # Counted independently: one official attempt per new browser.
    assert seen == [0, 1, 2, 3]


def test_the_close_shows_at_once_on_a_cached_daily():
    with time_machine.travel(NOON, tick=False):
        client = Client()
        play_greedy(client, start_daily(client, DAY.isoformat()))
        before = client.get(f"/api/daily/{DAY}").json()
    assert (before["status"], before["final_stats"]) == ("open", None)
    after_close = datetime.datetime(2026, 11, 30, 0, 2, tzinfo=datetime.UTC)
    with time_machine.travel(after_close, tick=False):
        puzzle_close(puzzle_id=Puzzle.objects.get(day=DAY).pk, now=after_close)
        shown = client.get(f"/api/daily/{DAY}").json()
    stored = Puzzle.objects.get(day=DAY)
    assert (shown["status"], shown["players"]) == ("closed", 1)
    assert shown["final_stats"] == stored.final_stats and stored.final_stats["players"] == 1


def test_a_cached_daily_whose_row_is_gone_is_read_again():
    stale = daily_get_or_create(day=DAY, now=NOON)
    Puzzle.objects.filter(pk=stale.pk).delete()
    # The cache still holds the deleted row (as after a database was created anew).
    assert cache.get(puzzles._cache_key(DAY)).pk == stale.pk
    fresh = daily_get_or_create(day=DAY, now=NOON)
    assert fresh.pk != stale.pk
    assert Puzzle.objects.get(day=DAY).pk == fresh.pk
    assert cache.get(puzzles._cache_key(DAY)).pk == fresh.pk


def test_the_key_names_the_database_itself():
    # A database created anew under the same name gets another oid, hence other keys.
    with connection.cursor() as cursor:
        cursor.execute("SELECT oid FROM pg_database WHERE datname = current_database()")
        (oid,) = cursor.fetchone()
    assert puzzles._cache_key(DAY) == (
        f"farkle:daily:{connection.settings_dict['NAME']}:{oid}:{DAY.isoformat()}"
    )


def test_a_shown_daily_is_a_copy_the_caller_may_change():
    first = daily_get_or_create(day=DAY, now=NOON)
    first.players = 99
    again = daily_get_or_create(day=DAY, now=NOON)
    assert (again is not first, again.players) == (True, 0)


def _tomorrow() -> Puzzle:
    return daily_get_or_create(day=DAY + datetime.timedelta(days=1), now=NOON)


@pytest.mark.parametrize("browser", ["fresh", "with a player"])
@pytest.mark.parametrize("copy_of", ["a row now gone", "an id now another puzzle's"])
@time_machine.travel(NOON, tick=False)
def test_a_start_on_a_kept_copy_not_of_the_row_that_stands_starts_on_the_day_itself(
    browser, copy_of
):
    client = Client()
    if browser == "with a player":
        # A player already, by a game of yesterday's (closed: practice from the archive).
        start_daily(client, (DAY - datetime.timedelta(days=1)).isoformat())
    daily_get_or_create(day=DAY, now=NOON)
    key = puzzles._cache_key(DAY)
    kept = cache.get(key)
    tomorrow = _tomorrow()
    if copy_of == "a row now gone":
        # As after a database restored in place from before the day began: the row and its
        # attempts are gone, while the shared cache still holds the old row.
        Puzzle.objects.filter(pk=kept.pk).delete()
    else:
        # As after a restore that numbered the rows otherwise: the copy's id is tomorrow's.
        kept.pk = tomorrow.pk
        cache.set(key, kept)

    started = start_daily(client, DAY.isoformat())

    stands = Puzzle.objects.get(day=DAY)
    assert (started["official"], stands.players, stands.attempts.count()) == (True, 1, 1)
    assert stands.attempts.get().pk == started["id"]
    assert Player.objects.count() == 1
    tomorrow.refresh_from_db()
    assert (tomorrow.players, tomorrow.attempts.count()) == (0, 0)
    # Dealt from the day's own commitment: the dice everyone rolls today.
    assert started["commitment"] == stands.commitment
