"""Provably fair, checkable (docs/fairness.md): which attempt a caller may check, and when.

The server states facts, never a verdict (``play.apis.payloads.verification_data`` shapes
them): the commitment published in advance, the revealed seed, and the throws a game was served.
"""

from __future__ import annotations

import datetime

from farkle_site.domain import Conflict, NotFound
from play.models import Attempt, Player, Puzzle


def verification_attempt(
    *, puzzle: Puzzle, attempt_id: int | None, player: Player | None, now: datetime.datetime
) -> Attempt | None:
    """The attempt ``attempt_id`` of the puzzle to check, if the caller may check it now.

    Before the puzzle closes only a finished practice game on dice of its own can be checked,
    and only by its player: its throws and seed tell nothing about the puzzle's dice.
    """
    attempt = None
    if attempt_id is not None:
        attempt = (
            Attempt.objects.select_related("player", "puzzle")
            .filter(pk=attempt_id, puzzle=puzzle)
            .first()
        )
    if puzzle.status(now) != Puzzle.Status.CLOSED:
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
    return attempt
