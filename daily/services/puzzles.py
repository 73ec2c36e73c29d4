"""Writes of puzzles: a day's daily, created on demand exactly as the rollover would."""

from __future__ import annotations

import datetime
import functools
import threading
import time

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, connection, transaction

import farkle
from daily.rules.calendar import first_day, published_until
from farkle_site.db import one_or_none
from farkle_site.domain import NotFound
from play.models import DAILY_GRACE, Puzzle
from play.rules.days import day_start


def daily_create(*, day: datetime.date) -> bool:
    """Create the daily of ``day`` with its commitment unless it exists; True when created.

    Two creators may race (the request path and the rollover): the unique constraint keeps one
    row and the other creator finds it.
    """
    if Puzzle.objects.filter(kind=Puzzle.Kind.DAILY, day=day).exists():
        return False
    seed = farkle.daily_seed(settings.FARKLE_SEED_SECRET.encode(), day)
    ends_at = day_start(day + datetime.timedelta(days=1))
    try:
        with transaction.atomic():
            Puzzle.objects.create(
                kind=Puzzle.Kind.DAILY,
                day=day,
                table=farkle.DEFAULT_TABLE,
                commitment=farkle.commitment(seed),
                opens_at=day_start(day),
                ends_at=ends_at,
                closes_at=ends_at + DAILY_GRACE,
            )
    except IntegrityError:
        return False
    return True


def daily_get_or_create(
    *, day: datetime.date, now: datetime.datetime, recent: bool = False, counters: bool = True
) -> Puzzle:
    """The daily of ``day``, created on first use exactly as the rollover would; NotFound
    ``not_found`` for a day beyond the published horizon (whatever the client's clock says) or
    before the first day. Tomorrow's daily exists, upcoming: its commitment is public.

    A daily's row never changes but for its counters (``players``, and ``closed_at`` and
    ``final_stats`` from the close): the rest is kept in the shared cache, and the counters are
    read fresh by one lean query, which also proves the cached copy is of the row that stands.

    With ``recent``, the counters of the day in play may be the ones this process read up to
    ``FARKLE_RECENT_COUNTERS_MS`` ago, with its own starts counted since: what a day's page shows
    ("n played today"), not what anything decides on.

    Without ``counters``, a cached copy is returned as it is, its counters as old as the copy
    and its row unproven: for a caller that reads no counter and proves the row by a write
    conditional on it (a start: ``play.services.attempts.attempt_start``).
    """
    if day > published_until(now) or day < first_day():
        raise NotFound("not_found", f"There is no daily for {day.isoformat()}.")
    key = _cache_key(day)
    puzzle = cache.get(key)
    if puzzle is not None:
        if not counters:
            return puzzle
        if recent and now < puzzle.ends_at and _recent_counters_set(key, puzzle):
            return puzzle
        if _counters_read(puzzle, key):
            return puzzle
    puzzle = one_or_none(Puzzle.objects.filter(kind=Puzzle.Kind.DAILY, day=day))
    if puzzle is None:
        daily_create(day=day)
        puzzle = Puzzle.objects.get(kind=Puzzle.Kind.DAILY, day=day)
    cache.set(key, puzzle, _CACHED_SECONDS)
    _recent_keep(key, puzzle)
    return puzzle


# Every start and every read of a day finds its daily (2,000 of each in the midnight rush's first
# seconds): from the cache, about a tenth of the ORM's query (docs/performance.md).
_CACHED_SECONDS = 3600
# The fields of a daily that change after it is created.
_COUNTERS = ("players", "closed_at", "final_stats")


@functools.cache
def _database_identity(name: str) -> str:
    # A database dropped and created again under the same name (a restore, the benchmarks) numbers
    # its puzzles anew: the cache must not hand out a puzzle of the one before.
    if connection.vendor != "postgresql":
        return name
    with connection.cursor() as cursor:
        cursor.execute("SELECT oid FROM pg_database WHERE datname = current_database()")
        return f"{name}:{cursor.fetchone()[0]}"


def _cache_key(day: datetime.date) -> str:
    identity = _database_identity(connection.settings_dict["NAME"])
    return f"farkle:daily:{identity}:{day.isoformat()}"


# The midnight rush reads today's daily 2,000 times in a few seconds, each time a statement of
# its own for a count that changes as fast (docs/performance.md): a second behind is still news
# (settings.FARKLE_RECENT_COUNTERS_MS). By cache key: when this process last read a daily's
# counters (its monotonic clock), and them.
_recent: dict[str, tuple[float, tuple]] = {}
_recent_lock = threading.Lock()


def _recent_counters_set(key: str, puzzle: Puzzle) -> bool:
    """Set on ``puzzle`` the counters this process read of it lately; False when it has none."""
    entry = _recent.get(key)
    if entry is None or (time.monotonic() - entry[0]) * 1000 >= settings.FARKLE_RECENT_COUNTERS_MS:
        return False
    for name, value in zip(_COUNTERS, entry[1], strict=True):
        setattr(puzzle, name, value)
    return True


def daily_player_counted(puzzle: Puzzle) -> None:
    """Count a player this process has just counted on ``puzzle`` in its recent counters too, so
    that its own starts show at once; called once the count is committed."""
    if puzzle.kind != Puzzle.Kind.DAILY:
        return
    key = _cache_key(puzzle.day)
    with _recent_lock:
        entry = _recent.get(key)
        if entry is not None:
            read_at, (players, *rest) = entry
            _recent[key] = (read_at, (players + 1, *rest))


def _counters_read(puzzle: Puzzle, key: str) -> bool:
    """Read the puzzle's counters into it, and keep them as this process's recent ones under
    ``key``; False when its row is gone (a stale cache entry)."""
    # The same id, day and commitment (the commitment names the seed, hence the dice): the row
    # the cached copy was made of, whatever has become of the database since.
    counters = one_or_none(
        Puzzle.objects.filter(
            pk=puzzle.pk, day=puzzle.day, commitment=puzzle.commitment
        ).values_list(*_COUNTERS)
    )
    if counters is None:
        with _recent_lock:
            _recent.pop(key, None)
        return False
    for name, value in zip(_COUNTERS, counters, strict=True):
        setattr(puzzle, name, value)
    _recent_keep(key, puzzle)
    return True


def _recent_keep(key: str, puzzle: Puzzle) -> None:
    """Keep the counters just read into ``puzzle`` as this process's recent ones."""
    # Read inside a transaction, they may hold the caller's own changes, not yet committed.
    if connection.in_atomic_block:
        return
    values = tuple(getattr(puzzle, name) for name in _COUNTERS)
    with _recent_lock:
        _recent[key] = (time.monotonic(), values)
