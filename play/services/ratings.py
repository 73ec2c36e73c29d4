"""The skill rating's writes: each closed daily rated once, after its close, in day order.

A day's rating reads each official game's accuracy alone (``farkle.rating``: Glicko-2 against a
fixed panel of the bots), never another player's game nor the dice's luck, and only once the
puzzle is closed: before then a player's rating stays where the previous day left it, so it
reveals nothing of the day (docs/analysis.md, "The skill rating").

Rated: every official game of the daily that the close left counted (finished by its player or
finalised by the close, graded on what it left undone). A game the foresight check holds is not
rated (it is not counted either); one released after its day was rated stays unrated.
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.db.models import OuterRef, Subquery

import farkle
from farkle.glicko2 import Rating as Glicko
from farkle.rating import rate_day
from play.models import Attempt, Puzzle, Rating


def day_rate(*, puzzle_id: int, now: datetime.datetime) -> int | None:
    """Rate the players of one closed daily from their previous rated day; the number rated,
    or None when it is not a closed daily or was rated already (idempotent: the puzzle's row is
    locked and marked in the same transaction as its ratings)."""
    with transaction.atomic():
        puzzle = (
            Puzzle.objects.select_for_update()
            .filter(
                pk=puzzle_id,
                kind=Puzzle.Kind.DAILY,
                closed_at__isnull=False,
                closes_at__lte=now,
                rated_at__isnull=True,
            )
            .first()
        )
        if puzzle is None:
            return None
        games = list(
            Attempt.objects.filter(
                puzzle=puzzle,
                official=True,
                state=Attempt.State.FINISHED,
                held=False,
            )
            .select_related("puzzle")
            .order_by("pk")
        )
        previous = _latest_before(puzzle.day, [game.player_id for game in games])
        rows = []
        for attempt in games:
            # The game as it ended, a close's included: graded on what it left undone.
            accuracy = farkle.analyse(attempt.game()).accuracy
            last = previous.get(attempt.player_id)
            idle = 0 if last is None else (puzzle.day - last.day).days - 1
            start = None if last is None else Glicko(last.rating, last.deviation, last.volatility)
            after = rate_day(start, accuracy, idle)
            rows.append(
                Rating(
                    player_id=attempt.player_id,
                    puzzle=puzzle,
                    day=puzzle.day,
                    accuracy=accuracy,
                    rating=after.rating,
                    deviation=after.deviation,
                    volatility=after.volatility,
                    rated_at=now,
                )
            )
        Rating.objects.bulk_create(rows, batch_size=500)
        puzzle.rated_at = now
        puzzle.save(update_fields=["rated_at"])
    return len(rows)


def _latest_before(day: datetime.date, player_ids: list[int]) -> dict[int, Rating]:
    """Each player's rating after their last rated day before ``day``."""
    last_day = (
        Rating.objects.filter(player=OuterRef("player"), day__lt=day)
        .order_by("-day")
        .values("day")[:1]
    )
    latest = Rating.objects.filter(player_id__in=player_ids, day=Subquery(last_day))
    return {row.player_id: row for row in latest}


def ratings_catch_up(*, now: datetime.datetime) -> list[str]:
    """Rate every closed daily not rated yet, oldest first (a day's ratings start from the days
    before it): the close's last step, and the backfill of the days closed before ratings
    existed. The dailies rated, with how many players each."""
    done = []
    due = Puzzle.objects.filter(
        kind=Puzzle.Kind.DAILY, closed_at__isnull=False, closes_at__lte=now, rated_at__isnull=True
    ).order_by("day")
    for puzzle_id, day in due.values_list("id", "day"):
        rated = day_rate(puzzle_id=puzzle_id, now=now)
        if rated is not None:
            done.append(f"daily {day.isoformat()}: {rated} rated")
    return done
