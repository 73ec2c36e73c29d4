"""Issue 40 item 4: retry from a decision. A practice game started at a decision of a finished
game, on the same dice, never on an open puzzle's dice, never official.

The expected state comes from the engine replaying the original's stored actions one at a time
on the seed the puzzle reveals at its close (or the practice game's own seed by the README's
recipe), stopped at the throw the analysis names for the decision; the throws after another
choice come from the README's standard-library recipe for the dice.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import re

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

import farkle
from play.models import Attempt, Player
from tests.daily.helpers import act, play_greedy, post, start_daily
from tests.helpers import assert_documented

pytestmark = [pytest.mark.django_db]

DAY = "2026-11-29"
# The day's daily ends at the next 00:00 UTC and takes actions for 90 s more (docs/play.md).
ENDS = "2026-11-30T00:00:00Z"
LAST_OF_GRACE = "2026-11-30T00:01:29.999999Z"
CLOSES = "2026-11-30T00:01:30Z"


def retry(client: Client, attempt_id: int, body):
    return post(client, f"/api/attempts/{attempt_id}/retries", body)


def faces(seed: bytes, turn: int, roll: int, size: int = 6) -> list[int]:
    """Throw ``roll`` of ``turn`` from a seed, as the README's snippet computes it."""
    found, block = [], 0
    while len(found) < size:
        digest = hmac.new(seed, f"roll:{turn}:{roll}:{block}".encode(), hashlib.sha256).digest()
        found += [b % 6 + 1 for b in digest if b < 252]
        block += 1
    return found[:size]


def state_at(seed: bytes, actions: list[dict], turn: int, roll: int) -> farkle.Game:
    """The original game replayed action by action until it waits for a keep of throw ``roll``
    of ``turn``."""
    game = farkle.Game.new(seed)
    for action in actions:
        if game.state == farkle.AWAITING_KEEP and (game.turn, game.roll) == (turn, roll):
            return game
        game = game.apply(farkle.action_from_dict(action))
    raise AssertionError(f"the game never waited at turn {turn}, throw {roll}")


def shown(attempt: dict) -> dict:
    """What a retry's first state shows of the game."""
    return {
        "state": attempt["state"],
        "turn": attempt["turn"],
        "roll": attempt["roll"],
        "dice": attempt["dice"],
        "in_hand": attempt["in_hand"],
        "turn_points": attempt["turn_points"],
        "score": attempt["score"],
        "throws": [
            (t["turn"], [(th["dice"], th["kept"]) for th in t["throws"]], t["points"])
            for t in attempt["turns"]
        ],
    }


def engine_shown(game: farkle.Game) -> dict:
    return {
        "state": game.state,
        "turn": game.turn,
        "roll": game.roll,
        "dice": list(game.dice),
        "in_hand": game.in_hand,
        "turn_points": game.turn_points,
        "score": game.score,
        "throws": [
            (t.number, [(list(th.dice), list(th.kept)) for th in t.throws], t.points)
            for t in game.turns
        ],
    }


def finished_daily(client: Client) -> dict:
    return play_greedy(client, start_daily(client, DAY), bank_at=350)


def test_a_retry_starts_at_the_decision_on_the_same_dice_and_plays_on_them(client, clock):
    original = finished_daily(client)
    clock.move_to(CLOSES)
    seed = bytes.fromhex(client.get(f"/api/daily/{DAY}").json()["revealed_seed"])
    decisions = client.get(f"/api/attempts/{original['id']}/analysis").json()["decisions"]
    stored = Attempt.objects.get(pk=original["id"]).actions
    assert len(decisions) >= 3
    for index in (0, len(decisions) // 2, len(decisions) - 1):
        decision = decisions[index]
        response = retry(client, original["id"], {"decision": index})
        assert response.status_code == 201, response.json()
        assert_documented(response, "/api/attempts/{attempt_id}/retries", "post")
        body = response.json()
        expected = state_at(seed, stored, decision["turn"], decision["roll"])
        assert shown(body) == engine_shown(expected)
        assert body["dice"] == decision["dice"]
        assert (body["official"], body["dice_source"]) == (False, "puzzle")
        assert (body["retry_of"], original["retry_of"]) == (original["id"], None)
        assert body["puzzle"] == {"kind": "daily", "date": DAY}
        assert body["deadline"] is None
    # Another choice than the original's, then the next throw: the puzzle's dice at that throw.
    chosen = decisions[0]["chosen"]["dice"]
    first = retry(client, original["id"], {"decision": 0}).json()
    other = next(o for o in first["keep_options"] if o["dice"] != chosen and o["dice_left"])
    after = act(client, first, {"action": "keep", "dice": other["dice"], "then": "roll"})
    assert after.status_code == 200, after.json()
    thrown = after.json()["turns"][-1]["throws"][-1]["dice"]
    turn, roll = decisions[0]["turn"], decisions[0]["roll"]
    assert thrown == faces(seed, turn, roll + 1)[: other["dice_left"]]
    # The coach helps in a retry: it is practice.
    coach = client.get(f"/api/attempts/{first['id']}/coach")
    assert coach.status_code == 200, coach.json()


def test_a_retry_is_never_official_ranked_or_in_a_streak(client, clock):
    original = finished_daily(client)
    clock.move_to(CLOSES)
    board = f"/api/daily/{DAY}/leaderboard"
    before_board, before_me = client.get(board).json(), client.get("/api/me").json()
    attempt = retry(client, original["id"], {"decision": 1}).json()
    finished = play_greedy(client, attempt, bank_at=10_000)
    assert finished["state"] == "finished" and not finished["official"]
    after_board, after_me = client.get(board).json(), client.get("/api/me").json()
    assert after_board["players"] == before_board["players"] == 1
    assert [e["attempt"] for e in after_board["entries"]] == [original["id"]]
    assert after_me == before_me
    stored = Attempt.objects.get(pk=finished["id"])
    assert (stored.official, stored.score_position, stored.retry_of_id) == (
        False,
        None,
        original["id"],
    )


def test_no_retry_on_an_open_days_dice_up_to_its_close(client, clock):
    original = finished_daily(client)
    players, attempts = Player.objects.count(), Attempt.objects.count()
    for instant in (None, ENDS, LAST_OF_GRACE):
        if instant:
            clock.move_to(instant)
        response = retry(client, original["id"], {"decision": 0})
        assert response.status_code == 409, instant
        assert response.json()["code"] == "not_closed"
        assert response.json()["closes_at"] == CLOSES
        assert response.json()["detail"]
    # Nothing stored by the refusals, not even a player for a visitor who had none.
    stranger = Client()
    clock.move_to(LAST_OF_GRACE)
    assert retry(stranger, original["id"], {"decision": 0}).status_code == 404
    assert (Player.objects.count(), Attempt.objects.count()) == (players, attempts)
    clock.move_to(CLOSES)
    assert retry(client, original["id"], {"decision": 0}).status_code == 201


def test_after_the_close_anyone_may_retry_a_game_whose_replay_they_can_see(client, clock):
    original = finished_daily(client)
    stranger = Client()
    assert retry(stranger, original["id"], {"decision": 0}).status_code == 404
    clock.move_to(CLOSES)
    response = retry(stranger, original["id"], {"decision": 0})
    assert response.status_code == 201, response.json()
    made = Attempt.objects.get(pk=response.json()["id"])
    assert made.player_id != Attempt.objects.get(pk=original["id"]).player_id
    # The original is untouched: the retry plays its own copy of the actions.
    assert client.get(f"/api/attempts/{original['id']}").json() == original | {"events": []}


def test_an_archive_game_of_a_closed_day_may_be_retried(client, clock):
    clock.move_to("2026-12-02T09:00:00Z")
    archive = play_greedy(client, start_daily(client, DAY), bank_at=350)
    assert not archive["official"]
    response = retry(client, archive["id"], {"decision": 0})
    assert response.status_code == 201, response.json()
    assert response.json()["dice_source"] == "puzzle"


def test_a_practice_game_on_its_own_dice_may_be_retried_while_the_day_is_open(client, clock):
    finished_daily(client)
    practice = play_greedy(client, start_daily(client, DAY), bank_at=350)
    assert practice["dice_source"] == "own"
    own_seed = hmac.new(
        settings.FARKLE_SEED_SECRET.encode(),
        f"practice:{practice['id']}".encode(),
        hashlib.sha256,
    ).digest()
    decisions = client.get(f"/api/attempts/{practice['id']}/analysis").json()["decisions"]
    last = len(decisions) - 1
    response = retry(client, practice["id"], {"decision": last})
    assert response.status_code == 201, response.json()
    body = response.json()
    stored = Attempt.objects.get(pk=practice["id"]).actions
    expected = state_at(own_seed, stored, decisions[last]["turn"], decisions[last]["roll"])
    assert shown(body) == engine_shown(expected)
    # The practice game's own dice, committed to as the practice game's were.
    assert body["dice_source"] == "own"
    assert body["commitment"] == practice["commitment"] == hashlib.sha256(own_seed).hexdigest()
    # A retry of the retry still plays those dice.
    again = retry(client, body["id"], {"decision": 0})
    assert again.status_code == 409  # not finished yet
    done = play_greedy(client, body, bank_at=350)
    deeper = retry(client, done["id"], {"decision": 0}).json()
    assert deeper["commitment"] == practice["commitment"]
    assert deeper["dice"] == decisions[0]["dice"]


def test_refusals_say_why_and_store_nothing(client, clock):
    playing = start_daily(client, DAY)
    playing = act(client, playing, {"action": "roll"}).json()
    clock.move_to(CLOSES)
    attempts = Attempt.objects.count()
    unfinished = retry(client, playing["id"], {"decision": 0})
    assert (unfinished.status_code, unfinished.json()["code"]) == (409, "wrong_state")
    clock.move_to("2026-12-02T09:00:00Z")
    done = play_greedy(client, start_daily(client, DAY), bank_at=350)
    attempts = Attempt.objects.count()
    count = len(client.get(f"/api/attempts/{done['id']}/analysis").json()["decisions"])
    beyond = retry(client, done["id"], {"decision": count})
    assert beyond.status_code == 400
    assert (beyond.json()["code"], beyond.json()["decisions"]) == ("invalid_decision", count)
    for body in ({"decision": -1}, {"decision": "0"}, {"decision": 0.0}, {"decision": True}, {}):
        response = retry(client, done["id"], body)
        assert response.status_code == 400, body
        assert response.json()["code"] in ("invalid_decision", "invalid"), body
    listed = retry(client, done["id"], [0])
    assert (listed.status_code, listed.json()["code"]) == (400, "invalid")
    assert retry(client, 10**6, {"decision": 0}).status_code == 404
    assert Attempt.objects.count() == attempts


def test_no_retry_on_an_open_challenges_dice(client, clock):
    made = post(client, "/api/challenges", {"title": "Retry", "days": 1}).json()
    code = made["code"]
    attempt = post(client, f"/api/challenges/{code}/attempts").json()
    done = play_greedy(client, attempt, bank_at=350)
    refused = retry(client, done["id"], {"decision": 0})
    assert (refused.status_code, refused.json()["code"]) == (409, "not_closed")
    closes = datetime.datetime.fromisoformat(made["closes_at"])
    clock.move_to(closes)
    # A closed challenge's page has no board but for a player with a retry to play.
    assert b"data-play" not in client.get(f"/c/{code}").content
    allowed = retry(client, done["id"], {"decision": 0})
    assert allowed.status_code == 201, allowed.json()
    assert allowed.json()["puzzle"] == {"kind": "challenge", "code": code}
    assert b"data-play" in client.get(f"/c/{code}").content
    assert b"data-play" not in Client().get(f"/c/{code}").content
    play_greedy(client, allowed.json(), bank_at=350)
    assert b"data-play" not in client.get(f"/c/{code}").content


def test_a_retry_of_a_timed_challenge_gives_its_turn_the_full_time_from_the_retry(client, clock):
    made = post(client, "/api/challenges", {"days": 1, "turn_seconds": 30}).json()
    attempt = post(client, f"/api/challenges/{made['code']}/attempts").json()
    done = play_greedy(client, attempt, bank_at=350)
    closes = datetime.datetime.fromisoformat(made["closes_at"])
    clock.move_to(closes + datetime.timedelta(hours=1))
    body = retry(client, done["id"], {"decision": 0}).json()
    # Seed 001: a turn has its time from its first throw; the retry's turn is under way.
    started = closes + datetime.timedelta(hours=1, seconds=30)
    assert body["turn_deadline"] == started.isoformat().replace("+00:00", "Z")
    assert body["options"]["turn_seconds"] == 30


def test_the_replay_offers_retry_from_here_only_once_the_day_has_closed(client, clock):
    original = finished_daily(client)
    count = len(client.get(f"/api/attempts/{original['id']}/analysis").json()["decisions"])
    page = f"/attempts/{original['id']}/replay"
    for instant in (None, LAST_OF_GRACE):
        if instant:
            clock.move_to(instant)
        html = client.get(page).content.decode()
        assert 'data-action="retry"' not in html
        assert 'data-role="retry-later"' in html
    clock.move_to(CLOSES)
    html = client.get(page).content.decode()
    assert 'data-role="retry-later"' not in html
    # One button a decision, numbered as the API takes them.
    numbers = [int(n) for n in re.findall(r'data-action="retry" data-decision="(\d+)"', html)]
    assert numbers == list(range(count))
    assert client.cookies.get("csrftoken")


def test_the_replay_names_its_game_in_plain_digits_for_the_retry_script(client, clock):
    """The page's script posts to /api/attempts/<id>/retries with the id the page holds: with
    thousands grouped ("1,508") that was a 404 once ids passed 999."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT setval(pg_get_serial_sequence('daily_attempt', 'id'), 12344)")
    original = finished_daily(client)
    assert original["id"] >= 12345
    clock.move_to(CLOSES)

    html = client.get(f"/attempts/{original['id']}/replay").content.decode()

    assert f'data-attempt="{original["id"]}"' in html
