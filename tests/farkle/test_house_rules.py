"""House rules (issue 14, challenges only): the entry minimum and the three-Farkle penalty.

The expected values come from a brute force written here from the dice faces and ``score``
alone, and the penalty sequences from a model of seed 004's crosses played on the throws the
seed shows; neither goes through the engine's game or solver code.
"""

from functools import cache
from itertools import combinations, product

import pytest

from farkle import TABLES, FarkleError, Game, Keep, Roll, Table, roll_vector, score
from farkle.cli import main
from farkle.solver import game_par, house_key, solve, solve_game, stored_house_pars
from farkle.tables import HouseRules

# Reduced games for the brute force: the site's scoring (seed 000) on fewer dice.
ONE_DIE = Table(id="house-one-die", source="test", dice=1, straights={}, three_pairs=None)
THREE_DICE = Table(
    id="house-three-dice", source="test", dice=3, straights={}, three_pairs=None, two_triplets=None
)
# Far above where banking is always best with three dice or fewer, whatever the bonus.
CAP = 3000


def brute_turn(table: Table, bank_next: float, farkle_next: float, minimum: int) -> float:
    """One turn by exhaustive recursion: bank u → u + bank_next, Farkle → farkle_next."""

    @cache
    def keeps(throw: tuple[int, ...]) -> dict[int, int]:
        # Best points per number of dice kept, over every subset that scores whole.
        best: dict[int, int] = {}
        for k in range(1, len(throw) + 1):
            for kept in combinations(throw, k):
                points = score(kept, table)
                if points is not None:
                    best[k] = max(best.get(k, 0), points)
        return best

    @cache
    def roll(points: int, dice: int) -> float:
        total = 0.0
        for throw in product(range(1, 7), repeat=dice):
            found = keeps(throw)
            if not found:
                total += farkle_next
                continue
            total += max(decide(points + p, dice - k or table.dice) for k, p in found.items())
        return total / 6**dice

    def decide(points: int, dice: int) -> float:
        bank = points + bank_next if points >= minimum else float("-inf")
        if points >= CAP:
            return bank
        return max(bank, roll(points, dice))

    return roll(0, table.dice)


def brute_game(table: Table, rules: HouseRules, turns: int, floor: bool) -> float:
    """Expected final score of a game played best, by recursion over turns and score."""

    @cache
    def future(left: int, opened: bool, in_row: int, banked: int) -> float:
        # Expected final score from here; ``banked`` only matters through the floor.
        if left == 0:
            return float(banked)
        if floor:
            # The bank must carry the score: solve the turn per banked amount.
            return best_turn(left, opened, in_row, banked)
        bank_next = future(left - 1, True, 0, 0)
        farkle_next = after_farkle(left, opened, in_row, 0)
        minimum = 0 if opened else rules.entry_minimum
        return brute_turn(table, bank_next, farkle_next, minimum)

    def after_farkle(left: int, opened: bool, in_row: int, banked: int) -> float:
        if not rules.farkle_penalty or not opened:
            return future(left - 1, opened, 0, banked)
        if in_row == 2:
            if not floor:
                return future(left - 1, True, 0, 0) - rules.farkle_penalty
            return future(left - 1, True, 0, banked - min(rules.farkle_penalty, banked))
        return future(left - 1, True, in_row + 1, banked)

    def best_turn(left: int, opened: bool, in_row: int, banked: int) -> float:
        minimum = 0 if opened else rules.entry_minimum
        farkle_next = after_farkle(left, opened, in_row, banked)

        @cache
        def roll(points: int, dice: int) -> float:
            total = 0.0
            for throw in product(range(1, 7), repeat=dice):
                options = [
                    (k, score(kept, table))
                    for k in range(1, dice + 1)
                    for kept in combinations(throw, k)
                ]
                options = [(k, p) for k, p in options if p is not None]
                if not options:
                    total += farkle_next
                    continue
                total += max(decide(points + p, dice - k or table.dice) for k, p in options)
            return total / 6**dice

        def decide(points: int, dice: int) -> float:
            bank = (
                future(left - 1, True, 0, banked + points) if points >= minimum else float("-inf")
            )
            if points >= CAP // 3:
                return bank
            return max(bank, roll(points, dice))

        return roll(0, table.dice)

    return future(turns, not rules.entry_minimum, 0, 0)


def test_defaults_leave_the_daily_unchanged():
    # docs/rules.md: par 5,936 on the reference table (seed 000), no house rule.
    assert round(game_par("farkle-challenge")) == 5936
    assert round(solve_game("farkle-challenge").par) == 5936
    seed = b"house-defaults"
    assert Game.new(seed, "farkle-challenge") == Game.new(seed, "farkle-challenge", HouseRules())


@pytest.mark.parametrize(
    "rules",
    [HouseRules(350, 0), HouseRules(500, 0), HouseRules(0, 500), HouseRules(350, 1000)],
    ids=lambda r: f"entry{r.entry_minimum}-penalty{r.farkle_penalty}",
)
def test_game_par_matches_a_brute_force_on_a_reduced_game(rules):
    # The solver's cap (40,000) and the brute force's (3,000) both bank long before rolling
    # stops paying on three dice, so the two agree to rounding.
    expected = brute_game(THREE_DICE, rules, turns=4, floor=False)
    assert solve_game(THREE_DICE, rules, turns=4).par == pytest.approx(expected, rel=1e-9)
    # And the rules cost something: par with them is not par without them.
    assert expected < brute_game(THREE_DICE, HouseRules(), turns=4, floor=False) - 1


def test_penalty_floor_only_raises_the_exact_value_within_the_documented_bound():
    rules = HouseRules(0, 1000)
    with_floor = brute_game(ONE_DIE, rules, turns=4, floor=True)
    par = solve_game(ONE_DIE, rules, turns=4).par
    # The floor only ever lowers a penalty: par (penalty in full) is a lower bound, and no
    # penalty at all an upper one.
    assert par <= with_floor <= solve_game(ONE_DIE, HouseRules(), turns=4).par
    assert with_floor - par > 1


def test_entry_minimum_makes_optimal_play_differ():
    # Before opening, a 350-point keep of a 500 table may only roll; the brute force agrees.
    rules = HouseRules(500, 0)
    game = solve_game(THREE_DICE, rules, turns=2)
    assert not game.may_bank((2, False, 0), 350) and game.may_bank((2, True, 0), 350)
    assert game.best((2, False, 0), 300, (1, 2, 3)).then == "roll"
    plain = solve(THREE_DICE)
    assert plain.best(300, (1, 2, 3)).then == "bank"


def _first_throw(seed: bytes, turn: int) -> list[int]:
    return roll_vector(seed, turn, 1, 6)


def test_bank_below_the_entry_minimum_is_refused_until_opened():
    rules = HouseRules(entry_minimum=500)
    seed = next(
        b"entry-%d" % i
        for i in range(1000)
        if 1 in _first_throw(b"entry-%d" % i, 1) and score(_first_throw(b"entry-%d" % i, 1)) is None
    )
    dice = _first_throw(seed, 1)
    one = dice.index(1)
    game = Game.new(seed, "farkle-challenge", rules).apply(Roll())
    assert not game.opened
    single = [o for o in game.keep_options() if o.positions == (one,)][0]
    assert single.points == 100 and not single.may_bank
    plain = Game.new(seed, "farkle-challenge").apply(Roll())
    assert [o for o in plain.keep_options() if o.positions == (one,)][0].may_bank
    with pytest.raises(FarkleError) as refused:
        game.apply(Keep(positions=(one,), then="bank"))
    assert refused.value.code == "below_entry_minimum"
    # The same bank without the rule goes through.
    assert plain.apply(Keep(positions=(one,), then="bank")).score == 100


def _model(seed: bytes, rules: HouseRules, target: int) -> tuple[int, list[int], list[tuple]]:
    """Seed 004 played by hand on the one-die table: roll until ``target`` (and the entry
    minimum before opening), keep every scoring die; final score, penalties, penalty events."""
    banked, opened, crosses, penalties, shown = 0, not rules.entry_minimum, 0, [], []
    for turn in range(1, 11):
        points, roll, farkle = 0, 0, False
        while True:
            roll += 1
            die = roll_vector(seed, turn, roll, 1)[0]
            if die not in (1, 5):
                farkle = True
                break
            points += 100 if die == 1 else 50
            if points >= (target if opened else max(target, rules.entry_minimum)):
                break
        penalty = 0
        if not farkle:
            banked, opened, crosses = banked + points, True, 0
        elif rules.farkle_penalty and opened:
            crosses += 1
            if crosses == 3:
                penalty = min(rules.farkle_penalty, banked)
                banked, crosses = banked - penalty, 0
                shown.append((turn, penalty, banked))
        penalties.append(penalty)
    return banked, penalties, shown


def _play(seed: bytes, rules: HouseRules, target: int) -> tuple[Game, list[dict], list[dict]]:
    game = Game.new(seed, ONE_DIE, rules)
    actions, events = [], []
    while not game.finished:
        action = Roll() if game.state == "awaiting_roll" else None
        if action is None:
            total = game.turn_points + game.keep_options()[0].points
            need = target if game.opened else max(target, rules.entry_minimum)
            action = Keep(positions=(0,), then="bank" if total >= need else "roll")
        actions.append(action.to_dict())
        game = game.apply(action)
        events += [e.to_dict() for e in game.events]
    return game, actions, events


@pytest.mark.parametrize(
    "rules", [HouseRules(0, 500), HouseRules(0, 1000), HouseRules(350, 500), HouseRules(500, 0)]
)
@pytest.mark.parametrize("target", [50, 300])
def test_penalty_sequences_follow_seed_004_and_replay(rules, target):
    for i in range(15):
        seed = b"house-%d" % i
        game, actions, events = _play(seed, rules, target)
        banked, penalties, shown = _model(seed, rules, target)
        assert game.score == banked
        assert [t.penalty for t in game.turns] == penalties
        assert [(e["turn"], e["points"], e["score"]) for e in events if e["kind"] == "penalty"] == (
            shown
        )
        assert Game.replay(seed, actions, ONE_DIE, rules) == game
        assert game.score >= 0


def test_three_farkles_by_hand():
    # Seed "house-17", one die: 1, then nine throws of which only turn 10 scores (a 5).
    rules = HouseRules(0, 500)
    faces = [roll_vector(b"house-17", t, 1, 1)[0] for t in range(1, 11)]
    assert faces[0] == 1 and faces[9] == 5 and all(f not in (1, 5) for f in faces[1:9])
    game, _, events = _play(b"house-17", rules, 50)
    penalties = [(e["turn"], e["points"], e["score"]) for e in events if e["kind"] == "penalty"]
    # 100 banked; turns 2-4 are three Farkles: 500 due, only 100 taken (never below 0); the
    # crosses go back to zero, turns 5-7 cost nothing more, turns 8-9 leave two crosses and
    # turn 10's bank of 50 clears them.
    assert penalties == [(4, 100, 0), (7, 0, 0)]
    assert game.score == 50 and game.farkles_in_row == 0
    assert [t.penalty for t in game.turns] == [0, 0, 0, 100, 0, 0, 0, 0, 0, 0]


def test_stored_house_pars_cover_every_table_and_match_a_fresh_solve():
    stored = stored_house_pars()
    assert set(stored) == set(TABLES)
    keys = {f"{e}-{p}" for e in (0, 350, 500, 1000) for p in (0, 500, 1000)} - {"0-0"}
    assert all(set(pars) == keys for pars in stored.values())
    # A fresh solve of two combinations (the rest are checked by `solutions --write` diffs).
    for rules in (HouseRules(500, 500), HouseRules(1000, 0)):
        fresh = solve_game("farkle-challenge", rules).par
        assert stored["farkle-challenge"][house_key(rules)] == pytest.approx(fresh, rel=1e-12)
        assert game_par("farkle-challenge", rules) == stored["farkle-challenge"][house_key(rules)]


def test_cli_par_with_house_rules(capsys):
    assert main(["par", "--entry-minimum", "500", "--farkle-penalty", "500"]) == 0
    out = capsys.readouterr().out
    par = stored_house_pars()["farkle-challenge"]["500-500"]
    assert f"with entry minimum 500 and three-Farkle penalty 500: par {par:,.0f}" in out
    assert "par of a 10-turn game:    5,936" in out and round(par) < 5936


def test_value_inside_a_turn_under_house_rules():
    rules = HouseRules(500, 0)
    game = solve_game(THREE_DICE, rules, turns=2)
    plain = solve_game(THREE_DICE, HouseRules(), turns=2)
    # Once opened, the rest of the game is the plain one: a turn's value plus the next turn's.
    opened = game.value((2, True, 0), 100, 3)
    assert opened == pytest.approx(plain.value((2, True, 0), 100, 3), rel=1e-12)
    # Before opening, 100 at risk cannot be banked: its value is the throw's.
    assert game.value((2, False, 0), 100, 3) == game.roll_value((2, False, 0), 100, 3)
    assert game.value((2, False, 0), 100, 3) < opened


def test_roll_value_beyond_the_cap_counts_the_next_states():
    # Three turns on three dice with a 500 penalty, two Farkles in a row, 40,050 at risk and
    # two dice in hand: every scoring throw banks its best keep, a Farkle pays the penalty.
    rules = HouseRules(0, 500)
    after = brute_game(THREE_DICE, rules, turns=2, floor=False)
    expected = 0.0
    for throw in product(range(1, 7), repeat=2):
        points = [score(kept, THREE_DICE) for k in (1, 2) for kept in combinations(throw, k)]
        points = [p for p in points if p is not None]
        expected += (40_050 + max(points) + after if points else after - 500) / 36
    game = solve_game(THREE_DICE, rules, turns=3)
    assert game.roll_value((3, True, 2), 40_050, 2) == pytest.approx(expected, rel=1e-12)


def test_a_keep_below_the_entry_minimum_says_what_the_turn_needs():
    # Issue 40: before a first bank, a keep leaving the turn under the minimum names it; a keep
    # that reaches it, a game with no minimum, and an opened game need nothing.
    for seed in range(50):
        game = Game.new(bytes([seed]) * 32, "farkle-challenge", HouseRules(500, 0)).apply(Roll())
        if game.state == "awaiting_keep":
            break
    for option in game.keep_options():
        assert game.bank_needs(option) == (500 if option.points < 500 else None)
        assert option.may_bank is (option.points >= 500)
    plain = Game.new(bytes([seed]) * 32, "farkle-challenge").apply(Roll())
    assert {plain.bank_needs(o) for o in plain.keep_options()} == {None}
