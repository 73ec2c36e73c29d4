"""The games this process last replayed or played, so that a game action need not replay its game.

Every action reads the attempt's stored actions and used to replay them all (issue 15: about a
tenth of an action's server CPU). A game is a pure function of the attempt's dice, its puzzle's
table and rules, and its stored actions; the actions only ever grow, one per step, by an update
conditional on the step (``daily.services.attempts``). So the game of an attempt at a given step
never changes, and the one this process computed for that step can serve again. An attempt's
next action usually reaches the process that answered its last one (the browser's keep-alive
connection); any other process replays, as before.

The stored actions stay the only truth: a game read with its row is found here only under the
attempt's id, its start instant, puzzle, dice and step, all read with the row. An action may also
start from the row as this process last wrote it (``latest``), without reading it again: its
write is conditional on that step, the player and the start instant, so it lands only if the
row is still the one remembered (no other write leaves an unfinished game's step unchanged);
any refusal goes the long way, reading the row. With ``FARKLE_CHECK_GAME_CACHE`` on (the test
suite sets it), every game found here is also replayed and must be equal, and every row written
without a read is read back and compared field by field, or the request fails.
"""

from __future__ import annotations

import datetime
import json
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, NamedTuple

from django.conf import settings

import farkle
from farkle_site.db import model_copy

if TYPE_CHECKING:
    from play.models import Attempt

# About 20 KB a finished game at most: a few tens of MB per process when full.
SIZE = 2048

_Key = tuple[datetime.datetime, int, str, int]


class _Entry(NamedTuple):
    key: _Key
    game: farkle.Game
    # The attempt's row as this process last read or wrote it, at the game's step.
    attempt: Attempt


_games: OrderedDict[int, _Entry] = OrderedDict()
# gthread workers serve requests from several threads at once.
_lock = threading.Lock()
# How many games were found here, for the tests.
hits = 0


def _key(attempt: Attempt) -> _Key:
    # What else makes the game: two attempts that came to share an id (a database restored from
    # a backup, then written again) differ in one of these, or at least in their start instant.
    return (attempt.started_at, attempt.puzzle_id, attempt.dice_source, attempt.step)


def game_of(attempt: Attempt) -> farkle.Game:
    """The attempt's game as its stored actions replay it (before any close finalised it)."""
    global hits
    key = _key(attempt)
    with _lock:
        found = _games.get(attempt.pk)
        game = found.game if found is not None and found.key == key else None
        if game is not None:
            hits += 1
    replayed = None
    if game is None or settings.FARKLE_CHECK_GAME_CACHE:
        puzzle = attempt.puzzle
        replayed = farkle.Game.replay(attempt.seed(), attempt.actions, puzzle.table, puzzle.rules())
    if game is not None and replayed is not None and replayed != game:
        raise AssertionError(f"attempt {attempt.pk}: the remembered game differs from its replay")
    game = game or replayed
    # The row just read, at the same step, may still say something new (the close finalised it).
    remember(attempt, game)
    return game


def remember(attempt: Attempt, game: farkle.Game) -> None:
    """Keep ``game`` as the attempt's at its current step, with a copy of its row as it stands
    (read, or just written)."""
    entry = _Entry(_key(attempt), game, model_copy(attempt))
    with _lock:
        _games[attempt.pk] = entry
        _games.move_to_end(attempt.pk)
        while len(_games) > SIZE:
            _games.popitem(last=False)


def latest(attempt_id: int) -> tuple[Attempt, farkle.Game] | None:
    """The attempt as this process last read or wrote it, and its game at that step; the database
    may have moved on since (the caller's write, conditional on that step, tells)."""
    global hits
    with _lock:
        found = _games.get(attempt_id)
        if found is None:
            return None
        hits += 1
    return model_copy(found.attempt), found.game


def check_row(attempt: Attempt, game: farkle.Game) -> None:
    """With FARKLE_CHECK_GAME_CACHE: the stored row must be ``attempt`` field for field, and
    replay to ``game`` (after an action written without reading the row first)."""
    if not settings.FARKLE_CHECK_GAME_CACHE:
        return
    stored = type(attempt).objects.select_related("puzzle").get(pk=attempt.pk)
    for field in attempt._meta.concrete_fields:
        mine, theirs = field.value_from_object(attempt), field.value_from_object(stored)
        if json.dumps(mine, default=str, sort_keys=True) != json.dumps(
            theirs, default=str, sort_keys=True
        ):
            raise AssertionError(f"attempt {attempt.pk}: {field.name} {mine!r} != {theirs!r}")
    puzzle = stored.puzzle
    if farkle.Game.replay(stored.seed(), stored.actions, puzzle.table, puzzle.rules()) != game:
        raise AssertionError(f"attempt {attempt.pk}: the stored actions replay another game")


def clear() -> None:
    global hits
    with _lock:
        _games.clear()
        hits = 0
