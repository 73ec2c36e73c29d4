"""The rollover (docs/operations.md): publish the coming day, close every puzzle whose time is over.

Every function here is idempotent and keeps its state in Postgres: a close claims its puzzle
under a row lock and marks it closed in the same transaction, so a second run, late or at the
same time (two beats by mistake, a retried task), finds nothing left to do and says so. Each
attempt's rank is stored after that transaction, in batches; a reconcile finishes what a stopped
close left of them.
"""

from __future__ import annotations

import datetime
from collections import Counter
from dataclasses import asdict, dataclass, field

from django.db import connection, transaction

from daily.models import Attempt, Puzzle
from daily.rules.calendar import first_day, published_until
from daily.selectors.leaderboards import (
    TIMED_ORDER,
    ScoreLadder,
    score_counts,
    score_distribution,
    tie_rank,
)
from daily.services.attempts import score_count_add
from daily.services.foresight import foresight_fields
from daily.services.puzzles import daily_create


@dataclass(frozen=True)
class Closed:
    """What closing one puzzle did."""

    puzzle: str
    finalised: int
    players: int


@dataclass
class Report:
    """What a rollover or a reconcile did; empty when there was nothing to do."""

    # Dailies created, each with its public commitment (tomorrow's, upcoming, in the usual case).
    published: list[str] = field(default_factory=list)
    closed: list[Closed] = field(default_factory=list)

    def __str__(self) -> str:
        if not self.published and not self.closed:
            return "Nothing to do: every due puzzle is published or closed already."
        lines = [f"published {name}" for name in self.published]
        lines += [
            f"closed {c.puzzle}: {c.players} ranked, {c.finalised} unfinished finalised"
            for c in self.closed
        ]
        return "\n".join(lines)

    def as_dict(self) -> dict:
        return asdict(self)


# A close's ranks left unstored by a crash are stored by the reconciles of this long after it.
RANKS_RESUMED_WITHIN = datetime.timedelta(days=2)
# Rows whose rank one short transaction stores: a batch's row locks and WAL stay small, and a
# release or another close waits at most one batch for the puzzle (see ranks_store).
RANK_BATCH = 50_000


def puzzle_close(*, puzzle_id: int, now: datetime.datetime) -> Closed | None:
    """Close a puzzle whose actions are over: finalise its unfinished attempts with their banked
    score, freeze the statistics and store every ranked attempt's rank and percentile. None when
    it is not due or already closed."""
    with transaction.atomic():
        puzzle = (
            Puzzle.objects.select_for_update()
            .filter(pk=puzzle_id, closed_at__isnull=True, closes_at__lte=now)
            .first()
        )
        if puzzle is None:
            return None
        # Lock the unfinished games: an action already in flight at the deadline finishes
        # (and counts its own score) before the close reads them.
        unfinished = list(
            Attempt.objects.select_for_update()
            .filter(puzzle=puzzle, deadline__isnull=False)
            .exclude(state=Attempt.State.FINISHED)
            .values_list("id", "official", "score", "actions")
        )
        # docs/play.md: at close an unfinished game keeps what it banked; points at risk are lost.
        Attempt.objects.filter(id__in=[row[0] for row in unfinished]).update(
            state=Attempt.State.FINISHED,
            finished_at=puzzle.closes_at,
            finalised_at_close=True,
            updated_at=now,
        )
        if puzzle.turn_time is not None:
            _running_turns_end(puzzle)
        # Every official game finished by the close is checked for foresight like any other;
        # a held one is not counted.
        checked = []
        for attempt_id, official, _, actions in unfinished:
            if official:
                checked.append(
                    Attempt(pk=attempt_id, **foresight_fields(puzzle=puzzle, actions=actions))
                )
        Attempt.objects.bulk_update(checked, ["foresight_p", "foresight", "held"], batch_size=500)
        held = {a.pk for a in checked if a.held}
        scores = Counter(s for i, official, s, _ in unfinished if official and i not in held)
        for score, count in scores.items():
            score_count_add(puzzle=puzzle, score=score, count=count)
        puzzle.closed_at = now
        counts = stats_freeze(puzzle=puzzle)
    # Committed: the day reads as closed and final (its leaderboard, ranks included, comes from
    # the counts). Storing each attempt's rank writes every ranked row, a million on a big day:
    # in one transaction that held the unfinished games' locks for a minute, so it comes after,
    # in batches; a reconcile finishes what a crash here left (ranks_pending).
    ranks_store(puzzle=puzzle)
    return Closed(puzzle=str(puzzle), finalised=len(unfinished), players=counts.total)


def _running_turns_end(puzzle: Puzzle) -> None:
    # Seed 001: a turn running at the close ends there or when its own time ran out, whichever
    # came first; its time counts in the game's time taken (the leaderboard's tie-break).
    running = Attempt.objects.filter(
        puzzle=puzzle, finalised_at_close=True, turn_started_at__isnull=False
    )
    ended = []
    for attempt in running.only("id", "turn_started_at", "time_taken"):
        taken = min(puzzle.turn_time, puzzle.closes_at - attempt.turn_started_at)
        attempt.time_taken += max(taken, datetime.timedelta())
        attempt.turn_started_at = None
        ended.append(attempt)
    Attempt.objects.bulk_update(ended, ["time_taken", "turn_started_at"], batch_size=500)


def _timed_ranks_freeze(puzzle: Puzzle, counts: ScoreLadder) -> int:
    # Issue 14: a timed challenge's equal scores are told apart by their time taken (a
    # challenge's players are few: one row each).
    ranked = Attempt.objects.filter(
        puzzle=puzzle, official=True, state=Attempt.State.FINISHED, held=False
    )
    frozen = []
    before, previous = 0, None
    for attempt in ranked.order_by(*TIMED_ORDER).only("id", "score"):
        before = before + 1 if attempt.score == previous else 0
        previous = attempt.score
        attempt.rank = tie_rank(counts, attempt.score, before, True)
        attempt.percentile = counts.percentile(attempt.score)
        frozen.append(attempt)
    return Attempt.objects.bulk_update(frozen, ["rank", "percentile"], batch_size=500)


def stats_freeze(*, puzzle: Puzzle) -> ScoreLadder:
    """Freeze the final statistics of a closing or closed puzzle from its counts (inside the
    caller's transaction, the puzzle locked)."""
    counts = score_counts(puzzle=puzzle)
    puzzle.final_stats = {
        "players": counts.total,
        **asdict(score_distribution(counts=counts)),
    }
    puzzle.save(update_fields=["final_stats", "closed_at"])
    return counts


# One statement for a range of scores: each ranked attempt joined to its score's rank and
# percentile (computed by ScoreLadder, the leaderboard's own arithmetic), on the leaderboard's
# index; rows already holding the right values are not written again.
_RANKS_UPDATE = """
UPDATE daily_attempt a SET rank = r.rank, percentile = r.percentile
FROM unnest(%s::integer[], %s::integer[], %s::double precision[]) AS r(score, rank, percentile)
WHERE a.puzzle_id = %s AND a.official AND a.state = 'finished' AND NOT a.held
  AND a.score = r.score AND a.score BETWEEN %s AND %s
  AND (a.rank IS DISTINCT FROM r.rank OR a.percentile IS DISTINCT FROM r.percentile)
"""


def _ranks_update(puzzle: Puzzle, counts: ScoreLadder, scores: list[int]) -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            _RANKS_UPDATE,
            [
                scores,
                [counts.rank(s) for s in scores],
                [counts.percentile(s) for s in scores],
                puzzle.pk,
                min(scores),
                max(scores),
            ],
        )
        return cursor.rowcount


def ranks_freeze(*, puzzle: Puzzle) -> ScoreLadder:
    """Freeze the ranks, percentiles and statistics of a closing or closed puzzle from its counts
    (inside the caller's transaction, the puzzle locked); held games get none."""
    counts = stats_freeze(puzzle=puzzle)
    if puzzle.turn_seconds is not None:
        _timed_ranks_freeze(puzzle, counts)
    elif counts.scores:
        _ranks_update(puzzle, counts, list(counts.scores))
    return counts


def ranks_store(*, puzzle: Puzzle, batch: int = RANK_BATCH) -> int:
    """Store the rank and percentile of every ranked attempt of a closed puzzle, best scores
    first, in transactions of about ``batch`` rows; the rows written."""
    written = 0
    done_above: int | None = None
    while True:
        with transaction.atomic():
            # The puzzle's lock, shared by no one: a release (which recounts, then freezes every
            # rank under this lock) never interleaves with a batch computed from older counts.
            locked = (
                Puzzle.objects.select_for_update(no_key=True)
                .filter(pk=puzzle.pk)
                .values_list("pk", flat=True)
            )
            if not list(locked):
                return written
            counts = score_counts(puzzle=puzzle)
            if puzzle.turn_seconds is not None:
                # A timed challenge's few players are ranked one by one (ties by time taken).
                return _timed_ranks_freeze(puzzle, counts)
            # Highest scores first, so that the lowest rank is stored last (ranks_pending).
            remaining = [s for s in reversed(counts.scores) if done_above is None or s < done_above]
            if not remaining:
                return written
            per_score = dict(zip(counts.scores, counts.counts, strict=True))
            scores, rows = [], 0
            for score in remaining:
                scores.append(score)
                rows += per_score[score]
                if rows >= batch:
                    break
            written += _ranks_update(puzzle, counts, scores)
            done_above = scores[-1]


def ranks_pending(*, puzzle: Puzzle) -> bool:
    """Whether a closed puzzle's close stopped before storing every rank: its last ranked attempt
    (the lowest score, stored last) has none (one step down the leaderboard's index)."""
    last = (
        Attempt.objects.filter(
            puzzle=puzzle, official=True, state=Attempt.State.FINISHED, held=False
        )
        .order_by("score", "-finished_at", "-id")
        .values_list("rank")
        .first()
    )
    return puzzle.closed_at is not None and last is not None and last[0] is None


def reconcile(*, now: datetime.datetime) -> Report:
    """Publish tomorrow's daily and every missing day before it; close every puzzle that is due,
    oldest first, however many were missed.

    A day opens by the clock, not by this job: its puzzle exists a day ahead, so a worker whose
    clock runs a little behind the beat's, running the 00:00 job "before midnight", still finds
    the new day ready.
    """
    report = Report()
    last = published_until(now)
    first = first_day()
    # Every missing day since the first, gaps included (the request path may have created a
    # later day while beat was down).
    existing = set(
        Puzzle.objects.filter(kind=Puzzle.Kind.DAILY, day__gte=first, day__lte=last).values_list(
            "day", flat=True
        )
    )
    day = first
    while day <= last:
        if day not in existing and daily_create(day=day):
            report.published.append(f"daily {day.isoformat()}")
        day += datetime.timedelta(days=1)
    due = Puzzle.objects.filter(closed_at__isnull=True, closes_at__lte=now).order_by(
        "closes_at", "id"
    )
    for puzzle_id in due.values_list("id", flat=True):
        closed = puzzle_close(puzzle_id=puzzle_id, now=now)
        if closed is not None:
            report.closed.append(closed)
    # A close that stopped (a lost worker) after closing but before storing every rank: this
    # reconcile, five minutes later at most, stores the rest. Only recent closes can be left so.
    recent = Puzzle.objects.filter(closed_at__gte=now - RANKS_RESUMED_WITHIN)
    for puzzle in recent.order_by("closed_at", "id"):
        if ranks_pending(puzzle=puzzle):
            ranks_store(puzzle=puzzle)
    return report
