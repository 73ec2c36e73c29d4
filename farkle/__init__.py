"""Farkle Daily's game engine: pure Python, no Django.

The names exported here are the engine's public contract; the modules behind them are free to
change.
"""

from .analysis import (
    GRADES,
    Advice,
    Analysis,
    Choice,
    GradedDecision,
    KeepAdvice,
    Luck,
    analyse,
    analyse_actions,
    coach,
    grade,
)
from .bots import LEVELS, BotGame, optimal, play, play_all
from .errors import FarkleError
from .fair import challenge_seed, commitment, daily_seed, roll_vector
from .game import (
    AWAITING_KEEP,
    AWAITING_ROLL,
    FINISHED,
    TURNS,
    Action,
    Event,
    Game,
    Keep,
    Roll,
    Throw,
    TimeOut,
    action_from_dict,
)
from .risk import farkle_risk, risk_table
from .scoring import best_split, score
from .solver import Decision, Solution, solve
from .tables import DEFAULT_TABLE, TABLES, TURN_RULES, Combo, Table, get_table
from .turn import (
    FARKLE,
    RETHROW,
    SCORING,
    KeepOption,
    Sets,
    is_farkle,
    keep_option,
    keep_options,
    throw_kind,
)

# isort: split
# House rules (issue 14, challenges only): the game value's rules and the game-level solver.
from .solver import GameSolution, GameState, game_par, game_solution, solve_game
from .tables import ENTRY_MINIMUMS, FARKLE_PENALTIES, NO_HOUSE_RULES, HouseRules

__all__ = [
    "Action",
    "GRADES",
    "LEVELS",
    "Advice",
    "Analysis",
    "BotGame",
    "Choice",
    "GradedDecision",
    "KeepAdvice",
    "Luck",
    "analyse",
    "analyse_actions",
    "coach",
    "grade",
    "optimal",
    "play",
    "play_all",
    "AWAITING_KEEP",
    "AWAITING_ROLL",
    "DEFAULT_TABLE",
    "FARKLE",
    "FINISHED",
    "RETHROW",
    "SCORING",
    "TABLES",
    "TURNS",
    "TURN_RULES",
    "Combo",
    "Decision",
    "Event",
    "FarkleError",
    "Game",
    "Keep",
    "KeepOption",
    "Roll",
    "TimeOut",
    "Sets",
    "Solution",
    "Table",
    "Throw",
    "action_from_dict",
    "best_split",
    "challenge_seed",
    "commitment",
    "daily_seed",
    "farkle_risk",
    "get_table",
    "is_farkle",
    "keep_option",
    "keep_options",
    "risk_table",
    "roll_vector",
    "score",
    "solve",
    "throw_kind",
    # House rules (issue 14).
    "ENTRY_MINIMUMS",
    "FARKLE_PENALTIES",
    "NO_HOUSE_RULES",
    "GameSolution",
    "GameState",
    "HouseRules",
    "game_par",
    "game_solution",
    "solve_game",
]
