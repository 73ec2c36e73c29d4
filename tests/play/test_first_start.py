"""A fresh browser's first game (issue 15 item 2, the midnight rush): its guest and official
attempt stored in one statement, and the usual way whenever that statement stores nothing."""

import datetime
import os
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
import time_machine
from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext

from farkle_site.sessions import SessionStore
from play.apis import puzzles as puzzle_apis
from play.models import Attempt, Player, Puzzle
from play.services import attempts as attempts_service
from play.services import players as players_service
from play.services.players import player_create, player_id_reserve
from play.web.session import session_bound_to_new_guest
from tests.daily.helpers import post, start_daily
from tests.moments import NOON

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
    players_service._reserved.clear()
    player_id_reserve()  # this process holds a block of ids for its guests
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


ENGINES = ["django.contrib.sessions.backends.db", "farkle_site.sessions"]


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
    # The session names the guest, not the id its start had reserved.
    assert client.session[settings.PLAYER_SESSION_KEY] == guest.pk


@pytest.mark.parametrize("engine", ENGINES)
@time_machine.travel(NOON, tick=False)
def test_a_drawn_name_someone_holds_is_drawn_again_the_usual_way(monkeypatch, settings, engine):
    settings.SESSION_ENGINE = engine
    player_create(now=NOON, display_name="Brave Badger 42")
    monkeypatch.setattr(puzzle_apis, "display_name_generate", lambda: "brave badger 42")
    client = Client()
    attempt = start_daily(client, DAY)
    newcomer = Player.objects.exclude(display_name="Brave Badger 42").get()
    assert Attempt.objects.get(pk=attempt["id"]).player_id == newcomer.pk
    assert client.session[settings.PLAYER_SESSION_KEY] == newcomer.pk
    assert (Player.objects.count(), Puzzle.objects.get(day=DAY).players) == (2, 1)


def test_a_fresh_browser_on_a_closed_days_archive_plays_practice():
    later = datetime.datetime(2026, 12, 5, 12, 0, tzinfo=datetime.UTC)
    player_id_reserve()
    held = list(players_service._reserved)
    with time_machine.travel(later, tick=False):
        attempt = start_daily(Client(), DAY)
    assert (attempt["official"], Player.objects.count()) == (False, 1)
    # No guest's statement to come: no id was reserved for one.
    assert players_service._reserved == held
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


@pytest.mark.parametrize("engine", ["django.contrib.sessions.backends.db", "farkle_site.sessions"])
@time_machine.travel(NOON, tick=False)
def test_a_guest_whose_id_was_given_since_is_made_the_usual_way(monkeypatch, settings, engine):
    # As when the players' sequence started again after the id was reserved (a restored base).
    settings.SESSION_ENGINE = engine
    holder = player_create(now=NOON)
    monkeypatch.setattr(puzzle_apis, "player_id_reserve", lambda: holder.pk)
    client = Client()
    attempt = start_daily(client, DAY)
    newcomer = Player.objects.exclude(pk=holder.pk).get()
    assert Attempt.objects.get().player_id == newcomer.pk
    assert client.session[settings.PLAYER_SESSION_KEY] == newcomer.pk
    day = client.get(f"/api/daily/{DAY}").json()
    assert [a["id"] for a in day["my_attempts"]] == [attempt["id"]]
    assert Puzzle.objects.get(day=DAY).players == 1


@time_machine.travel(NOON, tick=False)
def test_a_fresh_browser_whose_start_fails_keeps_no_player_in_its_session(settings):
    settings.SESSION_ENGINE = "farkle_site.sessions"
    request = RequestFactory().post("/")
    request.session = SessionStore()
    request.session["lang"] = "fr"
    with pytest.raises(RuntimeError), session_bound_to_new_guest(request, 10**9) as binding:
        assert binding.row is not None
        assert request.session[settings.PLAYER_SESSION_KEY] == 10**9
        raise RuntimeError("the statement failed")
    assert dict(request.session) == {"lang": "fr"}
    assert request.session.session_key is None


@time_machine.travel(NOON, tick=False)
def test_a_session_whose_row_cannot_be_given_keeps_no_player(settings, monkeypatch):
    settings.SESSION_ENGINE = "farkle_site.sessions"

    def broken(self):
        raise RuntimeError("the session could not be encoded")

    monkeypatch.setattr(SessionStore, "new_row", broken)
    request = RequestFactory().post("/")
    request.session = SessionStore()
    with pytest.raises(RuntimeError), session_bound_to_new_guest(request, 10**9):
        pass
    assert dict(request.session) == {}


@time_machine.travel(NOON, tick=False)
def test_a_created_guest_stays_in_its_session_with_its_row(settings):
    settings.SESSION_ENGINE = "farkle_site.sessions"
    request = RequestFactory().post("/")
    request.session = SessionStore()
    with session_bound_to_new_guest(request, 10**9) as binding:
        binding.created = True
    assert dict(request.session) == {settings.PLAYER_SESSION_KEY: 10**9, "seen": DAY}
    assert request.session.session_key == binding.row.values[0]


@pytest.mark.django_db(transaction=True)
def test_reserved_player_ids_are_never_given_twice_nor_by_the_database():
    def reserve(count: int) -> list[int]:
        try:
            return [player_id_reserve() for _ in range(count)]
        finally:
            connection.close()

    with ThreadPoolExecutor(4) as pool:
        # 4 × 40 crosses blocks in every thread's turn: refills race each other.
        reserved = [i for ids in pool.map(reserve, [40] * 4) for i in ids]
    assert len(set(reserved)) == 160
    made = player_create(now=NOON)
    assert made.pk not in reserved


def test_a_forked_child_neither_hands_out_its_parents_ids_nor_waits_on_its_lock(db):
    player_id_reserve()
    assert players_service._reserved
    # As a thread of the parent would hold it, reserving a block as another forks.
    with players_service._reserved_lock:
        pid = os.fork()
        if pid == 0:  # the child: report by its exit status only
            free = players_service._reserved_lock.acquire(timeout=5)
            os._exit(0 if free and not players_service._reserved else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert players_service._reserved


def test_ids_are_reserved_a_block_of_32_at_a_time(db):
    players_service._reserved.clear()
    with CaptureQueriesContext(connection) as queries:
        ids = [player_id_reserve() for _ in range(33)]
    assert sum("nextval" in q["sql"] for q in queries) == 2
    # Each block is handed out in the sequence's order, and blocks follow one another.
    assert ids == sorted(ids)
    assert len(set(ids)) == 33


def test_only_a_taken_session_key_is_read_as_one(db):
    # The errors Postgres gives, raised for real: a taken key, then a column left NULL.
    key = "e" * 32
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO django_session (session_key, session_data, expire_date) "
            "VALUES (%s, '', now())",
            [key],
        )
        errors = []
        for sql in (
            "INSERT INTO django_session (session_key, session_data, expire_date) "
            f"VALUES ('{key}', '', now())",
            "INSERT INTO daily_player (display_name, created_at) VALUES (NULL, now())",
        ):
            try:
                with transaction.atomic():
                    cursor.execute(sql)
            except IntegrityError as error:
                errors.append(error)
    taken, null = errors
    assert attempts_service._key_taken(taken, "django_session_pkey")
    assert not attempts_service._key_taken(taken, "another_pkey")
    assert not attempts_service._key_taken(null, "django_session_pkey")
