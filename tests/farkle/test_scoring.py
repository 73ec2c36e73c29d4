from collections import Counter
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from farkle import TABLES, FarkleError, best_split, is_farkle, keep_option, keep_options, score
from farkle.cli import group_name

from .vectors import load

SCORING = load("scoring.json")
tables = st.sampled_from(sorted(TABLES))


@st.composite
def table_and_throw(draw):
    """A table and a throw of as many dice as it allows."""
    table = draw(tables)
    size = TABLES[table].dice
    return table, draw(st.lists(st.integers(1, 6), min_size=1, max_size=size))


@pytest.mark.parametrize("case", SCORING["cases"], ids=lambda c: "-".join(map(str, c["dice"])))
def test_score_matches_vectors(case):
    assert score(case["dice"], SCORING["table"]) == case["score"]


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        # docs/rules.md's worked cases (seed 000).
        ([1, 1, 1, 1], 1100),
        ([1, 1, 1, 1, 5, 5], 1200),
        ([2, 2, 2, 2, 3, 3], None),
        ([2, 2, 2, 2], 1000),
        ([3, 3, 3, 5, 5, 5], 2500),
        ([4, 4, 4, 4, 4, 4], 3000),
        ([2], None),
        ([3], None),
        ([4], None),
        ([6], None),
        ([1], 100),
        ([5], 50),
        ([1, 1, 1], 1000),
        ([6, 6, 6], 600),
        ([5, 5, 5, 5, 5], 2000),
        ([1, 2, 3, 4, 5, 6], 1500),
        ([2, 2, 4, 4, 6, 6], 1500),
    ],
)
def test_score_worked_cases(dice, expected):
    assert score(dice) == expected


def test_best_split_of_four_ones_is_a_triple_and_a_single():
    assert [(group_name(c), c.points) for c in best_split([1, 1, 1, 1])] == [
        ("one 1", 100),
        ("three 1s", 1000),
    ]


@pytest.mark.parametrize(
    ("table", "dice", "expected"),
    [
        ("farkle-games", [4, 4, 4, 4], 800),
        ("farkle-games", [1, 1, 1, 1], 2000),
        ("farkle-games", [2, 2, 3, 3, 6, 6], 750),
        ("farkle-games", [1, 2, 3, 4, 5, 6], 1000),
        ("farkle-games", [3, 3, 3, 5, 5, 5], 800),
        ("dice-game-depot", [2, 2, 3, 3, 6, 6], 1500),
        ("dice-game-depot", [1, 2, 3, 4, 5, 6], 3000),
        ("popular", [1, 2, 3, 4, 5, 6], 2500),
        ("popular", [3, 3, 3, 5, 5, 5], 800),
        ("kingdom-come", [4, 4, 4, 4, 4, 4], 3200),
        ("kingdom-come", [1, 2, 3, 4, 5], 500),
        ("kingdom-come", [2, 3, 4, 5, 6], 750),
        ("kingdom-come", [2, 2, 3, 3, 6, 6], None),
        ("smart-box", [2, 2, 2, 2], None),
        ("smart-box", [1, 1, 1, 1], 1100),
        ("smart-box", [2, 2, 4, 4, 6, 6], 500),
        ("royal", [3, 3, 3, 5, 5, 5], 800),
        ("royal", [6, 6, 6, 6], 1200),
        ("royal", [2, 2, 4, 4, 6, 6], 1500),
        ("dix-mille", [1, 1, 1, 1], 4000),
        ("dix-mille", [3, 3, 3, 3], 1200),
        ("dix-mille", [4, 4, 4, 4, 4], 4000),
        ("dix-mille", [1, 1, 1, 1, 1], 10_000),
        ("dix-mille", [1, 2, 3, 4, 5], 500),
        ("dix-mille", [2, 3, 4, 5, 6], 1000),
        ("dix-mille", [1, 1, 5, 5], 300),
    ],
)
def test_score_other_tables(table, dice, expected):
    assert score(dice, table) == expected


@pytest.mark.parametrize("dice", [[], [0], [7], [1] * 7])
def test_score_refuses_impossible_dice(dice):
    with pytest.raises(FarkleError) as error:
        score(dice)
    assert error.value.code == "invalid_dice"


def test_keeps_lists_every_scoring_subset_by_position():
    options = keep_options([1, 5, 2, 2, 3, 6])
    assert [(o.positions, o.points) for o in options] == [((0,), 100), ((1,), 50), ((0, 1), 150)]


def test_keeps_of_a_farkle_is_empty():
    assert keep_options([2, 3, 4, 6, 6, 3]) == ()
    assert is_farkle([2, 3, 4, 6, 6, 3])


@pytest.mark.parametrize(
    ("positions", "code"),
    [
        ((), "invalid_dice"),
        ((0, 0), "invalid_dice"),
        ((6,), "invalid_dice"),
        ((-1,), "invalid_dice"),
        ((2,), "not_scoring"),
        ((0, 2), "not_scoring"),
    ],
)
def test_keep_option_refusals(positions, code):
    with pytest.raises(FarkleError) as error:
        keep_option([1, 5, 2, 2, 3, 6], positions)
    assert error.value.code == code


@given(case=table_and_throw())
def test_every_valid_keep_is_a_subset_whose_dice_all_score(case):
    table, throw = case
    for option in keep_options(throw, table):
        positions, points = option.positions, option.points
        kept = [throw[p] for p in positions]
        assert list(option.dice) == kept
        assert sorted(set(positions)) == list(positions)
        assert not Counter(kept) - Counter(throw)
        assert points == score(kept, table) > 0
        # Every die counts: dropping any one of them changes or voids the score.
        for drop in range(len(kept)):
            rest = kept[:drop] + kept[drop + 1 :]
            assert not rest or score(rest, table) != points


@given(case=table_and_throw(), data=st.data())
def test_score_does_not_depend_on_order(case, data):
    table, throw = case
    shuffled = data.draw(st.permutations(throw))
    assert score(shuffled, table) == score(throw, table)


@given(case=table_and_throw())
def test_farkle_exactly_when_no_keep(case):
    table, throw = case
    has_scoring_die = any(score([d], table) for d in throw)
    # Seed 004's non-scoring pair of two dice is thrown again: no keep, yet no Farkle.
    rethrow = TABLES[table].pair_rethrow and len(throw) == 2 and throw[0] == throw[1]
    assert is_farkle(throw, table) == (not keep_options(throw, table) and not rethrow)
    if has_scoring_die:
        assert not is_farkle(throw, table)


def splits_a_set(throw: tuple[int, ...], positions: tuple[int, ...]) -> bool:
    """Seed 004: whether a keep takes some but not all dice of a face thrown three or more
    times («pas une combinaison liée tant qu'il n'y a pas de brelan»)."""
    return any(
        0 < sum(throw[i] == face for i in positions) < throw.count(face)
        for face in set(throw)
        if throw.count(face) >= 3
    )


@pytest.mark.parametrize("table", sorted(TABLES))
@pytest.mark.parametrize("n", [3, 4])
def test_keeps_equal_brute_force_over_all_throws(table, n):
    for throw in product(range(1, 7), repeat=n):
        straight = TABLES[table].whole_straights and tuple(sorted(throw)) in TABLES[table].straights
        expected = []
        for mask in range(1, 1 << n):
            positions = tuple(i for i in range(n) if mask >> i & 1)
            if TABLES[table].whole_sets and splits_a_set(throw, positions):
                continue
            if straight and len(positions) < n:
                continue
            points = score([throw[i] for i in positions], table)
            if points is not None:
                expected.append((positions, points))
        assert [(o.positions, o.points) for o in keep_options(throw, table)] == expected
