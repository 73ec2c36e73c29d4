"""The foresight check of official games (docs/foresight.md) and the operator's hold and release.

A finished official game whose choices know the throws it had not seen is held: it keeps its
score for its player but is not counted in ``ScoreCount``, so it has no rank, no percentile and no
place in the distribution until an operator releases it.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models import F, Q

from farkle import foresight
from play.models import Attempt, Puzzle, ScoreCount


def foresight_fields(
    *, puzzle: Puzzle, actions: Sequence[Mapping[str, Any]], seed: bytes | None = None
) -> dict[str, Any]:
    """The attempt fields the check of a finished official game sets: p-value, summary, held.
    ``seed`` is the puzzle's, when the caller checks many of its games (the close)."""
    seed = puzzle.seed() if seed is None else seed
    result = foresight.check(seed, actions, puzzle.table, puzzle.rules())
    return {"foresight_p": result.p, "foresight": result.summary(), "held": result.held}


def _recount(puzzle: Puzzle, attempt: Attempt, delta: int) -> int | None:
    """Count the attempt in (+1) or out (-1) of its score, moving the places of the score's other
    attempts to keep them 1 to the count (the leaderboard's pages rely on it); its place when
    counted in. The count's row lock, taken first, keeps finishes of that score out meanwhile."""
    # Imported here: play.services.attempts imports this module for ``foresight_fields``.
    from play.services.attempts import score_count_add

    ranked = Attempt.objects.filter(
        puzzle=puzzle, official=True, finished_at__isnull=False, held=False, score=attempt.score
    ).exclude(pk=attempt.pk)
    if delta > 0:
        score_count_add(puzzle=puzzle, score=attempt.score)
        # Back at its finish's place among the score's attempts (docs/play.md: the earlier
        # finish first), not after every game counted while it was held.
        place = (
            1
            + ranked.filter(
                Q(finished_at__lt=attempt.finished_at)
                | Q(finished_at=attempt.finished_at, pk__lt=attempt.pk)
            ).count()
        )
        ranked.filter(score_position__gte=place).update(score_position=F("score_position") + 1)
        return place
    ScoreCount.objects.filter(puzzle=puzzle, score=attempt.score).update(count=F("count") - 1)
    if attempt.score_position is not None:
        # None only for a game counted by a process older than the places (docs/operations.md):
        # it held no place, so none moves.
        ranked.filter(score_position__gt=attempt.score_position).update(
            score_position=F("score_position") - 1
        )
    return None


def _stats_refreeze(puzzle: Puzzle) -> None:
    # Imported here, as above.
    from daily.services import rollover

    if puzzle.closed_at is not None:
        # The close froze the statistics: freeze them again with this game (ranks and
        # percentiles derive from the counts just changed).
        rollover.stats_freeze(puzzle=puzzle)


def _lock_puzzle_of(attempt_id: int) -> None:
    # The puzzle first, as the close does: a release never interleaves with the close's count.
    puzzle_id = Attempt.objects.filter(pk=attempt_id).values_list("puzzle_id", flat=True).first()
    list(Puzzle.objects.select_for_update().filter(pk=puzzle_id).values_list("pk"))


def attempt_release(*, attempt_id: int, user=None, now: datetime.datetime) -> bool:
    """Put a held game back on the leaderboard; False (and nothing changed) when it was not held.

    A conditional update on ``held`` decides, so a double click or two operators count it once.
    """
    return _held_set(
        attempt_id=attempt_id, held=False, changes={"released_at": now, "released_by": user}
    )


def attempt_hold(*, attempt_id: int) -> bool:
    """Take a finished official game off the leaderboard; False when it was held already."""
    return _held_set(attempt_id=attempt_id, held=True, changes={})


def _held_set(*, attempt_id: int, held: bool, changes: dict[str, Any]) -> bool:
    with transaction.atomic():
        _lock_puzzle_of(attempt_id)
        attempt = (
            Attempt.objects.select_related("puzzle")
            .select_for_update(of=("self",))
            .filter(pk=attempt_id, held=not held, official=True, state=Attempt.State.FINISHED)
            .first()
        )
        if attempt is None:
            return False
        position = _recount(attempt.puzzle, attempt, -1 if held else +1)
        Attempt.objects.filter(pk=attempt.pk).update(held=held, score_position=position, **changes)
        _stats_refreeze(attempt.puzzle)
    return True
