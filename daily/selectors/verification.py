"""Provably fair, checkable (docs/fairness.md): the public facts of a puzzle and of one attempt.

The server states facts, never a verdict: the commitment published in advance, the revealed
seed, and the throws a game was served. Whoever checks (the /verify page in the browser, a few
lines of standard-library Python) recomputes SHA-256 of the seed and every throw from it.
"""

from __future__ import annotations

import datetime
from typing import Any

import farkle
from daily.apis.payloads import iso, puzzle_ref
from daily.models import Attempt, Player, Puzzle
from farkle_site.domain import Conflict, NotFound


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
        closed = attempt.puzzle.status(now) == "closed"
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
    }


def puzzle_verification(
    *, puzzle: Puzzle, attempt_id: int | None, player: Player | None, now: datetime.datetime
) -> dict[str, Any]:
    """The facts to check a puzzle by: its commitment, its seed once closed, one attempt's throws.

    Before the puzzle closes only a finished practice game on dice of its own can be checked,
    and only by its player: its throws and seed tell nothing about the puzzle's dice.
    """
    status = puzzle.status(now)
    attempt = None
    if attempt_id is not None:
        attempt = (
            Attempt.objects.select_related("player", "puzzle")
            .filter(pk=attempt_id, puzzle=puzzle)
            .first()
        )
    if status != "closed":
        checkable = (
            attempt is not None
            and player is not None
            and attempt.player_id == player.pk
            and attempt.dice_source == Attempt.DiceSource.OWN
            and attempt.state == Attempt.State.FINISHED
        )
        if not checkable:
            raise Conflict("not_revealed", "The seed is revealed once the puzzle has closed.")
    elif attempt_id is not None and attempt is None:
        raise NotFound("not_found", "This puzzle has no such attempt.")
    return {
        "puzzle": puzzle_ref(puzzle),
        "table": puzzle.table,
        "status": status,
        "opens_at": iso(puzzle.opens_at),
        "closes_at": iso(puzzle.closes_at),
        "commitment": puzzle.commitment,
        "seed": puzzle.seed().hex() if status == "closed" else None,
        "attempt": None if attempt is None else attempt_facts(attempt, now=now),
    }
