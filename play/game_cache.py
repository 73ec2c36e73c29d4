"""The games this process last replayed or played, so that a game action need not replay its game.

Every action reads the attempt's row and used to replay its stored actions all (issue 15: about a
tenth of an action's server CPU). A game is a pure function of the attempt's dice, its puzzle's
table and rules, and its stored actions; the actions only ever grow, one per step, by an update
conditional on the step (``play.services.attempts``). So the game of an attempt at a given step
never changes, and the one this process computed for that step can serve again.

A pure cache: the row is always read first, and a game is found here only under what that row
says (the attempt's id, start instant, puzzle, dice and step); anything else is replayed. Only
the attempt services use it; ``Attempt.game`` always replays. An attempt's actions served by
several processes in turn are each replayed once where the game is not known (a test plays
one game so). With ``FARKLE_CHECK_GAME_CACHE`` on (the test suite sets it), every game found
here is also replayed and must be equal, or the request fails.
"""

from __future__ import annotations

import datetime
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

from django.conf import settings

import farkle

if TYPE_CHECKING:
    from play.models import Attempt

# About 20 KB a finished game at most: a few tens of MB per process when full.
SIZE = 2048

_Key = tuple[datetime.datetime, int, str, int]

# By attempt id: what made the game (``_key``) and the game.
_games: OrderedDict[int, tuple[_Key, farkle.Game]] = OrderedDict()
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
        game = found[1] if found is not None and found[0] == key else None
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


def remember(attempt: Attempt, game: farkle.Game) -> None:
    """Keep ``game`` as the attempt's at the step its row (read, or just written) is at."""
    with _lock:
        _games[attempt.pk] = (_key(attempt), game)
        _games.move_to_end(attempt.pk)
        while len(_games) > SIZE:
            _games.popitem(last=False)


def clear() -> None:
    global hits
    with _lock:
        _games.clear()
        hits = 0
