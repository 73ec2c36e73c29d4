"""After the game: every decision of a recorded game graded by the solver's exact values.

A decision is the keep of a scoring throw together with what follows it (roll on or bank): the
game's one action that chooses anything. Its worth is the solver's expected banked points of the
state it leads to (``roll_value`` of the points at risk and the hand when rolling on, the points
when banking), and the best choice's worth is ``Solution.best``. Expected points lost are the
difference, never negative. Luck is what each throw's dice gave beyond expectation: the value
after the throw (its best choice, 0 on a Farkle) minus the value of throwing. Along a turn these
telescope, so a finished game's score is exactly ``par - lost + luck`` (docs/analysis.md).
Nothing is sampled.

Under a challenge's house rules (issue 14) a turn's worth depends on the game around it, so every
value comes from the game-level solution instead, in the game-level state before the decision
(turns left, opened, Farkles in a row), net of what the rest of the game is worth after a bank:
banking below the entry minimum is no choice, and a Farkle costs what it does to the game (the
crosses towards the penalty, the turn lost before opening). A timed-out turn's expected value at
the clock's end is counted as lost (time management is the player's).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .game import AWAITING_KEEP, TURNS, Game, Throw, Turn
from .solver import Decision, GameSolution, GameState, Solution, game_solution, solve
from .tables import DEFAULT_TABLE, NO_HOUSE_RULES, HouseRules, Table
from .turn import KeepOption, Sets, keep_option

# Grades by expected points lost, calibrated on the Easy and Medium bots' decisions over 2,000
# fixed seeds of farkle-challenge (``bots.calibration``, docs/analysis.md): the 50th, 75th and
# 90th percentiles of their nonzero losses (57.1, 93.0, 143.4), rounded to 10 points.
BEST = "best"
GOOD = "good"
INACCURACY = "inaccuracy"
MISTAKE = "mistake"
BLUNDER = "blunder"
GRADES = (BEST, GOOD, INACCURACY, MISTAKE, BLUNDER)
INACCURACY_FROM = 60.0
MISTAKE_FROM = 90.0
BLUNDER_FROM = 140.0
# Float noise of the value tables: a loss below this is the best choice.
EPSILON = 1e-6


def solution_for(table: Table) -> Solution:
    """The solved table analysis, the coach and the bots read: the one place to get it."""
    return solve(table)


def grade(lost: float) -> str:
    """The grade of a decision that lost ``lost`` expected points."""
    if lost <= EPSILON:
        return BEST
    if lost < INACCURACY_FROM:
        return GOOD
    if lost < MISTAKE_FROM:
        return INACCURACY
    if lost < BLUNDER_FROM:
        return MISTAKE
    return BLUNDER


@dataclass(frozen=True)
class Choice:
    """A keep and what follows it, with the expected banked points of the turn after it."""

    positions: tuple[int, ...]
    then: str
    points: int
    expected: float


@dataclass(frozen=True)
class GradedDecision:
    """One graded decision: a throw's keep and then roll or bank, against the best one."""

    turn: int
    roll: int
    dice: tuple[int, ...]
    sets: tuple[tuple[int, int], ...]
    # Points at risk before the keep.
    turn_points: int
    chosen: Choice
    best: Choice
    # The chosen keep's worth when followed by its best roll-or-bank: the keep's own loss is
    # best.expected - keep_best, the roll-or-bank's is keep_best - chosen.expected.
    keep_best: float
    lost: float
    grade: str


@dataclass(frozen=True)
class Luck:
    """One throw's luck: the value after its dice minus the value of throwing."""

    turn: int
    roll: int
    dice: tuple[int, ...]
    before: float
    after: float
    kind: str

    @property
    def luck(self) -> float:
        """What the dice gave beyond expectation (negative below it)."""
        return self.after - self.before


@dataclass(frozen=True)
class TimedOut:
    """A turn whose clock ran out: what the turn was worth then, against what ending it left."""

    turn: int
    turn_points: int
    before: float
    after: float

    @property
    def lost(self) -> float:
        """The expected points the clock took (the turn's worth, beyond what it leaves)."""
        return self.before - self.after


@dataclass(frozen=True)
class LeftAtClose:
    """What a puzzle's close left of a game: from ``turn`` on (the turn it cut, or the first it
    never reached), ``turns`` turns unplayed and their worth then, all of it lost."""

    turn: int
    turns: int
    lost: float


@dataclass(frozen=True)
class Analysis:
    """A game's decisions graded, its throws' luck and the totals (docs/analysis.md)."""

    table: str
    score: int
    finished: bool
    # Expected score of optimal play from the start: 10 × the expected points of a turn.
    par: float
    decisions: tuple[GradedDecision, ...]
    throws: tuple[Luck, ...]
    lost: float
    luck: float
    # 100 × (1 - lost / par), floored at 0: the share of par the decisions kept.
    accuracy: float
    costliest: tuple[GradedDecision, ...]
    grades: Mapping[str, int]
    # Turns the clock ended (seed 001): their loss is in ``lost``, no decision's grade.
    timeouts: tuple[TimedOut, ...] = ()
    # What the close left undone (a running turn, turns not reached): in ``lost`` too, so that
    # score = par - lost + luck holds for a game the close ended (issue 40).
    left_at_close: LeftAtClose | None = None


class _TurnValues:
    """The turn-level values of a table: a turn's worth alone, as without house rules."""

    def __init__(self, solution: Solution) -> None:
        self.solution = solution

    def roll(self, turn_points: int, dice: int, sets: Sets = ()) -> float:
        return self.solution.roll_value(turn_points, dice, sets)

    def bank(self, turn_points: int) -> float:
        return float(turn_points)

    def may_bank(self, turn_points: int) -> bool:
        return True

    def farkle(self) -> float:
        return 0.0

    def timeout(self) -> float:
        return 0.0

    def rest(self, turns: int) -> float:
        """The worth of ``turns`` whole turns not yet played."""
        return self.solution.expected_turn() * turns

    def best(self, turn_points: int, throw: Throw) -> Decision | None:
        return self.solution.best(turn_points, throw.dice, throw.sets)


class _GameValues:
    """The game-level values of one state under house rules, less what a bank leaves for the
    rest of the game: without rules, exactly the turn-level values."""

    def __init__(self, solution: GameSolution, state: GameState) -> None:
        self.solution = solution
        self.state = state
        self.shift = solution.bank[state]

    def roll(self, turn_points: int, dice: int, sets: Sets = ()) -> float:
        return self.solution.roll_value(self.state, turn_points, dice, sets) - self.shift

    def bank(self, turn_points: int) -> float:
        # Shifted as ``best`` is, so the best choice's loss is exactly zero.
        return (turn_points + self.solution.bank[self.state]) - self.shift

    def may_bank(self, turn_points: int) -> bool:
        return self.solution.may_bank(self.state, turn_points)

    def farkle(self) -> float:
        return self.solution.farkle[self.state] - self.shift

    def timeout(self) -> float:
        # Seed 001: a timed-out turn banks nothing and leaves the crosses as they were.
        turns, opened, in_row = self.state
        return self.solution.start[(turns - 1, opened, in_row)] - self.shift

    def rest(self, turns: int) -> float:
        """The worth of the turns after this one (``turns`` of them), shifted as the others."""
        return self.shift if turns else 0.0

    def best(self, turn_points: int, throw: Throw) -> Decision | None:
        found = self.solution.best(self.state, turn_points, throw.dice, throw.sets)
        if found is None:
            return None
        return Decision(found.positions, found.then, found.expected - self.shift)


_Values = _TurnValues | _GameValues


def game_states(game: Game) -> list[GameState]:
    """The game-level state (turns left, opened, Farkles in a row) before each of the game's
    turns, as the house rules moved it (farkle.game ``_end_turn``)."""
    return _states(game)[:-1]


def _states(game: Game) -> list[GameState]:
    """``game_states`` and the state after the game's last turn."""
    rules = game.rules
    opened, in_row = not rules.entry_minimum, 0
    states = []
    for turn in game.turns:
        states.append((TURNS - turn.number + 1, opened, in_row))
        if turn.farkle:
            # Seed 004: no cross before opening; the third cross costs the penalty and clears.
            if rules.farkle_penalty and opened:
                in_row = (in_row + 1) % 3
        elif turn.points:
            opened, in_row = True, 0
    states.append((TURNS - len(game.turns), opened, in_row))
    return states


def _cut_by_close(turn: Turn) -> bool:
    """A turn the close ended (farkle.Game.ended_by_close): done with throws, and neither banked,
    Farkled nor timed out."""
    return turn.done and bool(turn.throws) and not (turn.points or turn.farkle or turn.timed_out)


def _choice_value(values: _Values, turn_points: int, option: KeepOption, then: str) -> float:
    total = turn_points + option.points
    if then == "bank":
        return values.bank(total)
    return values.roll(total, *option.hand)


def _best_then(values: _Values, turn_points: int, option: KeepOption) -> tuple[str, float]:
    """The better of rolling on and banking after a keep (rolling when banking is refused)."""
    total = turn_points + option.points
    roll = values.roll(total, *option.hand)
    bank = values.bank(total)
    if not option.may_bank or not values.may_bank(total) or roll > bank:
        return "roll", roll
    return "bank", bank


def _best(values: _Values, table: Table, turn_points: int, throw: Throw) -> Choice:
    found = values.best(turn_points, throw)
    assert found is not None
    points = keep_option(throw.dice, found.positions, table, throw.sets).points
    return Choice(found.positions, found.then, points, found.expected)


def analyse(
    game: Game, solution: Solution | None = None, *, game_level: bool | None = None
) -> Analysis:
    """Every decision of ``game`` graded and every throw's luck, from the solver's values:
    the game-level ones under house rules (``game_level`` forces either)."""
    if game_level is None:
        game_level = not game.rules.off
    if game_level:
        whole = game_solution(game.table, game.rules)
        states = game_states(game)
        per_turn: list[_Values] = [_GameValues(whole, state) for state in states]
        par = whole.par
    else:
        solution = solution or solution_for(game.table)
        per_turn = [_TurnValues(solution)] * len(game.turns)
        par = solution.expected_turn() * TURNS
    decisions: list[GradedDecision] = []
    lucks: list[Luck] = []
    timeouts: list[TimedOut] = []
    left_at_close: LeftAtClose | None = None
    for turn, values in zip(game.turns, per_turn, strict=True):
        turn_points = 0
        # The turn's worth as it stands, for the clock's end: a throw first.
        current = values.roll(0, game.table.dice)
        for index, throw in enumerate(turn.throws, start=1):
            before = values.roll(turn_points, len(throw.dice), throw.sets)
            current = before
            if throw.rethrow:
                # Seed 004: the pair is thrown again from the same state: no luck either way.
                lucks.append(Luck(turn.number, index, throw.dice, before, before, "rethrow"))
                continue
            if throw.farkle:
                lucks.append(
                    Luck(turn.number, index, throw.dice, before, values.farkle(), "farkle")
                )
                continue
            best = _best(values, game.table, turn_points, throw)
            current = best.expected
            lucks.append(Luck(turn.number, index, throw.dice, before, best.expected, "scoring"))
            option = throw.keep
            if option is None:
                # The throw waiting for a keep in a game still in progress, or when the clock
                # ran out.
                continue
            # A keep that rolls on is followed by its throw in the same action: a kept throw
            # that ends its turn was banked.
            then = "bank" if index == len(turn.throws) else "roll"
            chosen = Choice(
                option.positions,
                then,
                option.points,
                _choice_value(values, turn_points, option, then),
            )
            keep_best = _best_then(values, turn_points, option)[1]
            lost = max(0.0, best.expected - chosen.expected)
            decisions.append(
                GradedDecision(
                    turn=turn.number,
                    roll=index,
                    dice=throw.dice,
                    sets=throw.sets,
                    turn_points=turn_points,
                    chosen=chosen,
                    best=best,
                    keep_best=keep_best,
                    lost=lost,
                    grade=grade(lost),
                )
            )
            turn_points += option.points
        if turn.timed_out:
            timeouts.append(TimedOut(turn.number, turn_points, current, values.timeout()))
        if _cut_by_close(turn):
            # The close took the turn's worth as it stood and every turn after it.
            after = TURNS - turn.number
            worth = current + values.rest(after)
            left_at_close = LeftAtClose(turn.number, after + 1, worth)
    unreached = TURNS - len(game.turns)
    if game.finished and left_at_close is None and unreached:
        # The close came between turns (or before the first): the rest of the game is lost.
        if game_level:
            worth = whole.start[_states(game)[-1]]
        else:
            worth = solution.expected_turn() * unreached
        left_at_close = LeftAtClose(len(game.turns) + 1, unreached, worth)
    lost = sum(d.lost for d in decisions) + sum(t.lost for t in timeouts)
    if left_at_close is not None:
        lost += left_at_close.lost
    counts = {g: 0 for g in GRADES}
    for d in decisions:
        counts[d.grade] += 1
    accuracy = 100.0 * max(0.0, 1.0 - lost / par)
    costliest = tuple(sorted((d for d in decisions if d.lost > EPSILON), key=lambda d: -d.lost)[:3])
    return Analysis(
        table=game.table.id,
        score=game.score,
        finished=game.finished,
        par=par,
        decisions=tuple(decisions),
        throws=tuple(lucks),
        lost=lost,
        luck=sum(x.luck for x in lucks),
        accuracy=accuracy,
        costliest=costliest,
        grades=counts,
        timeouts=tuple(timeouts),
        left_at_close=left_at_close,
    )


def analyse_actions(
    seed: bytes,
    actions: Iterable[Mapping[str, Any]],
    table: str | Table = DEFAULT_TABLE,
    rules: HouseRules = NO_HOUSE_RULES,
) -> Analysis:
    """The analysis of the game a seed, a table, house rules and stored actions replay to."""
    return analyse(Game.replay(seed, actions, table, rules))


@dataclass(frozen=True)
class KeepAdvice:
    """One keep of the throw on the table: its points and what rolling on or banking is worth."""

    positions: tuple[int, ...]
    dice: tuple[int, ...]
    points: int
    dice_left: int
    roll: float
    # None when every die scored and the table forbids banking (seed 004).
    bank: float | None
    then: str
    expected: float


@dataclass(frozen=True)
class Advice:
    """The coach before a decision: expected points of rolling and of banking, and the best
    keep."""

    turn_points: int
    # Waiting for a keep: the best keep and what follows it; waiting for a roll: roll, no keep.
    positions: tuple[int, ...]
    then: str
    expected: float
    # Expected banked points of rolling on, and of banking, after the best keep (before a roll:
    # the worth of the throw, and None since a throw must come first).
    roll: float
    bank: float | None
    options: tuple[KeepAdvice, ...]


def coach(game: Game, solution: Solution | None = None) -> Advice | None:
    """Advice for the decision ``game`` waits for; None once it is finished."""
    if game.finished:
        return None
    solution = solution or solution_for(game.table)
    tp = game.turn_points
    if game.state != AWAITING_KEEP:
        roll = solution.roll_value(tp, game.in_hand, game.sets)
        return Advice(tp, (), "roll", roll, roll, None, ())
    options = []
    for option in game.keep_options():
        total = tp + option.points
        roll = solution.roll_value(total, *option.hand)
        then, expected = _best_then(_TurnValues(solution), tp, option)
        options.append(
            KeepAdvice(
                positions=option.positions,
                dice=option.dice,
                points=option.points,
                dice_left=option.dice_left,
                roll=roll,
                bank=float(total) if option.may_bank else None,
                then=then,
                expected=expected,
            )
        )
    found = solution.best(tp, game.dice, game.sets)
    assert found is not None
    top = next(o for o in options if o.positions == found.positions)
    return Advice(tp, top.positions, top.then, top.expected, top.roll, top.bank, tuple(options))
