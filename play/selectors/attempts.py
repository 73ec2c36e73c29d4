"""Reads of attempts and of the dailies they are played on."""

from __future__ import annotations

import datetime

from farkle_site.db import one_or_none
from play.models import Attempt, Player, Puzzle


def dailies_between(*, first: datetime.date, last: datetime.date) -> list[Puzzle]:
    """The dailies from ``first`` to ``last`` (inclusive), newest first."""
    return list(
        Puzzle.objects.filter(kind=Puzzle.Kind.DAILY, day__gte=first, day__lte=last).order_by(
            "-day"
        )
    )


def player_attempts_on(*, player: Player | None, puzzle: Puzzle) -> list[Attempt]:
    """The player's attempts on a puzzle, official first, then oldest first."""
    if player is None:
        return []
    return list(
        Attempt.objects.filter(player=player, puzzle=puzzle)
        .defer("actions")
        .order_by("-official", "started_at", "id")
    )


def official_finished(*, player: Player | None, puzzle: Puzzle) -> bool:
    """Whether the player's official game on the puzzle is finished (held or not)."""
    if player is None:
        return False
    return Attempt.objects.filter(
        player=player, puzzle=puzzle, official=True, state=Attempt.State.FINISHED
    ).exists()


def retry_unfinished(*, player: Player | None, puzzle: Puzzle) -> bool:
    """Whether the player has a retry (issue 40) on the puzzle still to play: on a closed
    challenge, the one game its page still plays."""
    if player is None:
        return False
    return Attempt.objects.filter(
        player=player, puzzle=puzzle, retry_of__isnull=False, finished_at__isnull=True
    ).exists()


def attempt_visible(*, attempt_id: int, player: Player | None, now) -> Attempt | None:
    """An attempt the caller may see: their own, or a finished one once its puzzle has closed."""
    attempt = _attempt_with_puzzle(attempt_id, None)
    if attempt is None:
        return None
    if player is not None and attempt.player_id == player.pk:
        return attempt
    # docs/play.md: other players' roll-by-roll details stay hidden until the puzzle closes.
    if now >= attempt.puzzle.closes_at and attempt.state == Attempt.State.FINISHED:
        return attempt
    return None


def attempt_of_player(*, attempt_id: int, player_id: int | None) -> Attempt | None:
    """The player's own attempt ``attempt_id``, with its puzzle; None when it is someone else's."""
    if player_id is None:
        return None
    return _attempt_with_puzzle(attempt_id, player_id)


def _attempt_with_puzzle(attempt_id: int, player_id: int | None) -> Attempt | None:
    """Attempt ``attempt_id`` (of ``player_id`` when given) with its puzzle, or None."""
    if not 0 < attempt_id < 2**63:
        # No row has such an id; SQLite would refuse one beyond 64 bits (OverflowError).
        return None
    attempts = Attempt.objects.select_related("puzzle").filter(pk=attempt_id)
    if player_id is not None:
        attempts = attempts.filter(player_id=player_id)
    return one_or_none(attempts)
