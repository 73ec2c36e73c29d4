"""Le 10.000 (table ``dix-mille``) against every worked example of seed 004, quoted in French.

The expected values are the seed's own figures and lists; nothing here is computed with the
engine's tables.
"""

import hashlib
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from farkle import (
    RETHROW,
    SCORING,
    TABLES,
    FarkleError,
    Game,
    Keep,
    Roll,
    farkle_risk,
    keep_options,
    roll_vector,
    score,
    solve,
    throw_kind,
)

DIX = TABLES["dix-mille"]


def choices(throw: tuple[int, ...]) -> set[tuple[int, ...]]:
    """The distinct choices of dice (as sorted faces) a throw lets the player keep."""
    return {tuple(sorted(option.dice)) for option in keep_options(throw, DIX)}


@pytest.mark.parametrize(
    ("dice", "points"),
    [
        # «Dés seuls : Les 1 et les 5 marquent seuls ou par addition simple.» The seed's list:
        # 100, 50, 150, 200, 100 points, and 0 for a die that is neither.
        ((1,), 100),
        ((5,), 50),
        ((1, 5), 150),
        ((1, 1), 200),
        ((5, 5), 100),
        ((3,), None),
        # «Brelans : Un brelan correspond à 3 dés identiques.» 1,000, 200, 300, 400, 500, 600.
        ((1, 1, 1), 1000),
        ((2, 2, 2), 200),
        ((3, 3, 3), 300),
        ((4, 4, 4), 400),
        ((5, 5, 5), 500),
        ((6, 6, 6), 600),
        # «Carrés» lists 4,000, 800, 1,200, 1,600, 2,000 and 2,400 points.
        ((1, 1, 1, 1), 4000),
        ((2, 2, 2, 2), 800),
        ((3, 3, 3, 3), 1200),
        ((4, 4, 4, 4), 1600),
        ((5, 5, 5, 5), 2000),
        ((6, 6, 6, 6), 2400),
        # «Cinq dés identiques rapportent la valeur du dé × 1000, sauf les cinq 1» (an
        # immediate win there, 10,000 points here).
        ((1, 1, 1, 1, 1), 10_000),
        ((2, 2, 2, 2, 2), 2000),
        ((3, 3, 3, 3, 3), 3000),
        ((4, 4, 4, 4, 4), 4000),
        ((5, 5, 5, 5, 5), 5000),
        ((6, 6, 6, 6, 6), 6000),
        # «Suites : Une suite utilise les 5 dés» : 500 and 1,000 points.
        ((1, 2, 3, 4, 5), 500),
        ((2, 3, 4, 5, 6), 1000),
    ],
)
def test_every_figure_of_the_seed(dice, points):
    assert score(dice, DIX) == points


def test_five_dice():
    # «À chaque tour, le joueur lance 5 dés».
    game = Game.new(hashlib.sha256(b"dix").digest(), DIX).apply(Roll())
    assert (DIX.dice, len(game.dice)) == (5, 5)


def test_one_one_one_five_five_gives_exactly_the_five_choices_of_the_seed():
    # «Avec [1-1-1-5-5], il peut garder les trois 1, les trois 1 et un 5, les trois 1 et les
    # deux 5, un seul 5 ou les deux 5.»
    assert choices((1, 1, 1, 5, 5)) == {
        (1, 1, 1),
        (1, 1, 1, 5),
        (1, 1, 1, 5, 5),
        (5,),
        (5, 5),
    }
    assert choices((5, 1, 5, 1, 1)) == choices((1, 1, 1, 5, 5))


@pytest.mark.parametrize(
    ("throw", "expected"),
    [
        # «Ce n'est pas une combinaison liée tant qu'il n'y a pas de brelan»: two 1s and two 5s
        # are single dice, each kept or not.
        ((1, 1, 5, 5, 3), {(1,), (5,), (1, 1), (1, 5), (5, 5), (1, 1, 5), (1, 5, 5), (1, 1, 5, 5)}),
        # Three 5s are a brelan: kept whole, never one or two of them.
        ((5, 5, 5, 2, 3), {(5, 5, 5)}),
        ((2, 2, 2, 1, 3), {(2, 2, 2), (1,), (1, 2, 2, 2)}),
        # A carré is one combination too: the four 1s together or none of them.
        ((1, 1, 1, 1, 5), {(1, 1, 1, 1), (1, 1, 1, 1, 5), (5,)}),
        ((4, 4, 4, 4, 4), {(4, 4, 4, 4, 4)}),
    ],
)
def test_a_set_is_kept_whole_and_singles_one_by_one(throw, expected):
    assert choices(throw) == expected


def test_a_straight_is_never_split():
    # «Une suite ne peut pas être découpée pour ne prendre qu'un 1 ou qu'un 5.»
    assert choices((3, 1, 5, 2, 4)) == {(1, 2, 3, 4, 5)}
    assert choices((6, 2, 4, 3, 5)) == {(2, 3, 4, 5, 6)}


def test_a_pair_that_does_not_score_is_thrown_again_with_the_points_kept():
    # «Un double qui ne marque pas (2-2, 3-3, 4-4, 6-6) ne rince pas le tour : le joueur
    # relance ces deux dés et garde ses points.»
    assert [throw_kind(t, DIX) for t in ((2, 2), (3, 3), (4, 4), (6, 6))] == [RETHROW] * 4
    assert [throw_kind(t, DIX) for t in ((1, 1), (5, 5))] == [SCORING] * 2
    # Two dice, counted over all 36 outcomes: 4 pairs are thrown again, 20 throws hold a 1 or a
    # 5, the 12 others lose the turn; the risk is that of the turn ending: 12 / (36 - 4).
    outcomes = Counter(throw_kind(t, DIX) for t in product(range(1, 7), repeat=2))
    assert outcomes == {"rethrow": 4, "scoring": 20, "farkle": 12}
    assert farkle_risk(2, DIX) == Fraction(12, 32)


def seed(i: int) -> bytes:
    return hashlib.sha256(f"dix-mille-{i}".encode()).digest()


def first_game(predicate) -> Game:
    for i in range(20_000):
        if predicate(seed(i)):
            return Game.new(seed(i), DIX).apply(Roll())
    raise AssertionError("no seed found")


def test_the_game_refuses_one_or_two_ones_of_a_brelan_and_a_full_hand_must_roll():
    game = first_game(lambda s: sorted(roll_vector(s, 1, 1, 5)) == [1, 1, 1, 5, 5])
    ones = [i for i, d in enumerate(game.dice) if d == 1]
    fives = [i for i, d in enumerate(game.dice) if d == 5]
    for part in (ones[:1], ones[:2], ones[:2] + fives):
        with pytest.raises(FarkleError) as error:
            game.apply(Keep(tuple(part), "roll"))
        assert error.value.code == "not_scoring"
    # «S'il garde les 5 dés marquants, cela devient une main pleine et il doit relancer les 5
    # dés.»
    with pytest.raises(FarkleError) as error:
        game.apply(Keep(tuple(ones + fives), "bank"))
    assert error.value.code == "wrong_state"
    full = game.apply(Keep(tuple(ones + fives), "roll")).turns[0].throws
    assert (full[0].points, full[0].hot_dice, len(full[1].dice)) == (1100, True, 5)
    kept = game.apply(Keep(tuple(ones), "bank"))
    assert (kept.score, kept.turn) == (1000, 2)


def test_optimal_play_never_splits_a_set():
    # The solver decides among the game's keeps: its choice from any throw is one of them.
    solution = solve(DIX)
    for throw in product(range(1, 7), repeat=5):
        decision = solution.best(0, throw)
        if decision is not None:
            kept = tuple(throw[p] for p in decision.positions)
            assert tuple(sorted(kept)) in choices(throw), throw
