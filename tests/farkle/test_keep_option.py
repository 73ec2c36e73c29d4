"""The one keep model: every keep of a throw and what follows it, against the seeds' figures."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from farkle import AWAITING_ROLL, TABLES, FarkleError, Game, Keep, KeepOption, Roll, keep_option
from farkle import keep_options as options_of

TRIPLE_2S = ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3))


@pytest.mark.parametrize(
    ("table", "four"),
    [
        # Seed 000: four of a kind is 1,000 whatever the face.
        ("farkle-challenge", 1000),
        # Seed 001: farkle.games, Dice Game Depot and Kingdom Come double the triple (2 × 200);
        # the Wikipedia table pays 1,000.
        ("farkle-games", 400),
        ("dice-game-depot", 400),
        ("popular", 1000),
        ("kingdom-come", 400),
        # Seed 002: no group beyond a triple, and a lone 2 scores nothing.
        ("smart-box", None),
        # Seed 003: four of a kind doubles the triple.
        ("royal", 400),
    ],
)
def test_four_2s_thrown_with_four_dice_in_hand(table, four):
    # Seed 003: Royal carries the kept triple into the next hand, for a 2 thrown later to grow.
    sets = ((2, 3),) if table == "royal" else ()
    expected = [KeepOption(p, (2, 2, 2), 200, 1, sets, False, True) for p in TRIPLE_2S]
    if four is not None:
        # Hot dice: the whole hand scored, six fresh dice come back and banking is allowed.
        expected.append(KeepOption((0, 1, 2, 3), (2, 2, 2, 2), four, 6, (), True, True))
    assert list(options_of((2, 2, 2, 2), table)) == expected


def test_dix_mille_four_2s_are_kept_whole_and_must_be_thrown_again():
    # Seed 004: «Carrés» 800 for four 2s; a set is kept whole; a full hand is thrown again.
    assert options_of((2, 2, 2, 2), "dix-mille") == (
        KeepOption((0, 1, 2, 3), (2, 2, 2, 2), 800, 5, (), True, False),
    )


def test_dix_mille_three_ones_and_two_fives_lists_the_seeds_choices():
    # Seed 004: from 1-1-1-5-5 «the three 1s; the three 1s and a 5; the three 1s and both 5s;
    # one 5; both 5s», in the order of the positions' bit masks.
    assert options_of((1, 1, 1, 5, 5), "dix-mille") == (
        KeepOption((0, 1, 2), (1, 1, 1), 1000, 2, (), False, True),
        KeepOption((3,), (5,), 50, 4, (), False, True),
        KeepOption((0, 1, 2, 3), (1, 1, 1, 5), 1050, 1, (), False, True),
        KeepOption((4,), (5,), 50, 4, (), False, True),
        KeepOption((0, 1, 2, 4), (1, 1, 1, 5), 1050, 1, (), False, True),
        KeepOption((3, 4), (5, 5), 100, 3, (), False, True),
        KeepOption((0, 1, 2, 3, 4), (1, 1, 1, 5, 5), 1100, 5, (), True, False),
    )


def test_dix_mille_a_thrown_straight_is_one_full_hand():
    # Seed 004: the straight 1-2-3-4-5 is 500, kept whole, and the five dice are thrown again.
    assert options_of((5, 1, 3, 2, 4), "dix-mille") == (
        KeepOption((0, 1, 2, 3, 4), (5, 1, 3, 2, 4), 500, 5, (), True, False),
    )


def test_royal_a_kept_triple_grows_and_is_carried_to_the_next_hand():
    # Seed 003: 6-6-6 kept (600), then 4-3-6 thrown: 6-6-6-6 is 1,200, so the 6 adds 600, and
    # the hand goes on with two dice and four 6s that a later 6 may grow again.
    assert options_of((4, 3, 6), "royal", ((6, 3),)) == (
        KeepOption((2,), (6,), 600, 2, ((6, 4),), False, True),
    )


def test_royal_hot_dice_forget_the_hand_sets():
    # 6-6-6 held, then 6-5 thrown: the 6 makes four 6s (+600) and the 5 scores 50; every die
    # has scored, so six new dice come back with no set to extend.
    hot = keep_option((6, 5), (0, 1), "royal", ((6, 3),))
    assert hot == KeepOption((0, 1), (6, 5), 650, 6, (), True, True)
    assert hot.hand == (6, ())


def test_the_first_throw_of_the_seeds_advice_lists_three_keeps():
    # Seed 000's advice example, 1-5-2-2-3-6: the 1 (100), the 5 (50) or both (150).
    assert options_of((1, 5, 2, 2, 3, 6)) == (
        KeepOption((0,), (1,), 100, 5, (), False, True),
        KeepOption((1,), (5,), 50, 5, (), False, True),
        KeepOption((0, 1), (1, 5), 150, 4, (), False, True),
    )


def test_keep_option_names_its_refusal():
    with pytest.raises(FarkleError) as error:
        keep_option((1, 5, 2, 2, 3, 6), (2,))
    assert error.value.code == "not_scoring"


@settings(max_examples=80, deadline=None)
@given(
    table=st.sampled_from(sorted(TABLES)),
    s=st.binary(min_size=32, max_size=32),
    picks=st.lists(st.tuples(st.integers(0, 62), st.booleans()), min_size=1, max_size=60),
)
def test_the_game_after_a_keep_is_what_its_option_says(table, s, picks):
    game = Game.new(s, table)
    for pick, bank in picks:
        if game.finished:
            break
        if game.state == AWAITING_ROLL:
            game = game.apply(Roll())
            continue
        option = game.keep_options()[pick % len(game.keep_options())]
        then = "bank" if bank and option.may_bank else "roll"
        before = game
        game = game.apply(Keep(option.positions, then))
        record = game.turns[before.turn - 1]
        index = len(before.turns[-1].throws) - 1
        assert record.throws[index].keep == option
        if then == "bank":
            assert game.score == before.score + before.turn_points + option.points
            continue
        # The next throw is thrown from the option's hand: its dice and its sets.
        thrown = record.throws[index + 1]
        assert (len(thrown.dice), thrown.sets) == option.hand
        # A Farkle on the last turn's next throw ends the game with nothing at risk.
        if game.turn == before.turn and not game.finished:
            assert game.turn_points == before.turn_points + option.points
            assert game.in_hand == option.dice_left
