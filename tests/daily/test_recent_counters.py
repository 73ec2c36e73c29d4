"""The count of players a day's page shows ("n played today"): read from the database at most
once a second per process while the day is in play (the midnight rush reads it with every fresh
browser), with this process's own starts counted at once."""

import datetime

import pytest
import time_machine
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from play.models import Player, Puzzle
from play.services.attempts import attempt_start
from tests.moments import NOON

from .helpers import start_daily

# Committed as in production: what a request reads inside a transaction is never kept.
pytestmark = pytest.mark.django_db(transaction=True)
DAY = NOON.date().isoformat()


def _players(path: str = "/api/daily/today") -> int:
    return Client().get(path).json()["players"]


def _counter_reads(queries) -> list[str]:
    return [
        q["sql"] for q in queries if q["sql"].startswith("SELECT") and "daily_puzzle" in q["sql"]
    ]


def _another_process_counts(players: int) -> None:
    # What other web processes' starts leave in the row, unseen by this one.
    Puzzle.objects.filter(day=DAY).update(players=players)


@time_machine.travel(NOON, tick=False)
def test_within_its_window_todays_count_is_not_read_again(settings):
    settings.FARKLE_RECENT_COUNTERS_MS = 3_600_000
    assert _players() == 0
    _another_process_counts(5)
    with CaptureQueriesContext(connection) as queries:
        assert _players() == 0
        assert _players(f"/api/daily/{DAY}") == 0
    assert _counter_reads(queries) == []


@time_machine.travel(NOON, tick=False)
def test_past_its_window_todays_count_is_read_again(settings):
    assert _players() == 0
    _another_process_counts(5)
    settings.FARKLE_RECENT_COUNTERS_MS = 0
    with CaptureQueriesContext(connection) as queries:
        assert _players() == 5
    assert len(_counter_reads(queries)) == 1


@time_machine.travel(NOON, tick=False)
def test_this_process_starts_show_at_once(settings):
    settings.FARKLE_RECENT_COUNTERS_MS = 3_600_000
    assert _players() == 0
    # A fresh browser (its guest and game in one statement), then a player who has one already
    # (the ORM's way).
    start_daily(Client(), DAY)
    player = Player.objects.create(display_name="Known Player", created_at=NOON)
    attempt_start(player=player, puzzle=Puzzle.objects.get(day=DAY), now=NOON)
    with CaptureQueriesContext(connection) as queries:
        assert _players() == 2
    assert _counter_reads(queries) == []
    assert Puzzle.objects.get(day=DAY).players == 2


@time_machine.travel(NOON, tick=False)
def test_a_start_rolled_back_is_not_counted(settings):
    settings.FARKLE_RECENT_COUNTERS_MS = 3_600_000
    assert _players() == 0
    player = Player.objects.create(display_name="Known Player", created_at=NOON)
    with pytest.raises(RuntimeError), transaction.atomic():
        attempt_start(player=player, puzzle=Puzzle.objects.get(day=DAY), now=NOON)
        raise RuntimeError("the caller's transaction fails after the start")
    assert _players() == 0
    assert Puzzle.objects.get(day=DAY).players == 0


def test_a_day_no_longer_in_play_is_read_each_time(settings):
    settings.FARKLE_RECENT_COUNTERS_MS = 3_600_000
    with time_machine.travel(NOON, tick=False):
        assert _players() == 0
    # The next day: the day before is in its grace, then closed; its count is read each time.
    with time_machine.travel(NOON + datetime.timedelta(days=1), tick=False):
        path = f"/api/daily/{DAY}"
        assert _players(path) == 0
        _another_process_counts(3)
        assert _players(path) == 3
