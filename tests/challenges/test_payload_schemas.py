"""Every JSON payload of the challenges' API, in every shape it documents, validated whole and
recursively against its OpenAPI schema."""

import datetime

import pytest

from tests.helpers import assert_documented

from ..daily.helpers import play_greedy, post

pytestmark = pytest.mark.django_db


def test_challenge_payloads(client, clock):
    created = post(client, "/api/challenges", {"title": "Beat me", "days": 1})
    assert_documented(created, "/api/challenges", "post")
    code = created.json()["code"]
    assert_documented(client.get(f"/api/challenges/{code}"), "/api/challenges/{code}", "get")
    started = post(client, f"/api/challenges/{code}/attempts")
    assert_documented(started, "/api/challenges/{code}/attempts", "post")
    # Before the player has finished, the scores are hidden: the answer's other shape.
    hidden = client.get(f"/api/challenges/{code}/leaderboard")
    assert hidden.json()["revealed"] is False
    assert_documented(hidden, "/api/challenges/{code}/leaderboard", "get")
    finished = play_greedy(client, started.json())
    board = client.get(f"/api/challenges/{code}/leaderboard")
    assert_documented(board, "/api/challenges/{code}/leaderboard", "get")
    unrevealed = client.get(f"/api/verify/challenges/{code}?attempt={finished['id']}")
    assert unrevealed.status_code == 409
    assert_documented(unrevealed, "/api/verify/challenges/{code}", "get")
    clock.shift(datetime.timedelta(days=1))
    verified = client.get(f"/api/verify/challenges/{code}?attempt={finished['id']}")
    assert verified.json()["seed"] is not None
    assert_documented(verified, "/api/verify/challenges/{code}", "get")
    board = client.get(f"/api/challenges/{code}/leaderboard")
    assert_documented(board, "/api/challenges/{code}/leaderboard", "get")
    assert_documented(client.get("/api/me/challenges"), "/api/me/challenges", "get")
