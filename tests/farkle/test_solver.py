import random

import pytest

from farkle import AWAITING_ROLL, TABLES, Game, Keep, Roll, solve
from farkle.solver import (
    DATA,
    INDEX_FILE,
    VALUES_FILE,
    compute,
    decode,
    fingerprint,
    stored,
    write,
)


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


@pytest.mark.parametrize("table", list(TABLES))
def test_stored_solution_equals_a_fresh_solve(table):
    # farkle/data/ is written by `python -m farkle solutions --write`; a change of rules or of the
    # solver without rewriting it fails here.
    fresh, kept = compute(table), stored()[table]
    assert (kept.unit, kept.cap_units, kept.tail) == (fresh.unit, fresh.cap_units, fresh.tail)
    assert kept.roll == fresh.roll


def test_solve_reads_the_site_tables_and_computes_any_other_cap():
    assert all(solve(table) is stored()[table] for table in TABLES)
    # Another cap is solved afresh; far above every threshold, it changes nothing that matters.
    other = solve("farkle-challenge", 30_000)
    assert other is not stored()["farkle-challenge"] and other.cap_units == 600
    assert other.expected_turn() == pytest.approx(solve().expected_turn(), abs=1e-9)


def test_stored_solutions_of_other_rules_are_refused():
    text = (DATA / INDEX_FILE).read_text()
    changed = text.replace(fingerprint(TABLES["royal"]), "0" * 16)
    with pytest.raises(ValueError, match="royal.*solutions --write"):
        decode(changed, (DATA / VALUES_FILE).read_bytes())


def test_beyond_the_cap_one_throw_is_exact():
    # Seed 000, one die far above the cap: a 1 adds 100, a 5 adds 50 (then bank), else nothing.
    points = 100_000
    assert solve().roll_value(points, 1) == pytest.approx((points + 100 + points + 50) / 6)


def test_groups_cover_every_scoring_throw_of_a_hand():
    # One die of seed 000: a 1 or a 5 score, 2 throws in 6.
    groups = solve().groups[(1, ())]
    assert sum(p for p, _ in groups) == pytest.approx(2 / 6)


def test_write_produces_the_committed_files(tmp_path):
    write(tmp_path)
    assert (tmp_path / INDEX_FILE).read_text() == (DATA / INDEX_FILE).read_text()
    assert stored(tmp_path) == stored()


@pytest.mark.parametrize("table", ["royal", "dix-mille", "farkle-challenge"])
def test_every_hand_a_game_reaches_has_stored_values(table):
    # Random keeps, not only optimal ones: any hand of any game (Royal's kept sets included)
    # has its values in the stored solution, for the analysis of any play.
    solution, rng = solve(table), random.Random(table)
    for i in range(150):
        game = Game.new(i.to_bytes(32, "big"), table)
        while not game.finished:
            if game.state == AWAITING_ROLL:
                game = game.apply(Roll())
                continue
            assert (game.in_hand, game.sets) in solution.roll
            positions = rng.choice(game.keep_options()).positions
            full = len(positions) == game.in_hand and TABLES[table].full_hand_must_roll
            game = game.apply(Keep(positions, "roll" if full or rng.random() < 0.7 else "bank"))


def test_rethrow_of_seed_004_two_dice():
    # Two dice of Le 10.000: 2-2, 3-3, 4-4 and 6-6 are thrown again, 4 outcomes in 36.
    assert solve("dix-mille").rethrow[(2, ())] == pytest.approx(4 / 36)
