import datetime

import pytest
from django.conf import settings
from django.test import Client
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

import farkle
from play.apis import schemas
from play.models import Attempt, Puzzle, ScoreCount
from tests.helpers import stored

from .helpers import act, play_greedy, post, start_daily

UTC = datetime.UTC
DAY = "2026-11-29"

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]


def seed() -> bytes:
    return farkle.daily_seed(settings.FARKLE_SEED_SECRET.encode(), datetime.date(2026, 11, 29))


def test_today_gives_the_day_its_commitment_and_a_csrf_cookie(client):
    response = client.get("/api/daily/today")
    assert response.status_code == 200
    assert response.json() == {
        "kind": "daily",
        "date": DAY,
        "table": "farkle-challenge",
        "commitment": farkle.commitment(seed()),
        "opens_at": "2026-11-29T00:00:00Z",
        "ends_at": "2026-11-30T00:00:00Z",
        "closes_at": "2026-11-30T00:01:30Z",
        "status": "open",
        "players": 0,
        "par": 5936,
        "turns_total": 10,
        "revealed_seed": None,
        "final_stats": None,
        "my_attempts": [],
    }
    assert "csrftoken" in response.cookies


def test_the_seed_is_never_served(client):
    start_daily(client, DAY)
    bodies = client.get("/api/daily/today").content + client.get("/api/attempts/1").content
    assert seed().hex().encode() not in bodies
    assert Puzzle.objects.get().commitment == farkle.commitment(seed())


def test_full_game_throws_are_the_roll_vectors_and_scores_add_up(client):
    attempt = play_greedy(client, start_daily(client, DAY))
    assert attempt["state"] == "finished" and attempt["official"]
    for turn in attempt["turns"]:
        hand = 6
        for k, throw in enumerate(turn["throws"], start=1):
            assert throw["dice"] == farkle.roll_vector(seed(), turn["turn"], k)[:hand]
            hand = hand - len(throw["kept"]) or 6
    assert attempt["score"] == sum(t["points"] for t in attempt["turns"])
    assert len(attempt["turns"]) == 10
    replayed = farkle.Game.replay(seed(), Attempt.objects.get().actions)
    assert (replayed.score, replayed.step) == (attempt["score"], attempt["step"])
    assert list(ScoreCount.objects.values_list("score", "count")) == [(attempt["score"], 1)]


def test_two_players_see_the_same_first_throw_of_every_turn(client):
    other = Client()
    mine = play_greedy(client, start_daily(client, DAY), bank_at=200)
    theirs = play_greedy(other, start_daily(other, DAY), bank_at=1000)
    firsts = [[t["throws"][0]["dice"] for t in a["turns"]] for a in (mine, theirs)]
    assert firsts[0] == firsts[1] == [farkle.roll_vector(seed(), t, 1) for t in range(1, 11)]


def test_first_attempt_is_official_and_later_ones_practice(client):
    first = play_greedy(client, start_daily(client, DAY))
    second = start_daily(client, DAY)
    day = client.get("/api/daily/today").json()
    assert (first["official"], second["official"], day["players"]) == (True, False, 1)
    assert [a["official"] for a in day["my_attempts"]] == [True, False]


def test_no_practice_while_the_official_game_is_unfinished(client):
    # A practice game on the same dice would show the official game's coming throws.
    official = start_daily(client, DAY)
    refused = post(client, f"/api/daily/{DAY}/attempts")
    assert (refused.status_code, refused.json()) == (
        409,
        {
            "detail": "Finish your official game first; practice opens once it is over.",
            "code": "wrong_state",
            "attempt_id": official["id"],
        },
    )
    assert Attempt.objects.count() == 1


def test_attempt_state_shows_only_what_was_thrown(client):
    attempt = start_daily(client, DAY)
    assert (attempt["state"], attempt["dice"], attempt["keep_options"]) == ("awaiting_roll", [], [])
    rolled = act(client, attempt, {"action": "roll"}).json()
    assert rolled["dice"] == farkle.roll_vector(seed(), 1, 1)
    assert [len(t["throws"]) for t in rolled["turns"]] == [1]


# Farkle risks by dice in hand, counted by hand over every outcome (seed 000's table: 2.31 % with
# six dice, 7.72 % with five, 15.74 % with four).
RISK_6, RISK_5, RISK_4 = 5 / 216, 25 / 324, 17 / 108


def test_keep_options_carry_scores_and_next_risk(client):
    attempt = rolled_attempt(client)
    # The test secret's first throw; a 5 scores 50 (seed 000) and the other faces nothing.
    assert attempt["dice"] == [3, 5, 5, 6, 4, 2]
    assert attempt["keep_options"] == [
        {
            "dice": [1],
            "score": 50,
            "dice_left": 5,
            "farkle_risk": RISK_5,
            "can_bank": True,
            "bank_needs": None,
            "hot_dice": False,
        },
        {
            "dice": [2],
            "score": 50,
            "dice_left": 5,
            "farkle_risk": RISK_5,
            "can_bank": True,
            "bank_needs": None,
            "hot_dice": False,
        },
        {
            "dice": [1, 2],
            "score": 100,
            "dice_left": 4,
            "farkle_risk": RISK_4,
            "can_bank": True,
            "bank_needs": None,
            "hot_dice": False,
        },
    ]
    assert attempt["farkle_risk"] == RISK_6


def test_keeping_all_six_dice_gives_six_back(client):
    attempt = start_daily(client, DAY)
    # Bank the first scoring keep of turns 1 to 6 (or Farkle) to reach turn 7's straight.
    while attempt["turn"] < 7:
        if attempt["state"] == "awaiting_roll":
            attempt = act(client, attempt, {"action": "roll"}).json()
        else:
            first = attempt["keep_options"][0]["dice"]
            attempt = act(client, attempt, {"action": "keep", "dice": first, "then": "bank"}).json()
    attempt = act(client, attempt, {"action": "roll"}).json()
    # A straight, 1 to 6, scores 1,500 (seed 000) and is hot dice: all six come back.
    assert attempt["dice"] == [2, 4, 6, 1, 3, 5]
    assert attempt["keep_options"][-1] == {
        "dice": [0, 1, 2, 3, 4, 5],
        "score": 1500,
        "dice_left": 6,
        "farkle_risk": RISK_6,
        "can_bank": True,
        "bank_needs": None,
        "hot_dice": True,
    }


def test_another_players_attempt_is_invisible(client):
    attempt = start_daily(client, DAY)
    stranger = Client()
    assert stranger.get(f"/api/attempts/{attempt['id']}").json() == {
        "detail": "No such attempt.",
        "code": "not_found",
    }
    before = stored(attempt["id"])
    response = act(stranger, attempt, {"action": "roll"})
    assert (response.status_code, response.json()["code"]) == (404, "not_found")
    assert stored(attempt["id"]) == before


def rolled_attempt(client) -> dict:
    """An attempt of the test secret's daily waiting for a keep."""
    attempt = act(client, start_daily(client, DAY), {"action": "roll"}).json()
    assert attempt["state"] == "awaiting_keep", "the test secret's first throw must score"
    return attempt


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"action": "keep", "dice": [9], "then": "roll"}, 400, "invalid_dice"),
        ({"action": "keep", "dice": [0, 0], "then": "roll"}, 400, "invalid_dice"),
        ({"action": "keep", "dice": [], "then": "roll"}, 400, "invalid_dice"),
        ({"action": "keep", "dice": "0", "then": "roll"}, 400, "invalid_dice"),
        ({"action": "keep", "dice": [0], "then": "later"}, 400, "invalid_action"),
        ({"action": "keep", "dice": [0]}, 400, "invalid_action"),
        ({"action": "bank"}, 400, "invalid_action"),
        ({"action": "roll"}, 409, "wrong_state"),
    ],
)
def test_refused_actions_leave_the_attempt_unchanged(client, body, status, code):
    attempt = rolled_attempt(client)
    before = stored(attempt["id"])
    response = act(client, attempt, body)
    assert (response.status_code, response.json()["code"]) == (status, code)
    assert stored(attempt["id"]) == before


def test_keep_with_a_non_scoring_die_is_not_scoring(client):
    attempt = rolled_attempt(client)
    dead = [i for i, d in enumerate(attempt["dice"]) if farkle.score([d]) is None]
    assert dead, "the test secret's first throw must have a die that does not score alone"
    before = stored(attempt["id"])
    response = act(client, attempt, {"action": "keep", "dice": dead[:1], "then": "roll"})
    assert (response.status_code, response.json()["code"]) == (400, "not_scoring")
    assert stored(attempt["id"]) == before


def test_stale_step_is_refused_with_the_current_state(client):
    attempt = start_daily(client, DAY)
    rolled = act(client, attempt, {"action": "roll"}).json()
    before = stored(attempt["id"])
    replay = act(client, attempt, {"action": "roll"})  # the same request again, step 0
    assert replay.status_code == 409
    assert replay.json() == {
        "detail": f"This game is at step {rolled['step']}, not 0: reload it.",
        "code": "stale_step",
        # The attempt as it stands: read, not acted on, so no events.
        "attempt": {**rolled, "events": []},
    }
    assert stored(attempt["id"]) == before


def test_actions_on_a_finished_game_are_refused(client):
    attempt = play_greedy(client, start_daily(client, DAY))
    before = stored(attempt["id"])
    response = act(client, attempt, {"action": "roll"})
    assert (response.status_code, response.json()["code"]) == (409, "finished")
    # The game as it stands, read rather than acted on: no events.
    assert response.json()["attempt"] == {**attempt, "events": []}
    assert stored(attempt["id"]) == before


@pytest.mark.parametrize(
    ("raw", "content_type"),
    [
        (b"{not json", "application/json"),
        (b"[1, 2]", "application/json"),
        (b'"roll"', "application/json"),
        (b"null", "application/json"),
        (b'{"step": "zero", "action": "roll"}', "application/json"),
        (b'{"step": -1, "action": "roll"}', "application/json"),
        (b'{"step": 0, "action": "roll", "dice": [[0]]}', "application/json"),
        (b"step=0&action=roll", "application/x-www-form-urlencoded"),
        (b"\xff\xfe", "application/json"),
        (b'{"step": 0, "action": "roll", "pad": "' + b"x" * 40_000 + b'"}', "application/json"),
    ],
)
def test_malformed_bodies_are_400_and_store_nothing(client, raw, content_type):
    attempt = start_daily(client, DAY)
    before = stored(attempt["id"])
    response = client.post(f"/api/attempts/{attempt['id']}/actions", raw, content_type=content_type)
    assert response.status_code in (400, 415), response.content
    assert set(response.json()) >= {"detail", "code"}
    assert stored(attempt["id"]) == before


action_bodies = st.fixed_dictionaries(
    {},
    optional={
        "step": st.one_of(st.integers(-5, 50), st.text(max_size=3), st.none(), st.floats()),
        "action": st.one_of(st.sampled_from(["roll", "keep", "bank", ""]), st.integers()),
        "dice": st.one_of(st.lists(st.integers(-3, 9), max_size=8), st.text(max_size=4), st.none()),
        "then": st.one_of(st.sampled_from(["roll", "bank", "x"]), st.booleans()),
    },
)


@hypothesis_settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=action_bodies)
def test_no_action_body_causes_a_500(client, body):
    attempt = Attempt.objects.filter(puzzle__day=DAY).first()
    attempt_id = start_daily(client, DAY)["id"] if attempt is None else attempt.pk
    response = post(client, f"/api/attempts/{attempt_id}/actions", body)
    assert response.status_code in (200, 400, 409), (body, response.content)
    assert set(response.json()) >= ({"detail", "code"} if response.status_code >= 400 else {"id"})


def test_representation_matches_the_documented_schema(client):
    attempt = play_greedy(client, start_daily(client, DAY))
    documented = set(schemas.AttemptSerializer().fields)
    assert set(attempt) == documented
    day = client.get("/api/daily/today").json()
    assert set(day) == set(schemas.DailySerializer().fields)


def test_schema_lists_the_daily_endpoints(client):
    paths = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()["paths"]
    assert {
        "/api/daily/today",
        "/api/daily/{day}",
        "/api/daily/{day}/attempts",
        "/api/attempts/{attempt_id}",
        "/api/attempts/{attempt_id}/actions",
    } <= set(paths)


@pytest.mark.parametrize(
    "path",
    [
        "/api/attempts/99999999999999999999999",
        "/api/attempts/0",
        "/api/attempts/abc",
        "/api/no-such-endpoint",
    ],
)
def test_unknown_things_are_json_404s(client, path):
    response = client.get(path)
    assert (response.status_code, response.json()["code"]) == (404, "not_found")


def test_a_day_with_my_attempts_costs_the_same_queries_for_1_and_3(
    client, django_assert_num_queries
):
    play_greedy(client, start_daily(client, DAY))
    # The session is read from the shared cache (cached_db), not from the database.
    with django_assert_num_queries(3):
        assert len(client.get(f"/api/daily/{DAY}").json()["my_attempts"]) == 1
    play_greedy(client, start_daily(client, DAY))
    start_daily(client, DAY)
    with django_assert_num_queries(3):
        assert len(client.get(f"/api/daily/{DAY}").json()["my_attempts"]) == 3


@pytest.mark.parametrize("attempt_id", ["99999999999999999999999", "9223372036854775808", "0"])
def test_an_action_on_an_attempt_beyond_any_id_is_a_404(client, attempt_id):
    start_daily(client, DAY)  # a player, so that the attempt is looked up
    response = post(client, f"/api/attempts/{attempt_id}/actions", {"step": 0, "action": "roll"})
    assert (response.status_code, response.json()["code"]) == (404, "not_found")
