"""Remembered games (play/game_cache.py): an action finds the game its process last played
instead of replaying it, and never a game other than the stored actions' replay of the row it
has just read."""

import dataclasses
import datetime

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

import farkle
from play import game_cache
from play.models import Attempt
from tests.daily.helpers import act, greedy_action, play_greedy, start_daily
from tests.moments import NOON

DAY = "2026-11-29"

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]


def _replayed(attempt_id: int) -> farkle.Game:
    """The game as the engine replays the stored row, computed here without the cache."""
    attempt = Attempt.objects.select_related("puzzle").get(pk=attempt_id)
    puzzle = attempt.puzzle
    return farkle.Game.replay(attempt.seed(), attempt.actions, puzzle.table, puzzle.rules())


def test_every_action_of_a_game_finds_the_game_its_last_answer_left(client):
    attempt = start_daily(client, DAY)
    finished = play_greedy(client, attempt)

    # One action per step; each found the game (and the row) the previous answer remembered,
    # the first the start's, and the suite's check replayed each and found it equal.
    assert game_cache.hits == game_cache.rows_served == finished["step"]
    stored = Attempt.objects.get(pk=attempt["id"])
    assert (stored.step, stored.score) == (finished["step"], finished["score"])
    assert _replayed(attempt["id"]).score == finished["score"]


def test_a_game_another_process_moved_on_is_replayed_not_served_stale(client):
    attempt = start_daily(client, DAY)
    attempt = act(client, attempt, {"action": "roll"}).json()
    # This process's memory as it was at this step; another process then takes the next action.
    stale = dict(game_cache._games)
    while attempt["state"] != "awaiting_keep":
        attempt = act(client, attempt, {"action": "roll"}).json()
    best = max(attempt["keep_options"], key=lambda o: o["score"])
    moved = act(client, attempt, {"action": "keep", "dice": best["dice"], "then": "bank"}).json()
    game_cache.clear()
    game_cache._games.update(stale)

    read = client.get(f"/api/attempts/{attempt['id']}").json()

    assert read["step"] == moved["step"]
    assert read["score"] == _replayed(attempt["id"]).score == moved["score"]
    assert game_cache.hits == 0


def test_the_check_refuses_a_remembered_game_that_differs_from_the_replay(client, settings):
    attempt = start_daily(client, DAY)
    stored = Attempt.objects.select_related("puzzle").get(pk=attempt["id"])
    game = _replayed(attempt["id"])
    game_cache.remember(stored, dataclasses.replace(game, score=game.score + 50))

    with pytest.raises(AssertionError, match="differs from its replay"):
        client.get(f"/api/attempts/{attempt['id']}")

    # Without the check (production), the remembered game is what is served: hence the check.
    settings.FARKLE_CHECK_GAME_CACHE = False
    assert client.get(f"/api/attempts/{attempt['id']}").json()["score"] == game.score + 50


def _until_keep(client, attempt: dict) -> dict:
    while attempt["state"] != "awaiting_keep":
        attempt = act(client, attempt, {"action": "roll"}).json()
    return attempt


def test_an_action_from_a_stale_memory_is_refused_as_stale(client):
    """Another process took the step this one remembers: the remembered row is not written
    over; the answer is the long way's, from the row as it stands."""
    attempt = _until_keep(client, start_daily(client, DAY))
    stale = dict(game_cache._games)
    best = max(attempt["keep_options"], key=lambda o: o["score"])
    keep = {"action": "keep", "dice": best["dice"], "then": "bank"}
    moved = act(client, attempt, keep).json()
    game_cache.clear()
    game_cache._games.update(stale)

    again = act(client, attempt, keep)

    assert (again.status_code, again.json()["code"]) == (409, "stale_step")
    assert again.json()["attempt"]["step"] == moved["step"]
    stored = Attempt.objects.get(pk=attempt["id"])
    assert (stored.step, len(stored.actions)) == (moved["step"], moved["step"])


def test_a_game_the_close_finalised_meanwhile_is_not_written_from_memory(client):
    attempt = _until_keep(client, start_daily(client, DAY))
    # What the close does to a late game (daily.services.rollover), this process unaware of it.
    Attempt.objects.filter(pk=attempt["id"]).update(
        state=Attempt.State.FINISHED, finished_at=NOON, finalised_at_close=True
    )
    best = max(attempt["keep_options"], key=lambda o: o["score"])

    refused = act(client, attempt, {"action": "keep", "dice": best["dice"], "then": "bank"})

    assert (refused.status_code, refused.json()["code"]) == (409, "day_closed")
    assert Attempt.objects.get(pk=attempt["id"]).step == attempt["step"]


def test_another_browser_cannot_act_on_a_remembered_game(client):
    attempt = _until_keep(client, start_daily(client, DAY))
    other = Client()
    start_daily(other, DAY)  # a player of its own
    best = max(attempt["keep_options"], key=lambda o: o["score"])

    refused = act(other, attempt, {"action": "keep", "dice": best["dice"], "then": "bank"})

    assert (refused.status_code, refused.json()["code"]) == (404, "not_found")
    assert Attempt.objects.get(pk=attempt["id"]).step == attempt["step"]


def test_a_remembered_action_is_one_statement_the_conditional_update(client, settings):
    """What an action must do with its game remembered: the session comes from the cache
    (cached_db) and the throttle counts in Redis, so the database sees only the write, which
    is also what proves the remembered row current. Without the memory (another process's
    game), the row is read first."""
    settings.FARKLE_CHECK_GAME_CACHE = False  # the check reads the row: production does not
    attempt = act(client, start_daily(client, DAY), {"action": "roll"}).json()

    with CaptureQueriesContext(connection) as queries:
        attempt = act(client, attempt, greedy_action(attempt)).json()
    assert [q["sql"].split()[0] for q in queries] == ["UPDATE"]
    assert "daily_attempt" in queries[0]["sql"]

    game_cache.clear()
    with CaptureQueriesContext(connection) as queries:
        moved = act(client, attempt, greedy_action(attempt)).json()
    assert [q["sql"].split()[0] for q in queries] == ["SELECT", "UPDATE"]
    assert moved["step"] == attempt["step"] + 1
    assert _replayed(attempt["id"]).score == moved["score"]


def test_the_check_refuses_a_remembered_row_that_differs_from_the_stored_one(client):
    attempt = _until_keep(client, start_daily(client, DAY))
    stored = Attempt.objects.select_related("puzzle").get(pk=attempt["id"])
    # A row this process would hold wrongly: the same step, another clock.
    stored.time_taken = datetime.timedelta(seconds=5)
    game_cache.remember(stored, _replayed(attempt["id"]))
    best = max(attempt["keep_options"], key=lambda o: o["score"])

    with pytest.raises(AssertionError, match="differs from the stored one in time_taken"):
        act(client, attempt, {"action": "keep", "dice": best["dice"], "then": "bank"})


def test_a_remembered_row_whose_id_another_game_took_is_not_written_from_memory(client, settings):
    """An id can come back (SQLite reuses a deleted row's): the row now under it, another game
    of the same player started later, at the same step, is never written from what this
    process remembers of the first; the action is taken the long way, from the row read."""
    settings.FARKLE_CHECK_GAME_CACHE = False  # the check would read the row; production does not
    attempt = _until_keep(client, start_daily(client, DAY))
    started = Attempt.objects.get(pk=attempt["id"]).started_at
    later = started + datetime.timedelta(minutes=1)
    Attempt.objects.filter(pk=attempt["id"]).update(started_at=later)
    best = max(attempt["keep_options"], key=lambda o: o["score"])

    with CaptureQueriesContext(connection) as queries:
        answer = act(client, attempt, {"action": "keep", "dice": best["dice"], "then": "bank"})

    # The remembered write matched nothing; the row was read, then written once.
    assert [q["sql"].split()[0] for q in queries] == ["UPDATE", "SELECT", "UPDATE"]
    assert answer.status_code == 200
    stored = Attempt.objects.get(pk=attempt["id"])
    assert stored.started_at == later
    assert (stored.step, len(stored.actions)) == (attempt["step"] + 1, attempt["step"] + 1)
