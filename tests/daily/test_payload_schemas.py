"""Every JSON payload of the daily's API, in every shape the API documents, validated whole and
recursively against its OpenAPI schema: the hand-built dicts of the action path
(``play.apis.payloads``) and the schema (``play.apis.schemas``) cannot drift apart."""

import datetime

import pytest

from daily.services.rollover import reconcile
from play.models import Puzzle
from tests.helpers import assert_documented

from .helpers import act, greedy_action, play_greedy, post

DAY = "2026-11-29"
pytestmark = pytest.mark.django_db


def test_daily_payloads_before_during_and_after_play(client, clock):
    assert_documented(client.get("/api/daily/today"), "/api/daily/today", "get")
    started = post(client, f"/api/daily/{DAY}/attempts")
    assert_documented(started, "/api/daily/{day}/attempts", "post")
    attempt = started.json()
    # Before the player has finished, the scores are hidden: the answer's other shape.
    hidden = client.get(f"/api/daily/{DAY}/leaderboard")
    assert hidden.json()["revealed"] is False
    assert_documented(hidden, "/api/daily/{day}/leaderboard", "get")
    rolled = act(client, attempt, {"action": "roll"})
    assert_documented(rolled, "/api/attempts/{attempt_id}/actions", "post")
    # A stale step: the conflict carries the attempt as it stands.
    stale = act(client, attempt, {"action": "roll"})
    assert stale.status_code == 409
    assert_documented(stale, "/api/attempts/{attempt_id}/actions", "post")
    # Practice refused while the official game is unfinished: the conflict names it.
    refused = post(client, f"/api/daily/{DAY}/attempts")
    assert refused.status_code == 409
    assert_documented(refused, "/api/daily/{day}/attempts", "post")
    assert_documented(client.get(f"/api/daily/{DAY}"), "/api/daily/{day}", "get")
    finished = rolled.json()
    # Every action's answer: Farkles, keeps, hot dice, banks and the finish, each with its events.
    while finished["state"] != "finished":
        answer = act(client, finished, greedy_action(finished))
        assert_documented(answer, "/api/attempts/{attempt_id}/actions", "post")
        finished = answer.json()
    shown = client.get(f"/api/attempts/{finished['id']}")
    assert_documented(shown, "/api/attempts/{attempt_id}", "get")
    board = client.get(f"/api/daily/{DAY}/leaderboard")
    assert board.json()["revealed"] is True
    assert_documented(board, "/api/daily/{day}/leaderboard", "get")
    # An official game cannot be checked before the close: its throws are everyone's dice.
    unrevealed = client.get(f"/api/verify/daily/{DAY}?attempt={finished['id']}")
    assert unrevealed.status_code == 409
    assert_documented(unrevealed, "/api/verify/daily/{day}", "get")
    assert_documented(client.get("/api/me"), "/api/me", "get")


def test_daily_payloads_once_closed(client, clock):
    finished = play_greedy(client, post(client, f"/api/daily/{DAY}/attempts").json())
    clock.move_to(datetime.datetime(2026, 11, 30, 0, 5, tzinfo=datetime.UTC))
    reconcile(now=datetime.datetime(2026, 11, 30, 0, 5, tzinfo=datetime.UTC))
    assert Puzzle.objects.get(day=DAY).closed_at is not None
    board = client.get(f"/api/daily/{DAY}/leaderboard")
    assert (board.json()["status"], board.json()["final"]) == ("closed", True)
    assert_documented(board, "/api/daily/{day}/leaderboard", "get")
    verified = client.get(f"/api/verify/daily/{DAY}?attempt={finished['id']}")
    assert verified.json()["seed"] is not None
    assert_documented(verified, "/api/verify/daily/{day}", "get")
    archive = post(client, f"/api/daily/{DAY}/attempts")
    assert_documented(archive, "/api/daily/{day}/attempts", "post")
    assert_documented(client.get(f"/api/daily/{DAY}"), "/api/daily/{day}", "get")
    assert_documented(client.get("/api/me"), "/api/me", "get")


def test_player_and_account_payloads(client, clock):
    renamed = client.patch("/api/me", {"name": "Calm Heron"}, content_type="application/json")
    assert_documented(renamed, "/api/me", "patch")
    account = {"username": "heron", "password": "a long enough passphrase"}
    assert_documented(post(client, "/api/auth/signup", account), "/api/auth/signup", "post")
    post(client, "/api/auth/logout")
    assert_documented(post(client, "/api/auth/login", account), "/api/auth/login", "post")
    assert_documented(client.get("/api/rules"), "/api/rules", "get")
