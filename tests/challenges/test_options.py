"""Challenge options (issue 14): house rules and a clock per turn, over HTTP and at the services.

The clock is checked at named instants with time-machine (seed 001: an action the server receives
before the turn's end is taken, at the exact instant it is refused); the expected times are the
ones this test kept while playing, the par is the solver's (``farkle.game_par``) for the rules.
"""

from __future__ import annotations

import datetime
import json

import pytest
from django.conf import settings
from django.db import IntegrityError, transaction
from django.test import Client
from rest_framework.renderers import JSONRenderer

import farkle
from challenges import services
from challenges.apis import ChallengeLeaderboardSerializer
from challenges.models import Challenge
from daily.services.rollover import puzzle_close
from farkle_site.domain import Conflict, Invalid
from play.models import Attempt, Puzzle
from play.selectors.leaderboards import attempt_ranks, leaderboard_page
from play.services.attempts import attempt_act, attempt_clock, attempt_start
from play.services.players import player_create
from tests.helpers import assert_documented
from tests.moments import NOON

from ..daily.helpers import act, post, start_daily

pytestmark = pytest.mark.django_db

RULES = {"entry_minimum": 500, "farkle_penalty": 500, "turn_seconds": 30}
SECOND = datetime.timedelta(seconds=1)
MILLISECOND = datetime.timedelta(milliseconds=1)


def create(client: Client, **body) -> dict:
    response = post(client, "/api/challenges", body)
    assert response.status_code == 201, response.json()
    return response.json()


def start(client: Client, code: str) -> dict:
    response = post(client, f"/api/challenges/{code}/attempts")
    assert response.status_code == 201, response.json()
    return response.json()


def ok(response) -> dict:
    assert response.status_code == 200, response.json()
    return response.json()


def stored_seed(code: str) -> bytes:
    return farkle.challenge_seed(settings.FARKLE_SEED_SECRET.encode(), code)


def play(client: Client, clock, attempt: dict, *, pace: datetime.timedelta) -> tuple[dict, float]:
    """Play to the end, ``pace`` between actions: keep the most points, bank from 300 where the
    game allows it. Returns the finished attempt and the seconds its turns took, timed here:
    from each turn's first throw to the action that ended it."""
    taken = datetime.timedelta()
    turn_started = None
    while attempt["state"] != "finished":
        clock.shift(pace)
        now = datetime.datetime.now(tz=datetime.UTC)
        if attempt["state"] == "awaiting_roll":
            first_throw = attempt["roll"] == 0
            response = act(client, attempt, {"action": "roll"})
            if first_throw:
                turn_started = now
        else:
            best = max(attempt["keep_options"], key=lambda o: (o["score"], -len(o["dice"])))
            held = attempt["turn_points"] + best["score"]
            then = "bank" if best["can_bank"] and held >= 300 else "roll"
            response = act(client, attempt, {"action": "keep", "dice": best["dice"], "then": then})
        after = ok(response)
        if after["turn"] != attempt["turn"] or after["state"] == "finished":
            taken += now - turn_started
        attempt = after
    return attempt, taken.total_seconds()


def test_create_with_options_shows_them_and_the_par_under_those_rules(client, clock):
    response = post(client, "/api/challenges", {"table": "popular", **RULES})
    assert_documented(response, "/api/challenges", "post")
    made = response.json()
    assert made["options"] == RULES
    par = farkle.game_par("popular", farkle.HouseRules(500, 500))
    assert made["par"] == round(par)
    # Par with an entry minimum is not par without one (issue 14).
    assert made["par"] != round(farkle.game_par("popular"))
    shown = client.get(f"/api/challenges/{made['code']}").json()
    assert (shown["options"], shown["par"]) == (RULES, round(par))
    puzzle = Puzzle.objects.get()
    assert (puzzle.entry_minimum, puzzle.farkle_penalty, puzzle.turn_seconds) == (500, 500, 30)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"entry_minimum": 400}, "entry_minimum"),
        ({"entry_minimum": -500}, "entry_minimum"),
        ({"entry_minimum": "500"}, "entry_minimum"),
        ({"entry_minimum": True}, "entry_minimum"),
        ({"entry_minimum": 500.0}, "entry_minimum"),
        ({"farkle_penalty": 250}, "farkle_penalty"),
        ({"farkle_penalty": None}, "farkle_penalty"),
        ({"farkle_penalty": [500]}, "farkle_penalty"),
        ({"turn_seconds": 45}, "turn_seconds"),
        ({"turn_seconds": 0}, "turn_seconds"),
        ({"turn_seconds": "30"}, "turn_seconds"),
        ({"turn_seconds": False}, "turn_seconds"),
    ],
)
def test_a_bad_option_is_invalid_option_and_creates_nothing(client, clock, body, field):
    response = post(client, "/api/challenges", body)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_option"
    assert field in response.json()["detail"]
    assert not Challenge.objects.exists() and not Puzzle.objects.exists()


def test_the_daily_has_no_options_and_the_database_says_so(client, clock):
    attempt = start_daily(client, "2026-11-29")
    assert attempt["options"] == {"entry_minimum": 0, "farkle_penalty": 0, "turn_seconds": None}
    rolled = ok(act(client, attempt, {"action": "roll"}))
    assert (rolled["turn_deadline"], rolled["time_taken"]) == (None, 0.0)
    daily = Puzzle.objects.get(kind="daily")
    for option in ({"entry_minimum": 500}, {"farkle_penalty": 500}, {"turn_seconds": 30}):
        with pytest.raises(IntegrityError), transaction.atomic():
            Puzzle.objects.filter(pk=daily.pk).update(**option)


def test_the_clock_takes_an_action_at_29_999_seconds_and_times_out_at_30(client, clock):
    code = create(client, **RULES)["code"]
    attempt = start(client, code)
    assert attempt["turn_deadline"] is None
    # The turn's time starts with its first throw (a Farkle ends it at once: throw again).
    while True:
        started = datetime.datetime.now(tz=datetime.UTC)
        attempt = ok(act(client, attempt, {"action": "roll"}))
        if attempt["state"] == "awaiting_keep":
            break
        assert attempt["turn_deadline"] is None
    deadline = started + 30 * SECOND
    assert_documented(
        client.get(f"/api/attempts/{attempt['id']}"), "/api/attempts/{attempt_id}", "get"
    )
    assert attempt["turn_deadline"] == deadline.isoformat().replace("+00:00", "Z")
    assert all(not o["can_bank"] for o in attempt["keep_options"] if o["score"] < 500)
    turn = attempt["turn"]
    # 29.999 s: taken. Keep one scoring die and roll on, so the turn keeps running.
    clock.move_to(deadline - MILLISECOND)
    smallest = min(attempt["keep_options"], key=lambda o: (len(o["dice"]), o["score"]))
    attempt = ok(act(client, attempt, {"action": "keep", "dice": smallest["dice"], "then": "roll"}))
    if attempt["turn"] != turn:
        # That throw was a Farkle: a fresh turn, thrown now, has 30 s of its own.
        assert attempt["turn_deadline"] is None
        while attempt["state"] != "awaiting_keep":
            started = datetime.datetime.now(tz=datetime.UTC)
            attempt = ok(act(client, attempt, {"action": "roll"}))
        deadline, turn = started + 30 * SECOND, attempt["turn"]
    score, actions = attempt["score"], len(Attempt.objects.get().actions)
    # 30.000 s: refused, and the turn ends with nothing banked.
    clock.move_to(deadline)
    late = act(
        client,
        attempt,
        {"action": "keep", "dice": attempt["keep_options"][0]["dice"], "then": "roll"},
    )
    assert late.status_code == 409
    assert_documented(late, "/api/attempts/{attempt_id}/actions", "post")
    assert late.json()["code"] == "turn_timed_out"
    shown = late.json()["attempt"]
    assert (shown["turn"], shown["score"], shown["state"]) == (turn + 1, score, "awaiting_roll")
    assert shown["turns"][turn - 1]["points"] == 0 and shown["turn_deadline"] is None
    # Each turn says whether its clock ran out (issue 40: the page marks it ✗, not a bank of 0).
    assert [t["timed_out"] for t in shown["turns"] if t["done"]] == [False] * (turn - 1) + [True]
    stored = Attempt.objects.get()
    assert stored.actions[actions:] == [{"action": "timeout", "turn": turn}]
    # The timeout replays: the stored actions under the challenge's rules give the same game.
    replayed = farkle.Game.replay(
        stored_seed(code), stored.actions, "farkle-challenge", farkle.HouseRules(500, 500)
    )
    assert (replayed.turn, replayed.score, replayed.turns[turn - 1].timed_out) == (
        turn + 1,
        score,
        True,
    )


def test_a_turn_left_alone_times_out_at_the_next_read(client, clock):
    code = create(client, **RULES)["code"]
    attempt = start(client, code)
    while attempt["state"] != "awaiting_keep":
        started = datetime.datetime.now(tz=datetime.UTC)
        attempt = ok(act(client, attempt, {"action": "roll"}))
    turn = attempt["turn"]
    clock.move_to(started + 30 * SECOND - MILLISECOND)
    assert client.get(f"/api/attempts/{attempt['id']}").json()["turn"] == turn
    clock.move_to(started + 30 * SECOND)
    read = client.get(f"/api/attempts/{attempt['id']}")
    assert_documented(read, "/api/attempts/{attempt_id}", "get")
    assert (read.json()["turn"], read.json()["turn_deadline"]) == (turn + 1, None)
    assert Attempt.objects.get().actions[-1] == {"action": "timeout", "turn": turn}


def test_ties_on_a_timed_challenge_go_to_the_least_time_taken(clock):
    creator = Client()
    code = create(creator, **RULES)["code"]
    slow, quick = Client(), Client()
    # The same dice and the same choices give the same score; only the pace differs.
    slow_done, slow_time = play(slow, clock, start(slow, code), pace=2 * SECOND)
    quick_done, quick_time = play(quick, clock, start(quick, code), pace=SECOND)
    assert slow_done["score"] == quick_done["score"]
    assert (slow_done["time_taken"], quick_done["time_taken"]) == (slow_time, quick_time)
    assert quick_time < slow_time
    board = quick.get(f"/api/challenges/{code}/leaderboard")
    assert_documented(board, "/api/challenges/{code}/leaderboard", "get")
    data = board.json()
    assert (data["options"], data["tie_break"]) == (RULES, "time_taken")
    assert [(e["rank"], e["mine"], e["time_taken"]) for e in data["entries"]] == [
        (1, True, quick_time),
        (2, False, slow_time),
    ]
    assert data["me"]["rank"] == 1
    assert slow.get(f"/api/challenges/{code}/leaderboard").json()["me"]["rank"] == 2
    # The view builds the payload itself; the serializer that documents it agrees.
    puzzle = Puzzle.objects.get()
    board = leaderboard_page(
        puzzle=puzzle,
        page=1,
        now=datetime.datetime.now(tz=datetime.UTC),
        player=Attempt.objects.get(pk=quick_done["id"]).player,
    )
    objects = {**data, "entries": board.entries, "me": board.me, "distribution": board.distribution}
    rendered = JSONRenderer().render(ChallengeLeaderboardSerializer(objects).data)
    assert data == json.loads(rendered)
    # At the close the ranks freeze in the same order; the verification serves the options.
    clock.move_to(NOON + datetime.timedelta(days=7))
    puzzle_close(puzzle_id=Puzzle.objects.get().pk, now=datetime.datetime.now(tz=datetime.UTC))
    ranks = attempt_ranks([quick_done["id"], slow_done["id"]])
    assert (ranks[quick_done["id"]], ranks[slow_done["id"]]) == ((1, 0.0), (2, 0.0))
    verified = creator.get(f"/api/verify/challenges/{code}?attempt={slow_done['id']}")
    assert_documented(verified, "/api/verify/challenges/{code}", "get")
    facts = verified.json()
    assert facts["options"] == RULES
    assert facts["par"] == round(farkle.game_par("farkle-challenge", farkle.HouseRules(500, 500)))
    assert facts["attempt"]["timed_out_turns"] == []
    seed = bytes.fromhex(facts["seed"])
    for throw in facts["attempt"]["throws"]:
        vector = farkle.roll_vector(seed, throw["turn"], throw["roll"], 6)
        assert throw["dice"] == vector[: len(throw["dice"])]


def test_an_untimed_challenge_with_house_rules_keeps_shared_ranks(clock):
    code = create(Client(), entry_minimum=350)["code"]
    first, second = Client(), Client()
    play(first, clock, start(first, code), pace=SECOND)
    play(second, clock, start(second, code), pace=2 * SECOND)
    data = first.get(f"/api/challenges/{code}/leaderboard").json()
    assert data["tie_break"] == "finished_at"
    assert [(e["rank"], e["time_taken"]) for e in data["entries"]] == [(1, None), (1, None)]


def test_the_close_ends_a_running_turn_and_counts_its_time(client, clock):
    code = create(client, **RULES, days=1)["code"]
    attempt = start(client, code)
    while attempt["state"] != "awaiting_keep":
        attempt = ok(act(client, attempt, {"action": "roll"}))
    clock.shift(datetime.timedelta(days=1))
    puzzle_close(puzzle_id=Puzzle.objects.get().pk, now=datetime.datetime.now(tz=datetime.UTC))
    stored = Attempt.objects.get()
    assert stored.state == "finished" and stored.finalised_at_close
    # Seed 001: the turn ended when its 30 s ran out, long before the close.
    assert stored.time_taken == 30 * SECOND and stored.turn_started_at is None


def test_the_services_refuse_a_bad_option_and_time_a_turn_out(clock):
    creator = player_create(now=NOON)
    with pytest.raises(Invalid) as refused:
        services.challenge_create(creator=creator, entry_minimum=400, now=NOON)
    assert refused.value.code == "invalid_option"
    assert not Puzzle.objects.exists()
    challenge = services.challenge_create(creator=creator, turn_seconds=60, now=NOON)
    attempt = attempt_start(player=creator, puzzle=challenge.puzzle, now=NOON)
    started, game = NOON, attempt.game()
    while game.state != "awaiting_keep":
        # A first throw that Farkles ends its turn at once: the next turn's throw starts anew.
        started += SECOND
        attempt, game = attempt_act(
            attempt_id=attempt.pk,
            player_id=creator.pk,
            step=game.step,
            action={"action": "roll"},
            now=started,
        )
    assert attempt.turn_deadline() == started + 60 * SECOND
    # Read at 59.999 s: nothing changes; at 60 s the turn is over.
    same, _ = attempt_clock(attempt=attempt, now=started + 60 * SECOND - MILLISECOND)
    assert same.step == game.step
    ended, after = attempt_clock(attempt=attempt, now=started + 60 * SECOND)
    assert after.turns[game.turn - 1].timed_out and after.turn == game.turn + 1
    assert ended.time_taken == 60 * SECOND and ended.turn_started_at is None
    with pytest.raises(Conflict) as late:
        attempt_act(
            attempt_id=attempt.pk,
            player_id=creator.pk,
            step=game.step,
            action={"action": "keep", "dice": [0], "then": "roll"},
            now=started + 60 * SECOND,
        )
    assert late.value.code == "stale_step"


def test_the_challenge_page_shows_the_options_and_shares_them(client, clock):
    code = create(client, **RULES)["code"]
    page = client.get(f"/c/{code}").content.decode()
    assert "no bank below 500 points" in page
    assert "A clock of 30 seconds per turn" in page
    assert "ranked by total time taken" in page
    # The share text's label (static/js/play/view.js shareText) carries the options.
    label = f"{code[:3]}-{code[3:]} (open at 500, 3 Farkles −500, 30 s per turn)"
    assert f'data-share-label="{label}"' in page
    plain = create(client)["code"]
    page = client.get(f"/c/{plain}").content.decode()
    assert f'data-share-label="{plain[:3]}-{plain[3:]}"' in page
    assert "No house rule and no clock" in page


def _opens_then_keeps(game: farkle.Game) -> bool:
    """Whether keeping the most points, banking at 500, opens before the last turn and then
    reaches another throw to keep from (read from the engine)."""
    opened = False
    while not game.finished:
        if game.state == farkle.AWAITING_ROLL:
            game = game.apply(farkle.Roll())
            continue
        if opened:
            return True
        best = max(game.keep_options(), key=lambda o: o.points)
        then = "bank" if game.turn_points + best.points >= 500 else "roll"
        game = game.apply(farkle.Keep(positions=best.positions, then=then))
        opened = then == "bank"
    return False


def test_a_keep_below_the_entry_minimum_says_what_the_turn_needs(client, clock):
    # Issue 40: a page greyed Keep & bank with no reason; each keep option now says how much a
    # turn needs to bank before the first bank, and nothing once the player has opened.
    rules = farkle.HouseRules(500, 0)
    for _ in range(10):
        code = create(client, entry_minimum=500)["code"]
        if _opens_then_keeps(farkle.Game.new(stored_seed(code), "farkle-challenge", rules)):
            break
    attempt = start(client, code)
    opened = False
    while attempt["state"] == "awaiting_roll" or not opened:
        if attempt["state"] == "awaiting_roll":
            attempt = ok(act(client, attempt, {"action": "roll"}))
            continue
        held = attempt["turn_points"]
        for option in attempt["keep_options"]:
            below = held + option["score"] < 500
            assert option["bank_needs"] == (500 if below else None), option
            assert option["can_bank"] is not below
        best = max(attempt["keep_options"], key=lambda o: o["score"])
        then = "bank" if held + best["score"] >= 500 else "roll"
        attempt = ok(act(client, attempt, {"action": "keep", "dice": best["dice"], "then": then}))
        opened = then == "bank"
    # Opened: every keep may bank, whatever it scores.
    assert attempt["state"] == "awaiting_keep"
    assert {o["bank_needs"] for o in attempt["keep_options"]} == {None}
    assert all(o["can_bank"] for o in attempt["keep_options"])
