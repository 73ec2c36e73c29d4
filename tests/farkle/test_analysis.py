"""Decision analysis and the coach against values computed here, independently of the solver."""

import hashlib
import random
from collections import Counter
from functools import cache
from itertools import combinations_with_replacement, product
from math import factorial, prod

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from farkle import TABLES, Game, HouseRules, Keep, Roll, keep_options, solve
from farkle.analysis import (
    BEST,
    BLUNDER,
    GOOD,
    INACCURACY,
    MISTAKE,
    analyse,
    analyse_actions,
    coach,
    grade,
)
from farkle.bots import play
from farkle.game import AWAITING_ROLL, TURNS, TimeOut
from farkle.solver import game_par, game_solution
from farkle.tables import NO_HOUSE_RULES

SEED = hashlib.sha256(b"analysis tests").digest()


def outcomes(n: int):
    """Every multiset of n dice with its probability."""
    for faces in combinations_with_replacement(range(1, 7), n):
        ways = factorial(n) // prod(factorial(c) for c in Counter(faces).values())
        yield faces, ways / 6**n


@cache
def value_iteration(table_id: str, top_points: int = 20_000, unit: int = 50) -> dict:
    """Expected banked points of rolling n dice with u units at risk, for a table without turn
    rules: a value iteration written for the test, from high points down, banking beyond
    ``top_points`` (above every banking threshold of these tables)."""
    table = TABLES[table_id]
    moves = {}
    for n in range(1, table.dice + 1):
        moves[n] = []
        for faces, p in outcomes(n):
            found = {(o.dice_left, o.points // unit) for o in keep_options(faces, table)}
            if found:
                moves[n].append((p, sorted(found)))
    top = top_points // unit
    roll = {n: [0.0] * (top + 1) for n in moves}

    def value(n: int, u: int) -> float:
        return u * unit if u > top else max(u * unit, roll[n][u])

    for u in range(top, -1, -1):
        for n in moves:
            roll[n][u] = sum(p * max(value(m, u + g) for m, g in opts) for p, opts in moves[n])
    return roll


@pytest.mark.parametrize("table_id", ["farkle-challenge", "smart-box", "kingdom-come"])
def test_solver_values_match_an_independent_value_iteration(table_id):
    roll = value_iteration(table_id)
    solution = solve(table_id)
    for n, values in roll.items():
        for u in range(0, 160):
            assert solution.roll_value(u * 50, n) == pytest.approx(values[u], rel=1e-9, abs=1e-9)


def bellman(solution, turn_points: int, hand, depth: int) -> float:
    """Expected banked points of throwing ``hand``, every throw of 1 or 2 dice enumerated
    face by face to ``depth`` throws, the solver's values only beyond that depth."""
    dice, sets = hand
    if depth == 0 or dice > 2:
        return solution.roll_value(turn_points, dice, sets)
    table = solution.table
    total, rethrow = 0.0, 0.0
    for throw in product(range(1, 7), repeat=dice):
        options = keep_options(throw, table, sets)
        if not options:
            if table.pair_rethrow and dice == 2 and throw[0] == throw[1]:
                rethrow += 1
            continue
        best = 0.0
        for option in options:
            after = turn_points + option.points
            rolled = bellman(solution, after, option.hand, depth - 1)
            best = max(best, max(after, rolled) if option.may_bank else rolled)
        total += best
    # Seed 004: a pair thrown again leaves the state as it was, V = S + r V.
    return total / (6**dice - rethrow)


@pytest.mark.parametrize("table_id", list(TABLES))
def test_small_hands_brute_force_agrees_with_the_solver(table_id):
    solution = solve(table_id)
    hands = [hand for hand in solution.roll if hand[0] <= 2]
    for hand in hands:
        for turn_points in (0, 50, 200, 300, 350, 600, 1500):
            expected = bellman(solution, turn_points, hand, depth=3)
            assert solution.roll_value(turn_points, *hand) == pytest.approx(expected, rel=1e-9)


def test_brute_force_by_hand_one_die_far_above_banking():
    # One die with 5,000 at risk: a 1 or a 5 brings the six dice back (hot dice), which are
    # worth rolling; anything else loses all. Enumerated here from the independent iteration.
    roll = value_iteration("farkle-challenge")
    solution = solve("farkle-challenge")
    u = 5000 // 50
    by_hand = (max(5100, roll[6][u + 2]) + max(5050, roll[6][u + 1])) / 6
    assert solution.roll_value(5000, 1) == pytest.approx(by_hand, rel=1e-12)


def independent_best(turn_points: int, throw, roll) -> float:
    """The best choice's worth after a throw, from the test's value iteration."""
    best = 0.0
    for option in keep_options(throw, "farkle-challenge"):
        after = turn_points + option.points
        best = max(best, after, roll[option.dice_left][after // 50])
    return best


def test_the_optimal_players_decisions_are_best_under_the_independent_iteration():
    roll = value_iteration("farkle-challenge")
    for i in range(40):
        game = play(hashlib.sha256(bytes([i])).digest(), "hard").game
        for turn in game.turns:
            turn_points = 0
            for throw in turn.throws:
                if throw.keep is None:
                    continue
                after = turn_points + throw.keep.points
                banked = throw is turn.throws[-1]
                worth = after if banked else roll[throw.keep.dice_left][after // 50]
                assert worth == pytest.approx(independent_best(turn_points, throw.dice, roll))
                turn_points = after


def random_game(seed: bytes, table_id: str, rng: random.Random) -> Game:
    """A game of random keeps and random roll-or-bank choices."""
    game = Game.new(seed, table_id)
    while not game.finished:
        if game.state == AWAITING_ROLL:
            game = game.apply(Roll())
            continue
        option = rng.choice(game.keep_options())
        then = "bank" if option.may_bank and rng.random() < 0.4 else "roll"
        game = game.apply(Keep(option.positions, then))
    return game


@settings(max_examples=40, deadline=None)
@given(
    seed=st.binary(min_size=32, max_size=32),
    table_id=st.sampled_from(sorted(TABLES)),
    rng=st.randoms(use_true_random=False),
)
def test_score_is_par_minus_lost_plus_luck_and_losses_are_never_negative(seed, table_id, rng):
    game = random_game(seed, table_id, rng)
    solution = solve(table_id)
    found = analyse(game)
    assert found.par == pytest.approx(10 * solution.roll_value(0, TABLES[table_id].dice))
    assert game.score == pytest.approx(found.par - found.lost + found.luck, abs=1e-6)
    for decision in found.decisions:
        # The best choice by listing every keep and both follow-ups here.
        best = max(
            max(
                [solution.roll_value(decision.turn_points + o.points, *o.hand)]
                + ([float(decision.turn_points + o.points)] if o.may_bank else [])
            )
            for o in keep_options(decision.dice, table_id, decision.sets)
        )
        assert decision.best.expected == pytest.approx(best, rel=1e-12)
        assert decision.lost >= 0
        assert decision.lost == pytest.approx(best - decision.chosen.expected, abs=1e-9)
    # Per turn too: what a turn banked is a turn's expectation plus its luck minus its losses.
    for turn in game.turns:
        luck = sum(t.luck for t in found.throws if t.turn == turn.number)
        lost = sum(d.lost for d in found.decisions if d.turn == turn.number)
        assert turn.points == pytest.approx(found.par / 10 + luck - lost, abs=1e-6)


@settings(max_examples=25, deadline=None)
@given(seed=st.binary(min_size=32, max_size=32), table_id=st.sampled_from(sorted(TABLES)))
def test_an_optimal_game_loses_nothing(seed, table_id):
    found = analyse(play(seed, "hard", table_id).game)
    assert found.lost == 0
    assert found.accuracy == 100
    assert {d.grade for d in found.decisions} <= {BEST}
    assert found.costliest == ()


def test_a_farkle_is_luck_of_minus_the_throws_worth():
    # Seed 000: a throw that scores nothing ends the turn; its luck is what the throw was worth.
    game = random_game(SEED, "farkle-challenge", random.Random(3))
    found = analyse(game)
    farkles = [t for t in found.throws if t.kind == "farkle"]
    assert farkles
    solution = solve("farkle-challenge")
    for luck in farkles:
        turn = game.turns[luck.turn - 1]
        points = sum(t.points for t in turn.throws[: luck.roll - 1])
        assert luck.luck == -solution.roll_value(points, len(luck.dice), turn.throws[-1].sets)


@pytest.mark.parametrize(
    ("lost", "expected"),
    [
        (0.0, BEST),
        (1e-9, BEST),
        (0.01, GOOD),
        (59.99, GOOD),
        (60.0, INACCURACY),
        (89.99, INACCURACY),
        (90.0, MISTAKE),
        (139.99, MISTAKE),
        (140.0, BLUNDER),
        (2000.0, BLUNDER),
    ],
)
def test_grades_at_the_thresholds_of_docs_analysis(lost, expected):
    assert grade(lost) == expected


def test_totals_accuracy_and_costliest_of_a_worked_game():
    # Turn 1 keeps a lone 5 of a throw that has a 1 too, then banks; the rest of the game
    # follows the optimal player. Worked here from the solver's values of the two states.
    game = Game.new(SEED).apply(Roll())
    dice = game.dice
    options = keep_options(dice)
    worst = min(options, key=lambda o: (o.points, o.positions))
    game = game.apply(Keep(worst.positions, "bank"))
    solution = solve("farkle-challenge")
    best = max(max(o.points, solution.roll_value(o.points, o.dice_left)) for o in options)
    found = analyse(game)
    assert len(found.decisions) == 1
    decision = found.decisions[0]
    assert decision.chosen.expected == worst.points
    assert decision.lost == pytest.approx(best - worst.points)
    assert decision.keep_best == pytest.approx(
        max(worst.points, solution.roll_value(worst.points, worst.dice_left))
    )
    assert found.costliest == ((decision,) if decision.lost > 1e-6 else ())
    assert found.accuracy == pytest.approx(
        100 * (1 - decision.lost / (10 * solution.expected_turn()))
    )
    assert found.grades[decision.grade] == 1 and sum(found.grades.values()) == 1
    assert not found.finished


def test_analyse_actions_replays_stored_actions():
    played = play(SEED, "easy")
    assert analyse_actions(SEED, played.actions) == analyse(played.game)


def test_coach_names_the_best_keep_and_the_worth_of_rolling_and_banking():
    roll = value_iteration("farkle-challenge")
    game = Game.new(SEED)
    advice = coach(game)
    assert (advice.positions, advice.then, advice.bank) == ((), "roll", None)
    assert advice.roll == pytest.approx(roll[6][0])
    checked = 0
    while not game.finished:
        if game.state == AWAITING_ROLL:
            game = game.apply(Roll())
            continue
        advice = coach(game)
        tp = game.turn_points
        assert advice.expected == pytest.approx(independent_best(tp, game.dice, roll))
        for option in advice.options:
            after = tp + option.points
            assert option.roll == pytest.approx(roll[option.dice_left][after // 50])
            assert option.bank == after
            assert option.expected == max(option.roll, option.bank)
        chosen = next(o for o in advice.options if o.positions == advice.positions)
        assert (advice.roll, advice.bank) == (chosen.roll, chosen.bank)
        checked += 1
        game = game.apply(Keep(advice.positions, advice.then))
    assert checked
    assert coach(game) is None


def test_coach_on_le_10000_offers_no_bank_on_a_full_hand():
    # Seed 004: once every die has scored, all of them must be thrown again.
    for i in range(200):
        game = Game.new(hashlib.sha256(bytes([i, 4])).digest(), "dix-mille").apply(Roll())
        if not game.dice:
            continue
        advice = coach(game)
        full = [o for o in advice.options if o.dice_left == 5 and len(o.positions) == 5]
        if full:
            assert all(o.bank is None and o.then == "roll" for o in full)
            return
    pytest.fail("no full-hand keep on the first throw of 200 seeds")


# Issue 14: the challenges' house rules, graded with the game-level solution.
HOUSE = [HouseRules(500, 0), HouseRules(0, 500), HouseRules(500, 500)]
RULED_TABLE = "farkle-challenge"


def random_ruled_game(seed: bytes, rules: HouseRules, rng: random.Random) -> Game:
    """A game of random keeps, roll-or-bank choices and the odd clock running out, under
    ``rules`` (a bank below the entry minimum is no choice: ``Game.keep_options`` says so)."""
    game = Game.new(seed, RULED_TABLE, rules)
    while not game.finished:
        if rng.random() < 0.05:
            game = game.apply(TimeOut(game.turn))
            continue
        if game.state == AWAITING_ROLL:
            game = game.apply(Roll())
            continue
        option = rng.choice(game.keep_options())
        then = "bank" if option.may_bank and rng.random() < 0.4 else "roll"
        game = game.apply(Keep(option.positions, then))
    return game


def states_by_hand(game: Game) -> tuple[list[tuple[int, bool, int]], bool]:
    """The game-level state before each turn, followed here from seed 004's rules, and whether
    a penalty ever met the floor at 0 (less than the full penalty taken)."""
    rules = game.rules
    opened, in_row, score, floored = rules.entry_minimum == 0, 0, 0, False
    states = []
    for turn in game.turns:
        states.append((11 - turn.number, opened, in_row))
        if turn.timed_out:
            continue
        if turn.farkle and rules.farkle_penalty and opened:
            in_row += 1
            if in_row == 3:
                floored = floored or score < rules.farkle_penalty
                score = max(0, score - rules.farkle_penalty)
                in_row = 0
        elif not turn.farkle:
            score += turn.points
            opened, in_row = True, 0
    return states, floored


@settings(max_examples=12, deadline=None)
@given(
    seed=st.binary(min_size=32, max_size=32),
    rules=st.sampled_from(HOUSE),
    rng=st.randoms(use_true_random=False),
)
def test_under_house_rules_losses_are_game_level_and_the_identity_holds(seed, rules, rng):
    game = random_ruled_game(seed, rules, rng)
    whole = game_solution(RULED_TABLE, rules)
    found = analyse(game)
    # The par stored with the solver's data (farkle/data/house_pars.json).
    assert found.par == pytest.approx(game_par(RULED_TABLE, rules), rel=1e-12)
    states, floored = states_by_hand(game)
    identity = found.par - found.lost + found.luck
    if floored:
        # docs/analysis.md: the solver counts the penalty in full, so a floored penalty only
        # leaves the player better off than the identity says.
        assert game.score >= identity - 1e-6
    else:
        assert game.score == pytest.approx(identity, abs=1e-6)
    for decision in found.decisions:
        state = states[decision.turn - 1]
        tp = decision.turn_points
        worths = []
        for o in keep_options(decision.dice, RULED_TABLE, decision.sets):
            total = tp + o.points
            worths.append(whole.roll_value(state, total, *o.hand))
            if o.may_bank and (state[1] or total >= rules.entry_minimum):
                worths.append(total + whole.bank[state])
        best = max(worths) - whole.bank[state]
        assert decision.best.expected == pytest.approx(best, abs=1e-9)
        assert decision.lost >= 0
        assert decision.lost == pytest.approx(best - decision.chosen.expected, abs=1e-9)
    for out in found.timeouts:
        assert game.turns[out.turn - 1].timed_out


@settings(max_examples=15, deadline=None)
@given(
    seed=st.binary(min_size=32, max_size=32),
    table_id=st.sampled_from(sorted(TABLES)),
    rng=st.randoms(use_true_random=False),
)
def test_without_rules_the_game_level_grading_agrees_with_the_turn_level(seed, table_id, rng):
    game = random_game(seed, table_id, rng)
    turn_level = analyse(game)
    game_level = analyse(game, game_level=True)
    assert game_level.par == pytest.approx(turn_level.par, rel=1e-12)
    assert game_level.lost == pytest.approx(turn_level.lost, abs=1e-6)
    assert game_level.luck == pytest.approx(turn_level.luck, abs=1e-6)
    assert len(game_level.decisions) == len(turn_level.decisions)
    for a, b in zip(game_level.decisions, turn_level.decisions, strict=True):
        assert a.best.expected == pytest.approx(b.best.expected, abs=1e-6)
        assert a.chosen.expected == pytest.approx(b.chosen.expected, abs=1e-6)
        assert a.lost == pytest.approx(b.lost, abs=1e-6)


@settings(max_examples=6, deadline=None)
@given(seed=st.binary(min_size=32, max_size=32), rules=st.sampled_from(HOUSE))
def test_an_optimal_game_under_house_rules_loses_nothing(seed, rules):
    found = analyse(play(seed, "hard", RULED_TABLE, rules).game)
    assert found.lost == 0
    assert {d.grade for d in found.decisions} <= {BEST}


def test_under_an_entry_minimum_the_coach_offers_no_bank_below_it():
    # Seed 004: «Avant d'ouvrir, un joueur ne peut pas valider moins de 500 points».
    rules = HouseRules(500, 0)
    for i in range(200):
        game = Game.new(hashlib.sha256(f"entry {i}".encode()).digest(), RULED_TABLE, rules)
        game = game.apply(Roll())
        if not game.dice:
            continue
        advice = coach(game)
        low = [o for o in advice.options if o.points < 500]
        if low:
            assert all(o.bank is None and o.then == "roll" for o in low)
            return
    pytest.fail("no keep under 500 points on the first throw of 200 seeds")


def test_a_penalty_farkle_costs_the_penalty_beyond_a_plain_farkle():
    # Seed 004: the third Farkle in a row takes the penalty. Find a game whose Farkle comes
    # with two crosses already: its luck is the throw's worth less the penalty, in game terms.
    rules = HouseRules(0, 500)
    whole = game_solution(RULED_TABLE, rules)
    for i in range(200):
        seed = hashlib.sha256(f"penalty {i}".encode()).digest()
        game = random_ruled_game(seed, rules, random.Random(i))
        states, _ = states_by_hand(game)
        found = analyse(game)
        for turn, state in zip(game.turns, states, strict=True):
            if turn.farkle and state[2] == 2:
                luck = [t for t in found.throws if t.turn == turn.number][-1]
                nxt = (state[0] - 1, True, 0)
                # A bank is worth its points plus start[nxt]; the Farkle start[nxt] - 500.
                assert luck.after == pytest.approx(-500.0, abs=1e-9)
                assert whole.farkle[state] == pytest.approx(whole.start[nxt] - 500)
                return
    pytest.fail("no third Farkle in a row in 200 random games")


def test_a_timed_out_turn_loses_its_worth_at_the_clocks_end():
    # Without rules a turn timed out before its first throw loses a whole turn's expectation
    # (par / 10), and the identity still holds with that loss counted.
    game = Game.new(SEED, "farkle-challenge").apply(TimeOut(1))
    rng = random.Random(5)
    while not game.finished:
        if game.state == AWAITING_ROLL:
            game = game.apply(Roll())
            continue
        option = rng.choice(game.keep_options())
        game = game.apply(Keep(option.positions, "bank" if option.may_bank else "roll"))
    found = analyse(game)
    expected_turn = value_iteration("farkle-challenge")[6][0]
    assert [t.turn for t in found.timeouts] == [1]
    assert found.timeouts[0].lost == pytest.approx(expected_turn, rel=1e-6)
    assert game.score == pytest.approx(found.par - found.lost + found.luck, abs=1e-6)


@settings(max_examples=30, deadline=None)
@given(
    seed=st.binary(min_size=32, max_size=32),
    rules=st.sampled_from([NO_HOUSE_RULES, HouseRules(500, 0), HouseRules(1000, 500)]),
    actions=st.integers(min_value=0, max_value=40),
    rng=st.randoms(use_true_random=False),
)
def test_a_game_the_close_ended_loses_what_it_left_and_the_identity_holds(
    seed, rules, actions, rng
):
    # Issue 40: a game ended by the close read "accuracy 100 %, points lost 0" with a score of 0,
    # so par - lost + luck was not the score. What the close left (the running turn's worth and
    # every turn not reached) is now lost.
    game = Game.new(seed, "farkle-challenge", rules)
    for _ in range(actions):
        if game.finished:
            break
        if game.state == AWAITING_ROLL:
            game = game.apply(Roll())
            continue
        option = rng.choice(game.keep_options())
        game = game.apply(Keep(option.positions, "bank" if option.may_bank else "roll"))
    ended = game.ended_by_close()
    found = analyse(ended)
    assert ended.score == pytest.approx(found.par - found.lost + found.luck, abs=1e-6)
    if game.finished:
        assert found.left_at_close is None
    else:
        left = found.left_at_close
        assert left is not None and left.lost > 0
        # Every turn from the one cut (or first not reached) to the tenth is counted.
        assert left.turn + left.turns - 1 == TURNS
        assert found.accuracy < 100


def test_a_game_nobody_played_before_the_close_is_all_lost():
    found = analyse(Game.new(SEED, "farkle-challenge").ended_by_close())
    assert (found.score, found.luck, found.accuracy) == (0, 0, 0)
    assert found.lost == pytest.approx(found.par)
    assert (found.left_at_close.turn, found.left_at_close.turns) == (1, TURNS)
