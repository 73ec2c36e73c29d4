"""A turn's clock running out (seed 001's timed modes, issue 14): the turn ends with nothing
banked, the game moves on, and the stored timeout replays exactly.

Expected values are read off the throws the seed shows (``roll_vector``) and ``score``, not off
the game's own bookkeeping.
"""

from dataclasses import replace

import pytest

from farkle import FarkleError, Game, Roll, TimeOut, action_from_dict, roll_vector, score
from farkle.game import Turn
from farkle.tables import HouseRules


def _mid_turn() -> tuple[bytes, list[dict], int]:
    """A seed and actions that leave turn 1 awaiting a keep with points already at risk, and
    those points (the first throw's 1s and 5s, counted here by hand)."""
    for n in range(200):
        seed = f"time-out-{n}".encode()
        first = roll_vector(seed, 1, 1, 6)
        singles = [i for i, face in enumerate(first) if face in (1, 5)]
        if not singles or score([first[i] for i in singles]) is None:
            continue
        second = roll_vector(seed, 1, 2, 6)[: 6 - len(singles)]
        if not any(face in (1, 5) for face in second):
            continue
        points = sum(100 if first[i] == 1 else 50 for i in singles)
        actions = [{"action": "roll"}, {"action": "keep", "dice": singles, "then": "roll"}]
        return seed, actions, points
    raise AssertionError("no seed found")


def test_time_out_loses_the_turns_points_and_starts_the_next_turn():
    seed, actions, at_risk = _mid_turn()
    game = Game.replay(seed, actions)
    assert (game.turn, game.turn_points) == (1, at_risk)
    timed_out = game.time_out(1)
    assert [e.to_dict() for e in timed_out.events] == [
        {"kind": "timed_out", "turn": 1, "points": at_risk},
        {"kind": "turn_started", "turn": 2},
    ]
    assert (timed_out.turn, timed_out.score, timed_out.state) == (2, 0, "awaiting_roll")
    assert (timed_out.turns[0].points, timed_out.turns[0].timed_out) == (0, True)
    assert timed_out.turns[0].farkle is False
    assert timed_out.step == game.step + 1


def test_a_stored_timeout_replays_exactly():
    seed, actions, _ = _mid_turn()
    stored = [*actions, TimeOut(1).to_dict(), {"action": "roll"}]
    assert stored[2] == {"action": "timeout", "turn": 1}
    assert action_from_dict(stored[2]) == TimeOut(1)
    replayed = Game.replay(seed, stored)
    played = Game.replay(seed, actions).time_out(1).apply(Roll())
    assert replayed == played
    # Turn 2's first throw is the seed's, whatever happened to turn 1.
    assert replayed.turns[1].throws[0].dice == tuple(roll_vector(seed, 2, 1, 6))


def test_time_out_names_the_running_turn():
    seed, actions, _ = _mid_turn()
    game = Game.replay(seed, actions)
    with pytest.raises(FarkleError) as refused:
        game.time_out(2)
    assert refused.value.code == "wrong_state"
    with pytest.raises(FarkleError):
        action_from_dict({"action": "timeout", "turn": "1"})


def test_time_out_of_the_last_turn_finishes_the_game_with_the_banked_score():
    game = replace(Game.new(b"last"), turn=10, score=1250, turns=(Turn(number=10),), step=40)
    finished = game.apply(TimeOut(10))
    assert finished.finished
    assert finished.score == 1250
    assert [e.kind for e in finished.events] == ["timed_out", "game_finished"]


@pytest.mark.parametrize("in_row", [0, 1, 2])
def test_a_timed_out_turn_neither_adds_nor_clears_the_farkles_in_a_row(in_row):
    # Documented choice (docs/rules.md, issue 14): no throw failed, so it is no Farkle; it does
    # not bank either, so the crosses stand as they were.
    game = Game.new(b"crosses", rules=HouseRules(0, 500))
    game = replace(game, farkles_in_row=in_row, score=2000)
    after = game.time_out(1)
    assert after.farkles_in_row == in_row
    assert (after.score, after.turns[0].penalty) == (2000, 0)


def test_keep_then_time_out_keeps_the_entry_minimum_closed():
    seed, actions, _ = _mid_turn()
    game = Game.replay(seed, actions, rules=HouseRules(500, 0)).time_out(1)
    # Nothing was banked: the player has still not opened.
    assert game.opened is False
