"""The games this process last played, with the attempt rows they were played from, so that a
game action need neither read its row nor replay its game.

Every action used to read the attempt's row and replay its stored actions (issue 15: about a
tenth of an action's server CPU), then to read the row again for each action even when its game
was known here. A game is a pure function of the attempt's dice, its puzzle's table and rules,
and its stored actions; the actions only ever grow, one per step, by an update conditional on
the step (``play.services.attempts``). So the game of an attempt at a given step never changes,
and the one this process computed for that step can serve again; and while the attempt is
unfinished, nothing but an action (or a timeout, also an action) or the close (which finishes
it) writes its row, so the row this process last read or wrote at a step is the row as it
stands, as long as the row is still at that step and unfinished.

Two ways in:

- ``game_of(attempt)``: a row just read. Its game is found here only under what that row says
  (the attempt's id, start instant, puzzle, dice and step); anything else is replayed.
- ``attempt_of(attempt_id, player_id)``: no row read. The row and game this process last read
  or wrote for the attempt, as a fresh model instance (``Model.from_db``), or None. The caller
  must write under a condition that proves the row unchanged (the step, and not finished: the
  action's conditional update) and, when that write matches no row (another process, or the
  close, moved the game on), read the row and start over from it. So nothing is correct only
  because of this cache: a stale entry costs a missed write, never a wrong game.

Only the attempt services use it; ``Attempt.game`` always replays. With
``FARKLE_CHECK_GAME_CACHE`` on (the test suite sets it), every game found here is also replayed
and must be equal, and every row served without a read is compared with the row read, or the
request fails.
"""

from __future__ import annotations

import datetime
import threading
from collections import OrderedDict

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS

import farkle
from play.models import Attempt, Puzzle

# About 20 KB a finished game at most, and its row: a few tens of MB per process when full.
SIZE = 2048

_Key = tuple[datetime.datetime, int, str, int]

# The columns remembered, in the models' order (``Model.from_db`` takes them so).
_ATTEMPT_FIELDS = tuple(field.attname for field in Attempt._meta.concrete_fields)
_PUZZLE_FIELDS = tuple(field.attname for field in Puzzle._meta.concrete_fields)
_ACTIONS = _ATTEMPT_FIELDS.index("actions")
_PLAYER = _ATTEMPT_FIELDS.index("player_id")
# What a remembered puzzle may hold out of date: its counters, which no action reads.
_PUZZLE_COUNTERS = frozenset({"players", "closed_at", "final_stats"})


class _Entry:
    """One attempt's row and its puzzle's, as tuples of column values (never changed once
    made: every request builds model instances of its own from them), and the game."""

    __slots__ = ("key", "row", "puzzle", "game")

    def __init__(self, attempt: Attempt, game: farkle.Game) -> None:
        self.key = _key(attempt)
        self.row = tuple(getattr(attempt, name) for name in _ATTEMPT_FIELDS)
        puzzle = attempt.puzzle
        self.puzzle = tuple(getattr(puzzle, name) for name in _PUZZLE_FIELDS)
        self.game = game


# By attempt id, most recently used last.
_games: OrderedDict[int, _Entry] = OrderedDict()
# gthread workers serve requests from several threads at once.
_lock = threading.Lock()
# How many games were found here, and how many of them with their rows (no read), for the tests.
hits = 0
rows_served = 0


def _key(attempt: Attempt) -> _Key:
    # What else makes the game: two attempts that came to share an id (a database restored from
    # a backup, then written again) differ in one of these, or at least in their start instant.
    return (attempt.started_at, attempt.puzzle_id, attempt.dice_source, attempt.step)


def game_of(attempt: Attempt) -> farkle.Game:
    """The game of a row just read, as its stored actions replay it (before any close finalised
    it); the row is remembered with it."""
    global hits
    key = _key(attempt)
    with _lock:
        found = _games.get(attempt.pk)
        game = found.game if found is not None and found.key == key else None
        if game is not None:
            hits += 1
    replayed = None
    if game is None or settings.FARKLE_CHECK_GAME_CACHE:
        replayed = attempt.replay()
    if game is not None and replayed is not None and replayed != game:
        raise AssertionError(f"attempt {attempt.pk}: the remembered game differs from its replay")
    game = game or replayed
    remember(attempt, game)
    return game


def attempt_of(*, attempt_id: int, player_id: int) -> tuple[Attempt, farkle.Game] | None:
    """The player's attempt ``attempt_id`` as this process last read or wrote its row, with its
    puzzle and its game (before any close finalised it); None when this process does not know
    it as that player's.

    Not a read: the row may have moved on since (see the module's docstring for what a caller
    must do). Each call builds instances of its own, so a request may change its copy.
    """
    global hits, rows_served
    with _lock:
        entry = _games.get(attempt_id)
        if entry is None:
            return None
        _games.move_to_end(attempt_id)
    if entry.row[_PLAYER] != player_id:
        return None
    row = list(entry.row)
    # The list of actions is the one mutable value: each copy its own.
    row[_ACTIONS] = list(row[_ACTIONS])
    attempt = Attempt.from_db(DEFAULT_DB_ALIAS, _ATTEMPT_FIELDS, row)
    attempt.puzzle = Puzzle.from_db(DEFAULT_DB_ALIAS, _PUZZLE_FIELDS, entry.puzzle)
    if settings.FARKLE_CHECK_GAME_CACHE:
        _check(attempt, entry.game)
    with _lock:
        hits += 1
        rows_served += 1
    return attempt, entry.game


def _check(remembered: Attempt, game: farkle.Game) -> None:
    """Fail unless the remembered row is the stored one wherever the stored one is still at its
    step and unfinished (else the caller's conditional write misses, as it must), and its game
    is the replay (the tests' check; a read production does not make)."""
    stored = Attempt.objects.select_related("puzzle").filter(pk=remembered.pk).first()
    if (
        stored is None
        or stored.step != remembered.step
        or stored.state == Attempt.State.FINISHED
        or stored.started_at != remembered.started_at
    ):
        return
    differ = [
        name for name in _ATTEMPT_FIELDS if getattr(stored, name) != getattr(remembered, name)
    ] + [
        f"puzzle.{name}"
        for name in _PUZZLE_FIELDS
        if name not in _PUZZLE_COUNTERS
        and getattr(stored.puzzle, name) != getattr(remembered.puzzle, name)
    ]
    if differ:
        raise AssertionError(
            f"attempt {remembered.pk}: the remembered row differs from the stored one in "
            f"{', '.join(differ)}"
        )
    if stored.replay() != game:
        raise AssertionError(
            f"attempt {remembered.pk}: the remembered game differs from its replay"
        )


def remember(attempt: Attempt, game: farkle.Game) -> None:
    """Keep ``game`` as the attempt's, with its row as ``attempt`` holds it (just read, or just
    written: every column as stored)."""
    entry = _Entry(attempt, game)
    with _lock:
        _games[attempt.pk] = entry
        _games.move_to_end(attempt.pk)
        while len(_games) > SIZE:
            _games.popitem(last=False)


def forget(attempt_id: int) -> None:
    """Drop what this process remembers of the attempt (its row proved out of date)."""
    with _lock:
        _games.pop(attempt_id, None)


def clear() -> None:
    global hits, rows_served
    with _lock:
        _games.clear()
        hits = 0
        rows_served = 0
