"""Provably fair, checked (docs/fairness.md): a closed puzzle's seed against its commitment, and an
attempt's throws recomputed from that seed next to the ones the game served."""

from __future__ import annotations

import datetime
from typing import Any

import farkle
from daily.models import Attempt, Puzzle
from daily.representations import puzzle_ref, puzzle_status
from daily.selectors import attempt_game
from farkle_site.errors import ApiError


def puzzle_verification(
    *, puzzle: Puzzle, attempt_id: int | None, now: datetime.datetime
) -> dict[str, Any]:
    """The revealed seed checked against the commitment, and optionally one attempt's throws.

    "Recomputed" uses nothing but the revealed seed and the roll vectors (docs/fairness.md), as a
    player would with a few lines of standard-library Python; "served" is the game the server
    ran for the attempt.
    """
    if puzzle_status(puzzle, now) != "closed":
        raise ApiError("not_revealed", "The seed is revealed once the puzzle has closed.")
    seed = puzzle.seed()
    table = farkle.get_table(puzzle.table)
    data: dict[str, Any] = {
        "puzzle": puzzle_ref(puzzle),
        "table": puzzle.table,
        "commitment": puzzle.commitment,
        "seed": seed.hex(),
        "matches": farkle.commitment(seed) == puzzle.commitment,
        "attempt": None,
    }
    if attempt_id is None:
        return data
    attempt = Attempt.objects.select_related("player").filter(pk=attempt_id, puzzle=puzzle).first()
    if attempt is None:
        raise ApiError("not_found", "This puzzle has no such attempt.")
    game = attempt_game(attempt)
    throws = []
    for turn in game.turns:
        in_hand = table.dice
        for roll, throw in enumerate(turn.throws, start=1):
            recomputed = farkle.roll_vector(seed, turn.number, roll, table.dice)[:in_hand]
            throws.append(
                {
                    "turn": turn.number,
                    "roll": roll,
                    "served": list(throw.dice),
                    "recomputed": recomputed,
                    "match": list(throw.dice) == recomputed,
                }
            )
            in_hand = in_hand - len(throw.kept) or table.dice
    data["attempt"] = {
        "id": attempt.pk,
        "player": attempt.player.display_name,
        "official": attempt.official,
        "score": attempt.score,
        "throws": throws,
        "all_match": all(t["match"] for t in throws),
    }
    return data
