import pytest

from farkle import TABLES, solve


def test_expected_turn_is_593_6():
    assert solve().expected_turn() == pytest.approx(593.6, abs=0.1)


def test_value_is_at_least_banking_and_grows_with_points():
    solution = solve()
    for dice in range(1, 7):
        values = [solution.value(points, dice) for points in range(0, 5000, 50)]
        assert all(v >= p for v, p in zip(values, range(0, 5000, 50), strict=True))
        assert values == sorted(values)


def test_bank_thresholds_match_the_decisions():
    solution = solve()
    for dice, threshold in solution.bank_thresholds().items():
        assert not solution.should_roll(threshold, dice)
        assert not solution.should_roll(threshold + 5000, dice)
        assert threshold == 0 or solution.should_roll(threshold - 50, dice)


def test_seed_advice_keep_fewer_dice_with_1_5_2_2_3_6():
    # Seed 000's advice: with 1-5-2-2-3-6 take only the 1 and throw five dice again.
    decision = solve().best(0, (1, 5, 2, 2, 3, 6))
    assert (decision.positions, decision.then) == ((0,), "roll")


def test_best_banks_a_big_turn_with_few_dice():
    decision = solve().best(2000, (1, 2, 3))
    assert (decision.positions, decision.then, decision.expected) == ((0,), "bank", 2100.0)


def test_best_of_a_farkle_is_none():
    assert solve().best(300, (2, 3)) is None


def test_states_beyond_the_cap_bank():
    solution = solve()
    assert not solution.should_roll(solution.cap_units * solution.unit + 50, 6)


@pytest.mark.parametrize("table", sorted(TABLES))
def test_every_table_solves_to_a_plausible_turn(table):
    assert 300 < solve(table).expected_turn() < 800
