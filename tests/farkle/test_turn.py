"""Rules that change the turn itself: Royal's sets extended across throws (seed 003) and Le
10.000's whole straights, re-thrown pairs and full hand (seed 004)."""

import hashlib
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from farkle import (
    AWAITING_ROLL,
    FARKLE,
    RETHROW,
    SCORING,
    TABLES,
    FarkleError,
    Game,
    Keep,
    Roll,
    farkle_risk,
    keep_option,
    keep_options,
    roll_vector,
    throw_kind,
)

ROYAL = TABLES["royal"]
DIX = TABLES["dix-mille"]


def seed(i: int) -> bytes:
    return hashlib.sha256(f"turn-test-{i}".encode()).digest()


def test_royal_a_new_six_extends_the_kept_triple():
    # Seed 003: 6-6-6 kept for 600, then 4-3-6 thrown: the 6 makes 6-6-6-6 = 1,200, so +600.
    options = {o.positions: (o.points, o.sets) for o in keep_options((4, 3, 6), ROYAL, ((6, 3),))}
    assert options == {(2,): (600, ((6, 4),))}


def test_royal_a_one_extends_three_ones_rather_than_scoring_alone():
    options = {o.positions: o.points for o in keep_options((1, 2, 3), ROYAL, ((1, 3),))}
    assert options == {(0,): 1000}


def test_royal_keeps_record_the_sets_they_make():
    options = {o.positions: o.sets for o in keep_options((2, 2, 2, 5), ROYAL)}
    # Keeping all four dice is hot dice: the next hand is six fresh dice with no set to extend.
    assert (options[(0, 1, 2)], options[(0, 1, 2, 3)], options[(3,)]) == (((2, 3),), (), ())


def test_dix_mille_a_thrown_straight_is_kept_whole():
    options = keep_options((5, 1, 3, 2, 4), DIX)
    assert [(o.positions, o.points) for o in options] == [((0, 1, 2, 3, 4), 500)]
    with pytest.raises(FarkleError) as error:
        keep_option((5, 1, 3, 2, 4), (1,), DIX)
    assert error.value.code == "not_scoring"


def test_dix_mille_a_non_scoring_pair_is_thrown_again():
    assert [throw_kind(t, DIX) for t in ((2, 2), (6, 6), (2, 3), (5, 5), (1, 1))] == [
        RETHROW,
        RETHROW,
        FARKLE,
        SCORING,
        SCORING,
    ]
    assert throw_kind((2, 2), TABLES["farkle-challenge"]) == FARKLE


def test_dix_mille_risk_counts_a_pair_as_a_new_throw():
    # Two dice: 12 of 36 throws lose, 4 are thrown again: 12 / 32.
    assert farkle_risk(2, DIX) == Fraction(3, 8)
    assert farkle_risk(5, DIX) == farkle_risk(5)


def first_game(table, predicate):
    for i in range(20_000):
        if predicate(seed(i)):
            return Game.new(seed(i), table)
    raise AssertionError("no seed found")


def test_dix_mille_game_throws_the_pair_again_with_the_points_kept():
    def pair_after_three_kept(s):
        first = tuple(roll_vector(s, 1, 1, 5))
        keep3 = [o for o in keep_options(first, DIX) if len(o.positions) == 3]
        second = tuple(roll_vector(s, 1, 2, 5)[:2])
        return bool(keep3) and throw_kind(second, DIX) == RETHROW

    game = first_game("dix-mille", pair_after_three_kept).apply(Roll())
    option = next(o for o in keep_options(game.dice, DIX) if len(o.positions) == 3)
    points = option.points
    game = game.apply(Keep(option.positions, "roll"))
    assert (game.state, game.in_hand, game.turn_points, game.turn) == (AWAITING_ROLL, 2, points, 1)
    assert game.turns[0].throws[-1].rethrow
    game = game.apply(Roll())
    assert game.turns[0].throws[-1].dice == tuple(roll_vector(game.seed, 1, 3, 5)[:2])


def test_dix_mille_full_hand_must_be_thrown_again():
    def full_first(s):
        return any(len(o.positions) == 5 for o in keep_options(roll_vector(s, 1, 1, 5), DIX))

    game = first_game("dix-mille", full_first).apply(Roll())
    positions = next(o.positions for o in keep_options(game.dice, DIX) if len(o.positions) == 5)
    with pytest.raises(FarkleError) as error:
        game.apply(Keep(positions, "bank"))
    assert error.value.code == "wrong_state"
    rolled = game.apply(Keep(positions, "roll"))
    assert len(rolled.turns[0].throws[1].dice) == 5


def test_dix_mille_games_throw_five_dice():
    game = Game.new(seed(1), "dix-mille").apply(Roll())
    assert game.turns[0].throws[0].dice == tuple(roll_vector(seed(1), 1, 1, 5))


@settings(max_examples=60)
@given(
    table=st.sampled_from(sorted(TABLES)),
    s=st.binary(min_size=32, max_size=32),
    picks=st.lists(st.tuples(st.integers(0, 62), st.booleans()), max_size=80),
)
def test_any_table_replays_exactly_and_forgets_sets_between_hands(table, s, picks):
    game = Game.new(s, table)
    actions = []
    for pick, bank in picks:
        if game.finished:
            break
        if game.state == AWAITING_ROLL:
            action = Roll()
        else:
            options = game.keep_options()
            positions = options[pick % len(options)].positions
            full = len(positions) == game.in_hand and TABLES[table].full_hand_must_roll
            action = Keep(positions, "bank" if bank and not full else "roll")
        actions.append(action.to_dict())
        game = game.apply(action)
        if game.state == AWAITING_ROLL and not game.turns[-1].throws:
            assert game.sets == ()
        assert sum(n for _, n in game.sets) <= TABLES[table].dice - game.in_hand or not game.sets
    assert Game.replay(s, actions, table) == game
    assert game.step == len(actions)
    assert game.score == sum(t.points for t in game.turns if t.done)
