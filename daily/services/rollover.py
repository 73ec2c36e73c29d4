"""The rollover (docs/operations.md): publish the coming day, close every puzzle whose time is over.

Every function here is idempotent and keeps its state in Postgres: a close claims its puzzle
under a row lock and marks it closed in the same transaction, so a second run, late or at the
same time (two beats by mistake, a retried task), finds nothing left to do and says so. A close
stopped midway rolls back whole, and the next reconcile does it again. Its slow part, the
foresight check of each game it finalises, runs before it takes its locks.

No rank is stored per attempt: an attempt's rank and percentile follow from its score and its
puzzle's ScoreCount rows (play.selectors.leaderboards.attempt_ranks), which the close freezes
along with the statistics; on a timed challenge the time taken, ended by the close, breaks ties.

The instant a rollover runs at is passed in (``now``), as every service's is, and may be any
instant up to the clock: a late run, or one replayed as of an earlier instant, closes exactly what
was over by then. Never a later one: closing as of an instant still to come would finalise the
games of a day that is still open and freeze statistics the day's status still calls live. So
these functions read the clock once, only to refuse such an instant (``future_instant``), and
every route to a close (the command, the task, a caller of the service) meets the same refusal.
"""

from __future__ import annotations

import datetime
import json
from collections import Counter
from dataclasses import asdict, dataclass, field

from django.db import connection, transaction
from django.db.models import Func, IntegerField
from django.utils import timezone

from daily.rules.calendar import first_day, published_until
from daily.services.puzzles import daily_create
from farkle_site.domain import Invalid
from play.models import Attempt, Puzzle, ScoreCount
from play.selectors.leaderboards import ScoreLadder, score_counts, score_distribution
from play.services.attempts import score_count_add
from play.services.foresight import foresight_fields
from play.services.ratings import ratings_catch_up


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
    # Closed dailies whose players were rated (play.services.ratings), with how many.
    rated: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        if not self.published and not self.closed and not self.rated:
            return "Nothing to do: every due puzzle is published or closed already."
        lines = [f"published {name}" for name in self.published]
        lines += [
            f"closed {c.puzzle}: {c.players} ranked, {c.finalised} unfinished finalised"
            for c in self.closed
        ]
        lines += [f"rated {name}" for name in self.rated]
        return "\n".join(lines)

    def as_dict(self) -> dict:
        return asdict(self)


def _utc(instant: datetime.datetime) -> str:
    return instant.astimezone(datetime.UTC).isoformat().replace("+00:00", "Z")


def instant_check(now: datetime.datetime) -> None:
    """Refuse (``Invalid``, ``future_instant``) an instant to run the rollover at that is later
    than the clock: nothing may close before its time."""
    clock = timezone.now()
    if now > clock:
        raise Invalid(
            "future_instant",
            f"Refused: {_utc(now)} is later than now ({_utc(clock)}). A rollover runs as of now "
            "or an earlier instant, never a later one: it would close days and challenges that "
            "are still open.",
            at=_utc(now),
            now=_utc(clock),
        )


def puzzle_close(*, puzzle_id: int, now: datetime.datetime) -> Closed | None:
    """Close a puzzle whose actions are over: finalise its unfinished attempts with their banked
    score and freeze the statistics (the ranks with them: they derive from the counts). None when
    it is not due or already closed. Refused for a ``now`` later than the clock."""
    instant_check(now)
    # The foresight checks replay every game left unfinished (most of the close's time): done
    # before the locks, so that the games and the puzzle stay locked for the writes alone.
    checked = _foresight_before(puzzle_id, now)
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
            .annotate(
                moves=Func(
                    "actions",
                    # SQLite (the development default) stores JSON as text.
                    function="jsonb_array_length"
                    if connection.vendor == "postgresql"
                    else "json_array_length",
                    output_field=IntegerField(),
                )
            )
            .values_list("id", "official", "score", "moves")
        )
        # Every official game finished by the close is checked for foresight like any other;
        # a held one is not counted. A game's actions only ever grow, so a check made on as
        # many actions as it has now is its check; one that moved since is checked again.
        checks = {}
        for attempt_id, official, _, moves in unfinished:
            if official:
                earlier = checked.get(attempt_id)
                if earlier is None or earlier[0] != moves:
                    actions = Attempt.objects.values_list("actions", flat=True).get(pk=attempt_id)
                    earlier = (moves, foresight_fields(puzzle=puzzle, actions=actions))
                checks[attempt_id] = earlier[1]
        held = {attempt_id for attempt_id, check in checks.items() if check["held"]}
        counted = [(i, s) for i, official, s, _ in unfinished if official and i not in held]
        positions = _positions_after(puzzle, counted)
        _finalise(puzzle, [row[0] for row in unfinished], checks, positions, now)
        if puzzle.turn_time is not None:
            _running_turns_end(puzzle)
        _scores_count(puzzle, Counter(s for _, s in counted))
        puzzle.closed_at = now
        counts = stats_freeze(puzzle=puzzle)
    return Closed(puzzle=str(puzzle), finalised=len(unfinished), players=counts.total)


def _foresight_before(puzzle_id: int, now: datetime.datetime) -> dict[int, tuple[int, dict]]:
    """The foresight check of each unfinished official game of a puzzle due to close, with the
    number of actions it was made on; nothing when the puzzle is not due or closed already."""
    puzzle = Puzzle.objects.filter(pk=puzzle_id, closed_at__isnull=True, closes_at__lte=now).first()
    if puzzle is None:
        return {}
    games = (
        Attempt.objects.filter(puzzle=puzzle, deadline__isnull=False, official=True)
        .exclude(state=Attempt.State.FINISHED)
        .values_list("id", "actions")
    )
    # Derived from the secret once, not once a game.
    seed = puzzle.seed()
    return {
        attempt_id: (len(actions), foresight_fields(puzzle=puzzle, actions=actions, seed=seed))
        for attempt_id, actions in games
    }


def _positions_after(puzzle: Puzzle, counted: list[tuple[int, int]]) -> dict[int, int]:
    """The place within its score (``Attempt.score_position``) of each game the close counts,
    given as (id, score): after the score's games counted already, in the order of their ids
    (they all finish at the close, so this is the finish order, then the id).

    The counts cannot move meanwhile: the close holds the puzzle (an operator's hold or release
    waits for it) and the unfinished games, the only ones a finish could still count."""
    if not counted:
        return {}
    before = dict(
        ScoreCount.objects.filter(puzzle=puzzle, score__in={s for _, s in counted}).values_list(
            "score", "count"
        )
    )
    positions = {}
    for attempt_id, score in sorted(counted):
        before[score] = positions[attempt_id] = before.get(score, 0) + 1
    return positions


# docs/play.md: at close an unfinished game keeps what it banked; points at risk are lost. One
# statement writes each game once, its foresight check and its place within its score with it
# (Django's bulk_update built a CASE per row in Python: seconds for ten thousand games).
# The games come as one JSON array of rows, which the json module writes in C: psycopg wrote the
# six arrays this took before element by element in Python (a tenth of a close's time).
_FINALISE = """
UPDATE daily_attempt a
SET state = 'finished', finished_at = %s, finalised_at_close = true, updated_at = %s,
    foresight_p = CASE WHEN r.checked THEN r.p ELSE a.foresight_p END,
    foresight = CASE WHEN r.checked THEN r.summary ELSE a.foresight END,
    held = CASE WHEN r.checked THEN r.held ELSE a.held END,
    score_position = r.position
FROM jsonb_to_recordset(%s::jsonb)
    AS r(id bigint, checked boolean, p double precision, summary jsonb, held boolean,
         position integer)
WHERE a.id = r.id
"""


def _finalise(
    puzzle: Puzzle,
    ids: list[int],
    checks: dict[int, dict],
    positions: dict[int, int],
    now: datetime.datetime,
) -> None:
    if not ids:
        return
    nothing = {"foresight_p": None, "foresight": None, "held": False}
    fields = [checks.get(attempt_id, nothing) for attempt_id in ids]
    if connection.vendor != "postgresql":
        # SQLite (the development default): no arrays; a statement a game.
        for attempt_id, checked in zip(ids, fields, strict=True):
            Attempt.objects.filter(pk=attempt_id).update(
                state=Attempt.State.FINISHED,
                finished_at=puzzle.closes_at,
                finalised_at_close=True,
                updated_at=now,
                score_position=positions.get(attempt_id),
                **(checked if attempt_id in checks else {}),
            )
        return
    rows = [
        {
            "id": attempt_id,
            "checked": attempt_id in checks,
            "p": f["foresight_p"],
            "summary": f["foresight"],
            "held": f["held"],
            "position": positions.get(attempt_id),
        }
        for attempt_id, f in zip(ids, fields, strict=True)
    ]
    with connection.cursor() as cursor:
        cursor.execute(_FINALISE, [puzzle.closes_at, now, json.dumps(rows)])


# The finalised games counted, every score in one statement (what score_count_add does for one).
_SCORES_COUNT = """
INSERT INTO daily_scorecount (puzzle_id, score, count)
SELECT %s, r.score, r.count FROM unnest(%s::integer[], %s::integer[]) AS r(score, count)
ON CONFLICT (puzzle_id, score) DO UPDATE SET count = daily_scorecount.count + EXCLUDED.count
"""


def _scores_count(puzzle: Puzzle, scores: Counter) -> None:
    if scores and connection.vendor != "postgresql":
        for score, count in scores.items():
            score_count_add(puzzle=puzzle, score=score, count=count)
        return
    if scores:
        with connection.cursor() as cursor:
            cursor.execute(_SCORES_COUNT, [puzzle.pk, list(scores), list(scores.values())])


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


def reconcile(*, now: datetime.datetime) -> Report:
    """Publish tomorrow's daily and every missing day before it; close every puzzle that is due,
    oldest first, however many were missed.

    A day opens by the clock, not by this job: its puzzle exists a day ahead, so a worker whose
    clock runs a little behind the beat's, running the 00:00 job "before midnight", still finds
    the new day ready.

    Refused, before anything is written, for a ``now`` later than the clock.
    """
    instant_check(now)
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
    # After the closes, each in its own transaction: a day is rated once closed, never before,
    # and a day missed (or closed before ratings existed) is rated by the next run, in order.
    report.rated = ratings_catch_up(now=now)
    return report
