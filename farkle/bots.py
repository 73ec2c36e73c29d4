"""Players on a puzzle's dice: the optimal player and two weaker, human-like bots.

Seed 000 plays against the computer at three levels («Facile, Moyen, Difficile»): Easy, Medium
and Hard here. Each bot plays the puzzle's actual throws (``Game`` draws them from the seed), so
its game is a list of actions that ``Game.replay`` reproduces, and it is deterministic given the
seed and the table.

- Hard: the solver's policy (``Solution.best``), the optimal player.
- Medium: keeps what maximises the keep's points plus 100 per die left to throw (a die in hand
  is "worth about a hundred"), and banks once the turn's points reach a threshold that grows with
  the dice left: 300 with one or two dice, 400 with three, 1,000 with four, 2,000 with five,
  never below a full hand.
- Easy: keeps the best-scoring dice (the most points, fewest dice on a tie), and banks from 300.

Both weaker bots roll on whenever the table forbids banking (seed 004's full hand) or the
challenge's entry minimum does (issue 14: ``Game.keep_options`` marks those keeps). Under house
rules the Hard bot follows the game-level solution (``GameSolution.best``) in the game's state.
"""

from __future__ import annotations

import hashlib
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .analysis import solution_for
from .game import AWAITING_ROLL, TURNS, Game, Keep, Roll
from .solver import game_solution
from .tables import DEFAULT_TABLE, NO_HOUSE_RULES, HouseRules, Table, get_table
from .turn import KeepOption

EASY = "easy"
MEDIUM = "medium"
HARD = "hard"
LEVELS = (EASY, MEDIUM, HARD)

EASY_BANK_FROM = 300
# Medium banks from these turn points, by dice left to throw; a full hand always rolls.
MEDIUM_BANK_FROM = {1: 300, 2: 300, 3: 400, 4: 1000, 5: 2000}
MEDIUM_DIE_WORTH = 100

Policy = Callable[[Game], Keep]


@dataclass(frozen=True)
class BotGame:
    """A bot's whole game on a puzzle's dice: its actions, the game they replay to, its score."""

    level: str
    actions: tuple[dict[str, Any], ...]
    game: Game

    @property
    def score(self) -> int:
        """The points the bot banked over the ten turns."""
        return self.game.score


def _then(option: KeepOption, total: int, bank_from: int) -> str:
    return "bank" if option.may_bank and total >= bank_from else "roll"


def _easy(game: Game) -> Keep:
    option = max(game.keep_options(), key=lambda o: (o.points, -len(o.positions)))
    total = game.turn_points + option.points
    return Keep(option.positions, _then(option, total, EASY_BANK_FROM))


def _medium(game: Game) -> Keep:
    option = max(
        game.keep_options(),
        key=lambda o: (o.points + MEDIUM_DIE_WORTH * o.dice_left, o.points, -len(o.positions)),
    )
    total = game.turn_points + option.points
    bank_from = MEDIUM_BANK_FROM.get(option.dice_left, 10**9)
    return Keep(option.positions, _then(option, total, bank_from))


def _hard(game: Game) -> Keep:
    if game.rules.off:
        found = solution_for(game.table).best(game.turn_points, game.dice, game.sets)
    else:
        state = (TURNS - game.turn + 1, game.opened, game.farkles_in_row)
        found = game_solution(game.table, game.rules).best(
            state, game.turn_points, game.dice, game.sets
        )
    assert found is not None
    return Keep(found.positions, found.then)


POLICIES: dict[str, Policy] = {EASY: _easy, MEDIUM: _medium, HARD: _hard}


def play(
    seed: bytes,
    level: str = HARD,
    table: str | Table = DEFAULT_TABLE,
    rules: HouseRules = NO_HOUSE_RULES,
) -> BotGame:
    """The bot of ``level`` playing the ten turns of a puzzle's dice under ``rules``."""
    if level not in POLICIES:
        raise ValueError(f"Unknown level {level!r}: one of {', '.join(LEVELS)}.")
    policy = POLICIES[level]
    game = Game.new(seed, get_table(table), rules)
    actions = []
    while not game.finished:
        action = Roll() if game.state == AWAITING_ROLL else policy(game)
        actions.append(action.to_dict())
        game = game.apply(action)
    return BotGame(level=level, actions=tuple(actions), game=game)


def optimal(
    seed: bytes, table: str | Table = DEFAULT_TABLE, rules: HouseRules = NO_HOUSE_RULES
) -> BotGame:
    """The optimal player's game on a puzzle's dice (the Hard bot)."""
    return play(seed, HARD, table, rules)


def play_all(
    seed: bytes, table: str | Table = DEFAULT_TABLE, rules: HouseRules = NO_HOUSE_RULES
) -> dict[str, BotGame]:
    """Every level's game on a puzzle's dice under ``rules``, Easy to Hard."""
    return {level: play(seed, level, table, rules) for level in LEVELS}


def calibration_losses(
    games: int = 2000, table: str | Table = DEFAULT_TABLE, levels: tuple[str, ...] = (EASY, MEDIUM)
) -> list[float]:
    """The nonzero expected points lost by the weaker bots' decisions over ``games`` fixed seeds,
    which the grades' thresholds are calibrated on (docs/analysis.md)."""
    from .analysis import EPSILON, analyse

    losses = []
    for i in range(games):
        seed = hashlib.sha256(f"calibration:{i}".encode()).digest()
        for level in levels:
            played = play(seed, level, table)
            losses += [d.lost for d in analyse(played.game).decisions if d.lost > EPSILON]
    return losses


def calibration(games: int = 2000, table: str | Table = DEFAULT_TABLE) -> tuple[float, ...]:
    """The 50th, 75th and 90th percentiles of the weaker bots' nonzero losses."""
    cuts = statistics.quantiles(calibration_losses(games, table), n=20)
    return (cuts[9], cuts[14], cuts[17])
