"""Leaderboard reads: a page of ranked entries, a player's standing, the score distribution.

Ranks, percentiles and the distribution come from ``ScoreCount`` (one row per distinct score,
kept as attempts finish), so they cost in proportion to the number of distinct scores, never
the number of players: scores are multiples of 50, a few hundred distinct values a day.
Everything takes a ``Puzzle``, so a friend challenge's board is the same code as a day's.

The counts and a page are read by separate statements: a game finishing between the two can leave
that one answer a rank or a row behind, which the next read corrects.
"""

from __future__ import annotations

import datetime
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from typing import NamedTuple

from django.db import connection
from django.db.models import Count, Q

from farkle_site.domain import Invalid
from play.models import Attempt, Player, Puzzle
from play.selectors.attempts import official_finished

PAGE_SIZE = 50
# Fixed rather than fitted to each day, so that two days' histograms compare bucket by bucket.
BUCKET_WIDTH = 500
# docs/play.md: highest score first; among equals the order in which they were counted
# (Attempt.score_position: the finish order, up to finishes of one score committed in the same
# instant; a game the close finalises after those that finished, by id; a released game at its
# finish's place). Both untimed boards, the public one and the account holders', list by it.
ORDER = ("-score", "score_position")
# Issue 14 (seed 001's timed modes): on a timed challenge equal scores are told apart by the total
# time taken, the least first; each then has a rank of its own.
TIMED_ORDER = ("-score", "time_taken", "finished_at", "id")


def order_of(puzzle: Puzzle) -> tuple[str, ...]:
    """The leaderboard's order of the puzzle's ranked attempts."""
    return ORDER if puzzle.turn_seconds is None else TIMED_ORDER


def tie_rank(shared: int, before: int, timed: bool) -> int:
    """The rank of an attempt whose score has the rank ``shared`` (``ScoreLadder.rank``), with
    ``before`` attempts of the same score ahead of it: shared (docs/play.md) unless the puzzle is
    timed, where the time taken breaks the tie."""
    return shared + (before if timed else 0)


def rank_of(higher: int) -> int:
    """docs/play.md: equal scores share a rank (1, 2, 2, 4), one after those strictly higher."""
    return 1 + higher


def percentile_of(lower: int, total: int) -> float | None:
    """The share of the other ``total - 1`` players that ``lower`` beaten ones are, 0–100; None
    without others."""
    others = total - 1
    if others <= 0:
        return None
    # Rounded down, so that "you beat 100 %" is only ever said of someone who beat everyone.
    return 1000 * lower // others / 10


@dataclass(frozen=True)
class ScoreLadder:
    """How many ranked attempts hold each score, with running totals for rank lookups."""

    scores: tuple[int, ...]  # ascending, distinct
    counts: tuple[int, ...]
    # below[i]: attempts scoring strictly less than scores[i]; one more item, the total.
    below: tuple[int, ...]

    @classmethod
    def of(cls, pairs: list[tuple[int, int]]) -> ScoreLadder:
        pairs = sorted((score, count) for score, count in pairs if count > 0)
        counts = tuple(count for _, count in pairs)
        return cls(
            scores=tuple(score for score, _ in pairs),
            counts=counts,
            below=(0, *accumulate(counts)),
        )

    @classmethod
    def of_sorted(cls, scores: list[int], counts: list[int]) -> ScoreLadder:
        """The ladder of distinct scores already ascending, each with a positive count."""
        return cls(scores=tuple(scores), counts=tuple(counts), below=(0, *accumulate(counts)))

    @property
    def total(self) -> int:
        return self.below[-1]

    def higher(self, score: int) -> int:
        """Attempts with a strictly higher score."""
        return self.total - self.below[bisect_right(self.scores, score)]

    def lower(self, score: int) -> int:
        """Attempts with a strictly lower score."""
        return self.below[bisect_left(self.scores, score)]

    def rank(self, score: int) -> int:
        """docs/play.md: equal scores share a rank (1, 2, 2, 4)."""
        return rank_of(self.higher(score))

    def percentile(self, score: int) -> float | None:
        """The share of the other players this score beats, 0–100; None without others."""
        return percentile_of(self.lower(score), self.total)

    def start_of(self, position: int) -> tuple[int, int]:
        """The score of the attempt at ``position`` (0-based, best first) and how many attempts
        with that very score come before it."""
        for i in reversed(range(len(self.scores))):
            higher = self.total - self.below[i + 1]
            if position < higher + self.counts[i]:
                return self.scores[i], position - higher
        raise IndexError(position)


class Entry(NamedTuple):
    # A named tuple rather than a frozen dataclass: a page builds fifty of them (the top 100 a
    # hundred), and the dataclass's __init__ (an object.__setattr__ per field) was a seventh of
    # the top 100's CPU.
    rank: int
    name: str
    score: int
    finished_at: datetime.datetime
    # Only once the puzzle has closed: before that, other players' games stay hidden (docs/play.md).
    attempt: int | None
    # The caller's own entry.
    mine: bool = False
    # Seconds the game's turns took, on a timed challenge (the tie-break); None when untimed.
    time_taken: float | None = None


@dataclass(frozen=True)
class Standing:
    """A player's own place: their official finished attempt's rank and percentile."""

    rank: int
    name: str
    score: int
    finished_at: datetime.datetime
    percentile: float | None
    attempt: int


@dataclass(frozen=True)
class Bucket:
    start: int  # inclusive
    end: int  # exclusive
    count: int


@dataclass(frozen=True)
class ScoreTally:
    score: int
    count: int


@dataclass(frozen=True)
class Distribution:
    bucket_width: int
    histogram: list[Bucket]
    scores: list[ScoreTally]
    mean: float | None
    median: float | None
    best: int | None


@dataclass(frozen=True)
class Leaderboard:
    accounts: bool
    page: int
    page_size: int
    pages: int
    # Finished official games ranked here (the API keeps its key "players"); not
    # Puzzle.players, which counts the official attempts started.
    ranked: int
    entries: list[Entry]
    me: Standing | None
    # None while the scores are hidden from the caller (leaderboard_shown).
    distribution: Distribution | None
    # docs/play.md: before the close only a caller whose official game on the puzzle is finished
    # sees scores; to anyone else the board is its count alone (``ranked``).
    revealed: bool = True


def _ranked(puzzle: Puzzle, accounts: bool = False):
    # Exactly the condition of the partial index `attempt_leaderboard`, so that it serves
    # (finished_at rather than the state: see the index). A game held by the foresight check
    # (docs/foresight.md) is not ranked until it is released.
    ranked = Attempt.objects.filter(
        puzzle=puzzle, official=True, finished_at__isnull=False, held=False
    )
    return ranked.filter(player__user__isnull=False) if accounts else ranked


def score_counts(*, puzzle: Puzzle, accounts: bool = False) -> ScoreLadder:
    """The puzzle's ranked attempts counted per score (one query over distinct scores).

    ``accounts`` keeps account holders only (docs/play.md): those are counted from their attempts,
    a cost in proportion to the account holders who played, since no count is kept for them.
    """
    if accounts:
        rows = _ranked(puzzle, accounts=True).values("score").annotate(count=Count("id"))
        return ScoreLadder.of([(row["score"], row["count"]) for row in rows])
    return ScoreLadder.of(list(puzzle.score_counts.values_list("score", "count")))


# The untimed public page: two ranges of `attempt_leaderboard` (index-only scans: the index holds
# the condition, the order and the columns shown): the page's first score from the place the
# counts give, then the lower scores from their start, merged in the board's order and cut at the
# page's size (the first score's rows come first, so it takes as many of them as the page has
# room for). Nothing is skipped, so a deep page of a million players costs what page 1 does.
# Then the page's rows, and only they, joined to their players. time_taken, untimed, is left
# out. The limits are the page's size written out, not parameters: Postgres then plans the
# prepared statement once (its generic plan), where a LIMIT it cannot read made it plan every
# execution again (0.35 ms of its CPU each). Written so that SQLite (the development default)
# reads it too: each member of the UNION a subquery.
_RANKED_WHERE = "puzzle_id = %(puzzle)s AND official AND finished_at IS NOT NULL AND NOT held"
_COLUMNS = "id, score, score_position, finished_at, player_id"


@lru_cache(maxsize=8)
def _page_sql(size: int) -> str:
    limit = int(size)
    return f"""
SELECT a.id, a.score, a.finished_at, p.display_name, a.player_id, NULL
FROM (
    SELECT * FROM (
        SELECT {_COLUMNS} FROM daily_attempt
        WHERE {_RANKED_WHERE} AND score = %(score)s AND score_position > %(skip)s
        ORDER BY score_position LIMIT {limit}) AS here
    UNION ALL
    SELECT * FROM (
        SELECT {_COLUMNS} FROM daily_attempt WHERE {_RANKED_WHERE} AND score < %(score)s
        ORDER BY score DESC, score_position LIMIT {limit}) AS below
    ORDER BY score DESC, score_position
    LIMIT {limit}
) AS a JOIN daily_player p ON p.id = a.player_id
ORDER BY a.score DESC, a.score_position
"""


def _public_page_rows(puzzle: Puzzle, score: int, skip: int, size: int):
    # The places of a score's ranked attempts are 1 to its count (every way an attempt is counted
    # in or out keeps them so), so the page's first row is the one at place skip + 1.
    with connection.cursor() as cursor:
        cursor.execute(_page_sql(size), {"puzzle": puzzle.pk, "score": score, "skip": skip})
        return cursor.fetchall()


def _page_rows(puzzle: Puzzle, accounts: bool, start_score: int, skip: int, size: int) -> list:
    # Through the ORM, for account holders and timed challenges: their places within a score are
    # not the public board's (the account holders' are a subset of them, a timed challenge orders
    # by time taken), so the database passes over the page's ``skip`` first rows of the score.
    # Both count fewer players than the daily's public board.
    order = order_of(puzzle)
    ids = _ranked(puzzle, accounts).filter(score__lte=start_score).order_by(*order).values("id")
    return list(
        Attempt.objects.filter(pk__in=ids[skip : skip + size])
        .order_by(*order)
        .values_list(
            "id", "score", "finished_at", "player__display_name", "player_id", "time_taken"
        )
    )


def leaderboard_entries(
    *,
    puzzle: Puzzle,
    counts: ScoreLadder,
    page: int,
    now: datetime.datetime,
    page_size: int = PAGE_SIZE,
    accounts: bool = False,
    player: Player | None = None,
) -> list[Entry]:
    """One page of ranked attempts, best first, the caller's marked; empty past the last page."""
    if page < 1 or page_size < 1:
        raise Invalid("invalid", "Pages are numbered from 1.")
    position = (page - 1) * page_size
    if position >= counts.total:
        return []
    # The counts say which score the page starts at and its place within that score, so the
    # database never walks past the attempts above a deep page as a plain OFFSET would.
    start_score, skip = counts.start_of(position)
    timed = puzzle.turn_seconds is not None
    if accounts or timed:
        rows = _page_rows(puzzle, accounts, start_score, skip, page_size)
    else:
        # The daily's board, read most: one statement written out (the ORM's building of it
        # cost more than the database's work).
        rows = _public_page_rows(puzzle, start_score, skip, page_size)
    closed = now >= puzzle.closes_at
    entries = []
    before = previous = None
    for attempt_id, score, finished_at, name, player_id, time_taken in rows:
        # Attempts of the same score ahead of this one: the skipped ones, then the page's own.
        if score == previous:
            before += 1
        else:
            before = skip if score == start_score else 0
            # Once per score: a page holds long runs of equal scores.
            shared = counts.rank(score)
        previous = score
        entries.append(
            Entry(
                rank=tie_rank(shared, before, timed),
                name=name,
                score=score,
                finished_at=finished_at,
                attempt=attempt_id if closed else None,
                mine=player is not None and player_id == player.pk,
                time_taken=round(time_taken.total_seconds(), 3) if timed else None,
            )
        )
    return entries


def player_standing(
    *,
    puzzle: Puzzle,
    player: Player | None,
    counts: ScoreLadder | None = None,
    accounts: bool = False,
) -> Standing | None:
    """The player's rank and percentile on the puzzle, or None until their official attempt has
    finished (practice attempts are never ranked) and while it is held."""
    if player is None:
        return None
    if counts is None and not accounts and puzzle.turn_seconds is None:
        # Shared ranks need only the counts; a timed challenge's tie-break needs the rows below.
        return _standing_alone(puzzle, player)
    row = (
        _ranked(puzzle, accounts)
        .filter(player=player)
        .values_list("id", "score", "finished_at", "time_taken")
        .first()
    )
    if row is None:
        return None
    attempt_id, score, finished_at, time_taken = row
    if counts is None:
        counts = score_counts(puzzle=puzzle, accounts=accounts)
    before = 0
    if puzzle.turn_seconds is not None:
        before = (
            _ranked(puzzle, accounts)
            .filter(score=score)
            .filter(
                Q(time_taken__lt=time_taken)
                | Q(time_taken=time_taken, finished_at__lt=finished_at)
                | Q(time_taken=time_taken, finished_at=finished_at, id__lt=attempt_id)
            )
            .count()
        )
    return Standing(
        rank=tie_rank(counts.rank(score), before, puzzle.turn_seconds is not None),
        name=player.display_name,
        score=score,
        finished_at=finished_at,
        percentile=counts.percentile(score),
        attempt=attempt_id,
    )


# The player's ranked attempt and the three sums its rank and percentile need, in one statement
# and one round trip: the attempt through the unique index of official attempts, the sums over the
# puzzle's ScoreCount rows (distinct scores, not players).
_STANDING = """
SELECT a.id, a.score, a.finished_at,
       COALESCE(SUM(c.count) FILTER (WHERE c.score > a.score), 0),
       COALESCE(SUM(c.count) FILTER (WHERE c.score < a.score), 0),
       COALESCE(SUM(c.count), 0)
FROM daily_attempt a
LEFT JOIN daily_scorecount c ON c.puzzle_id = a.puzzle_id
WHERE a.puzzle_id = %s AND a.player_id = %s
  AND a.official AND a.finished_at IS NOT NULL AND NOT a.held
GROUP BY a.id
"""


def _standing_alone(puzzle: Puzzle, player: Player) -> Standing | None:
    # The condition is _ranked()'s; the bench (bench/leaderboard.py) shows this at under a
    # millisecond where the attempt, then the counts, cost two round trips and the ORM twice.
    with connection.cursor() as cursor:
        cursor.execute(_STANDING, [puzzle.pk, player.pk])
        row = cursor.fetchone()
    if row is None:
        return None
    attempt_id, score, finished_at, higher, lower, total = row
    return Standing(
        rank=rank_of(higher),
        name=player.display_name,
        score=score,
        finished_at=finished_at,
        percentile=percentile_of(lower, total),
        attempt=attempt_id,
    )


# Each listed attempt's standing, derived rather than stored (a close would otherwise write every
# ranked row of its day, a million on a big day): the sums over its puzzle's ScoreCount rows
# (distinct scores, a few hundred), and on a timed challenge the attempts of the same score ahead
# of it by TIMED_ORDER (few players, on the leaderboard's index). Only ranked attempts come back:
# official, finished and not held, exactly _ranked()'s condition.
_RANKS = """
SELECT a.id, c.higher, c.lower, c.total,
       CASE WHEN p.turn_seconds IS NULL THEN 0 ELSE (
           SELECT count(*) FROM daily_attempt b
           WHERE b.puzzle_id = a.puzzle_id AND b.official AND b.finished_at IS NOT NULL
             AND NOT b.held AND b.score = a.score
             AND (b.time_taken, b.finished_at, b.id) < (a.time_taken, a.finished_at, a.id)
       ) END
FROM daily_attempt a
JOIN daily_puzzle p ON p.id = a.puzzle_id
CROSS JOIN LATERAL (
    SELECT COALESCE(SUM(s.count) FILTER (WHERE s.score > a.score), 0) AS higher,
           COALESCE(SUM(s.count) FILTER (WHERE s.score < a.score), 0) AS lower,
           COALESCE(SUM(s.count), 0) AS total
    FROM daily_scorecount s WHERE s.puzzle_id = a.puzzle_id
) c
WHERE a.id = ANY(%s) AND a.official AND a.finished_at IS NOT NULL AND NOT a.held
"""


def attempt_ranks(attempt_ids: Iterable[int]) -> dict[int, tuple[int, float | None]]:
    """The rank and percentile of each listed attempt that is ranked, as its puzzle's leaderboard
    shows it (live while the puzzle is open, final once closed), in one query; attempts not
    ranked (practice, unfinished, held) are left out."""
    ids = list(attempt_ids)
    if not ids:
        return {}
    if connection.vendor != "postgresql":
        rows = _ranks_portable(ids)
    else:
        with connection.cursor() as cursor:
            cursor.execute(_RANKS, [ids])
            rows = cursor.fetchall()
    return {
        attempt_id: (rank_of(higher + before), percentile_of(lower, total))
        for attempt_id, higher, lower, total, before in rows
    }


def _ranks_portable(ids: list[int]) -> list[tuple[int, int, int, int, int]]:
    """_RANKS's rows without arrays or lateral joins (SQLite, the development default)."""
    ranked = Attempt.objects.filter(
        pk__in=ids, official=True, finished_at__isnull=False, held=False
    ).select_related("puzzle")
    ladders: dict[int, ScoreLadder] = {}
    rows = []
    for attempt in ranked:
        puzzle = attempt.puzzle
        ladder = ladders.get(puzzle.pk) or ladders.setdefault(
            puzzle.pk, score_counts(puzzle=puzzle)
        )
        before = 0
        if puzzle.turn_seconds is not None:
            before = (
                _ranked(puzzle)
                .filter(score=attempt.score)
                .filter(
                    Q(time_taken__lt=attempt.time_taken)
                    | Q(time_taken=attempt.time_taken, finished_at__lt=attempt.finished_at)
                    | Q(
                        time_taken=attempt.time_taken,
                        finished_at=attempt.finished_at,
                        id__lt=attempt.pk,
                    )
                )
                .count()
            )
        rows.append(
            (
                attempt.pk,
                ladder.higher(attempt.score),
                ladder.lower(attempt.score),
                ladder.total,
                before,
            )
        )
    return rows


# The public board's counts and the caller's ranked attempt (if any), in one statement: the
# counts as two arrays (one row to read rather than a row per score), the attempt through the
# unique index of official attempts.
_LADDER_AND_MINE = """
SELECT l.scores, l.counts, a.id, a.score, a.finished_at
FROM (
    SELECT array_agg(score ORDER BY score), array_agg(count ORDER BY score)
    FROM daily_scorecount WHERE puzzle_id = %s AND count > 0
) AS l (scores, counts)
LEFT JOIN daily_attempt a
  ON a.puzzle_id = %s AND a.player_id = %s
  AND a.official AND a.finished_at IS NOT NULL AND NOT a.held
"""


def _ladder_and_standing(puzzle: Puzzle, player: Player | None):
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(_LADDER_AND_MINE, [puzzle.pk, puzzle.pk, player and player.pk])
            scores, counts, attempt_id, score, finished_at = cursor.fetchone()
        ladder = ScoreLadder.of_sorted(scores or [], counts or [])
    else:
        # SQLite (the embedded development default) has no arrays: two plain statements.
        ladder = score_counts(puzzle=puzzle)
        mine = _ranked(puzzle).filter(player=player).values_list("id", "score", "finished_at")
        attempt_id, score, finished_at = (mine.first() if player else None) or (None,) * 3
    if attempt_id is None:
        return ladder, None
    return ladder, Standing(
        rank=ladder.rank(score),
        name=player.display_name,
        score=score,
        finished_at=finished_at,
        percentile=ladder.percentile(score),
        attempt=attempt_id,
    )


def score_distribution(*, counts: ScoreLadder, bucket_width: int = BUCKET_WIDTH) -> Distribution:
    """The histogram of scores from 0 to the best one, the raw counts, mean, median and best.

    The same counts give the same (shared, not to be changed) object: a board read many times
    between two finishes builds it once per process."""
    return _distribution(counts, bucket_width)


@lru_cache(maxsize=16)
def _distribution(counts: ScoreLadder, bucket_width: int) -> Distribution:
    tallies = [
        ScoreTally(score=s, count=c) for s, c in zip(counts.scores, counts.counts, strict=True)
    ]
    if not counts.total:
        return Distribution(
            bucket_width, histogram=[], scores=[], mean=None, median=None, best=None
        )
    best = counts.scores[-1]
    per_bucket = [0] * (best // bucket_width + 1)
    for score, count in zip(counts.scores, counts.counts, strict=True):
        per_bucket[score // bucket_width] += count
    histogram = [
        Bucket(start=i * bucket_width, end=(i + 1) * bucket_width, count=count)
        for i, count in enumerate(per_bucket)
    ]
    mean = sum(s * c for s, c in zip(counts.scores, counts.counts, strict=True)) / counts.total
    return Distribution(
        bucket_width,
        histogram=histogram,
        scores=tallies,
        mean=round(mean, 1),
        median=(_nth(counts, (counts.total - 1) // 2) + _nth(counts, counts.total // 2)) / 2,
        best=best,
    )


def _nth(counts: ScoreLadder, n: int) -> int:
    """The score of the n-th attempt (0-based) from the lowest."""
    return counts.scores[bisect_right(counts.below, n) - 1]


def scores_revealed(
    *, puzzle: Puzzle, player: Player | None, now: datetime.datetime, finished: bool = False
) -> bool:
    """docs/play.md: nobody learns a puzzle's scores before playing it. Anyone sees them once the
    puzzle has closed; before (open, or a daily's grace, while games in progress may still be
    played), only a player whose official game on it is finished (``finished``: known already,
    which spares the query)."""
    return (
        finished
        or puzzle.status(now) == Puzzle.Status.CLOSED
        or official_finished(player=player, puzzle=puzzle)
    )


def _counts_and_standing(
    puzzle: Puzzle, player: Player | None, accounts: bool
) -> tuple[ScoreLadder, Standing | None]:
    if accounts or puzzle.turn_seconds is not None:
        counts = score_counts(puzzle=puzzle, accounts=accounts)
        return counts, player_standing(
            puzzle=puzzle, player=player, counts=counts, accounts=accounts
        )
    return _ladder_and_standing(puzzle, player)


def _board(
    *,
    puzzle: Puzzle,
    counts: ScoreLadder,
    me: Standing | None,
    page: int,
    now: datetime.datetime,
    player: Player | None,
    page_size: int,
    accounts: bool,
) -> Leaderboard:
    return Leaderboard(
        accounts=accounts,
        page=page,
        page_size=page_size,
        pages=-(-counts.total // page_size),
        ranked=counts.total,
        entries=leaderboard_entries(
            puzzle=puzzle,
            counts=counts,
            page=page,
            now=now,
            page_size=page_size,
            accounts=accounts,
            player=player,
        ),
        me=me,
        distribution=score_distribution(counts=counts),
    )


def leaderboard_page(
    *,
    puzzle: Puzzle,
    page: int,
    now: datetime.datetime,
    player: Player | None = None,
    page_size: int = PAGE_SIZE,
    accounts: bool = False,
) -> Leaderboard:
    """A page of the puzzle's whole leaderboard with the player's own standing and the
    distribution, whoever asks: what a caller may see of it is ``leaderboard_shown``.

    Live while the puzzle is open; attempt ids (the way to other players' games) appear once it
    has closed.
    """
    counts, me = _counts_and_standing(puzzle, player, accounts)
    return _board(
        puzzle=puzzle,
        counts=counts,
        me=me,
        page=page,
        now=now,
        player=player,
        page_size=page_size,
        accounts=accounts,
    )


def leaderboard_shown(
    *,
    puzzle: Puzzle,
    page: int,
    now: datetime.datetime,
    player: Player | None,
    page_size: int = PAGE_SIZE,
    accounts: bool = False,
) -> Leaderboard:
    """The page of the leaderboard ``player`` may see now (``scores_revealed``): the whole page
    (``leaderboard_page``) after the close or once their official game is finished; before, only
    how many have finished (``ranked``), with no entry, standing or distribution."""
    counts, me = _counts_and_standing(puzzle, player, accounts)
    if not scores_revealed(puzzle=puzzle, player=player, now=now, finished=me is not None):
        # Not even the pages: their number is the count's, and none of them may be read.
        return Leaderboard(
            accounts=accounts,
            page=page,
            page_size=page_size,
            pages=0,
            ranked=counts.total,
            entries=[],
            me=None,
            distribution=None,
            revealed=False,
        )
    return _board(
        puzzle=puzzle,
        counts=counts,
        me=me,
        page=page,
        now=now,
        player=player,
        page_size=page_size,
        accounts=accounts,
    )
