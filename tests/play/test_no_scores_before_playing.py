"""Nobody learns a puzzle's scores before playing it (docs/play.md, issue 39 item 2): while a
daily or a challenge is open, and through a daily's grace, its leaderboard shows scores, ranks and
their distribution only to a caller whose official game on it is finished; anyone else gets how
many have finished and ``revealed: false``. After the close everything is public. Each other route
that could tell the scores is tried too, as a player who has not finished.

Every game here is played through the API, as the players would."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client

from farkle.bots import play
from play.models import Puzzle
from play.services.foresight import attempt_hold
from tests.daily.helpers import act, greedy_action, play_greedy, post, start_daily

UTC = datetime.UTC
DAY = "2026-11-29"
URL = f"/api/daily/{DAY}/leaderboard"
# The daily of DAY ends at midnight; its actions are taken for 90 seconds more (the grace).
GRACE = datetime.datetime(2026, 11, 30, 0, 0, 30, tzinfo=UTC)
CLOSE = datetime.datetime(2026, 11, 30, 0, 1, 30, tzinfo=UTC)
BANKS = (250, 400, 900)

pytestmark = pytest.mark.django_db


def hidden(players: int, **fields) -> dict:
    """The whole answer a caller gets while the scores are hidden from them: the count only."""
    return {
        "kind": "daily",
        "date": DAY,
        "status": "open",
        "final": False,
        "revealed": False,
        "accounts": False,
        "page": 1,
        "page_size": 50,
        "pages": 0,
        "players": players,
        "entries": [],
        "me": None,
        "distribution": None,
        "reference": None,
        **fields,
    }


def rolled_once(client: Client, attempt: dict) -> dict:
    response = act(client, attempt, {"action": "roll"})
    assert response.status_code == 200, response.json()
    return response.json()


@pytest.fixture
def day(clock):
    """Three players who finished the day's official game (greedy, banking at 250, 400 and 900),
    ``playing`` with an official game in progress, ``idle`` a player with no game today (they
    made a challenge), and ``nobody``, a client with no session."""
    finishers = [Client() for _ in BANKS]
    games = [
        play_greedy(c, start_daily(c, DAY), bank_at=b)
        for c, b in zip(finishers, BANKS, strict=True)
    ]
    playing = Client()
    in_progress = rolled_once(playing, start_daily(playing, DAY))
    idle = Client()
    assert post(idle, "/api/challenges", {}).status_code == 201
    return {
        "finishers": finishers,
        "games": games,
        "playing": playing,
        "in_progress": in_progress,
        "idle": idle,
        "nobody": Client(),
    }


# The daily's leaderboard.


def test_the_open_days_scores_are_hidden_from_everyone_who_has_not_finished(day):
    for who in ("nobody", "idle", "playing"):
        response = day[who].get(URL)

        assert (response.status_code, response.json()) == (200, hidden(3)), who


def test_a_player_who_finished_sees_every_score_rank_and_the_distribution(day):
    games = day["games"]
    puzzle = Puzzle.objects.get(day=DAY)

    body = day["finishers"][0].get(URL).json()

    scores = sorted((g["score"] for g in games), reverse=True)
    assert body["revealed"] is True
    assert [e["score"] for e in body["entries"]] == scores
    assert body["me"]["score"] == games[0]["score"]
    assert body["me"]["rank"] == 1 + sum(g["score"] > games[0]["score"] for g in games)
    assert (body["players"], body["pages"], body["distribution"]["best"]) == (3, 1, scores[0])
    assert body["reference"]["score"] == play(puzzle.seed(), "hard", puzzle.table).score


def test_finishing_the_official_game_reveals_the_scores_on_the_next_read(day):
    playing = day["playing"]
    before = playing.get(URL).json()

    finished = play_greedy(playing, day["in_progress"])
    after = playing.get(URL).json()

    assert (before["revealed"], after["revealed"]) == (False, True)
    assert (before["players"], after["players"]) == (3, 4)
    assert after["me"]["score"] == finished["score"]
    assert len(after["entries"]) == 4


def test_no_practice_game_opens_before_the_official_one_is_finished(day):
    # A practice game's end screen reads the board: it cannot come before the official game's.
    playing = day["playing"]
    refused = post(playing, f"/api/daily/{DAY}/attempts")

    assert (refused.status_code, refused.json()["code"]) == (409, "wrong_state")
    assert playing.get(URL).json() == hidden(3)


def test_every_page_and_the_account_holders_board_are_hidden_too(day):
    signed = post(
        day["finishers"][1],
        "/api/auth/signup",
        {"username": "heron", "password": "a long pass phrase 7"},
    )
    assert signed.status_code == 201

    for who in ("nobody", "playing"):
        second = day[who].get(URL, {"page": 2}).json()
        accounts = day[who].get(URL, {"accounts": "true"}).json()

        assert second == hidden(3, page=2), who
        assert accounts == hidden(1, accounts=True), who


def test_a_finished_game_held_for_review_still_reveals_the_scores_to_its_player(day):
    # Held off the board (docs/foresight.md), the game is still played: as the group table does.
    held = day["games"][2]
    assert attempt_hold(attempt_id=held["id"])

    body = day["finishers"][2].get(URL).json()

    assert (body["revealed"], body["me"], body["players"]) == (True, None, 2)


def test_during_the_grace_a_game_in_progress_still_plays_and_sees_no_score(day, clock):
    clock.move_to(GRACE)
    playing, attempt = day["playing"], day["in_progress"]

    board = playing.get(URL).json()
    moved = act(playing, attempt, greedy_action(attempt))

    assert board == hidden(3, status="grace")
    assert moved.status_code == 200, moved.json()
    assert day["nobody"].get(URL).json() == hidden(3, status="grace")


def test_after_the_close_everyone_sees_everything(day, clock):
    clock.move_to(CLOSE)
    games = day["games"]

    for who in ("nobody", "idle", "playing"):
        body = day[who].get(URL).json()

        assert (body["status"], body["revealed"]) == ("closed", True), who
        assert sorted(e["score"] for e in body["entries"]) == sorted(g["score"] for g in games)
        assert all(e["attempt"] is not None for e in body["entries"])
        assert body["distribution"]["best"] == max(g["score"] for g in games)
        assert body["reference"] is not None


def test_leaderboard_answers_are_never_kept_by_a_shared_cache(day):
    answers = [
        day["nobody"].get(URL),
        day["finishers"][0].get(URL),
        day["nobody"].get("/leaderboard"),
    ]

    for response in answers:
        directives = {d.strip() for d in response["Cache-Control"].split(",")}
        assert {"private", "no-cache"} <= directives
        assert "Cookie" in response["Vary"]


# A friend challenge's leaderboard.


@pytest.mark.parametrize("turn_seconds", [None, 30])
def test_an_open_challenges_scores_are_hidden_until_you_finish_then_public_once_closed(
    clock, turn_seconds
):
    creator, friend, stranger = Client(), Client(), Client()
    made = post(creator, "/api/challenges", {"days": 1, "turn_seconds": turn_seconds})
    code = made.json()["code"]
    board_url = f"/api/challenges/{code}/leaderboard"
    start = post(friend, f"/api/challenges/{code}/attempts").json()
    done = play_greedy(friend, start)

    before = [c.get(board_url).json() for c in (creator, stranger)]
    mine = play_greedy(creator, post(creator, f"/api/challenges/{code}/attempts").json())
    after = creator.get(board_url).json()
    clock.move_to(datetime.datetime.fromisoformat(made.json()["expires_at"]))
    closed = stranger.get(board_url).json()

    for body in before:
        assert (body["revealed"], body["players"], body["pages"]) == (False, 1, 0)
        assert (body["entries"], body["me"], body["distribution"], body["reference"]) == (
            [],
            None,
            None,
            None,
        )
    scores = sorted([done["score"], mine["score"]], reverse=True)
    assert after["revealed"] is True
    assert [e["score"] for e in after["entries"]] == scores
    assert (closed["status"], closed["revealed"]) == ("closed", True)
    assert [e["score"] for e in closed["entries"]] == scores


# Every other route a player who has not finished could read the day's scores from.


def test_the_days_frozen_statistics_show_only_once_its_status_is_closed(day, clock):
    # Even a row closed too early (issue 39 item 3's hole) tells no score while the day is open.
    Puzzle.objects.filter(day=DAY).update(
        closed_at=datetime.datetime(2026, 11, 29, 11, tzinfo=UTC),
        final_stats={"players": 3, "best": 9999, "mean": 1.0, "median": 1.0, "histogram": []},
    )

    open_today = day["nobody"].get("/api/daily/today").json()
    open_day = day["playing"].get(f"/api/daily/{DAY}").json()
    clock.move_to(CLOSE)
    closed_day = day["nobody"].get(f"/api/daily/{DAY}").json()

    assert (open_today["status"], open_today["final_stats"]) == ("open", None)
    assert (open_day["status"], open_day["final_stats"]) == ("open", None)
    assert (closed_day["status"], closed_day["final_stats"]["best"]) == ("closed", 9999)


def test_another_players_game_cannot_be_read_before_the_close(day):
    theirs = day["games"][0]["id"]

    for who in ("nobody", "idle", "playing"):
        client = day[who]
        state = client.get(f"/api/attempts/{theirs}")
        analysis = client.get(f"/api/attempts/{theirs}/analysis")
        replay = client.get(f"/attempts/{theirs}/replay")
        verified = client.get(f"/api/verify/daily/{DAY}", {"attempt": theirs})

        assert (state.status_code, analysis.status_code, replay.status_code) == (404, 404, 404)
        assert (verified.status_code, verified.json()["code"]) == (409, "not_revealed"), who


def test_my_own_records_tell_nothing_of_the_others(day):
    # /api/me of a player whose game is in progress: their own game, no rank, no one else's.
    me = day["playing"].get("/api/me").json()

    assert [(h["attempt"], h["rank"], h["percentile"]) for h in me["history"]] == [
        (day["in_progress"]["id"], None, None)
    ]


def test_a_group_table_and_season_hide_the_day_until_it_closes_not_only_ends(day, clock):
    # Ann finished; Bob's game is in progress when the day ends, and still playable in its grace.
    ann, bob = day["finishers"][0], day["playing"]
    group = post(ann, "/api/groups", {"name": "Lunch crew"}).json()
    assert post(bob, f"/api/groups/{group['code']}/members").status_code == 200
    table_url = f"/api/groups/{group['code']}/table?day={DAY}"
    season_url = f"/api/groups/{group['code']}/season"

    mine = bob.get("/api/groups").json()
    clock.move_to(GRACE)
    table = bob.get(table_url).json()
    season = bob.get(season_url).json()
    clock.move_to(CLOSE)
    closed_table = bob.get(table_url).json()
    closed_season = bob.get(season_url).json()

    assert table["revealed"] is False
    assert [r["score"] for r in table["rows"]] == [None, None]
    assert {r["days"] for r in season["all_time"]} == {0}
    assert {r["total"] for r in season["all_time"]} == {0}
    assert (mine[0]["my_rank"], mine[0]["leader"], mine[0]["leader_score"]) == (None, None, None)
    assert closed_table["revealed"] is True
    ann_score = day["games"][0]["score"]
    assert ann_score in [r["score"] for r in closed_table["rows"]]
    assert ann_score in [r["total"] for r in closed_season["all_time"]]


def test_the_leaderboard_page_invites_a_player_who_has_not_finished_to_play_first(day):
    # The page is a shell (static/js/board.js reads the API): it holds the note the script shows
    # while the API hides the scores, and beside it the way to play as the visitor's game stands.
    for who, label in [("nobody", "Play today's daily"), ("playing", "Resume today's daily")]:
        page = day[who].get("/leaderboard").content.decode().replace("&#x27;", "'")

        assert 'data-role="hidden-scores"' in page, who
        assert f'href="/">{label}</a>' in page, who
