"""The JSON shapes of puzzles and attempts, built straight from the models and the game.

Plain dictionaries rather than DRF serializers on the hot path of every action (a serializer on
top of the dict costs about 3.5 times the dict's own time for an attempt); the serializers in
``play.apis.schemas`` describe them, and ``tests/*/test_payload_schemas.py`` validates every
documented response against that description, recursively.
"""

from __future__ import annotations

import datetime
from functools import cache
from typing import Any

from django.utils.translation import gettext_lazy

import farkle
from play.models import Attempt, Puzzle

HELD_NOTE = gettext_lazy(
    "Your score stands, but this game is held off the public leaderboard for review: its choices "
    "to roll or bank matched the coming throws more closely than chance allows. An operator "
    "checks held games and releases those that are fine."
)


def _risk(dice: int, table: farkle.Table, sets: tuple = ()) -> float:
    return float(farkle.farkle_risk(dice, table, sets))


@cache
def par(table: str, entry_minimum: int = 0, farkle_penalty: int = 0) -> int:
    """Expected score of a ten-turn game under optimal play and the house rules, rounded."""
    return round(farkle.game_par(table, farkle.HouseRules(entry_minimum, farkle_penalty)))


def options_data(puzzle: Puzzle) -> dict[str, Any]:
    """A puzzle's options (issue 14): house rules and the clock per turn; all off for a daily."""
    return {
        "entry_minimum": puzzle.entry_minimum,
        "farkle_penalty": puzzle.farkle_penalty,
        "turn_seconds": puzzle.turn_seconds,
    }


def iso(instant: datetime.datetime | None) -> str | None:
    return None if instant is None else instant.isoformat().replace("+00:00", "Z")


def _seconds(duration: datetime.timedelta) -> float:
    return round(duration.total_seconds(), 3)


def puzzle_ref(puzzle: Puzzle) -> dict[str, Any]:
    if puzzle.kind == Puzzle.Kind.DAILY:
        return {"kind": "daily", "date": puzzle.day.isoformat()}
    return {"kind": "challenge", "code": puzzle.code}


def attempt_data(
    attempt: Attempt, game: farkle.Game, events: tuple[farkle.Event, ...] = ()
) -> dict[str, Any]:
    """What a client needs to show and play an attempt, and nothing it must not know;
    ``events`` are what the action just applied caused (none when the attempt is only read)."""
    table = game.table
    own = attempt.dice_source == Attempt.DiceSource.OWN
    seed = attempt.seed() if own else None
    options = [
        {
            "dice": list(option.positions),
            "score": option.points,
            "dice_left": option.dice_left,
            "farkle_risk": _risk(option.dice_left, table, option.sets),
            "can_bank": option.may_bank,
            # Why a keep may not bank before a first bank (issue 40): a page can say so.
            "bank_needs": game.bank_needs(option),
            "hot_dice": option.hot_dice,
        }
        for option in game.keep_options()
    ]
    return {
        "id": attempt.pk,
        "official": attempt.official,
        "state": game.state,
        "step": game.step,
        "turn": game.turn,
        "roll": game.roll,
        "dice": list(game.dice),
        "in_hand": game.in_hand,
        "turn_points": game.turn_points,
        "score": game.score,
        "turns": _turns(game),
        "keep_options": options,
        "events": [event.to_dict() for event in events],
        "farkle_risk": None if game.finished else _risk(game.in_hand, table, game.sets),
        "started_at": iso(attempt.started_at),
        "finished_at": iso(attempt.finished_at),
        "finalised_at_close": attempt.finalised_at_close,
        # Only the verdict, never the p-value: it depends on throws of the puzzle nobody saw.
        "held": attempt.held,
        "held_note": HELD_NOTE if attempt.held else None,
        "deadline": iso(attempt.deadline),
        # Seed 001: when the running turn's time runs out (None: untimed, or not thrown yet).
        "turn_deadline": None if game.finished else iso(attempt.turn_deadline()),
        "time_taken": _seconds(attempt.time_taken),
        "options": options_data(attempt.puzzle),
        "puzzle": puzzle_ref(attempt.puzzle),
        "dice_source": attempt.dice_source,
        # The commitment of the dice this game plays, public from its start; a practice game's
        # own seed is revealed with the finished game, so it can be checked like a puzzle's.
        "commitment": farkle.commitment(seed) if own else attempt.puzzle.commitment,
        "revealed_seed": seed.hex() if own and game.finished else None,
        # A retry (issue 40): the finished game it started from, at one of its decisions.
        "retry_of": attempt.retry_of_id,
    }


def attempt_summary(attempt: Attempt) -> dict[str, Any]:
    """An attempt in a list: no replay, only the stored derived fields."""
    return {
        "id": attempt.pk,
        "official": attempt.official,
        "state": attempt.state,
        "step": attempt.step,
        "turn": attempt.turn,
        "score": attempt.score,
        "started_at": iso(attempt.started_at),
        "finished_at": iso(attempt.finished_at),
    }


def puzzle_fields(puzzle: Puzzle, now: datetime.datetime) -> dict[str, Any]:
    """A puzzle as the API shows it, a day's or a challenge's."""
    status = puzzle.status(now)
    return {
        **puzzle_ref(puzzle),
        "table": puzzle.table,
        "commitment": puzzle.commitment,
        "opens_at": iso(puzzle.opens_at),
        "ends_at": iso(puzzle.ends_at),
        "closes_at": iso(puzzle.closes_at),
        "status": status,
        "players": puzzle.players,
        "par": par(puzzle.table, puzzle.entry_minimum, puzzle.farkle_penalty),
        "turns_total": farkle.TURNS,
        # docs/fairness.md: the seed is published once the puzzle is closed, never before.
        "revealed_seed": puzzle.seed().hex() if status == "closed" else None,
        # Frozen by the close (docs/operations.md): players, mean, median, best, distribution.
        # Never before the status is closed, whatever the row holds: they are the scores nobody
        # may learn before playing (docs/play.md).
        # Shown with the status that says so: a host whose clock runs behind the closing
        # worker's still calls the puzzle open or in its grace, and shows no final figures.
        "final_stats": puzzle.final_stats if status == Puzzle.Status.CLOSED else None,
    }


def puzzle_data(puzzle: Puzzle, now: datetime.datetime, attempts: list[Attempt]) -> dict[str, Any]:
    """A puzzle with the caller's attempts on it (official first)."""
    return {**puzzle_fields(puzzle, now), "my_attempts": [attempt_summary(a) for a in attempts]}


def _own_seed_revealed(attempt: Attempt, finished: bool, now: datetime.datetime) -> bool:
    # A practice game's own seed, once no action can change the game any more.
    return finished or (attempt.deadline is not None and now >= attempt.deadline)


def attempt_facts(attempt: Attempt, *, now: datetime.datetime) -> dict[str, Any]:
    """An attempt's dice as served, with the commitment and seed they must come from."""
    game = attempt.game()
    own = attempt.dice_source == Attempt.DiceSource.OWN
    if own:
        seed = attempt.seed() if _own_seed_revealed(attempt, game.finished, now) else None
        commitment = farkle.commitment(attempt.seed())
    else:
        closed = attempt.puzzle.status(now) == Puzzle.Status.CLOSED
        seed = attempt.puzzle.seed() if closed else None
        commitment = attempt.puzzle.commitment
    return {
        "id": attempt.pk,
        "player": attempt.player.display_name,
        "official": attempt.official,
        "score": attempt.score,
        "finished": game.finished,
        "dice_source": attempt.dice_source,
        "commitment": commitment,
        "seed": None if seed is None else seed.hex(),
        "throws": [
            {"turn": turn.number, "roll": roll, "dice": list(throw.dice)}
            for turn in game.turns
            for roll, throw in enumerate(turn.throws, start=1)
        ],
        # Seed 001: turns whose clock ran out (their points were lost), for a recomputation.
        "timed_out_turns": [turn.number for turn in game.turns if turn.timed_out],
        "time_taken": _seconds(attempt.time_taken),
    }


def verification_data(
    puzzle: Puzzle, attempt: Attempt | None, now: datetime.datetime
) -> dict[str, Any]:
    """The facts to check a puzzle by: commitment, seed once closed, one attempt's throws."""
    status = puzzle.status(now)
    return {
        "puzzle": puzzle_ref(puzzle),
        "table": puzzle.table,
        "status": status,
        "opens_at": iso(puzzle.opens_at),
        "closes_at": iso(puzzle.closes_at),
        "commitment": puzzle.commitment,
        # The options the challenge was created with: public facts shown with the commitment.
        "options": options_data(puzzle),
        "par": par(puzzle.table, puzzle.entry_minimum, puzzle.farkle_penalty),
        "seed": puzzle.seed().hex() if status == Puzzle.Status.CLOSED else None,
        "attempt": None if attempt is None else attempt_facts(attempt, now=now),
    }


def _turns(game: farkle.Game) -> list[dict[str, Any]]:
    return [
        {
            "turn": turn.number,
            "throws": [
                {
                    "dice": list(throw.dice),
                    "kept": list(throw.kept),
                    "points": throw.points,
                    "farkle": throw.farkle,
                    "hot_dice": throw.hot_dice,
                    "rethrow": throw.rethrow,
                }
                for throw in turn.throws
            ],
            "points": turn.points,
            "farkle": turn.farkle,
            "timed_out": turn.timed_out,
            "done": turn.done,
        }
        for turn in game.turns
    ]


def _choice(choice: Any) -> dict[str, Any]:
    return {
        "dice": list(choice.positions),
        "then": choice.then,
        "points": choice.points,
        "expected": round(choice.expected, 2),
    }


def analysis_data(found: Any) -> dict[str, Any]:
    """A finished attempt's analysis (``play.selectors.analysis.AttemptAnalysis``): graded
    decisions, luck, totals, and the bots as far as the caller may see them."""
    analysis = found.analysis
    decisions = [
        {
            "turn": d.turn,
            "roll": d.roll,
            "dice": list(d.dice),
            "turn_points": d.turn_points,
            "chosen": _choice(d.chosen),
            "best": _choice(d.best),
            "lost": round(d.lost, 2),
            "grade": d.grade,
        }
        for d in analysis.decisions
    ]
    index = {(d.turn, d.roll): i for i, d in enumerate(analysis.decisions)}
    bots = None
    if found.bots is not None:
        bots = [
            {
                "level": level,
                "score": bot.score,
                "beaten": found.game.score > bot.score,
                "turns": _turns(bot.game) if found.bot_games else None,
            }
            for level, bot in found.bots.items()
        ]
    return {
        "id": found.attempt.pk,
        "puzzle": puzzle_ref(found.attempt.puzzle),
        "official": found.attempt.official,
        "table": analysis.table,
        "score": analysis.score,
        "par": round(analysis.par, 2),
        "lost": round(analysis.lost, 2),
        "luck": round(analysis.luck, 2),
        "accuracy": round(analysis.accuracy, 1),
        "left_at_close": (
            None
            if analysis.left_at_close is None
            else {
                "turn": analysis.left_at_close.turn,
                "turns": analysis.left_at_close.turns,
                "lost": round(analysis.left_at_close.lost, 2),
            }
        ),
        "grades": dict(analysis.grades),
        "costliest": [index[d.turn, d.roll] for d in analysis.costliest],
        "decisions": decisions,
        "throws": [
            {
                "turn": t.turn,
                "roll": t.roll,
                "dice": list(t.dice),
                "kind": t.kind,
                "before": round(t.before, 2),
                "after": round(t.after, 2),
                "luck": round(t.luck, 2),
            }
            for t in analysis.throws
        ],
        "turns": _turns(found.game),
        "optimal_score": None if found.bots is None else found.bots["hard"].score,
        "bots": bots,
    }


def coach_data(attempt: Attempt, advice: Any) -> dict[str, Any]:
    """The coach's advice for a practice game's next decision (None once it is finished)."""
    if advice is None:
        return {"id": attempt.pk, "step": attempt.step, "advice": None}
    return {
        "id": attempt.pk,
        "step": attempt.step,
        "advice": {
            "turn_points": advice.turn_points,
            "dice": list(advice.positions),
            "then": advice.then,
            "expected": round(advice.expected, 2),
            "roll": round(advice.roll, 2),
            "bank": None if advice.bank is None else round(advice.bank, 2),
            "options": [
                {
                    "dice": list(o.positions),
                    "points": o.points,
                    "dice_left": o.dice_left,
                    "roll": round(o.roll, 2),
                    "bank": None if o.bank is None else round(o.bank, 2),
                    "then": o.then,
                    "expected": round(o.expected, 2),
                    "best": o.positions == advice.positions,
                }
                for o in advice.options
            ],
        },
    }
