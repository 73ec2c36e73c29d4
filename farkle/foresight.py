"""The foresight check: does a game's roll-or-bank choices know the throws it had not seen?

At every choice between rolling and banking, the throw the player would get by rolling is
fixed by the seed (throw ``k + 1`` of the turn, the first ``n`` faces). An honest player has not
seen it, so whether it is a Farkle is independent of the choice, with a known exact probability.
A player who sees ahead (a second browser on the same dice) banks when it is a Farkle and rolls
when it is not. Two pieces of evidence, combined into one valid p-value (docs/foresight.md):

- banks: the hidden throws behind the banks are never shown to anyone during the game, so given
  everything the game shows they are independent Bernoullis, and the number of Farkles among them
  is exactly Poisson-binomial; its upper tail is an exact conditional p-value;
- rolls: each roll's throw is a Farkle with its known probability given the game so far, so the
  likelihood ratio of "obeys a peek a share λ of the time" against honest play is a nonnegative
  martingale (an e-value), averaged over a few λ; a peeker who never Farkles makes it large.

The p-value is ``min(1, p_banks / e_rolls)``: under honest play, whatever the strategy and skill,
``P(p <= α) <= α``. The policies at the end simulate players for the bench and the tests.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from .fair import roll_vector, throw_faces
from .game import AWAITING_ROLL, Game, Keep, Roll, action_from_dict
from .outcomes import throws
from .solver import solve
from .tables import DEFAULT_TABLE, NO_HOUSE_RULES, HouseRules, Table, get_table
from .turn import FARKLE, KeepOption, Sets, throw_kind

# A game is held when its p-value is below this: by construction fewer than 1 in 100,000 honest
# games are (P(p <= α) <= α for any honest strategy).
HOLD_BELOW = 1e-5

# (λ, weight): shares of the decisions on which the alternative obeys its peek, and the weight of
# each in the e-value's average (weights sum to 1). Half on λ = 1, the attack, which
# obeys every peek; the rest on partial cheats, so that one Farkle on a roll (which drops the
# λ = 1 term to 0) does not wipe out the evidence of a game. The weights were fixed before the
# bench was run on fresh seeds; any fixed weights keep the test valid.
LAMBDAS = ((1.0, 0.5), (0.5, 0.1), (0.7, 0.1), (0.8, 0.1), (0.9, 0.1), (0.95, 0.1))


@dataclass(frozen=True)
class Choice:
    """One choice between rolling and banking, with the throw rolling would have shown."""

    turn: int
    # The throw of the turn that rolling would have made (1-based).
    roll: int
    dice: int
    turn_points: int
    banked: bool
    # The solver's choice: bank (True) or roll (False), and the expected values of each.
    best_bank: bool
    roll_value: float
    # The throw rolling would show (seen only if the player rolled), and its exact probability of
    # being a Farkle with these dice and sets.
    farkle: bool
    risk: float

    @property
    def departs(self) -> bool:
        """The player chose otherwise than the solver."""
        return self.banked != self.best_bank

    @property
    def concordant(self) -> bool:
        """Banked before a Farkle, or rolled into a throw that scored: what a peek advises."""
        return self.farkle == self.banked


@dataclass(frozen=True)
class Check:
    """The outcome of the foresight check of one game."""

    p: float
    p_banks: float
    e_rolls: float
    banks: int
    bank_farkles: int
    rolls: int
    roll_farkles: int
    departures: int
    concordant_departures: int

    @property
    def held(self) -> bool:
        """Below the threshold: kept off the public leaderboard until an operator looks."""
        return self.p < HOLD_BELOW

    def summary(self) -> dict[str, Any]:
        """The check as plain JSON-ready numbers."""
        # Its fields are plain numbers: no deep copy (``asdict``) needed, once a game at close.
        return dict(self.__dict__)


@cache
def throw_farkle_risk(dice: int, table: Table, sets: Sets = ()) -> Fraction:
    """Exact probability that one throw of ``dice`` dice is a Farkle (a pair thrown again under
    seed 004 is not: it is a throw of its own)."""
    return sum((p for d, p in throws(dice) if throw_kind(d, table, sets) == FARKLE), Fraction(0))


@cache
def _risk(dice: int, table: Table, sets: Sets) -> float:
    # As a float once per hand, not once per choice (a Fraction's float is Python code).
    return float(throw_farkle_risk(dice, table, sets))


def choices(
    seed: bytes,
    actions: Iterable[Mapping[str, Any]],
    table: str | Table = DEFAULT_TABLE,
    rules: HouseRules = NO_HOUSE_RULES,
) -> list[Choice]:
    """Every roll-or-bank choice of a game, with the hidden throw behind it."""
    t = get_table(table)
    solution = solve(t)
    game = Game.new(seed, t, rules)
    found = []
    for data in actions:
        action = action_from_dict(data)
        if isinstance(action, Keep):
            found += _choice(game, action, solution)
        # Its events are not read: not recorded.
        game = game.apply(action, events=False)
    return found


def _choice(game: Game, action: Keep, solution) -> list[Choice]:
    t = game.table
    positions = tuple(sorted(action.positions))
    option = next((o for o in game.keep_options() if o.positions == positions), None)
    if option is None:
        # Not a valid keep: the game refuses it right after, so it is no choice.
        return []
    if not option.may_bank:
        # Seed 004: a full hand must be thrown again; there is nothing to choose.
        return []
    dice, sets = option.hand
    turn_points = game.turn_points + option.points
    hidden = throw_faces(game.seed, game.turn, game.roll + 1, t.dice)[:dice]
    roll_value = solution.roll_value(turn_points, dice, sets)
    return [
        Choice(
            turn=game.turn,
            roll=game.roll + 1,
            dice=dice,
            turn_points=turn_points,
            banked=action.then == "bank",
            best_bank=roll_value <= turn_points,
            roll_value=roll_value,
            farkle=throw_kind(hidden, t, sets) == FARKLE,
            risk=_risk(dice, t, sets),
        )
    ]


def poisson_binomial_tail(probabilities: Sequence[float], at_least: int) -> float:
    """P(at least ``at_least`` successes) among independent Bernoullis, exactly (no sampling)."""
    if at_least <= 0:
        return 1.0
    if at_least > len(probabilities):
        return 0.0
    # dist[j]: probability of j successes so far; the top cell gathers "at_least or more".
    dist = [1.0] + [0.0] * at_least
    for p in probabilities:
        top = dist[at_least] + dist[at_least - 1] * p
        for j in range(at_least - 1, 0, -1):
            dist[j] = dist[j] * (1 - p) + dist[j - 1] * p
        dist[0] *= 1 - p
        dist[at_least] = top
    return min(1.0, dist[at_least])


def roll_evidence(
    rolls: Iterable[tuple[bool, float]],
    lambdas: Sequence[tuple[float, float]] = LAMBDAS,
) -> float:
    """The e-value of the rolls, (farkled, risk) in game order: the weighted mean over λ of
    Π (1 − λ + λ · [no Farkle] / (1 − risk)), whose expectation under honest play is at most 1."""
    rolls = list(rolls)
    total = 0.0
    for lam, weight in lambdas:
        product = 1.0
        for farkled, risk in rolls:
            product *= 1 - lam + (0.0 if farkled else lam / (1 - risk))
        total += weight * product
    return total


def check_choices(found: Sequence[Choice]) -> Check:
    """The p-value of a game's choices under honest play."""
    banks = [c for c in found if c.banked]
    rolls = [c for c in found if not c.banked]
    bank_farkles = sum(c.farkle for c in banks)
    p_banks = poisson_binomial_tail([c.risk for c in banks], bank_farkles)
    e_rolls = roll_evidence((c.farkle, c.risk) for c in rolls)
    departures = [c for c in found if c.departs]
    return Check(
        p=min(1.0, p_banks / e_rolls),
        p_banks=p_banks,
        e_rolls=e_rolls,
        banks=len(banks),
        bank_farkles=bank_farkles,
        rolls=len(rolls),
        roll_farkles=sum(c.farkle for c in rolls),
        departures=len(departures),
        concordant_departures=sum(c.concordant for c in departures),
    )


def check(
    seed: bytes,
    actions: Iterable[Mapping[str, Any]],
    table: str | Table = DEFAULT_TABLE,
    rules: HouseRules = NO_HOUSE_RULES,
) -> Check:
    """The foresight check of a game given by its seed and actions (under its house rules)."""
    return check_choices(choices(seed, actions, table, rules))


# ---- simulated players, for the bench and the tests -------------------------------------------

# A policy picks the keep of the current throw and whether to roll on or bank. ``peek(dice, sets)``
# tells whether the throw after such a keep would be a Farkle: only cheaters call it.
Peek = Callable[[int, Sets], bool]
Policy = Callable[[Game, random.Random, Peek], Keep]


def _option(game: Game, positions: tuple[int, ...]) -> KeepOption:
    return next(o for o in game.keep_options() if o.positions == positions)


def _greedy_keep(game: Game) -> KeepOption:
    """The most points, then the fewest dice kept."""
    return max(game.keep_options(), key=lambda o: (o.points, -len(o.positions)))


def solver_policy(game: Game, rng: random.Random, peek: Peek) -> Keep:
    """Optimal play: the solver's keep and choice."""
    best = solve(game.table).best(game.turn_points, game.dice, game.sets)
    return Keep(best.positions, best.then)


def bank_from(points: int) -> Policy:
    """Keep the most points, bank as soon as the turn holds ``points``."""

    def policy(game: Game, rng: random.Random, peek: Peek) -> Keep:
        option = _greedy_keep(game)
        bank = game.turn_points + option.points >= points and option.may_bank
        return Keep(option.positions, "bank" if bank else "roll")

    return policy


def by_dice_left(thresholds: Mapping[int, int]) -> Policy:
    """Keep the most points; bank once the turn holds the threshold for the dice left."""

    def policy(game: Game, rng: random.Random, peek: Peek) -> Keep:
        option = _greedy_keep(game)
        held = game.turn_points + option.points
        bank = held >= thresholds.get(option.dice_left, 0) and option.may_bank
        return Keep(option.positions, "bank" if bank else "roll")

    return policy


def noisy(policy: Policy, mistakes: float) -> Policy:
    """``policy``, but a share ``mistakes`` of its roll-or-bank choices flipped at random."""

    def noisy_policy(game: Game, rng: random.Random, peek: Peek) -> Keep:
        keep = policy(game, rng, peek)
        if rng.random() < mistakes and _option(game, keep.positions).may_bank:
            return Keep(keep.positions, "roll" if keep.then == "bank" else "bank")
        return keep

    return noisy_policy


def random_policy(game: Game, rng: random.Random, peek: Peek) -> Keep:
    """Any valid keep, then roll or bank on a coin flip."""
    option = rng.choice(game.keep_options())
    bank = rng.random() < 0.5 and option.may_bank
    return Keep(option.positions, "bank" if bank else "roll")


def peeker(game: Game, rng: random.Random, peek: Peek) -> Keep:
    """The issue's attack: the solver's keep, then roll exactly when the next throw scores."""
    option = _option(game, solver_policy(game, rng, peek).positions)
    if not option.may_bank:
        return Keep(option.positions, "roll")
    return Keep(option.positions, "bank" if peek(*option.hand) else "roll")


def dodger(game: Game, rng: random.Random, peek: Peek) -> Keep:
    """A quieter cheat: optimal play, except banking whenever the next throw would Farkle."""
    keep = solver_policy(game, rng, peek)
    option = _option(game, keep.positions)
    if keep.then == "bank" or not option.may_bank:
        return keep
    return Keep(keep.positions, "bank") if peek(*option.hand) else keep


def sometimes(policy: Policy, share: float) -> Policy:
    """A cheater who looks ahead only on a share of the turns, playing optimally otherwise."""

    def part_time(game: Game, rng: random.Random, peek: Peek) -> Keep:
        # One draw per turn, from the seed and turn, so that a turn is peeked whole or not at all.
        looks = random.Random(game.seed + bytes([game.turn])).random() < share
        return (policy if looks else solver_policy)(game, rng, peek)

    return part_time


HONEST: dict[str, Policy] = {
    "solver": solver_policy,
    "bank from 300": bank_from(300),
    "bank from 1,000": bank_from(1000),
    "by dice left": by_dice_left({6: 3000, 5: 2000, 4: 1000, 3: 500, 2: 300, 1: 200}),
    "solver, 20 % mistakes": noisy(solver_policy, 0.2),
    "random": random_policy,
}

CHEATERS: dict[str, Policy] = {
    "peeker (the issue's attack)": peeker,
    "dodger": dodger,
    "peeker on half the turns": sometimes(peeker, 0.5),
}


def play_out(
    seed: bytes, policy: Policy, rng: random.Random, table: str | Table = DEFAULT_TABLE
) -> tuple[Game, list[dict[str, Any]]]:
    """A whole game played by ``policy``: the game and its actions."""
    game = Game.new(seed, table)
    actions: list[dict[str, Any]] = []

    def peek(dice: int, sets: Sets) -> bool:
        hidden = roll_vector(seed, game.turn, game.roll + 1, game.table.dice)[:dice]
        return throw_kind(tuple(hidden), game.table, sets) == FARKLE

    while not game.finished:
        action = Roll() if game.state == AWAITING_ROLL else policy(game, rng, peek)
        game = game.apply(action)
        actions.append(action.to_dict())
    return game, actions
