"""The session store of the shared-cache settings (farkle_site/sessions.py): Django's cached_db,
creating a session without the probe and the transaction (issue 15 item 2)."""

import contextlib

import pytest
from django.conf import settings
from django.contrib.sessions.backends.base import VALID_KEY_CHARS, UpdateError
from django.contrib.sessions.models import Session
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from farkle_site.sessions import SessionStore
from play.models import Player
from tests.daily.helpers import start_daily
from tests.moments import NOON

DAY = NOON.date().isoformat()


@pytest.fixture
def store(settings):
    settings.SESSION_ENGINE = "farkle_site.sessions"


def _taken_then(monkeypatch, key: str) -> SessionStore:
    """A stored session ("who": "first"), whose key the next new session draws first, then
    ``key``."""
    taken = SessionStore()
    taken["who"] = "first"
    taken.create()
    draws = iter([taken.session_key, key])
    monkeypatch.setattr(SessionStore, "_get_new_session_key", lambda self: next(draws))
    return taken


def _session_statements(queries) -> list[str]:
    return [q["sql"].split()[0] for q in queries if "django_session" in q["sql"]]


@pytest.mark.django_db(transaction=True)
def test_a_first_game_stores_its_session_in_the_statement_that_creates_its_guest(store, clock):
    client = Client()
    with CaptureQueriesContext(connection) as queries:
        attempt = start_daily(client, DAY)
    # Django's own store probes the key with a SELECT first, and wraps the INSERT in a
    # transaction (whose BEGIN the capture does not list); here the one statement that stores
    # the guest and its attempt stores the session too.
    assert _session_statements(queries) == ["WITH"]
    key = client.cookies["sessionid"].value
    (player,) = Player.objects.all()
    stored = Session.objects.get(session_key=key).get_decoded()
    assert stored == {settings.PLAYER_SESSION_KEY: player.pk, "seen": NOON.date().isoformat()}
    # Cached as it was stored, and the browser's next request finds its game.
    assert SessionStore(key).load() == stored
    again = client.get(f"/api/daily/{DAY}").json()
    assert [a["id"] for a in again["my_attempts"]] == [attempt["id"]]
    assert Player.objects.count() == 1


@pytest.mark.parametrize("in_transaction", [False, True])
@pytest.mark.django_db(transaction=True)
def test_a_first_game_whose_session_key_is_taken_takes_the_usual_way(
    store, clock, monkeypatch, in_transaction
):
    taken = _taken_then(monkeypatch, "d" * 32)
    client = Client()
    with transaction.atomic() if in_transaction else contextlib.nullcontext():
        start_daily(client, DAY)
        # Nothing of the refused statement was kept, and the transaction is still usable.
        (player,) = Player.objects.all()
    assert client.cookies["sessionid"].value == "d" * 32
    assert (
        Session.objects.get(session_key="d" * 32).get_decoded()[settings.PLAYER_SESSION_KEY]
        == player.pk
    )
    assert SessionStore(taken.session_key).load() == {"who": "first"}
    assert Session.objects.get(session_key=taken.session_key).get_decoded() == {"who": "first"}


@pytest.mark.django_db(transaction=True)
def test_a_row_inserted_by_the_caller_is_only_cached_when_saved_unchanged(store):
    session = SessionStore()
    session["n"] = 1
    row = session.new_row()
    _insert_row(row)
    session.row_inserted(True)
    with CaptureQueriesContext(connection) as queries:
        session.save()
    assert queries.captured_queries == []
    assert SessionStore(session.session_key).load() == {"n": 1}
    assert Session.objects.get(session_key=session.session_key).get_decoded() == {"n": 1}


@pytest.mark.django_db(transaction=True)
def test_a_session_changed_after_its_row_was_inserted_is_written_again(store):
    session = SessionStore()
    session["n"] = 1
    _insert_row(session.new_row())
    session.row_inserted(True)
    session["n"] = 2
    session.save()
    assert Session.objects.get(session_key=session.session_key).get_decoded() == {"n": 2}
    session._cache.delete(session.cache_key)
    assert SessionStore(session.session_key)["n"] == 2


@pytest.mark.django_db(transaction=True)
def test_a_row_the_caller_did_not_insert_leaves_the_session_new(store):
    session = SessionStore()
    session["n"] = 1
    row = session.new_row()
    session.row_inserted(False)
    assert session.session_key is None
    session.save()
    assert session.session_key != row.values[0]
    assert Session.objects.get(session_key=session.session_key).get_decoded() == {"n": 1}
    # A session with a row already gives none.
    assert session.new_row() is None


def _insert_row(row) -> None:
    qn = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {qn(row.table)} ({', '.join(qn(c) for c in row.columns)}) "
            "VALUES (%s, %s, %s)",
            row.values,
        )


@pytest.mark.django_db(transaction=True)
def test_a_drawn_key_already_taken_is_drawn_again(store, monkeypatch):
    taken = _taken_then(monkeypatch, "b" * 32)
    fresh = SessionStore()
    fresh["who"] = "second"
    fresh.save()
    assert fresh.session_key == "b" * 32
    stored = {s.session_key: s.get_decoded()["who"] for s in Session.objects.all()}
    assert stored == {taken.session_key: "first", "b" * 32: "second"}


@pytest.mark.django_db
def test_inside_a_transaction_a_taken_key_leaves_the_transaction_usable(store, monkeypatch):
    taken = SessionStore()
    taken.create()
    draws = iter([taken.session_key, "c" * 32])
    monkeypatch.setattr(SessionStore, "_get_new_session_key", lambda self: next(draws))
    with transaction.atomic():
        fresh = SessionStore()
        fresh.save()
        # A failed statement without its savepoint would refuse every later one.
        assert Session.objects.count() == 2
    assert fresh.session_key == "c" * 32


@pytest.mark.django_db(transaction=True)
def test_a_saved_change_reaches_the_database_and_the_cache(store):
    session = SessionStore()
    session["n"] = 1
    session.create()
    session["n"] = 2
    session.save()
    assert Session.objects.get(session_key=session.session_key).get_decoded() == {"n": 2}
    assert SessionStore(session.session_key)["n"] == 2
    # The database alone (the cache emptied) holds the change too.
    session._cache.delete(session.cache_key)
    assert SessionStore(session.session_key)["n"] == 2


def test_keys_are_32_characters_of_djangos_alphabet_and_all_differ():
    keys = {SessionStore()._get_new_session_key() for _ in range(2000)}
    assert len(keys) == 2000
    assert {len(key) for key in keys} == {32}
    assert set("".join(keys)) <= set(VALID_KEY_CHARS)
    # Each of the 36 characters turns up in every position over 2,000 keys (a digit stuck at
    # one value, or an alphabet cut short, would not).
    assert all(len({key[i] for key in keys}) == 36 for i in range(32))


@pytest.mark.django_db(transaction=True)
def test_saving_a_session_deleted_meanwhile_is_an_update_error(store):
    session = SessionStore()
    session["n"] = 1
    session.create()
    Session.objects.all().delete()
    session["n"] = 2
    with pytest.raises(UpdateError):
        session.save()


@pytest.mark.django_db(transaction=True)
def test_a_value_changed_in_place_after_the_insert_is_written_again(store):
    session = SessionStore()
    session["games"] = [1]
    _insert_row(session.new_row())
    session.row_inserted(True)
    session["games"].append(2)
    session.modified = True
    session.save()
    assert Session.objects.get(session_key=session.session_key).get_decoded() == {"games": [1, 2]}
