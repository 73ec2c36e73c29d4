"""Issue 40: the end screen's standing by accuracy, and the player's palette setting.

The expected accuracies come from the engine: each game replayed here from its stored actions on
the dice the test secret seeds, then analysed; the ranks from sorting those, so that neither
comes from the standing's own count."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client

import farkle
from daily.services.rollover import puzzle_close
from farkle.analysis import analyse
from play.models import Attempt, Player, Puzzle
from tests.daily.helpers import act, play_greedy, post, start_daily
from tests.helpers import assert_documented, stored

DAY = "2026-11-29"
SECRET = b"test-secret"
CLOSE = datetime.datetime(2026, 11, 30, 0, 2, tzinfo=datetime.UTC)
PASSWORD = "correct horse battery staple"
pytestmark = [pytest.mark.django_db]


def engine_accuracy(attempt_id: int) -> float:
    """The game's accuracy as the pages show it (to a tenth), from the engine alone."""
    seed = farkle.daily_seed(SECRET, datetime.date.fromisoformat(DAY))
    game = farkle.Game.replay(seed, stored(attempt_id)["actions"])
    return round(analyse(game).accuracy, 1)


def standing(client: Client, attempt_id: int):
    response = client.get(f"/api/attempts/{attempt_id}/analysis")
    assert response.status_code == 200, response.json()
    assert_documented(response, "/api/attempts/{attempt_id}/analysis", "get")
    return response.json()["accuracy_standing"]


def test_the_standing_ranks_finished_games_by_accuracy_and_says_ties(clock):
    # Four bank thresholds, one of them played twice: the same decisions on the same dice.
    thresholds = [300, 300, 1000, 500, 2000]
    players = [Client() for _ in thresholds]
    games = [
        play_greedy(c, start_daily(c, DAY), bank_at=bank)
        for c, bank in zip(players, thresholds, strict=True)
    ]
    # Someone still playing is not counted: only finished games are.
    playing = Client()
    act(playing, start_daily(playing, DAY), {"action": "roll"})

    accuracies = [engine_accuracy(g["id"]) for g in games]
    assert accuracies[0] == accuracies[1]
    assert len(set(accuracies)) >= 3, accuracies
    for client, game, accuracy in zip(players, games, accuracies, strict=True):
        # Kept at the finish, in tenths of the percent shown.
        assert stored(game["id"])["accuracy_tenths"] == round(accuracy * 10)
        shown = standing(client, game["id"])
        assert shown == {
            "rank": 1 + sum(other > accuracy for other in accuracies),
            "tied": accuracies.count(accuracy) > 1,
            "players": len(games),
        }
    assert standing(players[0], games[0]["id"])["tied"] is True


def test_no_standing_for_practice_for_a_game_the_close_cut_or_before_finishing(clock):
    finished, cut = Client(), Client()
    game = play_greedy(finished, start_daily(finished, DAY), bank_at=400)
    practice = play_greedy(finished, start_daily(finished, DAY), bank_at=400)
    assert practice["official"] is False
    assert (
        finished.get(f"/api/attempts/{practice['id']}/analysis").json()["accuracy_standing"] is None
    )
    assert stored(practice["id"])["accuracy_tenths"] is None
    # An unfinished game has no analysis at all, so nothing of the others' either.
    left = act(cut, start_daily(cut, DAY), {"action": "roll"}).json()
    refused = cut.get(f"/api/attempts/{left['id']}/analysis")
    assert (refused.status_code, refused.json()["code"]) == (409, "wrong_state")
    assert cut.get(f"/api/attempts/{game['id']}/analysis").status_code == 404

    clock.move_to(CLOSE)
    puzzle_close(puzzle_id=Puzzle.objects.get(day=DAY).pk, now=CLOSE)
    # The close ended that game: its player did not finish it, so it stands nowhere, and the
    # finished player's standing still counts one game.
    assert standing(cut, left["id"]) is None
    assert stored(left["id"])["accuracy_tenths"] is None
    assert standing(finished, game["id"]) == {"rank": 1, "tied": False, "players": 1}
    # After the close anyone may read a finished game's analysis, with its standing.
    assert standing(Client(), game["id"]) == {"rank": 1, "tied": False, "players": 1}


def test_a_game_finished_before_accuracy_was_kept_is_graded_when_first_read(client, clock):
    game = play_greedy(client, start_daily(client, DAY), bank_at=600)
    Attempt.objects.filter(pk=game["id"]).update(accuracy_tenths=None)
    other = Client()
    mine = play_greedy(other, start_daily(other, DAY), bank_at=600)
    # Not counted while ungraded; graded (and counted) once its own analysis is read.
    assert standing(other, mine["id"])["players"] == 1
    assert standing(client, game["id"]) == {"rank": 1, "tied": True, "players": 2}
    assert stored(game["id"])["accuracy_tenths"] == round(engine_accuracy(game["id"]) * 10)


# ---- the palette ----


def preferences(client: Client):
    return client.get("/api/me/preferences")


def set_palette(client: Client, value):
    return client.patch("/api/me/preferences", {"palette": value}, content_type="application/json")


def test_the_palette_is_kept_on_the_player_and_follows_an_account(client, clock, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # A browser without a player keeps its own copy: nothing to read or store here.
    assert preferences(client).json() == {"palette": None}
    refused = set_palette(client, "colourblind")
    assert (refused.status_code, refused.json()["code"]) == (404, "not_found")
    assert Player.objects.count() == 0

    play_greedy(client, start_daily(client, DAY))
    assert preferences(client).json() == {"palette": "default"}
    changed = set_palette(client, "colourblind")
    assert changed.status_code == 200
    assert_documented(changed, "/api/me/preferences", "patch")
    assert changed.json() == {"palette": "colourblind"}
    assert Player.objects.get().palette == "colourblind"

    # Signed up, then logged in on another browser: the choice comes with the account.
    assert (
        post(client, "/api/auth/signup", {"username": "alice", "password": PASSWORD}).status_code
        < 300
    )
    phone = Client()
    assert (
        post(phone, "/api/auth/login", {"username": "alice", "password": PASSWORD}).status_code
        < 300
    )
    shown = preferences(phone)
    assert_documented(shown, "/api/me/preferences", "get")
    assert shown.json() == {"palette": "colourblind"}
    assert set_palette(phone, "default").json() == {"palette": "default"}
    assert preferences(client).json() == {"palette": "default"}


@pytest.mark.parametrize("value", ["red", "", None, 1, True, ["colourblind"], "COLOURBLIND"])
def test_a_palette_that_does_not_exist_is_refused_and_nothing_changes(client, clock, value):
    play_greedy(client, start_daily(client, DAY))
    response = set_palette(client, value)
    assert response.status_code == 400
    assert response.json()["code"] and response.json()["detail"]
    assert Player.objects.get().palette == "default"
    missing = client.patch("/api/me/preferences", {}, content_type="application/json")
    assert missing.status_code == 400
