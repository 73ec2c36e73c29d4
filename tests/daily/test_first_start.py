"""A fresh browser's first game (issue 15 item 2, the midnight rush): its guest and official
attempt stored in one statement, and the usual way whenever that statement stores nothing."""

import datetime
import uuid

import pytest
import time_machine
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from daily.apis import puzzles as puzzle_apis
from daily.models import Attempt, Player, Puzzle
from daily.services.players import player_create
from tests.moments import NOON

from .helpers import post, start_daily

pytestmark = pytest.mark.django_db
DAY = NOON.date().isoformat()


def _game_statements(queries) -> list[str]:
    """The statements on players, attempts and puzzles (not the session's, nor savepoints)."""
    tables = ('"daily_player"', '"daily_attempt"', '"daily_puzzle"')
    return [q["sql"] for q in queries if any(table in q["sql"] for table in tables)]


@time_machine.travel(NOON, tick=False)
def test_a_fresh_browsers_guest_and_official_game_are_one_statement():
    client = Client()
    client.get("/api/daily/today")  # the daily's page: cookies, and the daily in the cache
    with CaptureQueriesContext(connection) as queries:
        attempt = start_daily(client, DAY)
    # Counted by hand: the guest, its attempt and the day's count, all in one WITH statement
    # (the usual way is the guest's INSERT, then the attempt's with the count).
    assert len(_game_statements(queries)) == 1
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


@time_machine.travel(NOON, tick=False)
def test_a_browser_whose_guest_exists_without_a_session_plays_as_that_guest():
    browser = uuid.uuid4()
    guest = player_create(now=NOON, browser_id=browser)
    client = Client()
    client.cookies[settings.BROWSER_COOKIE_NAME] = str(browser)
    attempt = start_daily(client, DAY)
    assert (Player.objects.count(), Attempt.objects.get().player_id) == (1, guest.pk)
    assert (attempt["official"], Puzzle.objects.get(day=DAY).players) == (True, 1)


@time_machine.travel(NOON, tick=False)
def test_a_drawn_name_someone_holds_is_drawn_again_the_usual_way(monkeypatch):
    player_create(now=NOON, display_name="Brave Badger 42")
    monkeypatch.setattr(puzzle_apis, "display_name_generate", lambda: "brave badger 42")
    attempt = start_daily(Client(), DAY)
    newcomer = Player.objects.exclude(display_name="Brave Badger 42").get()
    assert Attempt.objects.get(pk=attempt["id"]).player_id == newcomer.pk
    assert (Player.objects.count(), Puzzle.objects.get(day=DAY).players) == (2, 1)


def test_a_fresh_browser_on_a_closed_days_archive_plays_practice():
    later = datetime.datetime(2026, 12, 5, 12, 0, tzinfo=datetime.UTC)
    with time_machine.travel(later, tick=False):
        attempt = start_daily(Client(), DAY)
    assert (attempt["official"], Player.objects.count()) == (False, 1)
    assert Puzzle.objects.get(day=DAY).players == 0


@time_machine.travel(NOON, tick=False)
def test_a_fresh_browsers_attempt_is_stored_as_the_orm_stores_one():
    # Its unchanging fields are written as literals once per process: the row must be the one
    # Django's own INSERT makes (here through Attempt.objects.create).
    fresh = [start_daily(Client(), DAY)["id"] for _ in range(2)]
    puzzle = Puzzle.objects.get(day=DAY)
    orm = Attempt.objects.create(
        player=player_create(now=NOON),
        puzzle=puzzle,
        official=True,
        actions=[],
        started_at=NOON,
        updated_at=NOON,
        deadline=puzzle.closes_at,
    )
    skip = {"id", "player"}
    names = [f.attname for f in Attempt._meta.concrete_fields if f.name not in skip]
    rows = {a.pk: [getattr(a, n) for n in names] for a in Attempt.objects.all()}
    assert rows[fresh[0]] == rows[fresh[1]] == rows[orm.pk]
