"""A player's record on the daily: games, best and average score, streaks, recent results."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass, replace

from play.models import Attempt, Player, Puzzle
from play.selectors import leaderboards as leaderboard

# Results listed by ``player_stats``, most recent first: a month of dailies.
HISTORY_LENGTH = 30


@dataclass(frozen=True)
class DayResult:
    """The player's official attempt on one day's daily."""

    day: datetime.date
    attempt_id: int
    state: str
    score: int
    finished_at: datetime.datetime | None
    rank: int | None
    percentile: float | None


@dataclass(frozen=True)
class PlayerStats:
    """Official daily attempts only: practice and friend challenges never count (docs/play.md)."""

    games: int
    finished: int
    best: int | None
    average: int | None
    current_streak: int
    best_streak: int
    last_played: datetime.date | None
    history: list[DayResult]


def streaks(days: Iterable[datetime.date], *, today: datetime.date) -> tuple[int, int]:
    """The current and best runs of consecutive days; the current one is alive while its last day
    is today or yesterday (today's daily may not be played yet)."""
    best = run = 0
    previous = None
    for day in sorted(set(days)):
        run = run + 1 if previous is not None and (day - previous).days == 1 else 1
        best = max(best, run)
        previous = day
    alive = previous is not None and (today - previous).days <= 1
    return (run if alive else 0), best


def player_stats(*, player: Player, today: datetime.date) -> PlayerStats:
    """The player's stats and latest official daily results, in two queries.

    One row per day ever played, so a player of ten years reads a few thousand small rows: less
    than the round trips of separate aggregates and streak queries would cost. The ranks, derived
    from each day's counts (as its leaderboard shows them, live today, final once closed), are
    read for the listed results only, so their cost does not grow with the history.
    """
    rows = (
        Attempt.objects.filter(player=player, official=True, puzzle__kind=Puzzle.Kind.DAILY)
        .order_by("-puzzle__day")
        .values_list("puzzle__day", "id", "state", "score", "finished_at")
    )
    results = [DayResult(*row, rank=None, percentile=None) for row in rows]
    ranks = leaderboard.attempt_ranks(
        r.attempt_id for r in results[:HISTORY_LENGTH] if r.state == Attempt.State.FINISHED
    )
    history = [
        replace(r, rank=ranks[r.attempt_id][0], percentile=ranks[r.attempt_id][1])
        if r.attempt_id in ranks
        else r
        for r in results[:HISTORY_LENGTH]
    ]
    finished = [r for r in results if r.state == Attempt.State.FINISHED]
    scores = [r.score for r in finished]
    current, best = streaks((r.day for r in finished), today=today)
    return PlayerStats(
        games=len(results),
        finished=len(finished),
        best=max(scores) if scores else None,
        average=round(sum(scores) / len(scores)) if scores else None,
        current_streak=current,
        best_streak=best,
        last_played=results[0].day if results else None,
        history=history,
    )
