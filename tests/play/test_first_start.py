"""A fresh browser's first game (the midnight rush): its guest, created by the one service that
creates players, its official attempt, and its session naming the guest."""

import datetime
import itertools
import uuid

import pytest
import time_machine
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from play.models import Attempt, Player, Puzzle
from play.services import players as players_service
from play.services.players import player_create
from tests.daily.helpers import post, start_daily
from tests.moments import NOON

pytestmark = pytest.mark.django_db
DAY = NOON.date().isoformat()
ENGINES = ["django.contrib.sessions.backends.db", "django.contrib.sessions.backends.cached_db"]


@pytest.mark.parametrize("engine", ENGINES)
@time_machine.travel(NOON, tick=False)
def test_a_fresh_browsers_guest_and_official_game_are_stored_and_counted(settings, engine):
    settings.SESSION_ENGINE = engine
    client = Client()
    client.get("/api/daily/today")  # the daily's page: cookies, and the daily in the cache
    attempt = start_daily(client, DAY)
    guest = Player.objects.get()
    stored = Attempt.objects.get()
    assert (stored.pk, stored.player_id, stored.official, attempt["official"]) == (
        attempt["id"],
        guest.pk,
        True,
        True,
    )
    assert str(guest.browser_id) == client.cookies[settings.BROWSER_COOKIE_NAME].value
    assert Puzzle.objects.get(day=DAY).players == 1
    # The session holds the guest: the day shows its game, and a second start is refused.
    day = client.get(f"/api/daily/{DAY}").json()
    assert [a["id"] for a in day["my_attempts"]] == [attempt["id"]]
    assert post(client, f"/api/daily/{DAY}/attempts").json()["code"] == "wrong_state"
    assert (Player.objects.count(), Attempt.objects.count()) == (1, 1)


@pytest.mark.parametrize("engine", ENGINES)
@time_machine.travel(NOON, tick=False)
def test_a_browser_whose_guest_exists_without_a_session_plays_as_that_guest(settings, engine):
    settings.SESSION_ENGINE = engine
    browser = uuid.uuid4()
    guest = player_create(now=NOON, browser_id=browser)
    client = Client()
    client.cookies[settings.BROWSER_COOKIE_NAME] = str(browser)
    attempt = start_daily(client, DAY)
    assert (Player.objects.count(), Attempt.objects.get().player_id) == (1, guest.pk)
    assert (attempt["official"], Puzzle.objects.get(day=DAY).players) == (True, 1)
    assert client.session[settings.PLAYER_SESSION_KEY] == guest.pk


@time_machine.travel(NOON, tick=False)
def test_a_drawn_name_someone_holds_is_drawn_again(monkeypatch):
    player_create(now=NOON, display_name="Brave Badger 42")
    names = itertools.chain(["brave badger 42"], itertools.repeat("Calm Heron 7"))
    monkeypatch.setattr(players_service, "display_name_generate", lambda **_: next(names))
    client = Client()
    attempt = start_daily(client, DAY)
    newcomer = Player.objects.get(display_name="Calm Heron 7")
    assert Attempt.objects.get(pk=attempt["id"]).player_id == newcomer.pk
    assert client.session[settings.PLAYER_SESSION_KEY] == newcomer.pk
    assert (Player.objects.count(), Puzzle.objects.get(day=DAY).players) == (2, 1)


def test_a_fresh_browser_on_a_closed_days_archive_plays_practice():
    later = datetime.datetime(2026, 12, 5, 12, 0, tzinfo=datetime.UTC)
    with time_machine.travel(later, tick=False):
        attempt = start_daily(Client(), DAY)
    assert (attempt["official"], Player.objects.count()) == (False, 1)
    assert Puzzle.objects.get(day=DAY).players == 0


def test_a_refused_start_stores_no_player():
    # In the grace after the day ends nothing new starts: not even a guest is made.
    with time_machine.travel(datetime.datetime(2026, 11, 30, 0, 0, 30, tzinfo=datetime.UTC)):
        response = post(Client(), f"/api/daily/{DAY}/attempts")
    assert (response.status_code, response.json()["code"]) == (409, "day_closed")
    assert Player.objects.count() == 0


def _statements_on(queries, table: str) -> list[str]:
    return [q["sql"].split()[0] for q in queries if f'"{table}"' in q["sql"]]


@time_machine.travel(NOON, tick=False)
def test_a_fresh_browsers_guest_is_inserted_without_a_read_first():
    # A browser whose session names no player is nearly always new: its guest is inserted at
    # once, and read only when the unique browser id refuses the insert (the test above).
    client = Client()
    client.get("/api/daily/today")
    with CaptureQueriesContext(connection) as queries:
        start_daily(client, DAY)
    assert _statements_on(queries, "daily_player") == ["INSERT"]
    assert Player.objects.get().pk == client.session[settings.PLAYER_SESSION_KEY]


@time_machine.travel(NOON, tick=False)
def test_a_first_start_on_the_cached_daily_reads_no_puzzle_and_counts_it_once():
    # The daily's page put the daily in the shared cache; the start needs none of its counters,
    # and its count of the player, conditional on the row being the copy's, proves the copy.
    client = Client()
    client.get("/api/daily/today")
    with CaptureQueriesContext(connection) as queries:
        attempt = start_daily(client, DAY)
    assert _statements_on(queries, "daily_puzzle") == ["UPDATE"]
    assert (attempt["official"], Puzzle.objects.get(day=DAY).players) == (True, 1)


@time_machine.travel(NOON, tick=False)
def test_a_daily_closed_under_its_cached_copy_starts_no_official_game():
    # The close came (as seen from a process whose clock is behind it) after the copy was
    # cached: the count refuses the copy, the daily is read again, and the game is archive
    # practice, counted nowhere.
    client = Client()
    client.get("/api/daily/today")
    Puzzle.objects.filter(day=DAY).update(closed_at=NOON)
    attempt = start_daily(client, DAY)
    stands = Puzzle.objects.get(day=DAY)
    assert (attempt["official"], attempt["deadline"], stands.players) == (False, None, 0)
    assert list(stands.attempts.values_list("official", flat=True)) == [False]
